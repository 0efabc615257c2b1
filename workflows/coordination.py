"""Baton slots from outside a brief run: the gaps table and excuses (CLI and web app call these)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from agents.coordinator.claims import check_claims, read_coordination_notes
from agents.coordinator.heatmap import render_gaps_svg
from agents.coordinator.slots import compute_gaps
from state.errors import ConfigError, UsageError
from state.models import BriefWarning, GapEntry
from state.runtime import BatonContext
from state.tables.coordination import load_excuses, record_excuse

__all__ = ["GapReport", "gap_report", "excuse", "STATUS_MARK"]

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
    gaps = compute_gaps(cfg, day, days + 1, excuses=load_excuses(ctx.db), as_of=as_of)
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
