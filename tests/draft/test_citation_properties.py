"""Property tests: whatever shape a model gives its markers, quotations and sentences, no
marker outside 1..k and no unverified quotation reaches the redraft, and every comment's
offsets still match its sentence. The checks below are written independently of the
parser (plain regular expressions over the returned text)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from addin_server.draft.citations import verify
from index_builder.model import Clause

POOL = [
    "Each party's aggregate liability shall not exceed the fees paid in the twelve months "
    "before the claim. Neither party excludes liability for fraud.",
    "Supplier shall indemnify Customer against third-party claims arising from the Services.",
    "This Agreement is governed by the laws of Delaware without regard to conflict rules.",
    "Either party may terminate this Agreement on thirty days written notice to the other.",
    "Confidential Information must be returned or destroyed within ten business days.",
]
OWN = "Supplier liability is unlimited. Payment is due within [30] days of invoice."
WORDS = ("supplier customer liability fees paid claim notice terminate agreement services "
         "confidential information returned within days months party shall must may the "
         "any all each indemnify governed laws delaware").split()
QUOTES = [('"', '"'), ("“", "”"), ("‘", "’"), ("'", "'"), ("«", "»"), ("„", "“"), ("「", "」")]
SPELLED = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight"]
SUPER = "⁰¹²³⁴⁵⁶⁷⁸⁹"
STATS = {"answers": 0, "markers": 0, "numbers_written": 0, "out_of_range_written": 0, "invalid_in_redraft": 0,
         "quotes": 0, "unverified_in_redraft": 0}


def marker(draw: st.DrawFn, k: int) -> str:
    n = draw(st.integers(0, k + 3))
    m = draw(st.integers(0, k + 3))
    one, two = [n], [n, m]
    shapes = [
        (f"[{n}]", one), (f"[ {n} ]", one), (f"【{n}】", one),
        (f"［{chr(0xFF10 + n) if n < 10 else n}］", one), (f"[{n}, {m}]", two), (f"[{n};{m}]", two),
        (f"[{min(n, m)}-{max(n, m)}]", list(range(min(n, m), max(n, m) + 1))),
        (f"[{min(n, m)}–{max(n, m)}]", list(range(min(n, m), max(n, m) + 1))),
        (f"[{n}][{m}]", two), (f"[{n}] [{m}]", two), (f"[Precedent {n}]", one),
        (f"(Precedent {n})", one), (f"(see precedents {n} and {m})", two), (f"[^{n}]", one),
        (f"[#{n}]", one), (f"[P{n}]", one), (f"precedent {SPELLED[n] if n < 9 else n}", one),
        (f"Precedent {n}", one), ("".join(SUPER[int(d)] for d in str(n)), one), (f"〔{n}〕", one),
    ]
    shape, numbers = draw(st.sampled_from(shapes))
    STATS["markers"] += 1
    STATS["numbers_written"] += len(numbers)
    STATS["out_of_range_written"] += sum(not 1 <= x <= k for x in numbers)
    return shape


@st.composite
def answers(draw: st.DrawFn) -> tuple[str, list[Clause]]:
    k = draw(st.integers(1, len(POOL)))
    precedents = [Clause(f"p{i}", POOL[i], "d") for i in range(k)]
    sentences = []
    for _ in range(draw(st.integers(1, 5))):
        words = draw(st.lists(st.sampled_from(WORDS), min_size=3, max_size=12))
        sentence = " ".join(words).capitalize()
        if draw(st.booleans()):  # a quotation, true or made up, in any marks
            opening, closing = draw(st.sampled_from(QUOTES))
            if draw(st.booleans()):
                source = draw(st.sampled_from(POOL[:k] + [OWN]))
                tokens = source.rstrip(".").split()
                at = draw(st.integers(0, max(len(tokens) - 5, 0)))
                quoted = " ".join(tokens[at:at + draw(st.integers(4, 6))])
            else:
                quoted = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=4, max_size=7)))
            sentence += f" {opening}{quoted}{closing}"
        for _ in range(draw(st.integers(0, 2))):
            sentence += draw(st.sampled_from([" ", "", "\u00a0", "  "])) + marker(draw, k)
        if draw(st.integers(0, 4)) == 0:  # a bare "(n)" closing the sentence
            sentence += f" ({draw(st.integers(0, k + 3))})"
        sentence += draw(st.sampled_from([".", ".", "!", "?", ". [1]"]))
        sentences.append(sentence)
    separators = draw(st.lists(st.sampled_from([" ", "  ", "\n", " \u200b"]),
                               min_size=len(sentences), max_size=len(sentences)))
    return "".join(s + sep for s, sep in zip(sentences, separators)), precedents


def words(text: str) -> str:
    return " " + " ".join(re.findall(r"\w+", text.lower().replace("'", "").replace("’", ""))) + " "


def invalid_markers(text: str, k: int) -> list[str]:
    """Markers in the returned text that name no precedent 1..k (independent of the parser)."""
    bad = [m.group(0) for m in re.finditer(r"\[\s*(\d+)\s*\]", text)
           if not 1 <= int(m.group(1)) <= k and m.group(0) not in OWN]
    bad += [m.group(0) for m in re.finditer(r"(?<!conditions )\bprecedents?\s+(\w+)", text, re.I)
            if m.group(1).lower() in SPELLED + [str(i) for i in range(100)]
            and not 1 <= (SPELLED.index(m.group(1).lower()) if m.group(1).lower() in SPELLED
                          else int(m.group(1))) <= k]
    for line in text.split("\n"):
        bare = list(re.finditer(r"\(\s*(\d+)\s*\)", line))
        if len(bare) == 1 and re.match(r"\s*(?:[.!?]|$)", line[bare[0].end():]):
            if not 1 <= int(bare[0].group(1)) <= k:
                bad.append(bare[0].group(0))
    bad += re.findall(r"[【】［］〔〕%s]" % SUPER, text)
    bad += re.findall(r"\[\s*(?:P|#|\^|Precedent)\s*\d", text)  # un-normalised shapes
    return bad


def unverified_quotes(result, precedents: list[Clause]) -> list[str]:
    bad = []
    spans = [(c.start, c.end, c.n) for c in result.comments]
    for opening, closing in QUOTES:
        pattern = re.escape(opening) + r"([^\n%s%s]+?)" % (re.escape(opening), re.escape(closing)) \
            + re.escape(closing)
        for m in re.finditer(pattern, result.text):
            inner = m.group(1)
            if len(re.findall(r"\w+", inner)) < 4:
                continue
            if opening in "'‘" and (m.start() > 0 and result.text[m.start() - 1].isalnum()):
                continue  # an apostrophe, not a quotation mark
            STATS["quotes"] += 1
            # A quotation may run over a full stop: every sentence it touches counts.
            cited = {n for a, b, n in spans if a < m.end() and m.start() < b}
            sources = [precedents[n - 1].text for n in cited] + [OWN]
            if not any(words(inner) in words(s) for s in sources):
                bad.append(inner)
    return bad


@settings(max_examples=400, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(answers())
def test_no_invalid_marker_or_unverified_quote_reaches_the_redraft(case) -> None:
    answer, precedents = case
    k = len(precedents)
    result = verify(answer, precedents, OWN)
    STATS["answers"] += 1
    invalid = invalid_markers(result.text, k)
    unverified = unverified_quotes(result, precedents)
    STATS["invalid_in_redraft"] += len(invalid)
    STATS["unverified_in_redraft"] += len(unverified)
    assert invalid == [], (answer, result.text)
    assert unverified == [], (answer, result.text)
    assert all(1 <= n <= k for n in result.cited)
    for comment in result.comments:
        assert result.text[comment.start:comment.end] == comment.sentence
        assert 1 <= comment.n <= k and comment.clause_id == precedents[comment.n - 1].clause_id
        assert comment.marker in comment.sentence or re.search(r"precedent", comment.sentence, re.I)
        passage = precedents[comment.n - 1].text[comment.support.start:comment.support.end]
        assert passage.strip() and 0 <= comment.support.score <= 1
    for start, end in result.uncited:
        assert not [m for m in re.findall(r"\[\d+\]", result.text[start:end]) if m not in OWN]


def test_property_run_counted_markers() -> None:
    """The run above really exercised markers (pytest runs tests in file order)."""
    if STATS["answers"]:
        assert STATS["markers"] > 100 and STATS["out_of_range_written"] > 50
        assert STATS["invalid_in_redraft"] == 0 and STATS["unverified_in_redraft"] == 0
