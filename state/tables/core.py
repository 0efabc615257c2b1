"""Core tables: runs, sources of a thread, their mentions, and content blobs."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Integer, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base

__all__ = ["RunRow", "SourceRow", "MentionRow", "BlobRow", "BriefRow", "ArtifactRow"]


class BlobRow(Base):
    """A document body addressed by its SHA-256; graph state holds only the hash."""

    __tablename__ = "blobs"

    sha256: Mapped[str] = mapped_column(String(64), primary_key=True)
    text: Mapped[str] = mapped_column(Text)


class RunRow(Base):
    """One invocation of the graph on a thread (a re-run is a new row, never a copy of records)."""

    __tablename__ = "runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    thread: Mapped[str] = mapped_column(String(100), index=True)
    topic: Mapped[str] = mapped_column(String(64))
    day: Mapped[str] = mapped_column(String(10))
    started: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    status: Mapped[str] = mapped_column(String(20), default="running")
    mode: Mapped[str] = mapped_column(String(20), default="fresh")
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)


class SourceRow(Base):
    """A source of a thread's window: one row per (thread, path), replaced on re-run."""

    __tablename__ = "sources"
    __table_args__ = (UniqueConstraint("thread", "path"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    thread: Mapped[str] = mapped_column(String(100), index=True)
    path: Mapped[str] = mapped_column(String(500))
    kind: Mapped[str] = mapped_column(String(20))
    agent: Mapped[str | None] = mapped_column(String(50), nullable=True)
    sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)
    encoding: Mapped[str | None] = mapped_column(String(20), nullable=True)
    time: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    time_from: Mapped[str | None] = mapped_column(String(20), nullable=True)
    bytes: Mapped[int] = mapped_column(Integer, default=0)
    relevance: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(20))
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    entry: Mapped[dict] = mapped_column(JSON)


class MentionRow(Base):
    """One mention extracted from a source of a thread."""

    __tablename__ = "mentions"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    thread: Mapped[str] = mapped_column(String(100), index=True)
    source: Mapped[str] = mapped_column(String(500))
    kind: Mapped[str] = mapped_column(String(20), index=True)
    value: Mapped[str] = mapped_column(String(500))
    record: Mapped[dict] = mapped_column(JSON)


class BriefRow(Base):
    """The latest draft brief of a thread (JSON and Markdown), replaced on re-run."""

    __tablename__ = "briefs"

    thread: Mapped[str] = mapped_column(String(100), primary_key=True)
    run_id: Mapped[int | None] = mapped_column(ForeignKey("runs.id"), nullable=True)
    brief: Mapped[dict] = mapped_column(JSON)
    markdown: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    # A revision is a draft as presented for approval: it changes only when the text does.
    revision: Mapped[int] = mapped_column(Integer, default=0)
    presented_sha256: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ArtifactRow(Base):
    """A node's result for a thread, by name (e.g. "verify"): state holds the name, not the payload."""

    __tablename__ = "artifacts"
    __table_args__ = (UniqueConstraint("thread", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    thread: Mapped[str] = mapped_column(String(100), index=True)
    name: Mapped[str] = mapped_column(String(50))
    payload: Mapped[dict] = mapped_column(JSON)
