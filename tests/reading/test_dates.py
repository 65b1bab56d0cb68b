"""Dates: the core's one reader (reading/dates.py), which the effective-date facet reads through."""

from datetime import date

from index_builder.reading.dates import dates, first_date


def test_dates_in_each_written_form_with_their_spans():
    text = "effective as of January 5, 2024 and signed on the 5th day of March, 2023 (2022-12-31)."
    found = dates(text)
    assert [d.value for d in found] == [date(2024, 1, 5), date(2023, 3, 5), date(2022, 12, 31)]
    assert [text[d.start:d.end] for d in found] == ["January 5, 2024", "5th day of March, 2023", "2022-12-31"]


def test_impossible_dates_and_lower_case_months_are_not_dates():
    assert dates("on February 30, 2024 or march 3, 2024") == []
    assert first_date("February 30, 2024, then April 1, 2024") == date(2024, 4, 1)
    assert first_date("within 30 days") is None
