"""Session 13, lead: a reason that names one of the document's names names the same one in every server
process (the first in the order the pane sends them, not a set's order, which follows the hash seed)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from addin_server.draft.parts_result import Context
from addin_server.draft.parts_terms import renamed_in_part

# drafting-m (spent), m-conform-01-b1: the clause carried into a document whose parties are Company and Partner,
# its parties renamed in the operative sentences and left in the cross-references.
CLAUSE = ("In addition, PaperExchange shall not now or in the future contest the validity of VerticalNet's "
          "Intellectual Property. Except for claims under Sections 12.4 [Indemnification by PaperExchange] and 12.5 "
          "[Indemnification by VerticalNet] hereof, neither party may bring a claim more than two years after the "
          "cause of action accrues. In addition, VerticalNet shall not now or in the future contest the validity of "
          "PaperExchange's Intellectual Property.")
DRAFT = ("In addition, Partner shall not now or in the future contest the validity of Company's intellectual "
         "property. Except for claims under Sections 12.4 [Indemnification by PaperExchange] and 12.5 "
         "[Indemnification by VerticalNet] hereof, neither party may bring a claim more than two years after the "
         "cause of action accrues. In addition, Company shall not now or in the future contest the validity of "
         "Partner's intellectual property.")
TERMS = ("Indemnification",)
ROOT = Path(__file__).resolve().parents[2]


def test_the_name_a_reason_gives_is_the_first_the_document_sends() -> None:
    assert "uses Partner elsewhere" in renamed_in_part(CLAUSE, DRAFT, Context(("Partner", "Company"), TERMS))
    assert "uses Company elsewhere" in renamed_in_part(CLAUSE, DRAFT, Context(("Company", "Partner"), TERMS))


def test_the_reason_is_the_same_under_every_hash_seed() -> None:
    code = ("from addin_server.draft.parts_result import Context\n"
            "from addin_server.draft.parts_terms import renamed_in_part\n"
            f"print(renamed_in_part({CLAUSE!r}, {DRAFT!r}, Context(('Partner', 'Company'), {TERMS!r})))")
    said = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True,
                           env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(ROOT)}).stdout
            for seed in range(8)}
    assert len(said) == 1 and said.pop().strip()


# drafting-t (spent), t-period-03: the ask names the clause's five-year blocks (to be cut to two) in the clause's own
# unit; the operation replaces them, so the five years did not stay, whatever the figure check counts.
RENEWAL = ("Upon expiration of the Initial Term of this Agreement, this Agreement will automatically renew for "
           "additional, successive five (5) year periods unless either Party provides the other Party written notice "
           "of its desire to terminate at least one hundred twenty (120) days prior to the end of the Initial Term or "
           "any renewal.")
MEMO = ("Accrual memo - contract commitments (finance controller)\nThe renewal clause rolls the agreement over for "
        "five-year blocks. Auditors want commitments we can measure; a five-year auto-commitment should not run "
        "unreviewed. Request to Legal: renewal blocks of two (2) years instead. The 120-day notice is fine and stays.")


def test_a_figure_the_operation_replaced_in_the_clauses_own_unit_is_never_said_to_stay() -> None:
    from addin_server.draft.checks import DraftTask
    from addin_server.draft.router import DraftRouter

    drafted = DraftRouter(None).draft(DraftTask(RENEWAL, MEMO, (), ("Initial Term",), ("Party",)))
    assert "two (2) year periods" in drafted.result.verified.text
    five = next(p for p in drafted.parts if p["kind"] == "period" and p["label"] == "5 years")
    assert five["status"] != "done" and "stays" not in five["reason"]
