"""Baton slots from outside a brief run: the gaps table, excuses and the noon check (CLI and web app call these)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from sqlalchemy import select

from agents.coordinator.alerts import (
    Sink,
    build_sinks,
    collapsed_digest,
    decide_alerts,
    deliver_pending,
    is_held,
    record_gaps_and_outbox,
)
from agents.coordinator.claims import check_claims, read_coordination_notes
from agents.coordinator.heatmap import render_gaps_svg
from agents.coordinator.node import sink_configs
from agents.coordinator.slots import compute_gaps, gaps_open_at_check
from agents.coordinator.standdown import excuses_as_of
from state.errors import ConfigError, UsageError
from state.models import AlertEntry, BriefWarning, GapEntry
from state.runtime import BatonContext
from state.settings import Settings
from state.tables.coordination import Excuse, OutboxRow, load_excuses, record_excuse
from state.tables.coordination import remove_excuses as delete_excuses
from state.vault_config import VaultConfig, parse_hhmm

__all__ = ["GapReport", "gap_report", "excuse", "excuse_days", "remove_excuses", "list_excuses", "day_range",
           "CheckResult", "run_check", "STATUS_MARK"]

# Days of slot history the check looks at: streaks that reach into the day, yesterday's late slots.
_CHECK_DAYS = 8

STATUS_MARK = {"met": "✓", "late": "迟", "missing": "缺", "excused": "免"}


@dataclass
class GapReport:
    """Slots × days as of the end of ``day``, and what the coordination notes got wrong."""

    day: date
    days: int
    gaps: list[GapEntry]
    warnings: list[BriefWarning]

    def svg(self) -> str:
        """The same report as an SVG heatmap."""
        return render_gaps_svg(self.gaps, self.warnings)


def gap_report(ctx: BatonContext, day: date, days: int = 7) -> GapReport:
    """Compute every slot's status for the ``days`` days ending at ``day`` (as of that day's end)."""
    if days < 1 or days > 366:
        raise UsageError(f"--days must be between 1 and 366, not {days}")
    cfg = ctx.config
    as_of = datetime.combine(day, time(23, 59, 59), tzinfo=cfg.tz)
    # One day more than shown: the first shown day's claims look at the day before it.
    gaps = compute_gaps(cfg, day, days + 1, excuses=excuses_as_of(ctx.db, cfg, day, as_of), as_of=as_of)
    first = (day - timedelta(days=days - 1)).isoformat()
    shown = [gap for gap in gaps if gap.date >= first]
    warnings = check_claims(read_coordination_notes(cfg, day - timedelta(days=days - 1), day), gaps, cfg)
    return GapReport(day, days, shown, warnings)


def excuse(ctx: BatonContext, slot_key: str, day: date, by: str, reason: str) -> str:
    """Excuse one slot for one day (a holiday, say); the excuse is recorded with who and why."""
    try:
        slot = ctx.config.slot(slot_key)
    except ConfigError as exc:
        raise UsageError(str(exc)) from exc
    if not by.strip() or not reason.strip():
        raise UsageError("an excuse needs --by NAME and --reason TEXT")
    record_excuse(ctx.db, slot.key, day, by, reason, datetime.now(ctx.config.tz))
    return slot.key


def excuse_days(ctx: BatonContext, slot_key: str, days: list[date], by: str, reason: str) -> str:
    """Excuse one slot for each of ``days``; excusing a day again updates its excuse (one row)."""
    slot = _slot(ctx, slot_key)
    if not by.strip() or not reason.strip():
        raise UsageError("an excuse needs --by NAME and --reason TEXT")
    now = datetime.now(ctx.config.tz)
    for day in days:
        record_excuse(ctx.db, slot.key, day, by, reason, now)
    return slot.key


def remove_excuses(ctx: BatonContext, slot_key: str, days: list[date]) -> tuple[str, list[date]]:
    """Withdraw a slot's excuses on ``days``; return the slot key and the days that had one."""
    slot = _slot(ctx, slot_key)
    return slot.key, delete_excuses(ctx.db, slot.key, days)


def list_excuses(ctx: BatonContext, slot_key: str | None = None) -> list[Excuse]:
    """Every excuse (of one slot when given), by slot and day."""
    key = _slot(ctx, slot_key).key if slot_key else None
    return sorted((e for e in load_excuses(ctx.db).values() if key is None or e.slot == key),
                  key=lambda e: (e.slot, e.day))


def _slot(ctx: BatonContext, slot_key: str):  # type: ignore[no-untyped-def]
    try:
        return ctx.config.slot(slot_key)
    except ConfigError as exc:
        raise UsageError(str(exc)) from exc


def day_range(first: date, last: date) -> list[date]:
    """``first`` … ``last``, both included (at most a year)."""
    if last < first:
        raise UsageError(f"--to {last} is before --from {first}")
    if (last - first).days > 366:
        raise UsageError(f"{first} … {last} is more than a year; give a shorter range")
    return [first + timedelta(days=k) for k in range((last - first).days + 1)]


@dataclass
class CheckResult:
    """What the coordination check of ``day`` decided and did."""

    day: date
    as_of: datetime
    open_gaps: list[GapEntry]
    due: list[AlertEntry] = field(default_factory=list)  # what this check sends (or would, in a dry run)
    sent: list[AlertEntry] = field(default_factory=list)
    failed: list[tuple[str, str, str]] = field(default_factory=list)
    unmapped: list[str] = field(default_factory=list)  # recipients no webhook serves
    dry_run: bool = False


def run_check(ctx: BatonContext, day: date, now: datetime, *, dry_run: bool = False,
              sinks: list[Sink] | None = None) -> CheckResult:
    """The noon coordination check of ``day`` as of ``check_at`` (or ``now`` when earlier).

    Records the gap states and their alerts in the outbox and sends what is due (each alert key once,
    ever); a dry run records and sends nothing and lists what would go out. A past ``day`` is a
    backfill: its alerts are held unless ``send_backfill``, and then go out as one digest.
    """
    cfg = ctx.config
    settings = ctx.settings
    moment = datetime.combine(day, parse_hhmm(cfg.schedule.check_at), tzinfo=cfg.tz)
    as_of = min(now, moment)
    today = settings.today or now.astimezone(cfg.tz).date()
    gaps = compute_gaps(cfg, day, _CHECK_DAYS, excuses=excuses_as_of(ctx.db, cfg, day, as_of), as_of=as_of)
    result = CheckResult(day, as_of, gaps_open_at_check(gaps, day), dry_run=dry_run)
    result.unmapped = _unmapped_recipients(cfg, settings)
    collapse = today if settings.send_backfill else None
    if dry_run:
        result.due = _would_send(ctx, gaps, today=today, run_day=day, collapse_before=collapse)
        return result
    record_gaps_and_outbox(ctx.db, cfg, gaps, today=today, now=now, run_day=day,
                           send_backfill=settings.send_backfill)
    if sinks is None:
        sinks = build_sinks(sink_configs(settings), settings.state_dir)
    report = deliver_pending(ctx.db, sinks, now=lambda: now, collapse_before=collapse)
    result.sent, result.failed = report.sent, report.failed
    result.due = list(report.sent)
    return result


def _would_send(ctx: BatonContext, gaps: list[GapEntry], *, today: date, run_day: date,
                collapse_before: date | None) -> list[AlertEntry]:
    """The alerts a real check would send now: new keys not held, and recorded ones still unsent."""
    cfg = ctx.config
    alerts = decide_alerts(cfg, gaps)
    missing = {(f"{g.agent}/{g.slot}", g.date) for g in gaps if g.status == "missing"}
    with ctx.db.session() as session:
        known = {row.key: row for row in session.scalars(select(OutboxRow))}
        pending = [_as_entry(row) for row in known.values() if row.sent is None and not row.backfill]
    fresh = [
        AlertEntry(key=a.key, to=list(a.to), kind=a.kind, severity=a.severity, text=a.text)
        for a in alerts
        if a.key not in known and (ctx.settings.send_backfill
                                   or not is_held(date.fromisoformat(a.day), run_day, today, (a.slot, a.day) in missing))
    ]
    if ctx.settings.send_backfill:
        keys = {a.key for a in alerts}
        pending += [_as_entry(r) for r in known.values() if r.sent is None and r.backfill and r.key in keys]
    due = pending + fresh
    if collapse_before is None:
        return due
    past = [e for e in due if _alert_day(e) < collapse_before]
    if not past:
        return due
    rows = [OutboxRow(key=e.key, day=_alert_day(e).isoformat(), recipients=e.to, severity=e.severity or "info",
                      text=e.text or "") for e in past]
    return [collapsed_digest(rows)] + [e for e in due if e not in past]


def _alert_day(entry: AlertEntry) -> date:
    return date.fromisoformat(entry.key.split("/")[-2])


def _as_entry(row: OutboxRow) -> AlertEntry:
    return AlertEntry(key=row.key, to=list(row.recipients), kind=row.kind, severity=row.severity, text=row.text)


def _unmapped_recipients(cfg: VaultConfig, settings: Settings) -> list[str]:
    """Recipients of schedule.toml that no webhook serves (they get the alert note in <state>/alerts/ only)."""
    if settings.webhooks:
        return []  # a bare webhook serves every recipient
    names = {name for slot in cfg.schedule.slot for name in slot.alert}
    names |= {slot.agent for slot in cfg.schedule.slot if slot.name == "coordination"} or {"lead"}
    return sorted(names - set(settings.recipient_webhooks))
