"""Session 12 (cite12): a marker placed inside a sentence claims the phrase it closes.

Fixture: the spent drafting-n task n-period-02 (a records clause, a precedent on how long records are kept):
the broken draft cites [1] for "at the requesting party's cost", which [1] never says; the sound draft cites
[1] mid-sentence for the five-year period, which it does say.
"""

from addin_server.draft import support_phrase as S

PRECEDENT = ("CAPSUGEL agrees to retain all such Records for a period of five (5) years after the expiration of the "
             "Term or after termination of this Agreement")
CLAUSE = ("For a period of not less than two (2) years after the date of termination, each party shall maintain, and "
          "make available to the other party upon its request, for inspection and copying all books and records that "
          "pertain to performance of and compliance with obligations, warranties and representations under this "
          "Agreement.")
ASK = "Take the retention to five years after termination, as the supply agreement at [1] does."
LAWYER = CLAUSE + " " + ASK


def test_a_thing_the_precedent_never_says_in_the_cited_phrase_is_named():
    sentence = ("For a period of not less than five (5) years after the date of termination, each party shall maintain, "
                "and make available to the other party upon its request, at the requesting party's cost [1], for "
                "inspection and copying all books and records.")
    assert S.phrase_cited_unsaid(sentence, 1, PRECEDENT, LAWYER) == "cost"


def test_the_cited_phrase_the_precedent_says_passes():
    sentence = ("Each party shall keep all books and records that pertain to performance of and compliance with "
                "obligations, warranties and representations under this Agreement for at least five (5) years after "
                "the date of termination [1], and shall make them available to the other party on request.")
    assert S.phrase_cited_unsaid(sentence, 1, PRECEDENT, LAWYER) == ""


def test_a_marker_at_the_end_cites_the_whole_sentence_and_is_left_to_the_score():
    sentence = "Each party shall maintain the records at the requesting party's cost [1]."
    assert S.phrase_cited_unsaid(sentence, 1, PRECEDENT, LAWYER) == ""


def test_acts_and_connectives_in_the_phrase_are_not_claims():
    # "keeping" (an act) and "within" (a connective) frame the claim; a paraphrase rewords them.
    sentence = ("Each party shall hold them within the five (5) years after termination by keeping them [1], and the "
                "records stay available.")
    assert S.phrase_cited_unsaid(sentence, 1, PRECEDENT, LAWYER) == ""
