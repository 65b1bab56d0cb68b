"""Session 12 (additions12b): a "not" of a verb of restraint is a permission, as the precedent words it.

Fixture: the spent drafting-e task e-carve_out-08 (the sound paraphrase's cited sentence and its precedent).
"""

from addin_server.draft import support as S

PRECEDENT = ("In addition, Provider may collect and analyze Usage Data, and Provider may freely use Usage Data to "
             "maintain, improve, enhance, and promote Provider’s products and services without restriction or "
             "obligation. However, Provider may only disclose Usage Data to others if the Usage Data is aggregated "
             "and does not identify Customer or Users.")
CLAUSE = ("Unless the Cover Page identifies Training Data and Training Purposes, Provider may not use Customer's "
          "Inputs or Outputs to Train any Model.")


def test_does_not_stop_from_is_a_permission():
    sentence = ("This does not stop Provider from using Usage Data to Train a Model, provided the Usage Data is "
                "aggregated and does not identify Customer or Users.")
    assert S.score_support(sentence, PRECEDENT, CLAUSE).supported


def test_a_restraint_is_a_not_and_a_pair_of_them_one():
    assert S._negations("Employee is prevented from soliciting") == 1
    assert S._negations("Nothing shall stop Smith from appearing") == 2
    assert S._negations("Nothing herein shall prohibit or restrict any Seller from owning") == 2
    # "prohibited" is already a limiting word: not counted twice.
    assert S._negations("Seller is prohibited from owning") == 1


def test_a_restraint_put_in_still_turns_the_sentence():
    sentence = "Provider is prevented from using Usage Data to maintain and improve its products and services."
    assert not S.score_support(sentence, PRECEDENT, CLAUSE).supported
