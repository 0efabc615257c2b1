"""The store's watermark: one digest that changes whenever a row is added to or removed from what a run reads.

Row count and newest id of every table except those a run of the same thread rewrites in place for
itself (its lease, its node artifacts, the vault index). Rows are added, not edited, by every
command that changes what a brief says (a decision, a dismissed warning, an excuse, an alert in the
outbox, another thread's run), so an equal watermark means an unchanged store for a re-run.
"""

from __future__ import annotations

import hashlib

from sqlalchemy import func, select

import state.tables  # noqa: F401  (registers every table on Base)
from state.db import Base, Database

__all__ = ["store_watermark", "WATERMARK_SKIPS"]

WATERMARK_SKIPS = frozenset({"thread_leases", "artifacts", "vault_files", "vault_derived"})


def store_watermark(db: Database) -> str:
    """A digest of (table, rows, newest id) over the store's tables."""
    parts = []
    with db.session() as session:
        for table in Base.metadata.sorted_tables:
            if table.name in WATERMARK_SKIPS:
                continue
            keys = list(table.primary_key.columns)
            columns = [func.count()]
            if len(keys) == 1 and _is_integer(keys[0].type):
                columns.append(func.max(keys[0]))
            row = session.execute(select(*columns).select_from(table)).one()
            parts.append(f"{table.name}:{':'.join(str(v) for v in row)}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def _is_integer(column_type: object) -> bool:
    try:
        return column_type.python_type is int  # type: ignore[attr-defined]
    except NotImplementedError:  # a type without a Python equivalent: counted, not maxed
        return False
