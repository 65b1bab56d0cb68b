"""The parts of a limitation of liability beside its caps (reading/limitations.py)."""

from index_builder.reading.caps import caps
from index_builder.reading.limitations import carve_out, consequential_exclusion, super_cap


def test_carve_outs_as_lawyers_write_them_with_their_span() -> None:
    for text, words in (
        ("Except for breach of Section 9, each party's liability shall not exceed $1,000,000.", "Except for"),
        ("Each party's liability shall not exceed the fees, excluding liability for fraud.", "excluding liability"),
        ("This limitation shall not apply to claims for infringement of damages.", "shall not apply to"),
        ("Nothing in this Agreement limits either party's liability for fraud.", "Nothing in this Agreement limits"),
    ):
        span = carve_out(text)
        assert span and text[span[0]:span[1]] == words, text
    # not about liability; a savings statement that yields to law
    assert carve_out("Except for the Holidays, the Supplier shall deliver weekly.") is None
    assert carve_out("Nothing in this Agreement will limit a party's liability to the extent prohibited by "
                     "Applicable Laws.") is None


def test_consequential_exclusion_needs_the_loss_and_its_exclusion() -> None:
    text = "In no event will either party be liable for any indirect or consequential damages."
    span = consequential_exclusion(text)
    assert span and text[span[0]:span[1]] in ("indirect", "consequential")
    assert consequential_exclusion("Supplier is liable for consequential damages caused by its negligence.") is None


def test_a_super_cap_named_or_read_from_two_caps() -> None:
    text = ("Each party's total liability shall not exceed $1,000,000; provided that each party's liability for "
            "breach of Section 9 (Data Protection) shall not exceed $5,000,000.")
    found = caps(text)
    span = super_cap(text, found)
    assert span and "Section 9" in text[span[0]:span[1]]
    per_claim = "Supplier's liability shall not exceed USD 2 million per claim and USD 5 million in the aggregate."
    assert super_cap(per_claim, caps(per_claim)) is None
    assert super_cap("The Increased Cap Amount applies to Increased Claims.", []) is not None
