"""A realistic contract library of any size, made from the 104 agreements and ACORD.

Usage (from the repo root):
    nice -n 10 precedent-bench scale-corpus --clauses 100000 [--out var/scale/100k] [--seed 9] [--workers 2]

(Was benchmarks/scale_corpus.py; moved beside the benchmark that builds 10M libraries from it.)

How a library is made (deterministic for a seed):
1. Every clause of the .docx agreements in ../shared/data/contracts (read with
   index_builder.ingest.read_clauses) and of ACORD's corpus.jsonl is split into sentences.
   Sentences with drafting notes, template markup or unfilled blanks are dropped; template
   variables such as {party_1} are filled in per document.
2. Each synthetic document draws a type and title, two parties (generated company names), a
   role pair (Supplier/Customer, Licensor/Licensee, ...), a governing law and a renaming of
   some defined terms ("Confidential Information" -> "Proprietary Information").
3. Each of its clauses starts from a random source clause; every sentence after the first is
   swapped, with probability 0.35, for a sentence of another clause under the same heading,
   and sometimes dropped. Then durations, amounts and percentages are redrawn (in the
   "thirty (30) days" style when the source used it), role words take the document's roles,
   company names and jurisdictions the document's, defined terms its renaming.
4. Documents are written as Markdown files ("# Title", a preamble naming the parties, then
   numbered sections "N. **Heading.** text"), about 40 clauses each, 500 per sub-folder, so
   the index builder reads them like any firm's library and a changed file is re-read alone.

``mutate`` rewrites one clause in a given share of the documents (the 1% rebuild test).
Nothing here is random tokens: every sentence is contract text.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD, CONTRACTS

log = logging.getLogger("benchmark.scale_corpus")

DOCS_PER_FOLDER = 500
SWAP_P, DROP_P = 0.35, 0.08
DOC_TYPES = ("Master Services Agreement", "Software License Agreement", "Mutual Non-Disclosure Agreement",
             "Supply Agreement", "Distribution Agreement", "Consulting Agreement", "Data Processing Addendum",
             "Reseller Agreement", "Joint Venture Agreement", "Cloud Services Agreement",
             "Asset Purchase Agreement", "Employment Agreement")
ROLES = (("Supplier", "Customer"), ("Licensor", "Licensee"), ("Provider", "Client"),
         ("Company", "Consultant"), ("Seller", "Buyer"), ("Vendor", "Purchaser"),
         ("Disclosing Party", "Receiving Party"), ("Distributor", "Manufacturer"))
ROLE_WORDS = sorted({w for pair in ROLES for w in pair} | {"Contractor", "Service Provider",
                                                           "Recipient", "Discloser"}, key=len, reverse=True)
NAME_STEMS = ("Northwind", "Harbor", "Aldgate", "Bluestone", "Kestrel", "Meridian", "Oakridge", "Pinnacle",
              "Quayside", "Redfern", "Silverline", "Thornbury", "Upland", "Vantage", "Westbrook", "Yarrow",
              "Ashcombe", "Brightwater", "Calder", "Dunmore", "Everly", "Fairhaven", "Glenmore", "Holloway")
NAME_KINDS = ("Systems", "Holdings", "Logistics", "Analytics", "Pharma", "Capital", "Media", "Energy",
              "Software", "Partners", "Foods", "Robotics")
NAME_SUFFIXES = ("Inc.", "LLC", "Ltd", "plc", "GmbH", "Corporation", "LLP")
LAWS = ("the State of New York", "the State of Delaware", "the State of California", "England and Wales",
        "the Commonwealth of Massachusetts", "the State of Texas", "Ontario", "Ireland", "Singapore")
TERM_RENAMES = {"Confidential Information": ("Proprietary Information", "Protected Information"),
                "Effective Date": ("Commencement Date", "Start Date"),
                "Intellectual Property Rights": ("IP Rights", "Proprietary Rights"),
                "Business Day": ("Working Day",), "Affiliate": ("Related Entity",)}
UNIT_VALUES = {"day": (3, 5, 7, 10, 14, 15, 20, 30, 45, 60, 90, 120, 180), "month": (1, 3, 6, 9, 12, 18, 24, 36),
               "year": (1, 2, 3, 5, 7, 10)}
MONEY = (5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000)
PERCENTS = ("1", "2", "3", "5", "10", "15", "20", "25", "50")
HEADING_KEYS = (("indemnif", "Indemnification"), ("confidential", "Confidentiality"),
                ("terminat", "Term and Termination"), ("governed by", "Governing Law"),
                ("liabil", "Limitation of Liability"), ("assign", "Assignment"), ("warrant", "Warranties"),
                ("insurance", "Insurance"), ("audit", "Audit Rights"), ("non-compet", "Non-Competition"),
                ("solicit", "Non-Solicitation"), ("exclusiv", "Exclusivity"), ("payment", "Payment Terms"),
                ("intellectual property", "Intellectual Property"), ("notice", "Notices"),
                ("force majeure", "Force Majeure"), ("renew", "Renewal"), ("license", "License Grant"))

_SENTENCE = re.compile(r"(?<!\b[A-Z]\.)(?<!\bInc\.)(?<!\bNo\.)(?<!\bLtd\.)(?<!\bCo\.)(?<!\bSec\.)"
                       r"(?<=[.!?])\s+(?=[A-Z(\"“])")
_LEADING_NUMBER = re.compile(r"^\(?\d+(?:\.\d+)*\)?\.?\s+")
_JUNK = re.compile(r"drafting note|<!--|-->|_{3,}|\[ *\]|\( *\)|\*\*|\bvariables?\b|https?://", re.I)
_TEMPLATE_VAR = re.compile(r"\{([a-z_0-9]+)\}")
_DURATION = re.compile(r"\b(?:([a-z]+(?:-[a-z]+)?) \()?(\d{1,3})\)?( business| calendar)? (day|month|year)(s?)\b", re.I)
_MONEY = re.compile(r"\$ ?\d{1,3}(?:,\d{3})+(?:\.\d{2})?|\$ ?\d+(?:\.\d{2})?")
_PERCENT = re.compile(r"\b\d{1,2}(?:\.\d+)?(?= ?%| percent)")
_LAW = re.compile(r"\b(?:the )?(?:State|Commonwealth) of [A-Z][a-z]+(?: [A-Z][a-z]+)?|\bEngland and Wales\b")
_DIGIT = re.compile(r"\d")
_ROLE = re.compile(r"\b(" + "|".join(map(re.escape, ROLE_WORDS)) + r")\b")
_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()


@dataclass(frozen=True)
class SourceClause:
    """A clause of the source material as a heading and its usable sentences."""

    heading: str
    sentences: tuple[str, ...]


@dataclass(frozen=True)
class Document:
    """One synthetic agreement: its file name, title, parties and clauses (heading, text)."""

    name: str
    title: str
    parties: tuple[str, str]
    roles: tuple[str, str]
    clauses: tuple[tuple[str, str], ...]

    def markdown(self) -> str:
        preamble = (f"This {self.title} is entered into by {self.parties[0]} (the \"{self.roles[0]}\") "
                    f"and {self.parties[1]} (the \"{self.roles[1]}\").")
        body = [f"{n}. **{heading}.** {text}" for n, (heading, text) in enumerate(self.clauses, 1)]
        return "\n\n".join([f"# {self.title}", preamble, *body]) + "\n"


def number_words(n: int) -> str:
    """English words for 0..999 ("forty-five")."""
    if n < 20:
        return _ONES[n]
    if n < 100:
        return _TENS[n // 10] + ("" if n % 10 == 0 else "-" + _ONES[n % 10])
    rest = n % 100
    return _ONES[n // 100] + " hundred" + ("" if rest == 0 else " " + number_words(rest))


def split_sentences(text: str) -> list[str]:
    """Sentences of a clause body; a period after an initial or Inc./No./Ltd does not end one."""
    return [s.strip() for s in _SENTENCE.split(" ".join(text.split())) if s.strip()]


def source_clause(heading: str, body: str) -> SourceClause | None:
    """The usable sentences of one clause, or None when none is contract prose."""
    heading = heading.strip().rstrip(".:") or _guess_heading(body)
    body = _LEADING_NUMBER.sub("", " ".join(body.split()))
    if body.startswith(heading):  # the reader keeps a run-in heading in the clause text
        body = body[len(heading):].lstrip(" .:")
    kept = tuple(s for s in split_sentences(body) if len(s) >= 25 and not _JUNK.search(s))
    return SourceClause(heading.title() if heading.isupper() else heading, kept) if kept else None


def _guess_heading(body: str) -> str:
    lowered = body.lower()
    return next((name for key, name in HEADING_KEYS if key in lowered), "General")


def load_sources(contracts: Path, acord: Path) -> list[SourceClause]:
    """Clauses of every .docx under ``contracts`` and of ACORD's corpus, as sentences."""
    from index_builder.ingest import read_clauses

    sources: list[SourceClause] = []
    for path in sorted(contracts.rglob("*.docx")):
        for clause in read_clauses(path, path.stem, str(path)):
            heading, _, body = clause.text.partition("\n")
            item = source_clause(clause.heading, body if clause.heading and heading.strip()
                                 == clause.heading.strip() else clause.text)
            if item:
                sources.append(item)
    with open(acord / "corpus.jsonl", encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                item = source_clause("", json.loads(line)["text"])
                if item:
                    sources.append(item)
    log.info("%d source clauses, %d sentences", len(sources), sum(len(s.sentences) for s in sources))
    return sources


class Generator:
    """Draws documents from the source clauses; the same seed gives the same library."""

    def __init__(self, sources: Sequence[SourceClause], seed: int) -> None:
        if not sources:
            raise ValueError("No source clauses: check the contracts and ACORD folders.")
        self.sources = list(sources)
        self.seed = seed
        self.by_heading: dict[str, list[int]] = {}
        for i, source in enumerate(self.sources):
            self.by_heading.setdefault(source.heading.lower(), []).append(i)

    def document(self, number: int, clauses: int, revision: int = 0) -> Document:
        rng = random.Random(f"{self.seed}/{number}")
        roles = rng.choice(ROLES)
        parties = (_company(rng), _company(rng))
        title = rng.choice(DOC_TYPES)
        context = {"roles": roles, "parties": parties, "law": rng.choice(LAWS), "title": title,
                   "renames": {k: rng.choice(v) for k, v in TERM_RENAMES.items() if rng.random() < 0.5}}
        items = [self.clause(rng, context) for _ in range(clauses)]
        if revision:  # a later draft: one clause reworded, the rest as before
            edit = random.Random(f"{self.seed}/{number}/r{revision}")
            items[edit.randrange(len(items))] = self.clause(edit, context)
        return Document(f"doc-{number:07d}", f"{title} {number:07d}", parties, roles, tuple(items))

    def clause(self, rng: random.Random, context: dict) -> tuple[str, str]:
        base = self.sources[rng.randrange(len(self.sources))]
        donors = self.by_heading[base.heading.lower()]
        sentences = [base.sentences[0]]
        for sentence in base.sentences[1:]:
            if rng.random() < DROP_P:
                continue
            if rng.random() < SWAP_P:
                donor = self.sources[rng.choice(donors)] if len(donors) > 1 else \
                    self.sources[rng.randrange(len(self.sources))]
                sentence = rng.choice(donor.sentences)
            sentences.append(sentence)
        return base.heading, vary(" ".join(sentences), rng, context)


def vary(text: str, rng: random.Random, context: dict) -> str:
    """Redraw durations, amounts and percentages; put in the document's names, roles and terms."""
    # Each rule only where its mark is (a scan per rule per clause was most of generating a
    # document); the random draws happen per match, so skipping a rule that cannot match
    # leaves the library as it was.
    if "{" in text:
        text = _TEMPLATE_VAR.sub(lambda m: _fill(m.group(1), rng, context), text)
    if _DIGIT.search(text):
        text = _DURATION.sub(lambda m: _duration(m, rng), text)
    if "$" in text:
        text = _MONEY.sub(lambda m: f"${rng.choice(MONEY):,}", text)
    if _DIGIT.search(text):  # a duration drawn above may have put the only digits in
        text = _PERCENT.sub(lambda m: rng.choice(PERCENTS), text)
    if " of " in text or "England and Wales" in text:
        text = _LAW.sub(context["law"], text)
    roles = context["roles"]
    text = _ROLE.sub(lambda m: roles[0] if _side(m.group(1)) == 0 else roles[1], text)
    for old, new in context["renames"].items():
        text = text.replace(old, new)
    return text


def _side(role: str) -> int:
    for first, second in ROLES:
        if role == second:
            return 1
    return 1 if role in ("Recipient",) else 0


def _fill(name: str, rng: random.Random, context: dict) -> str:
    if "party_1" in name or name in ("provider", "company"):
        return context["parties"][0]
    if "party" in name or name in ("customer", "client"):
        return context["parties"][1]
    if "agreement" in name:
        return context["title"]
    if "law" in name or "jurisdiction" in name or "venue" in name:
        return context["law"]
    if "date" in name:
        return f"{rng.randint(1, 28)} {rng.choice(['January', 'March', 'June', 'September', 'November'])} {rng.randint(2018, 2026)}"
    if "fee" in name or "amount" in name or "cap" in name or "price" in name:
        return f"${rng.choice(MONEY):,}"
    if "period" in name or "days" in name or "term" in name:
        return f"{rng.choice(UNIT_VALUES['day'])} days"
    return context["parties"][rng.randrange(2)]


def _duration(match: re.Match, rng: random.Random) -> str:
    words, _, business, unit, plural = match.groups()
    n = rng.choice(UNIT_VALUES[unit.lower()])
    unit_text = unit + ("s" if n != 1 else "")
    count = f"{number_words(n)} ({n})" if words else str(n)
    return f"{count}{business or ''} {unit_text}"


def _company(rng: random.Random) -> str:
    return f"{rng.choice(NAME_STEMS)} {rng.choice(NAME_KINDS)} {rng.choice(NAME_SUFFIXES)}"


def document_sizes(total_clauses: int, seed: int, mean: int = 40) -> list[int]:
    """Clause counts per document (20..60) adding up to ``total_clauses`` exactly."""
    rng = random.Random(f"{seed}/sizes")
    sizes: list[int] = []
    left = total_clauses
    while left > 0:
        size = min(left, rng.randint(mean // 2, mean * 3 // 2))
        sizes.append(size)
        left -= size
    return sizes


def path_for(root: Path, number: int) -> Path:
    return root / f"part-{number // DOCS_PER_FOLDER:04d}" / f"doc-{number:07d}.md"


def write_library(generator: Generator, root: Path, total_clauses: int, workers: int = 1) -> dict:
    """Write the library under ``root`` (one file per document) and a manifest; returns it.

    Each document draws from its own seeded generator, so ``workers`` processes (forked, each
    writing a share of the documents) give the same files as one.
    """
    sizes = document_sizes(total_clauses, generator.seed)
    jobs = [(number, size) for number, size in enumerate(sizes)]
    if workers > 1:
        import multiprocessing

        global _GENERATOR, _ROOT
        _GENERATOR, _ROOT = generator, root
        with multiprocessing.get_context("fork").Pool(workers) as pool:
            for done, _ in enumerate(pool.imap_unordered(_write_one, jobs, chunksize=200), 1):
                if done % 10_000 == 0:
                    log.info("%d of %d documents", done, len(sizes))
    else:
        for number, size in jobs:
            _write_document(generator, root, number, size)
            if number % 1000 == 999:
                log.info("%d of %d documents", number + 1, len(sizes))
    manifest = {"seed": generator.seed, "clauses": total_clauses, "documents": len(sizes),
                "sizes": sizes, "revisions": {}}
    (root / "manifest.json").write_text(json.dumps(manifest) + "\n", encoding="utf-8")
    return manifest


_GENERATOR: Generator | None = None  # set before forking workers (inherited, not pickled)
_ROOT = Path(".")


def _write_one(job: tuple[int, int]) -> int:
    assert _GENERATOR is not None
    return _write_document(_GENERATOR, _ROOT, *job)


def _write_document(generator: Generator, root: Path, number: int, size: int) -> int:
    path = path_for(root, number)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(generator.document(number, size).markdown(), encoding="utf-8")
    return number


def mutate(generator: Generator, root: Path, fraction: float, revision: int = 1) -> list[Path]:
    """Reword one clause in ``fraction`` of the documents (a fixed, seeded choice); their paths."""
    manifest = json.loads((root / "manifest.json").read_text("utf-8"))
    sizes = manifest["sizes"]
    count = max(1, round(len(sizes) * fraction))
    chosen = sorted(random.Random(f"{generator.seed}/mutate/{revision}").sample(range(len(sizes)), count))
    changed = []
    for number in chosen:
        path = path_for(root, number)
        path.write_text(generator.document(number, sizes[number], revision).markdown(), encoding="utf-8")
        changed.append(path)
    manifest["revisions"][str(revision)] = chosen
    (root / "manifest.json").write_text(json.dumps(manifest) + "\n", encoding="utf-8")
    return changed


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    started = time.perf_counter()
    generator = Generator(load_sources(Path(args.contracts), Path(args.acord)), args.seed)
    out = Path(args.out or f"var/scale/{_tier(args.clauses)}")
    manifest = write_library(generator, out, args.clauses, args.workers)
    log.info("Wrote %d documents, %d clauses under %s in %.0f s", manifest["documents"],
             manifest["clauses"], out, time.perf_counter() - started)
    return 0


def _tier(clauses: int) -> str:
    return f"{clauses // 1_000_000}m" if clauses % 1_000_000 == 0 else f"{clauses // 1000}k"


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("--clauses", type=int, default=100_000)
    parser.add_argument("--out", default="", help="default var/scale/<100k|1m>")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--workers", type=int, default=1, help="processes writing documents")
    parser.add_argument("--contracts", default=str(CONTRACTS))
    parser.add_argument("--acord", default=str(ACORD))
