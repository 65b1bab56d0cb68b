"""Real /conform answers for the pane screenshots (tests/js/fixtures/conform-screens.mjs).

    python -m precedent_bench.conform.screens_data > tests/js/fixtures/conform-answers.json

The open document is the Common Paper Independent Contractor Agreement (the paragraphs in
tests/js/fixtures/documents/contractor-agreement.json), read by the server's reader as POST
/api/v1/document reads what the pane sends ("document"; "check": Check document's answer on
it with a reference to a missing section planted in 9.3); the precedents are clauses of the
Common Paper Pilot Agreement and of the contractor agreement itself, conformed by
addin_server/conform exactly as POST /api/v1/conform does.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from addin_server.conform import conform, documents, source_document
from addin_server.conform.check import check_document
from precedent_bench.conform.make_candidates import CP, clauses_of
from index_builder.reading.paragraphs import from_pane
from index_builder.settings import load_settings

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    settings = load_settings({}, {}).conform
    paragraphs = json.loads((ROOT / "tests/js/fixtures/documents/contractor-agreement.json").read_text())
    read = documents.read(from_pane(paragraphs))
    target = read.document
    planted = [dict(p, text=p["text"].replace("Contractor may not assign", "Except under Section 14.2, Contractor may not assign"))
               if p["listString"] == "9.3" else p for p in paragraphs]
    checked = documents.read(from_pane(planted))
    # The screenshot's document: three errors planted (an undefined term, a missing section, a second definition).
    three = [dict(p, text=f"{p['text']} This cap does not apply to Increased Claims.") if p["listString"] == "8.2"
             else dict(p, text=f"{p['text']} \u201cServices\u201d means any work Contractor does.") if p["listString"] == "9.6"
             else p for p in planted]
    checked_three = documents.read(from_pane(three))
    pilot = clauses_of(f"{CP}/common-paper-pilot-agreement.docx")
    own = clauses_of(f"{CP}/common-paper-independent-contractor-agreement.docx")
    precedent = next(c for c in pilot if c.section == "1.7")  # Reservation of Rights: parties, terms, two references
    same = next(c for c in own if c.section == "9.3")  # Assignment: already in the document's terms
    answers = {"document": documents.profile_json(read),
               "check": {"findings": check_document(checked.paragraphs, checked.document),
                         "profile": documents.profile_json(checked)},
               "check_three": {"findings": check_document(checked_three.paragraphs, checked_three.document),
                               "profile": documents.profile_json(checked_three)}}
    for name, clause, doc, overrides in (
            ("default", precedent, pilot, {}),
            ("edited", precedent, pilot, {"Provider": "Consultant", "Customer": ""}),
            ("nothing", same, own, {})):
        result = conform(clause.text, source_document(doc), target, settings, overrides).to_json()
        result.update(clause_id=clause.clause_id, source={"citation": clause.citation(), "doc_id": clause.doc_id},
                      precedent_text=clause.text, heading=clause.heading, section=clause.section,
                      document_title=clause.doc_title)
        answers[name] = result
    # A redraft grounded on the pilot clause, as a model writes it from that precedent (the words
    # are the precedent's own), conformed as the pane asks after Redraft: POST /conform with "text".
    draft = ("Except for the limited license to install and use Software in Section 1.2 (License), Provider "
             "retains all right, title, and interest in and to the Product [1]. Customer retains all right, "
             "title, and interest in and to the Customer Content, and Provider may use it only to provide the "
             "Product to Customer.")
    for name, overrides in (("draft", {}), ("draft_edited", {"Provider": "Consultant", "Customer": "Company"}),
                            ("draft_kept", {"Provider": "", "Customer": ""})):
        result = conform(draft, source_document(pilot), target, settings, overrides).to_json()
        result.update(clause_id=precedent.clause_id, source={"citation": precedent.citation(), "doc_id": precedent.doc_id},
                      draft=draft, document_title=precedent.doc_title, section=precedent.section, heading=precedent.heading)
        answers[name] = result
    json.dump(answers, sys.stdout, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
