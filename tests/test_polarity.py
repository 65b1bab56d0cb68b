"""The one polarity reader (index_builder/reading/polarity.py): each option says what it says."""

from index_builder.reading import polarity as P


def test_negators_options_add_only_what_they_name() -> None:
    base = P.negators()
    assert {"not", "no", "never", "none", "nothing", "cannot", "neither"} == base
    assert P.negators(nor=True) - base == {"nor"}
    assert P.negators(contracted=True, failure=True) - base == {"n't", "fail", "fails", "failure", "failing"}
    assert P.negators(non=True, nobody=True) - base == {"non", "nobody"}


def test_negation_or_exception_reads_an_added_exception_and_not_a_plain_duty() -> None:
    assert P.negation_or_exception().search("Nothing in this Section prevents disclosure")
    assert not P.negation_or_exception(nothing=False).search("Nothing in this Section prevents disclosure")
    assert P.negation_or_exception(nor=True).search("nor shall it assign")
    assert not P.negation_or_exception().search("nor shall it assign")
    assert not P.negation_or_exception().search("The Supplier shall pay the fees")
    assert P.negation_or_exception(freed=True).search("the Company is free to use")


def test_exception_options() -> None:
    score = P.exception(disapplied="score", nothing_in=True, headings=True)
    assert score.search("The limits do not apply to fraud") and score.search("Exclusions")
    carve = P.exception(disapplied="carve", stems=False, conditions=True)
    assert carve.match("except as required by law") and not carve.search("an exception")
    added = P.exception(disapplied="added", save=True, nothing_in=True, permitted=True)
    assert added.search("the cap shall not apply to fraud") and added.search("save for fraud")
    assert not added.search("the cap applies to every claim")


def test_a_kept_limit_is_not_a_lifted_one() -> None:
    text = "if the claim is due to fraud, the liability cap will not be exceeded"
    assert P.keeps_limit.search(text) and not P.lifts_limit.search(text)
    assert P.lifts_limit.search("the cap shall not apply to claims for fraud")
