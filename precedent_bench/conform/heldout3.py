"""Third held-out set: the right mapping known by construction (issue 23).

    python -m precedent_bench.conform.heldout3 > benchmarks/conform/labels_heldout3.json
    python -m precedent_bench.conform.heldout3 --set tuning-3 > benchmarks/conform/labels_tuning3.json

A lawyer's deal is made from a real agreement (../shared/data/contracts): its parties and
several defined terms are renamed consistently everywhere (Provider -> Supplier,
"Confidential Information" -> "Protected Information", ...), a new section 1
("Interpretation") is put first so every other section moves up by one, and some headings
are retitled ("Limitation of Liability" -> "Limits on Liability"). Precedent clauses come
from *another* agreement of the same family, unrenamed. The labels then follow from the
construction, not from judgement and not from what conform does:

- a precedent term the original target defines (quoted definition, or a party word it uses)
  must become rename(term): "Customer Content" -> "Client Content"; a term the renames leave
  alone must be kept;
- a precedent term the original target only uses (cover-page variables) may be kept/renamed
  or listed as undefined;
- a defined term or party of the precedent's document that the target never mentions must be
  listed as undefined (rename(term) is accepted too: consistent naming, still undefined);
- any other capitalised word or phrase of the clause may be kept (or listed), never changed;
- "Section N" in the precedent: the target's section with the same heading as the
  precedent's section N, at its new number (N moved up by one, whatever its new title);
  no such heading in the original target -> flag it.

The renames are fixed per family below as a lawyer would write them, before conform was ever
run on this set. The target document itself is rebuilt at run time (target_paragraphs), so
no agreement text is stored here beyond the precedent clauses, as in candidates.json.
"""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache

from precedent_bench.conform.make_candidates import _PHRASE, _REF, CP, DATA, OA, candidates, clauses_of
from precedent_bench.conform.paragraphs import docx_paragraphs
from index_builder.reading.defined_terms import defined_terms

# (id, precedent source, target, family, renames). Same family, different agreement.
_CP_SUPPLIER = {"Provider": "Supplier", "Customer": "Client", "Confidential Information": "Protected Information",
                "Effective Date": "Commencement Date", "Discloser": "Disclosing Party", "Recipient": "Receiving Party",
                "Order Form": "Service Order", "Usage Data": "Service Data"}
_CP_VENDOR = {"Provider": "Vendor", "Customer": "Subscriber", "Confidential Information": "Proprietary Information",
              "Effective Date": "Start Date", "Documentation": "Product Manuals", "Fees": "Subscription Charges",
              "Subscription Period": "Service Term"}
_CP_CONSULTANT = {"Provider": "Consultant", "Customer": "Client", "Confidential Information": "Protected Information",
                  "Effective Date": "Commencement Date", "Deliverables": "Work Results", "Change Order": "Variation Order",
                  "SOW": "Work Order", "Subcontractors": "Subconsultants"}
_OA_FIRM = {"Employer": "Firm", "Employee": "Executive", "Confidential Information": "Protected Information",
            "Effective Date": "Commencement Date", "Restricted Period": "Restraint Period",
            "Competitive Business": "Competing Business", "Covered Customers": "Relevant Customers"}
_OA_WORKER = {"Employer": "Employing Company", "Employee": "Worker", "Confidential Information": "Confidential Material",
              "Effective Date": "Agreement Date", "Trade Secrets": "Proprietary Secrets", "Solicit": "Approach"}
_OA_OFFER = {"Employee": "Executive", "Company": "Employer", "Start Date": "Commencement Date",
             "Base Salary": "Annual Salary", "Position Title": "Role", "Reporting Manager": "Line Manager",
             "Primary Work Location": "Principal Place of Work"}
DOC_PAIRS = [
    ("P", f"{CP}/common-paper-csa-without-sla.docx", f"{CP}/common-paper-csa-with-sla.docx", "Common Paper cloud service", _CP_SUPPLIER),
    ("Q", f"{CP}/common-paper-csa-with-sla.docx", f"{CP}/common-paper-csa-with-ai.docx", "Common Paper cloud service", _CP_VENDOR),
    ("R", f"{CP}/common-paper-csa-with-ai.docx", f"{CP}/common-paper-professional-services-agreement.docx", "Common Paper standard terms (services)", _CP_CONSULTANT),
    ("S", f"{OA}/openagreements-restrictive-covenant-new-york.docx", f"{OA}/openagreements-restrictive-covenant-texas.docx", "OpenAgreements restrictive covenant", _OA_FIRM),
    ("T", f"{OA}/openagreements-restrictive-covenant-illinois.docx", f"{OA}/openagreements-restrictive-covenant-florida.docx", "OpenAgreements restrictive covenant", _OA_WORKER),
    ("U", f"{OA}/openagreements-employment-offer-letter-new-york.docx", f"{OA}/openagreements-employment-offer-letter-texas.docx", "OpenAgreements employment offer letter", _OA_OFFER),
]
# A tuning set made the same way from other agreements (no document of DOC_PAIRS), with other
# renames: conform may be improved on it (and on the first tuning half), never on DOC_PAIRS.
TUNING_PAIRS = [
    ("V", f"{CP}/common-paper-pilot-agreement.docx", f"{CP}/common-paper-cloud-service-agreement.docx", "Common Paper cloud service",
     {"Provider": "Seller", "Customer": "Buyer", "Confidential Information": "Secret Information",
      "Effective Date": "Start Date", "Order Form": "Purchase Order", "Discloser": "Disclosing Party"}),
    ("W", f"{OA}/openagreements-restrictive-covenant-alabama.docx", f"{OA}/openagreements-restrictive-covenant-arizona.docx",
     "OpenAgreements restrictive covenant",
     {"Employer": "Organisation", "Employee": "Staff Member", "Confidential Information": "Proprietary Information",
      "Restricted Period": "Non-Compete Period", "Trade Secrets": "Trade Secret Information"}),
    ("X", f"{OA}/openagreements-employment-offer-letter-california.docx", f"{OA}/openagreements-employment-offer-letter-florida.docx",
     "OpenAgreements employment offer letter",
     {"Employee": "Hire", "Company": "Business", "Start Date": "First Day", "Base Salary": "Salary"}),
    ("Y", f"{OA}/openagreements-confidentiality-invention-assignment-agreement.docx",
     f"{OA}/openagreements-confidentiality-invention-assignment-agreement-nevada.docx", "OpenAgreements invention assignment",
     {"Company": "Corporation", "Employee": "Team Member", "Confidential Information": "Restricted Information",
      "Covered Inventions": "Assigned Inventions"}),
]
SETS = {"held-out-3": DOC_PAIRS, "tuning-3": TUNING_PAIRS}
BY_ID = {p[0]: p for p in DOC_PAIRS + TUNING_PAIRS}
# Headings a lawyer retitles (wherever the target has them), independent of the precedent.
RETITLE = {"Term & Termination": "Duration and Termination", "Limitation of Liability": "Limits on Liability",
           "Indemnification": "Indemnities", "Confidentiality": "Confidentiality Obligations",
           "Exceptions": "Excluded Matters", "Survival": "Continuing Provisions", "Remedies": "Relief",
           "Non-Competition": "Restraint on Competition", "Severability": "Invalid Provisions",
           "Assignment": "Transfer", "Governing Law": "Applicable Law", "Payment & Taxes": "Charges and Taxes"}
PARTY_WORDS = ("Provider", "Customer", "Company", "Contractor", "Employee", "Employer", "Partner", "Discloser", "Recipient")
_NUMBER = re.compile(r"^(\d+)((?:\.\d+)*)(\.?)$")
_NUM = r"\d{1,3}(?:\.\d{1,3})*(?:\([a-z0-9]{1,4}\))*"
_CAPS = re.compile(r"\b[A-Z][\w\-]*(?:\s+(?:of\s+|and\s+)?[A-Z][\w\-]*)*")


def _rename_pattern(renames: dict[str, str]) -> re.Pattern:
    keys = sorted(renames, key=len, reverse=True)  # longest first; one pass, so no chained renames
    return re.compile(r"(?<![\w-])(" + "|".join(re.escape(k) for k in keys) + r")(?=(?:e?s)?(?:[’']s?)?(?![\w-]))")


def rename(text: str, renames: dict[str, str]) -> str:
    """Every capitalised mention renamed (plural/possessive endings kept); ALL-CAPS labels too."""
    text = _rename_pattern(renames).sub(lambda m: renames[m.group(1)], text)
    upper = {k.upper(): v.upper() for k, v in renames.items()}
    return _rename_pattern(upper).sub(lambda m: upper[m.group(1)], text)


def _shift(number: str) -> str:
    m = _NUMBER.match(number)
    return f"{int(m.group(1)) + 1}{m.group(2)}{m.group(3)}" if m else number


def _shift_refs(text: str) -> str:
    """The target's own "Section 8.4" moves with its section (a list after "Sections" too)."""
    def one(m: re.Match) -> str:
        return re.sub(r"(?<![\d.])(\d+)(?=(?:\.\d+)*)", lambda n: str(int(n.group(1)) + 1), m.group(0))
    return re.sub(r"\bSections?\s+\d+(?:\.\d+)*(?:\([a-z0-9]+\))*(?:(?:,\s*|\s+(?:and|or)\s+)\d+(?:\.\d+)*(?:\([a-z0-9]+\))*)*",
                  one, text)


def _retitle(text: str, top_level: bool) -> str:
    for old, new in RETITLE.items():
        if top_level and text.strip() == old:
            return new
        if text.startswith(old + ". ") or text.strip() == old + ".":
            return new + text[len(old):]
    return text


def target_paragraphs(pair_id: str) -> list[dict]:
    """The lawyer's version of the target, as readParagraphs() would return it from Word."""
    _, _, target, _, renames = BY_ID[pair_id]
    out: list[dict] = []
    for p in docx_paragraphs(DATA / target):
        p = dict(p)
        label = p["listString"]
        if label.rstrip(".") == "1" and not any(q["listString"] == "1." for q in out):
            # A new first section, as a lawyer's own form has: every later number moves up by one.
            out.append({**p, "text": "Interpretation", "listString": "1."})
            out.append({**p, "text": "Headings. Headings are for convenience only and do not affect interpretation.",
                        "listString": "1.1", "style": p["style"].replace("Heading 1", "Heading 2")})
        if _NUMBER.match(label):
            p["listString"] = _shift(label)
        p["text"] = _retitle(rename(_shift_refs(p["text"]), renames), top_level=bool(re.fullmatch(r"\d+\.?", label)))
        out.append(p)
    for n, p in enumerate(out):
        p["index"] = n
    return out


def _key(heading: str) -> str:
    return re.sub(r"\W+", " ", heading.replace("&", "and")).strip().lower()


@lru_cache(maxsize=None)
def _target_facts(pair_id: str) -> tuple[frozenset, str, dict]:
    """Of the ORIGINAL target: terms it defines (or party words it uses), its text, heading -> numbers."""
    _, _, target, _, _ = BY_ID[pair_id]
    clauses = clauses_of(target)
    text = "\n".join(c.text for c in clauses)
    defined = {t for c in clauses for line in c.text.splitlines() for t in defined_terms(line)}
    defined |= {w for w in PARTY_WORDS if len(re.findall(r"\b" + w + r"\b", text)) >= 3}
    headings: dict[str, list[str]] = {}
    for number, heading in section_headings(target).items():
        headings.setdefault(_key(heading), []).append(number)
    return frozenset(defined), text, headings


@lru_cache(maxsize=None)
def section_headings(path: str) -> dict[str, str]:
    """Number -> heading from the numbered paragraphs: "8." Limitation of Liability, "8.4" Exceptions. ..."""
    out = {}
    for p in docx_paragraphs(DATA / path):
        m = _NUMBER.match(p["listString"])
        if not m or p["inTable"]:
            continue
        number = m.group(1) + m.group(2)
        text = p["text"].strip()
        if "." not in number:
            heading = text if len(text) < 100 else ""
        else:
            head, dot, _ = text.partition(". ")
            heading = head.rstrip(".") if (dot or text.endswith(".")) and len(head) < 80 and "“" not in head and '"' not in head else ""
        if heading:
            out.setdefault(number, heading)
    return out


def _mentions(term: str, text: str) -> bool:
    return bool(re.search(r"(?<![\w“\"-])" + re.escape(term) + r"(?:e?s)?(?:[’']s?)?(?![\w-])", text))


def gold_term(pair_id: str, term: str, source_terms: set[str]) -> list:
    renames = BY_ID[pair_id][4]
    defined, text, _ = _target_facts(pair_id)
    new = rename(term, renames)
    if term in defined:
        return [new]
    if _mentions(term, text):
        return [new, None] if new != term else [term, None]
    if term in source_terms:
        return [None, new] if new != term else [None]
    return [term, None] if new == term else [term, None, new]


def gold_section(pair_id: str, number: str, source_heading: str):
    """The target's section with the precedent section's heading, at its new number; None = flag."""
    _, _, headings = _target_facts(pair_id)
    if not source_heading:
        return "unlabelled"
    base, _, rest = number.partition("(")
    found = headings.get(_key(source_heading), [])
    same_level = [n for n in found if n.count(".") == base.count(".")]
    if not same_level:
        return None
    suffix = "(" + rest if rest else ""
    answers = [_shift(n) + suffix for n in same_level]
    return answers if len(answers) > 1 else answers[0]


def _with_references(pid: str, source: str, target: str, taken: set[str], most: int = 2) -> list[dict]:
    """Up to two more clauses that cite a section (every k-th such clause), so references are tested."""
    citing = [c for c in clauses_of(source) if c.section and c.section not in taken and len(c.text) < 2000
              and _REF.search(c.text)]
    step = max(1, len(citing) // most)
    rows = []
    for n, c in enumerate(citing[::step][:most]):
        rows.append({"id": f"{pid}r{n + 1}", "doc_pair": pid, "split": rows_split(pid), "source": source, "target": target,
                     "section": c.section, "heading": c.heading, "text": c.text, "terms": [],
                     "phrases": sorted(set(_PHRASE.findall(c.text))),
                     "references": [{"number": r, "source_heading": ""} for r in _REF.findall(c.text)]})
    return rows


_REFS = re.compile(r"\bSections?\s+" + _NUM + r"(?:\s*\([^()]{2,80}\))?(?:\s*(?:,\s*(?:and|or)?|and|or)\s*"
                   + _NUM + r"(?:\s*\([^()]{2,80}\))?)*")


def _references(text: str, source: str) -> list[dict]:
    """Every number a "Section(s) ..." cites, lists too ("Sections 8.1 (...) and 8.2 (...)")."""
    heads = section_headings(source)
    numbers = []
    for m in _REFS.finditer(text):
        # Drop written headings "(Liability Caps)", keep sub-clause letters "(a)".
        cited = re.sub(r"\([^()]{2,80}\)", lambda h: h.group(0) if re.fullmatch(r"\([a-z0-9]{1,4}\)", h.group(0)) else "",
                       m.group(0))
        numbers.extend(re.findall(_NUM, cited))
    return [{"number": n, "source_heading": heads.get(n.split("(")[0], "")} for n in dict.fromkeys(numbers)]


def build(split: str = "held-out-3") -> dict:
    pairs, tables = [], {}
    for pid, source, target, family, renames in SETS[split]:
        rows = candidates((pid, source, target, split))
        rows += _with_references(pid, source, target, {r["section"] for r in rows})
        for row in rows:
            row["references"] = _references(row["text"], source)
        source_terms = {t for c in clauses_of(source) for line in c.text.splitlines() for t in defined_terms(line)}
        source_terms |= {w for w in PARTY_WORDS if any(_mentions(w, r["text"]) for r in rows)}
        terms: dict[str, list] = {}
        sections: dict[str, object] = {}
        for row in rows:
            words = set(row["terms"]) | set(row["phrases"]) | {w for w in PARTY_WORDS if _mentions(w, row["text"])}
            words |= {m for m in _CAPS.findall(row["text"]) if not m.isupper() or len(m) > 1}
            words |= {t for t in source_terms | set(renames) if _mentions(t, row["text"])}
            for w in sorted(words):
                terms[w] = gold_term(pid, w, source_terms)
            for ref in row["references"]:
                sections[ref["number"]] = gold_section(pid, ref["number"], ref["source_heading"])
        pairs.extend(rows)
        tables[pid] = {"family": family, "source": source, "target": target, "renames": renames,
                       "retitled": RETITLE, "terms": terms, "sections": sections}
    return {"method": __doc__.split("\n\n", 2)[2], "doc_pairs": tables, "pairs": pairs}


def rows_split(pid: str) -> str:
    return next(name for name, pairs in SETS.items() if any(p[0] == pid for p in pairs))


def main(argv: list[str] | None = None) -> int:
    args = argv if argv is not None else sys.argv[1:]
    split = args[1] if args[:1] == ["--set"] and len(args) > 1 else "held-out-3"
    json.dump(build(split), sys.stdout, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
