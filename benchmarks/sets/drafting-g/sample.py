"""Seeded random draws of real clauses for the drafting-g tranche (issue 38): tuning + held-out.

Reuses drafting-f's sampler (``benchmarks/sets/drafting-f/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-e's walk and drafting-d's drawing loop on
drafting-c's pools, and its command line):
the same pools (ACORD corpus; the shared agreements split by
``index_builder.ingest.read_clauses``, near copies once), the same broad pattern per category, the
same near-copy key, the same drawing loop and the same walk of the earlier task files. What
differs: SEED 5171, the rounds below, the rejections made on reading (MANUAL_REJECT), and what is
left out: every clause id and near copy found anywhere in the task files of
``benchmarks/sets/drafting/``, ``drafting-c/``, ``drafting-d/``, ``drafting-e/``, ``drafting-f/`` (both halves),
``caps2/``, ``caps3/``, ``figures/`` and ``conform/`` (every ``clause_id`` value and every
``clause``/``text`` string, at any depth; their draws files are not read: a rejected draw was
never used). The split: the accepted draws of each category are shuffled with
``random.Random(f"{SEED}-split-{category}")`` and the first TUNING[category] go to the tuning
half, the rest to the held-out half, decided here before any label was written.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-g/sample.py --out benchmarks/sets/drafting-g/draws.jsonl
    python benchmarks/sets/drafting-g/sample.py --show mutual acord 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_f_sample", HERE.parent / "drafting-f" / "sample.py")
F = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(F)  # drafting-f's sampler: its loader, rounds, split sizes, loop and command line

SEED = 5171
USED_DIRS = ("drafting", "drafting-c", "drafting-d", "drafting-e", "drafting-f", "caps2", "caps3", "figures", "conform")
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
ROUNDS, TUNING = F.ROUNDS, F.TUNING  # drafting-f's: (category, from acord, from contracts); tuning per category
E, D, C = F.E, F.D, F.C  # drafting-e's walk, drafting-d's loop, drafting-c's pools and near-copy key

# Rejections on reading: (category, clause_id) -> reason.
MANUAL_REJECT: dict[tuple[str, str], str] = {
    ("mutual", "75823fa8c5"): "licences already run both ways (Customer to IBM, IBM to Customer)",
    ("mutual", "0fc64e5536"): "licence of a celebrity endorsement to the sponsor; one way by nature",
    ("mutual", "810fa9b1c2"): "assignment of the product trademarks and regulatory filings between licensor and licensee; one way by nature",
    ("mutual", "8e27e393e0"): "appointment of an exclusive distributor and a name licence; one way by nature",
    ("mutual", "9281f5c9f6"): "grant of an exclusive manufacturing and distribution right; one way by nature",
    ("mutual", "70f8005740"): "distribution channels already split between the two parties",
    ("mutual", "6932396a4f"): "sublicensing rights already run both ways (Arizona and the Company)",
    ("mutual", "bbb28c3cea"): "content licence granted by the licensor; one way by nature",
    ("flip", "662d9a57cd"): "provider's final reports to its customer on termination; one way by nature",
    ("flip", "c61061e02c"): "already mutual (any party ... the other party)",
    ("flip", "1618943a84"): "already mutual (a Party ... all of the other Parties)",
    ("flip", "e6063edbe9"): "exclusivity covenant and a termination right with redacted triggers and periods; moving the right has no sense",
    ("flip", "59a24e8922"): "licensor's consent to sublicences of its own content; one way by nature",
    ("period", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-maryland.docx#p28"): "cover-term headings and values without a sentence",
    ("amount", "7414b4468d"): "milestone table run into a diligence covenant; amounts and events misaligned",
    ("amount", "f1f854273f"): "promotion fee formulas with their formula lines missing",
    ("amount", "1b28aece0a"): "no figure to change (a pro rata refund only)",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-south-carolina.docx#7"): "already plain English in short sentences; nothing to simplify",
    ("plain", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#4.4"): "already plain English in short sentences; nothing to simplify",
    ("multi", "cabd5b651c"): "a proviso cut off after its first limb",
    ("multi", "0d78d7f27e"): "minimum royalty amounts left blank ($ without figures)",
    ("multi", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#p95"): "cover-page note on how the framework terms fit together; no obligation",
    ("multi", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#p98"): "cover-page note on how the agreement's parts fit together; no obligation",
    ("multi", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-massachusetts.docx#p39"): "cover-term headings and values without a sentence",
    ("mutual", "7edfa18bb3"): "the coach's efforts to obtain his university's consents for the sponsor; one way by nature",
    ("mutual", "7ae3028fd5"): "already mutual (we may terminate ... you may terminate)",
    ("mutual", "dd033eeccb"): "indemnity of the participants by the joint venture; no pair of parties to mirror",
    ("mutual", "53d51b0849"): "already mutual (any Party ... the other Party)",
    ("mutual", "012264487f"): "content licence granted by the sponsor; one way by nature",
    ("mutual", "9b7cbd1c99"): "already mutual (joint ownership of joint inventions)",
    ("mutual", "8820ab5bdf"): "buyer's report of delivery discrepancies to its supplier; one way by nature",
    ("flip", "7b45027ecc"): "distributor's acknowledgement of the supplier's own trademarks; one way by nature",
    ("flip", "2247d41b25"): "termination as to the remarketing agent on its resignation or the shares' end; moving it has no sense",
    ("flip", "ac18025f95"): "licence of Chase's own marks to its affiliate; one way by nature",
    ("amount", "2bebb08d97"): "a price table without a sentence",
    ("plain", "common-paper-cc-by-4.0/common-paper-pilot-agreement.docx#p1"): "cover-page note on how the order form and standard terms fit together; no obligation",
    ("multi", "common-paper-cc-by-4.0/common-paper-csa-with-ai.docx#p179"): "cover-page note incorporating the AI addendum by reference; no obligation",
    ("mutual", "d7c667cc97"): "supplier's allocation of scarce product to its customer; one way by nature",
    ("mutual", "5ce44f1405"): "governing law; binds no party alone",
    ("mutual", "a71076e5d6"): "patent and know-how licence granted by the licensor; one way by nature",
    ("mutual", "076ad691de"): "purchase terms precedence and a buyer's right to end a software licence, cut off mid-sentence",
    ("mutual", "6dc713c491"): "royalties paid by the water producer to the landowner; one way by nature",
    ("mutual", "bcf855efc9"): "royalty paid by the licensee with a redacted rate; one way by nature",
    ("mutual", "37bd4afcca"): "trademark licences already run both ways (TL to Integrity, Integrity to TL)",
    ("flip", "8a44bb9a82"): "the royalty payer's records examined by the payee; one way by nature",
    ("flip", "ab7b4c55ad"): "promotion fees and tail payments by the product owner to its promoter, redacted rates; one way by nature",
    ("flip", "32e8a6c602"): "franchisee's renewal right and its notice; one way by nature",
    ("mutual", "1fa2f13491"): "the royalty payee's audit of the payer's books; one way by nature",
    ("mutual", "e24eb02c61"): "governing law and jurisdiction; binds no party alone",
    ("mutual", "b7deb63ef1"): "distributor's conditions for appointing sub-distributors; one way by nature",
    ("mutual", "0ac7f567db"): "endorser's non-competition for the sponsor, fragments joined by <omitted>; one way by nature",
    ("mutual", "2fd2864e12"): "term of the services and the agreement; binds no party alone",
    ("mutual", "5e76ae4b2c"): "endorser's grant of rights in his property and the sponsor's ownership of materials; one way by nature",
    ("flip", "2c8a115628"): "already mutual (each side may terminate on the other's change of control)",
    ("flip", "27677f1b8a"): "joint venturers' technology licences to their joint venture company; moving them has no sense",
    ("flip", "8d4765ea30"): "licensee's sell-off period at the end of the term; one way by nature",
    ("mutual", "f0225c511d"): "supplier's free training for its distributor; one way by nature",
    ("mutual", "8744af5f62"): "licensor's exclusivity and its termination for low royalties, fragments joined by <omitted>; one way by nature",
    ("mutual", "21bc5257a1"): "acknowledgement of the supplier's own trademarks; one way by nature",
    ("mutual", "7c6eac2b85"): "franchisor's representation about its own marks; one way by nature",
    ("mutual", "574d6e8263"): "party-naming recital followed by a bare list of names; nothing operative",
    ("flip", "226d5b4055"): "termination on the trust's repayment of premiums; no right of one party to move",
    ("flip", "0fc64e5536"): "licence of a celebrity endorsement to the sponsor; one way by nature",
    ("flip", "0460c3d7d3"): "automatic end after a sale of the company by its owner; no right of one party to move",
    ("mutual", "c21f5c67bf"): "term of the agreement; binds no party alone",
    ("mutual", "c7090fb84f"): "seller's cooperation with the buyer's rehiring of its sales staff; one way by nature",
    ("mutual", "333d0ec86b"): "governing law; binds no party alone",
    ("mutual", "4657f7e189"): "manufacturer's product warranty and support; one way by nature",
    ("mutual", "f90285da9c"): "publishers' renewal rights, fragments joined by <omitted>; one way by nature",
    ("mutual", "b1cab2b5da"): "appointment of an exclusive agent with a quantities table; one way by nature",
    ("mutual", "100406f870"): "reseller's service fee and the affiliate's compensation; one way by nature",
    ("mutual", "0c2fc61e84"): "licensee's bar on transferring its software licence; one way by nature",
    ("mutual", "aaa79591a7"): "licensor's termination for a challenge to its own patents; one way by nature",
    ("mutual", "070b8ce65b"): "shipper's penalties to the pipeline transporter; one way by nature",
    ("mutual", "db46a1830c"): "already mutual (no Party ... the other Parties)",
    ("mutual", "54f055e3e6"): "acknowledgement of the franchisor's own marks; one way by nature",
    ("mutual", "c8d98553cd"): "reseller's exclusive commission and the company's exclusivity; one way by nature",
    ("mutual", "6adc23dff1"): "company's inspection of its contractor's program records; one way by nature",
    ("mutual", "d0ca63e614"): "licensor's agreement to modify licences on a divestiture; one way by nature",
    ("flip", "e5153dc575"): "insurance list fragments run together",
    ("flip", "c5f9d0e646"): "distributor's return or sell-off of inventory on termination; one way by nature",
    ("flip", "ff82d6a79d"): "franchisee's transfer of rights in the franchisor's property; one way by nature",
    ("flip", "95a94960b2"): "franchisee's no-contest of the franchisor's marks; one way by nature",
    ("flip", "b5ab0a6767"): "entire agreement; already mutual (no Party ... the other Party)",
    ("flip", "42079d7088"): "sublicensing rights already run both ways (Arizona and the Company)",
    ("flip", "6f661b3e58"): "individual consultant's non-solicitation of the company's staff; moving it has no sense",
    ("flip", "4439d0db52"): "supplier's disclaimer of regulatory approval; one way by nature",
    ("flip", "4b2b3a1140"): "unrelated sentences run together (audit, right of first refusal, insurance)",
    ("flip", "56219fb6a8"): "developer's assignment of technology and improvements; one way by nature",
    ("flip", "5a4626cc6a"): "shipper's right to a new transportation agreement; one way by nature",
    ("flip", "856a5fafca"): "consultant's endorsement licence and exclusivity; one way by nature",
    ("flip", "259c24760f"): "licensee's sell-off period after early termination; one way by nature",
    ("flip", "0c76129bee"): "data ownership already split between the two parties",
    ("mutual", "336828d8d5"): "price formula of the buyer's margin share; one way by nature",
    ("mutual", "7b45027ecc"): "distributor's acknowledgement of the supplier's own trademarks; one way by nature",
    ("mutual", "e4c660028b"): "manufacturer's facilities inspected by its customer; one way by nature",
    ("mutual", "a1c69eaea7"): "distributor's minimum purchases; one way by nature",
    ("mutual", "d09179c19d"): "exclusive agent's freedom to sell non-competing products; one way by nature",
    ("mutual", "3d9feae718"): "manufacturer's end of technical support if the customer hires its staff; one way by nature",
    ("flip", "1b28aece0a"): "sponsorship exclusivity exceptions and a sponsor's refund; no single right to move",
    ("flip", "0fa4dd8fea"): "already mutual (neither side places the other in a negative light)",
    ("flip", "cb9031d2a6"): "professional's own insurance for the services; one way by nature",
    ("flip", "42790f7952"): "already mutual (Equifax and Certegy each afford the other access)",
    ("flip", "2fcae09912"): "endorser's non-competition for the sponsor; one way by nature",
    ("mutual", "42817ecb39"): "governing law; binds no party alone",
    ("mutual", "866a425ed2"): "licensor's free promotional programs for the licensee; one way by nature",
    ("mutual", "35d0c8804e"): "golfer's unearned licence fee refundable to the company; one way by nature",
    ("mutual", "c61061e02c"): "already mutual (any party ... the other party)",
    ("mutual", "ca7db5e920"): "individual's own withholdings and taxes; one way by nature",
    ("mutual", "90e8503cb0"): "licensee's payment penalties on termination with redacted amounts; one way by nature",
    ("mutual", "916a0f9360"): "licence converted to perpetual on the licensor's default, fees returned; one way by nature",
    ("mutual", "b367b15f6f"): "renewal on the distributor's minimum purchases; one way by nature",
    ("mutual", "7932f34b3d"): "know-how transfer support by the licensor with redacted hours; one way by nature",
    ("mutual", "fe7d5a8548"): "supplier's liquidated damages for minimum volume, redacted; one way by nature",
    ("mutual", "7f6e744bf6"): "already mutual (no Party ... the other Party)",
    ("mutual", "4f96c7a977"): "already mutual (each party's assignment needs the other's consent)",
    ("mutual", "a534dc0234"): "licensee's minimum guarantees, redacted; one way by nature",
    ("mutual", "e926167e26"): "reseller's exclusive right and the issuer's reserved right, cut off; one way by nature",
    ("mutual", "556a25c954"): "participants' duty to account to the joint venture; no pair of parties to mirror",
    ("mutual", "00d47e8237"): "vessel owner's seaworthiness duty; one way by nature",
    ("mutual", "4a05c47d2b"): "licensee's continued exploitation of licensed works after termination; one way by nature",
    ("mutual", "9a0631a3e2"): "client's materials supplied to its developer; one way by nature",
    ("mutual", "746a55f117"): "buyer's remedies for the seller's stockholders' breach; one way by nature",
    ("mutual", "70c1f92970"): "already mutual (deal with each other in good faith)",
    ("mutual", "2e9825d9bc"): "buyer's forecast and minimum order commitment to its supplier; one way by nature",
    ("mutual", "8f0cf4e1cd"): "company's insurance under an exhibit naming its counterparty; one way by nature",
    ("mutual", "fac239eb05"): "franchisee's acceptance of the franchisor's marks; one way by nature",
    ("mutual", "880b3c9ba8"): "licences already run both ways (Customer to IBM, IBM to Customer)",
    ("mutual", "93bc176c10"): "trademark licence granted by the manufacturer to its reseller; one way by nature",
    ("mutual", "3575660dd4"): "supplier's initial training of reseller staff; one way by nature",
    ("mutual", "a7a287f9a4"): "governing law (two conflicting sentences); binds no party alone",
    ("mutual", "8095a61bb2"): "franchisee's duty not to injure the franchisor's goodwill; one way by nature",
    ("mutual", "ff82d6a79d"): "franchisee's transfer of rights in the franchisor's property; one way by nature",
    ("mutual", "9347d76d45"): "one site's placement of the other's links, redacted share; one way by nature",
    ("flip", "a1c69eaea7"): "distributor's minimum purchases; one way by nature",
    ("flip", "eeb66928d2"): "exclusive licence of the golfer's identification to the company; one way by nature",
    ("flip", "28218ef1a1"): "manufacturer's appointment of its exclusive agent; moving it has no sense",
    ("flip", "09b087d156"): "franchisor's audit of the franchisee's records and fees; one way by nature",
    ("flip", "4abfcb5a10"): "indemnity for a breach of the indemnifier's own warranty; moving it has no sense",
    ("flip", "5d8a1506bf"): "distributor's exclusivity and post-term non-competition; one way by nature",
    ("flip", "4a71d57466"): "supplier's most-favoured pricing for its customer; one way by nature",
    ("flip", "f88aeb8117"): "patent owner's notice before abandoning its own patents; one way by nature",
    ("flip", "3c2c831984"): "agency's non-competition for its exclusive appointment, fragments joined by <omitted>; one way by nature",
    ("flip", "b950f3fd7f"): "already mutual (neither Party assigns without the other's consent)",
}



def used() -> tuple[set[str], set[str]]:
    """Clause ids and near-copy keys of every clause in the earlier sets (check.py refuses them)."""
    return F.E.used(USED_SETS)


def main(argv: list[str] | None = None) -> int:
    # drafting-f's run and command line with this tranche's seed, exclusions and rejections
    F.SEED, F.USED_SETS, F.MANUAL_REJECT, F.__doc__ = SEED, USED_SETS, MANUAL_REJECT, __doc__
    return F.main(argv)


if __name__ == "__main__":
    sys.exit(main())
