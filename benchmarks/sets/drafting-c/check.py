"""Validate the drafting-c held-out tranche (issue 38) and print its counts.

Checks every task in heldout.jsonl against /work/coord/drafting-schema.md: field types and enums,
task ids 'c-<category>-NN', clause and precedent texts found exactly in their sources (the ACORD
corpus record, or the agreement clause ``index_builder.ingest.read_clauses`` gives for that id),
no clause id already used in benchmarks/sets/drafting/*.jsonl, parties and terms present in the
lawyer's document (the clause's own agreement or ACORD record; for a conform part, the agreement
the clause is conformed into), 1+ sound and 2-3 broken drafts, exactly one fault per broken draft
from the taxonomy, markers in range on sound drafts, and the label-internal rules the drafts must
obey (word and sentence limits for length instructions, no legalese in sound plain-English drafts,
the new value present in reference period/amount drafts). Set-level: at least 60 tasks, every
category at least 5 (multi at least 10, with two- and three-part instructions), every fault at
least 3 times. It reads labels only; it never runs the drafting code.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-c/check.py

Exit status 1 when any check fails (each failure is logged with the task id).
"""

from __future__ import annotations

import collections
import json
import logging
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
DATA = next((p for p in (REPO.parent / "shared" / "data", Path("/work/shared/data")) if p.exists()),
            REPO.parent / "shared" / "data")
FILES = {"held-out": HERE / "heldout.jsonl"}
OLD_SETS = sorted((HERE.parent / "drafting").glob("*.jsonl"))

CATEGORIES = {"mutual", "flip", "conform", "period", "amount", "carve_out", "shorten", "plain", "multi"}
B_CATEGORIES = ("mutual", "flip", "conform", "period", "amount", "carve_out", "shorten", "plain", "multi")
PART_KINDS = {"mutual", "flip", "conform", "period", "amount", "carve_out", "shorten", "plain", "other"}
FAULTS = ("unchanged", "not_done", "partly_done", "wrong_direction", "wrong_value", "uncited_addition",
          "reversed_meaning", "unsupported_citation", "bad_marker", "misquote", "undefined_term",
          "too_long", "legalese_left")
MINIMUMS = {**{c: 5 for c in ("mutual", "flip", "conform", "period", "amount", "carve_out", "shorten", "plain")},
            "multi": 10}
MIN_TASKS = 60
TASK_KEYS = {"task_id", "category", "split", "clause", "clause_source", "instruction", "phrasing", "parts",
             "precedents", "document", "drafts", "notes"}
# Archaic legalese a plain-English draft must not keep ("such" only as a determiner before a noun
# without an article, the lawyer's "such notice", is caught by the 'such <word>' rule below).
LEGALESE = re.compile(r"\b(hereby|herein\w*|hereunder|hereto|hereof|thereof|therein|thereto|thereunder|"
                      r"notwithstanding|pursuant to|witnesseth|aforesaid|said party|whereas|provided,? however|"
                      r"as the case may be|in the event)\b|\bsuch (?!as\b|a\b|an\b)\w+",
                      re.I)
MARKER = re.compile(r"\[(\d+)\]")

log = logging.getLogger("check_c")


class Sources:
    """Exact source texts: ACORD records by id, agreement clauses by id, agreement full texts by path."""

    def __init__(self) -> None:
        self.acord: dict[str, str] = {}
        with open(DATA / "acord" / "corpus.jsonl", encoding="utf-8") as fh:
            for line in fh:
                rec = json.loads(line)
                self.acord[rec["_id"]] = rec["text"]
        self._clauses: dict[str, dict[str, str]] = {}
        self._docs: dict[str, str] = {}
        self.old_ids: set[str] = set()
        for path in OLD_SETS:
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    rec = json.loads(line)
                    for row in [rec.get("clause_source") or rec] + list(rec.get("precedents") or []):
                        if row.get("clause_id"):
                            self.old_ids.add(row["clause_id"])

    def clause_text(self, source: str, clause_id: str, doc: str | None) -> str | None:
        if source == "acord":
            return self.acord.get(clause_id)
        rel = clause_id.split("#")[0]
        if doc is not None and doc != rel:
            return None
        if rel not in self._clauses:
            from index_builder.ingest import read_clauses  # the segmenter the sampler used

            path = DATA / "contracts" / rel
            self._clauses[rel] = ({c.clause_id: c.text for c in read_clauses(path, rel, rel)}
                                  if path.exists() else {})
        return self._clauses[rel].get(clause_id)

    def document_text(self, rel: str) -> str:
        if rel not in self._docs:
            import docx

            d = docx.Document(DATA / "contracts" / rel)
            parts = [p.text for p in d.paragraphs]
            for table in d.tables:
                for row in table.rows:
                    parts.extend(cell.text for cell in row.cells)
            self._docs[rel] = "\n".join(parts)
        return self._docs[rel]


def words(text: str) -> int:
    return len(text.split())


def sentences(text: str) -> int:
    return len([s for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(“\"])", text.strip()) if s])


def length_rules(instruction: str) -> list[tuple[str, float]]:
    """The length limits an instruction sets, as (kind, bound) pairs."""
    low = instruction.lower()
    m = re.search(r"under (\d+) words", low)
    if m:  # an explicit limit replaces the generic ratio
        return [("words_lt", float(m.group(1)))]
    if re.search(r"\btwo sentences\b", low):
        return [("sentences_max", 2.0)]
    if "half" in low:
        return [("ratio_max", 0.6)]
    if re.search(r"\bshort|\btrim|\btighten", low):
        return [("ratio_lt", 0.8)]
    return []


def obeys(rule: tuple[str, float], clause: str, draft: str) -> bool:
    kind, bound = rule
    if kind == "ratio_max":
        return words(draft) <= bound * words(clause)
    if kind == "ratio_lt":
        return words(draft) < bound * words(clause)
    if kind == "words_lt":
        return words(draft) < bound
    return sentences(draft) <= bound


class Checker:
    def __init__(self, sources: Sources) -> None:
        self.src = sources
        self.errors: list[str] = []

    def fail(self, tid: str, msg: str) -> None:
        self.errors.append(f"{tid}: {msg}")

    def task(self, t: dict, split: str) -> None:
        tid = t.get("task_id", "?")
        missing = TASK_KEYS - t.keys()
        if missing:
            self.fail(tid, f"missing keys {sorted(missing)}")
            return
        if t["category"] not in CATEGORIES or not re.fullmatch(rf"c-{t['category']}-\d\d", tid):
            self.fail(tid, "task id must be c-<category>-NN and category must be in the schema")
        if t["clause_source"].get("clause_id") in self.src.old_ids:
            self.fail(tid, "clause already used in benchmarks/sets/drafting/")
        if t["split"] != split:
            self.fail(tid, f"split {t['split']!r} in the {split} file")
        if not t["instruction"].strip() or not t["phrasing"].strip():
            self.fail(tid, "empty instruction or phrasing")
        self.clause(t)
        self.parts(t)
        self.precedents(t)
        self.document(t)
        self.drafts(t)

    def clause(self, t: dict) -> None:
        tid, cs = t["task_id"], t["clause_source"]
        if cs.get("source") not in ("acord", "contracts"):
            self.fail(tid, "clause_source.source must be acord or contracts")
            return
        if (cs["source"] == "acord") != (cs.get("doc") is None):
            self.fail(tid, "clause_source.doc must be null exactly for ACORD clauses")
        text = self.src.clause_text(cs["source"], cs["clause_id"], cs.get("doc"))
        if text is None:
            self.fail(tid, f"clause id {cs['clause_id']} not found in its source")
        elif t["clause"] not in text:
            self.fail(tid, "clause text is not found exactly in its source clause")
        if len(t["clause"]) > 1200:
            self.fail(tid, f"clause is {len(t['clause'])} characters (limit 1,200)")

    def parts(self, t: dict) -> None:
        tid, parts = t["task_id"], t["parts"]
        if not parts or any(p.get("kind") not in PART_KINDS for p in parts):
            self.fail(tid, "parts empty or with an unknown kind")
            return
        if t["category"] == "multi":
            if not 2 <= len(parts) <= 3:
                self.fail(tid, "a multi task needs 2-3 parts")
        elif len(parts) != 1 or parts[0]["kind"] != t["category"]:
            self.fail(tid, "a single-operation task needs one part of its own kind")
        for p in parts:
            if not p.get("asks") or not p.get("done_when"):
                self.fail(tid, "every part needs asks and done_when")
            if (p["kind"] in ("period", "amount")) != bool(p.get("value")):
                self.fail(tid, "value is required for period/amount parts and only for them")

    def precedents(self, t: dict) -> None:
        tid, precs = t["task_id"], t["precedents"]
        if len(precs) > 3:
            self.fail(tid, "more than 3 precedents")
        for k, p in enumerate(precs, 1):
            text = self.src.clause_text(p.get("source"), p.get("clause_id", ""), p.get("doc"))
            if text is None or p.get("text", "") not in text or not p.get("text"):
                self.fail(tid, f"precedent [{k}] text not found exactly in {p.get('clause_id')}")
            if p.get("clause_id") == t["clause_source"]["clause_id"]:
                self.fail(tid, f"precedent [{k}] is the clause itself")

    def document(self, t: dict) -> None:
        tid, doc, cs = t["task_id"], t["document"], t["clause_source"]
        conform = any(p["kind"] == "conform" for p in t["parts"])
        if doc.get("doc") != cs.get("doc") and not (conform and doc.get("doc")):
            self.fail(tid, "document.doc should be the clause's own agreement (null for ACORD) "
                           "unless the task conforms the clause into another agreement")
        if doc.get("doc"):
            full = self.src.document_text(doc["doc"])
        else:
            full = self.src.acord.get(cs["clause_id"], "")
        for name in doc.get("parties", []) + doc.get("terms", []):
            # exact case, or the name in capitals where the source is a caps-lock clause
            found = {m.group(0) for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", full, re.I)}
            if name not in found and name.upper() not in found:
                self.fail(tid, f"party/term {name!r} does not occur in the lawyer's document")

    def drafts(self, t: dict) -> None:
        tid, drafts, parts = t["task_id"], t["drafts"], t["parts"]
        n_prec = len(t["precedents"])
        sound = [d for d in drafts if d.get("sound")]
        broken = [d for d in drafts if not d.get("sound")]
        if not sound or not 2 <= len(broken) <= 3:
            self.fail(tid, f"{len(sound)} sound and {len(broken)} broken drafts (need 1+ and 2-3)")
        ids = [d.get("draft_id") for d in drafts]
        if len(set(ids)) != len(ids):
            self.fail(tid, "duplicate draft ids")
        texts = [d.get("text", "") for d in drafts]
        if len(set(texts)) != len(texts):
            self.fail(tid, "two drafts have the same text")
        if t["category"] == "carve_out" and not any(
                d["kind"] == "paraphrase" and MARKER.search(d["text"]) for d in sound):
            self.fail(tid, "a carve-out task needs a paraphrase sound draft citing a precedent")
        rules = length_rules(t["instruction"])
        for d in drafts:
            did = d.get("draft_id", "?")
            if not re.fullmatch(re.escape(tid) + r"-[spb]\d+", did or ""):
                self.fail(tid, f"draft id {did!r} does not follow <task_id>-<s|p|b><n>")
            if d["kind"] not in ("reference", "paraphrase", "broken") or d["sound"] != (d["kind"] != "broken"):
                self.fail(tid, f"{did}: kind and sound disagree")
            markers = [int(m) for m in MARKER.findall(d["text"])]
            out_of_range = [m for m in markers if not 1 <= m <= n_prec]
            if d["sound"]:
                if d["faults"]:
                    self.fail(tid, f"{did}: a sound draft carries faults")
                if out_of_range:
                    self.fail(tid, f"{did}: sound draft cites {out_of_range} with {n_prec} precedents")
                if d["text"].strip() == t["clause"].strip():
                    self.fail(tid, f"{did}: sound draft is the clause itself")
                self.sound_rules(t, d, rules)
                continue
            if len(d["faults"]) != 1:
                self.fail(tid, f"{did}: a broken draft needs exactly one primary fault")
                continue
            f = d["faults"][0]
            if f.get("fault") not in FAULTS or not f.get("detail"):
                self.fail(tid, f"{did}: unknown fault or no detail")
            part = f.get("part")
            if part is not None and not (isinstance(part, int) and 0 <= part < len(parts)):
                self.fail(tid, f"{did}: part {part!r} is not an index into parts")
            if f.get("fault") == "partly_done" and t["category"] == "multi" and part is None:
                self.fail(tid, f"{did}: partly_done on a multi task must name the part")
            if f.get("fault") == "bad_marker" and not out_of_range:
                self.fail(tid, f"{did}: bad_marker but every marker is in range")
            if f.get("fault") != "bad_marker" and out_of_range:
                self.fail(tid, f"{did}: an out-of-range marker makes bad_marker a second fault")
            if f.get("fault") == "too_long" and rules and all(obeys(r, t["clause"], d["text"]) for r in rules):
                self.fail(tid, f"{did}: too_long but within the instruction's length limit")
            if f.get("fault") == "legalese_left" and not LEGALESE.search(d["text"]):
                self.fail(tid, f"{did}: legalese_left but no legalese found")
            if f.get("fault") == "unchanged" and words(d["text"]) != words(t["clause"]):
                self.fail(tid, f"{did}: 'unchanged' draft differs in length from the clause")
            if f.get("fault") not in ("too_long",) and rules and not all(
                    obeys(r, t["clause"], d["text"]) for r in rules) and f.get("fault") != "unchanged":
                self.fail(tid, f"{did}: breaks the length limit too, a second fault")

    def sound_rules(self, t: dict, d: dict, rules: list) -> None:
        tid, did = t["task_id"], d["draft_id"]
        for r in rules:
            if not obeys(r, t["clause"], d["text"]):
                self.fail(tid, f"{did}: sound draft breaks the length limit {r}")
        kinds = {p["kind"] for p in t["parts"]}
        if "plain" in kinds and LEGALESE.search(d["text"]):
            self.fail(tid, f"{did}: sound plain-English draft has legalese "
                           f"({LEGALESE.search(d['text']).group(0)!r})")
        for p in t["parts"]:
            if p["kind"] in ("period", "amount") and d["kind"] == "reference" and p["value"] not in d["text"]:
                self.fail(tid, f"{did}: reference draft lacks the new value {p['value']!r}")


def report(tasks: list[dict]) -> None:
    def table(title: str, counter: collections.Counter) -> None:
        sys.stdout.write(f"\n{title}\n")
        for key, n in sorted(counter.items(), key=lambda kv: (-kv[1], str(kv[0]))):
            sys.stdout.write(f"  {n:4d}  {key}\n")

    cat_split = collections.Counter((t["category"], t["split"]) for t in tasks)
    sys.stdout.write(f"tasks: {len(tasks)}\n\n  category      tuning  held-out  total\n")
    for c in B_CATEGORIES:
        tu, ho = cat_split[(c, "tuning")], cat_split[(c, "held-out")]
        sys.stdout.write(f"  {c:12s}  {tu:6d}  {ho:8d}  {tu + ho:5d}\n")
    src = collections.Counter(t["clause_source"]["source"] for t in tasks)
    sys.stdout.write(f"\nsources: contracts {src['contracts']} ({src['contracts'] / len(tasks):.0%}), "
                     f"acord {src['acord']} ({src['acord'] / len(tasks):.0%})\n")
    table("phrasing (category: phrasing)", collections.Counter(f"{t['category']}: {t['phrasing']}" for t in tasks))
    table("distinct phrasings per category", collections.Counter(
        {c: len({t["phrasing"] for t in tasks if t["category"] == c}) for c in B_CATEGORIES}))
    faults = collections.Counter(f["fault"] for t in tasks for d in t["drafts"] for f in d["faults"])
    table("multi tasks by number of parts", collections.Counter(
        f"{len(t['parts'])} parts" for t in tasks if t["category"] == "multi"))
    table("faults (broken drafts)", collections.Counter({f: faults.get(f, 0) for f in FAULTS}))
    table("faults by split", collections.Counter(
        f"{t['split']}: {f['fault']}" for t in tasks for d in t["drafts"] for f in d["faults"]))
    drafts = collections.Counter(d["kind"] for t in tasks for d in t["drafts"])
    table("drafts by kind", drafts)
    citing = sum(any(d["kind"] == "paraphrase" and MARKER.search(d["text"]) for d in t["drafts"]) for t in tasks)
    para = sum(any(d["kind"] == "paraphrase" for d in t["drafts"]) for t in tasks)
    sys.stdout.write(f"\ntasks with a paraphrase sound draft: {para}; citing a precedent: {citing} "
                     f"(a third of {len(tasks)} is {len(tasks) / 3:.1f})\n")
    cw = [t for t in tasks if t["category"] == "carve_out"]
    by_number = sum(bool(re.search(r"\[\d+\]", t["instruction"])) for t in cw)
    sys.stdout.write(f"carve-out instructions naming the precedent by number: {by_number}, in words: {len(cw) - by_number}\n")


def main() -> int:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    tasks = []
    for split, path in FILES.items():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                t = json.loads(line)
                t["_split_file"] = split
                tasks.append(t)
    checker = Checker(Sources())
    ids = collections.Counter(t["task_id"] for t in tasks)
    for tid, n in ids.items():
        if n > 1:
            checker.fail(tid, f"appears {n} times")
    for t in tasks:
        checker.task({k: v for k, v in t.items() if k != "_split_file"}, t["_split_file"])
    cats = collections.Counter(t["category"] for t in tasks)
    if len(tasks) < MIN_TASKS:
        checker.fail("set", f"{len(tasks)} tasks (need {MIN_TASKS})")
    sizes = {len(t["parts"]) for t in tasks if t["category"] == "multi"}
    if not {2, 3} <= sizes:
        checker.fail("set", f"multi tasks need both two- and three-part instructions (have {sorted(sizes)})")
    for c, minimum in MINIMUMS.items():
        if cats[c] < minimum:
            checker.fail("set", f"{cats[c]} {c} tasks (need {minimum})")
    faults = collections.Counter(f["fault"] for t in tasks for d in t["drafts"] for f in d["faults"])
    for f in FAULTS:
        if faults[f] < 3:
            checker.fail("set", f"fault {f} appears {faults[f]} times (need 3)")
    src = collections.Counter(t["clause_source"]["source"] for t in tasks)
    if src["contracts"] < 0.3 * len(tasks) or src["acord"] < 0.3 * len(tasks):
        checker.fail("set", f"source mix {dict(src)} below 30% agreements / 30% ACORD")
    citing = sum(any(d["kind"] == "paraphrase" and MARKER.search(d["text"]) for d in t["drafts"]) for t in tasks)
    if citing * 3 < len(tasks):
        checker.fail("set", f"only {citing} tasks have a paraphrase draft citing a precedent")
    report(tasks)
    for e in checker.errors:
        log.error("FAIL %s", e)
    sys.stdout.write(f"\n{len(checker.errors)} failures\n")
    return 1 if checker.errors else 0


if __name__ == "__main__":
    sys.exit(main())
