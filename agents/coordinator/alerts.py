"""Gap alerts: decided on transitions, recorded with the gap state, delivered once through the sinks.

An alert has a key ``agent/slot/date/kind`` (kinds: ``open``, ``streak-N``,
``closed``, and one ``digest`` per day for the coordinator). Deciding is
pure; ``record_gaps_and_outbox`` writes the gap states and the new outbox
rows in one transaction; ``deliver_pending`` sends what is unsent and records
each sink's delivery as soon as it succeeds. A crash between recording and
sending leaves the rows unsent (sent next run); a completed send is never
repeated. A run for a past date (a backfill) records its alerts without
sending them unless asked; a run for today holds history older than yesterday.
"""

from __future__ import annotations

import logging
import sys
import time as _time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from hashlib import sha256
from pathlib import Path
from typing import Literal, Protocol, TextIO

import httpx
from pydantic import BaseModel, ConfigDict, Field, model_validator
from sqlalchemy import select, update

from agents.coordinator.slots import describe_gap, gaps_open_at_check, short_date
from agents.peer_deadline import DeadlineExceeded, deadline, httpx_trace
from agents.verifier.arxiv_feed import retry_after
from state.db import Database
from state.errors import BatonError, DeliveryError
from state.files import atomic_write_text
from state.log_file import redact_url
from state.models import AlertEntry, GapEntry
from state.tables.coordination import (
    DeliveryRow,
    OutboxRow,
    as_aware,
    insert_outbox_rows,
    to_utc,
    upsert_gap_states,
)
from state.vault_config import VaultConfig

log = logging.getLogger(__name__)

__all__ = [
    "Alert",
    "DeliveryError",
    "DeliveryReport",
    "SinkConfig",
    "Sink",
    "StdoutSink",
    "FolderSink",
    "WebhookSink",
    "build_sinks",
    "decide_alerts",
    "record_gaps_and_outbox",
    "deliver_pending",
    "collapsed_digest",
    "load_alerts",
    "THRESHOLDS",
    "is_held",
]

THRESHOLDS = (3, 7)
_SEVERITY_ORDER = ("info", "warning", "high", "critical")


@dataclass(frozen=True)
class Alert:
    """One decided alert, before it is recorded."""

    key: str
    slot: str
    day: str
    kind: str
    severity: str
    to: tuple[str, ...]
    text: str


class SinkConfig(BaseModel):
    """One alert sink from the configuration; ``recipients`` empty means every recipient."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["stdout", "folder", "webhook"]
    name: str | None = None
    recipients: list[str] = Field(default_factory=list)
    url: str | None = None
    folder: Path | None = None
    timeout: float = 5.0
    retries: int = Field(default=3, ge=0, le=10)
    backoff: float = Field(default=1.0, ge=0)
    max_wait: float = Field(default=30.0, ge=0)
    budget: float = Field(default=60.0, gt=0)

    @model_validator(mode="after")
    def _url_for_webhook(self) -> SinkConfig:
        if self.kind == "webhook" and not self.url:
            raise ValueError(f"webhook sink {self.name or ''!r} needs a url")
        return self


class Sink(Protocol):
    """Where alerts go; ``name`` identifies the sink in the delivery records (no secrets)."""

    name: str

    def serves(self, recipients: Sequence[str]) -> bool: ...

    def send(self, alert: AlertEntry) -> None: ...


@dataclass
class _Recipients:
    recipients: tuple[str, ...] = ()

    def serves(self, recipients: Sequence[str]) -> bool:
        """True when this sink delivers to any of ``recipients`` (or to everyone)."""
        return not self.recipients or any(r in self.recipients for r in recipients)


@dataclass
class StdoutSink(_Recipients):
    """Print alerts, one line each."""

    name: str = "stdout"
    stream: TextIO | None = None

    def send(self, alert: AlertEntry) -> None:
        """Print the alert."""
        out = self.stream or sys.stdout
        print(f"[{alert.severity}] → {', '.join(alert.to)}: {alert.text}", file=out, flush=True)


@dataclass
class FolderSink(_Recipients):
    """Write each alert as a Markdown note into a folder (one file per key: re-sending rewrites it)."""

    folder: Path = Path("alerts")
    name: str = ""

    def __post_init__(self) -> None:
        self.name = self.name or f"folder:{self.folder}"

    def send(self, alert: AlertEntry) -> None:
        """Write the alert note atomically."""
        stem = alert.key.replace("/", "_")
        body = (
            f"---\nkey: {alert.key}\nkind: {alert.kind}\nseverity: {alert.severity}\n"
            f"to: [{', '.join(alert.to)}]\n---\n\n# 棒位提醒 · {alert.severity}\n\n{alert.text}\n"
        )
        try:
            atomic_write_text(self.folder / f"{stem}.md", body)
        except OSError as exc:
            raise DeliveryError(f"cannot write the alert note into {str(self.folder)!r}: {exc}") from exc


@dataclass
class WebhookSink(_Recipients):
    """POST Slack-compatible JSON ``{"text": …}``; retry on transport errors, 429 and 5xx.

    A 429's ``Retry-After`` is honoured up to ``max_wait`` seconds; a longer wait gives up at once
    (the alert stays in the outbox and goes out on the next run) instead of blocking a scheduler.
    ``timeout`` is each attempt's wall-clock deadline, answer included (a receiver trickling a byte at
    a time cannot hold it: ``agents.peer_deadline``); ``budget`` bounds all of the sink's posts in one
    run, waits included: once spent, the remaining alerts fail at once and stay in the outbox.
    """

    url: str = ""
    name: str = ""
    timeout: float = 5.0
    retries: int = 3
    backoff: float = 1.0
    max_wait: float = 30.0
    budget: float = 60.0
    sleep: Callable[[float], None] = _time.sleep
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))
    monotonic: Callable[[], float] = _time.monotonic
    transport: httpx.BaseTransport | None = None
    attempts: int = field(default=0, init=False)
    _budget_end: float | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        # The URL of a Slack webhook is a secret: name the sink by its hash.
        self.name = self.name or f"webhook:{sha256(self.url.encode()).hexdigest()[:12]}"

    def send(self, alert: AlertEntry) -> None:
        """Deliver the alert or raise DeliveryError after the last retry."""
        self.post(alert.key, {"text": alert.text})

    def post(self, what: str, payload: dict) -> None:
        """POST one JSON payload with the retries; raise DeliveryError naming ``what`` after the last."""
        if self._budget_end is None:
            self._budget_end = self.monotonic() + self.budget
        last = ""
        wait: float | None = None
        for attempt in range(self.retries + 1):
            if attempt:
                pause = wait if wait is not None else self.backoff * 2 ** (attempt - 1)
                if pause >= self._left():
                    last += f"; delivery time budget of {self.budget:g} s spent"
                    break
                self.sleep(pause)
            wait = None
            left = self._left()
            if left <= 0:
                last = (last + "; " if last else "") + f"delivery time budget of {self.budget:g} s spent"
                break
            self.attempts += 1
            try:
                response = self._attempt(payload, min(self.timeout, left))
            except (httpx.TransportError, DeadlineExceeded) as exc:
                last = f"{type(exc).__name__}: {str(exc).replace(self.url, redact_url(self.url))}"
                log.warning("webhook %s to %s attempt %d for %s failed: %s", self.name, redact_url(self.url),
                            attempt + 1, what, last)
                continue
            if response.status_code < 300:
                log.info("webhook %s to %s delivered %s", self.name, redact_url(self.url), what)
                return
            last = f"HTTP {response.status_code}"
            log.warning("webhook %s to %s attempt %d for %s failed: %s", self.name, redact_url(self.url),
                        attempt + 1, what, last)
            if response.status_code == 429:
                wait = retry_after(response.headers.get("Retry-After"), self.now())
                if wait is not None and wait > self.max_wait:
                    last += f" (Retry-After {wait:g} s is longer than the {self.max_wait:g} s baton waits)"
                    break
            elif response.status_code < 500:
                break
        raise DeliveryError(f"webhook {self.name!r} refused alert {what!r}: {last}")

    def _left(self) -> float:
        return (self._budget_end or 0.0) - self.monotonic()

    def _attempt(self, payload: dict, seconds: float) -> httpx.Response:
        # A client per attempt: the deadline sees the sockets of new connections only (httpx_trace).
        with deadline(seconds), httpx.Client(timeout=seconds, transport=self.transport) as client:
            response = client.post(self.url, json=payload, extensions={"trace": httpx_trace})
            response.read()
        return response


def build_sinks(configs: Sequence[SinkConfig], state_dir: Path) -> list[Sink]:
    """Build the sinks of the configuration; a folder sink defaults to ``<state>/alerts/``."""
    sinks: list[Sink] = []
    for cfg in configs:
        recipients = tuple(cfg.recipients)
        if cfg.kind == "stdout":
            sinks.append(StdoutSink(recipients, name=cfg.name or "stdout"))
        elif cfg.kind == "folder":
            sinks.append(FolderSink(recipients, folder=cfg.folder or state_dir / "alerts", name=cfg.name or ""))
        else:
            sinks.append(WebhookSink(
                recipients, url=cfg.url or "", name=cfg.name or "", timeout=cfg.timeout,
                retries=cfg.retries, backoff=cfg.backoff, max_wait=cfg.max_wait, budget=cfg.budget,
            ))
    return sinks


def _gap_severity(streak: int) -> str:
    return "critical" if streak >= 7 else "high" if streak >= 3 else "warning"


def _coordinator(cfg: VaultConfig) -> str:
    for slot in cfg.schedule.slot:
        if slot.name == "coordination":
            return slot.agent
    return "lead"


def decide_alerts(
    cfg: VaultConfig, gaps: Sequence[GapEntry], thresholds: Sequence[int] = THRESHOLDS
) -> list[Alert]:
    """Decide the alerts the gap states call for; the same states always give the same keys."""
    coordinator = _coordinator(cfg)
    alerts: list[Alert] = []
    for gap in gaps:
        key = f"{gap.agent}/{gap.slot}"
        try:
            to = tuple(cfg.slot(key).alert) or (coordinator,)
        except BatonError:
            to = (coordinator,)
        base = f"{key}/{gap.date}"
        if gap.status == "missing":
            alerts.append(Alert(f"{base}/open", key, gap.date, "open", _gap_severity(gap.streak), to,
                                describe_gap(gap)))
        if gap.status in ("late", "missing"):
            for n in thresholds:
                if gap.streak == n:
                    text = f"{key} 连续第 {n} 日缺口（截至 {short_date(gap.date)}），请 {gap.agent} 说明原因"
                    alerts.append(Alert(f"{base}/streak-{n}", key, gap.date, f"streak-{n}",
                                        _gap_severity(n), to, text))
        if gap.status == "late" and gap.arrived is not None:
            due = gap.due.strftime("%H:%M") if gap.due else "?"
            text = (f"{key} {short_date(gap.date)} 缺口闭合（{gap.arrived.strftime('%H:%M')} 迟交，"
                    f"due {due}；连续第 {gap.streak} 日）")
            alerts.append(Alert(f"{base}/closed", key, gap.date, "closed", "info", to, text))
    alerts.extend(_digests(gaps, coordinator))
    return alerts


def _digests(gaps: Sequence[GapEntry], coordinator: str) -> list[Alert]:
    checked_days = sorted({g.checked_at.date() for g in gaps if g.checked_at is not None})
    dates = {g.date for g in gaps}
    digests = []
    for day in checked_days:
        if day.isoformat() not in dates:
            continue
        open_gaps = gaps_open_at_check(list(gaps), day)
        moment = next(g.checked_at for g in gaps if g.checked_at and g.checked_at.date() == day)
        head = f"{short_date(day)} {moment.strftime('%H:%M')} 棒位核对"
        if open_gaps:
            text = "\n".join([f"{head}：缺口 {len(open_gaps)} 项"] + [f"- {describe_gap(g)}" for g in open_gaps])
            severity = max((_gap_severity(g.streak) for g in open_gaps), key=_SEVERITY_ORDER.index)
        else:
            text, severity = f"{head}：无缺口", "info"
        digests.append(Alert(f"check/{day.isoformat()}/digest", "check", day.isoformat(), "digest",
                             severity, (coordinator,), text))
    return digests


def is_held(alert_day: date, run_day: date, today: date, still_open: bool) -> bool:
    """Whether an alert is recorded without being sent.

    A run for a past date (a backfill) sends nothing. A run for today sends today's alerts and
    yesterday's gaps that are still open (a slot due late yesterday is only seen today); it holds
    older history, which a first run on an old vault would otherwise flood the coordinator with.
    """
    if run_day < today:
        return True
    if alert_day == run_day:
        return False
    return not (alert_day == run_day - timedelta(days=1) and still_open)


def record_gaps_and_outbox(
    db: Database,
    cfg: VaultConfig,
    gaps: Sequence[GapEntry],
    *,
    today: date,
    now: datetime,
    run_day: date,
    send_backfill: bool = False,
    thresholds: Sequence[int] = THRESHOLDS,
) -> list[Alert]:
    """Record the gap states and the outbox rows of their alerts in one transaction; return the alerts."""
    alerts = decide_alerts(cfg, gaps, thresholds)
    missing = {(f"{g.agent}/{g.slot}", g.date) for g in gaps if g.status == "missing"}
    rows = [
        {
            "key": a.key, "slot": a.slot, "day": a.day, "kind": a.kind, "severity": a.severity,
            "recipients": list(a.to), "text": a.text, "created_at": to_utc(now),
            "backfill": not send_backfill and is_held(date.fromisoformat(a.day), run_day, today,
                                                    (a.slot, a.day) in missing),
            "sent": None,
        }
        for a in alerts
    ]
    with db.session() as session:
        upsert_gap_states(session, list(gaps), now)
        insert_outbox_rows(session, rows)
        if send_backfill and rows:
            # Rows an earlier plain backfill held back become due now that sending was asked for.
            session.execute(update(OutboxRow)
                            .where(OutboxRow.key.in_([r["key"] for r in rows]), OutboxRow.sent.is_(None))
                            .values(backfill=False))
    return alerts


@dataclass
class DeliveryReport:
    """What one delivery pass sent and what failed (the failed rows stay pending)."""

    sent: list[AlertEntry] = field(default_factory=list)
    failed: list[tuple[str, str, str]] = field(default_factory=list)


def _entry(row: OutboxRow) -> AlertEntry:
    return AlertEntry(key=row.key, to=list(row.recipients), sent=as_aware(row.sent), kind=row.kind,
                      severity=row.severity, text=row.text)


def deliver_pending(
    db: Database, sinks: Sequence[Sink], *, now: Callable[[], datetime], limit: int | None = None,
    collapse_before: date | None = None,
) -> DeliveryReport:
    """Send every unsent, non-backfill outbox row through the sinks that serve its recipients.

    Rows of days before ``collapse_before`` (a backfill asked to send) go out as one digest per sink
    instead of one message each.
    """
    report = DeliveryReport()
    with db.session() as session:
        query = select(OutboxRow).where(OutboxRow.sent.is_(None), OutboxRow.backfill.is_(False))
        rows = session.scalars(query.order_by(OutboxRow.id).limit(limit)).all()
        done = {
            (d.outbox_id, d.sink)
            for d in session.scalars(select(DeliveryRow).where(DeliveryRow.outbox_id.in_([r.id for r in rows])))
        } if rows else set()
    past = [r for r in rows if collapse_before is not None and date.fromisoformat(r.day) < collapse_before]
    if past:
        _deliver_collapsed(db, past, sinks, done, now, report)
    for row in rows:
        if row in past:
            continue
        entry = _entry(row)
        targets = [s for s in sinks if s.serves(entry.to)]
        if not targets:
            report.failed.append((row.key, "-", f"no sink serves {', '.join(entry.to)}"))
            continue
        complete = True
        for sink in targets:
            if (row.id, sink.name) in done:
                continue
            try:
                sink.send(entry)
            except DeliveryError as exc:
                log.warning("alert %s not delivered through %s: %s", row.key, sink.name, exc)
                report.failed.append((row.key, sink.name, str(exc)))
                complete = False
                continue
            with db.session() as session:
                session.add(DeliveryRow(outbox_id=row.id, sink=sink.name, sent_at=to_utc(now())))
        if complete:
            sent = to_utc(now())
            with db.session() as session:
                session.get(OutboxRow, row.id).sent = sent
            report.sent.append(entry.model_copy(update={"sent": sent}))
    return report


def collapsed_digest(rows: Sequence[OutboxRow]) -> AlertEntry:
    """One message for many past alerts: ``补发历史棒位提醒 N 条（9-1 ~ 9-7）`` and one line each."""
    days = sorted({r.day for r in rows})
    recipients = sorted({name for r in rows for name in r.recipients})
    lines = [f"补发历史棒位提醒 {len(rows)} 条（{short_date(days[0])} ~ {short_date(days[-1])}，回填，仅供核对）："]
    lines += [f"- {r.text.splitlines()[0]}" for r in rows]
    severity = max((r.severity for r in rows), key=lambda s: _SEVERITY_ORDER.index(s) if s in _SEVERITY_ORDER else 0)
    return AlertEntry(key=f"backfill/{days[0]}..{days[-1]}/digest", to=recipients, kind="digest",
                      severity=severity, text="\n".join(lines))


def _deliver_collapsed(db: Database, rows: Sequence[OutboxRow], sinks: Sequence[Sink],
                       done: set[tuple[int, str]], now: Callable[[], datetime], report: DeliveryReport) -> None:
    by_sink = {s.name: [r for r in rows if s.serves(r.recipients) and (r.id, s.name) not in done] for s in sinks}
    failed: set[int] = set()
    for sink in sinks:
        mine = by_sink[sink.name]
        if not mine:
            continue
        digest = collapsed_digest(mine)
        try:
            sink.send(digest)
        except DeliveryError as exc:
            log.warning("alert %s not delivered through %s: %s", digest.key, sink.name, exc)
            report.failed.append((digest.key, sink.name, str(exc)))
            failed.update(r.id for r in mine)
            continue
        with db.session() as session:
            session.add_all(DeliveryRow(outbox_id=r.id, sink=sink.name, sent_at=to_utc(now())) for r in mine)
        report.sent.append(digest.model_copy(update={"sent": to_utc(now())}))
    for row in rows:
        if not any(s.serves(row.recipients) for s in sinks):
            report.failed.append((row.key, "-", f"no sink serves {', '.join(row.recipients)}"))
        elif row.id not in failed:
            with db.session() as session:
                session.get(OutboxRow, row.id).sent = to_utc(now())


def load_alerts(db: Database, day: date) -> list[AlertEntry]:
    """The alerts recorded for ``day`` (contract ``alerts[]``), sent or not."""
    with db.session() as session:
        rows = session.scalars(select(OutboxRow).where(OutboxRow.day == day.isoformat()).order_by(OutboxRow.id))
        return [_entry(r) for r in rows]
