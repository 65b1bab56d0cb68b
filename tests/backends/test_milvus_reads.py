"""The reader's bulk reads against a fake client: batching, keys, and reads kept in flight.

milvus-lite answers each query with a scan of every row (scale.md section 4), so the
writer reads in the largest windows and keeps two requests in flight; these tests check
that doing so changes neither which rows come back nor their order.
"""

from __future__ import annotations

import re
import threading
from typing import Any

from index_builder.index.milvus_expr import token
from index_builder.index.milvus_reader import QUERY_BATCH, fetch, windows


class FakeClient:
    """Answers ``ordinal`` windows and ``row_id`` / ``clause_key`` look-ups over fake rows."""

    def __init__(self, count: int) -> None:
        self.rows = [{"row_id": f"7:{token(f'c{i}')}", "clause_key": token(f"c{i}"),
                      "clause_id": f"c{i}", "ordinal": i} for i in range(count)]
        self.filters: list[str] = []
        self.threads: set[str] = set()
        self._lock = threading.Lock()

    def query(self, collection: str, filter: str, output_fields: list[str],  # noqa: A002
              limit: int | None = None) -> list[dict[str, Any]]:
        with self._lock:
            self.filters.append(filter)
            self.threads.add(threading.current_thread().name)
        span = re.search(r"ordinal >= (\d+) and ordinal < (\d+)", filter)
        if span:
            low, high = int(span.group(1)), int(span.group(2))
            found = [r for r in self.rows if low <= r["ordinal"] < high]
        else:
            wanted = set(re.findall(r'"([^"]+)"', filter.split(" in ", 1)[1]))
            field = "row_id" if "row_id in" in filter else "clause_key"
            found = [r for r in self.rows if r[field] in wanted]
        assert limit is None or len(found) <= limit
        return [{k: r[k] for k in output_fields} for r in found]


def test_windows_in_flight_return_every_row_in_order() -> None:
    client = FakeClient(10_000)
    one = list(windows(client, "c", "", ["clause_id", "ordinal"], "ordinal", 10_000, 1_000))
    two = list(windows(client, "c", "", ["clause_id", "ordinal"], "ordinal", 10_000, 1_000,
                       threads=2))
    assert one == two and [r["ordinal"] for r in two] == list(range(10_000))
    assert len(client.filters) == 20 and len(client.threads) >= 2  # really read concurrently


def test_fetch_reads_by_key_where_known_else_by_clause_key_in_batches() -> None:
    client = FakeClient(3_000)
    ids = [f"c{i}" for i in range(2_500)]
    keys = {f"c{i}": f"7:{token(f'c{i}')}" for i in range(1_500)}
    keys["c1600"] = '7:old "quoted" id'  # a key from before row_key: not safe, so by clause_key
    rows = fetch(client, "c", "born <= 7", ids, keys, ["clause_id"], threads=2)
    assert sorted(r["clause_id"] for r in rows) == sorted(ids)
    by_key = [f for f in client.filters if "row_id in" in f]
    by_clause = [f for f in client.filters if "clause_key in" in f]
    assert len(by_key) == 2 and len(by_clause) == 1  # 1,500 keys; 1,000 others
    assert all(f.startswith("(born <= 7) and (") for f in client.filters)
    assert '"quoted"' not in "".join(client.filters)
    assert fetch(FakeClient(3_000), "c", "born <= 7", ids, keys, ["clause_id"]) == rows
    assert QUERY_BATCH == 1_000
