"""precedent-bench conform-pairs: no label reaches the code under test, and the scorer
outside it catches every kind of wrong change."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from precedent_bench import conform_pairs as cp

LABEL_FIELDS = ("mappings", "keep", "undefined", "must_not_change", "expected_text", "expect", "notes", "document_terms",
                "document_parties", "required", "accept", "why")


def test_what_reaches_the_pane_and_the_server_holds_no_label(contracts_dir: Path) -> None:
    for pair in cp.load_pairs("tuning"):
        job = cp.pane_job(pair, contracts_dir, "some-doc#7", "http://127.0.0.1:1", edit=True)
        assert set(job) == {"base_url", "paragraphs", "clause_id", "edit"}
        assert job["edit"] is None or set(job["edit"]) == {"from", "to"}  # what a lawyer types, nothing else
        sent = json.dumps(job, ensure_ascii=False)
        assert not any(f'"{field}"' in sent for field in LABEL_FIELDS)
        label_words = [pair["notes"], *(m["why"] for m in pair["mappings"])]
        assert not any(words and words in sent for words in label_words), pair["pair_id"]
        if pair["expected_text"] != pair["precedent"]["text"]:
            assert pair["expected_text"] not in sent, pair["pair_id"]
        # The paragraphs are the target agreement as Word presents it, read from its .docx only.
        assert all(set(p) == {"index", "text", "listString", "style", "isHeading", "inTable"} for p in job["paragraphs"])
        assert pair["precedent"]["text"] not in sent or pair["precedent"]["text"] in "\n".join(p["text"] for p in job["paragraphs"])


def test_the_node_driver_reads_nothing_but_its_job() -> None:
    driver = cp.DRIVER.read_text()
    assert "benchmarks/sets" not in driver and "jsonl" not in driver and "heldout" not in driver.lower()


@pytest.mark.parametrize("result,wrong", [
    ("Supplier will pay the Fees to the Client.", 0),  # both allowed
    ("Supplier will pay the Charges to the Client.", 1),  # a change no label allows
    ("A Supplier\u2019s invoice goes to an Client.", 1),  # "an Client": the article is part of the change and wrong
    ("Supplier will pay the Fees to the Clients.", 0),  # a form of an allowed mapping
])
def test_the_scorer_counts_every_change_no_label_allows(result: str, wrong: int) -> None:
    allowed = {(cp._key(["Provider"]), cp._key(["Supplier"])), (cp._key(["Customer"]), cp._key(["Client"]))}
    original = {0: "Provider will pay the Fees to the Customer.", 1: "Provider will pay the Fees to the Customer.",
                2: "A Provider\u2019s invoice goes to a Customer.", 3: "Provider will pay the Fees to the Customers."}
    index = ["Supplier will pay the Fees to the Client.", "Supplier will pay the Charges to the Client.",
             "A Supplier\u2019s invoice goes to an Client.", "Supplier will pay the Fees to the Clients."].index(result)
    assert len(cp.wrong_changes(original[index], result, allowed, ())) == wrong


def test_an_allowed_change_inside_a_protected_phrase_is_wrong() -> None:
    allowed = {(cp._key(["Customer"]), cp._key(["Client"]))}
    text = "See Section 2.1 (Restrictions on Customer). Customer pays."
    assert cp.wrong_changes(text, "See Section 2.1 (Restrictions on Client). Client pays.", allowed,
                            ["Section 2.1 (Restrictions on Customer)"]) != []
    assert cp.wrong_changes(text, "See Section 2.1 (Restrictions on Customer). Client pays.", allowed,
                            ["Section 2.1 (Restrictions on Customer)"]) == []


@pytest.mark.skipif(shutil.which("node") is None, reason="node not installed")
def test_one_pair_end_to_end_through_the_pane_and_the_server(contracts_dir: Path) -> None:
    pair = next(p for p in cp.load_pairs("tuning") if p["pair_id"] == "conform-64")
    report = cp.measure([pair], contracts_dir)
    row = report["pairs"][0]
    assert [r["path"] for r in row["requests"]] == ["/api/v1/document", "/api/v1/conform"]
    assert row["requests"][1]["keys"] == ["clause_ids", "document"]
    assert row["required"] == 2 and row["applied"] + row["shown"] >= 1 and report["figures"]["pairs"] == 1


def test_a_change_is_judged_as_the_whole_term_it_changes() -> None:
    allowed = {(cp._key(["Standard", "Terms"]), cp._key(["NDA", "Terms"])), (cp._key(["Customer"]), cp._key(["Client"])),
               (cp._key(["Agreement"]), cp._key(["Definitive", "Agreement"]))}
    assert cp.wrong_changes("the Standard Terms apply", "the NDA Terms apply", allowed, ()) == []
    assert cp.wrong_changes("for this Agreement only", "for this Definitive Agreement only", allowed, ()) == []
    # A party mapping does not excuse rewriting the first word of a longer term.
    assert cp.wrong_changes("The Customer Content stays.", "The Client Content stays.", allowed, ()) != []
    assert cp.wrong_changes("The Customer pays.", "The Client pays.", allowed, ()) == []


def test_a_run_of_capitalised_words_does_not_cross_a_line() -> None:
    allowed = {(cp._key(["NDA", "Term"]), cp._key(["MNDA", "Term"]))}
    assert cp.wrong_changes("NDA Term\nPeriod for sharing", "MNDA Term\nPeriod for sharing", allowed, ()) == []
