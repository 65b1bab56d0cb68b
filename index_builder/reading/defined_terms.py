"""Defined terms: what a text defines, and where and in what form it uses a term.

* Definitions: “X” means ..., “A” or “B” means ..., (the “X”), a quoted term in bold, and a
  cover page's key-terms table (label cell, meaning in the next cell).
* Mentions: a term's uses in its own capitals or all capitals, singular or plural,
  possessive ("Provider’s", "Providers’"), never a lower-case word ("provider") and never
  the first or last words of a longer capitalised term ("Company Materials", "COMPANY
  MATERIALS", "Covered Customer"), so mapping one term cannot rewrite another.
* Capitalised terms used without a definition ("Increased Claims", "MNDA Term"), with names
  of laws, bodies, places, months and the document's own parts left out.
Plain regular expressions: a contract's definitions are written in a few fixed ways.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from index_builder.reading.dates import MONTHS
from index_builder.reading.jurisdictions import PLACES, US_STATES
from index_builder.reading.numbers import SCALES, SMALL

# -- definitions -----------------------------------------------------------------------------

_QUOTED = re.compile(r"[“\"]([^“”\"\n]{1,80})[”\"]")
_MEANS = re.compile(
    r"\s*[)’']?\s*,?\s*(?:means|mean|shall mean|will mean|refers to|shall refer to|"
    r"(?:shall |will )?(?:has|have) the meanings?|is defined|are defined)\b",
    re.IGNORECASE,
)
_CHAIN = re.compile(r"\s*,?\s*(?:or|and)?\s*")
_PARENTHETICAL = re.compile(r"\(([^()]{1,160})\)")
# Words allowed around the quotes in a defining parenthetical: (each, a “Party” and
# together, the “Parties”), (hereinafter referred to as the “Company”).
_CONNECTORS = frozenset(
    "the a an each collectively together individually jointly hereinafter herein referred "
    "to as and or this such also any all".split()
)
_MAX_WORDS = 8
# A line that gives a term its meaning ("“Fees” means ..."), not one that names it in passing.
MEANS_LINE = re.compile(r"[”\"]\s*[)’']?\s*,?\s*(?:means|shall mean|will mean|has the meaning|have the meaning|refers to)\b", re.I)


def quoted_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each quoted phrase, quotes included ("“Fees”", a term being defined)."""
    return [m.span() for m in _QUOTED.finditer(text)]


def quoted_terms(text: str) -> list[str]:
    """Every plausible term in double quotes (short, starting with a letter or digit)."""
    return [term for match in _QUOTED.finditer(text) if (term := _clean(match.group(1)))]


def defined_terms(text: str, bold_terms: Iterable[str] = ()) -> list[str]:
    """Terms the text defines: “X” means ..., (the “X”), or a quoted term set in bold."""
    found = list(bold_terms) + _means_terms(text)
    for match in _PARENTHETICAL.finditer(text):
        inside = match.group(1)
        terms = quoted_terms(inside)
        if terms and _only_connectors(_QUOTED.sub(" ", inside)):
            found.extend(terms)
    return _unique(found)


def means_definition(line: str) -> bool:
    """True for a line that defines a term with "means" (“X” means ...), not in passing."""
    return bool(MEANS_LINE.search(line)) and bool(defined_terms(line))


def meaning(text: str) -> str:
    """The words that give a definition its meaning: what follows “X” means / shall mean /
    refers to / has the meaning ("“Services” means the services in the SOW" -> "the services
    in the SOW"); "" when the text defines nothing that way (a table row, "by means of")."""
    for match in _QUOTED.finditer(text):
        verb = _MEANS.match(text, match.end())
        if verb:
            return text[verb.end():].strip()
    return ""


def _means_terms(text: str) -> list[str]:
    """Terms before "means": “Processing” or “Process” will have the meaning ..."""
    found: list[str] = []
    chain: list[str] = []
    matches = list(_QUOTED.finditer(text))
    for position, match in enumerate(matches):
        chain.append(match.group(1))
        following = matches[position + 1] if position + 1 < len(matches) else None
        if following and _CHAIN.fullmatch(text, match.end(), following.start()):
            continue  # “A” or “B” ... : the definition, if any, comes after the last one
        if _MEANS.match(text, match.end()):
            found.extend(term for term in map(_clean, chain) if term)
        chain = []
    return found


def _only_connectors(text: str) -> bool:
    words = re.findall(r"[A-Za-z]+", text)
    return len(words) <= 6 and all(word.lower() in _CONNECTORS for word in words)


def _clean(term: str) -> str:
    term = term.strip().strip(",;:.").strip()
    if not term or not term[0].isalnum() or len(term.split()) > _MAX_WORDS:
        return ""
    return term


def _unique(terms: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(terms))


# A cover page's key-terms table: a label cell ("Increased Claims", "MNDA Term") whose next
# cell holds its meaning. One-word labels count only as a party's row (see parties.py).
TABLE_LABEL = re.compile(r"^(?:[A-Z][\w\-/]*|of|and|for|&)(?:[ \t]+(?:[A-Z][\w\-/]*|of|and|for|&)){1,5}$")
_FIELD_LABELS = frozenset({"signature", "print name", "title", "date", "name", "by", "email", "address", "company",
                           "signatory name", "signatory title", "full name", "email address", "phone number",
                           "postal address", "legal name", "name and title", "title and date"})


def table_label(label: str, value: str) -> bool:
    """True when a table cell ``label`` followed by ``value`` defines a term (cover-page row)."""
    label = label.strip().rstrip(":")
    if not TABLE_LABEL.match(label) or label == label.upper() or re.search(r"[.{}\[\]]", label):
        return False
    if label.lower() in _FIELD_LABELS or not value.strip():
        return False
    return not TABLE_LABEL.match(value.strip())  # two labels in a row are a header, not a term


# -- forms and mentions ----------------------------------------------------------------------

_APOSTROPHES = "\u2019'"


@dataclass(frozen=True)
class Mention:
    start: int
    end: int
    surface: str
    plural: bool
    possessive: str  # "" | "’s" | "’" (as written, with its apostrophe)
    upper: bool


@lru_cache(maxsize=4096)
def _pattern(term: str) -> re.Pattern[str]:
    # The term as written or in capitals only (a lower-case "provider" is no mention): matching
    # case-sensitively keeps a long document's scan cheap.
    forms = "|".join(dict.fromkeys(re.escape(t) for t in (term, term.upper())))
    # (The character before is checked in mentions(): a pattern that starts with the term's
    # letters lets the engine skip ahead to them.)
    return re.compile(
        r"(?P<term>" + forms + r")(?P<plural>e?s|E?S)?"
        r"(?P<pos>[\u2019'][sS](?!\w)|[\u2019'](?=[\s,.;:)]))?(?![\w\-\u201d\"])")


# After an all-capitals mention, a word in capitals that is ordinary English ("THE COMPANY
# SHALL NOT") means a sentence in capitals; any other ("COMPANY MATERIALS") a longer term.
_PLAIN_WORDS = frozenset(
    "shall will may must is are was be has have had does not and or nor of to in on for by with as at from under "
    "any all its their the a an that which who if unless until upon when whether than then such this these "
    "those each either neither both no nothing agrees acknowledges represents warrants".split())
# Capitalised for another reason than being part of a term: they start sentences.
STARTERS = frozenset(
    "The This That These Those Each Every Any All No Neither Either If In On Upon For To By As At After Before "
    "During Unless Except Subject Notwithstanding Where When While Such Its Their A An Both Nothing Following "
    "Within Without Under With From Until Only Other Our Your We You It Including Provided Promptly Otherwise "
    "Further And Or But Nor Then However Also Between".split())
_CAP_WORD = re.compile(r"[A-Z][A-Za-z\-]*(?:[\u2019']s)?")


def mentions(text: str, term: str, standalone: bool = True) -> list[Mention]:
    """Uses of the defined term: its own capitals or all capitals, never a lower-case word.

    With ``standalone`` (the default) a mention that is the first or last word(s) of a longer
    capitalised term is not a use of this one: "Company" in "Company Materials", "COMPANY
    MATERIALS" or "Covered Company" is left alone.
    """
    found = []
    for m in _pattern(term).finditer(text):
        if m.start() and (text[m.start() - 1].isalnum() or text[m.start() - 1] in "_\u201c\"-"):
            continue  # inside a word, or the quoted term of a definition
        written = m.group("term")
        upper = written.isupper() and not term.isupper() and len(term) > 1
        if written != term and not upper:
            continue  # "provider" in lower case is an ordinary word, not the defined term
        plural = bool(m.group("plural")) and not term.endswith("s")
        if m.group("plural") and term.endswith("s"):
            continue  # "Servicess"? not a form
        if standalone and _in_longer_term(text, m.start(), m.end(), bool(m.group("pos")), written.isupper()):
            continue
        found.append(Mention(m.start(), m.end(), m.group(0), plural, m.group("pos") or "", upper))
    return found


def quoted_mentions(text: str, term: str) -> list[Mention]:
    """The term where the text defines it, inside its quotes: (the “Founder”), “NDA” means."""
    return [Mention(m.start(1), m.end(1), m.group(1), False, "", False)
            for m in re.finditer(r"[\u201c\"](" + re.escape(term) + r")[\u201d\"]", text)]


def _in_longer_term(text: str, start: int, end: int, possessive: bool, upper: bool) -> bool:
    after = re.match(r"[ \t]+([A-Z][\w\-]*)", text[end:])
    if after and not possessive:
        word = after.group(1)
        if not (upper and word.isupper() and word.lower() in _PLAIN_WORDS):
            if word[1:].islower() or word.isupper() or (len(word) > 1 and word[1].isupper()):
                return True  # "Company Materials", "COMPANY MATERIALS", "MNDA Term"
    before = re.search(r"([A-Za-z][\w\-]*)[ \t]+$", text[max(0, start - 40):start])
    if before:
        word = before.group(1)
        cut = start - len(before.group(0))
        prior = text[max(0, cut - 80):cut].rstrip() if cut > 0 else ""  # a window: documents are long
        sentence_start = not prior or prior[-1] in ".!?:;(\n\u2022" or bool(re.search(r"(?:^|\n)\s*[\d.()a-z]{1,8}$", prior))
        if word[0].isupper() and word not in STARTERS and not (sentence_start and word.istitle() and word in STARTERS):
            if not (upper and word.isupper() and word.lower() in _PLAIN_WORDS) and not _number_word(word):
                return True  # "Covered Customer", "Provider Covered Claim"
    return False


def _number_word(word: str) -> bool:
    return word in {"Section", "Sections", "Clause", "Clauses", "Article", "Exhibit", "Schedule", "Annex"}


def pluralise(term: str) -> str:
    words = term.split(" ")
    last = words[-1]
    if re.search(r"[^aeiou]y$", last):
        last = last[:-1] + "ies"
    elif re.search(r"(?:s|x|z|ch|sh)$", last):
        last += "es"
    else:
        last += "s"
    return " ".join(words[:-1] + [last])


def singular(term: str) -> str:
    """"Covered Employees" -> "Covered Employee", "Activities" -> "Activity"; else the term."""
    if re.search(r"[^aeiou]ies$", term):
        return term[:-3] + "y"
    if re.search(r"(?:ss|us|is)$", term) or not term.endswith("s") or term.isupper():
        return term
    return term[:-2] if re.search(r"(?:x|z|ch|sh)es$", term) else term[:-1]


def term_key(term: str) -> str:
    """What the forms of one term share, to group or look up uses: lower case, singular,
    without a possessive ("Claims", "Claim’s", "CLAIMS" -> "claim"; "Taxes" -> "tax")."""
    bare = re.sub(r"[\u2019'][sS]?$", "", term.strip())
    return singular(bare.lower()).lower()


def same_term(a: str, b: str) -> bool:
    """One term in another number: "Covered Employee" / "Covered Employees"."""
    return a == b or singular(a) == singular(b) or pluralise(a) == b or pluralise(b) == a


def written_as(target: str, mention: Mention) -> str:
    """`target` in the form of `mention`."""
    already_plural = singular(target) != target and not target.isupper()  # "Service" used as "Services" -> "Services"
    out = pluralise(target) if mention.plural and not already_plural else target
    if mention.possessive:
        apostrophe = mention.possessive[0]
        out += apostrophe if out.endswith("s") and (mention.plural or mention.possessive == apostrophe) else apostrophe + "s"
    return out.upper() if mention.upper else out


def written_forms(term: str) -> list[str]:
    """Every form in which ``mentions`` reads a use of ``term``, as the term writes it: itself,
    plural, possessive and plural possessive with either apostrophe ("Supplier", "Suppliers",
    "Supplier's", "Supplier’s", "Suppliers'", ...), longest first. What the pane restores when
    it puts a precedent in capitals into sentence case (it reads no endings itself)."""
    found: dict[str, None] = {}
    for plural in (False, True):
        for possessive in ("", "'s", "\u2019s", "'", "\u2019"):
            if possessive in ("'", "\u2019") and not plural:
                continue  # "Supplier'" is no form; "Services'" is the plural's
            found.setdefault(written_as(term, Mention(0, 0, term, plural, possessive, False)), None)
    return sorted(found, key=len, reverse=True)


_ARTICLE = re.compile(r"\b(a|an|A|An|AN)\s+$")


def fix_article(before: str, replacement: str) -> str:
    """`before` (the text up to a replaced mention) with a/an agreeing with the replacement."""
    m = _ARTICLE.search(before)
    if not m:
        return before
    vowel = bool(re.match(r"[aeiouAEIOU]", replacement)) and not re.match(r"(?:[Uu]ni|[Uu]s[eu]|[Oo]ne)", replacement)
    vowel = vowel or bool(re.match(r"(?:[AEFHILMNORSX][A-Z]|[AEFHILMNORSX]$)", replacement))  # "an NDA", "an SOW"
    word = m.group(1)
    wanted = ("an" if vowel else "a")
    wanted = wanted.upper() if word.isupper() and len(word) > 1 else (wanted.capitalize() if word[0].isupper() else wanted)
    return before[:m.start(1)] + wanted + before[m.end(1):]


# -- capitalised terms used ------------------------------------------------------------------

# A word of a term: Title case, or capitals ("MNDA Term", "Term of NDA", "AI Services").
_WORD = r"(?:[A-Z][a-z][\w\-]*|[A-Z]{2,}s?)"
_PHRASE = re.compile(r"(?<![\w\-])(" + _WORD + r"(?:[ \t]+(?:(?:of|for)[ \t]+)?" + _WORD + r")+)(?![\w\-])")
_REFERENCE_WORDS = frozenset("Section Sections Clause Clauses Article Articles Exhibit Schedule Annex Appendix".split())
_MONTHS = frozenset(MONTHS)  # the one list of month names (reading/dates.py)
_STATE_WORDS = frozenset("State Commonwealth Province County City District Republic Kingdom United European".split())
# Words that make a run of capitalised words the name of a law, a body, a list or a
# convention: "Office of Foreign Assets Control", "Occupational Safety and Health Administration".
_INSTITUTION = frozenset(
    "Act Acts Convention Regulation Regulations Code Department Commission Office Council Treaty Rules "
    "Administration Agency Authority Bureau Nations List Court Union Organization Institute Association "
    "Directive Statute Statutes Commissioner".split())
_NAME_END = re.compile(r"\s(?:Act|Convention|Regulation|Code|Department|Commission|Office|Council|Treaty|Rules|"
                       r"Agreement|Addendum|Version|Inc|Corp|LLC|Ltd)$")
_NOT_TERMS = frozenset({
    "United States", "United Kingdom", "European Union", "European Economic Area", "New York", "Standard Terms Version",
    "Internal Revenue Code", "Internal Revenue Service", "Common Paper", "Creative Commons", "Bonterms",
    "Securities Act", "Exchange Act", "Board of Directors", "Microsoft Word", "Court of Chancery", "Supreme Court",
    "District Court"})
# The document's own parts and kinds of document: its title and "Standard Terms" are not terms to define.
_DOCUMENT_PART = re.compile(r"(?:^|\s)(?:Standard Terms|Cover Page|Cover Terms|Key Terms|Framework Terms|Order Form)(?:\s|$)"
                            r"|\s(?:Letter|Consent|Resolution|Resolutions)$")
# Words of US state names ("Jersey", "Dakota"), from the one list of places (jurisdictions.py),
# and "Swiss Federal".
_US_STATES = frozenset(w for state in US_STATES for w in state.split()) \
    - {"New", "North", "South", "West", "District", "of"} | {"Swiss", "Federal"}


@dataclass(frozen=True)
class Capitalised:
    phrase: str  # the term as used, a sentence's capitalised first word dropped
    start: int
    full: str  # the whole capitalised run, sentence-start word included


_NAME_OR_TERM = re.compile(r"\b([A-Z](?:[a-z][\w-]*|[A-Z0-9&]+(?![a-z])))")


def capitalised_words(text: str) -> list[str]:
    """Every single word written with a capital (a party, a defined term's word, an all-capitals
    name such as "NCM" or "JHU", a sentence opener), possessive "'s" left off, in order. A word
    in a sentence written all in capitals is left out (it names nothing)."""
    out = []
    for m in _NAME_OR_TERM.finditer(text):
        word = m.group(1)
        if word.isupper() and len(word) > 1 and (word.lower() in _PLAIN_WORDS or in_capitals_run(text, m.start(), m.end())):
            continue
        if word.isupper() and len(word) == 1:
            continue  # "A", "I": articles and limb letters
        out.append(word)
    return out


def in_capitals_run(text: str, start: int, end: int) -> bool:
    """Whether the word in capitals at ``start:end`` sits beside another word in capitals on its
    line ("LIMITATION OF LIABILITY. The ...", "THE COMPANY SHALL NOT"): a heading's or a
    sentence set in capitals, not a name or an acronym of its own ("the SOW", "NCM's"). The
    core's one rule for it (the written terms' acronyms and the support check's names)."""
    before = _CAPITALS_BEFORE.search(text, max(0, start - 30), start)
    after = _CAPITALS_AFTER.match(text, end, end + 30)
    return any(m and len(m.group(1)) > 1 and m.group(1).isupper() for m in (before, after))


_CAPITALS_BEFORE = re.compile(r"([A-Za-z]+)[^A-Za-z\n]{1,3}$")
_CAPITALS_AFTER = re.compile(r"(?:s|[\u2019']s)?[^A-Za-z\n]{1,3}([A-Za-z]+)")


def capitalised_terms(text: str) -> list[Capitalised]:
    """Runs of two or more capitalised words that read as terms, not names or sentence starts."""
    out = []
    for m in _PHRASE.finditer(text):
        phrase, start = m.group(1), m.start(1)
        words = phrase.split()
        if not any(w[:1].isupper() and w[1:2].islower() for w in words):
            continue  # "LIMITATION OF LIABILITY": a heading in capitals
        before = text[max(0, start - 80):start].rstrip()  # a window: documents are long
        at_start = not before or before[-1] in ".!?:;(\u2022\n" or bool(re.search(r"(?:^|\n)\s*[\d.()a-z]{1,8}$", before))
        if words[0] in STARTERS or (at_start and len(words) > 2):
            # Capitalised to start a sentence: "Each Recipient", "Passive Public Holdings" (the
            # caller checks ``full`` too, so a known three-word term is still known).
            rest = re.sub(r"^\S+\s+(?:(?:of|for)\s+)?", "", phrase)
            start += len(phrase) - len(rest)
            phrase = rest
        if len(phrase.split()) < 2 or _is_name(phrase, text, start):
            continue
        out.append(Capitalised(phrase, start, m.group(1)))
    return out


def _is_name(phrase: str, text: str, start: int) -> bool:
    """A law, a body, a place, a month or the document's own part: not a term to define."""
    words = phrase.split()
    if phrase in _NOT_TERMS or _NAME_END.search(phrase) or _DOCUMENT_PART.search(phrase):
        return True
    if any(w in _MONTHS or w in _STATE_WORDS or w.split("-")[0] in _US_STATES or w in _REFERENCE_WORDS for w in words):
        return True  # a date, a place, or "Contractor of Section": a reference's words
    if re.match(r"\s*:", text[start + len(phrase):]):
        return True  # a form's label: "Fee for Pilot Period: ..."
    run = _full_name(text, start, start + len(phrase)).split()
    if any(w in _INSTITUTION or w in _US_STATES for w in run):
        return True
    if _PLACE.search(" ".join(run)):
        return True  # a place the core knows, however its name runs on ("Hong Kong Special Administrative Region")
    return len(run) >= 3 and run[-1] == "Law"  # "Delaware General Corporation Law", not "Governing Law"


_PLACE = re.compile(rf"(?<![\w-])(?:{PLACES})(?![\w-])")


def _full_name(text: str, start: int, end: int) -> str:
    """The run of capitalised words around ``start``..``end``, across "and", "of", "the", "&"."""
    word = r"[A-Z][\w'\u2019\-]*"
    joint = r"(?:\s+(?:and|of|the|on|for|&))*\s+"
    left = re.search(r"(?:" + word + joint + r")+$", text[max(0, start - 120):start])
    right = re.match(r"(?:" + joint + word + r")+", text[end:end + 120])
    return (left.group(0) if left else "") + text[start:end] + (right.group(0) if right else "")


def known_forms(terms: Sequence[str]) -> set[str]:
    """Lower-cased terms with their other number, for "is this a known term?" questions."""
    out = set()
    for term in terms:
        out |= {term.lower(), pluralise(term).lower(), singular(term).lower()}
    return out


# Single capitalised words that name a part of a document or the document itself, not a term to define.
_PART_WORDS = frozenset("Section Sections Article Articles Exhibit Schedule Annex Appendix Clause Agreement "
                        "Party Parties".split())


_PART_NAMES = re.compile(r"\b(?:Standard Terms|Cover Page|Cover Terms|Key Terms|Framework Terms|Order Form)\b")


def used_terms(text: str, words: Iterable[str] = (), names: Iterable[str] = (), ordinary: str = "",
               parts: bool = False, singles: bool = False) -> list[str]:
    """The defined terms a text uses, defined there or not: capitalised runs read as terms
    (``capitalised_terms``), the party ``names`` it uses, and single capitalised words that are
    in ``words`` (role words, words another text defines), used as a term ("the Product"), or
    written in lower case in ``ordinary`` (the text it was drafted from: "updates" -> "Updates"
    makes a term). An amount in words ("Fifty Thousand Dollars") is not a term. ``parts``: the
    names of a document's own parts too ("Cover Terms"), which another document may not have;
    ``singles``: every capitalised word inside a sentence that is not a name ("install Updates")."""
    words = set(words)
    lower = set(re.findall(r"\b[a-z][\w-]*\b", ordinary))
    found: dict[str, None] = {}
    for c in capitalised_terms(text):
        found.setdefault(c.phrase, None)
    for m in _PART_NAMES.finditer(text) if parts else ():
        found.setdefault(m.group(0), None)
    for m in re.finditer(r"(?<![\w’'-])([A-Z][a-z][\w-]*)\b", text):
        word = m.group(1)
        if word in _PART_WORDS or word in STARTERS:
            continue
        before = text[:m.start()].rstrip()
        start_of_sentence = not before or before[-1] in ".;:!?(\n" or bool(re.search(r"(?:^|\n)\s*[\d.()a-z]{1,8}$", before))
        the = re.search(r"\bthe\s+$", text[max(0, m.start() - 5):m.start()])
        inside = any(word in c.split() for c in found) or bool(re.match(r"[ \t]+[A-Z][a-z]", text[m.end():])) or \
            bool(re.search(r"[A-Z][\w’'-]*[ \t]+$", text[max(0, m.start() - 40):m.start()]))  # inside a run of capitals
        if word in words or (not start_of_sentence and not inside and (
                the or word.lower() in lower or (singles and not _is_name(word, text, m.start())))):
            found.setdefault(word, None)
    for name in names:
        found.setdefault(name, None)
    return [t for t in found if not any(t != o and t in o.split() for o in found) and not _amount_words(t)]


def _amount_words(term: str) -> bool:
    """"Fifty Thousand Dollars", "Two Million": an amount in words, not a defined term."""
    parts = [w.lower().strip("-") for w in re.split(r"[\s-]+", term)]
    number = [w for w in parts if w in SMALL or w in SCALES or w == "and"]
    return bool(number) and len(number) >= len(parts) - 1
