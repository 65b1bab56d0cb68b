"""An external glossary of contract-drafting terms, written from a source outside the benchmark.

Provenance. The list of concepts is the 41 clause categories of CUAD (Hendrycks et al., 2021,
"CUAD: An Expert-Annotated NLP Dataset for Legal Contract Review"), taken whole: no category
was chosen or dropped because of what a benchmark asks. Three categories are left out because
they are administrative labels, not drafting concepts, and a "definition" of them would only
add noise to a search query: Document Name, Parties and Agreement Date. That leaves 38 entries,
one per remaining category, in CUAD's order.

The aliases and definitions were written on 2026-11-23 from general US commercial drafting
knowledge, like a legal dictionary would give them, by someone who did not see the ACORD
benchmark queries or results and did not use the lead glossary's entries as a model. No
definition quotes a particular agreement or cites case law.

Format is the same as ``glossary.GLOSSARY``: keys are lower-case aliases separated by "|"
(matched as whole words); values are one-sentence definitions appended to the query. Aliases
avoid single ordinary words ("term", "license", "price", "notice") that would match almost
any clause; no alias appears under two keys. The bare words "non-solicitation" and
"non-solicit" are deliberately absent, since they could mean either the customer or the
employee category.
"""

from __future__ import annotations

EXTERNAL_GLOSSARY: dict[str, str] = {
    # Term, renewal and governing law
    "effective date|commencement date|date of effectiveness":
        "this agreement shall become effective on the effective date, the date on which the "
        "parties' rights and obligations commence, which may differ from the date of signing "
        "and may depend on a condition such as approval or closing",
    "expiration date|expiry date|initial term|term of this agreement|term of the agreement|"
    "expiration of the term|date of expiration":
        "unless earlier terminated, this agreement shall remain in effect for an initial term "
        "beginning on the effective date and expiring on a stated date or anniversary, after "
        "which it terminates unless renewed or extended",
    "renewal term|renewal terms|renewal period|automatic renewal|auto renewal|auto-renewal|"
    "automatically renew|automatically renews|successive renewal|evergreen|evergreen clause":
        "upon expiration of the initial term, this agreement shall automatically renew for "
        "successive renewal terms of a stated length, unless either party gives written notice "
        "of non-renewal before the end of the then-current term",
    "notice of non-renewal|non-renewal notice|notice of nonrenewal|nonrenewal notice|"
    "non-renewal|nonrenewal|notice period to terminate renewal|notice to terminate renewal|"
    "notice of intent not to renew":
        "either party may prevent automatic renewal by giving the other party written notice "
        "of non-renewal at least a stated number of days before the expiration of the initial "
        "term or the then-current renewal term",
    "governing law|choice of law|applicable law|governed by the laws|law governing|"
    "conflict of laws|conflicts of law":
        "this agreement shall be governed by and construed in accordance with the laws of a "
        "named state or country, without giving effect to any choice of law or conflict of "
        "laws rules that would apply the law of another jurisdiction",
    # Restrictions on competition and dealing
    "most favored nation|most favoured nation|mfn|mfn clause|most favored customer|"
    "most favoured customer|most favored pricing":
        "if a party offers any third party more favorable prices, terms or conditions for "
        "comparable products or services, it shall promptly offer the same more favorable "
        "terms to the other party and adjust amounts already charged accordingly",
    "non-compete|non compete|noncompete|non-competition|noncompetition|"
    "covenant not to compete|not compete|restrictive covenant":
        "during the term and for a stated period thereafter, a party shall not, directly or "
        "indirectly, engage in, own, manage or operate any business that competes with the "
        "other party within a defined territory or field",
    "exclusivity|exclusive dealing|exclusive supplier|exclusive distributor|"
    "exclusive arrangement|exclusive relationship|exclusive rights|sole supplier|sole source":
        "a party shall buy its requirements only from, or sell and deal exclusively with, the "
        "other party, and shall not appoint or do business with any other supplier, "
        "distributor or provider of the same products in the territory",
    "no-solicit of customers|non-solicit of customers|non-solicitation of customers|"
    "customer non-solicitation|customer non-solicit|solicitation of customers|"
    "solicit customers|non-solicitation of clients|client non-solicitation":
        "for a stated period, a party shall not, directly or indirectly, solicit, induce or "
        "encourage any customer or client of the other party to stop doing business with it "
        "or to buy competing products or services",
    "competitive restriction exception|non-compete exception|exception to non-compete|"
    "non-compete carve-out|exclusivity exception|exception to exclusivity|"
    "exclusivity carve-out|passive investment|permitted competitive activities":
        "notwithstanding the non-compete or exclusivity restrictions, a party may engage in "
        "specified activities, such as passive ownership of a small percentage of a public "
        "company's stock, acquired businesses or pre-existing products, without breaching "
        "those restrictions",
    "no-solicit of employees|non-solicit of employees|non-solicitation of employees|"
    "employee non-solicitation|employee non-solicit|solicit employees|hire employees|"
    "no-hire|no hire|non-hire|no-poach|no poach|anti-poaching":
        "for a stated period, neither party shall, directly or indirectly, solicit, recruit, "
        "hire or engage any employee or contractor of the other party, except through general "
        "solicitations not targeted at those employees",
    "non-disparagement|nondisparagement|non disparagement|disparagement|"
    "disparaging statements|disparaging remarks|not disparage":
        "a party shall not make, publish or communicate any statement that disparages, "
        "defames or is derogatory of the other party or its affiliates, officers, products or "
        "services, or that harms its business reputation",
    # Termination and transfer
    "termination for convenience|terminate for convenience|convenience termination|"
    "termination without cause|terminate without cause|without cause termination|"
    "termination at will|terminate at will":
        "either party may terminate this agreement at any time, for any reason or no reason "
        "and without cause, upon a stated number of days' prior written notice to the other "
        "party, without liability for such termination",
    "right of first refusal|rofr|first refusal|right of first offer|rofo|first offer|"
    "right of first negotiation|rofn|first negotiation|right of first look|"
    "preemptive right|pre-emptive right":
        "before selling, licensing or transferring specified assets or rights to a third "
        "party, a party must first offer them to the other party, let it match the third "
        "party's terms, or negotiate with it exclusively in good faith for a stated period",
    "change of control|change in control|change-of-control|acquisition of control|"
    "control transaction|merger or acquisition":
        "upon a change of control of a party, meaning a merger, consolidation, sale of all or "
        "substantially all of its assets, or acquisition of a majority of its voting "
        "securities, the other party may terminate or must give its consent",
    "anti-assignment|anti assignment|non-assignment|non-assignability|no assignment|"
    "assignment clause|restriction on assignment|restrictions on assignment|"
    "assignment restriction|consent to assignment|consent to assign|assign this agreement":
        "neither party may assign, delegate or otherwise transfer this agreement or any of its "
        "rights or obligations without the prior written consent of the other party, and any "
        "attempted assignment in violation of this provision is void",
    # Money and volume
    "revenue sharing|revenue share|revenue split|profit sharing|profit share|"
    "share of revenue|share of profits|percentage of revenue|percentage of net sales|"
    "royalty|royalties":
        "a party shall pay the other party a stated percentage of the gross or net revenues, "
        "profits or sales derived from the products or services, with periodic statements "
        "showing how those amounts were calculated",
    "price restriction|price restrictions|pricing restrictions|price increase|"
    "price increases|price cap|price ceiling|price adjustment|price adjustments|"
    "price freeze|price protection|fixed pricing":
        "prices shall remain fixed for a stated period, after which a party may raise or "
        "otherwise change them only upon prior written notice, no more than once a year, and "
        "by no more than a stated percentage or cost index",
    "minimum commitment|minimum purchase|minimum purchases|minimum purchase requirement|"
    "minimum order|minimum orders|minimum volume|minimum quantity|minimum annual|"
    "minimum spend|purchase commitment|take or pay|take-or-pay":
        "a party shall purchase, order or pay for at least a stated minimum quantity, volume "
        "or dollar amount of products or services in each year or period, and shall pay the "
        "shortfall if it fails to meet that minimum",
    "volume restriction|volume restrictions|volume limit|volume limits|usage limit|"
    "usage limits|usage cap|maximum quantity|maximum volume|capacity limit|seat limit|"
    "number of users":
        "the rights granted are limited to a stated maximum number of units, users, copies, "
        "transactions or installations, and any use or purchase above that volume requires "
        "the other party's consent or payment of additional fees",
    # Intellectual property and licences
    "ip ownership assignment|ip assignment|ip ownership|intellectual property assignment|"
    "assignment of intellectual property|ownership of intellectual property|"
    "ownership of work product|work made for hire|works made for hire|work for hire|"
    "invention assignment|assignment of inventions|hereby assigns":
        "a party hereby assigns to the other party all right, title and interest in all "
        "intellectual property, inventions and work product it creates under this agreement, "
        "which shall be works made for hire owned exclusively by the other party",
    "joint ip ownership|joint ip|joint ownership|jointly owned|joint intellectual property|"
    "co-ownership|co-owned|jointly developed|joint inventions|joint development":
        "intellectual property conceived or developed jointly by the parties shall be jointly "
        "owned, each party holding an equal undivided interest and, unless otherwise agreed, "
        "the right to use and exploit it without accounting to the other",
    "license grant|licence grant|grant of license|grant of licence|grants a license|"
    "grant a license|hereby grants|license rights|licensed rights|sublicense|sublicensable":
        "licensor hereby grants to licensee a license, exclusive or non-exclusive, to use, "
        "reproduce, make, sell, distribute or otherwise exploit the licensed intellectual "
        "property within a defined field, territory and term, subject to this agreement",
    "non-transferable license|nontransferable license|non-transferable licence|"
    "non-transferable|nontransferable|non-sublicensable|non-sublicensable license|"
    "non-assignable license|license not transferable":
        "the license is personal to licensee, non-transferable and non-sublicensable, and "
        "licensee may not assign, transfer, sublicense or otherwise convey it or any rights "
        "under it to a third party without licensor's prior written consent",
    "affiliate license licensor|licensor affiliates|affiliates of licensor|"
    "license from affiliates|affiliate ip|affiliate intellectual property":
        "the license granted includes intellectual property owned or controlled by "
        "licensor's affiliates, and licensor shall cause its affiliates to grant, or hereby "
        "grants on their behalf, the same rights to licensee",
    "affiliate license licensee|licensee affiliates|affiliates of licensee|"
    "license to affiliates|use by affiliates|extend to affiliates|sublicense to affiliates":
        "the license granted extends to licensee's affiliates, which may exercise the "
        "licensed rights on the same terms as licensee, and licensee remains responsible for "
        "its affiliates' compliance with this agreement",
    "unlimited license|unlimited licence|all-you-can-eat|all you can eat|enterprise license|"
    "enterprise-wide license|site license|unlimited use|unlimited users|unlimited copies|"
    "unlimited number":
        "licensee may use the licensed product without limit on the number of users, copies, "
        "installations, sites or transactions, for a fixed fee and without additional charges "
        "for increased usage",
    "irrevocable license|irrevocable licence|perpetual license|perpetual licence|"
    "perpetual irrevocable|irrevocable perpetual|paid-up license|fully paid-up":
        "the license is perpetual and irrevocable: it continues without time limit, survives "
        "expiration or termination of this agreement, and cannot be revoked by licensor "
        "except as expressly stated, often on a fully paid-up, royalty-free basis",
    "source code escrow|software escrow|escrow agreement|escrow agent|source code deposit|"
    "deposit materials|escrow release":
        "licensor shall deposit the source code and documentation for the licensed software "
        "with an independent escrow agent, to be released to licensee if licensor becomes "
        "bankrupt, ceases business or fails to maintain and support the software",
    "post-termination services|post termination services|post-termination obligations|"
    "transition services|transition assistance|termination assistance|transition period|"
    "wind-down|wind down":
        "upon expiration or termination, a party shall continue to provide services, support, "
        "supply or transition assistance for a stated wind-down period, so that the other "
        "party can move to a replacement provider without disruption",
    # Audit, liability and risk allocation
    "audit rights|audit right|right to audit|audit clause|audit|inspection rights|"
    "right to inspect|books and records|inspect records|examine records":
        "upon reasonable prior notice and during normal business hours, a party or its "
        "independent auditor may inspect and audit the other party's books, records and "
        "facilities to verify compliance and the accuracy of payments, and any underpayment "
        "shall be promptly paid",
    "uncapped liability|unlimited liability|uncapped|no cap on liability|unlimited damages|"
    "exclusions from limitation of liability|exceptions to limitation of liability|"
    "liability carve-outs":
        "the limitations and exclusions of liability shall not apply to a party's "
        "indemnification obligations, breach of confidentiality, infringement, gross "
        "negligence, willful misconduct or fraud, for which its liability is unlimited",
    "cap on liability|liability cap|limitation of liability|limitations of liability|"
    "limitation on liability|limit of liability|liability limit|aggregate liability|"
    "maximum liability|capped liability|cap on damages":
        "in no event shall either party's aggregate liability arising out of or relating to "
        "this agreement exceed the fees paid or payable in the twelve months before the claim "
        "or another stated amount, and claims must be brought within a stated period",
    "liquidated damages|liquidated damage|termination fee|early termination fee|"
    "break fee|break-up fee|breakup fee|penalty clause|delay damages|service credit|"
    "service credits":
        "upon a specified breach, delay or early termination, the breaching party shall pay "
        "the other party a fixed sum as liquidated damages, which the parties agree is a "
        "reasonable estimate of damages that are hard to ascertain and not a penalty",
    "warranty duration|warranty period|warranty term|duration of warranty|"
    "length of warranty|limited warranty period|warranty expires|warranty expiration":
        "the warranty shall remain in effect for a stated period, such as ninety days or one "
        "year from delivery or acceptance, and any claim must be made in writing within that "
        "warranty period to obtain repair, replacement or refund",
    "insurance|insurance requirements|insurance coverage|maintain insurance|"
    "certificate of insurance|certificates of insurance|additional insured|"
    "commercial general liability|general liability insurance|cgl|"
    "product liability insurance|professional liability insurance|errors and omissions":
        "a party shall maintain at its own expense commercial general liability, product "
        "liability and other insurance with reputable insurers in stated minimum amounts, name "
        "the other party as additional insured, and provide certificates of insurance on request",
    "covenant not to sue|covenant not-to-sue|agreement not to sue|not to sue|"
    "covenant not to challenge|no challenge|no-challenge|non-challenge|challenge validity|"
    "contest validity":
        "a party covenants that it shall not sue or assert any claim against the other party, "
        "nor challenge or contest the validity, enforceability or ownership of the other "
        "party's patents, trademarks or other intellectual property",
    "third party beneficiary|third-party beneficiary|third party beneficiaries|"
    "third-party beneficiaries|no third party beneficiaries|intended beneficiary|"
    "intended beneficiaries|rights of third parties":
        "this agreement is for the sole benefit of the parties and their permitted successors "
        "and assigns, and confers no legal or equitable right or remedy on any other person, "
        "except named third-party beneficiaries who may enforce specified provisions",
}
