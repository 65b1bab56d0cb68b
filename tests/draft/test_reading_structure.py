"""Session 4 reading classes: instructions read by structure, checks that abstain where they cannot
read, and the possessive and figure readers in the core (one home each).

The wordings are written for these tests (not the drafting sets' answer key) so each pins a class
of reading, not one task.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, added_elsewhere, run_checks
from addin_server.draft.instruction import read_instruction
from addin_server.draft.support import features, score_support
from index_builder.model import Clause
from index_builder.reading import binding
from index_builder.reading import figures as F


def parts(instruction: str, clause: str = "", parties: tuple[str, ...] = ()) -> list[tuple[str, dict]]:
    return [(p.kind, p.params) for p in read_instruction(instruction, clause, parties).parts]


def failed(task: DraftTask, answer: str) -> dict[str, str]:
    return {r.name: r.reason for r in run_checks(task, answer) if r.passed is False}


# --- the instruction: asks, reasons, what stays -----------------------------------------------------

def test_a_statement_with_a_figure_is_a_reason_not_a_second_ask() -> None:
    read = parts("Cut the cure period to 15 days - we cannot wait around for a month. [2] manages with 15.")
    assert [k for k, _ in read] == ["period"]
    assert read[0][1]["value"] == 15


def test_a_figure_judged_before_the_ask_is_the_old_value() -> None:
    read = parts("Five days' notice is not enough for a price change; please make it twenty days.")
    assert [k for k, _ in read] == ["period"]
    assert read[0][1]["value"] == 20 and read[0][1]["old"] == 5


def test_same_figures_stay_and_a_wish_is_still_an_ask() -> None:
    assert [k for k, _ in parts("Simplify this please. Same two-year tail, same 90-day look-back.")] == ["plain"]
    # A subject with a verb of wanting asks: "we need 45 days" is a period, not a reason.
    assert "period" in [k for k, _ in parts("We need 45 days to cure, not 30.")]


def test_a_carve_out_is_named_by_its_reach_not_by_where_it_comes_from() -> None:
    read = parts("(b) a de minimis shareholding carve-out like (ii) of [1];")
    assert read == [("carve_out", {"precedent": 1, "phrase": "de minimis shareholding"})]
    read = parts("carve out each party's own fraud - cf. the Seller carve-back in [2]")
    assert [k for k, _ in read] == ["carve_out"]
    assert read[0][1]["phrase"] == "each party's own fraud" and read[0][1]["precedent"] == 2


def test_a_reason_after_a_dash_is_not_the_carve_outs_reach() -> None:
    read = parts("Add the subsidiary carve-out - we have to be able to move the contract inside the group. "
                 "Take the wording from [1].")
    assert read == [("carve_out", {"precedent": 1, "phrase": "subsidiary"})]


# --- checks that abstain where they cannot read ----------------------------------------------------

PRECEDENT = "Neither party shall be liable for indirect or consequential damages."
CLAUSE = ("Except as provided in Section 9.3, neither party shall be liable for lost profits. "
          "The parties have agreed these limits.")


def test_a_section_the_lawyer_names_is_not_a_figure_the_precedent_must_give() -> None:
    sentence = "This Section 9.1 does not apply to either party's fraud."
    assert not features(sentence, "A party's fraud is not limited by this Agreement.", CLAUSE).amount
    # A reference of the precedent's own kind given as another number is a changed one.
    assert features("Section 4.2 governs any dispute.", "Section 8.2 governs any dispute.").missing_amount == "Section 4.2"


def test_counts_leave_out_places_and_keep_every_other_number() -> None:
    assert [f.value for f in F.counts("Deliver five copies under Section 7.2 and Article 3.")] == [5.0]
    assert F.references("Sections 16.2 and § 5 of Exhibit 2") == [("section", "16.2"), ("section", "5"), ("exhibit", "2")]


def test_capitals_and_figure_words_name_no_party() -> None:
    precedent = "EACH PARTY'S LIABILITY SHALL NOT EXCEED $500,000."
    sentence = "NEITHER PARTY SHALL BE LIABLE FOR MORE THAN FIVE HUNDRED THOUSAND DOLLARS ($500,000) IN THE AGGREGATE."
    assert not features(sentence, precedent, "NEITHER PARTY SHALL BE LIABLE IN THE AGGREGATE FOR MORE THAN THE FEES.").party


def test_a_hyphenated_party_of_the_lawyers_clause_is_known() -> None:
    own = "Inventions made jointly by employees of Acme and Beta-Gen belong jointly to Acme and Beta-Gen."
    sentence = "Each of Acme and Beta-Gen may use the Joint Inventions without the consent of the other."
    precedent = "Each party may use the joint inventions without the consent of the other party."
    assert not features(sentence, precedent, own).party


def test_the_lawyers_own_sentence_with_the_precedents_point_is_backed() -> None:
    own = ("Licensee may not appoint any sub-distributor in the Territory. Make it need Licensor's consent, "
           "not to be unreasonably withheld, as in [1]")
    sentence = ("Licensee may not appoint any sub-distributor in the Territory without Licensor's consent "
                "(which will not be unreasonably withheld or conditioned).")
    assert score_support(sentence, "(which will not be unreasonably withheld or conditioned)", own).supported


def test_figure_words_and_neither_are_not_added_substance() -> None:
    clause = ("(a) Except as provided in Section 4, each party's total liability for all claims under this "
              "Agreement will not be more than the Cap Amount.")
    sentence = ("(a) Except as provided in Section 4, neither party's total liability for all claims under this "
                "Agreement will exceed three million U.S. dollars ($3,000,000).")
    ins = read_instruction("cap: a flat $3m like [1] instead of the Cap Amount", clause)
    assert added_elsewhere(sentence, "THE LIABILITY OF EACH PARTY SHALL NOT EXCEED $3,000,000.", clause, ins) == ""


def test_a_term_the_clause_writes_so_is_the_lawyers_own() -> None:
    clause = "For twelve (12) months after Expiry the Supplier shall keep the Records."
    task = DraftTask(clause, "make it six months", document_terms=("Records",), document_parties=("Supplier",))
    got = failed(task, "For six (6) months after Expiry the Supplier shall keep the Records.")
    assert "defined_terms" not in got
    task = DraftTask(clause, "make it six months", document_terms=("Records",), document_parties=("Supplier",),
                     precedents=(Clause("p1", "Once Supplier's term ends, it keeps them.", {}),))
    got = failed(task, "Once Supplier's obligations end, for six (6) months after Expiry the Supplier shall keep "
                       "the Records.")
    assert "defined_terms" not in got


# --- possessives: one reading in the core ----------------------------------------------------------

def test_possessives_are_read_by_the_core() -> None:
    text = "Licensee's own costs and NCM's gross negligence; Licensee shall pay."
    assert binding.owners(text) == [(0, "Licensee"), (25, "NCM")]
    assert binding.possessive_phrases(text) == ["Licensee's own costs", "NCM's gross"]
    assert binding.owned_by(text, "NCM", r"(?:gross\s+)?negligen\w*").group(0) == "NCM's gross negligence"
    assert binding.word_after("so that Dova's marks are safe", "Dova") == "marks"
    assert binding.without_names("Dova's marks and Valeant", ["Dova", "Valeant"]).split() == ["marks", "and"]
