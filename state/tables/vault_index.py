"""The vault index (issue 12): one row per vault file a run read — path, size, mtime, hash → the parsed
file — kept between runs (migration 0004 creates the table) so that an unchanged file is not read again.

The parsed file is JSON in which NUL and lone surrogates are escaped, so the store's cleaning of
those never alters it: what is loaded is what was parsed.
"""

from __future__ import annotations

from sqlalchemy import BigInteger, String, Text, delete, select
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base, Database

__all__ = ["VaultFileRow", "IndexedFile", "load_index", "load_parsed", "save_index", "forget_vault"]


class VaultFileRow(Base):
    """A file of a vault as last read: its stat, its hash and the parse (for ``parser``)."""

    __tablename__ = "vault_files"

    vault: Mapped[str] = mapped_column(String(500), primary_key=True)
    path: Mapped[str] = mapped_column(String(1000), primary_key=True)
    size: Mapped[int] = mapped_column(BigInteger)
    mtime_ns: Mapped[int] = mapped_column(BigInteger)
    sha256: Mapped[str] = mapped_column(String(64))
    parser: Mapped[str] = mapped_column(String(100))  # the index format and the timezone the parse used
    parsed: Mapped[str] = mapped_column(Text)


class IndexedFile:
    """One row's key fields (the parse is loaded separately, when a file is actually needed)."""

    __slots__ = ("size", "mtime_ns", "sha256", "parser")

    def __init__(self, size: int, mtime_ns: int, sha256: str, parser: str) -> None:
        self.size, self.mtime_ns, self.sha256, self.parser = size, mtime_ns, sha256, parser


def load_index(db: Database, vault: str) -> dict[str, IndexedFile]:
    """Every indexed file of ``vault`` by path (without the parses)."""
    with db.session() as session:
        rows = session.execute(select(VaultFileRow.path, VaultFileRow.size, VaultFileRow.mtime_ns,
                                      VaultFileRow.sha256, VaultFileRow.parser).where(VaultFileRow.vault == vault))
        return {path: IndexedFile(size, mtime, sha, parser) for path, size, mtime, sha, parser in rows}


def load_parsed(db: Database, vault: str) -> dict[str, str]:
    """Every stored parse of ``vault`` by path (one query)."""
    with db.session() as session:
        rows = session.execute(select(VaultFileRow.path, VaultFileRow.parsed).where(VaultFileRow.vault == vault))
        return {path: parsed for path, parsed in rows}


def save_index(db: Database, vault: str, rows: list[dict]) -> None:
    """Insert or replace these files' rows (``path``, ``size``, ``mtime_ns``, ``sha256``, ``parser``, ``parsed``)."""
    if not rows:
        return
    insert = pg_insert if db.dialect == "postgresql" else sqlite_insert
    statement = insert(VaultFileRow.__table__)
    statement = statement.on_conflict_do_update(
        index_elements=["vault", "path"],
        set_={k: statement.excluded[k] for k in ("size", "mtime_ns", "sha256", "parser", "parsed")})
    with db.session() as session:
        session.execute(statement, [{"vault": vault, **row} for row in rows])  # one executemany


def forget_vault(db: Database, vault: str, paths: list[str]) -> None:
    """Drop the rows of files that are gone."""
    with db.session() as session:
        for start in range(0, len(paths), 500):
            session.execute(delete(VaultFileRow).where(VaultFileRow.vault == vault,
                                                       VaultFileRow.path.in_(paths[start:start + 500])))
