"""Leases: one process at a time runs a thread (or delivers the alert outbox), on SQLite and PostgreSQL alike.

A lease is a row of ``thread_leases`` taken by a conditional upsert (free, expired,
or already ours) and renewed by a heartbeat thread while held. A holder that died
is taken over once its lease expires, at once when it ran on this host and its
process is gone (a ``kill -9`` and a restart need not wait).
"""

from __future__ import annotations

import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import delete, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from state.db import Database
from state.errors import ThreadBusy
from state.tables.leases import LeaseRow

__all__ = ["Holder", "Lease", "hold", "LEASE_SECONDS"]

LEASE_SECONDS = 60.0
_HOST = socket.gethostname()


@dataclass(frozen=True)
class Holder:
    """Who holds a lease."""

    name: str
    purpose: str
    pid: int
    host: str
    since: datetime

    def describe(self) -> str:
        """``pid 123, host h, since 2026-09-29 10:00:00 UTC``."""
        return f"pid {self.pid}, host {self.host}, since {self.since:%Y-%m-%d %H:%M:%S} UTC"


def _aware(moment: datetime) -> datetime:
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


class Lease:
    """A lease on ``name``; ``acquire`` returns None when taken, else the holder."""

    def __init__(self, db: Database, name: str, purpose: str, seconds: float = LEASE_SECONDS) -> None:
        self.db, self.name, self.purpose, self.seconds = db, name, purpose, seconds
        self.owner = uuid.uuid4().hex
        self._stop = threading.Event()
        self._beat: threading.Thread | None = None

    def acquire(self) -> Holder | None:
        now = datetime.now(UTC)
        values = {"name": self.name, "owner": self.owner, "purpose": self.purpose, "pid": os.getpid(),
                  "host": _HOST, "since": now, "expires": now + timedelta(seconds=self.seconds)}
        table = LeaseRow.__table__
        with self.db.session() as session:
            builder = pg_insert if self.db.dialect == "postgresql" else sqlite_insert
            statement = builder(table).values(values)
            statement = statement.on_conflict_do_update(
                index_elements=["name"], set_={k: statement.excluded[k] for k in values if k != "name"},
                where=(table.c.expires < now) | (table.c.owner == self.owner))
            session.execute(statement)
            row = session.get(LeaseRow, self.name)
            if row.owner == self.owner:
                return None
            holder = Holder(row.name, row.purpose, row.pid, row.host, _aware(row.since))
            if row.host == _HOST and row.pid != os.getpid() and not _alive(row.pid):
                # The holder ran here and is gone: take its lease over now.
                taken = session.execute(update(LeaseRow).where(LeaseRow.name == self.name,
                                                               LeaseRow.owner == row.owner).values(values))
                if taken.rowcount == 1:
                    return None
            return holder

    def renew(self) -> bool:
        """Push the expiry on; False when the lease is no longer ours."""
        with self.db.session() as session:
            done = session.execute(update(LeaseRow).where(LeaseRow.name == self.name, LeaseRow.owner == self.owner)
                                   .values(expires=datetime.now(UTC) + timedelta(seconds=self.seconds)))
            return done.rowcount == 1

    def release(self) -> None:
        self._stop.set()
        if self._beat is not None:
            self._beat.join(timeout=5)
        with self.db.session() as session:
            session.execute(delete(LeaseRow).where(LeaseRow.name == self.name, LeaseRow.owner == self.owner))

    def start_heartbeat(self) -> None:
        def beat() -> None:
            while not self._stop.wait(self.seconds / 3):
                try:
                    self.renew()
                except Exception:  # noqa: BLE001 - a missed beat is retried; the lease lasts 3 beats
                    continue

        self._beat = threading.Thread(target=beat, name=f"lease {self.name}", daemon=True)
        self._beat.start()


def holder_of(db: Database, name: str) -> Holder | None:
    """The current holder of ``name`` (expired or not), if any."""
    with db.session() as session:
        row = session.scalar(select(LeaseRow).where(LeaseRow.name == name))
        return None if row is None else Holder(row.name, row.purpose, row.pid, row.host, _aware(row.since))


@contextmanager
def hold(db: Database, name: str, purpose: str, *, wait: float = 0.0, what: str = "thread") -> Iterator[Lease]:
    """Hold the lease on ``name`` for the block (waiting up to ``wait`` seconds); ThreadBusy when it stays taken."""
    lease = Lease(db, name, purpose)
    deadline = time.monotonic() + wait
    while True:
        holder = lease.acquire()
        if holder is None:
            break
        if time.monotonic() >= deadline:
            verb = "is running" if holder.purpose == "run" else f"is busy ({holder.purpose})"
            raise ThreadBusy(f"{what} {name} {verb} ({holder.describe()})")
        time.sleep(0.2)
    lease.start_heartbeat()
    try:
        yield lease
    finally:
        lease.release()
