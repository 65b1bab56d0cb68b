"""The own-draft query set (issue 28, benchmarks/owndraft/): its checks and its judgments."""

import pytest

from precedent_bench.common.data import jsonl


@pytest.fixture(scope="module")
def drafts():  # type: ignore[no-untyped-def]
    from precedent_bench.retrieval import owndraft_drafts

    return owndraft_drafts


def test_a_shared_run_of_eight_words_is_found_and_seven_is_not(drafts):  # type: ignore[no-untyped-def]
    corpus = ["The Supplier shall not be liable for any indirect or consequential loss whatsoever."]
    texts = {"copied": "Vendor shall not be liable for any indirect or consequential loss at all.",
             "seven": "We shall not be liable for any indirect damages."}
    found = drafts.shared_runs(texts, corpus)
    assert list(found) == ["copied"]  # "shall not be liable for any indirect or" (and more)
    assert "shall not be liable for any indirect or" in found["copied"]


def test_no_fresh_draft_shares_eight_words_with_the_corpus(drafts, acord_dir):  # type: ignore[no-untyped-def]
    corpus = [row["text"] for row in jsonl(acord_dir / "corpus.jsonl")]
    fresh = jsonl(drafts.FRESH)
    assert drafts.shared_runs({r["id"]: r["text"] for r in fresh}, corpus) == {}
    queries = jsonl(acord_dir / "queries.jsonl")
    split = {q["_id"]: q["metadata"]["split"] for q in queries}
    assert {split[r["parent"]] for r in fresh} == {"train", "valid"}  # never a test need
    assert all(r["split"] == split[r["parent"]] for r in fresh)


def test_a_synthetic_draft_renames_refigures_and_adds_a_note(drafts):  # type: ignore[no-untyped-def]
    source = ("Licensee shall indemnify Licensor against third party claims. The cap is "
              "thirty (30) days of fees under Section 12. Either Party may give notice. "
              "Acme Widgets Inc. owns the Products.")
    text, ops = drafts.transform("c1", source, "indemnify third party claims", {"licensee"})
    assert text == drafts.transform("c1", source, "indemnify third party claims", {"licensee"})[0]
    assert "Licensee" not in text and "Customer" in text  # defined terms renamed
    assert "thirty (30)" not in text and "Section 12" not in text  # figures moved
    assert "Acme Widgets" not in text  # a party's name replaced
    assert "dropped" in ops and ops[-1] == "note"
    assert any(note in text for note in drafts._NOTES)


def test_synthetic_drafts_come_from_train_and_valid_five_star_clauses(drafts, acord_dir):  # type: ignore[no-untyped-def]
    from index_builder.evaluate.acord import load_acord

    rows = drafts.make_synthetic(acord_dir)
    assert rows == drafts.make_synthetic(acord_dir)  # the same file on every machine
    acord = load_acord(acord_dir)
    assert len(rows) == 77 and {r["split"] for r in rows} == {"train", "valid"}
    assert all(acord.qrels[r["split"]][r["parent"]][r["source"]] == 4 for r in rows)


def test_draft_queries_judge_by_the_parent_without_the_source(drafts, acord_dir):  # type: ignore[no-untyped-def]
    from index_builder.evaluate.acord import load_acord
    from precedent_bench.retrieval import ltr_data

    acord = load_acord(acord_dir)
    synth = ltr_data.judged_drafts(acord, "valid", drafts.make_synthetic(acord_dir))
    fresh = ltr_data.draft_queries(acord, "train", "fresh")
    assert synth and fresh
    for query in synth:
        parent = ltr_data.parent(query)
        assert query.exclude and query.exclude not in query.judged
        assert query.judged == {c: g for c, g in acord.qrels["valid"][parent].items()
                                if c != query.exclude}
    assert all(q.judged == acord.qrels["train"][ltr_data.parent(q)] and not q.exclude
               for q in fresh)
