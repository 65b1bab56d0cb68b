"""How well the support check tells a precedent that backs a sentence from one that does not.

A labelled set is built from the real agreements in ../shared/data/contracts, read with the
project's own .docx reader. For a sentence of a clause:

- positive: the sentence restated by rule (synonyms, reordering, dropped words) against
  its own clause;
- negatives against the same clause: a restated sentence of another clause of the same
  agreement, one of another agreement, and the sentence with a changed amount, duration,
  party or negation (each restated too, so restating is no signal).

Documents are split by family (the 50 state restrictive covenants are one family, every
NDA another ...) so held-out documents share no near-copies with the train part. The
synonym list the restater uses is not known to the scorer.

    precedent-bench citations           # evaluate support.py's weights and threshold
    precedent-bench citations --fit     # fit weights and threshold on the train part
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import random
import re
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from addin_server.draft import support
from index_builder.reading.sentences import sentence_spans
from index_builder.errors import DocumentError
from index_builder.ingest import read_clauses

from precedent_bench.catalogue import require, subparser
from precedent_bench.common.data import CONTRACTS, agreements

log = logging.getLogger("citation_support")
FEATURES = ("coverage", "pairs", "amount", "negation", "party")
SEED = 11

# The restater's synonyms (word -> alternatives). The scorer does not know them.
SYNONYMS = {
    "shall": ["will", "must"], "agreement": ["contract"], "terminate": ["end"],
    "terminated": ["ended"], "provide": ["supply", "give"], "provided": ["supplied", "given"],
    "receive": ["obtain", "get"], "obligations": ["duties"], "disclose": ["reveal"],
    "require": ["need"], "ensure": ["make sure"], "purchase": ["buy"], "commence": ["begin"],
    "notify": ["inform"], "prior to": ["before"], "pursuant to": ["under"],
    "in accordance with": ["under", "as set out in"], "promptly": ["quickly"],
    "written": ["signed written"], "including": ["such as"], "perform": ["carry out"],
    "use": ["utilise"], "applicable": ["relevant"], "reasonable": ["fair"],
    "immediately": ["at once"], "expiration": ["expiry"], "sole": ["only"],
    "following": ["after"], "request": ["demand"], "materials": ["documents"],
}
_DROPPABLE = ("any ", "all ", "such ", "promptly ", "reasonably ", "applicable ", "then ",
              "otherwise ", "solely ", "expressly ", "hereby ", "respectively", "also ")
_LEADS = re.compile(r"^(If|Unless|Upon|In the event|Except|Subject to|Notwithstanding|During|"
                    r"Within|For|After|Before|Following|Without)\b([^,]{5,120}),\s+(.+?)([.;:]?)$")
_MODAL = re.compile(r"\b(shall|will|must|may|agrees to|is)\b(?!\s+not)")
_NOT = re.compile(r"\b(shall|will|must|may|is|does|do)\s+not\b")
_NUMBER = re.compile(r"\b\d+(?:,\d{3})*(?:\.\d+)?\b|\b(?:one|two|three|four|five|six|seven|"
                     r"eight|nine|ten|twelve|fifteen|twenty|thirty|sixty|ninety)\b", re.I)
_UNIT = re.compile(r"\b(days?|weeks?|months?|years?|hours?)\b", re.I)
_ROLE = re.compile(r"\b(?:the\s+)?((?:[A-Z][a-z]+\s){0,1}[A-Z][a-z]+)\b")


@dataclass(frozen=True)
class Example:
    sentence: str
    clause: str
    label: int  # 1: the clause backs the sentence
    kind: str  # restatement, other clause, other document, amount, duration, party, negation
    family: str


def family(path: Path) -> str:
    name = re.sub(r"^(common-paper|bonterms|openagreements)-", "", path.stem)
    if "nda" in name.split("-"):
        return "nda"
    if name.startswith(("csa", "cloud-service", "order-form")):
        return "csa"
    return name.split("-")[0]


def load_documents(root: Path) -> list[tuple[str, list[str]]]:
    """(family, clause texts) per agreement, read with the project's own reader."""
    documents = []
    for path in agreements(root):
        try:
            clauses = read_clauses(path, path.stem, str(path.relative_to(root)))
        except DocumentError as exc:
            log.warning("skipped %s: %s", path.name, exc)
            continue
        texts = [c.text for c in clauses if len(c.text.split()) >= 12]
        if len(texts) >= 2:
            documents.append((family(path), texts))
    return documents


def candidate_sentences(clause: str) -> list[str]:
    out = []
    for a, b in sentence_spans(clause):
        sentence = " ".join(clause[a:b].split())
        if 8 <= len(sentence.split()) <= 60 and sentence[0].isupper() and sentence[-1] in ".;:":
            out.append(sentence)
    return out


def restate(sentence: str, rng: random.Random) -> str:
    """A paraphrase by rule: synonyms, a moved lead-in or swapped list, dropped words."""
    text = sentence
    for word, alternatives in SYNONYMS.items():
        pattern = re.compile(rf"\b{re.escape(word)}\b")
        if pattern.search(text) and rng.random() < 0.6:
            text = pattern.sub(rng.choice(alternatives), text, count=1)
    lead = _LEADS.match(text)
    if lead and rng.random() < 0.7:
        body = lead.group(3)
        text = f"{body[0].upper()}{body[1:]} {lead.group(1).lower()}{lead.group(2)}{lead.group(4) or '.'}"
    else:
        swap = re.search(r"\b(\w{4,}) and (\w{4,})\b", text)
        if swap and rng.random() < 0.5:
            text = text[:swap.start()] + f"{swap.group(2)} and {swap.group(1)}" + text[swap.end():]
    droppable = [w for w in _DROPPABLE if re.search(rf"\b{w}", text)]
    for word in rng.sample(droppable, min(len(droppable), rng.randint(1, 2))):
        text = re.sub(rf"\b{word}", "", text, count=1)
    return text


def change_amount(sentence: str, clause: str, rng: random.Random) -> str | None:
    numbers = list(_NUMBER.finditer(sentence))
    if not numbers:
        return None
    match = rng.choice(numbers)
    words = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
             "eight": 8, "nine": 9, "ten": 10, "twelve": 12, "fifteen": 15, "twenty": 20,
             "thirty": 30, "sixty": 60, "ninety": 90}
    raw = match.group(0).lower().replace(",", "")
    value = words.get(raw) or float(raw)
    for factor in rng.sample([2, 3, 0.5, 4, 10], 5):
        new = value * factor
        shown = f"{new:,.0f}" if new >= 1 and new == int(new) else f"{new:g}"
        if shown not in clause:
            return sentence[:match.start()] + shown + sentence[match.end():]
    return None


def change_duration(sentence: str, rng: random.Random) -> str | None:
    match = _UNIT.search(sentence)
    if not match:
        return None
    unit = match.group(1).lower().rstrip("s")
    other = rng.choice([u for u in ("day", "week", "month", "year") if u != unit])
    plural = match.group(1).lower().endswith("s")
    return sentence[:match.start()] + other + ("s" if plural else "") + sentence[match.end():]


def change_party(sentence: str, parties: list[str], rng: random.Random) -> str | None:
    present = [p for p in parties if re.search(rf"\b{re.escape(p)}\b", sentence)]
    if not present:
        return None
    chosen = rng.choice(present)
    others = [p for p in parties if p != chosen and p not in chosen and chosen not in p]
    if not others:
        return None
    if len(present) >= 2 and rng.random() < 0.5:  # swap two parties' roles
        a, b = present[0], present[1]
        return re.sub(rf"\b({re.escape(a)}|{re.escape(b)})\b",
                      lambda m: b if m.group(1) == a else a, sentence)
    return re.sub(rf"\b{re.escape(chosen)}\b", rng.choice(others), sentence, count=1)


def change_negation(sentence: str) -> str | None:
    if _NOT.search(sentence):
        return _NOT.sub(lambda m: m.group(1), sentence, count=1)
    if _MODAL.search(sentence):
        return _MODAL.sub(lambda m: m.group(1) + " not", sentence, count=1)
    return None


def document_parties(clauses: list[str]) -> list[str]:
    """Capitalised names that act ("X shall ...") in the agreement: its parties and roles."""
    counts: dict[str, int] = {}
    for text in clauses:
        for name in re.findall(r"\b((?:[A-Z][a-z]+\s)?[A-Z][a-z]+)\s+(?:shall|will|must|may)\b", text):
            name = re.sub(r"^(The|Each|Either|Neither|This|Such|Any)\s", "", name)
            if name not in ("The", "Each", "Either", "Neither", "This", "Such", "Any"):
                counts[name] = counts.get(name, 0) + 1
    return [name for name, count in sorted(counts.items(), key=lambda kv: -kv[1]) if count >= 2][:6]


def build_examples(documents: list[tuple[str, list[str]]], seed: int = SEED,
                   per_document: int = 12) -> list[Example]:
    rng = random.Random(seed)
    examples: list[Example] = []
    seen: set[str] = set()
    everything = [(d, c) for d, (_, clauses) in enumerate(documents) for c in range(len(clauses))]
    for d, (fam, clauses) in enumerate(documents):
        parties = document_parties(clauses)
        picks = [(c, s) for c, text in enumerate(clauses) for s in candidate_sentences(text)]
        rng.shuffle(picks)
        taken = 0
        for c, sentence in picks:
            if sentence in seen or taken >= per_document:
                continue
            seen.add(sentence)
            taken += 1
            clause = clauses[c]
            add = lambda s, label, kind: s and examples.append(  # noqa: E731
                Example(restate(s, rng), clause, label, kind, fam))
            add(sentence, 1, "restatement")
            others = [s for o, t in enumerate(clauses) if o != c for s in candidate_sentences(t)
                      if s not in clause]
            if others:
                add(rng.choice(others), 0, "other clause")
            od, oc = rng.choice([x for x in everything if x[0] != d])
            foreign = [s for s in candidate_sentences(documents[od][1][oc]) if s not in clause]
            if foreign:
                add(rng.choice(foreign), 0, "other document")
            add(change_amount(sentence, clause, rng), 0, "amount")
            add(change_duration(sentence, rng), 0, "duration")
            add(change_party(sentence, parties, rng), 0, "party")
            add(change_negation(sentence), 0, "negation")
    return examples


def is_test(fam: str) -> bool:
    return int(hashlib.md5(fam.encode()).hexdigest(), 16) % 3 == 0


def matrix(examples: list[Example]) -> np.ndarray:
    rows = []
    for e in examples:
        f = support.features(e.sentence, e.clause)
        rows.append([getattr(f, name) for name in FEATURES])
    return np.array(rows, dtype=np.float64)


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1e-3, steps: int = 4000) -> np.ndarray:
    """Logistic regression by gradient descent (bias first), classes weighted equally."""
    xb = np.hstack([np.ones((len(x), 1)), x])
    weight = np.where(y == 1, 0.5 / y.mean(), 0.5 / (1 - y.mean()))
    w = np.zeros(xb.shape[1])
    for _ in range(steps):
        p = 1 / (1 + np.exp(-xb @ w))
        grad = xb.T @ ((p - y) * weight) / len(y) + l2 * np.r_[0, w[1:]]
        w -= 2.0 * grad
    return w


def scores(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    return 1 / (1 + np.exp(-(w[0] + x @ w[1:])))


def best_threshold(s: np.ndarray, y: np.ndarray) -> float:
    """The threshold with the highest balanced accuracy on these scores."""
    grid = np.round(np.arange(0.05, 0.96, 0.01), 2)
    return float(max(grid, key=lambda t: ((s >= t)[y == 1].mean() + (s < t)[y == 0].mean(), -abs(t - 0.5))))


def report(name: str, s: np.ndarray, y: np.ndarray, kinds: list[str], threshold: float) -> str:
    passed = s >= threshold
    tp = int((passed & (y == 1)).sum())
    precision = tp / max(int(passed.sum()), 1)
    recall = tp / max(int((y == 1).sum()), 1)
    flagged = ~passed
    flag_precision = int((flagged & (y == 0)).sum()) / max(int(flagged.sum()), 1)
    flag_recall = int((flagged & (y == 0)).sum()) / max(int((y == 0).sum()), 1)
    lines = [f"| {name} | {len(y)} ({int(y.sum())} supported) | {precision:.3f} | {recall:.3f} | "
             f"{flag_precision:.3f} | {flag_recall:.3f} |"]
    by_kind = []
    for kind in dict.fromkeys(kinds):
        mask = np.array([k == kind for k in kinds])
        rate = (passed[mask] if kind == "restatement" else flagged[mask]).mean()
        verb = "passed" if kind == "restatement" else "flagged"
        by_kind.append(f"{kind} {verb} {rate:.1%} (n={int(mask.sum())})")
    return "\n".join(lines) + "\n\n" + f"{name}: " + "; ".join(by_kind)


def handwritten(root: Path) -> str:
    """The wording check on the hand-written pairs (support_pairs.py)."""
    from precedent_bench.drafting.support_pairs import PAIRS

    rows = ["| sentence | should pass | score | passed | changed |", "|---|---|---|---|---|"]
    right = 0
    for name, phrase, sentence, label, changed in PAIRS:
        clause = next(c.text for c in read_clauses(root / name, name, name) if phrase in c.text)
        result = support.score_support(sentence, clause)
        right += result.supported == bool(label)
        rows.append(f"| {sentence[:70]}{'…' if len(sentence) > 70 else ''} | {'yes' if label else 'no'} "
                    f"| {result.score:.2f} | {'yes' if result.supported else 'no'} | {changed} |")
    return "\n".join(rows) + f"\n\nhand-written pairs judged right: {right} of {len(PAIRS)}"


def verifier_run(examples: list[Example], limit: int, seed: int) -> str:
    """What the optional model check adds: asked only about pairs the wording check flags."""
    from addin_server.draft.prompts import load_prompt
    from addin_server.draft.verifier import CONTROL, PROMPT_FILE, SUPPORT_VARIABLES, SupportVerifier
    from addin_server.llm.client import OpenAIChatClient
    from addin_server.llm.local import LocalLLMServer, MODEL_NAME
    from index_builder.settings import load_settings

    settings = load_settings()
    flagged = [e for e in examples if not support.score_support(e.sentence, e.clause).supported]
    rng = random.Random(seed)
    wrong = [e for e in flagged if e.label == 1]  # false flags the model could lift
    right = [e for e in flagged if e.label == 0]
    sample = wrong[:limit] + rng.sample(right, min(len(right), limit))
    prompt = load_prompt(settings.server.prompts_dir / PROMPT_FILE, SUPPORT_VARIABLES)
    with LocalLLMServer(settings.local_llm) as server:
        # Two shared cores: one slow answer must not end the run.
        patient = replace(settings.llm, request_timeout_s=300.0, deadline_s=600.0, max_attempts=1)
        client = OpenAIChatClient(server.llm_settings(patient))
        verifier = SupportVerifier(client, prompt, "local", timeout_s=300.0)
        control = verifier.confirms(*CONTROL)
        answers, started = [], time.perf_counter()
        for e in sample:
            answers.append(verifier.confirms(e.sentence, e.clause))
        seconds = (time.perf_counter() - started) / max(len(sample), 1)
        client.close()
    lines = [f"model: {MODEL_NAME} (embedded, 2 shared CPU cores); asked about {len(sample)} "
             f"flagged pairs, {seconds:.1f} s per answer",
             f"- control pair (must be rejected): model said {control}"]
    for label, name in ((1, "falsely flagged (supported)"), (0, "rightly flagged (unsupported)")):
        got = [a for e, a in zip(sample, answers) if e.label == label]
        lines.append(f"- {name}: {len(got)} asked, model said yes {got.count(True)}, no "
                     f"{got.count(False)}, unusable {got.count(None)}")
    for kind in sorted({e.kind for e in sample if e.label == 0}):
        got = [a for e, a in zip(sample, answers) if e.kind == kind]
        lines.append(f"  - {kind}: {got.count(True)} of {len(got)} wrongly confirmed")
    return "\n".join(lines)


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--contracts", type=Path, default=CONTRACTS)
    parser.add_argument("--fit", action="store_true", help="fit weights and threshold on train")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--verifier", action="store_true",
                        help="also ask the embedded model about flagged pairs (slow on CPU)")
    parser.add_argument("--limit", type=int, default=30, help="pairs of each label for --verifier")


def run(args: argparse.Namespace) -> int:
    if args.verifier:
        require("llm", "citations --verifier", "the embedded model checks flagged pairs")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    documents = load_documents(args.contracts)
    examples = build_examples(documents, args.seed)
    train = [e for e in examples if not is_test(e.family)]
    test = [e for e in examples if is_test(e.family)]
    log.info("%d documents, %d examples: %d train, %d held-out (families %s)", len(documents),
             len(examples), len(train), len(test), sorted({e.family for e in test}))
    x_train, x_test = matrix(train), matrix(test)
    y_train = np.array([e.label for e in train], dtype=np.float64)
    y_test = np.array([e.label for e in test], dtype=np.float64)
    if args.fit:
        w = fit(x_train, y_train)
        threshold = best_threshold(scores(x_train, w), y_train)
        names = ("bias",) + FEATURES
        log.info("WEIGHTS = {%s}", ", ".join(f'"{n}": {v:.2f}' for n, v in zip(names, w)))
        log.info("THRESHOLD = %.2f", threshold)
    else:
        w = np.array([support.WEIGHTS[n] for n in ("bias",) + FEATURES])
        threshold = support.THRESHOLD
    print("| part | pairs | supported: precision | supported: recall | flag: precision | flag: recall |")
    print("|---|---|---|---|---|---|")
    print(report("train", scores(x_train, w), y_train, [e.kind for e in train], threshold))
    print(report("held-out", scores(x_test, w), y_test, [e.kind for e in test], threshold))
    print(handwritten(args.contracts))
    if args.verifier:
        print(verifier_run(examples, args.limit, args.seed))
    return 0
