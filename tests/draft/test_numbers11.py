"""Session 11 (issue 38): every number in a draft has a source.

A careful lawyer accepts no number in a draft that neither the clause, the instruction, the lawyer's
document nor a cited precedent gives, and no clause number changed in value that the instruction does not
ask to change: dates, counts and figures alike. Fixtures are lines of spent drafting tasks (drafting-j);
each test fails without its rule.
"""

from __future__ import annotations

from addin_server.draft.checks import DraftTask, check_draft
from index_builder.reading.figures import mentions, number_keys

TERM = ('The term of this JSMA shall commence on May 1, 2020 (the "Commencement Date") and ends at April 30, 2029 '
        '(the "Term"), with automatic renewals each for a period of five (5) years (a "Renewal Term") unless notice '
        'is given pursuant to 5.2.')
PINS = ("The total number of Pin Codes to be distributed as prizes in the Promotion shall not exceed: (i) 277,760 Pin "
        "Codes containing three (3) music downloads per Pin Code ; (ii) 130,300 Pin Codes containing five (5) music "
        "downloads per Pin Code. Such a consumer will receive free MP3 song downloads having a retail value of $1.29 "
        "per song or less. No Designated Sponsor Product shall contain more than 1 Pin Code per pack.")
HOURLY = ("Notwithstanding any other provision of this agreement, the non-compete restriction does not apply to "
          "Employee if Employee's annualized compensation is less than $70,000. For an hourly employee it is calculated "
          "by multiplying the hourly rate by forty and multiplying the product by fifty-two.")
CREDITS = ("Service Credits may not be exchanged for, or converted to, monetary amounts. Service Credits do not earn "
           "interest. Service Credits will not accumulate within a single Subscription Period in an amount more than 8% "
           "of Cloud Service Fees for that Subscription Period.")
RECORDS = "Provider will maintain records of its compliance with this DPA for 3 years after the DPA ends."


def _checks(clause: str, ask: str, draft: str) -> dict[str, object]:
    return {c.name: c for c in check_draft(DraftTask(clause, ask), draft).checks}


def test_the_reader_gives_dates_counts_and_figures_and_not_references_markers_or_limbs() -> None:
    found = {(m.kind, m.text) for m in mentions(TERM + " [1] (2) Sections 6.1 (a) or 6.2(b); ORS 659A.082; one party.")}
    assert ("date", "April 30, 2029") in found and ("period", "five (5) years") in found
    assert not {t for _, t in found} & {"1", "2", "5.2", "6.1", "6.2", "659", "082", "one", "2029", "30"}
    assert ("count", "130,300") in {(m.kind, m.text) for m in mentions(PINS)}
    # equivalents meet: words and digits, cents and dollars, weeks and days
    assert number_keys(mentions("fifty-two")[0]) & number_keys(mentions("52")[0])
    assert number_keys(mentions("99 cents")[0]) & number_keys(mentions("$0.99")[0])
    assert number_keys(mentions("two weeks")[0]) & number_keys(mentions("14 days")[0])
    # as clients shorten them: "3m" shares, "250 grand", "a hundred and twenty"
    assert number_keys(mentions("we need 3m")[0]) & number_keys(mentions("3 million shares")[0])
    assert number_keys(mentions("drops to 250 grand")[0]) & number_keys(mentions("$250,000")[0])
    assert number_keys(mentions("give it a hundred and twenty")[0]) & number_keys(mentions("one hundred twenty (120) days")[0])


def test_a_date_changed_that_nothing_asked_for_fails_meaning_and_says_both() -> None:
    # j-period-03-b1: the renewal term was asked; the Term's end date moved with it, shown passed before.
    draft = TERM.replace("five (5)", "three (3)").replace("2029", "2026")
    meaning = _checks(TERM, "Renewal Term: make it three years.", draft)["meaning"]
    assert meaning.passed is False and "“April 30, 2029” to “April 30, 2026”" in meaning.reason


def test_a_count_changed_beside_the_asked_value_fails_meaning() -> None:
    # j-amount-02-b1 ("130,300" Pin Codes became "130,000") and j-amount-05-b1 ("fifty-two" became "fifty").
    draft = PINS.replace("$1.29", "$0.99").replace("130,300", "130,000")
    meaning = _checks(PINS, "Song value cap down to 99 cents.", draft)["meaning"]
    assert meaning.passed is False and "“130,300” to “130,000”" in meaning.reason
    draft = HOURLY.replace("$70,000", "$75,000").replace("fifty-two", "fifty")
    meaning = _checks(HOURLY, "Please set the non-compete floor at $75,000 rather than $70,000.", draft)["meaning"]
    assert meaning.passed is False and "“fifty-two” to “fifty”" in meaning.reason


def test_a_figure_no_part_names_fails_even_beside_an_unread_part() -> None:
    # j-carve_out-04-b1: the part was not read, but it writes no 10%: it cannot have asked for it.
    ask = ("Term sheet, item 7 (Service Credits): credits turn into cash in one case only - Customer walks because "
           "Provider breached; then Provider pays out whatever credits are still live. The 8% cap is not reopened.")
    draft = CREDITS.replace("monetary amounts.", "monetary amounts, except that if Customer terminates because of "
                            "Provider's breach, Provider will refund the value of unexpired Service Credits.")
    sound = _checks(CREDITS, ask, draft)
    assert sound["meaning"].passed is not False and sound["additions"].passed is not False
    meaning = _checks(CREDITS, ask, draft.replace("8%", "10%"))["meaning"]
    assert meaning.passed is False and "“8%” to “10%”" in meaning.reason


def test_a_bare_number_in_the_instruction_gives_the_figure_in_the_clauses_unit() -> None:
    # j-period-07-s1: "asks for 7 years ... We'll meet them at 5": "5 years" has a source (was flagged an addition).
    ask = "Customer's markup asks for 7 years of compliance records. We'll meet them at 5. Nothing else in 5.1 is open."
    additions = _checks(RECORDS, ask, RECORDS.replace("3 years", "5 years"))["additions"]
    assert additions.passed is not False


def test_a_number_worked_out_by_arithmetic_is_said_never_failed() -> None:
    # An escalation: 1,500,000 x 1.03 is not a number the core can prove; the lawyer checks it. The same
    # number beside an ask that works nothing out has no source.
    clause = "The Fee for the first Contract Year is $1,500,000, and 1,500,000 units are included."
    draft = clause.replace("1,500,000 units", "1,545,000 units")
    worked = _checks(clause, "Add a 3% a year escalation to the Fee.", draft)
    assert worked["meaning"].passed is not False and worked["additions"].passed is not False
    added = _checks(clause, "Add a 3% surcharge to the Fee.", draft)["additions"]
    assert added.passed is False and "“1,545,000”" in added.reason


def test_a_faithful_draft_that_keeps_every_number_passes() -> None:
    draft = PINS.replace("$1.29", "$0.99")
    checks = _checks(PINS, "Song value cap down to 99 cents.", draft)
    assert checks["meaning"].passed is True and checks["additions"].passed is True


def test_a_number_a_draft_fills_in_where_the_clause_left_it_open_is_an_addition() -> None:
    # i-multi-01-b2: "specific spot length to be mutually agreed upon" became "of thirty (30) seconds"; the
    # instruction's "in the following ... markets" is no arithmetic.
    clause = ("HDS may use the Celebrity Attributes in a television commercial (specific spot length to be mutually "
              "agreed upon) aired in the following three (3) television markets: (1) Washington; (2) Florida; and (3) Texas.")
    ask = ('Mark-up: "...aired in the following [four (4)] television markets: (1) Washington; (2) Florida; '
           '[(3) Texas; and (4) California]..."')
    draft = ("HDS may use the Celebrity Attributes in a television commercial (of thirty (30) seconds) aired in the "
             "following four (4) television markets: (1) Washington; (2) Florida; (3) Texas; and (4) California.")
    additions = _checks(clause, ask, draft)["additions"]
    assert additions.passed is False and "“thirty (30)”" in additions.reason


def test_a_share_said_as_a_fraction_is_not_a_period_and_a_quarter_is_twenty_five_percent() -> None:
    # e-amount-04-s1 (sound): "a quarter, not a third": "one third (33%)" became "one quarter (25%)".
    assert [(m.kind, m.value) for m in mentions("one quarter (25%) of the gross amounts")] == \
        [("multiple", 0.25), ("percentage", 25.0)]
    assert [m.kind for m in mentions("within one quarter after the end")] == ["period"]
    clause = "Licensor shall receive from Licensee one third (33%) of the gross amounts earned by the Licensee."
    ask = "Licensor's share of the Supplemental Payments: a quarter, not a third. Mind the percentage in brackets too."
    checks = _checks(clause, ask, clause.replace("one third (33%)", "one quarter (25%)"))
    assert checks["meaning"].passed is not False and checks["additions"].passed is not False


def test_a_number_beside_the_asked_figure_pairs_with_its_own_kind() -> None:
    # g-period-08-b1: one year became the asked six months, and "thirty road miles" became "sixty" beside it.
    clause = ("If Employee is a physician, any covenant not to compete is limited to one year and thirty road miles "
              "from Employee's primary place of practice with Employer.")
    ask = "Line the duration up with the six-month non-solicitation period: so six months, down from the current one year."
    draft = clause.replace("one year and thirty", "six months and sixty")
    meaning = _checks(clause, ask, draft)["meaning"]
    assert meaning.passed is False and "“thirty” to “sixty”" in meaning.reason
