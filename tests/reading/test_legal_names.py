"""The parties' own names and a template's blanks: read by the core, never guessed."""

from __future__ import annotations

from index_builder.reading.blanks import filled_prose, is_blank
from index_builder.reading.legal_names import legal_names

PREAMBLE = ("This Master Services Agreement is entered into as of March 3, 2021 by and between Acme Corp., a "
            "Delaware corporation (\u201cCustomer\u201d), and Beta Labs LLC, a New York limited liability company "
            "(\u201cProvider\u201d).")


def test_the_preambles_names_without_their_descriptions() -> None:
    assert legal_names(["MASTER SERVICES AGREEMENT", PREAMBLE]) == ["Acme Corp.", "Beta Labs LLC"]


def test_a_cover_rows_names_win_over_the_preamble() -> None:
    assert legal_names(["Party 1 Name: Gamma Ltd", "Party 2 Name: Delta GmbH.", PREAMBLE]) == ["Gamma Ltd", "Delta GmbH"]


def test_role_words_documents_and_blanks_are_not_names() -> None:
    assert legal_names(["This Agreement is between Customer and Provider, each a party."]) == []
    assert legal_names(["This AI Addendum is between the Agreement and this Order Form, as set out below."]) == []
    assert legal_names(["This NDA is between [Legal name of party 1] and [Legal name of party 2]."]) == []
    assert legal_names(["Party Name: {party_1_name}"]) == []
    # A worked example's names are made up.
    assert legal_names(["Name the parties (for example, between Acme Corp. and Beta LLC, as they sign)."]) == []


def test_blanks() -> None:
    assert is_blank("{governing_law}") and is_blank("____") and is_blank("TBD") and is_blank("  ")
    assert not is_blank("New York")
    assert filled_prose("governed by the laws of {state}, e.g. Delaware") == "governed by the laws of  \u2026 , "
