"""The redraft evaluation set, as written by hand before any operation or check was tuned.

Each row: (category, clause id, sentences of its body the lawyer selects (None = all),
the instruction, hand-chosen precedent ids (placed first, [1]..), the lawyer's document
(whose defined terms the draft must use; None = the clause's own), expect).
Clause ids are the project's own ingest ids of ../shared/data/contracts (build.py checks
every one). Further precedents are added by BM25 over the other documents (build.py).
"""

CP = "common-paper-cc-by-4.0/common-paper-"
OA = "openagreements-cc-by-4.0/openagreements-"
RC = OA + "restrictive-covenant-"

TASKS = [
    # --- make mutual: one-sided obligations or rights that should bind both parties
    ("mutual", CP + "independent-contractor-agreement#1.2", None, "Make this mutual.", [], None, {"mutual": True}),
    ("mutual", CP + "cloud-service-agreement#9.2", None, "Make the indemnity mutual.", [CP + "cloud-service-agreement#9.1"], None, {"mutual": True}),
    ("mutual", CP + "business-associate-agreement#4.4", None, "Make this reciprocal so that it binds both parties.", [], None, {"mutual": True}),
    ("mutual", CP + "software-license-agreement#10.8", [1], "Make this mutual.", [], None, {"mutual": True}),
    ("mutual", CP + "independent-contractor-agreement#9.3", [0], "Make the restriction on assignment mutual.", [CP + "pilot-agreement#7.6"], None, {"mutual": True}),
    ("mutual", CP + "pilot-agreement#7.6", [1], "Make this mutual.", [], None, {"mutual": True}),
    ("mutual", CP + "professional-services-agreement#12.6", [1], "Either party should be able to do this.", [], None, {"mutual": True}),
    ("mutual", CP + "partnership-agreement#10.2", None, "Make this a mutual indemnity.", [CP + "partnership-agreement#10.1"], None, {"mutual": True}),
    ("mutual", CP + "one-way-nda#5", [1], "Make this mutual.", [], None, {"mutual": True}),
    ("mutual", CP + "cloud-service-agreement#1.3", [2], "Make this notification obligation mutual.", [], None, {"mutual": True}),
    # --- change the party favoured: give the right or obligation to the other party
    ("flip", CP + "software-license-agreement#10.8", [0], "Give this right to Customer instead of Provider.", [], None, {"holder": "Customer", "other": "Provider"}),
    ("flip", CP + "pilot-agreement#7.6", [1], "Give this right to the Customer instead.", [], None, {"holder": "Customer", "other": "Provider"}),
    ("flip", CP + "professional-services-agreement#12.6", [1], "Switch this so that Provider has the right.", [], None, {"holder": "Provider", "other": "Customer"}),
    ("flip", CP + "cloud-service-agreement#9.1", None, "Reverse this: Customer should give the indemnity.", [CP + "cloud-service-agreement#9.2"], None, {"holder": "Customer", "other": "Provider"}),
    ("flip", CP + "partnership-agreement#10.1", None, "Make Partner the indemnifying party instead of Company.", [], None, {"holder": "Partner", "other": "Company"}),
    ("flip", CP + "independent-contractor-agreement#9.3", [0], "Put this restriction on Company instead of Contractor.", [], None, {"holder": "Company", "other": "Contractor"}),
    ("flip", CP + "one-way-nda#5", [1], "Give the termination right to the Recipient instead of the Discloser.", [], None, {"holder": "Recipient", "other": "Discloser"}),
    ("flip", CP + "business-associate-agreement#2.2", None, "Switch the parties: Provider should notify Company.", [], None, {"holder": "Provider", "other": "Company"}),
    ("flip", CP + "partnership-agreement#3.4", [1], "Reverse the roles of Licensor and Licensee.", [], None, {"holder": "Licensor", "other": "Licensee"}),
    # --- change a period or an amount
    ("period", CP + "business-associate-agreement#5.2", [0], "Tighten the cure period to 15 days.", [], None, {"period_days": 15}),
    ("period", CP + "design-partner-agreement#3.2", [1], "Change the notice period to 60 days.", [], None, {"period_days": 60}),
    ("period", CP + "independent-contractor-agreement#1.2", None, "Reduce the non-solicitation period to six months.", [], None, {"period_months": 6}),
    ("period", CP + "cloud-service-agreement#6.4", [0], "Shorten the notice period to 30 days.", [], None, {"period_days": 30}),
    ("period", CP + "csa-with-sla#3.4", [0], "Give Customer 14 days to notify the failures instead of 7.", [], None, {"period_days": 14}),
    ("period", CP + "professional-services-agreement#4.4", [1], "Extend the resolution period to 30 days.", [], None, {"period_days": 30}),
    ("period", CP + "professional-services-agreement#5.1", None, "Make it 24 months.", [], None, {"period_months": 24}),
    ("period", CP + "business-associate-agreement#1.10", [0], "Change the response time to five business days.", [], None, {"period_days": 5, "unit": "business days"}),
    ("period", RC + "district-of-columbia#3", [0], "Lower the compensation threshold to $150,000.", [], None, {"amount": 150000}),
    # --- add a carve-out taken from a chosen precedent (cited)
    ("carve_out", RC + "tennessee#7", [0], "Add the carve-out for professional references and general advertisements from precedent [1].", [RC + "alaska#7"], None, {"carve_out": "professional reference", "cite": 1}),
    ("carve_out", RC + "texas#10", [0], "Add the exception for passive public holdings from [1].", [RC + "wyoming#9"], None, {"carve_out": "Passive Public Holdings", "cite": 1}),
    ("carve_out", RC + "tennessee#12", [0], "Carve out passive public holdings, as in precedent [1].", [RC + "arizona#12"], None, {"carve_out": "Passive Public Holdings", "cite": 1}),
    ("carve_out", RC + "alabama#15", [0], "Add the limit on notices from precedent [1].", [RC + "arkansas#16"], None, {"carve_out": "obligations then in effect", "cite": 1}),
    ("carve_out", RC + "tennessee#8", [0], "Add the carve-out for accepting or servicing business from [1].", [RC + "wyoming#7"], None, {"carve_out": "accepting or servicing business", "cite": 1}),
    ("carve_out", RC + "texas#10", [0], "Add the physician carve-out from precedent [1].", [RC + "arkansas#10"], None, {"carve_out": "physician", "cite": 1}),
    ("carve_out", RC + "utah#7", [0], "Limit this to initiating contact, as precedent [1] does.", [RC + "virginia#8"], None, {"carve_out": "initiating contact", "cite": 1}),
    ("carve_out", RC + "vermont#10", [0], "Add the professional practice carve-out from [1].", [RC + "alabama#10"], None, {"carve_out": "recognized Alabama profession", "cite": 1}),
    ("carve_out", RC + "texas#9", [0], "Add the carve-out from precedent [1] so that this applies subject to applicable law.", [RC + "wyoming#8"], None, {"carve_out": "subject to applicable law", "cite": 1}),
    # --- conform to a precedent or to the lawyer's document (defined terms)
    ("conform", RC + "texas#15", [0], "Conform this to my document's defined terms.", [OA + "confidentiality-invention-assignment-agreement#18"], OA + "confidentiality-invention-assignment-agreement", {"terms": {"Employer": "Company"}}),
    ("conform", RC + "alaska#7", [0, 1], "Use the defined terms of my document.", [], OA + "confidentiality-invention-assignment-agreement", {"terms": {"Employer": "Company"}}),
    ("conform", CP + "professional-services-agreement#12.6", [1], "Conform the party names to my document.", [CP + "independent-contractor-agreement#9.3"], CP + "independent-contractor-agreement", {"terms": {"Customer": "Company"}}),
    ("conform", CP + "cloud-service-agreement#9.1", None, "Conform this clause to the defined terms of my agreement.", [CP + "partnership-agreement#10.1"], CP + "partnership-agreement", {"terms": {"Provider": "Company", "Customer": "Partner"}}),
    ("conform", CP + "professional-services-agreement#4.4", [1], "Conform the period to precedent [1].", [CP + "partnership-agreement#5.1"], None, {"period_days": 30}),
    ("conform", CP + "business-associate-agreement#5.2", [0], "Conform the cure period to precedent [1].", [CP + "independent-contractor-agreement#4.2"], None, {"period_days": 15}),
    ("conform", CP + "pilot-agreement#7.6", [1], "Use my document's defined terms.", [], CP + "partnership-agreement", {"terms": {"Provider": "Company"}}),
    ("conform", RC + "arkansas#16", None, "Conform the defined terms to my document.", [], OA + "confidentiality-invention-assignment-agreement", {"terms": {"Employer": "Company"}}),
    ("conform", CP + "software-license-agreement#10.8", [1], "Conform this to my agreement's terms.", [], CP + "independent-contractor-agreement", {"terms": {"Provider": "Contractor", "Customer": "Company"}}),
    # --- shorten
    ("shorten", CP + "cloud-service-agreement#9.1", None, "Shorten this clause.", [], None, {"max_length_ratio": 0.7}),
    ("shorten", CP + "independent-contractor-agreement#1.4", None, "Make this much shorter.", [], None, {"max_length_ratio": 0.7}),
    ("shorten", CP + "business-associate-agreement#1.3", None, "Cut this down to its essentials.", [], None, {"max_length_ratio": 0.7}),
    ("shorten", RC + "alaska#7", None, "Shorten this.", [], None, {"max_length_ratio": 0.7}),
    ("shorten", CP + "data-processing-agreement#5.1", None, "Shorten this clause by about half.", [], None, {"max_length_ratio": 0.6}),
    ("shorten", RC + "virginia#11", None, "Make this more concise.", [], None, {"max_length_ratio": 0.7}),
    ("shorten", CP + "professional-services-agreement#1.4", None, "Shorten this.", [], None, {"max_length_ratio": 0.7}),
    ("shorten", RC + "utah#9", None, "Trim this clause.", [], None, {"max_length_ratio": 0.7}),
    ("shorten", CP + "cloud-service-agreement#2.2", None, "Shorten this clause.", [], None, {"max_length_ratio": 0.7}),
    # --- plain English
    ("plain", CP + "independent-contractor-agreement#3.2", None, "Rewrite this in plain English.", [], None, {"plain": True}),
    ("plain", CP + "independent-contractor-agreement#4.1", None, "Put this in plain English.", [], None, {"plain": True}),
    ("plain", OA + "board-consent-safe#1.1", None, "Use plain English.", [], None, {"plain": True}),
    ("plain", OA + "board-consent-safe#1.2", None, "Rewrite in plain language.", [], None, {"plain": True}),
    ("plain", OA + "board-consent-safe#2", None, "Make this plain English.", [], None, {"plain": True}),
    ("plain", CP + "ai-addendum-in-app#2.1", [1], "Rewrite this in plain English.", [], None, {"plain": True}),
    ("plain", CP + "design-partner-agreement#6.2", [1], "Say this in plain English.", [], None, {"plain": True}),
    ("plain", CP + "business-associate-agreement#1.6", None, "Simplify the wording: plain English.", [], None, {"plain": True}),
    ("plain", OA + "board-consent-safe#1.4", None, "Rewrite this in plain English.", [], None, {"plain": True}),
]
