"""Draw the candidate clauses for draftA's half of the drafting set (issue 38), at random.

Categories mutual, flip, conform and multi. For each category the script walks a pool of real
clauses shuffled with a fixed seed, half from the ACORD corpus and half from the shared
agreements, and records every draw: accepted, or rejected with its reason. Rejections are
either the broad suitability pattern failing (written here as code) or an annotator's reading
of a drawn clause (MANUAL_REJECT below, each with its reason), so a rerun reproduces exactly
the draws the labels were written from. For conform, each accepted clause is paired with a
different agreement of a compatible kind, also drawn at random (MANUAL_PAIR_REJECT records
pairings redrawn because there was nothing to conform).

Run from the worktree root:
    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting/sample_a.py --out benchmarks/sets/drafting/a-draws.jsonl

Only read_clauses (to split the .docx agreements into clauses with ids) is used from the
repository; nothing under test is imported.
"""
from __future__ import annotations

import argparse
import json
import logging
import random
import re
from pathlib import Path

from index_builder.ingest import read_clauses

log = logging.getLogger("sample_a")

SEED = 3801
DATA = Path("/work/shared/data")
ACORD = DATA / "acord" / "corpus.jsonl"
CONTRACTS = DATA / "contracts"
MAX_CHARS = 1200

# How many clauses to accept per category and source: 25 agreement clauses (40%) and 37 ACORD
# (60%). Few clauses of the shared agreements are one-sided in a way a lawyer would change (the
# Common Paper forms are drafted mutually; half the pool is employee covenants), so mutual, flip
# and multi lean on ACORD and conform on the agreements.
# Rounds, drawn in this order: (category, source, how many to accept). The last two rounds top
# up mutual and flip after two clauses were rejected on a second reading (758381c7a3: its own 9.5
# gives the reverse indemnity; the partnership agreement's 3.1: Licensor and Licensee are defined
# as whichever party gives or takes the Brand Elements); drawing the replacements last leaves
# every other round's draws as they were. The flip top-up is drawn from ACORD: no clause left in
# the agreements pool could be given to the other party.
ROUNDS = [
    ("mutual", "contracts", 6), ("mutual", "acord", 9),
    ("flip", "contracts", 5), ("flip", "acord", 8),
    ("conform", "contracts", 8), ("conform", "acord", 2),
    ("multi", "contracts", 6), ("multi", "acord", 16),
    ("mutual", "acord", 1), ("flip", "acord", 1),
]

PARTY_WORDS = (
    "Company|Customer|Supplier|Provider|Service Provider|Licensee|Licensor|Recipient|Discloser|"
    "Disclosing Party|Receiving Party|Employee|Employer|Contractor|Consultant|Vendor|Distributor|"
    "Franchisee|Franchisor|Seller|Buyer|Purchaser|Client|Reseller|Manufacturer|Lessee|Lessor|"
    "Tenant|Landlord|Borrower|Lender|Agent|Partner|Business Associate|Covered Entity|Processor|"
    "Controller|Subscriber|Member|Sponsor|Developer|Publisher|Owner|Operator|Marketer|Producer|"
    "Investor|Executive|Representative|Affiliate Partner|Host|Sub-processor|Subprocessor"
)
# Capitalised words that start sentences or name things, not parties.
NOT_PARTY = {
    "This", "The", "Such", "Any", "Each", "Either", "Neither", "No", "All", "Agreement",
    "This Agreement", "Section", "Exhibit", "Schedule", "Confidential Information", "Services",
    "Term", "Order Form", "Notice", "Nothing", "If", "In", "Upon", "Notwithstanding", "Party",
    "It", "Its", "They", "Payment", "Fees", "NDA", "Cover Page", "Effective Date", "Products",
    "Product", "Software", "Territory", "License", "Work Product", "Deliverables", "SOW",
}
ACTION = r"(?:shall|will|may|must|agrees to|agrees not to|is entitled|has the right)"
# The agreements name their parties by role (Provider, Customer, Employee ...); ACORD clauses
# mostly by company name (Excite@Home, MD Anderson), so there any capitalised name counts.
ROLE_ACTOR = re.compile(r"\b((?:the )?(?:" + PARTY_WORDS + r"))\s+(?:not\s+)?" + ACTION + r"\b")
NAME_ACTOR = re.compile(r"\b([A-Z][\w@&.\-]*(?: [A-Z][\w@&.\-]*){0,2})\s+(?:not\s+)?" + ACTION + r"\b")
ROLE_POSSESSIVE = re.compile(r"\b(?:the )?(?:" + PARTY_WORDS + r")(?:'s|’s)\b")
NAME_POSSESSIVE = re.compile(r"\b[A-Z][\w@&\-]+(?:'s|’s)\b")
DEFINITION = re.compile(r"^\s*[\d.]*\s*[“\"][^”\"]+[”\"] (?:means|has the meaning|shall mean)")
FORM_FURNITURE = re.compile(r"\{[a-z_]+\}|\[ ?x? ?\]|drafting note|\[_+\]", re.IGNORECASE)
# Forms in the shared folder that are not agreements between parties (lists, consents,
# notices, letters): no clause there binds a party to another.
NOT_AGREEMENTS = (
    "due-diligence-request-list", "closing-checklist", "working-group-list", "records-checklist",
    "cap-table-update-instructions", "board-consent", "stockholder-consent", "ratifying-consent",
    "resignation-letter", "share-repurchase-notice", "term-sheet", "letter-of-intent",
    "restrictive-covenant-notice",
)
ALREADY_MUTUAL = re.compile(
    r"\b(?:each|either|neither) party\b|\bboth parties\b|\beach of the parties\b|\bmutual(?:ly)?\b",
    re.IGNORECASE,
)
# What a lawyer gives to the other party: a right, option, consent, termination, indemnity,
# liability limit or cost.
FLIPPABLE = re.compile(
    r"\b(?:may|right|entitled|option|consent|approv\w*|terminat\w*|indemnif\w*|audit\w*|liab\w*|"
    r"expense|responsible for)\b", re.IGNORECASE)
PARTY_OR_TERM = re.compile(r"\b(?:" + PARTY_WORDS + r")\b|“[A-Z][^”]{1,40}”|\"[A-Z][^\"]{1,40}\"|\bthe [A-Z][a-z]+")
SENTENCE = re.compile(r"(?<=[.;:])\s+(?=[A-Z(“\"])")

# Annotator's rejections of drawn clauses after reading them: (category, clause_id) -> reason.
MANUAL_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '33826e5275'): 'already mutual (mirrored sentences for each party)',
    ('mutual', '859f0865b5'): 'a right only one party can hold (stock options granted to the Consultant)',
    ('mutual', '0171ecf8a0'): 'transitional licence of one party mark; a mutual version has no subject matter',
    ('mutual', '97a27a3f02'): 'franchisee non-compete; a mutual version makes no sense for a franchisor',
    ('mutual', '7727a7d741'): 'royalty payment terms; nothing to make mutual',
    ('mutual', '1b81c06a95'): 'indemnity tied to one party trademarks; a mutual version would need new subject matter',
    ('mutual', 'b4f6ddb773'): 'supply and warranty-return mechanics that run one way by their nature',
    ('mutual', '319de42b41'): 'the agreement already has the reverse indemnity (8.2 Indemnification by OntoChem)',
    ('mutual', '2bba1ec56d'): 'term clause; nothing to make mutual',
    ('mutual', '9a16121c82'): 'fee calculation; nothing to make mutual',
    ('mutual', 'f7183c205b'): 'exclusivity exceptions and minimum payments; nothing to make mutual',
    ('mutual', '0747596b27'): 'already mutual (indemnities by each party, 10.1 and 10.2)',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#6.2'): 'processor duty to assist the controller; runs one way by its nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#3.2'): 'permission for the business associate to de-identify PHI; a mutual version has no subject matter',
    ('mutual', 'a95ac82fdd'): 'fragment of a list starting mid-sentence, several provisions run together',
    ('mutual', '58b22f08a3'): 'exclusive licence of one party improvements (defined term Bioamber Improvements); a reciprocal version needs subject matter the clause lacks',
    ('mutual', '9cb2f0d7f0'): 'already allocates the right between both parties (first right and step-in right)',
    ('mutual', '584aafcdbc'): 'transitional licence of one party trademarks; a mutual version has no subject matter',
    ('mutual', 'f47bd5021c'): 'IP indemnity from the party that makes the Product; the other party has nothing to warrant',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#2.6'): 'processor duty about subprocessors; runs one way by its nature',
    ('mutual', '8d604c2296'): 'commercial performance terms; nothing one-sided to make mutual',
    ('mutual', '861ce6016a'): 'indemnity tied to one party study drug and data; a mutual version needs new subject matter',
    ('mutual', 'efaa070b92'): 'licence to perform one party development plan; runs one way by its nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#4.2'): 'invoicing mechanics of the party that is paid; nothing to make mutual',
    ('mutual', 'a0d1f28aa1'): 'cut off at a colon before the grounds of the indemnity',
    ('mutual', '0f6c150c18'): 'remedies against the party supplying the services; runs one way by its nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#7.4'): 'exceptions to the cap tied to the licence only Customer holds; one-sided by nature',
    ('mutual', '2532adf9f7'): 'already mutual (reciprocal indemnities 7 and 8)',
    ('mutual', 'c09164e398'): 'several fragments joined by <omitted>; no whole clause',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#1.1'): 'early access to one party product; a mutual version has no subject matter',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#3.2-2'): 'service-credit claim mechanics; one way by nature',
    ('mutual', 'cf0de90ad0'): 'most-favoured pricing from the seller; a mutual version has no meaning',
    ('mutual', '68c3a66592'): 'franchisee operating duties; a mutual version makes no sense for a franchisor',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#2.1'): 'covered entity duty under the Privacy Rule; one way by law',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-pilot-agreement.docx#1.6'): 'use restrictions on the product licensee; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#6.2'): 'warranty about materials only Customer provides',
    ('mutual', '0b81bda9eb'): 'fragment joined by <omitted>; no whole clause',
    ('mutual', 'b634a95f24'): 'royalty base for related-party sales; nothing to make mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#9.5'): 'already covers both parties (exclusions for Provider in (a), for Customer in (b))',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.1'): 'licence grant of one party software; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.7'): 'business associate duty about subcontractors under HIPAA; one way by law',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#1.1'): 'use of one party AI service; a mutual version has no subject matter',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#2.2'): 'contractor tax status; one way by nature',
    ('mutual', 'f59360b9f4'): 'already reciprocal (licences granted each way) and joined by <omitted>',
    ('mutual', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-district-of-columbia.docx#3'): 'statutory compensation threshold; nothing to make mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#1.2'): 'role of the processor under data protection law; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#1.1-2'): 'uptime commitment of the service provider; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.5'): 'business associate compliance assessments under HIPAA; one way by law',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#1.4'): 'use of data to improve one party AI system; a mutual version has no subject matter',
    ('mutual', 'eb3a8790a0'): 'supply exclusivity; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#4.1'): 'fees and invoicing; nothing to make mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#10.1'): 'already mutual through the definitions (13.12/13.29: Discloser and Recipient are whichever party discloses or receives)',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#4.3'): 'payment mechanics; nothing to make mutual',
    ('mutual', '5cf60c4b2e'): 'moral rights waiver of the author; one way by nature, and joined by <omitted>',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#7.5'): 'use restrictions on the product user; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.1'): 'business associate use of PHI under HIPAA; one way by law',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.6'): 'updates of one party software; one way by nature',
    ('mutual', 'bf021784e0'): 'already refers to the other Parties, and joined by <omitted>',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#10.2'): 'the agreement already has the reverse indemnity (10.1 Protection by Company)',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-pilot-agreement.docx#2.3'): 'one-way limbs concern the Product and Customer Content only one party has; limb c already mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#3.4'): 'already mutual (each Recipient)',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#2.2'): 'statutory data-protection duty of the provider; nothing to make mutual',
    ('mutual', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-oregon.docx#14'): 'statutory protection of the employee; nothing to make mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#12.7'): 'beta products of one party; nothing to make mutual',
    ('mutual', 'b9d640e24b'): 'SOX audit right tied to one party reporting duty; last sentence already applies to either Party',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#2.1'): 'payment of fees; nothing to make mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#3.1'): 'processor data transfers; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-one-way-nda.docx#p27'): 'signature line, not a clause',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#4'): 'processor security-incident duty; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.2'): 'user-account duties of the licensee; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#1.6'): 'pointer to Customer Obligations; nothing to make mutual',
    ('mutual', 'a2ede5ed40'): 'joined by <omitted>; exclusivity already binds both sides',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.6'): 'business associate mitigation duty under HIPAA; one way by law',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#3.2'): 'compliance with the customer security policy; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#1.4'): 'acceptance of deliverables; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#4.5'): 'payment of fees; nothing to make mutual',
    ('mutual', 'f7626fd6f2'): 'distributor appointment and exclusivity; one way by nature',
    ('mutual', '021fd49223'): 'extension options tied to one shareholder, joined by <omitted>',
    ('mutual', '4733f48974'): 'sublicence of the licensee rights; the assignment sentence is already mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#2.1'): 'assignment of deliverables; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.2'): 'business associate use of PHI under HIPAA; one way by law',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#4.3'): 'contractor wind-down duties (deliver work product, stop services); one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#6.2'): 'service and work-product warranties of the contractor; one way by nature',
    ('mutual', 'cda97961b7'): 'termination trigger tied to one party shareholding; a mutual version needs a new trigger',
    ('mutual', '1e3f197144'): 'software licence grant; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.3'): 'business associate security program under HIPAA; one way by law',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#6.4'): 'remedy for the provider warranty; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#11.1'): 'already mutual through the definitions (13.9/13.18: Discloser and Recipient are whichever party discloses or receives)',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-csa-click-through.docx#p85'): 'cover-page variables with drafting notes, not an operative clause',
    ('mutual', '0d78d7f27e'): 'minimum royalties; nothing to make mutual',
    ('mutual', 'bd75c69ddb'): 'protects one party licensed trademarks; the other party marks are not defined',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#6.4'): 'remedy for the provider warranty; one way by nature',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#10'): 'already binds both (Provider and Customer will each remain subject)',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#6.1'): 'processor handling of third-party requests; one way by nature',
    ('mutual', 'f1d6195635'): 'licence of one person name and likeness; a mutual version has no subject matter',
    ('mutual', 'd37efea73b'): 'gas transportation service of the carrier; one way by nature',
    ('mutual', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#13'): 'statutory carve-out for professions; nothing to make mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#2.1-2'): 'support response commitment of the provider; one way by nature',
    ('mutual', 'c05052f103'): 'franchisee post-termination duties about franchisor marks, joined by <omitted>',
    ('mutual', '25a0874140'): 'pipeline transportation credits; nothing to make mutual',
    ('mutual', 'common-paper-cc-by-4.0/common-paper-pilot-agreement.docx#1.1'): 'access to one party product; a mutual version has no subject matter',
    ('mutual', 'eab9be8f7a'): 'royalty audit joined by <omitted>; no whole clause',
    ('mutual', '566d489330'): 'inspection of shipments by the buyer; one way by nature',
    ('mutual', '8f623e1f3a'): 'ownership of project IP by one party; a mutual version has no meaning',
    ('mutual', 'd0ca63e614'): 'licensor consent to modifications on one party divestiture; one way by nature',
    ('mutual', '1b1b15e07f'): 'franchise development grant; one way by nature',
    ('mutual', '91434f2556'): 'offering termination and agent fees; nothing to make mutual',
    ('mutual', '6a647abf4c'): 'software licence to the distributor, joined by <omitted>',
    ('mutual', 'eb6afed7a2'): 'product IP and product-liability indemnity from the makers of the Products; one way by nature',
    ('mutual', '8d6f918814'): 'invention assignment by the service provider, joined by <omitted>',
    ('mutual', 'd4207d5df6'): 'licences already granted each way (vendor to AT&T and AT&T to vendor)',
    ('mutual', 'f64bb4dca1'): 'joined by <omitted> mid-sentence; no whole clause',
    ('mutual', '1c46f61136'): 'distribution licence of one party software; one way by nature',
    ('mutual', '757dac7b13'): 'data licence, distribution right and supply: one way by nature',
    ('mutual', 'd765a1bdf6'): 'joined by <omitted> mid-sentence; service-provider insurance for its own facility',
    ('mutual', '939fdd64de'): 'non-compete of an individual consultant; one way by nature',
    ('mutual', 'fd0336f7e3'): 'already mutual (In turn, UTEK agrees ...) and joined by <omitted>',
    ('mutual', '424ca522c9'): 'joined by <omitted> mid-sentence; cooperation for the owner only, one way by nature',
    ('mutual', 'fe7d5a8548'): 'liquidated damages for supply shortfall; one way by nature',
    ('mutual', '48d717f77a'): 'agent insurance for its agency at the stores; the merchant already has its own insurance duties (sentence 2), a mutual version would duplicate them',
    ('flip', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#13'): 'employee assistance with filings for the company inventions; the other party cannot hold it',
    ('flip', 'common-paper-cc-by-4.0/common-paper-pilot-agreement.docx#7.8'): 'taxes on the fees follow the payer; a flip has no commercial sense',
    ('flip', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#1.6'): 'use of the provider data for its own models; a flip has no subject matter',
    ('flip', '05f4c6c75e'): 'assignment of IP in the other party content; a flip has no subject matter',
    ('flip', 'f5185b53bb'): 'non-compete of an individual; the company cannot sensibly hold it',
    ('flip', '96a783928a'): 'care of one party equipment; a flip has no subject matter',
    ('flip', '7c1f0891ff'): 'workers compensation insurance of the sponsor own workforce; a flip has no sense',
    ('flip', 'b01bdaf4ed'): 'lead-in ending at a colon; no operative text selected',
    ('flip', '48b3ee70b3'): 'successors and binding effect of an employment agreement; nothing to give the other party',
    ('flip', '84c187e8f2'): 'joined by <omitted> mid-sentence',
    ('flip', 'common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#1.4'): 'contractor own liability insurance; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-north-dakota.docx#12'): 'survival; nothing to give the other party',
    ('flip', '58ecde66b2'): 'franchise fees; a flip has no sense',
    ('flip', '9a2e015feb'): 'cut off at a colon before the grounds of the indemnity',
    ('flip', '8e7a4f7578'): 'employee covenant joined by <omitted>',
    ('flip', '556a25c954'): 'already binds each Participant',
    ('flip', '157ff60b1c'): 'transition services by the party that holds the data; a flip has no subject matter',
    ('flip', 'df031e8984'): 'both parties already hold a termination right',
    ('flip', 'bef7631999'): 'already binds both (shall each maintain)',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-hawaii.docx#19'): 'extension of the employee covenant; the employee cannot hold it',
    ('flip', 'common-paper-cc-by-4.0/common-paper-pilot-agreement.docx#2.4'): 'survival list and a limb already binding each Recipient',
    ('flip', '155a50b7bd'): 'safety data from the seller of the Products; a flip has no subject matter',
    ('flip', '6544fa7371'): 'right of first refusal over one party own revenue and company; a flip has no subject matter',
    ('flip', 'b8029e9c84'): 'broad indemnity of the servicer by the asset owner; reversed it would make the servicer insure the owner assets',
    ('flip', 'a71076e5d6'): 'patent licence of the patent owner; a flip has no subject matter',
    ('flip', 'dd0426c3d7'): 'employee insurance benefits; a flip has no sense',
    ('flip', '666128344c'): 'licence of the client own website and marks; a flip has no subject matter',
    ('flip', '12ad5ec8ff'): 'termination fee payable to the licensor; a flip has no sense',
    ('flip', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#5.1'): 'controller audit of the processor; one way by law',
    ('flip', 'common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#11.4'): 'already mutual through the definitions (13.9/13.18: Discloser and Recipient are whichever party discloses or receives)',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-mississippi.docx#8'): 'employee covenant; the employer cannot hold it',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-wisconsin.docx#18'): 'employer remedies for the employee covenants; a flip has no subject matter',
    ('flip', '28eaa4e574'): 'joined by <omitted>; supplier transition duties one way by nature',
    ('flip', '2248443a1d'): 'joined by <omitted>; invention assignment one way by nature',
    ('flip', '27677f1b8a'): 'already binds both (Party A and Party B)',
    ('flip', 'ff3592030f'): 'joined by <omitted> mid-sentence',
    ('flip', 'cf9d2cc306'): 'joined by <omitted>; product liability insurance of the maker',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-nevada.docx#8'): 'employee covenant; the employer cannot hold it',
    ('flip', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#7.2'): 'processor deletion duty; one way by law',
    ('flip', '3b40d1768b'): 'product-liability indemnity from the maker of the Products; a flip has no subject matter',
    ('flip', 'ac18025f95'): 'licence of one party marks; a flip has no subject matter',
    ('flip', '28cbf7394a'): 'termination consequences already set for each party',
    ('flip', '0e466d0eb9'): 'source code licence of the licensor; a flip has no subject matter',
    ('flip', '727564eed5'): 'reseller right of first refusal over the maker new products; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-wisconsin.docx#3'): 'consideration recital; nothing to give the other party',
    ('flip', '6468fc52f8'): 'roles already generic (Indemnifying Party / Indemnified Parties)',
    ('flip', '24a7e14d4d'): 'joined by <omitted>; franchisee member covenant',
    ('flip', '47de119016'): 'already binds each of Supplier and CUTANEA',
    ('flip', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#2.3'): 'processor processing limits; one way by law',
    ('flip', '69d4c9c630'): 'joined by <omitted>',
    ('flip', '4ed9f112bd'): 'seller standard terms of sale to buyers, several sections run together; a flip has no commercial sense',
    ('flip', 'afd67cb89c'): 'starts mid-sentence; no whole clause',
    ('flip', '0f52d56abe'): 'licence under one party improvements and patents; a flip has no subject matter',
    ('flip', 'fb8a6f2d45'): 'purchase order mechanics; nothing to give the other party',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-washington.docx#14.3'): 'statutory condition; nothing to give the other party',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-south-dakota.docx#9'): 'employee non-compete; the employer cannot hold it',
    ('flip', '8a61c16e16'): 'cut off at a colon (provided that Distributor:); IP indemnity of the maker',
    ('flip', '6f756f2e9a'): 'joined by <omitted> mid-sentence',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-south-dakota.docx#19'): 'survival; nothing to give the other party',
    ('flip', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#1.3'): 'user-account duties of the customer; the provider has no users',
    ('flip', '475deb21c2'): 'cut off at a colon before its exceptions',
    ('flip', '6ac4f750dd'): 'both parties already restricted from assigning',
    ('flip', 'e78139998a'): 'audit of the party that earns and pays revenue share; a flip has no sense',
    ('flip', 'e802d7310c'): 'cut mid-list; the agreement heading shows the reverse indemnity follows',
    ('flip', 'e0ceca3430'): 'the reverse indemnity follows (8.2)',
    ('flip', '4fcdcc3d2c'): 'cut off at a colon before the grounds of the indemnity',
    ('flip', 'a68dbd5c08'): 'joined by <omitted>',
    ('flip', 'fe8006d87c'): 'the reverse indemnity follows (8.2 Indemnification by OntoChem)',
    ('flip', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#10.4'): 'already mutual through the definitions (13.12/13.29)',
    ('flip', 'common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#3.1'): 'ownership of commissioned work product; giving it to the contractor defeats the engagement',
    ('flip', '107875f671'): 'cut off at a colon (right to:)',
    ('flip', '8095a61bb2'): 'franchisee duty to protect the franchisor goodwill; a flip has no sense',
    ('flip', 'b1eda125ee'): 'joined by <omitted> mid-sentence',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-colorado.docx#13.2'): 'statutory protection of the employee; nothing to give the other party',
    ('flip', 'b6fbf4c07f'): 'franchise fees; a flip has no sense',
    ('flip', 'dfd6728aed'): 'title to one party equipment; a flip has no subject matter',
    ('flip', 'bfc3c8d3b4'): 'option mechanics and patent step-in rights already allocated to both',
    ('flip', 'a1f2e7f3dd'): 'the next sentence of the clause already gives the reverse indemnity (PPD indemnifies VS)',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-district-of-columbia.docx#10'): 'employee non-compete; the employer cannot hold it',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-montana.docx#16'): 'statutory limit on enforcement; nothing to give the other party',
    ('flip', '8ccd9d144e'): 'advertising inventory on one party site; a flip has no subject matter',
    ('flip', 'dd2b92bc23'): 'licensee sell-off of licensed products; a flip has no subject matter',
    ('flip', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter-california.docx#8'): 'employee benefits; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter-new-york.docx#5'): 'statutory notice duty of the employer; a flip has no sense',
    ('flip', 'd5c39b44b5'): 'effectiveness of an amendment; no party right',
    ('flip', '46e8a92601'): 'exclusive access to one party research; a flip has no subject matter',
    ('flip', '7dac29f634'): 'joined by <omitted>; termination rights already given to each side',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-arkansas.docx#3'): 'consideration recital; nothing to give the other party',
    ('flip', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#5.4'): 'remedy for the provider software warranty; a flip has no subject matter',
    ('flip', 'c56ebe40d3'): 'prosecution already split between both parties; key names redacted',
    ('flip', '259c24760f'): 'sell-off of one party own products; a flip has no subject matter',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-mexico.docx#3'): 'consideration recital; nothing to give the other party',
    ('flip', 'common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#3.3'): 'end of access to one party product; the other limb already binds each Recipient',
    ('flip', 'a828dc4e68'): 'licence of one party software; a flip has no subject matter',
    ('flip', 'a4721e4e89'): 'joined by <omitted>',
    ('flip', 'openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#3.2'): 'carve-outs from the founder release; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-washington.docx#8'): 'employee covenant; the employer cannot hold it',
    ('flip', 'b0a6cc7f47'): 'IP indemnity from the party whose services may infringe (B of a list, the reverse likely in A); a flip has no sense',
    ('flip', '580ab9c36d'): 'licence and distribution of one party products; a flip has no subject matter',
    ('flip', 'a130456abf'): 'cut mid-list; the heading shows the reverse indemnity follows',
    ('flip', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter-california.docx#17'): 'assignment of an employment offer; the employee side is personal',
    ('flip', 'common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#9.3'): 'assignment where the contractor is an individual; a flip has no sense',
    ('flip', 'af05c5d986'): 'insurance of the company naming the individual; a flip has no sense',
    ('flip', '582a6763ed'): 'co-ownership already shared by both',
    ('flip', 'de4c4a98b6'): 'termination fee payable to the service agent; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-kentucky.docx#13'): 'statutory exclusion; nothing to give the other party',
    ('flip', '3c2c831984'): 'joined by <omitted> mid-sentence',
    ('flip', '9888d4a713'): 'sponsor approval of the team own other sponsors; a flip has no sense',
    ('flip', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#2.4'): 'limb (b) of the same clause already puts the same duty on Provider',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-iowa.docx#13'): 'statutory exclusions; nothing to give the other party',
    ('flip', '613593ad37'): 'cut off mid-list',
    ('flip', '6cb147704d'): 'promotion limits; no party right',
    ('flip', '9d14cb30dc'): 'roles already generic (Auditing Party / Audited Party)',
    ('flip', 'openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#1.2'): 'payment for repurchased shares; a flip has no sense',
    ('flip', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#12.13'): 'export controls on the product user; a flip has no subject matter',
    ('flip', '9d47cd2626'): 'cut off mid-list',
    ('flip', '3718666d25'): 'licence of works to one party for its mission; a flip has no subject matter',
    ('flip', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter-florida.docx#5'): 'statutory notice duty of the employer; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-nevada.docx#3'): 'consideration recital; nothing to give the other party',
    ('flip', '50d837eb85'): 'grant-back licence under one party improvements; a flip has no subject matter',
    ('flip', '61b93e8901'): 'non-compete of the know-how recipient; a flip has no sense',
    ('flip', '772f92a833'): 'exclusivity restriction on one party research; a flip has no sense',
    ('flip', '2184831947'): 'joined by <omitted>',
    ('flip', '7e6b9836cf'): 'use of the client own manufacturers subject to its approval; a flip has no sense',
    ('flip', 'e3d6cb41e7'): 'starts mid-list and runs across a page break',
    ('flip', '8513e1dfdf'): 'franchisee ownership-transfer restrictions; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#15'): 'employer right to notify future employers; the employee cannot hold it',
    ('flip', 'e79030b2c2'): 'indemnity for one party own IP liabilities; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-louisiana.docx#14'): 'statutory rescission right of the employee; the employer cannot hold it',
    ('flip', 'ef213ac581'): 'joined by <omitted>',
    ('flip', '4a71d57466'): 'most-favoured pricing from the seller; a flip has no sense',
    ('flip', 'common-paper-cc-by-4.0/common-paper-one-way-nda.docx#10'): 'equitable relief for the only disclosing party; the recipient has nothing to protect',
    ('flip', '0289a7a2d3'): 'starts mid-list; no whole clause',
    ('flip', '15b24eebf8'): 'insurance of the manufacturer for its own activities; a flip has no sense',
    ('flip', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#10.3'): 'already mutual through the definitions (13.12/13.29)',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#4'): 'employee confidentiality; the employer cannot hold it',
    ('flip', '97810d2db8'): 'parent guarantee and IP indemnity for one group rights; a flip has no sense',
    ('flip', '00b9a8b6b3'): 'seller product warranty; a flip has no subject matter',
    ('flip', 'a62bffbbbf'): 'insurance of the manufacturer for its own activities; a flip has no sense',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-mexico.docx#13.1'): 'statutory exclusion; nothing to give the other party',
    ('flip', 'b7deb63ef1'): 'joined by <omitted>; sub-distribution conditions one way by nature',
    ('flip', 'f34a091b3b'): 'indemnities already run both ways (8.1 and 8.2)',
    ('flip', '35ac3052f8'): 'joined by <omitted> mid-sentence',
    ('flip', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.9'): 'HHS/covered-entity access to business associate records; one way by law',
    ('flip', '06483217ff'): 'cut off at a colon before the grounds of the indemnity',
    ('flip', '8ac4731644'): 'joined by <omitted>',
    ('flip', 'd268f0f819'): 'franchisee insurance naming the franchisor; a flip has no sense',
    ('flip', 'f70d78bb81'): 'software licence and post-termination options tied to one party software; a flip has no subject matter',
    ('flip', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#5.4'): 'survival list; the other limb already binds each Recipient',
    ('flip', '1585354514'): 'property insurance of one party; selection ends mid-sentence',
    ('flip', 'ac7409afd7'): 'freight rate mechanics; no party right',
    ('flip', 'a6cf9c5c26'): 'the clause ties the limit to the fees paid to VIP as the price of its risk (last sentence); a flip contradicts it',
    ('flip', 'common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#6.1'): 'reservation of one party rights in its product; the other sentence already covers each Discloser',
    ('flip', 'common-paper-cc-by-4.0/common-paper-one-way-nda.docx#6'): 'return of the only disclosing party information; the discloser holds nothing to return',
    ('flip', '02f0f9e865'): 'provider liability limits tied to its service charges; a flip has no sense',
    ('flip', '37332ea315'): 'lettered A. By Customer; the reverse indemnity follows in B',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-district-of-columbia.docx#16'): 'employer right to notify future employers; the employee cannot hold it',
    ('flip', '715601150b'): 'licence of the consultant prior inventions; a flip has no subject matter',
    ('flip', '1a7c4421c7'): 'software IP indemnity from the software licensor; a flip has no subject matter',
    ('flip', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-massachusetts.docx#p39'): 'cover-page entry, not a clause',
    ('flip', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter-massachusetts.docx#5'): 'statutory notice duty of the employer; a flip has no sense',
    ('flip', '87e2c8933b'): 'exceptions to exclusivity on one party site; a flip has no subject matter',
    ('flip', '07a97b82ea'): 'reseller milestones and the supplier remedies; a flip has no sense',
    ('flip', '016b401f46'): 'non-circumvention protecting the introducing party; a flip has no sense',
    ('flip', 'b4f9b0e865'): 'exclusivity of one person name rights; a flip has no subject matter',
    ('flip', '048674b435'): 'joined by <omitted> mid-sentence',
    ('flip', '443e4599fd'): 'transition duties of the supplier; a flip has no subject matter',
    ('flip', '3db3e7a2e8'): 'term dates; no party right',
    ('flip', 'e39ffb4929'): 'termination fee payable to the agent as its pre-estimated loss; a flip has no sense',
    ('flip', '09b087d156'): 'franchisor audit of franchisee royalties; a flip has no sense',
    ('flip', '7aad5ca328'): 'joined by <omitted> mid-sentence',
    ('flip', 'ff2fbc3fbc'): 'operator hand-back of owner property; a flip has no subject matter',
    ('flip', 'c0feec60da'): 'joined by <omitted>; software IP indemnity of the licensor',
    ('flip', '9eacb38cdb'): 'joined by <omitted>; the reverse indemnity follows',
    ('flip', 'cf65005e50'): 'exclusivity of the operating company in favour of its service provider (control-agreement structure); a flip has no commercial sense',
    ('flip', 'ef2d98e7da'): 'software licence of the provider; a flip has no subject matter',
    ('flip', '18342abb8a'): 'seller product warranty; a flip has no subject matter',
    ('flip', 'c035f1dcdf'): 'joined by <omitted>',
    ('flip', '80b4a3ac19'): 'franchise fees; a flip has no sense',
    ('flip', '15718b75e6'): 'transition of the services from the provider; a flip has no subject matter',
    ('flip', '86a079eb5d'): 'the reverse indemnity follows (7.02 Indemnification by Contractor)',
    ('flip', '6fc10f5ec9'): 'joined by <omitted> mid-sentence',
    ('flip', 'da3ee3bb8b'): 'supply and purchase exclusivity; a flip has no sense',
    ('flip', 'b9a400165e'): 'content rights in one party publication; a flip has no sense',
    ('flip', 'acde85bc5f'): 'split-dollar insurance benefit; a flip has no sense',
    ('flip', '99e7db770b'): 'joined by <omitted> mid-sentence',
    ('flip', '5bec008d54'): 'already mutual (Converge and Vert each agree)',
    ('flip', '32762b4bf5'): 'generic roles (Indemnitee) and ends at a colon',
    ('flip', '5fc9beb94d'): 'sublicensing of the licensee and patent transfer by the licensor already restricted each way',
    ('flip', 'b992ff50d0'): 'platform liquidated damages and deposits; a flip has no sense',
    ('flip', '1ff5501457'): 'insurance for use of one person likeness; a flip has no sense',
    ('flip', '32a16c933e'): 'franchisee non-compete; a flip has no sense',
    ('flip', '023c043b97'): 'generic roles (auditing / audited Party)',
    ('flip', 'ef3521fa5e'): 'already binds both Parties',
    ('flip', 'c9c0423ff1'): 'carve-out from an indemnity of the agent whose grant is not selected; nothing to flip in isolation',
    ('flip', 'c9b48967a5'): 'content exclusivity of the licensor; a flip has no sense',
    ('flip', '428c1759ac'): 'term tied to one party ad delivery; a flip has no sense',
    ('flip', '7138073d56'): 'cut off at a colon before the grounds of the indemnity',
    ('flip', '920ebcdb85'): 'joined by <omitted>; royalties',
    ('flip', 'd95643c6bd'): 'board nomination of the investor designee; a flip has no sense',
    ('flip', '18c5dbcd29'): 'joined by <omitted>',
    ('flip', '47f44c85cc'): 'franchisor purchase option mechanics; a flip has no sense',
    ('flip', '0c82a63a53'): 'broad indemnity of the servicer by the asset owner (same text as b8029e9c84); reversed it would make the servicer insure the owner assets',
    ('flip', 'cd985f9141'): 'joined by <omitted> mid-sentence',
    ('flip', '1891583a61'): 'licence of one person identification; a flip has no subject matter',
    ('flip', '7c42d25dbf'): 'joined by <omitted>',
    ('flip', 'fb6580629c'): 'licence of one person likeness; a flip has no subject matter',
    ('flip', 'fac239eb05'): 'franchisee non-contest and release; a flip has no sense',
    ('flip', '35f2cbc885'): 'seller exclusion for its defective products; a flip has no subject matter',
    ('flip', 'b6976fbc8f'): 'renewal mechanics; no party right to give',
    ('flip', '8b1a21dd67'): 'both parties already hold termination rights on the same event',
    ('flip', 'ee66d4f04d'): 'joined by <omitted>',
    ('flip', 'd64322dea8'): 'offering termination; no party right to give',
    ('flip', '6f64f6e130'): 'buyer inspection of delivered product; a flip has no subject matter',
    ('flip', '353f604d76'): 'joined by <omitted> mid-sentence',
    ('flip', '3134e2a67c'): 'already gives each of Licensor and Rogers the right',
    ('flip', '03e2e30be3'): 'licensor audit of the royalty payer records; a flip has no sense',
    ('flip', '8c0aa8eb57'): 'the reverse indemnity follows (b. Sponsor agrees to indemnify SDBF)',
    ('flip', '7e0917ea6a'): 'IP indemnity from the maker of the Products; a flip has no subject matter',
    ('flip', 'ba93620d3b'): 'starts mid-list and runs across sections',
    ('flip', 'a5bfe75260'): 'source code licence of the software owner; a flip has no subject matter',
    ('flip', '4bd935c7f0'): 'sublicensing of the licensee and a licence of the licensor; a flip has no subject matter',
    ('flip', '7cde845829'): 'payment survival and liquidated damages tied to fees; a flip has no sense',
    ('flip', '226d5b4055'): 'automatic termination on a payment; no party right to give',
    ('flip', '3ab4335c5b'): 'cut off at a colon before the grounds of the indemnity',
    ('flip', '7f2dfe5ede'): 'joined by <omitted>',
    ('flip', 'e9cb16682b'): 'exclusivity of the service provider with redacted scope; a flip has no sense',
    ('flip', '056532b7f3'): 'joined by <omitted> mid-sentence',
    ('flip', '3ee24769a4'): 'licence of one party marks; a flip has no subject matter',
    ('flip', 'f320609480'): 'franchisor right of first refusal, ends at a colon',
    ('flip', '4eaed281a4'): 'seller product warranty; a flip has no subject matter',
    ('flip', 'e147b2dc57'): 'generic roles (assigning Party, no Party); already binds all parties',
    ('flip', 'b4edcc78fb'): 'licensor audit of the royalty payer; a flip has no sense',
    ('flip', '98c0cba72a'): 'joined by <omitted>',
    ('flip', 'a5221603e5'): 'product IP and product-liability indemnity from the makers (same text as eb6afed7a2); a flip has no subject matter',
    ('flip', '2bd6c70c78'): 'cut mid-list; the heading numbering (10.1 CLIENT) shows the reverse indemnity follows',
    ('flip', '5ce44f1405'): 'governing law; no party right',
    ('flip', 'e370aecf96'): 'platform online terms limiting the platform liability to users; a flip has no commercial sense',
    ('flip', '0789e47864'): 'joined by <omitted> mid-sentence',
    ('flip', '6e89afe2a2'): 'manufacturer access to subcontract manufacturer records; a flip has no sense',
    ('flip', '6e69b197ba'): 'audit rights already run both ways',
    ('flip', 'a971fa982f'): 'advertising inventory on one party site; a flip has no subject matter',
    ('flip', '75d66a9c50'): 'insurance of the licensee naming the licensor; a flip has no sense',
    ('flip', '2b75e00c64'): 'records retention of the licensee and its sell-off; a flip has no subject matter',
    ('flip', '225925a0bf'): 'starts mid-list; no whole clause',
    ('flip', 'a27c14a6f1'): 'advertising slot mechanics; no party right to give',
    ('flip', 'cab2d39bd9'): 'IP warranty and defence from the supplier of the advertising materials; a flip has no subject matter',
    ('flip', 'a293b38925'): 'joined by <omitted> mid-sentence',
    ('flip', 'a2d39e6dad'): 'indemnities already run both ways ((a) and (b))',
    ('flip', '68e7f6b3b2'): 'joined by <omitted> mid-sentence',
    ('flip', 'ec937f3c65'): 'already binds each of the parties',
    ('flip', 'fd67c363fd'): 'IP indemnity from the software owner; a flip has no subject matter',
    ('flip', '90074d3b6f'): 'already binds both (the other marks)',
    ('flip', 'da8af55143'): 'customer observation of the manufacturing process; a flip has no sense',
    ('flip', 'd8167bf7d5'): 'fee renegotiation trigger; no party right to give',
    ('flip', '7dc650afb7'): 'revenue share table; no party right to give',
    ('flip', 'a66a1bf13c'): 'joined by <omitted>',
    ('flip', '696617abe7'): 'joined by <omitted> mid-sentence',
    ('flip', '574d6e8263'): 'party definitions; no right',
    ('flip', 'efa699df91'): 'vesting of one person RSUs; a flip has no sense',
    ('flip', '7869371fc8'): 'joined by <omitted>',
    ('flip', '7f30eb1428'): 'joined by <omitted>',
    ('flip', '0123c1a06a'): 'assistance by an individual with the company IP; a flip has no subject matter',
    ('flip', 'ccaeb38192'): 'joined by <omitted>',
    ('flip', '364e0efd62'): 'indemnities already run both ways (11.1 and 11.2)',
    ('flip', '41700487ce'): 'joined by <omitted> mid-sentence',
    ('flip', '79d12c68dc'): 'hosting and exclusivity of one party insurance centre; a flip has no subject matter',
    ('flip', '1617a86923'): 'licence of one party background IP; a flip has no subject matter',
    ('flip', '729730b888'): 'domain names of one party licensed to the other; a flip has no subject matter',
    ('flip', '1136605378'): 'merchandise first refusal and domain registration tied to the marks owner; a flip has no sense',
    ('flip', '6d61923321'): 'transition services on termination; a flip has no sense',
    ('flip', '371853241d'): 'franchisee de-registration of franchisor marks; a flip has no sense',
    ('flip', '0c76129bee'): 'joined by <omitted>; ownership already split',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-nevada.docx#13.2'): 'state non-compete limit; the agreements of its kind it could be conformed into have no non-compete',
    ('conform', 'bonterms-cc0-1.0/bonterms-professional-services-agreement.docx#p1'): 'cover page, not a clause',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-utah.docx#11'): 'state non-compete limits; the agreements of its kind it could be conformed into have no non-compete',
    ('conform', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#2.3'): 'only the professional services agreement (its own) has Deliverables; no compatible document to conform it into',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-virginia.docx#p13'): 'cover-page entry, not a clause',
    ('conform', '693fe09a68'): 'franchise master-territory clause; no compatible agreement among the shared ones',
    ('conform', 'bb499b7939'): 'cut mid-list',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-district-of-columbia.docx#4.1'): 'one-line effective-date sentence; nothing a lawyer would conform',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-maine.docx#14'): 'no party or defined term to conform (generic employer)',
    ('conform', 'd39102ead3'): 'personality-rights licence; no compatible agreement among the shared ones',
    ('conform', '643ca31ef9'): 'materials-transfer disclaimer of a research collaboration; no compatible agreement among the shared ones',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-indiana.docx#3'): 'near duplicate of an accepted draw (the Arizona consideration recital, into the same document)',
    ('conform', 'aacd7cf90f'): 'manufacturing-site inspection; no compatible agreement among the shared ones (no supply agreement)',
    ('conform', 'e56a9603f9'): 'joined by <omitted>',
    ('conform', '397ef302ae'): 'manufacturing volume commitments; no compatible agreement among the shared ones (no supply agreement)',
    ('conform', 'c45b1b2229'): 'merger-agreement access covenant; no compatible agreement among the shared ones',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-utah.docx#3'): 'near duplicate of an accepted draw (the Arizona consideration recital, into the same document)',
    ('conform', '37c4af4392'): 'joined by <omitted>',
    ('conform', '7d672b1476'): 'product supply indemnity; no compatible agreement among the shared ones (no supply agreement)',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-colorado.docx#13.1'): 'state statutory limits for health-care covenants; nothing to conform',
    ('conform', '3b7eec78a4'): 'multi-licensor content audit; no compatible agreement among the shared ones (no content licence)',
    ('conform', 'a4cc882414'): 'domain-name licence restrictions; no compatible agreement among the shared ones',
    ('conform', '435642670c'): 'consortium cost-records audit; no compatible agreement among the shared ones',
    ('conform', 'f54b6d9ad0'): 'gas delivery pressures; no compatible agreement among the shared ones',
    ('conform', '30ce146e0e'): 'already generic (each Party, the other); nothing to conform',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#1.1'): 'access to the provider cloud service; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#10.2'): 'already mutual through the definitions (13.12/13.29)',
    ('multi', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter-illinois.docx#5'): 'statutory notice duty of the employer; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#2'): 'seller representations about its own shares; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-utah.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#1.3'): 'use of feedback on one party product; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#2.4'): 'covered entity duty under HIPAA; one way by law',
    ('multi', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#9'): 'statutory protection of the employee; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#2.2'): 'use of the customer own materials; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-florida.docx#13'): 'statutory exclusion; no party change a lawyer would make',
    ('multi', 'ba06d4c6b0'): 'franchise grant; no party change a lawyer would make',
    ('multi', '7b45027ecc'): 'distributor non-contest of the maker IP; one way by nature',
    ('multi', 'da913d6316'): 'use of one person image; no party change a lawyer would make',
    ('multi', '03c29589a9'): 'freight charges; no party change a lawyer would make',
    ('multi', 'c9f7d7fee7'): 'joined by <omitted>',
    ('multi', '2ce7fffa74'): 'franchisee non-compete and lease option; no party change a lawyer would make',
    ('multi', '05f361f473'): 'joined by <omitted> mid-sentence',
    ('multi', '9f3606a3ff'): 'work-for-hire assignment to the commissioning party; one way by nature',
    ('multi', 'df117ff15a'): 'joined by <omitted> mid-sentence',
    ('multi', '8c7d54fe19'): 'maker warranty work and product warranty; one way by nature',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-michigan.docx#3'): 'consideration recital; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#1.3'): 'model-training limits on the provider; one way by nature',
    ('multi', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#1.1'): 'service delivery by the provider; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#5.3'): 'business associate PHI return under HIPAA; one way by law',
    ('multi', 'common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#1.5'): 'subcontracting by the party performing the Services; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#2.2'): 'controller instructions to the processor; one way by law',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-idaho.docx#p48'): 'cover-page entry, not a clause',
    ('multi', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#12'): 'employee non-solicit; no party change a lawyer would make in an employment covenant',
    ('multi', 'common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#3.3'): 'brand-use restrictions on the licensee of the other party brand; one way by nature',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#1.5'): 'use of the customer own content; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-nevada.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#2.3'): 'covered entity notice under HIPAA; one way by law',
    ('multi', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#5.3'): 'processor security due diligence; one way by law',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-iowa.docx#3'): 'consideration recital; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#4.4'): 'business associate breach confidentiality; a covered entity must notify by law, so one way',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-hampshire.docx#3'): 'consideration recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-montana.docx#17'): 'employer right to notify future employers; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-virginia.docx#11'): 'employee non-compete; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#2.2-2'): 'already binds both (Provider and Customer agree)',
    ('multi', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#7.1'): 'processor deletion duty; one way by law',
    ('multi', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#3.3'): 'business associate aggregation of PHI; one way by law',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-vermont.docx#3'): 'consideration recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-colorado.docx#14'): 'statutory cap; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#8.5'): 'exclusions tied to the provider Product; one way by nature',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#9.4'): 'provider remedies for its own product; one way by nature',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#5'): 'statutory protection of the employee; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#3.1-2'): 'service credits for the customer; one way by nature',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-south-dakota.docx#13'): 'statement about third-party no-poach; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-pennsylvania.docx#3'): 'consideration recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#16'): 'employer remedy for the employee covenants; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#17'): 'employer right to notify future employers; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-south-dakota.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#11'): 'employee duty of loyalty; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#1.4'): 'feedback and usage data of the provider service; one way by nature',
    ('multi', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#5.2'): 'processor security reports; one way by law',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-kentucky.docx#3'): 'consideration recital; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#p141'): 'cover-page entry, not a clause',
    ('multi', 'e48cb7f8da'): 'share transfer first refusal among generic Transferees; no party change a lawyer would make',
    ('multi', '7be53f0312'): 'joined by <omitted>',
    ('multi', '1a50024abc'): 'already mutual (assignment by any of the Parties)',
    ('multi', '410fe64a4f'): 'content licence of the licensor; one way by nature',
    ('multi', '3401cf21fa'): 'investor standstill, cut mid-sentence',
    ('multi', 'c44e8c1159'): 'reseller territory limits; one way by nature',
    ('multi', 'aeb523518e'): 'allocation of test performance to one party; no party change a lawyer would make',
    ('multi', 'b420437f2d'): 'minimum fee mechanics; no party change a lawyer would make',
    ('multi', '741e5820e1'): 'licences already run both ways',
    ('multi', '0c2fc61e84'): 'cut mid-list',
    ('multi', 'a7502f2b23'): 'joined by <omitted>',
    ('multi', 'ba9a2975f4'): 'joined by <omitted>',
    ('multi', '8caceb5fd7'): 'joined by <omitted>',
    ('multi', '6ed7cc1d55'): 'endorsement exclusivity of one person; no party change a lawyer would make',
    ('multi', 'ada8e4ca9d'): 'already binds both (the applicable Party, the other Party)',
    ('multi', 'd7bbad7601'): 'content licence of the licensor; one way by nature',
    ('multi', '06d2a231d4'): 'extension pricing; no party change a lawyer would make',
    ('multi', '6e409f3cea'): 'source code escrow access by the beneficiary; one way by nature',
    ('multi', '582797e563'): 'performance requirements of one golfer; no party change a lawyer would make',
    ('multi', '1609fb5c8c'): 'cost allocation of one party payment audit; no party change a lawyer would make',
    ('multi', '30cdd546b0'): 'patent assignment; one way by nature',
    ('multi', 'd8f501575b'): 'negotiation of a licence of one party results; one way by nature',
    ('multi', '180df002ff'): 'sell-off of the licensee inventory; one way by nature',
    ('multi', '68d78b56f4'): 'insurance already on both sides',
    ('multi', '156b6b3c16'): 'joined by <omitted>',
    ('multi', 'eafcf2ff1f'): 'franchisee leases; no party change a lawyer would make',
    ('multi', 'b72133df2a'): 'cut mid-list; the heading shows the reverse indemnity follows',
    ('multi', '606a8b916e'): 'securities offering mechanics; no party change a lawyer would make',
    ('multi', 'eba1fe8e43'): 'sublicensing of the licensee; one way by nature',
    ('multi', 'e6051714c6'): 'starts mid-list; no whole clause',
    ('multi', '408907bf9f'): 'party names redacted',
    ('multi', '904d04579d'): 'distribution licence of the maker; one way by nature',
    ('multi', '3e7ddd37af'): 'endorsement exclusivity of one person; no party change a lawyer would make',
    ('multi', 'c6d064493b'): 'revenue split; no party change a lawyer would make',
    ('multi', '249c9464ed'): 'indemnity for the licensee exercise of the licence; a mutual version needs new subject matter',
    ('multi', 'cf386842a5'): 'transition licence of one party product; one way by nature',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-massachusetts.docx#3'): 'statutory timing and consideration; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#5.6'): 'survival list of section numbers; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-virginia.docx#14'): 'statutory severance for the employee; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.5'): 'open-source notices of the software provider; one way by nature',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-arizona.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.4'): 'use of usage data by the provider; one way by nature',
    ('multi', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#2.2'): 'covered entity notice under HIPAA; one way by law',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#4.4'): 'taxes on the fees follow the payer; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#2.4'): 'customer duties as processor; one way by law',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-hawaii.docx#3'): 'consideration recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter-california.docx#2'): 'employment basis and schedule; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-georgia.docx#8'): 'employee non-solicit; no party change a lawyer would make in an employment covenant',
    ('multi', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#4.6'): 'survival list; the other limb already binds each Recipient',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-maryland.docx#9'): 'employee non-solicit; no party change a lawyer would make in an employment covenant',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-louisiana.docx#19'): 'no party bound (limit on tolling)',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-delaware.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#4.2'): 'notice of unsuccessful security attempts under HIPAA; one way by law',
    ('multi', 'common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#3.2'): 'moral rights waiver of the author; one way by nature',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-kansas.docx#8'): 'employee non-solicit; no party change a lawyer would make in an employment covenant',
    ('multi', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter.docx#8'): 'statutory California terms; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-rhode-island.docx#13'): 'statutory practice rights; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#9.1'): 'the reverse indemnity follows (9.2 Protection by Customer)',
    ('multi', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#8'): 'employee AI-tool policy; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-utah.docx#14'): 'tolling into the paired contractor agreement would near-duplicate the accepted Oregon conform task',
    ('multi', 'common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#1.2'): 'support by the provider; one way by nature',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-nebraska.docx#11'): 'employee non-investment covenant; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-founder-stock-assignment-separate.docx#1.2'): 'stock power recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement-nevada.docx#21'): 'employment agreement assignment; the employee side is personal',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-florida.docx#16'): 'statutory garden leave; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-employment-offer-letter-california.docx#13'): 'already mutual (either Employee or Company may end employment)',
    ('multi', 'common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.11'): 'business associate duties under the Privacy Rule; one way by law',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-georgia.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-north-carolina.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-puerto-rico.docx#2'): 'employee acknowledgements; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-idaho.docx#3'): 'consideration recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-oregon.docx#p33'): 'cover-page entry, not a clause',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-washington.docx#14.4'): 'statutory layoff pay; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-colorado.docx#17'): 'employer right to notify future employers; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#11'): 'employee non-investment covenant; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#14'): 'employee representation about prior obligations; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#5.1'): 'already mutual through the definitions (Discloser and Recipient are whichever party discloses or receives)',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-pennsylvania.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-ohio.docx#2'): 'recital; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-maine.docx#8'): 'employee non-solicit; no party change a lawyer would make in an employment covenant',
    ('multi', 'common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#3.4'): 'brand approvals by the brand owner; one way by nature',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-south-carolina.docx#18'): 'scope statement; no party change a lawyer would make',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-jersey.docx#14'): 'statutory exclusion for lawyers; no party change a lawyer would make',
    ('multi', 'common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#1.2'): 'use restrictions on the AI service user; one way by nature',
    ('multi', '1bac0c2642'): 'franchisor rights in franchisee ideas; one way by nature',
    ('multi', '710ff38762'): 'joined by <omitted>',
    ('multi', '9ba7301294'): 'joined by <omitted>',
    ('multi', 'ebb6709890'): 'servicer non-petition covenant; one way by nature',
    ('multi', '45b2f5453e'): 'warranty claim procedure of the buyer; one way by nature',
    ('multi', 'a008352de5'): 'content licence of the licensor; one way by nature',
    ('multi', '56219fb6a8'): 'IP assignment to the commissioning party; one way by nature',
    ('multi', 'd09179c19d'): 'freedom of the agent to sell non-competing products; no party change a lawyer would make',
    ('multi', 'b923a6df49'): 'no-challenge of one person personality rights; one way by nature',
    ('multi', '0ba4f6ee1c'): 'indemnities already run both ways (5.6 and 5.7)',
    ('multi', 'eb6dd76b6d'): 'exclusive marketing arrangement; no party change a lawyer would make',
    ('multi', '865e31ad18'): 'lettered (b) of a pair of indemnities; the reverse is in the same section',
    ('multi', '3762a362bc'): 'non-solicit already binds both',
    ('multi', '15d5a8605f'): 'licence consideration; no party change a lawyer would make',
    ('multi', 'f1f854273f'): 'fee formula; no party change a lawyer would make',
    ('multi', 'd80a5965a5'): 'trademark licence of the licensor; one way by nature',
    ('multi', 'daa93ea438'): 'fees; no party change a lawyer would make',
    ('multi', '79528b50d9'): 'joined by <omitted>',
    ('multi', 'b8209c9048'): 'source code release triggers; one way by nature',
    ('multi', 'c55cd7caf2'): 'licences already run both ways',
    ('multi', '2860a7bb8b'): 'sponsorship designation; no party change a lawyer would make',
    ('multi', '1c48065fae'): 'reporting duties with redactions; one way by nature',
    ('multi', '99e3aa98ca'): 'already mutual (No Party will)',
    ('multi', 'dfc22a8e92'): 'audit of the manufacturer quality system; one way by nature',
    ('multi', '8f1169f9c1'): 'joined by <omitted>',
    ('multi', '1da46b8bf1'): 'joined by <omitted>',
    ('multi', '0eabff6ea5'): 'franchise indemnity definitions; no party change a lawyer would make',
    ('multi', 'a2f83c22f0'): 'IP indemnity from the maker of the Products; one way by nature',
    ('multi', '3a3b36010f'): 'non-solicit already binds both (In turn, UTEK agrees)',
    ('multi', '0b56cf0fcb'): 'assignment of data and developments to the customer; one way by nature',
    ('multi', 'eaaf91fa96'): 'the reverse indemnity follows (Indemnification of Owner by Operator)',
    ('multi', 'bdf1838126'): 'governing law; no party change',
    ('multi', 'bc36dd63be'): 'joined by <omitted>; background licences already run both ways',
    ('multi', '42fa7b283f'): 'insurance already on both sides',
    ('multi', '2320cffef5'): 'repair logistics; no party change a lawyer would make',
    ('multi', '3084f46d1a'): 'product warranty of the maker; one way by nature',
    ('multi', '50aeae83f6'): 'ownership and transfer of trial data; one way by nature',
    ('multi', 'ca2778c15c'): 'joined by <omitted>',
    ('multi', '4841d91764'): 'patent licence of the licensor; one way by nature',
    ('multi', 'efb907b0ee'): 'cut mid-list; the heading shows the reverse indemnity follows',
    ('multi', '2f0f153754'): 'technology licence of the licensor; one way by nature',
    ('multi', 'c294dd4832'): 'IP indemnity from the maker of the Products; one way by nature',
    ('multi', '0554f8ecd8'): 'joined by <omitted>',
    ('multi', 'a9cd7c2fe2'): 'product liability insurance of the maker; one way by nature',
    ('multi', '07c7a569f5'): 'termination right tied to one party ownership of the other; no party change a lawyer would make',
    ('multi', '9ad009e91e'): 'exceptions already apply to a Party (either)',
    ('multi', '368e42c90b'): 'trademark licence of the network; one way by nature',
    ('multi', 'a0f874bcb8'): 'non-compete already binds both',
    ('multi', '39a01248f8'): 'carrier tariff exclusion; no party change a lawyer would make',
    ('multi', '6b1502ead3'): 'trademark licence of the vendor; one way by nature',
    ('multi', '1131855bef'): 'records of the distributing party product sales; one way by nature',
    ('multi', '99466ff704'): 'assignment already restricted both ways',
    ('multi', '7ac7d3d79b'): 'royalty; no party change a lawyer would make',
    ('multi', 'ec22ac2b3a'): 'licence of one party materials; one way by nature',
    ('multi', '73089618c0'): 'joined by <omitted>',
    ('multi', '2b0f6eae5c'): 'royalty credits; no party change a lawyer would make',
    ('multi', '1a459a6f9e'): 'quality control by the trademark owner; one way by nature',
    ('multi', 'cc0652a22a'): 'joined by <omitted>',
    ('multi', 'bcf113ef63'): 'licence conversion on termination; one way by nature',
    ('multi', 'db8eeb5a11'): 'franchisor consent to franchise transfers; one way by nature',
    ('multi', '48ee86e6bb'): 'restrictions on the vendor tied to the customer sites; one way by nature',
    ('multi', '93bc176c10'): 'trademark licence of the maker; one way by nature',
    ('multi', 'bd233e2ef7'): 'already binds each of Supplier and CUTANEA',
    ('multi', 'f6ec76ee94'): 'IP indemnity for the consultant own work product; one way by nature',
    ('multi', '637afa5b52'): 'licensor approval of licensee insurance; one way by nature',
    ('multi', '2287dce379'): 'clinical and product insurance of the developer; one way by nature',
    ('multi', '9e8278547f'): 'consumer online terms; no party change a lawyer would make',
    ('multi', 'f6fae2eb74'): 'executive non-solicit; no party change a lawyer would make in an employment agreement',
    ('multi', '3b7a52c944'): 'joined by <omitted>',
    ('multi', '5578287bd2'): 'portal exclusivity; no party change a lawyer would make',
    ('multi', 'a9400d09e9'): 'royalty true-up; no party change a lawyer would make',
    ('multi', '802685b260'): 'joined by <omitted>',
    ('multi', 'c3937388f5'): 'trademark licences of each party; already runs both ways',
    ('multi', '5167d4bf26'): 'seller remedies under consumer terms; no party change a lawyer would make',
    ('multi', '81a629331d'): 'customer audit of the manufacturer security; one way by nature',
    ('multi', '0a672226f1'): 'waiver of claims by a sponsor; one way by nature',
    ('multi', '059c601998'): 'claims-made tail of one party insurance, cut mid-sentence',
    ('multi', '81fd6788e2'): 'exculpation of an administrative agent; one way by nature',
    ('multi', '17ed0edadd'): 'purchase exclusivity; no party change a lawyer would make',
    ('multi', '27da0418e8'): 'contractor insurance list, starts mid-list',
    ('multi', '4a9999cd8f'): 'post-termination use of one party facility; one way by nature',
    ('multi', 'd410f3f7c4'): 'first negotiation right over one party films; one way by nature',
    ('multi', 'ca00640656'): 'sublicensing by the licensee, redacted; one way by nature',
    ('multi', 'aae69a035c'): 'joined by <omitted>',
    ('multi', 'b8e5611822'): 'starts mid-list; no whole clause',
    ('multi', '746a55f117'): 'remedies for breach of share-transfer covenants, cut mid-sentence',
    ('multi', '956d787a31'): 'termination trigger tied to one party shareholding; a mutual version needs a new trigger',
    ('multi', '70faab3e29'): 'joined by <omitted>',
    ('multi', '1f60a55faa'): 'redacted endorsement carve-outs; no party change a lawyer would make',
    ('multi', 'db46a1830c'): 'joined by <omitted>; already binds every Party',
    ('multi', '1eb4e549ca'): 'cut mid-sentence; the heading shows the reverse indemnity follows',
    ('multi', '5c6215e0d3'): 'group licence of the licensor parties; one way by nature',
    ('multi', 'cabd5b651c'): 'joined by <omitted>',
    ('multi', '52df4d8119'): 'end-user licence after termination; one way by nature',
    ('multi', 'bc78f08d6e'): 'buyer access to the maker records and facilities; one way by nature',
    ('multi', 'f08d7d0961'): 'trade name licence of the licensor; one way by nature',
    ('multi', '26977fd945'): 'restrictions after an acquisition of one party; no party change a lawyer would make',
    ('multi', 'ac33ad966c'): 'joined by <omitted>',
    ('multi', '278355109e'): 'transition cooperation of the distributor; one way by nature',
    ('multi', '908cdc2bcf'): 'joined by <omitted>',
    ('multi', 'c7bee1dd6a'): 'roles already generic (Billing / Non-Billing Party)',
    ('multi', '12fa0beab0'): 'liability already set for both sides',
    ('multi', 'f8be4e43fa'): 'post-termination use of an endorsement; one way by nature',
    ('multi', '4ab97898e7'): 'staffing cap; no party change a lawyer would make',
    ('multi', '97d1d6567e'): 'ownership acknowledgements already on both sides',
    ('multi', '07f2d5e9a4'): 'fees; no party change a lawyer would make',
    ('multi', '30c98dfa33'): 'lettered A of a pair of indemnities; the reverse follows',
    ('multi', '901f9072f4'): 'licence of shared IP to the spun-off company; one way by nature',
    ('multi', '31ae269da6'): 'product warranty of the maker; one way by nature',
    ('multi', '4805eab4ac'): 'put and call option mechanics already on both sides',
    ('multi', '0c55bfbc98'): 'joined by <omitted>',
    ('multi', 'dd395e0f6f'): 'product warranty of the seller; one way by nature',
    ('multi', '076ad691de'): 'purchase terms for one party machines; one way by nature',
    ('multi', '59ef0cc935'): 'joined by <omitted>',
    ('multi', 'ad1afd2eb7'): 'distribution limits of the licensor; no party change a lawyer would make',
    ('multi', 'b9a85d9892'): 'numbered 12.1.1 of a pair of indemnities; the reverse follows',
    ('multi', 'e58024de9c'): 'already mutual (the second paragraph gives the reverse indemnity)',
    ('multi', '0cb1c2731f'): 'indemnity tied to the licensee products and use of the mark; a mutual version needs new subject matter',
    ('multi', '872a0c09b2'): 'insurance of the licensee naming the licensor; one way by nature',
    ('multi', '54f055e3e6'): 'franchisee acknowledgement of the franchisor marks; one way by nature',
    ('multi', '4f030812fe'): 'joined by <omitted>',
    ('multi', '0957e5077d'): 'exclusivity in a platform agreement; no party change a lawyer would make',
    ('multi', 'b1a0a0fb47'): 'endorsement carve-outs; no party change a lawyer would make',
    ('multi', '2b373eb6f9'): 'the reverse indemnity follows (10.2)',
    ('multi', '9395f5ca02'): 'shipper pre-service termination mechanics; one way by nature',
    ('multi', 'a60431e489'): 'first negotiation over one party compounds; one way by nature',
    ('multi', '6d694b91b3'): 'consumer online terms; no party change a lawyer would make',
    ('multi', 'dc73ec27b7'): 'supplier warranty and recovery objectives; one way by nature',
    ('multi', '6c275aae9f'): 'joined by <omitted>',
    ('multi', 'ed84681de0'): 'advertising exclusions on one party pages; one way by nature',
    ('multi', '62c845c045'): 'licence of one person image; one way by nature',
    ('multi', '9b67939dbc'): 'sponsor ticket options; no party change a lawyer would make',
    ('multi', '2c94ca2700'): 'royalty floor; no party change a lawyer would make',
    ('multi', '9ed53ad3aa'): 'no-challenge of the licensor marks; one way by nature',
    ('multi', '52a540bd70'): 'trademark licence of the licensor; one way by nature',
    ('multi', 'adf4c99e4b'): 'freedom to contract already stated for both',
    ('multi', '9e525f1e0c'): 'numbered 8.1 of a pair of indemnities; the reverse follows',
    ('multi', '7ae3028fd5'): 'termination rights already on both sides',
    ('multi', '7911dec074'): 'non-compete of the liquidation agent; one way by nature',
    ('multi', '08bb8f3388'): 'carve-out from one indemnity; the reverse indemnity follows (9.1.2)',
    ('multi', 'c47f7fd2a6'): 'prosecution already split between both parties; key names redacted',
    ('multi', 'c12e7c6f08'): 'rights retained on a lapsed option; no party change a lawyer would make',
    ('multi', 'a6ab61d1b9'): 'indemnity of a research institute by the commercial party for its own sales; one way by nature',
    ('multi', 'cd46866b08'): 'sublicensing by the licensee; one way by nature',
    ('multi', 'c22e8bbb7c'): 'joined by <omitted>',
    ('multi', '22b0810d49'): 'joined by <omitted>',
    ('multi', 'e25389d900'): 'joined by <omitted>',
    ('multi', 'aea20e83ab'): 'starts mid-list; no whole clause',
    ('multi', '2fcae09912'): 'starts mid-sentence and repeats itself; no whole clause',
    ('multi', '5381bfa4bd'): 'governing law; no party change',
    ('multi', '332f3a5cec'): 'placement-agent termination conditions; no party change a lawyer would make',
    ('multi', 'e6abcb23ec'): 'no-challenge of the owner IP; one way by nature',
    ('multi', '3575660dd4'): 'training by the supplier; one way by nature',
    ('multi', '3f81e41ee3'): 'governing law; no party change',
    ('multi', 'ff9fbb100a'): 'records and audit of the party that pays revenue; one way by nature',
    ('multi', '2a922bd552'): 'limits on one party warranty and indemnity under another licence; no party change a lawyer would make',
    ('multi', '6b9472dee4'): 'no-warranty statement of the reseller; no party change a lawyer would make',
    ('multi', '28218ef1a1'): 'agency appointment and exclusivity; no party change a lawyer would make',
    ('multi', '1911c9c166'): 'indemnity tied to one party study drug and data (same text as 861ce6016a); a mutual version needs new subject matter',
    ('multi', '63454a8838'): 'licence of the vendor IP; one way by nature',
    ('multi', '293ef4d1e1'): 'software licence terms of the publisher; no party change a lawyer would make',
    ('multi', 'cd07cade66'): 'commission payments; no party change a lawyer would make',
    ('multi', '696583beb5'): 'loss of exclusivity triggers; no party change a lawyer would make',
    ('multi', '60ed8ba6d1'): 'seller defect liability with broken layout; no whole clause',
    ('multi', 'ae4e37a3bd'): 'joined by <omitted>',
    ('multi', '83da871296'): 'ends at a colon; no operative text',
    ('multi', 'a534184fa0'): 'joined by <omitted>',
    ('multi', '0322d838e4'): 'licence of the licensor; one way by nature',
    ('multi', '431ff9409a'): 'last-time inventory from the manufacturer; one way by nature',
    ('multi', 'c5aaffb9e8'): 'party block; no clause',
    ('multi', 'fc22af5e91'): 'revenue shares; no party change a lawyer would make',
    ('multi', 'f27d0d2574'): 'trademark licences already run both ways',
    ('multi', 'dd9497ca27'): 'ends at a colon; no operative text',
    ('multi', 'a399eeff41'): 'already mutual (both agree)',
    ('multi', 'cb09dac119'): 'joined by <omitted>',
    ('multi', '43cb823b63'): 'consultant IP arrangements of one party; one way by nature',
    ('multi', '2be7e7e75b'): 'joined by <omitted>',
    ('multi', '5fa133cccd'): 'termination rights already on both sides',
    ('multi', 'b5b46bfb68'): 'uptime commitment of the provider; one way by nature',
    ('multi', '2880271fa9'): 'starts mid-list; no whole clause',
    ('multi', '3663393827'): 'quality audit of the purchaser products bearing the seller marking; one way by nature',
    ('multi', '513aea8b3c'): 'exclusivity of the developer; no party change a lawyer would make',
    ('multi', '74c6e5a04a'): 'starts mid-list; already mutual indemnities',
    ('multi', '18d259d5ca'): 'already joint ownership',
    ('multi', '9801ca2b34'): 'numbered 9.1 of a pair of liability limits; the reverse follows',
    ('multi', '062f0d134e'): 'title and IP indemnity from the maker of the Products; one way by nature',
    ('multi', '21bc5257a1'): 'acknowledgement of one party trademarks; one way by nature',
    ('multi', 'a6c3c84d6a'): 'fund reporting to its adviser; one way by nature',
    ('multi', '9867b589e1'): 'royalties; no party change a lawyer would make',
    ('multi', '0380046b9c'): 'traffic commitment; no party change a lawyer would make',
    ('multi', '3e3c7ef34c'): 'supplier capacity and purchase orders; one way by nature',
    ('mutual', '758381c7a3'): 'second reading: the same ACORD text goes on to 9.5, where MBRK indemnifies DD; already mutual',
    ('mutual', 'f7e1272bd4'): 'joined by <omitted>',
    ('mutual', '1a08248203'): 'term clause; nothing to make mutual',
    ('mutual', '6fe253391a'): 'royalties, joined by <omitted>',
    ('mutual', 'b70dabf0c9'): 'transition duty of the outgoing servicer; one way by nature',
    ('mutual', 'd0fdda1ae1'): 'licensee sell-off and royalty audit, joined by <omitted>',
    ('flip', 'common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#3.1'): 'second reading: already mutual through the definitions (13.14/13.15: Licensor and Licensee are whichever party gives or takes the Brand Elements)',
}
# Conform pairings redrawn: (clause_id, document) -> reason.
MANUAL_PAIR_REJECT: dict[tuple[str, str], str] = {
    ('openagreements-cc-by-4.0/openagreements-restrictive-covenant-oregon.docx#18', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-texas.docx'): 'same parties and defined terms as the clause (Employer, Employee, Restricted Period): nothing to conform',
    ('common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#4.1', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-york.docx'): 'a restrictive covenant agreement has no Services or SOW to tie a term to',
    ('490e02ad76', 'common-paper-cc-by-4.0/common-paper-pilot-agreement.docx'): 'a pilot agreement has no development work or project plans to assign IP in',
    ('61eb96d460', 'common-paper-cc-by-4.0/common-paper-csa-click-through.docx'): 'a click-through cloud agreement takes no negotiated escrow and delivers no source code',
    ('common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#5.3', 'common-paper-cc-by-4.0/common-paper-pilot-agreement.docx'): 'the pilot agreement gives no warranty (all AS IS) for exclusions to qualify',
    ('openagreements-cc-by-4.0/openagreements-restrictive-covenant-arizona.docx#4', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-texas.docx'): 'same parties and defined terms as the clause (Employer, Employee, Cover Terms, Protected Interests): nothing to conform',
    ('openagreements-cc-by-4.0/openagreements-restrictive-covenant-arizona.docx#22', 'openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement.docx'): 'the paired document already has the same clause in the same terms (section 23): nothing to conform',
    ('common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#1.3', 'common-paper-cc-by-4.0/common-paper-partnership-agreement.docx'): 'the partnership agreement has no SOWs to amend by change order',
    ('openagreements-cc-by-4.0/openagreements-restrictive-covenant-arizona.docx#22', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-york.docx'): 'same defined terms as the clause (Cover Terms, Governing Law state): nothing to conform',
}

# Kinds of agreement, to pair a conform clause with a compatible lawyer's document.
DOC_KINDS = {
    "nda": [
        "common-paper-cc-by-4.0/common-paper-mutual-nda.docx",
        "common-paper-cc-by-4.0/common-paper-one-way-nda.docx",
    ],
    "commercial": [
        "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx",
        "common-paper-cc-by-4.0/common-paper-csa-click-through.docx",
        "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx",
        "common-paper-cc-by-4.0/common-paper-software-license-agreement.docx",
        "common-paper-cc-by-4.0/common-paper-pilot-agreement.docx",
        "common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx",
        "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx",
    ],
    "data": [
        "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx",
        "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx",
    ],
    "employment": [
        "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx",
        "openagreements-cc-by-4.0/openagreements-confidentiality-invention-assignment-agreement.docx",
        "openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-york.docx",
        "openagreements-cc-by-4.0/openagreements-restrictive-covenant-texas.docx",
    ],
}


def kind_of(source: str, doc: str | None, text: str) -> list[str]:
    """Which kinds of lawyer's document a clause could be conformed into."""
    if doc:
        for kind, docs in DOC_KINDS.items():
            if doc in docs:
                return [kind]
        if "restrictive-covenant" in doc or "offer-letter" in doc or "invention" in doc:
            return ["employment"]
        if "nda" in doc:
            return ["nda"]
        if "processing" in doc or "associate" in doc:
            return ["data"]
        return ["commercial"]
    low = text.lower()
    if "employ" in low:
        return ["employment"]
    if "personal data" in low or "protected health" in low:
        return ["data"]
    if "confidential" in low:
        return ["nda", "commercial"]
    return ["commercial"]


def load_acord() -> list[dict]:
    rows = []
    with ACORD.open(encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            rows.append({"source": "acord", "clause_id": row["_id"], "doc": None, "text": row["text"]})
    return rows


def near_copy_key(text: str) -> str:
    """The first 100 characters of a clause's body: the 50 state covenants and the CSA variants
    repeat the same clause with small edits, and one copy of each is drawn, not fifty."""
    head, _, body = text.partition("\n")
    if not body or len(head) >= 90:
        body = text
    body = re.sub(r"^\s*[\d.]+\s*", "", body)
    return " ".join(body.split())[:100]


def load_contracts() -> list[dict]:
    """Every clause of every agreement (sorted by path; forms that are not agreements left
    out), near copies kept once (the first)."""
    rows, seen = [], set()
    for path in sorted(CONTRACTS.rglob("*.docx")):
        rel = str(path.relative_to(CONTRACTS))
        if any(name in rel for name in NOT_AGREEMENTS):
            continue
        for clause in read_clauses(path, rel, rel, keep_template_text=True):  # as drawn (before session 7)
            key = near_copy_key(clause.text)
            if key in seen:
                continue
            seen.add(key)
            rows.append({"source": "contracts", "clause_id": clause.clause_id, "doc": rel, "text": clause.text})
    return rows


def windows(text: str) -> list[str]:
    """The clause itself if short enough, else its runs of 1-3 consecutive sentences."""
    if len(text) <= MAX_CHARS:
        return [text]
    sents = SENTENCE.split(text)
    out = []
    for size in (3, 2, 1):
        for i in range(len(sents) - size + 1):
            win = " ".join(sents[i:i + size])
            if len(win) <= MAX_CHARS and win in text:
                out.append(win)
    return out


def one_sided(text: str, source: str) -> str | None:
    """None if a named party is bound or protected alone, else the reason it is not."""
    if ALREADY_MUTUAL.search(text):
        return "already mutual (each/either/neither party, both parties or 'mutual')"
    actor, possessive = (ROLE_ACTOR, ROLE_POSSESSIVE) if source == "contracts" else (NAME_ACTOR, NAME_POSSESSIVE)
    actors = [m.group(1) for m in actor.finditer(text)]
    actors = [a for a in actors if a.removeprefix("the ") not in NOT_PARTY and a not in NOT_PARTY]
    if actors or possessive.search(text):
        return None
    return "no named party bound or protected (no party + shall/will/may/must, no possessive)"


# Employment forms: the employee's covenants are one-sided by design and a lawyer does not ask
# to make them mutual, except non-disparagement (mutual non-disparagement is a common ask).
EMPLOYMENT_FORMS = ("restrictive-covenant", "offer-letter", "invention-assignment", "founder-")


def suitable(category: str, row: dict) -> tuple[str | None, str | None]:
    """(selection, None) when the broad pattern fits, else (None, reason)."""
    if (category == "mutual" and row["doc"] and any(f in row["doc"] for f in EMPLOYMENT_FORMS)
            and "disparag" not in row["text"].lower()):
        return None, "employment form: the employee's covenants are one-sided by design (mutual asked only of non-disparagement)"
    if DEFINITION.search(row["text"]):
        return None, "definition, no obligation"
    if FORM_FURNITURE.search(row["text"]):
        return None, "cover-page variable, checkbox or drafting note, not an operative clause"
    wins = windows(row["text"])
    if not wins:
        return None, "over 1,200 characters and no 1-3 sentence window within it"
    last = None
    for win in wins:
        if category == "conform":
            if PARTY_OR_TERM.search(win):
                return win, None
            last = "no party or defined term mentioned"
        else:
            last = one_sided(win, row["source"])
            if last is None and category == "flip" and not FLIPPABLE.search(win):
                last = "no right, option, consent, termination, indemnity, liability or cost to give the other party"
            if last is None:
                return win, None
    return None, last


def draw(out: Path) -> list[dict]:
    rng = random.Random(SEED)
    pools = {"acord": load_acord(), "contracts": load_contracts()}
    order = {src: rng.sample(rows, len(rows)) for src, rows in pools.items()}
    cursor = {src: 0 for src in pools}
    used: set[str] = set()
    records = []
    for category, source, want in ROUNDS:
        got = 0
        while got < want:
            row = order[source][cursor[source]]
            cursor[source] += 1
            rec = {"category": category, "source": source, "clause_id": row["clause_id"],
                   "doc": row["doc"], "draw": cursor[source]}
            if row["clause_id"] in used:
                rec.update(decision="rejected", reason="already drawn for another task")
                records.append(rec)
                continue
            selection, reason = suitable(category, row)
            if reason is None and (category, row["clause_id"]) in MANUAL_REJECT:
                reason = "annotator: " + MANUAL_REJECT[(category, row["clause_id"])]
            if reason is not None:
                rec.update(decision="rejected", reason=reason)
                records.append(rec)
                continue
            used.add(row["clause_id"])
            got += 1
            rec.update(decision="accepted", text=row["text"], pattern_window=selection)
            if category in ("conform", "multi"):
                # A multi task whose party part is to conform uses this document; the others
                # use the clause's own agreement.
                rec["pairings"] = pair(rng, row)
            records.append(rec)
    with out.open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return records


def pair(rng: random.Random, row: dict) -> list[dict]:
    """Draw the lawyer's document for a conform clause: compatible kind, another agreement."""
    kinds = kind_of(row["source"], row["doc"], row["text"])
    docs = sorted({d for k in kinds for d in DOC_KINDS[k]} - {row["doc"]})
    tries = []
    for doc in rng.sample(docs, len(docs)):
        reason = MANUAL_PAIR_REJECT.get((row["clause_id"], doc))
        tries.append({"document": doc, "decision": "rejected" if reason else "accepted", "reason": reason})
        if not reason:
            break
    return tries


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).with_name("a-draws.jsonl"))
    args = parser.parse_args()
    records = draw(args.out)
    accepted = sum(r["decision"] == "accepted" for r in records)
    log.info("%d draws, %d accepted, written to %s", len(records), accepted, args.out)


if __name__ == "__main__":
    main()
