"""Records that cross a boundary: the brief's JSON contract and the scanner's mentions.

The brief models follow ``brief-contract.md``: fields may be added, none
renamed or removed. ``extra="forbid"`` keeps typos out of what we write.
"""

from __future__ import annotations

import warnings
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

__all__ = [
    "SourceKind",
    "SourceStatus",
    "Mention",
    "SourceEntry",
    "Window",
    "BaseDoc",
    "Increment",
    "BriefWarning",
    "ArxivEntry",
    "GapEntry",
    "AlertEntry",
    "Stats",
    "Brief",
    "WARNING_KINDS",
    "WARNING_LABELS",
]

SourceKind = Literal["note", "brief", "card", "queue", "living_doc", "register", "feed"]
SourceStatus = Literal[
    "read", "out_of_window", "duplicate", "empty", "truncated", "undated",
    "decode_error", "bad_front_matter", "unreadable",
]
TimeFrom = Literal["front_matter", "name", "body", "date_only"]
Verified = Literal["ok", "mismatch", "not_found", "malformed", "unverified"]
IncrementStatus = Literal["net_new", "integrated", "carried"]
GapStatus = Literal["met", "late", "missing", "excused"]

# Every warning kind, and how it reads in the brief's headings (Chinese, as the team writes). The
# contract's kinds come first; baton adds gap_unreported, version_beyond_latest, streak_mismatch,
# caveat (a claim its own author marked as unchecked: ⚠ marks, 待核, conditions unstated, single test) and
# late_unreported (a coordination note calls on time a delivery that came after its due time).
WARNING_LABELS = {
    "id_malformed": "arXiv 号格式错误", "id_conflict": "同名异号 / 同号异名", "title_mismatch": "标题不符",
    "date_mismatch": "日期不符", "version_conflict": "版本号各源不一", "number_conflict": "数字各源不一",
    "promise_open": "承诺待兑现", "promise_overdue": "承诺逾期", "single_source": "单一来源、无链接",
    "register_collision": "登记簿编号冲突", "false_alarm": "协调误报", "instruction_in_source": "来源中夹带指令",
    "gap_unreported": "棒位缺口未报", "version_beyond_latest": "版本号超出最新版", "streak_mismatch": "缺口天数不符",
    "caveat": "来源自注存疑", "late_unreported": "迟交未报",
}
WARNING_KINDS = tuple(WARNING_LABELS)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Mention(_Model):
    """One thing a source says: an arXiv reference, a URL, a version, a figure, a promise…"""

    source: str
    kind: Literal["arxiv", "url", "version", "figure", "promise", "instruction", "credibility", "caveat", "setup",
                  "close"]
    value: str
    raw: str
    line: int
    context: str = ""
    detail: dict = Field(default_factory=dict)


class SourceEntry(_Model):
    """One source of the window (contract ``sources[]``)."""

    path: str
    kind: SourceKind
    agent: str | None = None
    time: datetime | None = None
    time_from: TimeFrom | None = None
    bytes: int = 0
    relevance: int = 0
    status: SourceStatus = "read"
    reason: str | None = None
    duplicate_of: str | None = None
    encoding: str | None = None
    sha256: str | None = None
    in_window: bool = True
    flags: list[str] = Field(default_factory=list)
    title: str | None = None


class Window(_Model):
    start: datetime
    end: datetime


class BaseDoc(_Model):
    path: str
    version: str | None = None  # the version as it stood at the window's end
    updated: datetime | None = None
    # When the file on disk was changed after the window (a backfill), what it says now.
    current_version: str | None = None
    current_updated: datetime | None = None


class Increment(_Model):
    rank: int
    title: str
    status: IncrementStatus
    arxiv: list[str] = Field(default_factory=list)
    urls: list[str] = Field(default_factory=list)
    sources: list[str] = Field(default_factory=list)
    work_queue: str | None = None
    # The flag a source says the queue gives the paper, when the queue's snapshot of the day disagrees.
    work_queue_claim: dict | None = None
    paper_card: int | None = None
    points: list[str] = Field(default_factory=list)
    argument: str = ""
    credibility: int = 3
    credibility_reason: str = ""
    relation: str = ""
    section: str | None = None
    section_title: str | None = None
    key: str | None = None
    relevance: int = 0
    card_status: str | None = None
    warnings: list[str] = Field(default_factory=list)
    # Open register entries (carried, not raised today) about this item: the doubts it still stands under.
    register_open: list[str] = Field(default_factory=list)


# The contract names a field "register", which pydantic warns shadows ABCMeta.register.
warnings.filterwarnings("ignore", message='Field name "register"', category=UserWarning)


class BriefWarning(_Model):
    """One warning of the brief (contract ``warnings[]``); ``kind`` is one of ``WARNING_KINDS``."""

    id: str
    register: str | None = None
    kind: str
    text: str
    risk: str = "中"
    action: str = ""
    sources: list[str] = Field(default_factory=list)
    carried_from: str | None = None
    subject: str | None = None
    key: str | None = None
    decision: str | None = None
    # A new number for a finding a brief wrote under a number that names another thing ("<path> D195").
    renumbered_from: str | None = None
    # How the brief names this warning when its kind's label would mislead (a scout's risk flag on a
    # finding is no doubt about it: "来源标注风险", not "来源自注存疑"); None: the kind's label.
    label: str | None = None

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: str) -> str:
        if value not in WARNING_KINDS:
            raise ValueError(f"unknown warning kind {value!r}; known: {', '.join(WARNING_KINDS)}")
        return value


class ArxivEntry(_Model):
    id: str
    version: str | None = None
    verified: Verified = "unverified"
    title: str | None = None
    section: str | None = None
    credibility: int | None = None
    note: str | None = None
    status: IncrementStatus | None = None
    published: str | None = None
    likely: str | None = None
    # False for a number listed for audit only: outside the topic, malformed, or written for another paper.
    citable: bool = True


class GapEntry(_Model):
    agent: str
    slot: str
    date: str
    status: GapStatus
    streak: int = 0
    arrived: datetime | None = None
    due: datetime | None = None
    closed: bool = False
    note: str | None = None
    # Added by the coordinator (issue 5): the check that first saw the slot-day, and the late note.
    open_at_check: bool = False
    checked_at: datetime | None = None
    closed_at: datetime | None = None
    source: str | None = None
    # The slot-day this brief itself delivers (its own slot, its own day): missing until it is published.
    this_brief: bool = False


class AlertEntry(_Model):
    key: str
    to: list[str] = Field(default_factory=list)
    sent: datetime | None = None
    kind: str | None = None
    severity: str | None = None
    text: str | None = None


class Stats(_Model):
    sources_read: int = 0
    sources_skipped: int = 0
    arxiv_requests: int = 0
    llm_calls: int = 0
    llm_tokens: int = 0
    llm_dropped: int = 0  # model sentences the grounding check removed (a figure, URL or date not in the sources)
    seconds: float = 0.0
    offline: bool = False
    # arXiv could not be reached this run: why (as the client said it) and what kind of failure
    # ("connect", "timeout", "http", "budget", "other"); the brief says it once, not per identifier.
    arxiv_failure: str | None = None
    arxiv_failure_kind: str | None = None


class Brief(_Model):
    """The whole brief: what the Markdown is rendered from and the JSON is written from."""

    topic: str
    date: str
    thread: str
    executor: str
    window: Window
    base_doc: BaseDoc
    density: str = "低"
    honesty: str = ""
    summary: list[str] = Field(default_factory=list)
    sources: list[SourceEntry] = Field(default_factory=list)
    increments: list[Increment] = Field(default_factory=list)
    warnings: list[BriefWarning] = Field(default_factory=list)
    arxiv: list[ArxivEntry] = Field(default_factory=list)
    gaps: list[GapEntry] = Field(default_factory=list)
    alerts: list[AlertEntry] = Field(default_factory=list)
    stats: Stats = Field(default_factory=Stats)
    e2: list[dict] = Field(default_factory=list)
    excluded: list[dict] = Field(default_factory=list)
    # Nothing silently dropped: in-topic items already anchored ("沿用") and those below the cut, each with why.
    carried: list[dict] = Field(default_factory=list)
    # One-item warnings whose item the brief leaves out (a caveat on a non-increment, a date of an off-topic card).
    set_aside: list[dict] = Field(default_factory=list)
    input_alert: str | None = None  # why today's input looks broken (silent inboxes), for the summary
    below_cut: list[dict] = Field(default_factory=list)
    # Sections of the window's notes that speak of the topic but became no item (no identifier, no rating):
    # listed with their relevance and the scout's flag, so that nothing read is silently dropped.
    unplaced: list[dict] = Field(default_factory=list)
    # The notes' sections the scouts set aside by their headings ("杂项（跳过）"): one path per section.
    unplaced_set_aside: list[str] = Field(default_factory=list)
    generated_by: str = "baton"
    review_notes: list[str] = Field(default_factory=list)
    register_open: list[dict] = Field(default_factory=list)
    register_closed: list[dict] = Field(default_factory=list)
    # Open register entries of other topics (no term, citation, slot or window paper of this one): named, not carried.
    register_elsewhere: list[dict] = Field(default_factory=list)
    # LLM mode (issue 10): the model that worded the brief, what fell back to the rules and why, and the
    # scope moves of its second opinion ({key, title, from, to, reason}). Empty without a model.
    llm_model: str | None = None
    llm_notes: list[str] = Field(default_factory=list)
    scope_moves: list[dict] = Field(default_factory=list)
    # The model's second opinion, shown for the reviewer and changing nothing: claims the scouts passed on
    # without their conditions ({"kind": "unconditioned", key, title, claim, note}) and its reading of the
    # coordination notes ({"kind": "coordination", claim, note}).
    llm_opinions: list[dict] = Field(default_factory=list)
    # Malformed arXiv numbers whose intended identifier is certain (same name, the full number elsewhere):
    # counted under that identifier and listed here, not warned of ({written, id, sources, why}).
    repaired_ids: list[dict] = Field(default_factory=list)
