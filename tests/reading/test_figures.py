"""The core's figure reader on phrases of real clauses (ACORD, © The Atticus Project, CC BY 4.0;
Common Paper, CC BY 4.0): digits, words, both, OCR'd digits, multipliers, disagreeing figures."""

from __future__ import annotations

import pytest

from index_builder.reading.figures import figures, format_amount, spell_number
from index_builder.reading.numbers import read


def read_all(text: str) -> list[tuple[str, float, str | None, str, str]]:
    out = []
    for f in figures(text):
        assert text[f.start:f.end] == f.text  # every figure is the clause's own words
        out.append((f.kind, round(f.value, 4), f.unit or f.currency, f.text, f.written))
    return out


@pytest.mark.parametrize("text,expected", [
    ("a period of up to twenty-four (24) months from and after the date of such termination",
     ("period", 24, "month", "twenty-four (24) months", "both")),
    ("shall be provided within forty five (45) hours of the request", ("period", 45, "hour", "forty five (45) hours", "both")),
    ("within 30 (thirty) days of receipt", ("period", 30, "day", "30 (thirty) days", "both")),
    ("for a term of fifteen (15) Contract Year", ("period", 15, "year", "fifteen (15) Contract Year", "both")),
    ("Employee will provide two (2) personal appearance days", ("period", 2, "day", "two (2) personal appearance days", "both")),
    ("cured within ten (10) business days", ("period", 10, "business_day", "ten (10) business days", "both")),
])
def test_periods(text: str, expected: tuple) -> None:
    assert read_all(text) == [expected]


@pytest.mark.parametrize("text,expected", [
    ("SHALL NOT EXCEED FIFTEEN MILLION DOLLARS", ("amount", 15_000_000, "USD", "FIFTEEN MILLION DOLLARS", "words")),
    ("OR FIVE HUNDRED THOUSAND DOLLARS ($5OO,000).", ("amount", 500_000, "USD", "FIVE HUNDRED THOUSAND DOLLARS ($5OO,000)", "ocr")),
    ("net worth in excess of US$1,O00,000", ("amount", 1_000_000, "USD", "US$1,O00,000", "ocr")),
    ("assets under management of at least $40MM", ("amount", 40_000_000, "USD", "$40MM", "digits")),
    ("a minimum of USD $10MM in revenue", ("amount", 10_000_000, "USD", "USD $10MM", "digits")),
    ("registered capital of RMB1 million", ("amount", 1_000_000, "CNY", "RMB1 million", "digits")),
    ("will be limited to AUD 50,000.00 (Liability Cap)", ("amount", 50_000, "AUD", "AUD 50,000.00", "digits")),
    ("a fee of one million three hundred thousand ($1,300,000) dollars",
     ("amount", 1_300_000, "USD", "one million three hundred thousand ($1,300,000) dollars", "both")),
    ("one hundred twenty-five cents (125 cents) per unit", ("amount", 1.25, "USD", "one hundred twenty-five cents (125 cents)", "both")),
    ("liability shall not exceed £200,000", ("amount", 200_000, "GBP", "£200,000", "digits")),
])
def test_amounts(text: str, expected: tuple) -> None:
    assert read_all(text) == [expected]


@pytest.mark.parametrize("text,expected", [
    ("a royalty of eighty-two and one-half percent (82.5%) of Net Sales",
     ("percentage", 82.5, None, "eighty-two and one-half percent (82.5%)", "both")),
    ("a commission of _1_% of the gross price", ("percentage", 1, None, "_1_%", "digits")),
    ("EXCEED THREE TIMES (3X) THE TOTAL VALUE OF THE WORK ORDER", ("multiple", 3, None, "THREE TIMES (3X)", "both")),
    ("an amount equal to twenty four (24) times the monthly administrative fee",
     ("multiple", 24, None, "twenty four (24) times", "both")),
    ("EXCEED ONE HALF OF THE AMOUNT PAID", ("multiple", 0.5, None, "ONE HALF", "words")),
    ("one and one half times the fees paid", ("multiple", 1.5, None, "one and one half times", "words")),
])
def test_percentages_and_multiples(text: str, expected: tuple) -> None:
    assert read_all(text) == [expected]


def test_words_win_where_words_and_digits_disagree_and_the_figure_says_so() -> None:
    [f] = figures("within fifty-five (45) days after the end of each quarter")
    assert (f.value, f.disagree) == (55, True)
    assert read("ten (12)").value == 10 and read("twelve (12)").disagree is False


@pytest.mark.parametrize("text", [
    "on December 31, 2007 at 12:01 a.m.",
    "until the 20th business day after the 7th anniversary",
    "under Section 12.3 of the 1940 Act and Incoterms 2010",
    "two copies of the 100 Units and 25,000 shares",
    "shipments of 100 pounds of product",
    "the employee is at least 18 years of age",
    "{cap_multiplier}x the fees; within [ # ] days; $[Aggregate SAFE purchase amount]; {payment_terms_days} days",
    "[Drafting note: commonly 60, 90, or 120 days]",
    "a fee of [***] per month for [***] days",
])
def test_not_figures(text: str) -> None:
    assert read_all(text) == []


def test_writing_a_figure_back_the_way_the_clause_wrote_it() -> None:
    [words], [digits], [caps] = (figures(t) for t in ("thirty (30) days", "30 days", "THIRTY (30) DAYS"))
    assert spell_number(15, words) == "fifteen (15)"
    assert spell_number(15, digits) == "15"
    assert spell_number(15, caps) == "FIFTEEN (15)"
    [amount] = figures("a fee of $162,164")
    assert format_amount(150000, amount) == "$150,000"


@pytest.mark.parametrize("text,expected", [
    ("EXCEED THE GREATER OF (I) ONE (1) MILLION DOLLARS ($1,000,000) AND",
     ("amount", 1_000_000, "USD", "ONE (1) MILLION DOLLARS ($1,000,000)", "both")),
    ("umbrella coverage of One Million U.S. Dollars (U.S. $1,000,000) over the basic",
     ("amount", 1_000_000, "USD", "One Million U.S. Dollars (U.S. $1,000,000)", "both")),
    ("OR (ii) ONE HUNDRED THOUSAND UNITED STATES DOLLARS ($100,000.00 USD).",
     ("amount", 100_000, "USD", "ONE HUNDRED THOUSAND UNITED STATES DOLLARS ($100,000.00 USD)", "both")),
    ("charge you a fee of One Hundred and No/100 Dollars ($100.00) for each day",
     ("amount", 100, "USD", "One Hundred and No/100 Dollars ($100.00)", "both")),
    ("one and one half (11∕2) times the fees", ("multiple", 1.5, None, "one and one half (11∕2) times", "both")),
    ("one and one half (1½) times the fees", ("multiple", 1.5, None, "one and one half (1½) times", "both")),
    ("the fees paid multiplied by (a) twenty-four (24) (being the number of months in",
     ("multiple", 24, None, "twenty-four (24)", "both")),
])
def test_round_two_amounts_and_multiples(text: str, expected: tuple) -> None:
    assert expected in read_all(text)


def test_a_year_named_by_its_number_is_not_a_period() -> None:
    assert read_all("the Minimum Royalty for the 2018 Calendar Year and the 2019 Calendar Year") == []


def test_amounts_in_roubles() -> None:
    from index_builder.reading.figures import figures, format_amount
    (cap,) = figures("cap the termination fee at RUB 30m")
    assert (cap.value, cap.currency) == (30_000_000, "RUB")
    (said,) = figures("RUB 30 000 000 (fifty million roubles)")
    assert said.currency == "RUB" and said.disagree
    assert format_amount(30_000_000, currency="RUB") == "RUB 30,000,000"
    assert format_amount(1500) == "$1,500"


def test_a_line_break_inside_a_figure_is_a_space():
    # l-carve_out-02's clause wraps "eighteen (18) months" across a line: the figure is still one
    text = "for a period of eighteen\n(18) months after termination, on thirty\r\ndays' notice"
    found = figures(text)
    assert [(f.kind, f.value, f.unit) for f in found] == [("period", 18.0, "month"), ("period", 30.0, "day")]
    for f in found:
        assert text[f.start:f.end] == f.text
    assert found[0].text == "eighteen\n(18) months"
