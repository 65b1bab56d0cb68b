"""The leave-one-query-out glossary (precedent_bench/retrieval/ltr_data.py) and the served glossary (quality.md, step 17)."""


import pytest

from index_builder.retrieve.glossary import DEFAULT_GLOSSARY, merged
from index_builder.retrieve.glossary import GLOSSARY as ACORD_GLOSSARY
from index_builder.retrieve.glossary_external import EXTERNAL_GLOSSARY
from index_builder.retrieve.query_expansion import QueryExpander

GLOSSARY = {"cap on liability|liability cap": "shall not exceed the fees paid",
            "rofr|right of first refusal": "offer the interest first to the other party",
            "escrow": "deposit the source code with an escrow agent"}
TEXTS = {"q1": "Liability cap", "q2": "cap on liability for fraud", "q3": "ROFR clauses",
         "q4": "rofr on transfers"}


@pytest.fixture(scope="module")
def coverage():  # type: ignore[no-untyped-def]
    from precedent_bench.retrieval import ltr_data

    return ltr_data


def test_alias_users_are_the_queries_whose_text_has_the_alias(coverage):  # type: ignore[no-untyped-def]
    users = coverage.alias_users(GLOSSARY, TEXTS)
    assert users["liability cap"] == {"q1"} and users["cap on liability"] == {"q2"}
    assert users["rofr"] == {"q3", "q4"} and users["right of first refusal"] == set()
    assert users["escrow"] == set()


def test_a_query_loses_only_the_aliases_no_other_query_uses(coverage):  # type: ignore[no-untyped-def]
    users = coverage.alias_users(GLOSSARY, TEXTS)
    own = coverage.without_own(GLOSSARY, users, "q1")
    # Its own alias goes, the entry stays through the alias q2 uses; unused aliases stay.
    assert own == {"cap on liability": GLOSSARY["cap on liability|liability cap"],
                   "rofr|right of first refusal": GLOSSARY["rofr|right of first refusal"],
                   "escrow": GLOSSARY["escrow"]}
    assert QueryExpander(own).expand(TEXTS["q1"]) == TEXTS["q1"]  # a new query: no expansion
    assert QueryExpander(own).expand(TEXTS["q2"]) != TEXTS["q2"]
    # An alias two queries share is kept for each of them, but not for a fold holding both.
    assert coverage.without_own(GLOSSARY, users, "q3") == GLOSSARY
    fold = coverage.held_out(GLOSSARY, users, {"q3", "q4"})
    assert fold["right of first refusal"] == GLOSSARY["rofr|right of first refusal"]
    assert QueryExpander(fold).expand(TEXTS["q4"]) == TEXTS["q4"]


def test_merged_glossary_keeps_the_first_definition_of_a_shared_alias():
    first = {"liability cap|cap on liability": "first definition"}
    second = {"cap on liability": "second definition", "escrow": "escrow definition"}
    glossary = merged(first, second)
    assert list(glossary) == ["liability cap|cap on liability", "cap on liability", "escrow"]
    expanded = QueryExpander(glossary).expand("cap on liability and escrow")
    assert "first definition" in expanded and "escrow definition" in expanded
    assert "second definition" not in expanded


def test_served_glossary_is_the_acord_one_then_the_external_one():
    assert list(DEFAULT_GLOSSARY)[:len(ACORD_GLOSSARY)] == list(ACORD_GLOSSARY)
    assert all(DEFAULT_GLOSSARY[k] == v for k, v in ACORD_GLOSSARY.items())
    assert set(DEFAULT_GLOSSARY) == set(ACORD_GLOSSARY) | set(EXTERNAL_GLOSSARY)
    escrow = next(k for k in EXTERNAL_GLOSSARY if "software escrow" in k.split("|"))
    assert EXTERNAL_GLOSSARY[escrow] in QueryExpander().expand("a software escrow")
