"""Session 11, limbs11 (issue 38): a structured message is split into its asks, and an ask no kind reads
is shown not done by the draft itself.

Fixtures are lines of the spent drafting-l tasks (their partly-done drafts were read as one unread part).
Each test fails without its rule (instruction_limbs.split: fields, points, options, dictation, headings;
parts_limbs.shown_not_done: the limb's new words, a quoted insert).
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from addin_server.draft.instruction import read_instruction
from addin_server.draft.instruction_limbs import split

# l-multi-03
CONVERG = ("During the License Term (which is identified in the Deal Terms), Producer agrees that ConvergTV has the exclusive "
           "right to exercise the rights granted to it under this Agreement with respect to the Program, including those in "
           "Section 1, within the Licensed Territory.")
LADDER = ("Point 1 - Producer's own site. Option A: no carve-out. Option B: Producer may stream the Program on its own website. "
          "Option C: B plus Producer's social media channels. -> B.\nPoint 2 - Festivals. Option A: silent. Option B: Producer "
          "may screen the Program at film festivals and industry award screenings. -> B.\nPoint 3 - Wording. Option A: keep "
          "'Producer agrees that'. Option B: state ConvergTV's exclusive right directly. -> B.")
CONVERG_SOUND = ("ConvergTV has the exclusive right, during the License Term (identified in the Deal Terms) and within the Licensed "
                 "Territory, to exercise the rights granted to it under this Agreement with respect to the Program, including "
                 "those in Section 1; however, Producer may stream the Program on its own website and may screen it at film "
                 "festivals and industry award screenings.")
CONVERG_NO_FESTIVALS = ("During the License Term (which is identified in the Deal Terms), ConvergTV has the exclusive right to "
                        "exercise the rights granted to it under this Agreement with respect to the Program, including those in "
                        "Section 1, within the Licensed Territory, except that Producer may stream the Program on Producer's own "
                        "website.")
# l-multi-06
PRC = ("This Agreement shall be governed by and interpreted pursuant to the laws of the People's Republic of China that are "
       "promulgated and are publicly available, provided that the general international business practices shall apply if "
       "the laws of the People's Republic of China that are promulgated and are publicly available do not involve any matter "
       "in relation to this Agreement.")
MARKUP = ("From the marked-up print-out, governing law page:\np. 14, ll. 3-7 - margin: 'plain English pls - who reads "
          "\"promulgated\"?'\np. 14, l. 5 - handwritten insert after the first 'publicly available': 'without reference to "
          "conflict-of-laws principles (cf. the Texas deal [1])'\nNo other marks on the page.")
PRC_SOUND = ("The published, publicly available laws of the People's Republic of China govern this Agreement and its "
             "interpretation, without reference to their conflicts of law principles [1]. Where those laws do not deal with a "
             "matter relating to this Agreement, general international business practices apply.")
PRC_NO_INSERT = ("This Agreement is governed by and interpreted under the laws of the People's Republic of China that have been "
                 "published and are publicly available. If those laws do not deal with a matter relating to this Agreement, "
                 "general international business practices apply.")


def _instruction(clause: str, ask: str, draft: str) -> str:
    return next(c for c in check_draft(DraftTask(clause, ask), draft).checks if c.name == "instruction").status


def test_an_options_ladder_asks_only_for_the_chosen_option() -> None:
    said = split(LADDER)
    assert "social media" not in said and "silent" not in said and "'Producer agrees that'" not in said
    assert said.count("(") >= 3 and "(2) Producer may screen the Program at film festivals" in said


def test_each_point_of_a_ladder_is_a_part_of_its_own() -> None:
    parts = read_instruction(LADDER, CONVERG, ("Producer", "ConvergTV")).parts
    assert len(parts) >= 3
    assert any("festivals" in p.text and "website" not in p.text for p in parts)


def test_a_limb_whose_new_words_the_draft_lacks_is_not_done() -> None:
    assert _instruction(CONVERG, LADDER, CONVERG_NO_FESTIVALS) == "failed"
    assert _instruction(CONVERG, LADDER, CONVERG_SOUND) != "failed"


def test_a_quoted_insert_the_draft_has_no_word_of_is_not_done() -> None:
    assert _instruction(PRC, MARKUP, PRC_NO_INSERT) == "failed"
    assert _instruction(PRC, MARKUP, PRC_SOUND) != "failed"


def test_a_decision_log_drops_rationale_and_owner() -> None:
    # l-multi-01
    log = ("DECISION LOG - assignment clause\nDecision 1: Affiliates - free transfer. A Party may move its rights or obligations "
           "to its Affiliates without anyone's consent, modelled on [1] limb (a). Rationale: group reorganisations are routine "
           "for all three Parties. Owner: drafting.\nDecision 2: Consent standard. Where consent is still needed, it may not be "
           "refused, made conditional or held up unreasonably. Rationale: an absolute veto was never the commercial intent. "
           "Owner: drafting.\nThe trailing 'except as follows' and the list after it are not touched.")
    said = split(log)
    assert "Rationale" not in said and "Owner" not in said and "DECISION LOG" not in said
    assert "(1) Affiliates - free transfer" in said and "(2) Consent standard" in said
    assert said.endswith("The trailing 'except as follows' and the list after it are not touched.")


def test_a_checklist_row_keeps_only_the_fields_that_ask() -> None:
    # l-conform-01
    row = ("CLOSING CHECKLIST - item 14 | Document: Software License Agreement (Common Paper form) | Action: carry across the "
           "sublicensing restriction from the SINA licence | Responsible: associate | Status: OPEN | Comment: Licensee = Customer")
    assert split(row) == "(1) carry across the sublicensing restriction from the SINA licence; (2) Licensee = Customer"


def test_dictation_reads_its_spoken_punctuation() -> None:
    # l-multi-05
    said = split("Dictation, para two point twenty. Point one colon add a little d, any other supplier while Sutro can't "
                 "supply Extract full stop. Point two colon the deemed material breach only bites if it isn't cured within "
                 "thirty days after notice comma the way [1] puts its cure period full stop. Ends.")
    assert "(1) add a little d, any other supplier while Sutro can't supply Extract." in said
    assert "(2) the deemed material breach only bites if it isn't cured within thirty days after notice, the way" in said


def test_typed_text_that_says_full_stop_once_is_not_dictation() -> None:
    ask = "Insert a full stop after 'Territory' and delete the rest of the sentence."
    assert split(ask) == ask


def test_a_quote_of_what_someone_said_is_no_insert() -> None:
    # j-shorten-02: the ops lead's words are the case made; the sound shortened draft has none of them.
    from addin_server.draft.instruction import Part
    from addin_server.draft.parts_limbs import shown_not_done
    clause = ("Network Affiliate shall maintain with financially sound and reputable insurance companies insurance on the "
              "Theatres and the Equipment in such amounts and against such perils as Network Affiliate deems adequate for its "
              "business.")
    draft = "Network Affiliate shall insure the Theatres and the Equipment with sound insurers, as it deems adequate."
    part = Part("other", 'Ops lead\'s comment on the draft: "Nobody on site will read this."')
    assert shown_not_done(part, clause, draft) == ""
    insert = Part("other", "handwritten insert after the first 'publicly available': 'without reference to conflict-of-laws "
                           "principles'")
    assert shown_not_done(insert, PRC, PRC_NO_INSERT) and not shown_not_done(insert, PRC, PRC_SOUND)


def test_a_dictated_number_opens_a_point() -> None:
    # j-multi-06
    said = split("Dictated, for typing: restaurant covenant full stop. One comma the post-term tail comes down to six months "
                 "full stop. Two comma the franchisee and principals may hold up to five percent of a listed company as "
                 "passive investors comma the way precedent one words it full stop. End of dictation.")
    assert "(1) the post-term tail comes down to six months." in said
    assert "(2) the franchisee and principals may hold up to five percent" in said


def test_a_tables_current_column_is_no_ask() -> None:
    # i-flip-01: "Current" is the clause as it stands; "Rationale" why; only "Proposed" asks.
    table = ("Current | Proposed | Rationale\nErchonia may assign to an asset buyer; Distributor needs Erchonia's consent, sole "
             "discretion | Turn it round: Distributor gets the asset-buyer exception, Erchonia needs Distributor's consent "
             "(sole discretion stays) | We act for Distributor, and a buyer is circling it for next year")
    said = split(table)
    assert said.startswith("(1) Turn it round") and "Erchonia may assign" not in said and "circling" not in said
