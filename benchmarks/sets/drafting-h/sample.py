"""Seeded random draws of real clauses for the drafting-h tranche (issue 38): tuning + held-out.

Runs drafting-g's sampler (``benchmarks/sets/drafting-g/sample.py``, loaded by path because its
folder name is not a Python identifier; it runs drafting-f's command line and rounds, drafting-e's
walk of the earlier task files and drafting-d's drawing loop on drafting-c's pools): the same
pools (ACORD corpus; the shared agreements split by ``index_builder.ingest.read_clauses`` with
``keep_template_text=True``, near copies once), the same broad pattern per category, the same
near-copy key, the same loop. What differs:

- SEED 6197;
- the rounds: mutual and flip draw 4 clauses from ACORD and 4 from the shared agreements (the
  earlier tranches drew them from ACORD only, and drafting-g's annotator rejected 84 of 92 mutual
  and 46 of 54 flip ACORD candidates on reading); every other category keeps drafting-e's to
  -g's rounds;
- the rejections made on reading (MANUAL_REJECT): every earlier tranche's rejections (drafting-c
  to -g; a clause one annotator found unfit for a category stays unfit) and this tranche's own;
- what is left out: every clause id and near copy found anywhere in the task files of
  ``benchmarks/sets/drafting/``, ``drafting-c/`` .. ``drafting-g/`` (both halves), ``caps2/``,
  ``caps3/``, ``figures/`` and ``conform/`` (every ``clause_id`` value and every
  ``clause``/``text`` string, at any depth; their draws files are not read: a rejected draw was
  never used).

The split: the accepted draws of each category are shuffled with
``random.Random(f"{SEED}-split-{category}")`` and the first TUNING[category] go to the tuning
half, the rest to the held-out half, decided here before any label was written.

    source /work/main/.venv/bin/activate; export PYTHONPATH=$PWD HF_HUB_OFFLINE=1
    python benchmarks/sets/drafting-h/sample.py --out benchmarks/sets/drafting-h/draws.jsonl
    python benchmarks/sets/drafting-h/sample.py --show mutual contracts 10   # print candidates to read

A rerun reproduces ``draws.jsonl`` byte for byte.
"""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
_spec = importlib.util.spec_from_file_location("drafting_g_sample", HERE.parent / "drafting-g" / "sample.py")
G = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(G)  # drafting-g's sampler, which runs drafting-f's
F, E, D, C = G.F, G.E, G.D, G.C  # drafting-f's command line, -e's walk, -d's loop, -c's pools

SEED = 6197
USED_DIRS = ("drafting", "drafting-c", "drafting-d", "drafting-e", "drafting-f", "drafting-g",
             "caps2", "caps3", "figures", "conform")
USED_SETS = sorted(p for d in USED_DIRS for p in (HERE.parent / d).glob("*.jsonl") if "draws" not in p.name)
# (category, clauses to accept from acord, from contracts), in drawing order: mutual and flip
# widened to the shared agreements; the rest as drafting-e to -g
ROUNDS = [("mutual", 7, 1), ("flip", 7, 1), ("conform", 4, 4), ("period", 6, 2), ("amount", 8, 0),
          ("carve_out", 4, 4), ("shorten", 4, 4), ("plain", 6, 2), ("multi", 10, 6)]
TUNING = F.TUNING  # 2 per single category, 4 multi; the rest held out (6 each, 12 multi)

# Rejections on reading: (category, clause_id) -> reason. The earlier tranches' first (their
# reasons still hold), then this tranche's own.
EARLIER_REJECT: dict[tuple[str, str], str] = {
    **C.MANUAL_REJECT, **D.MANUAL_REJECT, **E.MANUAL_REJECT, **F.MANUAL_REJECT, **G.MANUAL_REJECT}
OWN_REJECT: dict[tuple[str, str], str] = {
    ("mutual", "e79fcf81ba"): "device maker's reserved right to make its own other devices; one way by nature",
    ("mutual", "59a24e8922"): "licensor's consent to sublicences of its own content to competitors; one way by nature",
    ("mutual", "b5d9aa2bc9"): "most-favoured rate for the endorser's fee; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#6.2"): "processor's help with the controller's impact assessments; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#3.3"): "limits on service credits; binds no party",
    ("mutual", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#2.3"): "covered entity's notice of restrictions it agreed with individuals; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#5.3"): "processor's answers to the controller's security questionnaires; one way by nature",
    ("flip", "0f3cb03868"): "portal's right to source music products elsewhere if the sponsor cannot; moving it has no sense",
    ("flip", "43b87f758c"): "already mutual (change of control of a Party, the other Party may terminate)",
    ("flip", "a24e49c432"): "distributor's exclusive purchasing from its supplier; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.2"): "business associate's permitted uses of PHI; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#1.4"): "provider's use of data to improve its own AI system; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#9.6"): "notices boilerplate; no right of one party",
    ("flip", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#9.4"): "exclusive remedy already framed for each protected party; nothing to move",
    ("mutual", "ff1994919e"): "licensee's bar on sublicensing the licensed content; one way by nature",
    ("mutual", "16ee664671"): "term of the agreement; binds no party alone",
    ("mutual", "1df04f1626"): "franchisor's consent to its developer's assignment; one way by nature",
    ("mutual", "5aac5637ce"): "shipper's share of pipeline fill; one way by nature",
    ("mutual", "dd682e5d43"): "employee's death benefit under a split-dollar policy; one way by nature",
    ("mutual", "1a459a6f9e"): "licensor's quality control of its own mark; one way by nature",
    ("mutual", "244b4f3062"): "university's option to its sponsor; one way by nature",
    ("mutual", "946f5fe772"): "already two-way (HCI and MLX each grant marks to the other)",
    ("mutual", "e45f5a97ed"): "buyer's quality control test of delivered product; one way by nature",
    ("mutual", "4099f55fe6"): "royalty rate table; one way by nature",
    ("mutual", "32e8a6c602"): "franchisee's renewal right and its notice; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#2.1-2"): "provider's support response time; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#p98"): "cover-page note on how the agreement's parts fit together; no obligation",
    ("mutual", "common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.2"): "customer's own user accounts and credentials; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#1.1"): "customer's access to the service; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#2.2"): "contractor's own taxes and the tax indemnity; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#3.1"): "statement about AI output; binds no party",
    ("mutual", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#2.2"): "provider's data protection duties kept; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-pilot-agreement.docx#p1"): "cover-page note on how the order form and standard terms fit together; no obligation",
    ("mutual", "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#9.6"): "notices boilerplate; binds no party alone",
    ("mutual", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.3"): "business associate's privacy and security program; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#5.2"): "term of the framework terms; binds no party",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#3.1"): "processor's transfers of the controller's data; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#12.7"): "provider's beta products; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#1.1"): "provider's role as processor; binds no party",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#4.3"): "automatic payment of the provider's fees; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#12.17"): "counterparts boilerplate; binds no party",
    ("mutual", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#p1"): "heading of a cover-page note; no sentence",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#4.2"): "provider's invoicing; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#5.2"): "processor's security reports to the controller; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#7.1"): "deletion of the controller's personal data; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#4.2"): "customer's payment of fees; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#2.2"): "provider's use of customer materials; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#1.1"): "provider's services under SOWs; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.2"): "business associate's permitted uses of PHI; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#3.1-2"): "customer's service credits; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#p141"): "table heading; no sentence",
    ("mutual", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#9.4"): "exclusive remedy already framed for each protected party",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#5.1"): "controller's audit of its processor; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#2.1"): "assignment of deliverables to the customer; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#p95"): "heading of a cover-page note; no sentence",
    ("mutual", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.4"): "business associate's safeguards for PHI; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#p1"): "heading of a cover-page note; no sentence",
    ("mutual", "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#3.2"): "contractor's moral rights waiver; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.5"): "business associate's compliance assessments; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#5.2"): "provider's product warranty; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#9.6"): "exclusive remedy already framed for each protected party",
    ("mutual", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#2.2"): "covered entity's notice of changes to its own uses of PHI; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#4.5"): "customer's payment of fees; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#4.1"): "fees and invoices; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#1.11"): "business associate carrying out the covered entity's duties; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.4"): "provider's machine-learning use of usage data; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#2.1"): "company's payment of its contractor; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#3.1"): "trademark licence granted by the licensor; one way by nature",
    ("mutual", "4de048f903"): "governing law and jurisdiction; binds no party alone",
    ("mutual", "8e418915aa"): "franchisee's grant of its ideas to the franchisor; one way by nature",
    ("mutual", "50bddfb51f"): "executive's waiver on a group reconstruction; one way by nature",
    ("mutual", "33826e5275"): "already mutual (W2E and SHBV each bound not to go around the other)",
    ("mutual", "727564eed5"): "reseller's right of first refusal on new products; one way by nature",
    ("mutual", "9721d5f205"): "already mutual (joint ownership of joint inventions)",
    ("mutual", "8ac4731644"): "racing team's sponsorship benefits; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-one-way-nda.docx#p2"): "cover-page note on how the NDA's parts fit together; no obligation",
    ("mutual", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#2.4"): "customer's duties as a processor to its own controller; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#3.4"): "heading without a sentence",
    ("mutual", "common-paper-cc-by-4.0/common-paper-csa-with-ai.docx#p179"): "heading without a sentence",
    ("mutual", "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#3.3"): "licensee's restrictions on the licensor's brand elements; one way by nature",
    ("mutual", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#1.4"): "provider's use of data to improve its own AI system; one way by nature",
    ("mutual", "6dd122fd47"): "already two-way (the franchisee and AIRSOPURE each indemnify the other)",
    ("mutual", "c44e8c1159"): "reseller's territory and unsolicited requests; one way by nature",
    ("mutual", "b5ab0a6767"): "entire agreement; binds no party alone",
    ("mutual", "a8abf0bd87"): "client's revenue share paid to the portal; one way by nature",
    ("mutual", "9be0128b9e"): "club's grant of sponsorship rights and marks; one way by nature",
    ("mutual", "3f50c80b6f"): "broker's exclusions in a retail account agreement; one way by nature",
    ("mutual", "a3f71b3d8c"): "warrant holder's rights on a reorganisation; one way by nature",
    ("flip", "6b0abf4197"): "licence of the supplier's background IP in its deliverables, fragments joined by <omitted>; moving it has no sense",
    ("flip", "2248443a1d"): "assignment of inventions with a redacted limb, fragments joined by <omitted>",
    ("flip", "b4edcc78fb"): "the royalty payee's audit of the payer's books; one way by nature",
    ("flip", "ca00640656"): "licensee's sublicensing right with a redacted verb; one way by nature",
    ("flip", "a92d9e18da"): "tail payments to the promoter at a redacted rate; one way by nature",
    ("flip", "2b85606400"): "termination rights already run both ways (CBC and MediWound)",
    ("flip", "cb569d3781"): "remaining participants assume a leaver's interests; no right of one party to move",
    ("flip", "46763d09bb"): "the fee payee's audit of the payer's records; one way by nature",
    ("flip", "428c1759ac"): "term extension for under-delivered clickthroughs; one way by nature",
    ("flip", "d043d977f2"): "supplier's indemnity for defects in its own merchandise; one way by nature",
    ("flip", "bcf855efc9"): "royalty paid by the licensee; one way by nature",
    ("flip", "e79fcf81ba"): "device maker's reserved right to make its own other devices; one way by nature",
    ("flip", "a9321e19e0"): "licensee's sublicensing of its production rights to affiliates; one way by nature",
    ("flip", "8ad8bc545c"): "term and renewal; binds no party alone",
    ("flip", "727564eed5"): "reseller's right of first refusal on new products; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#12.17"): "counterparts boilerplate; no right of one party",
    ("flip", "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#2.2"): "contractor's own taxes and the tax indemnity; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-partnership-agreement.docx#3.1"): "trademark licence of the licensor's own brand; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#9.6"): "exclusive remedy already framed for each protected party",
    ("flip", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#5.1"): "controller's audit of its processor; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#1.1"): "customer's access to the service; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#3.1"): "statement about AI output; no right of one party",
    ("flip", "common-paper-cc-by-4.0/common-paper-ai-addendum-in-app.docx#2.2"): "provider's data protection duties kept; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#5.3"): "processor's answers to the controller's security questionnaires; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-design-partner-agreement.docx#3.4"): "heading without a sentence",
    ("flip", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#2.3"): "covered entity's notice of restrictions it agreed with individuals; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-independent-contractor-agreement.docx#3.2"): "contractor's moral rights waiver; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-csa-with-sla.docx#3.3"): "limits on service credits; no right of one party",
    ("mutual", "0c3ffb1aff"): "customer's option to buy its manufacturer's assets after a redacted period; one way by nature",
    ("mutual", "d4aec45c52"): "endorser's exclusivity for the sponsor; one way by nature",
    ("mutual", "6ed7cc1d55"): "professional's endorsement exclusivity for the company; one way by nature",
    ("mutual", "9fa3ba4564"): "governing law; binds no party alone",
    ("mutual", "84dd795c0c"): "licence of one party's IP to manufacture; one way by nature",
    ("mutual", "f483732cca"): "term ended on either party's notice; already two-way",
    ("mutual", "c5aaffb9e8"): "party-naming recital; nothing operative",
    ("mutual", "e76a3e0cb8"): "contractor's finished-goods buffer stock; one way by nature",
    ("mutual", "0516ea58c3"): "already mutual (the Company or the Contractor may terminate)",
    ("mutual", "15d0951f54"): "franchisor's option to buy branded stock after termination; one way by nature",
    ("mutual", "6a647abf4c"): "software licence to the distributor; one way by nature",
    ("mutual", "c2714a9a64"): "governing law; binds no party alone",
    ("mutual", "9d829a8dfe"): "lessor's software licence and sublicence under a purchase order; one way by nature",
    ("flip", "d3de1e73c4"): "distributor's option to become exclusive for new products; moving it has no sense",
    ("flip", "68d78b56f4"): "manufacturers' product liability insurance for the customer; one way by nature",
    ("flip", "c45b1b2229"): "target's access for the acquiror before closing; one way by nature",
    ("flip", "a49deaeee9"): "already mutual (VS and PPD each refer opportunities to the other first)",
    ("flip", "62715b3381"): "remarketing agent's walk-away before the commencement date; moving it has no sense",
    ("flip", "406868c4ab"): "reseller's books of account; one way by nature",
    ("flip", "efba5458a0"): "lessor's software licence and sublicence under a purchase order; one way by nature",
    ("flip", "2503e372ab"): "brand licence and the licensee's sublicensing to its affiliates; one way by nature",
    ("flip", "2f51c60fa2"): "the royalty payee's audit of the licensee's records; one way by nature",
    ("flip", "63489385c5"): "franchisee's successor franchise right; one way by nature",
    ("flip", "e926167e26"): "reseller's exclusive right and the issuer's reserved right, cut off; one way by nature",
    ("flip", "5167d4bf26"): "seller's warranty remedies to its buyer; one way by nature",
    ("flip", "bc19bc0aa6"): "already mutual (neither eDiets nor Women.com challenges the other's marks)",
    ("flip", "8ac4731644"): "racing team's sponsorship benefits; one way by nature",
    ("flip", "c56ebe40d3"): "patent prosecution already split between the parties",
    ("flip", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#4.1"): "fees and invoices; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#12.7"): "provider's beta products; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-data-processing-agreement.docx#3.1"): "processor's transfers of the controller's data; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#1.1"): "provider's services under SOWs; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-professional-services-agreement.docx#2.2"): "provider's use of customer materials; one way by nature",
    ("flip", "common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.4"): "provider's machine-learning use of usage data; one way by nature",
    ("mutual", "5e812fffb3"): "portal's renewal proposal to its partner; one way by nature",
    ("mutual", "ee09575ba9"): "trademark licence to the reseller; one way by nature",
    ("mutual", "9760b1dfc2"): "payments for use of proprietary workflows with redacted terms; one way by nature",
    ("mutual", "b88e72637a"): "distribution channels split between the parties",
    ("mutual", "4c05cafbd2"): "service provider's rate changes on renewal; one way by nature",
    ("mutual", "2e0a917452"): "non-solicitation already runs both ways (Dynamex and Purolator), fragments joined by <omitted>",
    ("mutual", "31eabbc4ec"): "station owner's consultation on its own station's contracts; one way by nature",
    ("mutual", "709f9e5ed2"): "executive's restrictive covenants; one way by nature",
    ("mutual", "a6e2cbffdb"): "already mutual (no party ... the other party)",
    ("mutual", "f33ba46e33"): "royalties under a transfer licence with redacted figures; one way by nature",
    ("mutual", "829065c4f5"): "governing law (two conflicting sentences); binds no party alone",
    ("mutual", "bd13f7153b"): "pipeline intake limit and a definition run together",
    ("mutual", "4055714e73"): "consultant's help with the company's patents; one way by nature",
    ("mutual", "9767689235"): "portal's advertising exclusivity for its partner; one way by nature",
    ("mutual", "7fe69991f1"): "software licence to the customer; one way by nature",
    ("mutual", "87bdbede0e"): "remarketing agent's books and records; one way by nature",
    ("mutual", "d88ad32334"): "channel partner's web page with a table heading; one way by nature",
    ("mutual", "0f6c150c18"): "customer's remedies for defective services; one way by nature",
    ("flip", "8bcfb98adc"): "already mutual (neither TPC nor Consolidated Artists assigns without the other's consent)",
    ("flip", "f1f854273f"): "promotion fee formulas with their formula lines missing",
    ("flip", "e7ac6c02d8"): "governing law; no right of one party",
    ("flip", "d89bc06c20"): "appointment of a processing agent; moving it has no sense",
    ("flip", "bc36dd63be"): "definition of background IP; no right of one party",
    ("flip", "af51542a6c"): "franchisee's further assurance of the franchisor's rights; one way by nature",
    ("flip", "d1a2c11281"): "servicers' termination rights cut off before their list, fragments joined by <omitted>",
    ("flip", "1f5d556005"): "licensee's sublicensing to affiliates with the licensor's approval; one way by nature",
    ("flip", "9b27aad720"): "seller's interim non-compete with a redacted territory; one way by nature",
    ("flip", "66d664a95d"): "term counted in impressions with a redacted figure; no right to move",
    ("flip", "b64e81193a"): "payment on termination with redacted timing; one way by nature",
    ("flip", "a7502f2b23"): "distributor's return of products on termination; one way by nature",
    ("flip", "f85ea52214"): "fragment without a sentence",
    ("flip", "234eafd144"): "licensee's guarantee of a minimum royalty; one way by nature",
    ("flip", "20631032ef"): "reseller's minimum sales; one way by nature",
    ("flip", "de87924f73"): "advertiser's review of the portal's delivery records; one way by nature",
    ("flip", "f083456e4e"): "the royalty payee's examination of the payer's books; one way by nature",
    ("flip", "7f6e744bf6"): "already mutual (no Party ... the other Party)",
    ("flip", "f70d78bb81"): "software licence to the publishers; one way by nature",
    ("flip", "99466ff704"): "licensee's bar on transferring the endorsement rights; one way by nature",
    ("mutual", "cabd5b651c"): "a proviso cut off after its first limb",
    ("flip", "10787ea263"): "franchisee's non-diversion covenant; one way by nature",
    ("flip", "5bba177c0d"): "statutory whistleblower immunity; no right of one party to move",
    ("flip", "09b132b7ef"): "already mutual (Bioamber and Cargill each waive)",
    ("flip", "42e8623841"): "already mutual (transactional data jointly owned)",
    ("flip", "078f988575"): "franchisee's assignment of rights in the franchisor's marks; one way by nature",
    ("flip", "9627360e52"): "licensor's termination for the licensee's breaches, fragments joined by <omitted>",
    ("flip", "810fa9b1c2"): "assignment of the product trademarks after registration; one way by nature",
    ("flip", "0c3ffb1aff"): "customer's option to buy its manufacturer's assets after a redacted period; one way by nature",
    ("flip", "dd9670b8db"): "customer's routine audits with redacted notice periods",
    ("flip", "50706564ad"): "successors and assigns; already binds both parties",
    ("flip", "54bbf4c820"): "franchisee's non-solicitation covenant; one way by nature",
    ("flip", "0b29d41bc1"): "distributor's post-term non-compete for its supplier's products; one way by nature",
    ("flip", "6f3067e8f4"): "supplier's remedy for the reseller's missed milestone; one way by nature",
    ("flip", "3d9feae718"): "manufacturer's end of technical support if the customer hires its staff; one way by nature",
    ("flip", "a6e2cbffdb"): "already mutual (no party assigns without the other's approval)",
    ("flip", "aaa79591a7"): "licensor's termination for a challenge to its own patents; one way by nature",
    ("flip", "1df04f1626"): "franchisor's consent to its developer's assignment; one way by nature",
    ("flip", "ee09575ba9"): "trademark licence to the reseller; one way by nature",
    ("flip", "37c4af4392"): "already mutual (no Party disparages the other)",
    ("flip", "674ffbb379"): "sub-adviser's transition help on termination; one way by nature",
    ("flip", "0a23709145"): "patent owner's notice before abandoning its own patents; one way by nature",
    ("flip", "99856c7503"): "assignment of domains to the buyer; one way by nature",
    ("flip", "1136605378"): "licensees' right of first refusal on the licensor's merchandise; one way by nature",
    ("flip", "562d4b09bc"): "the payee's audit of the payer's records; one way by nature",
    ("flip", "0c2fc61e84"): "customer's licence restrictions, cut off before the list; one way by nature",
    ("flip", "0522b7c784"): "the customer's licence restrictions, cut off before the list",
    ("flip", "0d82ae0efe"): "already mutual (either Charterer or Owner may elect not to renew)",
    ("flip", "c8f1b01131"): "supplier's audit of its distributor's records; one way by nature",
    ("flip", "c7c975d1e9"): "provider's withdrawal of its own services; one way by nature",
    ("flip", "c8d98553cd"): "reseller's exclusive commission and the company's exclusivity; one way by nature",
    ("flip", "8ead89cdd1"): "term of the agreement; no right of one party",
    ("flip", "97edcc0f6e"): "ownership of jointly developed software extensions; no right of one party to move",
    ("flip", "3b997393c7"): "termination rights already run both ways (COMPANY and CELEBRITY)",
    ("flip", "8f1169f9c1"): "sponsor's termination for disparagement, fragments joined by <omitted>",
    ("flip", "8e418915aa"): "franchisee's grant of its ideas to the franchisor; one way by nature",
    ("mutual", "95a94960b2"): "franchisee's no-contest of the franchisor's marks; one way by nature",
    ("mutual", "b64e81193a"): "payment on termination with redacted timing; one way by nature",
    ("mutual", "078f988575"): "franchisee's assignment of rights in the franchisor's marks; one way by nature",
    ("mutual", "3524215b50"): "distributor's liquidated damages for missed minimum purchases; one way by nature",
    ("mutual", "10c53137e4"): "customer carve-outs and exclusive distribution, fragments joined by <omitted>",
    ("mutual", "4f50565c80"): "advertiser's minimum purchases with redacted amounts; one way by nature",
    ("mutual", "a68dbd5c08"): "reseller's covenants about the supplier's IP, fragments joined by <omitted>; one way by nature",
    ("mutual", "b0f0b514cd"): "seller's product warranty; one way by nature",
    ("mutual", "472d38a487"): "processor's waiver of its own exclusivity for declined merchants; one way by nature",
    ("mutual", "9e51c94b8f"): "distributor's royalty payments and pricing; one way by nature",
    ("mutual", "66f1b5c19e"): "already mutual (IMPCO and MIL/MINDA both inspect the joint venture's plants)",
    ("conform", "common-paper-cc-by-4.0/common-paper-business-associate-agreement.docx#p1"): "cover-page note on how the BAA's parts fit together; no obligation",
    ("amount", "20631032ef"): "no figure to change (the sales amounts are in a schedule not selected)",
    ("amount", "d2a9470ed4"): "minimum payment table whose figures depend on each other; little sentence",
    ("carve_out", "fdb3153415"): "the carve-outs themselves redacted ([***])",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-new-hampshire.docx#3"): "acknowledgement of consideration; no restriction or exclusion to carve out of",
    ("shorten", "openagreements-cc-by-4.0/openagreements-founder-stock-repurchase-agreement.docx#p1"): "template placeholders in brackets ([Full legal name ...])",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#7"): "already plain English in short sentences; nothing to simplify",
    ("plain", "common-paper-cc-by-4.0/common-paper-software-license-agreement.docx#1.4"): "already plain English in short sentences; nothing to simplify",
    ("carve_out", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-michigan.docx#p33"): "cover-term heading and value without a sentence",
    ("plain", "common-paper-cc-by-4.0/common-paper-cloud-service-agreement.docx#p95"): "cover-page note on how the framework terms fit together; no obligation",
    ("plain", "openagreements-cc-by-4.0/openagreements-restrictive-covenant-alabama.docx#3"): "already plain English in short sentences; nothing to simplify",
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
