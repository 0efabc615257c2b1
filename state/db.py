"""The SQLAlchemy engine, the declarative base and the session context manager.

One engine per process and state folder; SQLite at ``<state>/baton.db`` by
default, PostgreSQL (or any SQLAlchemy URL) through ``BATON_DATABASE_URL``.
Every table module registers its tables on ``Base``; the schema itself is
made by the migrations of ``state/migrations`` (``state.schema``), never by
``create_all`` at run time.

The store boundary: every text parameter loses the bytes PostgreSQL refuses
(NUL, lone surrogates) on both databases, so a brief is the same on either;
SQL parameters are never part of an error message (``hide_parameters``), and
a database error becomes a one-line ``StoreError`` naming the database.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Session, sessionmaker

from state.damaged_file import damaged_store, is_damaged_sqlite
from state.errors import StoreConflict, StoreError

__all__ = ["Base", "Database", "sqlite_url", "clean_text", "clean_value", "safe_url", "describe_error"]

log = logging.getLogger(__name__)

_REFUSED = re.compile("[\x00\ud800-\udfff]")


class Base(DeclarativeBase):
    """Declarative base of every table of the store."""


def sqlite_url(state_dir: Path) -> str:
    """The default database URL of a state folder."""
    return f"sqlite:///{(state_dir / 'baton.db').as_posix()}"


def clean_text(value: str) -> str:
    """The text without NUL bytes and lone surrogates (which PostgreSQL refuses)."""
    return _REFUSED.sub("", value) if _REFUSED.search(value) else value


def clean_value(value: Any) -> Any:
    """``clean_text`` applied to every string inside a parameter or a JSON document."""
    if isinstance(value, str):
        return clean_text(value)
    if isinstance(value, dict):
        return {clean_value(k): clean_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(clean_value(v) for v in value)
    return value


def _json_serializer(value: Any) -> str:
    return json.dumps(clean_value(value), ensure_ascii=False)


def safe_url(url: str) -> str:
    """The URL as it may be shown: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unparsable database URL>"


def describe_error(exc: BaseException) -> str:
    """The first line of what the database said, without SQL or parameters."""
    origin = getattr(exc, "orig", None) or exc
    text = str(origin).strip().splitlines()
    return f"{type(origin).__name__}: {text[0] if text else 'no message'}"


def _normalise(url: str) -> str:
    """``postgresql://`` means psycopg 3 (the driver baton installs), not psycopg2."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    return parsed.render_as_string(hide_password=False)


def _sqlite_connect(dbapi_connection, _record) -> None:  # type: ignore[no-untyped-def]
    # Transactions are begun by the "begin" event below (BEGIN IMMEDIATE), not by the driver.
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    # The wait first: switching a new database to WAL takes a lock that another process opening it at
    # the same moment holds ("database is locked" when two topics' runs start together).
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _sqlite_begin(connection) -> None:  # type: ignore[no-untyped-def]
    # One writer at a time from the first statement on: a transaction that read the register
    # never fails to write it because another process wrote in between (SQLITE_BUSY_SNAPSHOT).
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def _clean_parameters(_conn, _cursor, statement, parameters, _context, executemany):  # type: ignore[no-untyped-def]
    if executemany and isinstance(parameters, list):
        return statement, [clean_value(p) for p in parameters]
    return statement, clean_value(parameters)


class Database:
    """One engine and its session factory."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.shown = safe_url(url)
        try:
            self.engine: Engine = create_engine(_normalise(url), hide_parameters=True,
                                                json_serializer=_json_serializer)
        except (SQLAlchemyError, ValueError, ImportError) as exc:
            raise StoreError(f"cannot open the database {self.shown}: {describe_error(exc)}") from exc
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_connect)
            event.listen(self.engine, "begin", _sqlite_begin)
        event.listen(self.engine, "before_cursor_execute", _clean_parameters, retval=True)
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def sqlite_path(self) -> Path | None:
        """The SQLite file of the store (None for another database or an in-memory one)."""
        database = self.engine.url.database if self.engine.dialect.name == "sqlite" else None
        return Path(database) if database and database != ":memory:" else None

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql`` (or another SQLAlchemy dialect's name)."""
        return self.engine.dialect.name

    def upgrade(self) -> list[str]:
        """Bring the schema to the newest migration (``baton db upgrade``); return the revisions applied."""
        from state.schema import upgrade

        return upgrade(self)

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session that commits on success and rolls back on any error (a database error: StoreError)."""
        session = self._sessions()
        try:
            yield session
            session.commit()
        except SQLAlchemyError as exc:
            session.rollback()
            raise self.error(exc) from exc
        except BaseException:
            session.rollback()
            raise
        finally:
            session.close()

    def error(self, exc: SQLAlchemyError, action: str = "") -> StoreError:
        """A one-line StoreError naming the database; the statement (never its parameters) goes to the log."""
        statement = getattr(exc, "statement", None)
        log.error("database %s failed%s: %s%s", self.shown, f" to {action}" if action else "",
                  describe_error(exc), f"\n  SQL: {statement}" if statement else "")
        path = self.sqlite_path
        if path is not None and is_damaged_sqlite(exc):
            return damaged_store(path, exc)
        kind = StoreConflict if isinstance(exc, IntegrityError) else StoreError
        return kind(f"database {self.shown}{' (' + action + ')' if action else ''}: {describe_error(exc)}")

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
