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
