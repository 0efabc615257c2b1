"""Tables of the contradiction register (D-numbers), their sightings in briefs, and dated promises.

A D-number names one thing for ever: ``register_entries.number`` is unique,
and an allocation made by baton is keyed by ``(thread, key)`` so that a
re-run of the same day finds its numbers instead of taking new ones.

"As of" a brief: a sighting or an entry counts only when the brief could have
known it. ``AsOf`` says what that means: on or before a date (the old,
date-only view), or strictly before a moment (the brief's window end) with
some sources left out (the slot's own brief: the output being written).
Moments are stored as UTC ISO strings (``2026-09-28T10:40:00+00:00``), so
that comparing the strings compares the moments.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base
from state.errors import StoreError

__all__ = ["RegisterEntryRow", "RegisterSightingRow", "PromiseRow", "AsOf", "utc_moment"]


def utc_moment(moment: datetime) -> str:
    """A tz-aware moment as the stored string (UTC, seconds)."""
    if moment.tzinfo is None:
        raise StoreError(f"the moment {moment.isoformat()!r} has no time zone; give the vault's")
    return moment.astimezone(UTC).isoformat(timespec="seconds")


class RegisterEntryRow(Base):
    """One D-number and the one thing it names."""

    __tablename__ = "register_entries"
    __table_args__ = (UniqueConstraint("thread", "key", name="uq_register_thread_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    number: Mapped[int] = mapped_column(Integer, index=True)  # not unique: see migration 0006
    text: Mapped[str] = mapped_column(Text, default="")
    risk: Mapped[str | None] = mapped_column(String(20), nullable=True)
    kind: Mapped[str | None] = mapped_column(String(40), nullable=True)
    raised: Mapped[str | None] = mapped_column(String(10), nullable=True)  # YYYY-MM-DD
    raised_at: Mapped[str | None] = mapped_column(String(32), nullable=True)  # UTC moment, when known
    status: Mapped[str] = mapped_column(String(20), default="open")  # open | closed
    closed: Mapped[str | None] = mapped_column(String(10), nullable=True)
    closed_at: Mapped[str | None] = mapped_column(String(32), nullable=True)  # UTC moment of the closing brief
    closed_from: Mapped[str | None] = mapped_column(String(500), nullable=True)  # the brief that closed it
    evidence: Mapped[str | None] = mapped_column(Text, nullable=True)
    source: Mapped[str | None] = mapped_column(String(500), nullable=True)
    origin: Mapped[str] = mapped_column(String(20), default="baton")  # register | brief | baton
    thread: Mapped[str | None] = mapped_column(String(100), nullable=True)
    key: Mapped[str | None] = mapped_column(String(500), nullable=True)
    subject: Mapped[str | None] = mapped_column(String(200), nullable=True)


class RegisterSightingRow(Base):
    """One place a D-number appears: the register file or a brief, with what it says there and when."""

    __tablename__ = "register_sightings"
    __table_args__ = (UniqueConstraint("number", "source", "role", "text", name="uq_sighting"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    number: Mapped[int] = mapped_column(Integer, index=True)
    source: Mapped[str] = mapped_column(String(500))
    day: Mapped[str | None] = mapped_column(String(10), nullable=True)
    moment: Mapped[str | None] = mapped_column(String(32), nullable=True)  # UTC moment of the source, when known
    role: Mapped[str] = mapped_column(String(20))  # raised | carried | closed | mentioned
    text: Mapped[str] = mapped_column(Text, default="")


class PromiseRow(Base):
    """A dated promise ("计划于 2026-09 发布"), tracked from the day it is first seen."""

    __tablename__ = "promises"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(500), unique=True)
    text: Mapped[str] = mapped_column(Text)
    due: Mapped[str] = mapped_column(String(10))  # YYYY-MM-DD, last day of the month for a month
    when: Mapped[str] = mapped_column(String(10))  # as written: YYYY-MM or YYYY-MM-DD
    first_seen: Mapped[str] = mapped_column(String(10))
    source: Mapped[str] = mapped_column(String(500))
    confirmed_by: Mapped[str | None] = mapped_column(String(500), nullable=True)
    confirmed_on: Mapped[str | None] = mapped_column(String(10), nullable=True)


@dataclass(frozen=True)
class AsOf:
    """What a brief could know: everything (``day`` None), up to a date, or strictly before a moment."""

    day: str | None = None  # the brief's local date, YYYY-MM-DD
    moment: str | None = None  # UTC moment (``utc_moment``); None: date-only
    exclude: frozenset[str] = frozenset()  # sources never seen (the slot's own brief)
    inclusive: bool = False  # things stamped exactly at the moment count (the slot's own brief at window end)
    # baton threads whose day the vault's own brief of that slot records: that brief is the day's record,
    # baton's run of it a draft beside it (its numbers are kept from reuse, not carried)
    superseded: frozenset[str] = frozenset()
    # this topic's own earlier slot briefs: the topic's record, whose numbers it carries even where another
    # topic's brief gave the same number to something else (the collision is said once, then carried)
    own_record: frozenset[str] = frozenset()

    @classmethod
    def of(cls, as_of: date | datetime | None, exclude: Collection[str] = (), superseded: Collection[str] = (),
           own_record: Collection[str] = ()) -> AsOf:
        """Build from a date (on or before it), a tz-aware datetime (strictly before it) or None (everything)."""
        if isinstance(as_of, datetime):
            return cls(as_of.date().isoformat(), utc_moment(as_of), frozenset(exclude), superseded=frozenset(superseded),
                       own_record=frozenset(own_record))
        return cls(as_of.isoformat() if as_of else None, None, frozenset(exclude), superseded=frozenset(superseded),
                   own_record=frozenset(own_record))

    def sees(self, day: str | None, moment: str | None, source: str | None) -> bool:
        """Whether a thing dated ``day`` (at ``moment`` when known) from ``source`` was known by then."""
        if source is not None and source in self.exclude:
            return False
        if self.day is None or day is None:
            return True
        if self.moment is None:
            return day <= self.day
        if moment is not None:
            return moment <= self.moment if self.inclusive else moment < self.moment
        return day < self.day  # a time-less thing of the brief's own day may come after it: not known

    def raised(self, row: RegisterEntryRow) -> bool:
        """Whether the entry existed by then."""
        if row.origin == "baton" and row.thread in self.superseded:
            return False
        return self.sees(row.raised, row.raised_at, row.source if row.origin != "baton" else None)

    def closed(self, row: RegisterEntryRow) -> bool:
        """Whether the entry was closed by then (a brief's closure counts from its moment)."""
        if row.status != "closed" or not row.closed:
            return False
        if self.day is None:
            return True
        if row.closed_from is not None and row.closed_from in self.exclude:
            return False
        if self.moment is not None and row.closed_at is not None:
            return row.closed_at < self.moment
        return row.closed <= self.day  # baton's evidence of the day closes it for that day's brief
