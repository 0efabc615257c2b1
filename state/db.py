"""The SQLAlchemy engine, the declarative base and the session context manager.

One engine per process and state folder; SQLite at ``<state>/baton.db`` by
default, any SQLAlchemy URL through ``BATON_DATABASE_URL`` (PostgreSQL later).
Every table module registers its tables on ``Base``; ``create_all`` makes
them (ordered migrations arrive with PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from state.errors import StoreError

__all__ = ["Base", "Database", "sqlite_url"]


class Base(DeclarativeBase):
    """Declarative base of every table of the store."""


def sqlite_url(state_dir: Path) -> str:
    """The default database URL of a state folder."""
    return f"sqlite:///{(state_dir / 'baton.db').as_posix()}"


def _sqlite_pragmas(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


class Database:
    """One engine and its session factory."""

    def __init__(self, url: str) -> None:
        try:
            self.engine: Engine = create_engine(url, future=True)
        except (SQLAlchemyError, ValueError) as exc:
            raise StoreError(f"cannot open the database {url!r}: {exc}") from exc
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.url = url

    def create_all(self) -> None:
        """Create every registered table that does not exist yet."""
        # Import the table modules so that they register on Base.
        import state.tables  # noqa: F401

        try:
            Base.metadata.create_all(self.engine)
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot create the tables in {self.url!r}: {exc}") from exc

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits on success and rolls back on any error."""
        session = self._sessions()
        try:
            yield session
            session.commit()
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
