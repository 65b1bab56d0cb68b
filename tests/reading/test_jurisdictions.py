"""One list of places for Compare terms and the index's facets (reading/jurisdictions.py)."""

from __future__ import annotations

import pytest

from index_builder.ingest.metadata import governing_law
from index_builder.terms import extract


@pytest.mark.parametrize("sentence, place", [
    ("This Agreement is governed by the laws of the Province of Quebec.", "Quebec"),
    ("This Agreement is governed by the laws of Israel.", "Israel"),
    ("Governing law: the laws of the Netherlands", "Netherlands"),
    ("This Agreement is governed by the laws of the State of New York.", "New York"),
])
def test_terms_and_facets_read_the_same_place(sentence: str, place: str) -> None:
    if not sentence.startswith("Governing law:"):  # a cover-page row is the facets' own reading
        assert [t.value for t in extract(sentence).terms if t.type == "governing_law"] == [place]
    assert governing_law([sentence]) == place


def test_both_phrasings_of_a_choice_of_law_are_read_by_both() -> None:
    # one phrasing only Compare terms read, one only the facets read, before they shared a reader
    for sentence in ("This Agreement shall be governed by and construed pursuant to the laws of the State of Indiana.",
                     "This Agreement shall be governed and construed in accordance with the laws of the State of Texas."):
        place = "Indiana" if "Indiana" in sentence else "Texas"
        assert [t.value for t in extract(sentence).terms if t.type == "governing_law"] == [place]
        assert governing_law([sentence]) == place
