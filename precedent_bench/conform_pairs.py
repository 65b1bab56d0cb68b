"""`precedent-bench conform-pairs`: conforming measured as the product runs, scored outside.

For each pair of benchmarks/sets/conform (a real clause C of agreement P, put into agreement D):
1. D is built as Word presents it to the pane (its paragraphs: text, numbers, tables);
2. the pane's own code runs in Node (precedent_bench/conform_pane.mjs: document.js against a
   mocked Word body, then the pane's document and /conform requests through api.js) against the
   real server on loopback, over an index of the set's precedent agreements;
3. where the pair has a lawyer's override, the pane's view is driven as the lawyer would (the
   term and its replacement typed into the mapping) and /conform runs again;
4. the answers are scored here, against the labels, which never leave this process: recall of
   required mappings (applied or shown), silent wrong substitutions (any change to C no label
   allows, or inside a phrase that must not change), undefined terms listed, override exactness.

    precedent-bench conform-pairs --split tuning [--out benchmarks/results/conform-pairs] [--name after]
"""

from __future__ import annotations

import argparse
import difflib
import json
import logging
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

log = logging.getLogger(__name__)

REPO = Path(__file__).resolve().parent.parent
SET = REPO / "benchmarks" / "sets" / "conform"
DRIVER = Path(__file__).resolve().parent / "conform_pane.mjs"
DEFAULT_CONTRACTS = REPO.parent / "shared" / "data" / "contracts"
SPLITS = ("tuning", "held-out")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("conform-pairs", help="conform each labelled precedent->document pair through the pane's own "
                                            "reader (Node) and the real server; score against the labels outside",
                       description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--split", choices=SPLITS, required=True, help="tuning, or held-out (run once, at the end)")
    p.add_argument("--contracts", type=Path, default=DEFAULT_CONTRACTS, help="the shared agreements (.docx)")
    p.add_argument("--out", type=Path, help="write <name>.json (every pair, raw) here")
    p.add_argument("--name", default="", help="file name for the raw results (default: the split)")
    p.add_argument("--pairs", nargs="*", default=(), help="only these pair ids")
    p.add_argument("--rescore", type=Path, help="score a run's raw answers again (the texts it wrote), without "
                                                "running the pane or the server: for a change to this scorer")
    p.set_defaults(handler="precedent_bench.conform_pairs:run_command", ab=False)


def load_pairs(split: str, only: Sequence[str] = ()) -> list[dict[str, Any]]:
    name = "tuning.jsonl" if split == "tuning" else "heldout.jsonl"
    pairs = [json.loads(line) for line in (SET / name).read_text().splitlines() if line.strip()]
    return [p for p in pairs if not only or p["pair_id"] in only]


# -- what reaches the code under test -----------------------------------------------------------

def pane_job(pair: dict[str, Any], contracts: Path, clause_id: str, base_url: str, edit: bool) -> dict[str, Any]:
    """Everything the pane and the server are given for a pair: D as Word presents it, the
    precedent's id (as search results give it) and, for an override, the lawyer's typing."""
    from index_builder.ingest.docx_reader import word_paragraphs

    override = pair.get("override") if edit else None
    return {"base_url": base_url, "paragraphs": word_paragraphs(contracts / pair["document"]["doc"]),
            "clause_id": clause_id, "edit": {"from": override["from"], "to": override["to"]} if override else None}


class _Embedder:
    """The search is not measured here (the pair names its precedent): any deterministic vectors."""

    model_id = "bench-hashing"
    dimension = 32

    def embed(self, texts: Sequence[str], *, show_progress: bool = False) -> np.ndarray:
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in re.findall(r"[a-z]+", text.lower()):
                out[row, sum(map(ord, word)) % self.dimension] += 1.0
            out[row] /= max(float(np.linalg.norm(out[row])), 1.0)
        return out


class Server:
    """The real app over an index of the precedent agreements, served on loopback."""

    def __init__(self, contracts: Path, documents: Sequence[str]) -> None:
        from werkzeug.serving import make_server

        from addin_server.service import build_service
        from addin_server.web.app import create_app
        from index_builder.index.build import build_index
        from index_builder.settings import Settings, updated

        self.root = Path(tempfile.mkdtemp(prefix="conform-pairs-"))
        library = self.root / "library"
        library.mkdir()
        for doc in sorted(set(documents)):
            shutil.copy(contracts / doc, library / Path(doc).name)
        settings = Settings(index_dir=self.root / "index")
        build_index(settings, [library], _Embedder(), progress=False)
        settings = updated(settings, {"rerank.default": "off", "rerank.cross_encoder": "", "server.rate_limit": "off",
                                      "audit.file": self.root / "audit.jsonl"})
        self.service = build_service(settings, embedder=_Embedder())
        self.app = create_app(settings, self.service)
        self.http = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.http.server_port}"

    def clause_id(self, doc: str, text: str, clause_id: str) -> str:
        """The indexed id of the precedent clause (the set names it as the index does, by the
        file's stem and section; checked by its text, as search results would carry it)."""
        found = self.service.pipeline.clauses([clause_id])
        if not found or found[0].text.strip() != text.strip():
            raise LookupError(f"{clause_id}: not in the index with the pair's text")
        return found[0].clause_id

    def close(self) -> None:
        self.http.shutdown()
        self.service.close()
        shutil.rmtree(self.root, ignore_errors=True)


def run_pane(job: dict[str, Any]) -> dict[str, Any]:
    out = subprocess.run(["node", str(DRIVER)], input=json.dumps(job), capture_output=True, text=True, timeout=300,
                         cwd=REPO, check=False)
    if out.returncode:
        raise RuntimeError(f"the pane's code failed: {out.stderr[-2000:]}")
    return json.loads(out.stdout)


# -- scoring (labels only here) ------------------------------------------------------------------

_TOKEN = re.compile(r"\w+|[^\w\s]")
_ARTICLES = {"a", "an"}


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


_LEADS = {"the", "this", "that", "these", "those", "each", "any", "all", "such", "no", "its", "their", "if", "and", "or"}


def _key(words: Sequence[str]) -> str:
    """A phrase without its article, leading determiner, possessive or plural ending, lower case."""
    words = [w for w in words if w.lower() not in _ARTICLES or len(words) == 1]
    while len(words) > 1 and words[0].lower() in _LEADS:
        words = words[1:]
    out = " ".join(words).lower()
    out = re.sub(r"\s*[\u2019']\s*s?$", "", out)
    return re.sub(r"(?<=[^s])s$", "", re.sub(r"ies$", "y", out)) if out else out


def allowed_pairs(pair: dict[str, Any], override: bool) -> set[tuple[str, str]]:
    """(from, to) changes the labels allow, by their key: every mapping and its accepted answers."""
    out = set()
    for m in pair["mappings"]:
        for target in [m["to"], *(m.get("accept") or [])]:
            out.add((_key(_tokens(m["from"])), _key(_tokens(target))))
    if override and pair.get("override"):
        o = pair["override"]
        out.add((_key(_tokens(o["from"])), _key(_tokens(o["to"]))))
    return out


def _capital(token: str) -> bool:
    return token[:1].isupper() and token.replace("-", "").isalnum()


def hunks(before: str, after: str) -> list[tuple[str, str, int, int]]:
    """Changed stretches (before words, after words, char start, char end in ``before``), each
    widened to the whole run of capitalised words around it, so a change is judged as the
    term it changes: "Standard Terms" -> "NDA Terms", not "Standard" -> "NDA"; and "Customer
    Content" -> "Client Content" is not excused by a Customer -> Client mapping."""
    a, b = _tokens(before), _tokens(after)
    spans = [m.span() for m in _TOKEN.finditer(before)]
    after_spans = [m.span() for m in _TOKEN.finditer(after)]
    # Two tokens on one line (a run of words never crosses a line: "NDA Term" / "Period for ...").
    joined = lambda text, sp, k: "\n" not in text[sp[k - 1][1]:sp[k][0]]  # noqa: E731
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        while i1 > 0 and j1 > 0 and a[i1 - 1] == b[j1 - 1] and _capital(a[i1 - 1]) and (
                i1 >= len(a) or joined(before, spans, i1)) and (j1 >= len(b) or joined(after, after_spans, j1)):
            i1, j1 = i1 - 1, j1 - 1
        while i2 < len(a) and j2 < len(b) and a[i2] == b[j2] and _capital(a[i2]) and (
                i2 == 0 or joined(before, spans, i2)) and (j2 == 0 or joined(after, after_spans, j2)):
            i2, j2 = i2 + 1, j2 + 1
        start = spans[i1][0] if i1 < len(spans) else len(before)
        end = spans[i2 - 1][1] if i2 > i1 else start
        out.append((" ".join(a[i1:i2]), " ".join(b[j1:j2]), start, end))
    return out


def _article_right(words: Sequence[str]) -> bool:
    """"a Supplier", "an NDA": the article before a changed word agrees with it."""
    if len(words) < 2 or words[0].lower() not in _ARTICLES:
        return True
    word = words[1]
    vowel = bool(re.match(r"[aeiouAEIOU]", word)) and not re.match(r"(?:[Uu]ni|[Uu]s[eu]|[Oo]ne)", word)
    vowel = vowel or bool(re.match(r"[AEFHILMNORSX](?:[A-Z]|$)", word))
    return (words[0].lower() == "an") == vowel


def explained(hunk: tuple[str, str, int, int], allowed: set[tuple[str, str]]) -> bool:
    if not _article_right(hunk[1].split()):
        return False  # "an Client": the change made the sentence wrong
    old, new = _key(old_words := hunk[0].split()), _key(new_words := hunk[1].split())
    if old == new:  # "a" -> "an" before a mapped term, a possessive's form
        return True
    if (old, new) in allowed:
        return True
    # Two changes difflib joined ("Employer and Employee" -> "Company and Founder") are split at
    # the plain words they share, and each part judged whole.
    if len(old_words) == len(new_words) > 1:
        cuts = [i for i, (o, n) in enumerate(zip(old_words, new_words)) if o == n and not _capital(o)]
        if cuts:
            bounds = [-1, *cuts, len(old_words)]
            parts = [(old_words[s + 1:e], new_words[s + 1:e]) for s, e in zip(bounds, bounds[1:]) if e > s + 1]
            return all(o == n or (_key(o), _key(n)) in allowed for o, n in parts)
    return False


def wrong_changes(original: str, result: str, allowed: set[tuple[str, str]], protected: Sequence[str]) -> list[str]:
    """Every change no label allows, and every allowed change made inside a phrase that must not change."""
    out = []
    changes = hunks(original, result)
    for h in changes:
        if not explained(h, allowed):
            out.append(f"{h[0]!r} -> {h[1]!r}")
    for phrase in protected:
        if result.count(phrase) >= original.count(phrase):
            continue
        spans = [(m.start(), m.end()) for m in re.finditer(re.escape(phrase), original)]
        inside = [h for h in changes if explained(h, allowed) and any(h[2] < e and s < h[3] for s, e in spans)]
        if inside:
            out.append(f"inside {phrase!r}: {inside[0][0]!r} -> {inside[0][1]!r}")
    return out


def score_answer(pair: dict[str, Any], data: dict[str, Any], override: bool) -> dict[str, Any]:
    text = pair["precedent"]["text"]
    mappings = {m["source"]: m for m in data.get("mappings", [])}
    required = [m for m in pair["mappings"] if m["required"]]
    if override and pair.get("override"):
        required = [m for m in required if m["from"] != pair["override"]["from"]]
    found = Counter()
    missed = []
    for m in required:
        ok = {m["to"], *(m.get("accept") or [])}
        got = mappings.get(m["from"])
        if got and got.get("target") in ok and got.get("apply"):
            found["applied"] += 1
        elif got and got.get("target") in ok:
            found["shown"] += 1
        else:
            missed.append(f"{m['from']} -> {m['to']} (got {got.get('target') if got else 'nothing'}"
                          f"{', ' + got['method'] if got else ''})")
    shown_wrong = [f"{s} -> {m.get('target')}" for s, m in mappings.items() if m.get("target") and m.get("target") != s
                   and not m.get("apply") and not _allowed_map(pair, s, m["target"], override)]
    protected = list(pair["must_not_change"]) + (list(pair["override"]["must_not_change"]) if override and pair.get("override") else [])
    wrong = wrong_changes(text, data.get("text", text), allowed_pairs(pair, override), protected)
    listed = {m["term"] for m in data.get("missing_terms", [])}
    undefined = [u for u in pair["undefined"] if _listed(u, listed)]
    optional_froms = {m["from"] for m in pair["mappings"]}
    extra = sorted(t for t in listed if not _listed(t, set(pair["undefined"]) | optional_froms))
    return {"required": len(required), "applied": found["applied"], "shown": found["shown"], "missed": missed,
            "silent_wrong": wrong, "shown_wrong": shown_wrong,
            "undefined": len(pair["undefined"]), "undefined_listed": len(undefined),
            "listed_not_labelled_undefined": extra, "text": data.get("text", "")}


def _allowed_map(pair: dict[str, Any], source: str, target: str, override: bool) -> bool:
    return (_key(_tokens(source)), _key(_tokens(target))) in allowed_pairs(pair, override)


def _listed(term: str, listed: set[str]) -> bool:
    return any(_key(_tokens(term)) == _key(_tokens(t)) for t in listed)


def override_exact(pair: dict[str, Any], final: dict[str, Any], expressible: bool | None) -> tuple[bool, list[str]]:
    """The lawyer's override changed what it names, everywhere the label's text does, and
    nothing else: the answer's text differs from ``expect`` only by optional mappings (either
    way) or required ones the first answer had not applied."""
    if not expressible:
        return False, ["the pane offers no place to make this edit"]
    expect = pair["override"]["expect"]
    allowed = set()
    for m in pair["mappings"]:
        if m["from"] == pair["override"]["from"]:
            continue
        for target in [m["to"], *(m.get("accept") or [])]:
            allowed |= {(_key(_tokens(m["from"])), _key(_tokens(target))), (_key(_tokens(target)), _key(_tokens(m["from"])))}
    problems = [f"{h[0]!r} (expected) vs {h[1]!r} (got)" for h in hunks(expect, final.get("text", "")) if not explained(h, allowed)]
    for phrase in pair["override"]["must_not_change"]:
        if final.get("text", "").count(phrase) < expect.count(phrase):
            problems.append(f"{phrase!r} changed")
    return not problems, problems


def measure(pairs: Sequence[dict[str, Any]], contracts: Path) -> dict[str, Any]:
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # one line a request, on loopback
    server = Server(contracts, [p["precedent"]["doc"] for p in pairs])
    rows = []
    try:
        for pair in pairs:
            clause_id = server.clause_id(pair["precedent"]["doc"], pair["precedent"]["text"], pair["precedent"]["clause_id"])
            started = time.perf_counter()
            answer = run_pane(pane_job(pair, contracts, clause_id, server.url, edit=bool(pair.get("override"))))
            row = {"pair_id": pair["pair_id"], "family": pair["family"], "seconds": round(time.perf_counter() - started, 2),
                   **score_answer(pair, answer["first"], override=False),
                   "mappings": [f"{m['source']}->{m.get('target') or '-'}:{m['method']}:{m['confidence']}:{'A' if m['apply'] else 's'}"
                                for m in answer["first"].get("mappings", [])],
                   "requests": [{"path": r["path"], "keys": sorted((r["body"] or {}).keys())} for r in answer["requests"]]}
            if pair.get("override"):
                under = score_answer(pair, answer["final"], override=True)
                exact, problems = override_exact(pair, answer["final"], answer["edit_expressible"])
                row["override"] = {"exact": exact, "problems": problems, "silent_wrong": under["silent_wrong"],
                                   "text": answer["final"].get("text", "")}
            rows.append(row)
            log.info("%s: %d/%d required (%d shown), %d silent wrong", pair["pair_id"], row["applied"] + row["shown"],
                     row["required"], row["shown"], len(row["silent_wrong"]))
    finally:
        server.close()
    return {"figures": figures(rows), "pairs": rows}


def figures(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    total = lambda key: sum(r[key] for r in rows)  # noqa: E731
    required = total("required")
    overrides = [r["override"] for r in rows if "override" in r]
    listed = total("undefined_listed")
    extra = sum(len(r["listed_not_labelled_undefined"]) for r in rows)
    return {
        "pairs": len(rows),
        "required_mappings": required,
        "recall_applied_or_shown": round((total("applied") + total("shown")) / required, 3) if required else None,
        "recall_applied": round(total("applied") / required, 3) if required else None,
        "silent_wrong_substitutions": sum(len(r["silent_wrong"]) for r in rows),
        "wrong_suggestions_shown_not_applied": sum(len(r["shown_wrong"]) for r in rows),
        "undefined_terms": total("undefined"), "undefined_listed": listed,
        "undefined_recall": round(listed / total("undefined"), 3) if total("undefined") else None,
        "listed_as_undefined_not_labelled": extra,
        "overrides": len(overrides), "overrides_exact": sum(o["exact"] for o in overrides),
        "silent_wrong_under_override": sum(len(o["silent_wrong"]) for o in overrides),
    }


def rescore(report: dict[str, Any], pairs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The text-based scores (silent wrong changes, override exactness) of a run, again, from
    the answers it recorded; recall and undefined terms (read from the mappings) stay as run."""
    by_id = {p["pair_id"]: p for p in pairs}
    rows = []
    for row in report["pairs"]:
        pair = by_id[row["pair_id"]]
        row = dict(row, silent_wrong=wrong_changes(pair["precedent"]["text"], row["text"], allowed_pairs(pair, False),
                                                    pair["must_not_change"]))
        if "override" in row:
            over = row["override"]
            protected = list(pair["must_not_change"]) + list(pair["override"]["must_not_change"])
            expressible = over["problems"] != ["the pane offers no place to make this edit"]
            exact, problems = override_exact(pair, {"text": over["text"]}, expressible)
            row["override"] = dict(over, exact=exact, problems=problems, silent_wrong=wrong_changes(
                pair["precedent"]["text"], over["text"], allowed_pairs(pair, True), protected))
        rows.append(row)
    return {**report, "figures": figures(rows), "pairs": rows}


def run_command(args: argparse.Namespace) -> int:
    pairs = load_pairs(args.split, args.pairs)
    if args.rescore:
        report = rescore(json.loads(args.rescore.read_text()), pairs)
        report["rescored_from"] = args.rescore.name
    else:
        report = measure(pairs, args.contracts)
    report["split"] = args.split
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / f"{args.name or args.split}.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    print(json.dumps(report["figures"], indent=1))
    return 0


def iter_rows(report: dict[str, Any]) -> Iterator[str]:
    """One line a pair, for reading a run."""
    for r in report["pairs"]:
        yield (f"{r['pair_id']}: req {r['applied']}+{r['shown']}/{r['required']} missed={r['missed']} wrong={r['silent_wrong']}"
               f" undefined {r['undefined_listed']}/{r['undefined']}" + (f" override exact={r['override']['exact']} "
                                                                        f"{r['override']['problems']}" if "override" in r else ""))
