"""``baton db upgrade`` and ``baton db status``: the store's schema, for a person or a deploy script."""

from __future__ import annotations

from sqlalchemy.exc import SQLAlchemyError

from state.db import Database
from state.schema import current_revision, head_revision, upgrade
from state.settings import Settings

__all__ = ["db_upgrade", "db_status"]


def _open(settings: Settings) -> Database:
    if settings.database_url.startswith("sqlite"):
        settings.state_dir.mkdir(parents=True, exist_ok=True)
    return Database(settings.database_url)


def db_upgrade(settings: Settings) -> list[str]:
    """Apply every missing migration; say what was done."""
    db = _open(settings)
    try:
        applied = upgrade(db)
    finally:
        db.dispose()
    if not applied:
        return [f"{db.shown}: schema already at revision {head_revision()}"]
    return [f"{db.shown}: applied {', '.join(applied)}; schema at revision {head_revision()}"]


def db_status(settings: Settings) -> list[str]:
    """The schema revision of the database and the one this baton needs."""
    db = _open(settings)
    try:
        with db.engine.connect() as connection:
            current = current_revision(connection)
    except SQLAlchemyError as exc:
        raise db.error(exc, "read the schema version") from exc
    finally:
        db.dispose()
    head = head_revision()
    state = "up to date" if current == head else "behind: run `baton db upgrade`"
    return [f"{db.shown}: schema revision {current or 'none'}, this baton needs {head} ({state})"]
