"""The graph's state: IDs, hashes and counts — never whole documents."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["RunState"]


class RunState(BaseModel):
    """What flows between the nodes of one thread (``<topic>:<date>``)."""

    model_config = ConfigDict(extra="forbid")

    thread: str
    topic: str
    day: str
    run_id: int | None = None
    sources_read: int = 0
    sources_skipped: int = 0
    mentions: int = 0
    source_hashes: list[str] = Field(default_factory=list)
    arxiv_requests: int = 0
    warnings: int = 0
    increments: int = 0
    brief_sha256: str | None = None
    revision: int = 0
    drafts: list[str] = Field(default_factory=list)
    gaps_open: int = 0
    alerts_sent: int = 0
    decision: dict | None = None
    # Done but degraded (exit 3): why arXiv could not be asked, why alerts were not delivered.
    arxiv_degraded: str | None = None
    alerts_degraded: str | None = None
    published: str | None = None
