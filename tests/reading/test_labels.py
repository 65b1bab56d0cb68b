"""A clause's label (reading/labels.py): number, run-in heading, where its words begin, capitals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from index_builder.reading.labels import clause_label

FIXTURE = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "label-readings.json"


@pytest.mark.parametrize("text, heading, number, head, body", [
    ("12.1 Cap on liability. Subject to clause 12.3, fees apply.", "", "12.1", "Cap on liability", "Subject to clause 12.3"),
    ("Notices. All notices shall be in writing.", "", "", "Notices", "All notices"),
    ("(b) the Customer shall pay.", "", "(b)", "", "the Customer"),
    ("Time is of the essence. The parties agree.", "", "", "", "Time is"),  # a sentence, not a heading
    ("Section 3.5 Fees. The Customer shall pay the fees set out in Section 3.5.", "", "Section 3.5", "Fees", "The Customer"),
    ("Liability cap: The Supplier's liability is capped.", "", "", "Liability cap", "The Supplier"),
    ("CONFIDENTIALITY \u2014 Each party shall keep it secret.", "", "", "CONFIDENTIALITY", "Each party"),
    ("LIMITATION OF LIABILITY. IN NO EVENT SHALL EITHER PARTY BE LIABLE.", "", "", "LIMITATION OF LIABILITY", "IN NO EVENT"),
    # The index's heading is trusted over the words' shape (a sentence-case heading with a verb-like word).
    ("Termination for convenience may apply. Either party may end it.", "Termination for convenience may apply", "", "Termination for convenience may apply", "Either party"),
    ("The Supplier shall pay the fees. The Customer shall not.", "", "", "", "The Supplier"),
])
def test_number_heading_and_body(text: str, heading: str, number: str, head: str, body: str) -> None:
    label = clause_label(text, heading)
    assert (label.number, label.heading) == (number, head)
    assert text[label.body:].startswith(body)


def test_capitals_and_where_its_sentences_start() -> None:
    text = "9. LIMITATION OF LIABILITY. THE SUPPLIER'S LIABILITY IS CAPPED AT USD 1,000,000. SECTION 3.5 DOES NOT APPLY."
    label = clause_label(text)
    assert label.capitals and label.heading == "LIMITATION OF LIABILITY"
    starts = label.to_dict()["sentences"]
    assert [text[s:s + 12] for s in starts] == ["THE SUPPLIER", "SECTION 3.5 "]  # not cut at "3."
    plain = clause_label("The Supplier's liability is capped at USD 1,000,000. It is final.")
    assert not plain.capitals and "sentences" not in plain.to_dict()
    assert not clause_label("NDA").capitals  # too few letters to say


def test_the_pane_tests_canned_readings_are_the_readers_answers() -> None:
    """tests/js/fixtures/label-readings.json (the fake server's `reading`s): regenerate it with
    `python tests/js/fixtures/label_readings.py` when the reader changes."""
    for entry in json.loads(FIXTURE.read_text(encoding="utf-8")):
        assert entry["reading"] == clause_label(entry["text"], entry["heading"]).to_dict(), entry["text"][:60]
