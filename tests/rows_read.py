"""What a request reads from PostgreSQL: its queries, and the rows and buffers they read.

`reading(call)` runs `call` (a request through the Django test client, say) while keeping
every SELECT it sends (`connection.execute_wrapper`), then runs `EXPLAIN (ANALYZE, BUFFERS,
FORMAT JSON)` of each, in the same transaction, and adds up:

- rows: what each scan node read (Seq, Index, Index Only and Bitmap Heap scans), counting the
  rows it returned and those its filter threw away, times its loops;
- buffers: the shared buffers the statement touched (hit or read from disk).

Both depend on the data and the plans, not on the machine's load: they are what the history
test (tests/test_flat_with_history.py) and `make history-bench` compare between a club of
one year and the same club with years more. PostgreSQL only: SQLite has no such counters.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.db import connection, transaction

SCANS = {"Seq Scan", "Index Scan", "Index Only Scan", "Bitmap Heap Scan"}


@dataclass
class Statement:
    sql: str
    rows: int
    buffers: int


@dataclass
class Reading:
    result: object = None  # what the call returned (the response)
    statements: list[Statement] = field(default_factory=list)

    @property
    def queries(self) -> int:
        return len(self.statements)

    @property
    def rows(self) -> int:
        return sum(s.rows for s in self.statements)

    @property
    def buffers(self) -> int:
        return sum(s.buffers for s in self.statements)

    def heaviest(self, n: int = 3) -> list[Statement]:
        """The n statements that read the most rows, then any of the n that touched the
        most buffers not among them."""
        by_rows = sorted(self.statements, key=lambda s: -s.rows)[:n]
        by_buffers = sorted(self.statements, key=lambda s: -s.buffers)[:n]
        return by_rows + [s for s in by_buffers if s not in by_rows]


def rows_scanned(node: dict) -> int:
    """Rows read by the scan nodes of a plan (node and children)."""
    read = 0
    if node.get("Node Type") in SCANS:
        per_loop = (
            node.get("Actual Rows", 0)
            + node.get("Rows Removed by Filter", 0)
            + node.get("Rows Removed by Index Recheck", 0)
        )
        read += round(per_loop * node.get("Actual Loops", 1))
    for child in node.get("Plans", ()):
        read += rows_scanned(child)
    return read


def explain(sql: str, params, prefer_indexes: bool = False) -> Statement:
    with transaction.atomic(), connection.cursor() as cursor:
        if prefer_indexes:
            cursor.execute("SET enable_seqscan = off")
        try:
            cursor.execute("EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) " + sql, params)
            plan = cursor.fetchone()[0]
        finally:
            if prefer_indexes:
                cursor.execute("RESET enable_seqscan")
    if isinstance(plan, str):
        plan = json.loads(plan)
    top = plan[0]["Plan"]
    buffers = top.get("Shared Hit Blocks", 0) + top.get("Shared Read Blocks", 0)
    # Subplans and init plans are children too; CTEs scanned are in the tree.
    return Statement(sql, rows_scanned(top), buffers)


def reading(call, prefer_indexes: bool = False) -> Reading:
    """Run `call()`, keeping its SELECTs; then explain each (see the module's note).

    `prefer_indexes`: explained with sequential scans discouraged, as the planner plans on
    tables of real size. On a test's small tables it would rather read a table of a few
    pages whole than use an index, and those rows would count as read: with this, a query
    reads the whole of a table only when no index can find its rows."""
    if connection.vendor != "postgresql":
        raise RuntimeError("rows read are PostgreSQL's EXPLAIN ANALYZE figures")
    kept: list[tuple[str, object]] = []

    def keep(execute, sql, params, many, context):
        if not many and sql.lstrip()[:6].upper() == "SELECT":
            kept.append((sql, params))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        result = call()
    return Reading(result, [explain(sql, params, prefer_indexes) for sql, params in kept])
