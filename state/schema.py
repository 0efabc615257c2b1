"""The store's schema by migrations (Alembic, ``state/migrations``), and the check every command makes.

``upgrade`` runs under a lock (SQLite: ``BEGIN IMMEDIATE``; PostgreSQL: an
advisory lock), so two processes upgrading at once apply each migration once.
On PostgreSQL it also sets up LangGraph's checkpoint tables. ``check`` refuses
a schema that is behind (or ahead) with the command that fixes it; a brand-new,
empty SQLite database is upgraded on the spot (first-run friendliness).
"""

from __future__ import annotations

import re
import time
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text
from sqlalchemy.exc import SQLAlchemyError

from state.db import Database
from state.errors import SchemaError, StoreError

if TYPE_CHECKING:
    from alembic.config import Config

__all__ = ["upgrade", "check", "current_revision", "head_revision", "SCHEMA_LOCK"]

# pg_advisory_lock key of schema changes (any fixed number; "baton" in ASCII).
SCHEMA_LOCK = 0x626174_6F6E
_MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def _config(connection: Connection | None = None) -> Config:
    from alembic.config import Config  # Alembic only where migrations run: every command checks, few migrate

    config = Config()
    config.set_main_option("script_location", str(_MIGRATIONS))
    config.attributes["connection"] = connection
    return config


_REVISION = re.compile(r'^(down_revision|revision)\s*=\s*(?:"([^"]*)"|None)\s*$', re.MULTILINE)


@cache
def head_revision() -> str:
    """The newest migration this baton ships (read from the migration files: no Alembic import)."""
    revisions: set[str] = set()
    parents: set[str] = set()
    for path in (_MIGRATIONS / "versions").glob("[0-9]*.py"):
        for name, value in _REVISION.findall(path.read_text(encoding="utf-8")):
            if value:
                (revisions if name == "revision" else parents).add(value)
    heads = sorted(revisions - parents)
    if len(heads) != 1:
        raise SchemaError(f"the migrations of this baton have {len(heads)} heads: {', '.join(heads) or 'none'}")
    return heads[0]


def current_revision(connection: Connection) -> str | None:
    """The migration the database is at (None: never migrated)."""
    if not inspect(connection).has_table("alembic_version"):
        return None
    return connection.execute(text("SELECT version_num FROM alembic_version")).scalars().first()


def _lock(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": SCHEMA_LOCK})


def upgrade(db: Database) -> list[str]:
    """Apply every missing migration (idempotent); return the revisions applied."""
    from alembic import command
    from alembic.script import ScriptDirectory

    try:
        with db.engine.begin() as connection:
            _lock(connection)
            before = current_revision(connection)
            command.upgrade(_config(connection), "head")
            after = current_revision(connection)
        if db.dialect == "postgresql":
            from state.checkpoints import setup_postgres_checkpoints

            setup_postgres_checkpoints(db.url)
    except SQLAlchemyError as exc:
        raise db.error(exc, "upgrade the schema") from exc
    if before == after:
        return []
    script = ScriptDirectory.from_config(_config())
    return [rev.revision for rev in reversed(list(script.iterate_revisions(after, before)))]


def check(db: Database) -> None:
    """Raise SchemaError unless the schema is at the head (an empty new SQLite database is upgraded)."""
    head = head_revision()
    for attempt in range(4):
        try:
            with db.engine.connect() as connection:
                current = current_revision(connection)
                empty = current is None and not inspect(connection).get_table_names()
            break
        except SQLAlchemyError as exc:
            # Two runs opening a new SQLite database together: one may find it locked while the other sets
            # it up (WAL switch, first migration). That is a wait, not a failure; anything else is.
            if db.dialect != "sqlite" or "locked" not in str(exc).lower() or attempt == 3:
                raise db.error(exc, "read the schema version") from exc
            time.sleep(0.5 * (attempt + 1))
    if current == head:
        if db.dialect == "postgresql":
            from state.checkpoints import postgres_checkpoints_ready

            if not postgres_checkpoints_ready(db.url):
                raise SchemaError(f"the database {db.shown} has no LangGraph checkpoint tables: "
                                  f"run `baton db upgrade`")
        return
    if empty and db.dialect == "sqlite":
        try:
            upgrade(db)
        except (SchemaError, StoreError):
            # Another run set the new database up in the meantime: fine when it is now at the head.
            with db.engine.connect() as connection:
                if current_revision(connection) != head:
                    raise
        return
    if current is None:
        what = "has tables made before migrations" if not empty else "has no baton schema"
    else:
        what = f"is at schema revision {current}"
    raise SchemaError(f"the database {db.shown} {what}; this baton needs revision {head}: run `baton db upgrade`")
