"""The graph's state: IDs, hashes and counts — never whole documents."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = ["RunState", "ResumeValue"]


# What a decision did, as the CLI, the page and the log say it.
ACTION_DONE = {"approve": "approved", "reject": "rejected", "discard": "discarded"}


def reviewer_name(value: str) -> str:
    """A reviewer's name, stripped; ValueError unless printable and non-empty."""
    value = value.strip()
    if not value or any(not ch.isprintable() for ch in value):
        raise ValueError("must be a printable, non-empty name")
    return value


class ResumeValue(BaseModel):
    """What ``approve``/``reject`` (or auto-approval) hands the waiting approval step; checked before any write."""

    model_config = ConfigDict(extra="forbid")

    action: Literal["approve", "reject", "discard"]
    by: str = Field(min_length=1, max_length=80)
    reason: str | None = Field(default=None, max_length=4000)
    text: str | None = None  # an edited brief to publish instead of the draft
    replace: bool = False
    auto: bool = False
    decision_id: int | None = None  # the decision already recorded for this resume (None: the node records it)

    @field_validator("by")
    @classmethod
    def _printable_name(cls, value: str) -> str:
        return reviewer_name(value)


class RunState(BaseModel):
    """What flows between the nodes of one thread (``<topic>:<date>``).

    ``day`` (and ``thread``) may be left out of the input (a LangGraph cron): the scanner then takes
    today in the vault's timezone at run time, and the thread id ``<topic>:<day>`` from it.
    """

    model_config = ConfigDict(extra="forbid")

    topic: str
    thread: str = ""
    day: str = ""
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
