"""Who a sentence binds and whom it protects, read from clauses as lawyers write them."""

from __future__ import annotations

import pytest

from index_builder.reading.binding import MUTUAL, read


def kinds(text: str, parties: tuple[str, ...] = ()) -> list[tuple[str, str, bool]]:
    return [(p.kind, p.bound, p.negated) for p in read(text, parties).provisions]


@pytest.mark.parametrize("text, parties, expected", [
    # The subject of "shall", with an elliptical second promise that names no subject.
    ("The Company shall hold the Consultant's Confidential Information in strict confidence and shall not disclose "
     "it to any third party.", ("Company", "Consultant"),
     [("obligation", "Company", False), ("prohibition", "Company", True)]),
    # A passive names the party bound after "by".
    ("Confidential Information shall be held in confidence by the Recipient.", (), [("obligation", "Recipient", False)]),
    ("Documentation shall be retained by SCIEN for two (2) years.", ("SCIEN", "HEMISPHERX"),
     [("obligation", "SCIEN", False)]),
    # Limits shelter the party they name.
    ("In no event shall DGT be liable for consequential damages.", ("DGT", "Dolphin"), [("protection", "DGT", True)]),
    ("Licensor's total liability to Licensee shall be limited to the amount actually paid by Licensee.", (),
     [("protection", "Licensor", False)]),
    ("No action may be brought by Dolphin more than six months after the cause of action.", ("DGT", "Dolphin"),
     [("prohibition", "Dolphin", True)]),
    # Mutual subjects, joint ones included.
    ("Neither party has authority to bind the other party.", (), [("prohibition", MUTUAL, True)]),
    ("Each of Company and Distributor will carry insurance.", ("Company", "Distributor"), [("obligation", MUTUAL, False)]),
    ("Neither Company nor MA is liable to the other for lost profits.", ("Company", "MA"), [("protection", MUTUAL, True)]),
    # "it" after "agrees that" binds the party that agreed; a relative clause binds no one.
    ("CONSULTANT agrees that during its consultancy it will not, for itself or any other person: (a) solicit any "
     "employee.", ("CONSULTANT", "Company"), [("prohibition", "CONSULTANT", True)]),
    ("The Customer agrees to indemnify i-on against any claims to which i-on may become subject, and will reimburse "
     "i-on for all legal expenses.", ("i-on", "Customer"),
     [("obligation", "Customer", False), ("obligation", "Customer", False)]),
    ("Kallo shall have the option of immediate termination of this Agreement.", ("Agent", "Kallo"),
     [("right", "Kallo", False)]),
])
def test_who_each_provision_binds(text: str, parties: tuple[str, ...], expected: list) -> None:
    assert kinds(text, parties) == expected


def test_a_mutual_duty_that_still_protects_one_party_is_one_sided() -> None:
    half = read("Each party shall hold the Consultant's Confidential Information in strict confidence.",
                ("Company", "Consultant"))
    assert not half.one_sided() and [(p.verb, who) for p, who in half.one_sided_protections()] == [("hold", "Consultant")]
    assert not half.is_mutual()
    whole = read("Each party shall hold the other party's Confidential Information in strict confidence.",
                 ("Company", "Consultant"))
    assert whole.is_mutual()


def test_mirror_images_make_a_clause_mutual() -> None:
    text = ("PlanetCAD shall not market any services to Customers without the approval of Dassault, and Dassault shall "
            "not market any services to PlanetCAD's customers without the approval of PlanetCAD.")
    b = read(text, ("PlanetCAD", "Dassault"))
    assert {p.bound for p in b.provisions} == {"PlanetCAD", "Dassault"} and not b.one_sided()


def test_who_is_paid_or_named_in_a_document_title_is_not_who_is_protected() -> None:
    b = read("Each party's total liability to the other party shall not exceed the amounts paid by Licensee to "
             "Licensor under the Supply Agreement between Licensee and Licensor.", ("Licensor", "Licensee"))
    assert b.is_mutual()


@pytest.mark.parametrize("text, expected", [
    ("the non-breaching or non-violating party may seek an injunction", {"breach": False}),
    ("the breaching party may seek an injunction", {"breach": True}),
    ("the party not in breach may terminate", {"breach": False}),
    ("the Party whose control has changed shall not compete", {"control chang": True}),
    ("the Party whose control has not changed may terminate", {"control chang": False}),
    # Said both ways in one text: no single side to compare.
    ("The breaching party shall pay the non-breaching party's costs.", {}),
    ("The receiving party shall keep it confidential.", {}),
])
def test_party_qualifiers(text: str, expected: dict[str, bool]) -> None:
    from index_builder.reading.binding import party_qualifiers
    assert {k: v[0] for k, v in party_qualifiers(text).items()} == expected
