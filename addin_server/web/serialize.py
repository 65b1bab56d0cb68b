"""The JSON shapes the add-in reads (the contract in docs/backend.md); nothing else."""

from __future__ import annotations

from functools import lru_cache
from pathlib import PurePath
from typing import Any

from index_builder.index.backend import WALL_FIELDS
from index_builder.ingest.metadata import clause_facets
from index_builder.model import Clause, SearchHit
from index_builder.reading.labels import clause_label
from index_builder.reading.sentences import sentence_spans

from addin_server.draft.redraft import RedraftResult
from addin_server.draft.router import Drafted
from index_builder.retrieve.pipeline import Ranked, SearchOutcome


def source_json(clause: Clause) -> dict[str, Any]:
    # Only the file name: the server's folder layout is not the add-in's business.
    return {
        "doc_id": clause.doc_id,
        "document": clause.doc_title or clause.doc_id,
        "file": _file_name(clause.source_path) if clause.source_path else "",
        "section": clause.section,
        "heading": clause.heading,
        "citation": clause.citation(),
        # Opens the document in its DMS (or the file share IT named), which checks access
        # again; "" when the source gave no link (issue 25).
        "url": clause.metadata.get("source_url", ""),
    }


@lru_cache(maxsize=4096)
def _file_name(path: str) -> str:
    # A path object per card and copy was a tenth of serialising a page (issue 39).
    return PurePath(path).name


def retrieval_json(hit: SearchHit) -> dict[str, Any]:
    return {"rank": hit.rank, "score": hit.score, "ranks": dict(hit.retriever_ranks),
            "scores": {k: round(v, 6) for k, v in hit.retriever_scores.items()}}


def result_json(item: Ranked) -> dict[str, Any]:
    rating = item.rating.score if item.rating else None
    rerank = None if rating is None else round(rating, 4)
    return {
        "clause_id": item.hit.clause.clause_id,
        "rank": item.rank,
        # The rerank rating (0-4) when there is one, else the fused retrieval score.
        "score": rerank if rerank is not None else item.hit.score,
        "score_kind": "rerank" if rerank is not None else "retrieval",
        "text": item.hit.clause.text,
        "rerank_score": rerank,
        "stars": None if rerank is None else round(rerank + 1, 4),
        "retrieval": retrieval_json(item.hit),
        "source": source_json(item.hit.clause),
        # Its number, run-in heading, where its words begin and whether they are in capitals, as
        # the core reads them (reading/labels.py): Insert drops them and matches the lawyer's.
        "reading": clause_label(item.hit.clause.text, item.hit.clause.heading).to_dict(),
        # Near copies of this clause elsewhere in the library (minor variations).
        "variants": [{"clause_id": hit.clause.clause_id, "similarity": score,
                      "source": source_json(hit.clause)} for hit, score in item.variants],
        # The best 1-3 sentence window of a long precedent: offsets into "text".
        "spans": [span.to_dict() for span in item.spans],
        # Strict mode (retrieve/strict.py): how much of the lawyer's wording this precedent shares.
        **({"match": {"similarity": item.match.similarity, "identical": item.match.identical}}
           if item.match is not None else {}),
    }


def search_ids(payload: dict[str, Any]) -> list[str]:
    """The clause ids of a search answer (``search_json``) as the audit trail walks them
    (audit.returned_ids), read from where its ids are: each result's, then its near copies'
    (issue 39: no walk of the whole answer on a search's path). Nothing else in that answer names a clause by
    ``clause_id`` (a curation mark says ``replacement_clause_id``; facets count values), and a
    test keeps the two equal on served answers."""
    found: list[str] = []
    for result in payload.get("results", ()):
        found.append(result["clause_id"])
        found.extend(v["clause_id"] for v in result.get("variants", ()))
    return found


def search_json(outcome: SearchOutcome, query: str | None = None) -> dict[str, Any]:
    """The search answer; with ``query`` (the lawyer's text) also its label (``query_reading``)."""
    rerank: dict[str, Any] = {"status": outcome.rerank_status}
    if outcome.rerank_reason:
        rerank["reason"] = outcome.rerank_reason
    return {"results": [result_json(r) for r in outcome.results], "rerank": rerank,
            **({"query_reading": clause_label(query).to_dict()} if query else {}),
            "mode": outcome.mode,
            "timings_ms": outcome.timings_ms,
            # Document counts per metadata value among the candidates (as GET /facets).
            "facets": clause_facets(hit.clause for hit in outcome.candidates)}


def clause_json(clause: Clause) -> dict[str, Any]:
    return {"clause_id": clause.clause_id, "text": clause.text, "source": source_json(clause),
            "paragraphs": [clause.paragraph_start, clause.paragraph_end],
            # Wall groups are never shown: they would name matters and the people walled off.
            "metadata": {k: v for k, v in clause.metadata.items() if k not in WALL_FIELDS}}


def redraft_json(result: RedraftResult, timings: dict[str, float],
                 drafted: Drafted | None = None) -> dict[str, Any]:
    verified = result.verified
    text = verified.text
    return {**(drafted_json(drafted) if drafted else {}),
        "redraft": text,
        # The redraft in sentences (offsets into "redraft", the core's splitter): the pane
        # anchors the Word comment with an operation's reasons on the sentence it changed.
        "redraft_sentences": [[a, b] for a, b in sentence_spans(text)],
        "citations": [_citation_json(result, n) for n in verified.cited],
        "comments": [_comment_json(result, c) for c in verified.comments],
        # Cited sentences the precedent may not back: the pane shades them.
        "flagged": [{"n": c.n, "clause_id": c.clause_id, "sentence": c.sentence, "start": c.start,
                     "end": c.end, "score": c.support.score, "reason": c.support.reason}
                    for c in verified.flagged if c.support is not None],
        # Sentences left without a source that are not the lawyer's own wording.
        "uncited_sentences": [{"start": a, "end": b, "sentence": text[a:b]}
                              for a, b in verified.uncited],
        "removed_markers": verified.removed_markers,
        "citation_problems": verified.problems,
        "precedents": [{"n": n, "clause_id": c.clause_id, "source": source_json(c)}
                       for n, c in enumerate(result.precedents, 1)],
        "omitted_clause_ids": result.omitted,
        "timings_ms": timings,
    }


def _citation_json(result: RedraftResult, n: int) -> dict[str, Any]:
    clause = result.precedents[n - 1]
    mine = [c for c in result.verified.comments if c.n == n and c.support is not None]
    out: dict[str, Any] = {"marker": f"[{n}]", "n": n, "clause_id": clause.clause_id,
                           "source": source_json(clause), "quote": None, "support": None}
    if mine:
        best = max(mine, key=lambda c: c.support.score)
        out["quote"] = _quote_json(clause, best)
        # A citation is as good as its weakest sentence.
        out["support"] = {"score": min(c.support.score for c in mine),
                          "supported": all(c.support.supported for c in mine)}
    return out


def _comment_json(result: RedraftResult, comment: Any) -> dict[str, Any]:
    support = comment.support
    return {"marker": comment.marker, "n": comment.n, "clause_id": comment.clause_id,
            "start": comment.start, "end": comment.end, "sentence": comment.sentence,
            "text": comment.text, "flag": comment.flag,
            "support": None if support is None else {"score": support.score,
                                                     "supported": support.supported,
                                                     "reason": support.reason or None,
                                                     "model_confirmed": support.model_confirmed},
            "quote": None if support is None else
            _quote_json(result.precedents[comment.n - 1], comment)}


def _quote_json(clause: Clause, comment: Any) -> dict[str, Any]:
    """The passage of the precedent relied on, with offsets into the precedent's text."""
    start, end = comment.support.start, comment.support.end
    return {"text": clause.text[start:end], "start": start, "end": end}


def drafted_json(drafted: Drafted) -> dict[str, Any]:
    """Who wrote the draft, the edits an operation made with their reasons, the checks."""
    op = drafted.operation
    return {
        "producer": {"kind": drafted.producer, "operation": op.operation if op else None,
                     "label": op.label if op else "Drafting assistant",
                     "reason": drafted.route_reason, "alternative": drafted.alternative,
                     "instruction": drafted.instruction.kind},
        # Each part of the instruction: what it asked, done or not (as the checks found it), by whom.
        "parts": drafted.parts,
        # Offsets into the lawyer's clause: each is shown as a tracked change with its reason.
        "changes": [e.to_dict() for e in drafted.edits],
        "checks": [c.to_dict() for c in drafted.checks],
        "checks_failed": [c.name for c in drafted.checks if c.passed is False],
        "notes": drafted.notes,
    }
