"""Leases: the one process that runs a thread (or delivers the alert outbox) now, and until when."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import DateTime, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base

__all__ = ["LeaseRow"]


class LeaseRow(Base):
    """A lease on a name (``<topic>:<date>`` or ``outbox``); renewed while held, taken over once expired."""

    __tablename__ = "thread_leases"

    name: Mapped[str] = mapped_column(String(200), primary_key=True)
    owner: Mapped[str] = mapped_column(String(64))  # a random token of the holding process
    purpose: Mapped[str] = mapped_column(String(20))  # run | approve | reject | deliver
    pid: Mapped[int] = mapped_column(Integer)
    host: Mapped[str] = mapped_column(String(200))
    since: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    expires: Mapped[datetime] = mapped_column(DateTime(timezone=True))
