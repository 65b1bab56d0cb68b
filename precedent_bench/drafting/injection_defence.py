"""How many instructions aimed at AI tools reach the redraft prompt, before and after issue 11.

Each injected phrasing (injections.py) is put into a real clause from the
shared agreements, at its start, middle and end, and also into the lawyer's selection;
the real redraft prompt is built (Redrafter.build_messages, no model needed) and checked
for the injected payload. "Before" is the defence as it was (the narrow patterns, copied
below); "after" is addin_server/llm/untrusted.py. The cost side: how many sentences of the
shared agreements and of the ACORD corpus the defence drops although they are contract prose.

    precedent-bench injection-defence [--examples 20]
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from typing import Callable
from unittest import mock

from addin_server.draft import redraft as redraft_module
from addin_server.draft.prompts import REDRAFT_VARIABLES, load_prompt
from addin_server.draft.redraft import Redrafter
from addin_server.llm import untrusted
from index_builder.errors import DocumentError
from index_builder.ingest import read_clauses
from index_builder.model import Clause
from index_builder.settings import LLMSettings, default_prompts_dir

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD, CONTRACTS, acord_corpus, agreement_clauses, agreements
from precedent_bench.drafting.injections import DEV, DEV_29, HELD_OUT, HELD_OUT_29, LEGIT, PAYLOAD_MARKERS

log = logging.getLogger("injection_defence")

# The defence before issue 11 (addin_server/llm/untrusted.py at cdcf789), for comparison.
_LEGACY = re.compile(
    r"\b(?:ignore|disregard|forget|override)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
    r"(?:previous|prior|above|earlier|preceding|system|original)\s+"
    r"(?:instructions?|prompts?|rules|directions|guidelines)"
    r"|\b(?:rate|score|rank|grade)\s+(?:this|the|me)\b[^.\n]{0,40}?\b(?:as\s+|a\s+)?[0-5](?:\s*stars?)?\b"
    r"|\b(?:you\s+are\s+now|act\s+as\s+(?:an?\s+)?(?:ai|assistant|language\s+model)|as\s+an\s+ai\b)"
    r"|\b(?:new|updated)\s+instructions\s*:"
    r"|\b(?:answer|respond|reply|output)\s+(?:only\s+)?(?:with\s+)?[\"']?[0-5][\"']?\s*(?:$|[.\n])"
    r"|\b(?:system|assistant)\s*:\s"
    r"|\bthis\s+(?:clause|text|passage|provision)\s+is\s+(?:\w+\s+){0,2}?(?:relevant|what\s+the\s+"
    r"(?:lawyer|user|reader)\s+needs)",
    re.IGNORECASE,
)
_LEGACY_SENTENCE = re.compile(r"[^.!?\n]*(?:[.!?]+|\n|$)")


def legacy_neutralise(text: str) -> str:
    text = untrusted._CONTROL.sub(lambda m: "‹" + m.group(0)[1:-1] + "›", text)
    text = untrusted._TAG.sub(lambda m: "‹" + m.group(0)[1:-1] + "›", text)
    if not _LEGACY.search(text):
        return text
    kept = [m.group(0) for m in _LEGACY_SENTENCE.finditer(text) if not _LEGACY.search(m.group(0))]
    return re.sub(r"[ \t]+\n", "\n", "".join(kept)).strip()


def host_clauses(limit: int = 6) -> list[Clause]:
    """A few real clauses of several sentences to hide injections in."""
    hosts = []
    for path in agreements(CONTRACTS):
        try:
            clauses = read_clauses(path, path.stem, path.name)
        except DocumentError:
            continue
        hosts += [c for c in clauses if c.text.count(". ") >= 3 and len(c.text) < 1500][:1]
        if len(hosts) >= limit:
            break
    return hosts


def inject(text: str, injection: str, where: str) -> str:
    sentences = re.split(r"(?<=\.)\s+", text)
    at = {"start": 0, "middle": len(sentences) // 2, "end": len(sentences)}[where]
    return " ".join(sentences[:at] + [injection] + sentences[at:])


def reached(messages: list[dict[str, str]]) -> bool:
    prompt = "\n".join(m["content"] for m in messages).lower()
    return any(marker.lower() in prompt for marker in PAYLOAD_MARKERS)


def count_reaching(redrafter: Redrafter, phrasings: list[str], hosts: list[Clause],
                   neutralise: Callable[[str], str]) -> tuple[int, int]:
    total = hits = 0
    selection = "The Supplier's liability under this Agreement is unlimited."
    with mock.patch.object(redraft_module, "neutralise", neutralise):
        for phrasing in phrasings:
            for host in hosts:
                for where in ("start", "middle", "end"):
                    poisoned = Clause(host.clause_id, inject(host.text, phrasing, where), host.doc_id)
                    messages, *_ = redrafter.build_messages(selection, [poisoned], "")
                    total, hits = total + 1, hits + reached(messages)
            messages, *_ = redrafter.build_messages(inject(selection, phrasing, "end"), hosts[:1], "")
            total, hits = total + 1, hits + reached(messages)
    return hits, total


def false_positives() -> tuple[int, int, list[str]]:
    """Sentences of real contract prose the defence would drop."""
    texts = [c.text for c in agreement_clauses(CONTRACTS)]
    if (ACORD / "corpus.jsonl").exists():
        texts += [row["text"] for row in acord_corpus(ACORD)]
    sentences = [m.group(0).strip() for t in texts for m in untrusted._SENTENCE.finditer(t)
                 if m.group(0).strip()]
    dropped = [s for s in dict.fromkeys(sentences) if untrusted.addressed_to_ai(s)]
    return len(dropped), len(set(sentences)), dropped


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--examples", type=int, default=20, help="dropped prose sentences to show")


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.ERROR, format="%(message)s")
    prompt = load_prompt(default_prompts_dir() / "redraft.prompt", REDRAFT_VARIABLES)
    redrafter = Redrafter(None, prompt, LLMSettings(context_tokens=8192))  # type: ignore[arg-type]
    hosts = host_clauses()
    rows = []
    for name, phrasings in (("dev", DEV), ("held-out", HELD_OUT), ("dev (issue 29)", DEV_29),
                            ("held-out (issue 29)", HELD_OUT_29)):
        before, total = count_reaching(redrafter, phrasings, hosts, legacy_neutralise)
        after, _ = count_reaching(redrafter, phrasings, hosts, untrusted.neutralise)
        missed = [p for p in phrasings if not untrusted.addressed_to_ai(p)]
        rows.append((name, len(phrasings), total, before, after, missed))
    legit_dropped = [s for s in LEGIT if untrusted.addressed_to_ai(s)]
    dropped, sentences, examples = false_positives()
    out = ["| set | phrasings | prompts built | reached the prompt before | reached after |",
           "|---|---|---|---|---|"]
    out += [f"| {n} | {p} | {t} | {b} ({b / t:.0%}) | {a} ({a / t:.0%}) |" for n, p, t, b, a, _ in rows]
    for name, *_, missed in rows:
        out.append(f"\n{name}: phrasings still reaching the prompt: {len(missed)}")
        out += [f"- {m}" for m in missed]
    out.append(f"\nhand-written contract sentences about AI/instructions/tools dropped: "
               f"{len(legit_dropped)} of {len(LEGIT)}")
    out += [f"- {s}" for s in legit_dropped]
    out.append(f"\nreal contract sentences dropped (shared agreements + ACORD corpus): {dropped} of "
               f"{sentences} distinct sentences ({dropped / max(sentences, 1):.3%})")
    out += [f"- {s[:160]}" for s in examples[:args.examples]]
    sys.stdout.write("\n".join(out) + "\n")
    return 0
