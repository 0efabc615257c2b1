"""The arXiv cache: papers found, identifiers not found (for a day), title searches.

"As of" is always the brief's date passed in, never the wall clock, so a
backfill sees what the cache held for that day. Only ``fetched_at`` records
the real moment of the request, for the record.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import JSON, Date, DateTime, Integer, String, Text, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base, Database
from state.errors import StoreError

__all__ = ["ArxivRecord", "ArxivPaperRow", "ArxivMissRow", "ArxivSearchRow", "ArxivCache"]


@dataclass(frozen=True)
class ArxivRecord:
    """What arXiv says about one paper (identifier without version)."""

    id: str
    title: str
    authors: tuple[str, ...]
    published: datetime
    updated: datetime
    latest_version: int
    primary_category: str
    fetched_on: date


class ArxivPaperRow(Base):
    """A paper arXiv returned, keyed by its identifier without version."""

    __tablename__ = "arxiv_papers"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    title: Mapped[str] = mapped_column(Text)
    authors: Mapped[list] = mapped_column(JSON)
    published: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    latest_version: Mapped[int] = mapped_column(Integer)
    primary_category: Mapped[str] = mapped_column(String(40))
    fetched_on: Mapped[date] = mapped_column(Date)
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ArxivMissRow(Base):
    """An identifier absent from a successful arXiv answer on ``checked_on`` (a brief date)."""

    __tablename__ = "arxiv_misses"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    checked_on: Mapped[date] = mapped_column(Date)
    fetched_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ArxivSearchRow(Base):
    """The identifiers an arXiv query returned on ``checked_on``, best first."""

    __tablename__ = "arxiv_searches"

    query: Mapped[str] = mapped_column(String(500), primary_key=True)
    checked_on: Mapped[date] = mapped_column(Date, primary_key=True)
    ids: Mapped[list] = mapped_column(JSON)


def _utc(value: datetime) -> datetime:
    # SQLite hands back naive datetimes; everything stored here is UTC.
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _record(row: ArxivPaperRow) -> ArxivRecord:
    return ArxivRecord(
        id=row.id,
        title=row.title,
        authors=tuple(row.authors),
        published=_utc(row.published),
        updated=_utc(row.updated),
        latest_version=row.latest_version,
        primary_category=row.primary_category,
        fetched_on=row.fetched_on,
    )


class ArxivCache:
    """Read and write the arXiv cache tables of a store.

    A found paper stays valid ``refresh_days`` brief-days after it was fetched
    (a new version may appear later); a miss is valid on the day it was checked
    and on earlier days (a backfill), and expires the next day.
    """

    def __init__(self, db: Database, *, refresh_days: int = 7) -> None:
        self._db = db
        self.refresh_days = refresh_days

    def records(self, ids: Collection[str], as_of: date) -> dict[str, ArxivRecord]:
        """The cached papers among ``ids`` that are still fresh on ``as_of``."""
        if not ids:
            return {}
        with self._guard("read papers"), self._db.session() as session:
            rows = session.scalars(select(ArxivPaperRow).where(ArxivPaperRow.id.in_(list(ids)))).all()
            return {
                row.id: _record(row)
                for row in rows
                if (as_of - row.fetched_on).days <= self.refresh_days
            }

    def misses(self, ids: Collection[str], as_of: date) -> dict[str, date]:
        """The identifiers among ``ids`` known to be absent from arXiv on ``as_of``, with the check day."""
        if not ids:
            return {}
        with self._guard("read misses"), self._db.session() as session:
            rows = session.scalars(select(ArxivMissRow).where(ArxivMissRow.id.in_(list(ids)))).all()
            return {row.id: row.checked_on for row in rows if as_of <= row.checked_on}

    def save_records(self, records: Iterable[ArxivRecord], fetched_at: datetime) -> None:
        """Insert or replace papers; a paper found drops any miss remembered for it."""
        with self._guard("save papers"), self._db.session() as session:
            for record in records:
                self._upsert(session, ArxivPaperRow, ["id"], id=record.id, title=record.title,
                             authors=list(record.authors), published=record.published, updated=record.updated,
                             latest_version=record.latest_version, primary_category=record.primary_category,
                             fetched_on=record.fetched_on, fetched_at=fetched_at)
                session.execute(delete(ArxivMissRow).where(ArxivMissRow.id == record.id))

    def save_misses(self, ids: Iterable[str], as_of: date, fetched_at: datetime) -> None:
        """Remember that ``ids`` were absent from a successful arXiv answer on ``as_of``."""
        with self._guard("save misses"), self._db.session() as session:
            for arxiv_id in ids:
                self._upsert(session, ArxivMissRow, ["id"], id=arxiv_id, checked_on=as_of, fetched_at=fetched_at)

    def _upsert(self, session, table, keys: list[str], **row: object) -> None:  # type: ignore[no-untyped-def]
        # One statement, so that two runs caching the same paper at once never collide.
        builder = postgresql.insert if self._db.dialect == "postgresql" else sqlite.insert
        statement = builder(table).values(**row)
        session.execute(statement.on_conflict_do_update(
            index_elements=keys, set_={k: statement.excluded[k] for k in row if k not in keys}))

    def search(self, query: str, as_of: date) -> list[str] | None:
        """The identifiers a query returned on ``as_of``, or None when it was not run that day."""
        with self._guard("read searches"), self._db.session() as session:
            row = session.get(ArxivSearchRow, (query, as_of))
            return None if row is None else list(row.ids)

    def save_search(self, query: str, as_of: date, ids: list[str]) -> None:
        """Remember the identifiers a query returned on ``as_of``."""
        with self._guard("save searches"), self._db.session() as session:
            self._upsert(session, ArxivSearchRow, ["query", "checked_on"], query=query, checked_on=as_of, ids=ids)

    def _guard(self, action: str) -> _StoreGuard:
        return _StoreGuard(f"arXiv cache in {self._db.url!r}: cannot {action}")


class _StoreGuard:
    """Turn SQLAlchemy errors into a StoreError that names the database."""

    def __init__(self, message: str) -> None:
        self._message = message

    def __enter__(self) -> None:
        return None

    def __exit__(self, exc_type, exc, _tb) -> bool:  # type: ignore[no-untyped-def]
        if exc is not None and isinstance(exc, SQLAlchemyError):
            raise StoreError(f"{self._message}: {exc}") from exc
        return False
