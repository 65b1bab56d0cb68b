"""Validate the drafting evaluation set (issue 38): both halves, against the shared schema.

Checks every task in a-/b-tuning.jsonl and a-/b-heldout.jsonl that exists: the schema and its
enumerations, fault names from the taxonomy, the clause and every precedent found exactly in
their sources, at least one sound and two broken drafts per task, exactly one fault per broken
draft, citation markers within the precedents given (sound drafts), and the length rules of
'shorten' parts on sound drafts. Prints counts per category, phrasing, fault, split and source.
Exits 1 on any error; warnings do not fail.

Run from the worktree root:
    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting/check.py
"""
from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = Path("/work/shared/data")
FILES = ["a-tuning.jsonl", "a-heldout.jsonl", "b-tuning.jsonl", "b-heldout.jsonl"]
CATEGORIES = {"mutual", "flip", "conform", "period", "amount", "carve_out", "shorten", "plain", "multi"}
PART_KINDS = {"mutual", "flip", "conform", "period", "amount", "carve_out", "shorten", "plain", "other"}
FAULTS = {"unchanged", "not_done", "partly_done", "wrong_direction", "wrong_value", "uncited_addition",
          "reversed_meaning", "unsupported_citation", "bad_marker", "misquote", "undefined_term",
          "too_long", "legalese_left"}
TASK_KEYS = {"task_id", "category", "split", "clause", "clause_source", "instruction", "phrasing", "parts",
             "precedents", "document", "drafts", "notes"}
MARKER = re.compile(r"\[(\d+)\]")
WORD = re.compile(r"[A-Za-z0-9$%][A-Za-z0-9$%'’.,-]*")


class Sources:
    """Clause texts by id: ACORD from the corpus, agreements split by read_clauses (or paragraphs)."""

    def __init__(self) -> None:
        self.acord = {}
        with (DATA / "acord" / "corpus.jsonl").open(encoding="utf-8") as fh:
            for line in fh:
                row = json.loads(line)
                self.acord[row["_id"]] = row["text"]
        self._clauses: dict[str, dict[str, str]] = {}
        self._paras: dict[str, list[str]] = {}
        try:
            from index_builder.ingest import read_clauses
            self._read_clauses = read_clauses
        except ImportError:  # checked without the repository on the path: paragraphs only
            self._read_clauses = None

    def _doc_clauses(self, rel: str) -> dict[str, str]:
        if rel not in self._clauses:
            path = DATA / "contracts" / rel
            self._clauses[rel] = ({c.clause_id: c.text for c in self._read_clauses(path, rel, rel)}
                                  if self._read_clauses else {})
        return self._clauses[rel]

    def _doc_paras(self, rel: str) -> list[str]:
        if rel not in self._paras:
            import docx
            self._paras[rel] = [p.text for p in docx.Document(str(DATA / "contracts" / rel)).paragraphs]
        return self._paras[rel]

    def found(self, source: str, clause_id: str, text: str) -> str | None:
        """None if `text` occurs exactly in the source clause, else why not."""
        if source == "acord":
            full = self.acord.get(clause_id)
            if full is None:
                return f"ACORD id {clause_id} not in the corpus"
            return None if text in full else "text not found in the ACORD clause"
        if source != "contracts":
            return f"unknown source {source!r}"
        rel, _, local = clause_id.partition("#")
        if not (DATA / "contracts" / rel).exists():
            return f"agreement {rel} not found"
        clause = self._doc_clauses(rel).get(clause_id)
        if clause is not None and text in clause:
            return None
        match = re.fullmatch(r"p(\d+)", local)
        if match:  # python-docx paragraph ids <path>#p<N> (0- or 1-based)
            paras = self._doc_paras(rel)
            n = int(match.group(1))
            for i in (n, n - 1):
                if 0 <= i < len(paras) and text in paras[i]:
                    return None
        return "text not found in the agreement clause" if clause is not None else f"clause id {clause_id} not found"


def words(text: str) -> int:
    return len(WORD.findall(text))


def sentences(text: str) -> int:
    return len([s for s in re.split(r"(?<=[.;!?])\s+(?=[A-Z(])", text.strip()) if s])


class Checker:
    def __init__(self) -> None:
        self.errors: list[str] = []
        self.warnings: list[str] = []
        self.sources = Sources()

    def err(self, where: str, msg: str) -> None:
        self.errors.append(f"{where}: {msg}")

    def warn(self, where: str, msg: str) -> None:
        self.warnings.append(f"{where}: {msg}")

    def task(self, t: dict, split: str, prefix: str, seen: set) -> None:
        tid = t.get("task_id", "?")
        missing = TASK_KEYS - set(t)
        if missing:
            self.err(tid, f"missing keys {sorted(missing)}")
            return
        if tid in seen:
            self.err(tid, "duplicate task_id")
        seen.add(tid)
        if not tid.startswith(prefix + "-"):
            self.err(tid, f"task_id should start with {prefix}-")
        if t["category"] not in CATEGORIES:
            self.err(tid, f"category {t['category']!r}")
        if t["split"] != split:
            self.err(tid, f"split {t['split']!r} in the {split} file")
        if not t["instruction"].strip() or not t["phrasing"].strip():
            self.err(tid, "empty instruction or phrasing")
        src = t["clause_source"]
        why = self.sources.found(src.get("source"), src.get("clause_id", ""), t["clause"])
        if why:
            self.err(tid, f"clause: {why}")
        if len(t["clause"]) > 1200:
            self.warn(tid, f"clause is {len(t['clause'])} characters (> 1,200)")
        parts = t["parts"]
        if not parts:
            self.err(tid, "no parts")
        for i, p in enumerate(parts):
            if p.get("kind") not in PART_KINDS:
                self.err(tid, f"part {i} kind {p.get('kind')!r}")
            if not p.get("asks") or not p.get("done_when"):
                self.err(tid, f"part {i} lacks asks/done_when")
            if p.get("kind") in ("period", "amount") and not p.get("value"):
                self.err(tid, f"part {i} ({p.get('kind')}) has no value")
        if t["category"] == "multi" and len(parts) < 2:
            self.err(tid, "multi task with fewer than two parts")
        precs = t["precedents"]
        if len(precs) > 3:
            self.err(tid, "more than three precedents")
        for i, p in enumerate(precs, 1):
            why = self.sources.found(p.get("source"), p.get("clause_id", ""), p.get("text", ""))
            if why:
                self.err(tid, f"precedent [{i}]: {why}")
        doc = t["document"]
        if not isinstance(doc, dict) or not {"doc", "parties", "terms"} <= set(doc):
            self.err(tid, "document needs doc, parties, terms")
        self.drafts(tid, t, precs, parts)

    def drafts(self, tid: str, t: dict, precs: list, parts: list) -> None:
        sound = broken = 0
        ids = set()
        for d in t["drafts"]:
            did = d.get("draft_id", "?")
            if did in ids or not did.startswith(tid + "-"):
                self.err(did, "draft_id duplicated or not under its task")
            ids.add(did)
            if d.get("kind") not in ("reference", "paraphrase", "broken"):
                self.err(did, f"kind {d.get('kind')!r}")
            if d.get("sound") != (d.get("kind") != "broken"):
                self.err(did, "sound flag disagrees with kind")
            faults = d.get("faults", [])
            if d.get("sound"):
                sound += 1
                if faults:
                    self.err(did, "sound draft with faults")
                for n in MARKER.findall(d["text"]):
                    if not 1 <= int(n) <= len(precs):
                        self.err(did, f"marker [{n}] with {len(precs)} precedents")
                if d["kind"] == "paraphrase" and precs and not MARKER.search(d["text"]):
                    self.warn(did, "paraphrase cites no precedent")
                self.lengths(did, t, d["text"], parts)
            else:
                broken += 1
                if len(faults) != 1:
                    self.err(did, f"{len(faults)} faults (exactly one required)")
                for f in faults:
                    if f.get("fault") not in FAULTS:
                        self.err(did, f"fault {f.get('fault')!r} not in the taxonomy")
                    part = f.get("part")
                    if part is not None and not (isinstance(part, int) and 0 <= part < len(parts)):
                        self.err(did, f"fault part {part!r} out of range")
                    if not f.get("detail"):
                        self.err(did, "fault without detail")
                if d["text"].strip() == t["clause"].strip() and faults and faults[0].get("fault") != "unchanged":
                    self.warn(did, "broken draft equals the clause but is not labelled unchanged")
        if sound < 1:
            self.err(tid, "no sound draft")
        if broken < 2:
            self.err(tid, f"{broken} broken drafts (at least two required)")

    def lengths(self, did: str, t: dict, text: str, parts: list) -> None:
        """A sound draft meets the length a 'shorten' part sets (the taxonomy's too_long rule)."""
        for p in parts:
            if p["kind"] != "shorten":
                continue
            asks = " ".join((t["instruction"], p["asks"], p["done_when"])).lower()
            limit = length_limit(asks)
            n_words, n_clause = words(text), words(t["clause"])
            if limit[0] == "sentences" and sentences(text) > limit[1]:
                self.err(did, f"sound draft has {sentences(text)} sentences, {limit[1]} allowed")
            elif limit[0] == "words" and n_words >= limit[1]:
                self.err(did, f"sound draft has {n_words} words, under {limit[1]:g} asked")
            elif limit[0] == "ratio" and n_words >= limit[1] * n_clause:
                self.err(did, f"sound draft not shorter than {limit[1]} of the clause ({n_words} vs {n_clause} words)")


NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def length_limit(asks: str) -> tuple[str, float]:
    """The length a shortening instruction sets: a sentence count, a word count or a ratio."""
    m = re.search(r"(?:in|to|no more than|at most|max(?:imum)?)\s+(\w+)\s+sentences?", asks)
    if m and (m.group(1).isdigit() or m.group(1) in NUMBERS):
        return "sentences", float(m.group(1)) if m.group(1).isdigit() else float(NUMBERS[m.group(1)])
    m = re.search(r"(?:under|fewer than|less than|no more than|at most|within)\s+(\d+)\s+words", asks)
    if m:
        return "words", float(m.group(1)) + (1 if re.search(r"no more than|at most|within", m.group(0)) else 0)
    if re.search(r"\b(?:by half|in half|halve)", asks):
        return "ratio", 0.6
    return "ratio", 0.8


def out(line: str = "") -> None:
    """The report goes to stdout: it is the script's output, not a log (it holds no clause text)."""
    sys.stdout.write(line + "\n")


def table(title: str, counter: Counter) -> None:
    out(f"\n{title}")
    for key, n in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        out(f"  {n:4d}  {key}")


def main() -> int:
    checker = Checker()
    by = {k: Counter() for k in ("category", "split", "phrasing", "fault", "source", "half", "draft")}
    fault_half = Counter()
    for name in FILES:
        path = HERE / name
        if not path.exists():
            continue
        half = name[0]
        split = "tuning" if "tuning" in name else "held-out"
        seen: set = set()
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                t = json.loads(line)
            except json.JSONDecodeError as exc:
                checker.err(f"{name}:{n}", f"not JSON ({exc})")
                continue
            checker.task(t, split, half, seen)
            by["half"][half] += 1
            by["category"][(half, t.get("category"))] += 1
            by["split"][(half, split, t.get("category"))] += 1
            by["phrasing"][(half, t.get("category"), t.get("phrasing"))] += 1
            by["source"][(half, t.get("clause_source", {}).get("source"))] += 1
            for d in t.get("drafts", []):
                by["draft"][(half, d.get("kind"))] += 1
                for f in d.get("faults", []):
                    by["fault"][f.get("fault")] += 1
                    fault_half[(half, f.get("fault"))] += 1
    if not by["half"]:
        out("no task files found")
        return 1
    table("tasks per half", by["half"])
    table("tasks per category", by["category"])
    table("tasks per split and category", by["split"])
    table("clause sources", by["source"])
    table("drafts per kind", by["draft"])
    table("broken drafts per fault (both halves)", by["fault"])
    table("broken drafts per fault and half", fault_half)
    table("phrasings", by["phrasing"])
    for fault in sorted(FAULTS - set(by["fault"])):
        checker.warn("set", f"fault {fault} never used")
    for w in checker.warnings:
        out(f"WARNING {w}")
    for e in checker.errors:
        out(f"ERROR {e}")
    out(f"\n{sum(by['half'].values())} tasks, {len(checker.errors)} errors, {len(checker.warnings)} warnings")
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main())
