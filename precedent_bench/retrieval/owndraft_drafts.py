"""Own-draft queries for ACORD's train and valid needs (issue 28): the shape a lawyer selects.

Two kinds, as JSONL in benchmarks/owndraft/ (its README.md says how each is judged):

* ``fresh.jsonl``: one clause per train/valid query, written fresh for its need, with made-up
  parties and figures. ``check`` proves no run of 8 words is shared with any corpus clause.
* ``synthetic.jsonl``: each 5-star clause of a train/valid query transformed as a lawyer's
  draft differs from a library clause: parties and defined terms renamed, figures changed,
  a sentence dropped, two reordered or merged, a drafting note added. Made by ``make``
  (deterministic: a seed per clause id) and git-ignored, as ACORD-derived text is.

    precedent-bench owndraft-set make    # (re)write synthetic.jsonl
    precedent-bench owndraft-set check   # the 8-word check of fresh.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import re
from pathlib import Path
from typing import AbstractSet as Set, Iterable, Mapping

from precedent_bench.catalogue import subparser
from precedent_bench.common.data import ACORD, SETS, acord_corpus, jsonl

HERE = SETS / "owndraft"
FRESH = HERE / "fresh.jsonl"
SYNTHETIC = HERE / "synthetic.jsonl"
RUN = 8  # words in a run that may not be shared with the corpus
SPLITS = ("train", "valid")

_TOKEN = re.compile(r"[a-z0-9]+")
_SENTENCE = re.compile(r"(?<=[a-z)\]]\.)\s+(?=[A-Z(\"“])")
# Defined terms a firm's template names differently; renamed whole-word, case kept.
_TERMS = {
    "Agreement": "Contract", "Licensee": "Customer", "Licensor": "Supplier",
    "Company": "Client", "Distributor": "Reseller", "Supplier": "Vendor", "Vendor": "Supplier",
    "Customer": "Purchaser", "Purchaser": "Customer", "Buyer": "Purchaser", "Seller": "Provider",
    "Products": "Goods", "Product": "Item", "Services": "Deliverables", "Party": "party",
    "Parties": "parties", "Section": "Clause", "Article": "Clause", "Effective Date": "Start Date",
    "Term": "Contract Period", "Territory": "Region", "Affiliates": "Group Companies",
    "Affiliate": "Group Company", "Losses": "Liabilities", "Manufacturer": "Producer",
}
# Words that start with a capital without being a party's name.
_COMMON = frozenset("""US USA UK EU CISG IP NO AS IS OR IF IN ALL ANY THE The This That These Those Each Either Neither Any All No Nothing In If
Except Notwithstanding Subject Such Upon Unless Without Within During For From To Of On Or And
By With Where When Whether Under Other Its It Such Schedule Exhibit Annex Appendix State States
United America New York Delaware California Law Laws Court Courts Federal Notice Date Dollars
Confidential Information Intellectual Property Rights Indemnified Indemnifying Claim Claims
Damages Liability Limitation Warranty Warranties Disclaimer Indemnification Indemnity Insurance
Term Termination Agreement Section Article Party Parties Clause Code UCC Convention Nations
Sale Goods International Contracts California Texas Illinois Massachusetts Washington
Florida Nevada Georgia Virginia Pennsylvania Ohio Michigan Minnesota Colorado England Wales
Scotland Ireland Canada Ontario Germany France Japan China India Israel Switzerland Singapore AS IS WITH ALL FAULTS EXCEPT IN NO EVENT SHALL""".split())
_NAMES = ("Alderwood", "Brixham", "Calloway", "Dunmore", "Everly", "Fairhaven", "Glenrock",
          "Harlow", "Ivybridge", "Juniper", "Kingsley", "Larkspur", "Marwood", "Northgate",
          "Orchard", "Pembrook", "Quarry", "Redmere", "Stonebridge", "Thornbury")
_NOTES = (
    "[Note to draft: Client to confirm the figures above before this goes to the other side.]",
    "Please tighten this clause in our favour and keep the numbering.",
    "[Drafting note: conform the defined terms to the master agreement.]",
    "NTD: check this against the precedent we used on the last deal.",
    "Counsel to review whether this provision survives termination.",
    "[Comment: the counterparty has asked for this to be mutual; please advise.]",
    "Redraft in plain English where possible.",
    "[Note: cross-references to be updated once the schedules are final.]",
)
_NUMBER_WORDS = {"thirty": 30, "sixty": 60, "ninety": 90, "twelve": 12, "six": 6, "three": 3,
                 "two": 2, "one hundred eighty": 180, "ten": 10, "five": 5, "fifteen": 15,
                 "twenty": 20, "forty-five": 45, "twenty-four": 24, "eighteen": 18}


def words(text: str) -> list[str]:
    return _TOKEN.findall(text.casefold())


def runs(text: str, n: int = RUN) -> set[tuple[str, ...]]:
    """Every run of ``n`` consecutive words (lower-cased, punctuation ignored)."""
    w = words(text)
    return {tuple(w[i:i + n]) for i in range(len(w) - n + 1)}


def shared_runs(texts: Mapping[str, str], corpus: Iterable[str], n: int = RUN) -> dict[str, list[str]]:
    """Per text id, the ``n``-word runs it shares with any corpus text (empty lists dropped)."""
    library: set[tuple[str, ...]] = set()
    for text in corpus:
        library |= runs(text, n)
    found = {key: sorted(" ".join(r) for r in runs(text, n) & library) for key, text in texts.items()}
    return {key: hits for key, hits in found.items() if hits}


def _rename(text: str, rng: random.Random, lower_words: Set[str]) -> str:
    """Defined terms swapped for a template's synonyms; parties' names for made-up ones.

    A party's name is taken conservatively (a wrong guess would rename a term of art): a short
    all-capitals abbreviation in a clause not set in capitals (``DSI``, ``M&I``) or capitalised
    words before a company suffix (``Acme Widgets Inc.``), or a capitalised word the corpus
    never writes in lower case (``Miltenyi``: ``lower_words`` is the corpus's lower-case words).
    """
    terms = sorted(_TERMS, key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(re.escape(t) for t in terms) + r")\b")
    text = pattern.sub(lambda m: _TERMS[m.group(1)], text)
    letters = [c for c in text if c.isalpha()]
    shouting = sum(c.isupper() for c in letters) > 0.3 * max(1, len(letters))
    found = re.findall(r"((?:[A-Z][A-Za-z&\-]+ ){1,3})(?:Inc|LLC|Ltd|Limited|Corp|Corporation|"
                       r"GmbH|plc|L\.P|LP|Co)\b", text)
    names = [n.strip() for n in found]
    names += [w for w in re.findall(r"\b[A-Z][a-z]{3,}\b", text)
              if w.casefold() not in lower_words and w not in _TERMS.values() and w not in _COMMON]
    if not shouting:
        names += [w for w in re.findall(r"\b[A-Z][A-Z&]{1,4}\b", text) if w not in _COMMON]
    pool = list(_NAMES)
    rng.shuffle(pool)
    mapping = {}
    for name in sorted(set(names), key=lambda n: (-len(n), n)):  # a fixed order: same output
        if pool:
            mapping[name] = pool.pop()
    for name, new in mapping.items():
        text = re.sub(rf"(?<![\w&]){re.escape(name)}(?![\w&])", new, text)
    return text


def _renumber(text: str, rng: random.Random) -> str:
    """Figures changed: digits scaled, 'thirty (30)' pairs moved together."""
    def pair(m: re.Match[str]) -> str:
        value = _NUMBER_WORDS.get(m.group(1).casefold())
        if value is None or int(m.group(2)) != value:
            return m.group(0)
        new = rng.choice([v for v in _NUMBER_WORDS.values() if v != value])
        word = next(w for w, v in _NUMBER_WORDS.items() if v == new)
        return f"{word} ({new})"

    text = re.sub(r"\b([a-z\-]+(?: hundred [a-z]+)?) \((\d+)\)", pair, text, flags=re.I)

    def digits(m: re.Match[str]) -> str:
        raw = m.group(0)
        if "(" in text[max(0, m.start() - 2):m.start()]:
            return raw  # the digit half of a pair already changed
        value = float(raw.replace(",", ""))
        new = max(1, round(value * rng.choice((0.5, 1.5, 2, 3, 0.25))))
        return f"{new:,}" if "," in raw else str(new)

    return re.sub(r"(?<![\w.])\d{1,3}(?:,\d{3})+(?![\w.])|(?<![\w.])\d+(?![\w.])", digits, text)


def sentences(text: str) -> list[str]:
    """Sentences, and the pieces ACORD joins with ``<omitted>`` (a draft has no such marker)."""
    pieces = [p for part in text.split("<omitted>") for p in _SENTENCE.split(part.strip())]
    return [p.strip() for p in pieces if p.strip()]


def _restructure(text: str, need: str, rng: random.Random) -> tuple[str, list[str]]:
    """Drop the sentence least about the need (3+ sentences), reorder or merge the rest."""
    parts, ops = sentences(text), []
    need_words = set(words(need))
    if len(parts) >= 3:
        overlap = [len(set(words(s)) & need_words) / (1 + len(words(s))) for s in parts]
        drop = min(range(1, len(parts)), key=lambda i: (overlap[i], i))  # the first stays
        parts = parts[:drop] + parts[drop + 1:]
        ops.append("dropped")
    if len(parts) >= 3 and rng.random() < 0.5:
        i = rng.randrange(1, len(parts) - 1)
        parts[i], parts[i + 1] = parts[i + 1], parts[i]
        ops.append("reordered")
    elif len(parts) >= 2:
        i = rng.randrange(len(parts) - 1)
        following = parts[i + 1]
        if not following[:2].isupper():  # "The ..." -> "the ...", but "NEITHER" stays
            following = following[:1].lower() + following[1:]
        merged = parts[i].rstrip(".;: ") + "; and " + following
        parts[i:i + 2] = [merged]
        ops.append("merged")
    return " ".join(parts), ops


def transform(clause_id: str, text: str, need: str, lower_words: Set[str]) -> tuple[str, list[str]]:
    """A lawyer's draft made from a library clause; the operations applied, in order."""
    rng = random.Random(clause_id)
    body, ops = _restructure(text, need, rng)
    body = _renumber(_rename(body, rng, lower_words), rng)
    ops = ["renamed", "renumbered", *ops]
    note = rng.choice(_NOTES)
    body = f"{note} {body}" if rng.random() < 0.3 else f"{body} {note}"
    return " ".join(body.split()), [*ops, "note"]


def make_synthetic(data_dir: Path) -> list[dict]:
    """One draft per 5-star clause of each train/valid query (the clause-as-query sources)."""
    from index_builder.evaluate.acord import load_acord

    acord = load_acord(data_dir)
    corpus = {c["_id"]: c["text"] for c in acord_corpus(data_dir)}
    lower_words = {w for text in corpus.values() for w in re.findall(r"\b[a-z]+\b", text)}
    rows = []
    for split in SPLITS:
        for query in acord.split_queries(split):
            for clause_id, grade in sorted(acord.qrels[split][query.query_id].items()):
                if grade == 4:
                    need = query.wordings.get("long", query.query_id)
                    text, ops = transform(clause_id, corpus[clause_id], need, lower_words)
                    rows.append({"id": f"synth-{clause_id}", "parent": query.query_id,
                                 "split": split, "category": query.category,
                                 "source": clause_id, "ops": ops, "text": text})
    return rows


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = subparser(sub, __name__)
    parser.add_argument("step", choices=("make", "check"))
    parser.add_argument("--data", type=Path, default=ACORD)


def run(args: argparse.Namespace) -> int:
    corpus = [row["text"] for row in acord_corpus(args.data)]
    if args.step == "make":
        rows = make_synthetic(args.data)
        SYNTHETIC.write_text("".join(json.dumps(r) + "\n" for r in rows))
        print(f"wrote {len(rows)} synthetic drafts to {SYNTHETIC}")
        return 0
    fresh = jsonl(FRESH)
    bad = shared_runs({r["id"]: r["text"] for r in fresh}, corpus)
    for key, hits in bad.items():
        print(f"{key}: shares {len(hits)} run(s) of {RUN} words, e.g. {hits[0]!r}")
    print(f"{len(fresh)} fresh drafts, {len(bad)} share a run of {RUN} words with the corpus")
    return 1 if bad else 0
