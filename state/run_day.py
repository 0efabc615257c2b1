"""The dates a run may be for: a window, its look-back and the next day's check must all be representable."""

from __future__ import annotations

from datetime import date

__all__ = ["FIRST_RUN_DAY", "LAST_RUN_DAY", "check_run_day"]

# Runs look back some weeks (streaks, earlier briefs) and forward a day (the window end in UTC, the
# next check): dates near the calendar's ends overflow mid-run. These bounds leave centuries of room.
FIRST_RUN_DAY = date(1900, 1, 1)
LAST_RUN_DAY = date(9998, 12, 31)


def check_run_day(day: date) -> date:
    """``day`` itself; ValueError naming the range when a run for it would overflow the calendar."""
    if not FIRST_RUN_DAY <= day <= LAST_RUN_DAY:
        raise ValueError(f"{day.isoformat()} is out of range: a brief's date lies between "
                         f"{FIRST_RUN_DAY.isoformat()} and {LAST_RUN_DAY.isoformat()}")
    return day
