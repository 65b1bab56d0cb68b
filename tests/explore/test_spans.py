"""Matching spans: sentence splitting and the best 1-3 sentence windows."""

from __future__ import annotations

import numpy as np
import pytest

from index_builder.retrieve.spans import best_spans, sentences

LONG = ("1. Term. This Agreement starts on the Effective Date and runs for one year. "
        "Either party may renew it by notice, e.g. by email to Acme Inc. at its address. "
        "Section 2.1 applies to renewals.\n"
        "The Employee shall not solicit any customer of the Employer for twelve months. "
        "Fees are payable within thirty days of the invoice date. "
        "Late fees accrue at one percent per month.")


def test_sentences_skip_abbreviations_numbers_and_initials():
    found = [LONG[s:e] for s, e in sentences(LONG)]
    assert found == [
        "1. Term.",
        "This Agreement starts on the Effective Date and runs for one year.",
        "Either party may renew it by notice, e.g. by email to Acme Inc. at its address.",
        "Section 2.1 applies to renewals.",
        "The Employee shall not solicit any customer of the Employer for twelve months.",
        "Fees are payable within thirty days of the invoice date.",
        "Late fees accrue at one percent per month.",
    ]
    assert sentences("  ") == [] and sentences("No end") == [(0, 6)]


def test_the_window_that_matches_the_query_is_returned_with_offsets(embedder):
    query = embedder.embed(["employee shall not solicit customers of the employer"])
    [spans] = best_spans(query, [LONG], embedder, max_spans=2)
    best = spans[0]
    assert LONG[best.start:best.end] == (
        "The Employee shall not solicit any customer of the Employer for twelve months.")
    assert len(spans) == 2 and spans[1].score <= best.score
    assert spans[1].end <= best.start or spans[1].start >= best.end  # no overlap


def test_several_query_rows_score_a_window_by_its_best_row(embedder):
    rows = embedder.embed(["late fees accrue per month", "nothing about this clause at all"])
    [[span]] = best_spans(rows, [LONG], embedder)
    assert LONG[span.start:span.end].startswith("Late fees") or \
        "Late fees" in LONG[span.start:span.end]
    assert span.score == best_spans(rows[:1], [LONG], embedder)[0][0].score


def test_short_clauses_get_no_spans_and_one_batch_embeds_all_long_ones(embedder):
    query = embedder.embed(["renewal notice"])
    embedder.calls.clear()
    out = best_spans(query, ["Short clause. Two sentences.", LONG, LONG], embedder)
    assert out[0] == [] and out[1] == out[2] and out[1]
    assert embedder.calls == [14]
    assert best_spans(np.zeros((1, embedder.dimension), np.float32), ["One."], embedder) == [[]]


def test_lexical_scorer_needs_no_model_and_finds_the_same_sentence():
    query = ["the employee must not solicit customers of the employer"]
    [[span]] = best_spans(None, [LONG], None, scorer="lexical", query_texts=query)
    assert LONG[span.start:span.end] == (
        "The Employee shall not solicit any customer of the Employer for twelve months.")
    assert 0 < span.score <= 1
    # Two examples: a window scores its best example; nothing shared, no span at all.
    [[late]] = best_spans(None, [LONG], None, scorer="lexical",
                          query_texts=["late fees per month", "unrelated indemnity words"])
    assert LONG[late.start:late.end] == "Late fees accrue at one percent per month."
    assert best_spans(None, [LONG], None, scorer="lexical", query_texts=["indemnity"]) == [[]]
    with pytest.raises(ValueError, match="scorer"):
        best_spans(None, [LONG], None, scorer="bm25")


def test_lexical_window_scores_do_not_depend_on_the_order_a_set_is_summed_in():
    from index_builder.retrieve.spans import _lexical_scorer

    # 0.1 + 0.2 + 0.3 summed in one order is 0.6000000000000001, in another 0.6: a window
    # holding every query term must score exactly 1.0 whichever order its set iterates in.
    weight = {"a": 0.1, "b": 0.2, "c": 0.3, "d": 0.7}
    sets = (frozenset("a"), frozenset("bc"), frozenset("d"))
    for query in ({"a", "b", "c"}, {"c", "b", "a"}, set(reversed(["a", "b", "c"]))):
        score = _lexical_scorer(sets, weight, [query])
        assert score(0, 1) == 1.0 - 0.1  # all three terms, one extra sentence
        assert score(0, 2) == 1.0 - 0.2


def test_sentence_ends_after_long_sentences_read_abbreviations_as_before():
    # The abbreviation check looks at the few characters before a full stop only (issue 39);
    # spans split with the core's one splitter, where a reference ends a sentence.
    long_head = "word " * 200
    text = f"{long_head}see Section 2. Then the rest. It ends at art. 5 here. And a No. 7 item."
    found = [text[s:e] for s, e in sentences(text)]
    assert found == [f"{long_head}see Section 2.", "Then the rest.",
                     "It ends at art. 5 here.", "And a No. 7 item."]
