"""Draw the precedent -> document pairs of the conform set at random (fixed seed).

Run from the repository root:

    source /work/main/.venv/bin/activate
    PYTHONPATH=$PWD HF_HUB_OFFLINE=1 python benchmarks/sets/conform/sample.py \
        --contracts ../shared/data/contracts

It prints one line per pair: pair number, stratum (family), P, clause id, D, and whether D
defines parties or terms in a cover-page table. Labels are written by hand afterwards, by
reading P, C and D; nothing here labels anything.

Sampling design (the README says why):
- Agreements are grouped into families by file name (FAMILIES). Lists, checklists and
  instructions are not agreements and are left out.
- P is drawn uniformly among the stratum's agreements (files). D is drawn by form: state
  variants of one form (51 restrictive covenants, 8 offer letters, 2 CIIAAs) are one "form";
  a form is drawn uniformly, then one of its variants (never P itself), so that the 51
  near-identical restrictive covenants do not make nearly every target another state's copy.
- A clause C of P is eligible when it is at most 1,500 characters, is not template markup
  (drafting notes, {IF ...} blocks), keeps at least 12 words once placeholders are removed,
  and mentions at least one party or capitalised defined term of P (VOCABULARY).
- Strata: "nda" (12 pairs: an NDA on one side and Discloser/Recipient on one side), then
  per-family quotas QUOTAS, then "number" (4 pairs, P drawn among all agreements, D in P's
  family): C uses a term of D in the other grammatical number (D defines "User", C says
  "Users", or the reverse), which random draws alone did not produce; then "parties"
  (8 pairs, P among all agreements, D in P's family): C names a party of P that D does not
  use while D names parties of its own, so that the set holds enough party mappings (the
  random draws above were dominated by sister forms sharing every name); then
  "parties-standalone" (8 pairs, the same rule but the party name must stand alone, not as
  a word of a longer capitalised term such as "Covered Customer": the first party stratum's
  test let two such draws through, which carry no party mapping). Every C is distinct (by
  text: state variants share clauses).
"""
from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

import docx

from index_builder.ingest import read_clauses

SEED = 3838
NDA_PAIRS = 12
NUMBER_PAIRS = 4
PARTY_PAIRS = 8
STANDALONE_PARTY_PAIRS = 8
QUOTAS = {"commercial": 14, "employment": 12, "corporate": 10}
MAX_CHARS = 1500
MIN_WORDS = 12

# Lists, checklists, instructions and the Colorado statutory notice accompany agreements but
# are not agreements a lawyer would conform a clause into (or take one from).
NOT_AGREEMENTS = ("checklist", "request-list", "working-group-list", "cap-table-update-instructions",
                  "restrictive-covenant-notice")

# Party names that occur in the corpus; a word counts as P's party only where P uses it
# capitalised. Used to decide eligibility, never as a label.
PARTY_WORDS = (
    "Provider", "Customer", "Discloser", "Recipient", "Company", "Contractor", "Employer",
    "Employee", "Worker", "Founder", "Assignor", "Licensor", "Licensee", "Partner",
    "Business Associate", "Covered Entity", "Board", "Stockholder", "Investor", "Director",
)
GENERIC_LABELS = {
    "Signature", "Print Name", "Title", "Date", "Notice Address", "Name", "By",
    "Signatory Name", "Key Terms", "Cover Page", "Signatures", "Email Address",
    "Legal Notice Address", "Contact Address", "Additional Terms",
}


def family_of(name: str) -> str | None:
    """The family of an agreement from its file name (None: not an agreement)."""
    if any(word in name for word in NOT_AGREEMENTS):
        return None
    if name.endswith("-nda"):
        return "nda"
    if name.startswith(("common-paper-", "bonterms-")):
        return "commercial"
    if any(word in name for word in (
            "restrictive-covenant", "employment-offer-letter",
            "confidentiality-invention-assignment", "founder-ip-confidentiality")):
        return "employment"
    if name.startswith("openagreements-"):
        return "corporate"
    return None


FAMILIES = ("nda", "commercial", "employment", "corporate")


def form_of(name: str) -> str:
    """State variants of one form share a form key."""
    for stem in ("openagreements-restrictive-covenant", "openagreements-employment-offer-letter",
                 "openagreements-confidentiality-invention-assignment-agreement"):
        if name == stem or name.startswith(stem + "-"):
            return stem
    return name


def table_rows(path: Path) -> list[list[str]]:
    """Every table row of a .docx as cell texts (nested tables not needed here)."""
    rows = []
    for table in docx.Document(str(path)).tables:
        for row in table.rows:
            rows.append([cell.text.strip() for cell in row.cells])
    return rows


def clean_label(label: str) -> str:
    label = re.sub(r"\{[^}]*\}", "", label.split("\n")[0])
    return label.strip(" :").strip()


def vocabulary(path: Path, body: str) -> tuple[set[str], bool]:
    """P's parties and capitalised defined terms (for eligibility), and whether the document
    has a cover-page table: at least two labelled rows other than signature blocks (printed
    only as a hint; the labels say which documents define terms there)."""
    terms = set(re.findall(r"[“\"]([A-Z][A-Za-z0-9 &'’-]{1,40})[”\"]", body))
    cover = set()
    for row in table_rows(path):
        if len(row) >= 2 and row[0] and row[0] != row[-1]:
            label = clean_label(row[0])
            if (label and label[0].isupper() and len(label) <= 40 and label not in GENERIC_LABELS
                    and not label.startswith("[")):
                cover.add(label)
    terms |= cover
    has_cover = len(cover) >= 2
    parties = {w for w in PARTY_WORDS if re.search(r"\b%s\b" % re.escape(w), body)}
    return terms | parties, has_cover


def words_left(text: str) -> int:
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    return len(re.findall(r"[A-Za-z]{2,}", text))


def eligible(text: str, vocab: set[str]) -> bool:
    if len(text) > MAX_CHARS or "<!--" in text or "{IF" in text or "{END-IF}" in text:
        return False
    if "Drafting note" in text or words_left(text) < MIN_WORDS:
        return False
    return any(re.search(r"\b%s\b" % re.escape(t), text) for t in vocab)


def load(contracts: Path) -> dict[str, dict]:
    docs = {}
    for path in sorted(contracts.rglob("*.docx")):
        name = path.stem
        family = family_of(name)
        if family is None:
            continue
        clauses = read_clauses(path, name, str(path), keep_template_text=True)  # as drawn (before session 7)
        body = "\n".join(c.text for c in clauses) + "\n" + "\n".join(
            " | ".join(r) for r in table_rows(path))
        vocab, has_cover = vocabulary(path, body)
        defined = set(re.findall(r"[“\"]([A-Z][A-Za-z0-9 &'’-]{1,40})[”\"]", body)) | {
            clean_label(r[0]) for r in table_rows(path) if len(r) >= 2 and r[0] and r[0] != r[-1]}
        docs[name] = {
            "rel": str(path.relative_to(contracts)), "family": family, "form": form_of(name),
            "cover": has_cover, "defined": {t for t in defined if t and t[0].isupper()} - GENERIC_LABELS,
            "clauses": [c for c in clauses if eligible(c.text, vocab)],
            "parties": {w for w in PARTY_WORDS if re.search(r"\b%s\b" % re.escape(w), body)},
            "discloser": bool(re.search(r"“Discloser”|\bDiscloser\b", body)),
        }
    return docs


def pick_doc(rng: random.Random, names: list[str], docs: dict, exclude: str | None = None) -> str:
    """A form uniformly, then one of its variants (never `exclude`)."""
    names = [n for n in names if n != exclude]
    forms = sorted({docs[n]["form"] for n in names})
    form = rng.choice(forms)
    return rng.choice(sorted(n for n in names if docs[n]["form"] == form))


def draw(docs: dict, seed: int = SEED) -> list[dict]:
    rng = random.Random(seed)
    fam = {f: sorted(n for n, d in docs.items() if d["family"] == f and d["clauses"]) for f in FAMILIES}
    targets = {f: sorted(n for n, d in docs.items() if d["family"] == f) for f in FAMILIES}
    dr_commercial = sorted(n for n in targets["commercial"] if docs[n]["discloser"])
    one_way = [n for n in targets["nda"] if docs[n]["discloser"]]
    pairs, seen = [], set()

    def take(stratum: str, p: str, d: str, must_mention_dr: bool = False) -> bool:
        pool = [c for c in docs[p]["clauses"] if c.text not in seen]
        if must_mention_dr:
            pool = [c for c in pool if re.search(r"\b(Discloser|Recipient)", c.text)]
        if not pool:
            return False
        clause = rng.choice(pool)
        seen.add(clause.text)
        pairs.append({"stratum": stratum, "p": p, "clause": clause, "d": d})
        return True

    # NDA stratum: three directions in turn, each drawn at random.
    direction = 0
    while sum(1 for x in pairs if x["stratum"] == "nda") < NDA_PAIRS:
        kind = direction % 3
        direction += 1
        if kind == 0:  # NDA clause into another NDA, the one-way (Discloser/Recipient) on a side
            p = rng.choice(fam["nda"])
            d = rng.choice([n for n in targets["nda"] if n != p])
            if p not in one_way and d not in one_way:
                direction -= 1
                continue
            take("nda", p, d)
        elif kind == 1:  # commercial confidentiality clause (Discloser/Recipient) into an NDA
            p = rng.choice([n for n in dr_commercial if n in fam["commercial"]])
            take("nda", p, rng.choice(targets["nda"]), must_mention_dr=True)
        else:  # the one-way NDA's clause into a commercial agreement's confidentiality terms
            p = rng.choice(one_way)
            take("nda", p, pick_doc(rng, dr_commercial, docs), must_mention_dr=True)

    for family, quota in QUOTAS.items():
        while sum(1 for x in pairs if x["stratum"] == family) < quota:
            p = rng.choice(fam[family])
            d = pick_doc(rng, targets[family], docs, exclude=p)
            take(family, p, d)
    # Number stratum: C says a term of D in the other number (plural <-> singular).
    def other_number(text: str, defined: set[str]) -> bool:
        for term in defined:
            if len(term) < 4:
                continue
            other = term[:-1] if term.endswith("s") else term + "s"
            if (re.search(r"\b%s\b" % re.escape(other), text)
                    and not re.search(r"\b%s\b" % re.escape(term), text)):
                return True
        return False

    while sum(1 for x in pairs if x["stratum"] == "number") < NUMBER_PAIRS:
        p = rng.choice(sorted(n for n, d in docs.items() if d["clauses"]))
        family = docs[p]["family"]
        d = pick_doc(rng, targets[family], docs, exclude=p)
        pool = [c for c in docs[p]["clauses"]
                if c.text not in seen and other_number(c.text, docs[d]["defined"])]
        if pool:
            clause = rng.choice(pool)
            seen.add(clause.text)
            pairs.append({"stratum": "number", "p": p, "clause": clause, "d": d})

    # Party stratum: C names a party of P that D does not use, and D has parties of its own.
    while sum(1 for x in pairs if x["stratum"] == "parties") < PARTY_PAIRS:
        p = rng.choice(sorted(n for n, d in docs.items() if d["clauses"]))
        d = pick_doc(rng, targets[docs[p]["family"]], docs, exclude=p)
        missing = docs[p]["parties"] - docs[d]["parties"]
        if not docs[d]["parties"] or not missing:
            continue
        pool = [c for c in docs[p]["clauses"] if c.text not in seen
                and any(re.search(r"\b%s\b" % re.escape(w), c.text) for w in missing)]
        if pool:
            clause = rng.choice(pool)
            seen.add(clause.text)
            pairs.append({"stratum": "parties", "p": p, "clause": clause, "d": d})

    def standalone(word: str, text: str) -> bool:
        cap = r"[A-Z][A-Za-z-]*"
        for m in re.finditer(r"\b%s\b" % re.escape(word), text):
            before, after = text[:m.start()], text[m.end():]
            if re.search(cap + r" $", before) or re.match(r"(?:’s|'s)? " + cap, after):
                continue
            if re.match(r":", after):  # a signature-block field label ("Company:")
                continue
            return True
        return False

    while sum(1 for x in pairs if x["stratum"] == "parties-standalone") < STANDALONE_PARTY_PAIRS:
        p = rng.choice(sorted(n for n, d in docs.items() if d["clauses"]))
        d = pick_doc(rng, targets[docs[p]["family"]], docs, exclude=p)
        missing = docs[p]["parties"] - docs[d]["parties"]
        if not docs[d]["parties"] or not missing:
            continue
        pool = [c for c in docs[p]["clauses"] if c.text not in seen
                and any(standalone(w, c.text) for w in missing)]
        if pool:
            clause = rng.choice(pool)
            seen.add(clause.text)
            pairs.append({"stratum": "parties-standalone", "p": p, "clause": clause, "d": d})
    return pairs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contracts", type=Path, default=Path("../shared/data/contracts"))
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    docs = load(args.contracts)
    if not docs:
        raise SystemExit(f"no agreements found under {args.contracts}; pass --contracts DIR")
    for i, pair in enumerate(draw(docs, args.seed), 1):
        p, d, clause = docs[pair["p"]], docs[pair["d"]], pair["clause"]
        local_id = clause.clause_id.split("#", 1)[1]
        print(f"{i:02d}\t{pair['stratum']}\t{p['family']}\t{p['rel']}\t#{local_id}\t{d['rel']}\t"
              f"cover={'yes' if d['cover'] else 'no'}\t{len(clause.text)}ch")


def split(pairs: list[tuple[str, str]], seed: int = SEED) -> dict[str, str]:
    """Tuning/held-out split: shuffle the (pair_id, family) list with the seed, then alternate
    within each family, first tuning, second held-out."""
    order = sorted(pairs)
    random.Random(seed).shuffle(order)
    seen: dict[str, int] = {}
    out = {}
    for pair_id, family in order:
        k = seen.get(family, 0)
        seen[family] = k + 1
        out[pair_id] = "tuning" if k % 2 == 0 else "held-out"
    return out


if __name__ == "__main__":
    main()
