"""LangGraph's checkpointer on the store's database: SQLite file beside the store, or the same PostgreSQL.

With SQLite the checkpoints live in ``<state>/checkpoints.db``; with a
PostgreSQL ``BATON_DATABASE_URL`` they live in that database (PostgresSaver,
psycopg 3), so every machine on the database sees every waiting thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from langgraph.checkpoint.base import BaseCheckpointSaver
from sqlalchemy.engine import make_url

from state.damaged_file import damaged_checkpoints, is_damaged_sqlite
from state.db import safe_url
from state.errors import StoreError

__all__ = ["open_checkpointer", "setup_postgres_checkpoints", "postgres_checkpoints_ready", "libpq_url"]

# pg_advisory_lock key of LangGraph's checkpoint migrations ("ckpt").
_CHECKPOINT_LOCK = 0x636B7074


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL (``postgresql+psycopg://…``) as psycopg's connection string."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _connect_postgres(url: str):  # type: ignore[no-untyped-def]
    import psycopg
    from psycopg.rows import dict_row

    try:
        return psycopg.connect(libpq_url(url), autocommit=True, prepare_threshold=0, row_factory=dict_row)
    except psycopg.Error as exc:
        first = (str(exc).strip().splitlines() or ["no message"])[0]
        raise StoreError(f"cannot open the checkpoints in {safe_url(url)}: {first}") from exc


def setup_postgres_checkpoints(url: str) -> None:
    """Create or migrate LangGraph's checkpoint tables in the PostgreSQL database (under a lock)."""
    from langgraph.checkpoint.postgres import PostgresSaver

    with _connect_postgres(url) as connection:
        connection.execute("SELECT pg_advisory_lock(%s)", (_CHECKPOINT_LOCK,))
        try:
            PostgresSaver(connection).setup()
        finally:
            connection.execute("SELECT pg_advisory_unlock(%s)", (_CHECKPOINT_LOCK,))


def postgres_checkpoints_ready(url: str) -> bool:
    """Whether the checkpoint tables are at LangGraph's newest migration."""
    from langgraph.checkpoint.postgres import PostgresSaver

    with _connect_postgres(url) as connection:
        found = connection.execute("SELECT to_regclass('checkpoint_migrations') AS t").fetchone()
        if not found or found["t"] is None:
            return False
        row = connection.execute("SELECT max(v) AS v FROM checkpoint_migrations").fetchone()
        return row is not None and row["v"] == len(PostgresSaver.MIGRATIONS) - 1


@contextmanager
def open_checkpointer(database_url: str, sqlite_path: Path) -> Iterator[BaseCheckpointSaver]:
    """The checkpointer of this store, closed afterwards."""
    if make_url(database_url).get_backend_name() == "postgresql":
        from langgraph.checkpoint.postgres import PostgresSaver

        with _connect_postgres(database_url) as connection:
            yield PostgresSaver(connection)
        return
    from langgraph.checkpoint.sqlite import SqliteSaver

    sqlite_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        connection = sqlite3.connect(str(sqlite_path), check_same_thread=False, timeout=30)
        saver = SqliteSaver(connection)
        saver.setup()
    except sqlite3.DatabaseError as exc:
        if is_damaged_sqlite(exc):
            raise damaged_checkpoints(sqlite_path, exc) from exc
        raise StoreError(f"cannot open the checkpoints {str(sqlite_path)!r}: {exc}") from exc
    try:
        yield saver
    finally:
        connection.close()
