"""What a run derives from one vault file, kept between runs (issue 12): an earlier brief's record, a note's
mentions, a slot note's arrival. Migration 0005 creates the table.

A row is (vault, path, kind) → the sha256 of the file it was derived from, the parser (index format,
timezone and the derivation's own version) and the value as JSON. A row counts only while the file's
bytes and the parser are those it was derived from; the caller checks both.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import String, Text, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base, Database

__all__ = ["DerivedRow", "load_derived", "save_derived"]

_CHUNK = 500  # paths per query (SQLite's bound on parameters is far above)


class DerivedRow(Base):
    """One derivation of one file: for which bytes and parser, and its value."""

    __tablename__ = "vault_derived"

    vault: Mapped[str] = mapped_column(String(500), primary_key=True)
    path: Mapped[str] = mapped_column(String(1000), primary_key=True)
    kind: Mapped[str] = mapped_column(String(100), primary_key=True)
    sha256: Mapped[str] = mapped_column(String(64))
    parser: Mapped[str] = mapped_column(String(200))
    value: Mapped[str] = mapped_column(Text)


def load_derived(db: Database, vault: str, kind: str, paths: Iterable[str]) -> dict[str, tuple[str, str, str]]:
    """The rows of ``kind`` for these paths: path → (sha256, parser, value)."""
    wanted = sorted(set(paths))
    found: dict[str, tuple[str, str, str]] = {}
    with db.session() as session:
        for start in range(0, len(wanted), _CHUNK):
            rows = session.execute(
                select(DerivedRow.path, DerivedRow.sha256, DerivedRow.parser, DerivedRow.value)
                .where(DerivedRow.vault == vault, DerivedRow.kind == kind,
                       DerivedRow.path.in_(wanted[start:start + _CHUNK])))
            for path, sha, parser, value in rows:
                found[path] = (sha, parser, value)
    return found


def save_derived(db: Database, vault: str, rows: list[dict]) -> None:
    """Insert or replace rows (``path``, ``kind``, ``sha256``, ``parser``, ``value``)."""
    if not rows:
        return
    insert = pg_insert if db.dialect == "postgresql" else sqlite_insert
    statement = insert(DerivedRow.__table__)
    statement = statement.on_conflict_do_update(
        index_elements=["vault", "path", "kind"],
        set_={k: statement.excluded[k] for k in ("sha256", "parser", "value")})
    with db.session() as session:
        session.execute(statement, [{"vault": vault, **row} for row in rows])
