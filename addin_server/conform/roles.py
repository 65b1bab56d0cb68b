"""Party roles: which side of a deal a party term stands for ("Provider" and "Supplier" both supply).

A term's role comes from its name (the table below), else from its definition ("the party
providing the Services"). "Company" is read from the other party: across from a Contractor it
buys the services, across from a Founder or Employee it employs.
"""

from __future__ import annotations

import re
from typing import Sequence

SUPPLIER = "supplier"
CUSTOMER = "customer"
DISCLOSER = "discloser"
RECIPIENT = "recipient"
EMPLOYER = "employer"
EMPLOYEE = "employee"
INDEMNITOR = "indemnifying"
INDEMNITEE = "indemnified"

_NAMES: dict[str, str] = {
    **dict.fromkeys(["provider", "supplier", "vendor", "service provider", "contractor", "consultant",
                     "licensor", "seller", "business associate", "processor", "servicer", "agency"], SUPPLIER),
    **dict.fromkeys(["customer", "client", "buyer", "purchaser", "licensee", "subscriber", "covered entity",
                     "controller", "partner", "design partner", "user organisation", "user organization"], CUSTOMER),
    **dict.fromkeys(["discloser", "disclosing party"], DISCLOSER),
    **dict.fromkeys(["recipient", "receiving party"], RECIPIENT),
    **dict.fromkeys(["employer"], EMPLOYER),
    **dict.fromkeys(["employee", "executive", "founder", "worker", "consultant employee"], EMPLOYEE),
    **dict.fromkeys(["indemnifying party", "indemnitor"], INDEMNITOR),
    **dict.fromkeys(["protected party", "indemnified party", "indemnitee"], INDEMNITEE),
}

_DEFINED_AS = (
    (re.compile(r"\b(?:provid|suppl|perform|deliver|licens(?:ing|or)\b|sell)\w*\b.{0,40}\b(?:services|products?|software|goods|deliverables)", re.I), SUPPLIER),
    (re.compile(r"\b(?:receiv|purchas|buy|acquir|us)\w*\b.{0,40}\b(?:services|products?|software|goods|deliverables)", re.I), CUSTOMER),
    (re.compile(r"\bdisclos\w*\b.{0,30}\bconfidential", re.I), DISCLOSER),
    (re.compile(r"\breceiv\w*\b.{0,30}\bconfidential", re.I), RECIPIENT),
)
_LEGAL_NAME = re.compile(r"\[\s*(?:full\s+)?legal\s+name\s+of\s+(?:the\s+|an?\s+)?([a-z]+(?:\s[a-z]+)?)\s*\]", re.I)


def role_of(term: str, definition: str = "", others: Sequence[str] = ()) -> str:
    """The role a party term stands for, or "" when it cannot be told."""
    key = term.strip().lower()
    if key == "company":
        roles = {_NAMES.get(o.strip().lower(), "") for o in others if o.strip().lower() != "company"}
        if roles & {EMPLOYEE}:
            return EMPLOYER
        if roles & {SUPPLIER}:
            return CUSTOMER
        if roles & {CUSTOMER}:
            return SUPPLIER
        return ""
    if key in _NAMES:
        return _NAMES[key]
    # A cover page's party row: "Staff Member: [Full legal name of the employee]".
    named = _LEGAL_NAME.search(definition)
    if named and named.group(1).lower() in _NAMES:
        return _NAMES[named.group(1).lower()]
    body = definition.split("means", 1)[-1] if "means" in definition else ""
    for pattern, role in _DEFINED_AS:
        if body and pattern.search(body):
            return role
    return ""
