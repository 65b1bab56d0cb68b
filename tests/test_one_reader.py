"""One home per legal reading (issue 38): the clause-reading core, index_builder/reading/.

Each detector below finds the shape of a reader the core owns (a sentence splitter, a date or
abbreviation list, a term's plural and possessive endings, a run-in heading, a party-role
table, a list of places, a "means" definition reader, a rule for text set in capitals, a clause
number typed at a paragraph's start, a heading told from a sentence by its verbs). The
product's code outside the core (addin_server/, index_builder/ but reading/, the pane's JS)
may hold one only where ALLOWED says why; an entry that no longer matches fails too, so the
list only shrinks. Each detector is shown to catch the code it was written against (the
second readers removed in issue 38), so none passes by matching nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "index_builder" / "reading"

DETECTORS: dict[str, re.Pattern[str]] = {
    # Sentence stops in a regex that cut text: "[.!?]" before spaces, "[^.!?]+" up to a stop,
    # "[.!?](?!\s|$)" (a stop that ends nothing unless a space follows).
    "sentence splitter": re.compile(r"\[\^\.!\?[^\]]*\][*+]|\[\.!\?\][^\n]{0,30}\\s[*+]|\[\.!\?\]\(\?[!=]\\s"),
    # Month names listed or alternated: "January|February", "january february march".
    "date reader": re.compile(r"January\W{1,4}February", re.I),
    # Abbreviations that do not end a sentence: "e.g", "i.e" listed together.
    "abbreviation list": re.compile(r"e\\?\.g\W{1,8}i\\?\.e", re.I),
    # A term's plural ending in a regex: "(?:e?s)?", "(?P<plural>e?s|E?S)?".
    "term endings": re.compile(r"e\?s[)|]"),
    # A run-in heading: a lazy phrase of up to 80 characters, then a full stop or colon.
    "run-in heading": re.compile(r"\{\d?,?8[01]\}\?\)(?:\\s[*+])?(?:\\\.|\[\.:|\(\?:\[\.:|\(\[\.:)"),
    # Two sides of one relation side by side: a party-role table.
    "party-role table": re.compile(
        r"Discloser\W{1,12}Recipient|Licensor\W{1,12}Licensee|Landlord\W{1,12}Tenant|Lender\W{1,12}Borrower|"
        r"Employer\W{1,12}Employee"),
    # A list of places a contract chooses the law of.
    "jurisdiction list": re.compile(r"Delaware\W{1,8}(?:New York|California)"),
    # A definition read by its verb: "means|shall mean", "(?:means".
    "definition reader": re.compile(r"means\|shall mean|shall mean\|means|\(\?:means\b"),
    # Text set in capitals: the share of capital letters among letters, or a line with no small
    # letter ("^[^a-z]*[A-Z]{2}": document.mostly_capitals).
    "capitals rule": re.compile(r"(?:0\.8|share) \* letters|/ letters\.length >=? 0\.8|\[\^a-z\]\*\[A-Z\]"),
    # A clause number typed at a paragraph's start: "^\s*((?:section", "^\s*(?:(?:section",
    # "^\s*(?:\d+(?:", "^\s*(\d{1,3}", "(?:section\s+|clause" (reading/numbering.typed_label; the
    # pane takes it from the server).
    "typed clause number": re.compile(r"\^\\s\*\((?:\(?\?:(?:\(\?:)?)?(?:section|\\d)|\(\?:section\\s\+\|clause", re.I),
    # A heading's shape read by the absence of a verb: "is|are|was|were|be|been|shall"
    # (reading/labels.py; the pane's splitLabel read it again).
    "heading without a verb": re.compile(r"is\|are\|was\|were\|be\|been\|shall"),
    # The outline's reading of a typed number: "^(?:ARTICLE|Article)", "^(?:SECTION|Section|Sec\.",
    # "^(\d{1,3}(?:\.\d{1,3})+)" (reading/numbering.typed_label; ingest/labels.py read it apart).
    "outline number": re.compile(r"\^\(\?:(?:ARTICLE|SECTION)\||\^\(\\d\{1,3\}\(\?:\\\.\\d"),
    # Whether a paragraph's words may be a heading: no sentence in it, read by a full stop and a
    # space inside, or by ". ; :" before a space or at the end (reading/document.is_heading).
    "is a heading": re.compile(r"\"\. \" in \w+\.rstrip\(\"\.\"\)|\[\.;:\]\\s\|\[\.;:\]\$"),
    # A cross-reference read by its word: "(?:Sections?|Clauses?", "(Section|Clause|Article"
    # (reading/references.py, session 6).
    # (Session 10: either case of its first letter, "[Ss]ections?|[Cc]lauses?", for "clause 7.3".)
    "cross-reference": re.compile(r"(?:S|\[Ss\])ections\?\|(?:C|\[Cc\])lauses\?|\(Section\|Clause\|Article"),
    # Words that say "not", listed ("not no never", "not|no|nor", "never|none"): reading/polarity.py's
    # negators() and its patterns (session 9).
    "negation word list": re.compile(r"\bnot[ |]no[ |](?:never|nor)\b|\bnot\|no\||\bnever\|(?:none|cannot|neither)\b"),
    # Words that make an exception, listed ("except\w*|unless", "except excluding", "unless|other"):
    # reading/polarity.py's exception() and negation_or_exception().
    "exception word list": re.compile(r"\bexcept(?:\\w\*)?\|(?:exclud|unless|other|save)|\bunless\|(?:except|exclud|other|save)|"
                                      r"\bexcept excluding\b|\bexcluding\|unless"),
    # A limit's words, listed: a "not" alternated with "never" and "in no (event)" before "more than",
    # or "not to exceed|up to" (reading/polarity.py's ceiling_after, floor_after, BOUND_AFTER; session 10).
    "limit word list": re.compile(r"\(\?:not\|never\|in\\s\+no\\s\+|not\\s\+to\\s\+exceed\|up\\s\+to"),
}

# (detector, file): why it stays. "left:" entries are second readers still to move into the core.
ALLOWED: dict[tuple[str, str], str] = {
    ("sentence splitter", "addin_server/llm/untrusted.py"):
        "on purpose: it cuts text into pieces that rebuild it exactly, at every stop (its comment)",
    ("negation word list", "addin_server/draft/checks_support.py"):
        "on purpose: _FUNCTION_WORDS, the words any two sentences share (a borrowed sentence is read by its "
        "other words), not a reading of what says 'not'",
    ("negation word list", "addin_server/draft/parts_carve_out.py"):
        "on purpose: _CARVE_STOP, words a carve-out's named item is never made of, not a reading of 'not'",
    ("exception word list", "addin_server/draft/parts_carve_out.py"):
        "left: an inline 'except|unless|other than|provided' before a quoted subject (i38-instr9's code): "
        "read it through polarity.exception",
    ("exception word list", "addin_server/draft/parts_wording.py"):
        "on purpose: _PHRASE_OPENERS, where a phrase of an instruction starts, not whether it excepts",
}

# The code each detector was written against (from the second readers issue 38 removed).
CAUGHT = {
    "sentence splitter": r'''_END = re.compile(r"""[.!?]['"\u2019\u201d)\]]*\s+(?=[A-Z0-9(\["'\u201c\u2018])|\n+""")''',
    "date reader": '_MONTHS = ("january february march april may june july august september october november "',
    "abbreviation list": r'r"(?:\b(?:e\.g|i\.e|etc|viz|cf|vs|inc|ltd|llc|l\.l\.c|co|corp|no|nos|sec|art|para|cl|"',
    "term endings": r"const pattern = new RegExp(`(?<![\\p{L}\\p{N}\\-])${words}(?=(?:e?s)?(?:['’]s?)?(?![\\p{L}\\p{N}\\-]))`, \"gu\");",
    "run-in heading": r'_INLINE_HEADING = re.compile(r"^([A-Z][^.:;!?\n]{0,80}?)\.\s+(?=[A-Z\u201c\"(\[{])")',
    "party-role table": '("Discloser", "Recipient"), ("Licensor", "Licensee"), ("Employer", "Employee")',
    "jurisdiction list": '_PLACES = ("Delaware", "New York", "California", "Texas")',
    "definition reader": r'_MEANS = re.compile(r"[”\"]\s*(?:means|shall mean)\b")',
    "capitals rule": "return letters >= 12 and sum(map(str.isupper, text)) >= 0.8 * letters",
    "typed clause number": r"const NUMBERING = /^\s*(?:(?:section|article|clause)\s+)?(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,4}\)|[a-z]\.)\s+/i;",
    "heading without a verb": r"const VERBS = /\b(?:is|are|was|were|be|been|shall|will|may|must|can|should|would|has|have|had|does|do|agrees?)\b/i;",
    "is a heading": '''    if ". " in text.rstrip(".") or " means " in f" {text} ":''',
    "cross-reference": r'_REF = re.compile(r"\b(?P<word>Sections?|Clauses?|Articles?|Paragraphs?)\s+(?P<list>" + _NUMBER',
    "negation word list": '_NEGATORS = frozenset("not no never none nothing cannot non nobody neither".split())',
    "exception word list": r'_EXCEPTION_WORDS = re.compile(r"\b(?:not|no|nor|except|excluding|unless|other than|does not|do not|nothing|none|"',
    "outline number": r'_ARTICLE = re.compile(r"^(?:ARTICLE|Article)\s+([IVXLC]+|\d{1,3})" + _LABEL_END + r"\.?")',
    "limit word list": r'_BOUND_VERB = re.compile(r"(?:not\s+to\s+exceed|up\s+to)\b", _I)',
}

# The pane's second readers issue 38 removed (the pane takes these readings from the server:
# each search result's and the lawyer's `reading`, the redraft's `redraft_sentences`): the
# detector that finds each, and the code it was. Kept here so that they cannot come back.
PANE_READERS = {
    "adapt.js splitLabel's heading": ("run-in heading", r"const HEADING_END = /^([^.:\n\u2014]{1,80}?)\s*(?:[.:\u2014]|\s[-\u2013]\s|\n)\s+/;"),
    "adapt.js splitLabel's number": ("typed clause number", r"const NUMBER = /^\s*((?:(?:section|clause|article|§)\s*)?(?:\d+(?:\.\d+)*\.?|\((?:[a-z]{1,2}|[ivxlc]{1,6}|\d{1,3})\)|(?:[a-z]|[ivxlc]{1,6})[.)])(?=\s))\s*/i;"),
    "adapt.js looksLikeHeading's verbs": ("heading without a verb", r"const VERBS = /\b(?:is|are|was|were|be|been|shall|will|may|must|can|should|would|has|have|had|does|do|agrees?)\b/i;"),
    "adapt.js sentenceCase's sentence starts": ("sentence splitter", r"out = out.replace(/(^\s*|[.!?]\s+|[:;]\s*\n\s*)(\p{Ll})/gu, (_, lead, ch) => lead + ch.toUpperCase());"),
    "blackline.js isMostlyCapitals": ("capitals rule", r"return letters.length >= 12 && upper / letters.length >= 0.8;"),
    "strict-view.js and follow-rules.js NUMBERING": ("typed clause number", r"const NUMBERING = /^\s*(?:(?:section|article|clause)\s+)?(?:\d+(?:\.\d+)*\.?|\(?[a-z]{1,4}\)|[a-z]\.)\s+/i;"),
    "draft-report.js operationComments' sentences": ("sentence splitter", r"const sentences = lawyerText.match(/[^.!?]+[.!?]*/g) || [lawyerText];"),
    # Session 5: the server sends an error's sentences (web/app.py error_response), and the
    # document's headings in capitals (POST /api/v1/document `headings`).
    "messages.js forLawyer's sentences": ("sentence splitter", r"const sentences = flattenAsides(marked).match(/(?:[^.!?]|[.!?](?!\s|$))+(?:[.!?]+(?=\s|$)|$)/g) || [];"),
    "follow-rules.js skipReason's heading in capitals": ("capitals rule", r"if (words.length <= 12 && letters.length && capitals / letters.length > 0.8 && !/[.;:]$/.test(body)) return \"heading\";"),
}


def _product_files() -> list[Path]:
    files = [*(ROOT / "addin_server").rglob("*.py"), *(ROOT / "index_builder").rglob("*.py"),
             *(ROOT / "addin_server" / "static").rglob("*.js")]
    return sorted(f for f in files if CORE not in f.parents and "vendor" not in f.parts)


def _hits() -> set[tuple[str, str]]:
    found = set()
    for path in _product_files():
        text = path.read_text(encoding="utf-8")
        for name, pattern in DETECTORS.items():
            if pattern.search(text):
                found.add((name, path.relative_to(ROOT).as_posix()))
    return found


def test_no_reader_of_the_core_outside_it_but_those_allowed() -> None:
    hits = _hits()
    unlisted = sorted(hits - set(ALLOWED))
    assert not unlisted, ("A reading the clause-reading core owns is written again outside "
                          f"index_builder/reading/: {unlisted}. Read it through the core instead.")
    stale = sorted(set(ALLOWED) - hits)
    assert not stale, f"These second readers are gone: remove them from ALLOWED: {stale}"


@pytest.mark.parametrize("name", sorted(DETECTORS))
def test_each_detector_catches_the_reader_it_was_written_against(name: str) -> None:
    assert DETECTORS[name].search(CAUGHT[name]), name


@pytest.mark.parametrize("what", sorted(PANE_READERS))
def test_each_reader_removed_from_the_pane_would_be_caught(what: str) -> None:
    name, code = PANE_READERS[what]
    assert DETECTORS[name].search(code), what


# Inside the core too, one rule per reading (session 5): the detector, the one core file that
# may hold it, and the second copies it was written against (kept so that they cannot come back).
# "left:" files still hold a second rule of their own.
CORE_ONCE: dict[str, tuple[str, dict[str, str], dict[str, str]]] = {
    "run-in heading": ("document.py", {}, {
        # Session 6: a clause's label reads document.run_in_heading (shape="clause", marks a
        # dash and a line break too); the pane's Insert reads it (web/serialize.py reading).
        "labels.py _RUN_IN (clause_label)":
            r'''_RUN_IN = re.compile(r"([^.:\n\u2014]{1,80}?)\s*(?:[.:\u2014]|\s[-\u2013]\s|\n)\s+(?=[A-Z0-9(\"\u201c'\u2018])")''',
        "document.py _LEAD (lead_heading)": r'_LEAD = re.compile(r"([^.:\u2014]{2,80}?)[.:\u2014]\s+[A-Z]")',
        "document.py _LEAD_OR_LINE": r'_LEAD_OR_LINE = re.compile(r"([^.:\u2014\n]{2,80}?)(?:[.:\u2014]\s+[A-Z]|\.\s*$)")',
        "document.py _RUN_IN (run_in_heading)": r'_RUN_IN = re.compile(r"([A-Z][^.:;!?\n]{0,80}?)\s*\.\s+(?=[A-Z\u201c\"(\[{])")'}),
    "typed clause number": ("numbering.py", {}, {
        "paragraphs.py TYPED_NUMBER (the section map's, a clause label's, a definition's)":
            r'TYPED_NUMBER = re.compile(r"^\s*((?:section|clause|article)\s+)?(\d{1,3}(?:\.\d{1,3})*\.?|\([a-z0-9]{1,4}\)|[a-z]\.)(?=\s)",',
        # Session 6: typed_number is the outline's typed_label of a paragraph given whole (whole=True).
        "numbering.py _WHOLE (typed_number's fallback)":
            r'_WHOLE = re.compile(r"^\s*((?:section|clause|article)\s+)?(\d{1,3}(?:\.\d{1,3})*\.?|\([a-z0-9]{1,4}\)|[a-z]\.)(?=\s)",',
        "paragraphs.py _typed (from_clauses: is a clause's number typed)":
            r'''return bool(re.match(r"\s*(?:section\s+|clause\s+|article\s+)?" + re.escape(section.rstrip(".")) + r"\.?(?=\s)", line, re.I))'''}),
    "outline number": ("numbering.py", {}, {
        "ingest/labels.py typed_label (the index's outline)": r'_DECIMAL = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)(?:\.(?=\s)|(?=\s+[^a-z\s]))|^(\d{1,3})\.(?=\s)")'}),
    "capitals rule": ("document.py", {}, {
        # Session 6: the text reader's heading line in capitals is document.mostly_capitals
        # with every letter a capital (least=2, share=1); 0 of 9,236 distinct lines read apart.
        "ingest/text_reader.py _CAPS_HEADING": r'_CAPS_HEADING = re.compile(r"^[^a-z]*[A-Z]{2}[^a-z]*$")'}),
    "cross-reference": ("references.py", {}, {
        # Session 6: conforming's, Check document's and the written terms' readers of a
        # cross-reference read reading/references.py.
        "conform/references.py _REF (find)": r'_REF = re.compile(r"\b(?P<word>Sections?|Clauses?|Articles?|Paragraphs?)\s+(?P<list>" + _NUMBER',
        "conform/check.py _prose": r'text = re.sub(r"\b(?:Sections?|Clauses?|Articles?)\s+[\d.()a-z]+(?:\s*\([^)]{1,80}\))?"',
        "conform/check.py _missing_sections' word": r'word = re.search(r"\b(?:Sections?|Clauses?|Articles?|Paragraphs?)\s+$", p.text[max(0, start - 14):start])',
        "document.py _REFERENCE_HEADING (headings_in)": r'_REFERENCE_HEADING = re.compile(r"\b(?:Sections?|Clauses?|Articles?|Paragraphs?)\s+[\d.]+[a-z]?\s*\(([^()]{1,80})\)")',
        "document.py reference_word": r'for m in re.finditer(r"\b(Sections?|Clauses?|Articles?|Paragraphs?)\s+\d", p.text):',
        # Session 6 (lead): conforming's rewrite of the reference word; its own test for another
        # document never fired (it looked at the number, not the words after it), so it rewrote
        # "Section 204 of the DGCL" as "Clause 204 of the DGCL".
        "conform/conform.py _reference_words": r'for m in re.finditer(r"\b(Section|Clause|Article|Paragraph)(s?)(?=\s+\d)", text):'}),
    "is a heading": ("document.py", {}, {
        "document.py is_heading (by its words)": r'return len(stripped.split()) <= 12 and not re.search(r"[.;:]\s|[.;:]$", stripped)',
        "ingest/headings.py looks_like_heading (Word's formatting)": '''    if ". " in text.rstrip(".") or " means " in f" {text} ":'''}),
}


@pytest.mark.parametrize("name", sorted(CORE_ONCE))
def test_one_rule_inside_the_core(name: str) -> None:
    home, left, removed = CORE_ONCE[name]
    holders = {p.name for p in CORE.glob("*.py") if DETECTORS[name].search(p.read_text(encoding="utf-8"))}
    assert holders == {home, *left}, f"the core holds its {name} rule in {sorted(holders)}: one home, {home}"
    # One rule: in one function of its home (or one module-level pattern before the first).
    parts = re.split(r"\n(?=def |class )", (CORE / home).read_text(encoding="utf-8"))
    rules = [part.split("\n", 1)[0] for part in parts if DETECTORS[name].search(part)]
    assert len(rules) == 1, f"{home} holds its {name} rule in {len(rules)} places ({rules}): read them through one"
    for what, code in removed.items():
        assert DETECTORS[name].search(code), what


def test_the_core_holds_the_readers_the_detectors_look_for() -> None:
    core = "\n".join(p.read_text(encoding="utf-8") for p in sorted(CORE.glob("*.py")))
    for name in ("sentence splitter", "abbreviation list", "term endings", "run-in heading", "capitals rule",
                 "typed clause number", "heading without a verb", "is a heading", "outline number", "cross-reference"):
        assert DETECTORS[name].search(core), f"the core no longer has its {name}: update the detector"


# Inside the core too, polarity.py is the one home of the words that say "not", make an exception or
# set a limit (session 10): caps.py and cap_measures.py kept their own for where a cap's measure ends,
# and they had drifted ("excluding" ended a measure read for its value, not a defined cap's measure
# kept as words). Another core module takes them from polarity.py; an entry here says why one may not.
POLARITY_WORDS = ("negation word list", "exception word list", "limit word list")
CORE_POLARITY_ALLOWED: dict[tuple[str, str], str] = {}
# The second lists this guard was written against, removed from the core in session 10.
CORE_POLARITY_REMOVED = {
    "caps.py _plain_end": ("exception word list",
                           r'm = re.search(r";|[,;]?\s*\bprovided\b|,?\s*\b(?:except|unless|notwithstanding)\b", phrase, _I)'),
    "cap_measures.py _measure_end": ("exception word list",
                                     r'r"except|excluding|save|and\s+in\s+no\s+event|and\s+(?:neither|each|either)\s+party|"'),
    "cap_measures.py _CEILING": ("limit word list",
                                 r'r"(?:not|never|in\s+no\s+(?:event|case))\s+(?:more|greater|higher)\s+than\b|capped\s+at\b)|"'),
    "cap_measures.py _FLOOR": ("limit word list",
                               r'r",?\s*(?:but\s+)?(?:in\s+any\s+event\s+)?(?:(?:not|never|in\s+no\s+(?:event|case))\s+(?:less|lower|fewer)\s+than\b|"'),
    "caps.py _BOUND_VERB": ("limit word list", r'_BOUND_VERB = re.compile(r"(?:not\s+to\s+exceed|up\s+to)\b", _I)'),
}


def test_polaritys_words_have_one_home_inside_the_core() -> None:
    home = CORE / "polarity.py"
    hits = {(name, p.name) for p in CORE.glob("*.py") if p != home for name in POLARITY_WORDS
            if DETECTORS[name].search(p.read_text(encoding="utf-8"))}
    unlisted = sorted(hits - set(CORE_POLARITY_ALLOWED))
    assert not unlisted, (f"A core module keeps its own list of polarity.py's words: {unlisted}. Take "
                          "them from reading/polarity.py (a named option where a reader differs).")
    assert not sorted(set(CORE_POLARITY_ALLOWED) - hits), "gone: remove them from CORE_POLARITY_ALLOWED"
    for name in POLARITY_WORDS:
        assert DETECTORS[name].search(home.read_text(encoding="utf-8")), f"polarity.py has no {name}"
    for what, (name, code) in CORE_POLARITY_REMOVED.items():
        assert DETECTORS[name].search(code), what
