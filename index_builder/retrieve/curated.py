"""The page reordered by the knowledge team's marks (learn/curation.py keeps the marks).

* deprecated results come after every current one on the page, so a deprecated clause is
  never first unless the request asks for the plain order (``curation=False``) or nothing
  else matched;
* preferred and approved results rise at most ``lift`` places, never above a result the
  LLM rated higher (its tier) nor above one marked as well or better.

The pipeline is handed a ``Curator`` (learn/curation.Curation on the server) the way it is
handed an embedder or a reranker: this layer never imports the usage store.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol, Sequence, TypeVar

from index_builder.model import Clause

T = TypeVar("T")
BOOST = {"preferred": 2, "approved": 1, "deprecated": -1}


class Curator(Protocol):
    """Reads the effective mark of each clause (its own, else its document's)."""

    def marks_for(self, clauses: Sequence[Clause]) -> dict[str, Any]:
        """{clause_id: mark with a ``status``} for the clauses that carry one."""
        ...


def curated_order(items: Sequence[T], marks: Mapping[str, Any], clause_id: Callable[[T], str],
                  tier: Callable[[T], Any], lift: int) -> list[T]:
    """``items`` reordered by their marks (module docstring); unmarked items keep their order."""
    if not marks:
        return list(items)
    boost = [BOOST.get(marks[clause_id(i)].status, 0) if clause_id(i) in marks else 0 for i in items]
    order = list(range(len(items)))
    for pos in range(len(order)):
        me = order[pos]
        if boost[me] <= 0:
            continue
        j = pos
        while (j > 0 and pos - j < lift and boost[order[j - 1]] < boost[me]
               and tier(items[order[j - 1]]) == tier(items[me])):
            j -= 1
        order.insert(j, order.pop(pos))
    current = [i for i in order if boost[i] >= 0]
    deprecated = [i for i in order if boost[i] < 0]
    return [items[i] for i in current + deprecated]
