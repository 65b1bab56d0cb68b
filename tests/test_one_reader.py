"""One home per legal reading (issue 38): the clause-reading core, index_builder/reading/.

Each detector below finds the shape of a reader the core owns (a sentence splitter, a date or
abbreviation list, a term's plural and possessive endings, a run-in heading, a party-role
table, a list of places, a "means" definition reader, a rule for text set in capitals). The
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
    # Sentence stops in a regex that cut text: "[.!?]" before spaces, "[^.!?]+" up to a stop.
    "sentence splitter": re.compile(r"\[\^\.!\?[^\]]*\][*+]|\[\.!\?\][^\n]{0,30}\\s[*+]"),
    # Month names listed or alternated: "January|February", "january february march".
    "date reader": re.compile(r"January\W{1,4}February", re.I),
    # Abbreviations that do not end a sentence: "e.g", "i.e" listed together.
    "abbreviation list": re.compile(r"e\\?\.g\W{1,8}i\\?\.e", re.I),
    # A term's plural ending in a regex: "(?:e?s)?", "(?P<plural>e?s|E?S)?".
    "term endings": re.compile(r"e\?s[)|]"),
    # A run-in heading: a lazy phrase of up to 80 characters, then a full stop or colon.
    "run-in heading": re.compile(r"\{\d?,?80\}\?\)(?:\\s[*+])?(?:\\\.|\[\.:|\(\?:\[\.:)"),
    # Two sides of one relation side by side: a party-role table.
    "party-role table": re.compile(
        r"Discloser\W{1,12}Recipient|Licensor\W{1,12}Licensee|Landlord\W{1,12}Tenant|Lender\W{1,12}Borrower|"
        r"Employer\W{1,12}Employee"),
    # A list of places a contract chooses the law of.
    "jurisdiction list": re.compile(r"Delaware\W{1,8}(?:New York|California)"),
    # A definition read by its verb: "means|shall mean", "(?:means".
    "definition reader": re.compile(r"means\|shall mean|shall mean\|means|\(\?:means\b"),
    # Text set in capitals: the share of capital letters among letters.
    "capitals rule": re.compile(r"0\.8 \* letters|/ letters\.length >= 0\.8"),
}

# (detector, file): why it stays. "left:" entries are second readers still to move into the core.
ALLOWED: dict[tuple[str, str], str] = {
    ("sentence splitter", "addin_server/llm/untrusted.py"):
        "on purpose: it cuts text into pieces that rebuild it exactly, at every stop (its comment)",
    ("sentence splitter", "addin_server/static/taskpane/adapt.js"):
        "left: sentence case capitalises the letter after a stop in the precedent put in sentence case",
    ("sentence splitter", "addin_server/static/taskpane/draft-report.js"):
        "left: operationComments anchors a comment on the changed sentence; the redraft answer "
        "(addin_server/draft) should name that sentence",
    ("run-in heading", "addin_server/static/taskpane/adapt.js"):
        "left: splitLabel's heading shapes; the search answer should carry the core's reading of "
        "each result's and the lawyer's number and run-in heading",
    ("capitals rule", "addin_server/static/taskpane/blackline.js"):
        "left: isMostlyCapitals, the pane's copy of reading/document.py's text-in-capitals rule",
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


def test_the_core_holds_the_readers_the_detectors_look_for() -> None:
    core = "\n".join(p.read_text(encoding="utf-8") for p in sorted(CORE.glob("*.py")))
    for name in ("sentence splitter", "abbreviation list", "term endings", "run-in heading", "capitals rule"):
        assert DETECTORS[name].search(core), f"the core no longer has its {name}: update the detector"
