"""Tables of the contradiction register (D-numbers), their sightings in briefs, and dated promises.

A D-number names one thing for ever: ``register_entries.number`` is unique,
and an allocation made by baton is keyed by ``(thread, key)`` so that a
re-run of the same day finds its numbers instead of taking new ones.
"""

from __future__ import annotations

from sqlalchemy import Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base

__all__ = ["RegisterEntryRow", "RegisterSightingRow", "PromiseRow"]


class RegisterEntryRow(Base):
    """One D-number and the one thing it names."""

    __tablename__ = "register_entries"
    __table_args__ = (UniqueConstraint("thread", "key", name="uq_register_thread_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    number: Mapped[int] = mapped_column(Integer, unique=True, index=True)
    text: Mapped[str] = mapped_column(Text, default="")
    risk: Mapped[str | None] = mapped_column(String(20), nullable=True)
    kind: Mapped[str | None] = mapped_column(String(40), nullable=True)
    raised: Mapped[str | None] = mapped_column(String(10), nullable=True)  # YYYY-MM-DD
    status: Mapped[str] = mapped_column(String(20), default="open")  # open | closed
    closed: Mapped[str | None] = mapped_column(String(10), nullable=True)
    evidence: Mapped[str | None] = mapped_column(Text, nullable=True)
    source: Mapped[str | None] = mapped_column(String(500), nullable=True)
    origin: Mapped[str] = mapped_column(String(20), default="baton")  # register | brief | baton
    thread: Mapped[str | None] = mapped_column(String(100), nullable=True)
    key: Mapped[str | None] = mapped_column(String(500), nullable=True)
    subject: Mapped[str | None] = mapped_column(String(200), nullable=True)


class RegisterSightingRow(Base):
    """One place a D-number appears: the register file or an earlier brief, with what it says there."""

    __tablename__ = "register_sightings"
    __table_args__ = (UniqueConstraint("number", "source", "role", "text", name="uq_sighting"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    number: Mapped[int] = mapped_column(Integer, index=True)
    source: Mapped[str] = mapped_column(String(500))
    day: Mapped[str | None] = mapped_column(String(10), nullable=True)
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
