"""LLM mode's run record (issue 10): one row per run that used a model (migration 0003 creates the
table); no prompt text and no key are ever stored."""

from __future__ import annotations

from sqlalchemy import JSON, Float, ForeignKey, Integer, String
from sqlalchemy.orm import Mapped, mapped_column

from state.db import Base

__all__ = ["LlmRunRow"]


class LlmRunRow(Base):
    """The model, prompt versions, calls, tokens and grounding drops of one run."""

    __tablename__ = "llm_runs"

    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), primary_key=True)
    thread: Mapped[str] = mapped_column(String(100), index=True)
    model: Mapped[str] = mapped_column(String(200))
    endpoint: Mapped[str | None] = mapped_column(String(500), nullable=True)
    calls: Mapped[int] = mapped_column(Integer, default=0)
    tokens: Mapped[int] = mapped_column(Integer, default=0)
    dropped: Mapped[int] = mapped_column(Integer, default=0)
    prefix_share: Mapped[float] = mapped_column(Float, default=0.0)
    prompt_versions: Mapped[dict] = mapped_column(JSON)
    notes: Mapped[list] = mapped_column(JSON)
