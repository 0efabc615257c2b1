"""Approval records: every decision on a draft and on single warnings, kept for ever."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Boolean, DateTime, Integer, String, Text
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base

__all__ = ["DecisionRow", "WarningDecisionRow"]


class DecisionRow(Base):
    """A reviewer's decision on one revision of a thread's draft."""

    __tablename__ = "decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    thread: Mapped[str] = mapped_column(String(100), index=True)
    revision: Mapped[int] = mapped_column(Integer)
    action: Mapped[str] = mapped_column(String(20))  # approve | reject
    by: Mapped[str] = mapped_column(String(80))
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)  # of the approved text
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    auto: Mapped[bool] = mapped_column(Boolean, default=False)
    edited: Mapped[bool] = mapped_column(Boolean, default=False)
    published: Mapped[str | None] = mapped_column(String(500), nullable=True)
    # ``<thread>#<revision>``: unique, so a revision takes one decision (NULL: an older store's duplicates).
    decided_key: Mapped[str | None] = mapped_column(String(120), nullable=True, unique=True,
                                                    index=True)


class WarningDecisionRow(Base):
    """A reviewer's decision on one warning (dismiss or confirm), remembered by the warning's key."""

    __tablename__ = "warning_decisions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    thread: Mapped[str] = mapped_column(String(100), index=True)
    warning_id: Mapped[str] = mapped_column(String(20))
    key: Mapped[str] = mapped_column(String(300), index=True)
    action: Mapped[str] = mapped_column(String(20))  # dismiss | confirm
    by: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    day: Mapped[str] = mapped_column(String(10))
