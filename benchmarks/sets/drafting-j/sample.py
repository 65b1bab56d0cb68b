"""Seeded random draws of real clauses for the drafting-j tranche (issue 38): held-out only.

Runs drafting-i's sampler (``benchmarks/sets/drafting-i/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-h's, -g's and drafting-f's command line,
drafting-e's walk of the earlier task files and drafting-d's drawing loop on drafting-c's pools):
the same pools (ACORD corpus; the shared agreements split by
``index_builder.ingest.read_clauses`` with ``keep_template_text=True``, near copies once), the
same broad pattern per category, the same near-copy key, the same loop. What differs:

- SEED 9127;
- the rounds (below): 48 tasks, all held out; mutual and flip take what ACORD's seeded order
  gives (the agreements' pools are walked to the end and yield none, as in drafting-i);
- no tuning half: TUNING is 0 for every category, so the split gives every accepted draw to the
  held-out half;
- the rejections made on reading (MANUAL_REJECT): drafting-i's (which hold drafting-c's to -h's;
  a clause one annotator found unfit for a category stays unfit) and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-i/`` (both halves), ``caps2/``,
  ``caps3/``, ``figures/`` and ``conform/`` (their draws files are not read: a rejected draw was
  never used).

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-j/sample.py --out benchmarks/sets/drafting-j/draws.jsonl
    python benchmarks/sets/drafting-j/sample.py --show mutual acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_i_sample", HERE.parent / "drafting-i" / "sample.py")
I = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(I)  # drafting-i's sampler, which runs drafting-h's, -g's and drafting-f's
H, G, F, E, D, C = I.H, I.G, I.F, I.E, I.D, I.C

SEED = 9127
USED_DIRS = ("drafting", "drafting-c", "drafting-d", "drafting-e", "drafting-f", "drafting-g", "drafting-h",
             "drafting-i", "caps2", "caps3", "figures", "conform")
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order
ROUNDS = [("mutual", 4, 1), ("flip", 4, 1), ("conform", 2, 3), ("period", 5, 2), ("amount", 6, 2),
          ("carve_out", 3, 2), ("shorten", 2, 2), ("plain", 2, 2), ("multi", 7, 3)]
TUNING = {c: 0 for c in F.TUNING}  # no tuning half: every accepted draw is held out

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = dict(I.MANUAL_REJECT)
OWN_REJECT: dict[tuple[str, str], str] = {
    ('mutual', '8fdc10d7e5'): "vendor's assignment of data and development IP to AT&T, fragments joined by <omitted>; one way by nature",
    ('mutual', '74fe29e627'): "sponsor's exclusive branding on the driver's car and suit; one way by nature",
    ('mutual', 'f9fb960378'): "licensee's promotional purchases from its manufacturer; one way by nature",
    ('mutual', '539cc25466'): 'already mutual (no party may assign)',
    ('mutual', 'fc71aa80f4'): "AT&T's licence to its vendor; one way by nature",
    ('mutual', 'd8a9bc7f11'): 'governing law; binds no party alone',
    ('mutual', '9442bc563f'): 'governing law; binds no party alone',
    ('mutual', '9c71a72c03'): "developer's no-contest of the client's marks and patents; one way by nature",
    ('mutual', 'b8771bc7e5'): "payee's increase of its own payment schedule; one way by nature",
    ('mutual', '1cc3dfb677'): "contractor's help selling NICE's dead inventory; one way by nature",
    ('mutual', '753cdc33d4'): 'already mutual (a party ... the other party)',
    ('mutual', '941873354c'): "buyer's inspection of delivered API, cut off mid-sentence; one way by nature",
    ('mutual', '7ea718b9b9'): 'governing law; binds no party alone',
    ('mutual', '4cfe50033d'): 'governing law; binds no party alone',
    ('mutual', 'bafdf861bd'): 'already joint (copyright and trademark in joint names)',
    ('mutual', '512b32fa6a'): 'licences already run both ways (Reseller to TouchStar and TouchStar to Reseller)',
    ('mutual', '9341782285'): "licensee's post-termination exploitation rights; one way by nature",
    ('mutual', 'da7890e575'): "right of first refusal ending on either party's change of control; already two-way",
    ('mutual', 'defa5a874b'): 'non-compete cut mid-sentence by <omitted>',
    ('mutual', '73202bd2ba'): 'exclusive distribution and sub-licence to the distributor; one way by nature',
    ('mutual', '53fc343ad4'): "customer's inspection and rejection of products; one way by nature",
    ('mutual', 'd410f3f7c4'): "Fox's right of first negotiation to its licensee, cut off; one way by nature",
    ('mutual', '7f079767b9'): 'term of the agreement with a redacted duration; binds no party alone',
    ('mutual', '45fe57cc5c'): "buyer's rejection of shipments with redacted periods; one way by nature",
    ('mutual', 'e50d883c34'): "franchisee's assignment of allowances and ideas to the franchisor; one way by nature",
    ('mutual', 'aab84ccc67'): 'governing law; binds no party alone',
    ('mutual', '4a9999cd8f'): "station's post-termination use of the other's facility; one way by nature",
    ('mutual', '0fa4dd8fea'): 'already mutual (Network Affiliate and NCM each), fragments joined by <omitted>',
    ('mutual', 'b9a400165e'): "right of first refusal ending on either party's change of control (already two-way) and SpinCo's editorial right, cut off",
    ('mutual', '9771e7f93f'): "amendment making the licensee's distributorship exclusive; one way by nature",
    ('mutual', 'd51d957346'): 'appointment of the agent as financial adviser; one way by nature',
    ('mutual', '1c7563664f'): 'redacted percentage splits and royalties, fragments joined by <omitted>',
    ('mutual', '5cf60c4b2e'): "consultant's moral rights waiver, fragments joined by <omitted>; one way by nature",
    ('mutual', '7e0c0ec178'): 'licence from ETI to NTL; one way by nature',
    ('mutual', '301930a11c'): "agent's territorial limits, fragments joined by <omitted>; one way by nature",
    ('mutual', '856a5fafca'): "consultant's endorsement licence and exclusivity; one way by nature",
    ('mutual', 'a815951605'): "portal's prominence of the client's banners; one way by nature",
    ('mutual', 'b82423dd02'): "agent's territorial limits, fragments joined by <omitted>; one way by nature",
    ('mutual', 'df6c476a2c'): "endorser's exclusivity carve-back; one way by nature",
    ('mutual', '6373b92717'): "company's extra compensation to its agent; one way by nature",
    ('mutual', 'b58ad7c78c'): "licensor's software warranty; one way by nature",
    ('mutual', '90d1a1c58b'): "distributor's no-contest of the company's brand; one way by nature",
    ('mutual', '5f0d14fafc'): "franchisor's visits and the franchisee's restaurant manager; one way by nature",
    ('mutual', '32e036b2de'): "franchisee's royalty, fragments joined by <omitted>; one way by nature",
    ('mutual', '33cfa3f69a'): 'pipeline capacity definitions; no obligation of one party to mirror',
    ('mutual', '8ead89cdd1'): 'term of the agreement; binds no party alone',
    ('mutual', '88361b629b'): 'term of the agreement; binds no party alone',
    ('mutual', '8ce15f98e0'): "term already ended by either Party's notice",
    ('mutual', '609bc01549'): "licensee's insurance with redacted amounts ([***])",
    ('mutual', '5ecaeeaecd'): "distributor's non-compete in its principal's products; one way by nature",
    ('mutual', '14c9c0b1c7'): "representation about the bank parties' insurance; one way by nature",
    ('mutual', 'a6c3c84d6a'): "fund's financial reports to its distributor; one way by nature",
    ('mutual', 'a25624d7e4'): "agent's success fee, fragments joined by <omitted>; one way by nature",
    ('mutual', '53f910cd3b'): 'licences already run both ways (Licensee to VOTOCAST and VOTOCAST to Licensee)',
    ('mutual', '859f0865b5'): "consultant's stock options on termination; one way by nature",
    ('mutual', '35cdf2ff0e'): "marketing duties already of the parties, the agent's bar tied to the other's product",
    ('mutual', 'c1ce504930'): "licensor's consent to the licensee's change of control, cut off mid-sentence",
    ('mutual', '9bf6ae6f0f'): 'applicable law and governing law, fragments joined by <omitted>; binds no party alone',
    ('mutual', '01d778706f'): 'already mutual (no Party ... the other Party)',
    ('mutual', '28cbf7394a'): 'termination of the project already provided for each party',
    ('mutual', '2c8a115628'): "already two-way (each of FSL/AFSL and TPH/TPH-A on the other's change of control)",
    ('mutual', '9368a83069'): "carrier's claims period and exclusion of its own liability, fragments joined by <omitted>; one way by nature",
    ('mutual', '7cbddaafb8'): "franchisee's post-term duties about the franchisor's marks; one way by nature",
    ('mutual', '05bdfa0e89'): 'term of the agreement; binds no party alone',
    ('mutual', 'fb60c32e7d'): "customer's binding forecast with redacted periods",
    ('mutual', 'd8a7644cf9'): "supplier's user warranty; one way by nature",
    ('mutual', '13ab1a64d9'): "list of the company's wind-down duties to its distributor; one way by nature",
    ('mutual', 'ca00640656'): "licensee's sublicensing right with a redacted verb ([***])",
    ('mutual', 'a9321e19e0'): "licensee's sublicensing to its affiliates; one way by nature",
    ('mutual', 'cb7d8f050a'): 'already mutual (each of the Recipient and the Provider may terminate)',
    ('mutual', '42079d7088'): 'sublicensing already provided for both Arizona and the Company, cut off',
    ('mutual', '397ef302ae'): "EMV's purchase volumes and reimbursement, cut off; one way by nature",
    ('mutual', 'ac18025f95'): "Chase's licence to its affiliate; one way by nature",
    ('mutual', 'c7c975d1e9'): "provider's withdrawal of its own services and the customer's exit fee; one way by nature",
    ('mutual', '23ac0ee713'): "licensor's stockholder covenants during the option, cut off; one way by nature",
    ('mutual', '25119a95e9'): "Roche's ownership of platform IP, cut off; one way by nature",
    ('mutual', '2797418322'): 'content licence to Excite@Home, cut off; one way by nature',
    ('mutual', 'd8167bf7d5'): 'good-faith fee renegotiation, cut off mid-sentence',
    ('mutual', '447c2f96b9'): "IBM's licence to its customer; one way by nature",
    ('mutual', '5815ed9554'): "buyer's rejection period; one way by nature",
    ('mutual', '443dcbc6c9'): "the supplier's audit of its distributor's records; one way by nature",
    ('mutual', 'd99ab1a8e1'): "supplier's product warranty; one way by nature",
    ('mutual', 'bd4aedf2aa'): "distributor's no-contest of the company's marks, fragments joined by <omitted>; one way by nature",
    ('mutual', 'fabc07fc1b'): "employer's summary dismissal of an executive; employment form",
    ('mutual', '2c819d733d'): "MBRK's end-of-agreement fee and records; one way by nature",
    ('mutual', '94cea214d0'): 'governing law; binds no party alone',
    ('mutual', '1b43236978'): 'programming licence to the distributor, cut off; one way by nature',
    ('mutual', '63489385c5'): "franchisee's successor franchise right; one way by nature",
    ('mutual', 'e128e97ca4'): 'licences already run both ways (Aura and Zanotti)',
    ('mutual', 'a59f30f97e'): "company's indemnity and insurance for the investor's director; one way by nature",
    ('mutual', 'f6ec76ee94'): "consultant's indemnity for its own work product; one way by nature",
    ('mutual', '36da9d4c08'): "LMG's licence to TAG, cut off; one way by nature",
    ('flip', 'ba040a83df'): "customer's payment for its contractor's stranded materials; one way by nature",
    ('flip', '2e9825d9bc'): "buyer's forecast and minimum order with a redacted percentage; one way by nature",
    ('flip', '84ce419168'): "franchisor's reserved rights and the franchisee's transfer bar; one way by nature",
    ('flip', 'd5dbb8a046'): "contractor's hand-over of note administration, cut off; one way by nature",
    ('flip', '97a27a3f02'): "franchisee's non-diversion covenant, fragments joined by <omitted>; one way by nature",
    ('flip', 'ff1994919e'): "licensee's bar on sublicensing the licensed content; one way by nature",
    ('flip', 'fc9efa2b92'): "provider's termination services and the return of its software; one way by nature",
    ('flip', '32d415a47c'): "buyer's right to source from the alternate supplier on the supplier's change of control; one way by nature",
    ('flip', '146fadfdc2'): "the payee's audit of the payer's records; one way by nature",
    ('flip', 'c7090fb84f'): "distributor's cooperation with rehiring its sales staff; one way by nature",
    ('flip', '539cc25466'): 'already mutual (no party may assign)',
    ('flip', '06a47722bc'): "Kitov's licences to its manufacturer, cut off; one way by nature",
    ('flip', '7c6eac2b85'): "franchisor's statement about its own marks; one way by nature",
    ('flip', 'fabc07fc1b'): "employer's summary dismissal of an executive; employment form",
    ('flip', 'e45f5a97ed'): "buyer's quality control test with a redacted period; one way by nature",
    ('flip', '6a647abf4c'): 'software licence to the distributor, fragments joined by <omitted>; one way by nature',
    ('flip', 'cd179bd90f'): "adviser's expense reimbursement, cut off; one way by nature",
    ('flip', 'd0c29ebb69'): 'automatic termination events; no right of one party',
    ('flip', '47de119016'): 'already mutual (each of Supplier and CUTANEA insures), redacted limits',
    ('flip', '8d19b6ad0c'): "already mutual (neither party assigns without the other's consent), cut off",
    ('flip', '8fdc10d7e5'): "vendor's assignment of data and development IP to AT&T, fragments joined by <omitted>; one way by nature",
    ('flip', '574d6e8263'): 'party-naming recital and a list of names; nothing operative',
    ('flip', '3b7eec78a4'): "the licensors' inspection of the payer's books, cut off; one way by nature",
    ('flip', 'ae3e579256'): "host's disclaimer of results and maintenance outages; one way by nature",
    ('flip', 'f6ec76ee94'): "consultant's indemnity for its own work product; one way by nature",
    ('flip', '95da63e36b'): 'already binds both parties and their affiliates',
    ('flip', 'c5d3e65d9c'): "the payee's inspection of the payer's inventory; one way by nature",
    ('flip', 'd37ee7afbf'): "servicer's hand-over on its own resignation; one way by nature",
    ('flip', 'c856366174'): "distributor's non-compete in its supplier's products; one way by nature",
    ('flip', 'b4fe1784ec'): 'option licence to the investor, cut off; one way by nature',
    ('flip', '5f97481a0f'): 'territories already split between LKPL and Axiometric',
    ('flip', '3ff0bd4098'): 'transfer of remaining merchandise to the agent; one way by nature',
    ('flip', 'c21f5c67bf'): 'term of the agreement; no right of one party',
    ('flip', 'd5c39b44b5'): "amendment's effectiveness; no right of one party",
    ('flip', '317052cc02'): 'indemnities already run both ways (MICOA and Agency)',
    ('flip', '0e739a8535'): "company's sell-off use of the professional's image; one way by nature",
    ('flip', '9be0128b9e'): "club's sponsorship licence to the sponsor, cut off; one way by nature",
    ('flip', '6cb147704d'): 'promotion prize limits; no right of one party',
    ('flip', '75823fa8c5'): 'licences already run both ways (Customer to IBM and IBM to Customer)',
    ('flip', '880b3c9ba8'): 'licences already run both ways (Customer to IBM and IBM to Customer)',
    ('flip', 'a68dbd5c08'): "reseller's covenants about the supplier's IP, fragments joined by <omitted>; one way by nature",
    ('flip', '1e0b9ee800'): "organiser's first offer to its sponsor, cut off; one way by nature",
    ('flip', '916a0f9360'): "licensee's perpetual licence and refund on the licensor's default; one way by nature",
    ('flip', '93bc176c10'): 'trademark licence to the reseller, cut off; one way by nature',
    ('flip', 'ddb7e0cf5c'): "owner's audit of its operator, cut off; one way by nature",
    ('flip', 'ef3521fa5e'): 'already mutual (the Parties ... the other Party)',
    ('flip', '151a1365a5'): 'already mutual (LeadersOnline and VerticalNet each)',
    ('flip', 'f02efd17ad'): 'term of the agreement; no right of one party',
    ('flip', '23ac0ee713'): "licensor's stockholder covenants during the option, cut off; one way by nature",
    ('flip', 'fac239eb05'): "franchisee's no-contest of the franchisor's marks; one way by nature",
    ('flip', '6adc23dff1'): "company's inspection of its contractor's records, cut off; one way by nature",
    ('flip', 'a008352de5'): "Fox's licence to its licensee, cut off; one way by nature",
    ('flip', 'fb6580629c'): "endorser's likeness licence to the company; one way by nature",
    ('flip', 'ed47d74115'): 'already framed by role (each licensee Party, the licensor Party)',
    ('flip', '722b8eda41'): "reseller's sell-off of inventory after termination, cut off; one way by nature",
    ('flip', 'd14c22b4db'): 'termination events already of either Party, cut off',
    ('flip', 'b4f9b0e865'): "endorser's exclusivity; one way by nature",
    ('flip', 'b3aa5ed916'): 'a definition, an exhibit heading and its list run into a covenant',
    ('flip', 'd2a23afb08'): "fund agreement's continuance by board approval; no right of one party",
    ('flip', '7f079767b9'): 'term of the agreement with a redacted duration; no right of one party',
    ('flip', '8e8162898e'): "developer's assignment of work product to the client, cut off; one way by nature",
    ('flip', '050dee88b6'): "distributor's minimum purchases, cut off; one way by nature",
    ('flip', '9395f5ca02'): "shipper's notice of its own early termination; one way by nature",
    ('flip', 'a5bfe75260'): 'escrow code licence to the licensee, cut off; one way by nature',
    ('flip', '28cbf7394a'): 'termination of the project already provided for each party',
    ('flip', 'b09b307bf8'): 'joint operations of BP and the Company, cut off; already binds both',
    ('flip', 'f27d0d2574'): 'trademark licences already run both ways (Allied and Newegg)',
    ('flip', '63463d5977'): "licensee's fee share to its licensor; one way by nature",
    ('flip', 'aab84ccc67'): 'governing law; no right of one party',
    ('flip', '07ec67a1fc'): "buyer's acceptance of batch samples with redacted periods; one way by nature",
    ('flip', '9f826224e4'): 'already mutual (XENCOR and BII each insure), redacted period',
    ('flip', '3e7ddd37af'): "endorser's exclusivity to the sponsor; one way by nature",
    ('flip', 'f050619780'): "offering's minimum and escrow refund; no right of one party",
    ('flip', '0b56cf0fcb'): "vendor's assignment of data and development IP to AT&T; one way by nature",
    ('flip', 'dfd6728aed'): 'title to equipment on a buy-out, cut off; one way by nature',
    ('flip', 'b58b76584c'): 'work-made-for-hire ownership for the sponsor, cut off; one way by nature',
    ('flip', 'ebb6709890'): "servicer's bankruptcy non-petition covenant; one way by nature",
    ('flip', '48b3ee70b3'): "employee's agreement binding on successors and group employers; employment form",
    ('flip', '99e3aa98ca'): 'already mutual (no Party disparages; each of the HOF Entities or Constellation may terminate)',
    ('flip', '2c819d733d'): "MBRK's end-of-agreement fee and records; one way by nature",
    ('flip', '90e8503cb0'): "licensee's guarantee forfeit with redacted amounts (*****)",
    ('flip', '18c5dbcd29'): "licensee's sublicensing ban and the university's assignment, fragments joined by <omitted>; one way by nature",
    ('flip', 'a12405edd0'): 'trademark licence to the licensee; one way by nature',
    ('flip', 'dd033eeccb'): "joint venture's indemnity of its participants; no right of one party to move",
    ('flip', '5f49cfb1ca'): "PlanetCAD's marketing to Dassault's customers with approval; one way by nature",
    ('flip', '4657f7e189'): "manufacturer's product warranty and support; one way by nature",
    ('flip', '06d5cc8fe6'): "service provider's delivery of work product on termination; one way by nature",
    ('flip', '806c4b4281'): "licensee's sell-off period after termination; one way by nature",
    ('flip', '2965410abd'): "executive's outside interests, fragments joined by <omitted>; employment form",
    ('flip', '53fc343ad4'): "customer's inspection and rejection of products; one way by nature",
    ('flip', 'cf345af29e'): "company's exit from exclusivity with a redacted share count, fragments joined by <omitted>",
    ('flip', '0d40d9b7b5'): "service provider's termination assistance to its customer; one way by nature",
    ('flip', 'a293b38925'): "employer's pay in lieu of notice, fragments joined by <omitted>; employment form",
    ('flip', '7b0ea0d603'): 'governing law, cut off; no right of one party',
    ('flip', '9699003c77'): "investor's exclusive right to provide financing; one way by nature",
    ('flip', '746a55f117'): "Sekisui's remedies for breach of the sale covenants, cut off",
    ('flip', '7a6ee3fbe6'): 'trademark licences already run both ways (Allied and Newegg)',
    ('flip', '5ce44f1405'): 'governing law; no right of one party',
    ('flip', '72c919a247'): "Honeywell's content licence to SpinCo, cut off; one way by nature",
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-idaho.docx#p48'): 'cover-term headings and a fragment without a verb',
    ('period', 'd2a9470ed4'): 'minimum payment table by year; no period to change in a sentence',
    ('period', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-iowa.docx#16'): 'tolling rule of a day for a day; no fixed period to change',
    ('amount', 'f769c40bd0'): 'unrelated sentences run together (funding condition, commission floor, board seat)',
    ('amount', 'a524c0fc1d'): 'no figure to change (a notice period and amounts payable without a figure)',
    ('carve_out', 'defa5a874b'): 'non-compete cut mid-sentence by <omitted>',
    ('carve_out', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-california.docx#13'): 'statutory protection that is itself an exception; nothing to carve out of',
    ('shorten', '301930a11c'): "agent's territorial limits, fragments joined by <omitted>, a list item cut at a semicolon",
    ('plain', '408a36eab6'): 'redacted figures ([****]) in every sentence',
    ('plain', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-minnesota.docx#7'): 'already plain English in short sentences; nothing to simplify',
    ('plain', 'common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#p1'): "cover-page note on how the agreement's parts fit together; no obligation",
    ('multi', 'a68dbd5c08'): "reseller's covenants about the supplier's IP, fragments joined by <omitted>, cut off",
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-north-carolina.docx#2'): 'recital; no operative text to change',
    ('conform', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-hampshire.docx#p42'): 'cover-term heading and a fragment without a verb',
    ('amount', 'f66cc7ff92'): "term-sheet fragments without a subject ('To remunerate ...', 'To issue ...') run together",
    ('carve_out', 'ad8f9f89f2'): 'near copy of 459cfac55c (the same text with an escaped apostrophe), accepted before it',
    ('shorten', '9745cfa80b'): 'formula flattened into a line of text (its fraction lost)',
    ('plain', '5381bfa4bd'): "page footer ('Page 55 of 80') inside the sentence",
    ('plain', 'common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.2'): 'already plain English in short sentences; nothing to simplify',
    ('plain', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-hawaii.docx#3'): 'already plain English in short sentences; nothing to simplify',
    ('multi', 'openagreements-cc-by-4.0/openagreements-restrictive-covenant-puerto-rico.docx#2'): "employee's acknowledgements; no operative term for two asks",
    ('amount', 'openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#1.1'): 'template placeholders in brackets ([Repurchase price per share ...])',
    ('plain', 'e5153dc575'): 'headings of an insurance list run into the sentence between them',
    ('conform', 'openagreements-cc-by-4.0/openagreements-founder-stock-assignment-separate.docx#1.2'): 'statement of what the stock power is; nothing of its own to conform into another agreement',
}
MANUAL_REJECT = {**EARLIER_REJECT, **OWN_REJECT}


def used() -> tuple[set[str], set[str]]:
    """Clause ids and near-copy keys of every clause in the earlier sets (check.py refuses them)."""
    return E.used(USED_SETS)


def main(argv: list[str] | None = None) -> int:
    # drafting-f's run and command line with this tranche's seed, rounds, exclusions and rejections
    F.SEED, F.ROUNDS, F.TUNING, F.USED_SETS, F.MANUAL_REJECT, F.__doc__ = (
        SEED, ROUNDS, TUNING, USED_SETS, MANUAL_REJECT, __doc__)
    F.used = used
    return F.main(argv)


if __name__ == "__main__":
    sys.exit(main())
