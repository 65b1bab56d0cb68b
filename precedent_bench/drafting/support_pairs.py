"""Hand-written redraft sentences against real clauses of held-out agreement families.

The rule-made labelled set (citation_support.py) restates by synonyms, reordering and
dropped words; a model rewrites more freely. These twenty sentences are written the way a
drafting model writes: ten restate the clause faithfully in other words, ten change its
meaning subtly (a dropped "not", a swapped party or document, an added period, "binding"
for "non-binding", an antonym). Each names its agreement and a phrase that finds the
clause. A small set: it shows failure modes, it does not replace the measured figures.
"""

from __future__ import annotations

SLA = "common-paper-cc-by-4.0/common-paper-software-license-agreement.docx"
DPA = "common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx"
TERM = "common-paper-cc-by-4.0/common-paper-term-sheet.docx"
RSPA = "openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx"

# (agreement, phrase in the clause, redraft sentence, 1 = the clause backs it, what changed)
PAIRS = [
    (SLA, "A Force Majeure Event does not excuse",
     "Force majeure does not relieve Customer of paying Fees that accrued before termination.", 1, ""),
    (SLA, "is the only agreement between the parties",
     "This Agreement is the parties' entire agreement on its subject and replaces all earlier or "
     "contemporaneous statements about it, written or not.", 1, ""),
    (SLA, "Provider may collect and analyze Usage Data",
     "Provider may collect, analyze and freely use Usage Data to maintain, improve and promote its "
     "products and services.", 1, ""),
    (SLA, "may not otherwise make any public announcements",
     "Provider may make no other public announcement referencing Customer unless Customer approves "
     "it in advance.", 1, ""),
    (DPA, "mutually agree to extend the Term",
     "The Term may be extended by mutual agreement of Provider and Partner, which may be given by "
     "email.", 1, ""),
    (DPA, "Confidential Information includes the existence",
     "Confidential Information covers the existence of this Agreement and everything on each Cover "
     "Page.", 1, ""),
    (TERM, "Neither of us will (a) use",
     "Neither of us will use the other's Confidential Information or disclose it to anyone else, "
     "except as applicable law requires.", 1, ""),
    (TERM, "we each will protect",
     "Each of us will protect the other's Confidential Information with at least the protections we "
     "use for our own similar information, and never less than reasonable care.", 1, ""),
    (TERM, "Final details, terms, and conditions",
     "Final terms will be as mutually agreed in a separate, binding Definitive Agreement.", 1, ""),
    (RSPA, "In the event of a conflict between this Agreement and the RSPA",
     "If this Agreement and the RSPA conflict on the mechanics of the repurchase, the RSPA governs "
     "unless this Agreement expressly provides otherwise.", 1, ""),
    (SLA, "A Force Majeure Event does not excuse",
     "A Force Majeure Event excuses Customer's obligation to pay Fees accrued prior to termination.",
     0, "dropped not"),
    (SLA, "may not otherwise make any public announcements",
     "Provider may make public announcements referencing Customer without Customer's prior "
     "approval.", 0, "dropped not"),
    (SLA, "Provider may collect and analyze Usage Data",
     "Customer may collect and analyze Usage Data and freely use it to promote Customer's products.",
     0, "swapped party"),
    (DPA, "mutually agree to extend the Term",
     "Provider may extend the Term on its own by email.", 0, "mutual made unilateral"),
    (DPA, "Confidential Information includes the existence",
     "Confidential Information excludes the existence of this Agreement.", 0, "antonym"),
    (TERM, "Neither of us will (a) use",
     "Neither of us will use the other's Confidential Information for 30 days after termination.",
     0, "added period"),
    (TERM, "we each will protect",
     "Each of us will protect the other's Confidential Information with reasonable care for 5 "
     "years.", 0, "added period"),
    (TERM, "this Term Sheet is non-binding",
     "This Term Sheet is binding and creates obligations between us.", 0, "non-binding made binding"),
    (TERM, "Final details, terms, and conditions",
     "Final details will be as set out in this Term Sheet.", 0, "other document"),
    (RSPA, "In the event of a conflict between this Agreement and the RSPA",
     "If this Agreement and the RSPA conflict, this Agreement governs.", 0, "swapped document"),
]
