"""Session 13, ops13 (issue 38): an operation's account says what it did and did not do.

Fixtures are the spent drafting-o tasks the blind review found wrong at main 49a3da4 (o-multi-02,
o-period-01). Each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask
from addin_server.draft.instruction import read_instruction
from addin_server.draft.router import DraftRouter

# o-multi-02
RENEWAL = ("LeadersOnline shall have the option, subject to VerticalNet's approval exercised in its sole and absolute "
           "discretion, to extend the Term of this Agreement for an additional 12 months (a \"Renewal Term\") on such "
           "terms and conditions as may be mutually agreed upon by the Parties.")
LEVERS = ("Account plan, VerticalNet relationship (owner: partnerships), section 'Contract levers': \"Today only "
          "LeadersOnline can propose a renewal; we want VerticalNet able to propose one too, on the same footing (the "
          "other side's approval, at its sole and absolute discretion). And a one-year renewal does not give us time to "
          "recoup onboarding; make the renewal term 24 months.\" Terms of any renewal still to be agreed.")
RENEWAL_PARTIES = ("LeadersOnline", "VerticalNet", "Parties")
# o-period-01
MATCHING = ("Notwithstanding the foregoing, Excite may make available opportunities on the Excite Site to purchase Music "
            "Products from parties other than Sponsor if such Music Products are not available from Sponsor so long as, "
            "prior to entering into arrangements to make available opportunities to purchase Music Products from parties "
            "other than Sponsor, Excite notifies Sponsor of its interest in the Music Products and gives Sponsor thirty "
            "(30) days to make the desired Music Products available through the Sponsor Site.")
WINDOW = ("Excite wants its Music Products window back. Sponsor's matching window 30 -> 15 days. Notice to Sponsor first, "
          "as now; the 'not available from Sponsor' condition stays. #ExciteSponsor #matchingright #15days")


def _drafted(clause: str, instruction: str, parties: tuple[str, ...], terms: tuple[str, ...]):
    return DraftRouter(None).draft(DraftTask(clause, instruction, (), terms, parties))


def test_the_party_bound_too_is_one_the_clause_does_not_bind_yet() -> None:
    # "Today only LeadersOnline can propose": the state of things, not the party to bind.
    ins = read_instruction(LEVERS, RENEWAL, RENEWAL_PARTIES)
    mutual = next(p for p in ins.parts if p.kind == "mutual")
    assert mutual.params.get("named") == "VerticalNet"


def test_an_ask_the_operation_declined_is_never_shown_done() -> None:
    drafted = _drafted(RENEWAL, LEVERS, RENEWAL_PARTIES, ("Term", "Renewal Term"))
    assert drafted.producer == "operation" and "24 months" in drafted.result.verified.text
    said = {p["kind"] + ":" + p["label"]: p for p in drafted.parts}
    mutual = next(p for k, p in said.items() if k.startswith("mutual"))
    assert mutual["status"] == "not_done"
    instruction = next(c for c in drafted.checks if c.name == "instruction")
    assert instruction.passed is False


def test_a_figure_the_operation_replaced_is_never_said_to_stay() -> None:
    # "a one-year renewal does not give us time": the clause's 12 months, changed to 24, did not stay.
    drafted = _drafted(RENEWAL, LEVERS, RENEWAL_PARTIES, ("Term", "Renewal Term"))
    year = next(p for p in drafted.parts if p["kind"] == "period" and p["label"] == "1 year")
    assert year["status"] != "done" and "stays" not in year["reason"]


def test_an_ask_found_already_done_is_not_failed_on_the_same_words() -> None:
    # "Excite wants its window back": the clause gives Excite the right; the operation changes nothing for it,
    # and the account does not call it partly moved.
    drafted = _drafted(MATCHING, WINDOW, ("Excite", "Sponsor"), ("Excite Site", "Music Products", "Sponsor Site"))
    assert "fifteen (15) days" in drafted.result.verified.text
    flip = next(p for p in drafted.parts if p["kind"] == "flip")
    assert flip["status"] == "unchecked"
    checks = {c.name: c.passed for c in drafted.checks}
    assert checks["instruction"] is None and checks["changed"] is not False


def test_the_account_never_claims_an_ask_the_operation_declined() -> None:
    # The check may read the clause as it stood as doing the ask (a party it already binds); nobody did it.
    from addin_server.draft.parts_result import PartResult
    from addin_server.draft.router import _parts

    ins = read_instruction(LEVERS, RENEWAL, RENEWAL_PARTIES)
    i = next(n for n, p in enumerate(ins.parts) if p.kind == "mutual")
    results = [PartResult(p, "done", "as asked.") for p in ins.parts]
    rows = _parts(results, ins, [], {}, {i: "The operation could not do it reliably."}, "operation", False,
                  "auto")
    assert rows[i]["status"] == "not_done" and rows[i]["reason"].startswith("The operation could not")


def test_a_kept_figure_still_in_the_draft_stays() -> None:
    # f-period-08: Customer's 45 days becomes 90; Provider's 45 days is still there, and stays.
    clause = ("If Provider breaches the warranty in Section 6.3(c), Customer must give Provider notice within 45 days of "
              "discovering the issue. Within 45 days of receiving sufficient details of the warranty issue, Provider will "
              "reperform the Services.")
    ask = "Customer's 45 days to report should be 90. Provider's 45 days to reperform stays where it is."
    drafted = _drafted(clause, ask, ("Provider", "Customer"), ())
    kept = [p for p in drafted.parts if p["kind"] == "period" and p["label"] == "45 days"]
    assert "within 90 days" in drafted.result.verified.text and kept and kept[0]["status"] == "done"
