"""A SQLite file of the state folder that is not a database any more: say which and what to do (exit 2).

Garbage written over ``baton.db`` or ``checkpoints.db`` (a bad copy, a sync conflict, a disk fault)
makes SQLite answer "file is not a database" or "database disk image is malformed" on first use.
That is no bug to report with a log: it is the person's file, so the message names it and the fix.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from state.errors import DamagedFile

__all__ = ["is_damaged_sqlite", "damaged_store", "damaged_checkpoints"]

_DAMAGED_CODES = (sqlite3.SQLITE_NOTADB, sqlite3.SQLITE_CORRUPT)


def is_damaged_sqlite(exc: BaseException) -> bool:
    """Whether ``exc`` (or the driver error under a SQLAlchemy error) says the file is no sound database."""
    origin = getattr(exc, "orig", None) or exc
    if not isinstance(origin, sqlite3.DatabaseError):
        return False
    code = getattr(origin, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in _DAMAGED_CODES
    text = str(origin)
    return "file is not a database" in text or "disk image is malformed" in text


def _aside(path: Path) -> str:
    return f"`mv '{path}' '{path}.damaged'`"


def damaged_store(path: Path, exc: BaseException) -> DamagedFile:
    """The store ``baton.db`` is damaged: restore it, or set it aside and start a new one."""
    origin = getattr(exc, "orig", None) or exc
    return DamagedFile(
        f"the store {str(path)!r} is damaged ({origin}): restore it from a backup, or set it aside with "
        f"{_aside(path)} and run again to start a new store (its runs, decisions, register numbers and "
        f"alert history are then not known to baton)")


def damaged_checkpoints(path: Path, exc: BaseException) -> DamagedFile:
    """The checkpoints ``checkpoints.db`` are damaged: set them aside; waiting threads are run again."""
    return DamagedFile(
        f"the checkpoints {str(path)!r} are damaged ({exc}): set the file aside with {_aside(path)} and run "
        f"again; a brief that was waiting for approval is then made again by `baton run --topic TOPIC --date DATE`")
