"""Baton slots: met, late, missing or excused per slot and day, with streaks, from the vault itself.

A slot is met on a day when ``inbox/<agent>/`` holds a note of that date whose
name matches the slot's pattern and whose time is at or before ``due``; late
when the first such note comes after; missing when none comes. Consecutive
late or missing days make a streak; an excused day neither breaks nor extends
it. A slot's history starts at its ``since`` (schedule.toml), else its first
note, else the vault's earliest dated note, so a first run on an old vault knows
the past and a new vault's slot has no streak from before it existed. The inbox is listed once per call and only files
that match a slot are read (their time may sit in front matter or body).
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Mapping, Set
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from agents.scanner.derived import Derivation, derive_many, from_wall, wall
from agents.scanner.notes import VaultFile, parse_note_name
from state.models import GapEntry
from state.vault_config import Slot, VaultConfig, parse_hhmm

__all__ = [
    "Arrival",
    "Excuses",
    "scan_arrivals",
    "compute_gaps",
    "slot_starts",
    "earliest_note_day",
    "check_moment",
    "gaps_open_at_check",
    "describe_gap",
    "short_date",
]

Excuses = Mapping[tuple[str, date], object] | Set[tuple[str, date]]


@dataclass(frozen=True)
class Arrival:
    """A note that fills a slot: where it is and when it came."""

    path: str
    time: datetime
    time_from: str | None


def _compile_pattern(pattern: str) -> re.Pattern[str]:
    parts = []
    for token in re.split(r"(\{date\}|\*|\?)", pattern):
        if token == "{date}":
            parts.append(r"(?P<date>\d{4}-\d{2}-\d{2})")
        elif token == "*":
            parts.append(r"[^/]*")
        elif token == "?":
            parts.append(r"[^/]")
        else:
            parts.append(re.escape(token))
    return re.compile("".join(parts) + r"\Z")


def scan_arrivals(cfg: VaultConfig) -> dict[tuple[str, date], list[Arrival]]:
    """List each agent's inbox once; return the slot notes by (slot key, date), earliest first."""
    by_agent: dict[str, list[tuple[Slot, re.Pattern[str]]]] = {}
    for slot in cfg.schedule.slot:
        by_agent.setdefault(slot.agent, []).append((slot, _compile_pattern(slot.pattern)))
    found: dict[tuple[str, date], list[Arrival]] = {}
    root = Path(cfg.root)
    for agent, matchers in by_agent.items():
        folder = root / "inbox" / agent
        if not folder.is_dir():
            continue
        with os.scandir(folder) as entries:
            names = sorted(e.name for e in entries if e.is_file() and e.name.endswith(".md"))
        matched = [(name, hits) for name in names if (hits := [slot for slot, rx in matchers if _matches(rx, name)])]
        dated = derive_many(root, [folder / name for name, _ in matched], cfg.tz, arrival_derivation(cfg.tz))
        for (_, hits), arrival_day in zip(matched, dated, strict=True):
            if arrival_day is None:
                continue
            arrival, day = arrival_day
            for slot in hits:
                found.setdefault((slot.key, day), []).append(arrival)
    for arrivals in found.values():
        arrivals.sort(key=lambda a: a.time)
    return found


def _dated_arrival(file: VaultFile) -> tuple[Arrival, date] | None:
    """The note as an arrival, with its name's date; None for a note without a time or a dated name."""
    if file.time is None or file.name.day is None:
        return None
    return Arrival(file.path, file.time, file.time_from), file.name.day


@functools.lru_cache(maxsize=8)
def arrival_derivation(tz: ZoneInfo) -> Derivation[tuple[Arrival, date] | None]:
    """How the vault index keeps a slot note's arrival (its time is all the slots read of it)."""

    def encode(value: tuple[Arrival, date] | None) -> object:
        if value is None:
            return None
        arrival, day = value
        return [arrival.path, wall(arrival.time, tz), arrival.time_from, day.isoformat()]

    def decode(raw: object) -> tuple[Arrival, date] | None:
        if raw is None:
            return None
        path, when, time_from, day = raw  # type: ignore[misc]
        return Arrival(path, from_wall(when, tz), time_from), date.fromisoformat(day)  # type: ignore[arg-type]

    return Derivation("slot_arrival", 1, _dated_arrival, encode, decode)


def _matches(rx: re.Pattern[str], name: str) -> bool:
    match = rx.match(name)
    if match is None:
        return False
    named = match.groupdict().get("date")
    day = parse_note_name(name).day
    return day is not None and (named is None or named == day.isoformat())


def check_moment(cfg: VaultConfig, slot: Slot, day: date) -> datetime:
    """The first noon check after the slot's due time: that day's, or the next day's."""
    check = parse_hhmm(cfg.schedule.check_at)
    due = parse_hhmm(slot.due)
    check_day = day if due < check else day + timedelta(days=1)
    return datetime.combine(check_day, check, tzinfo=cfg.tz)


def _excuse_note(excuses: Excuses | None, key: str, day: date) -> str | None:
    if not excuses or (key, day) not in excuses:
        return None
    if isinstance(excuses, Mapping):
        value = excuses[(key, day)]
        return str(value) if value else "已请假"
    return "已请假"


def compute_gaps(
    cfg: VaultConfig,
    day: date,
    days: int = 7,
    *,
    excuses: Excuses | None = None,
    arrivals: dict[tuple[str, date], list[Arrival]] | None = None,
    as_of: datetime | None = None,
) -> list[GapEntry]:
    """Return one GapEntry per slot and day for the ``days`` days ending at ``day``.

    ``as_of`` hides notes that came later and leaves out slot-days not yet due
    at that moment; None reads the vault as it stands. Streaks count from each
    slot's start (``slot_starts``), before the window too; days before it get no entry.
    """
    if days < 1:
        raise ValueError(f"days must be at least 1, not {days!r}")
    if arrivals is None:
        arrivals = scan_arrivals(cfg)
    first_day = day - timedelta(days=days - 1)
    starts = slot_starts(cfg, arrivals, day)
    entries: list[GapEntry] = []
    for slot in cfg.schedule.slot:
        streak = 0
        current = starts[slot.key]
        while current <= day:
            entry = _slot_day(cfg, slot, current, streak, excuses, arrivals, as_of)
            if entry is not None:
                streak = entry.streak if entry.status != "met" else 0
                if current >= first_day:
                    entries.append(entry)
            current += timedelta(days=1)
    return entries


def slot_starts(cfg: VaultConfig, arrivals: dict[tuple[str, date], list[Arrival]], day: date) -> dict[str, date]:
    """The first day each slot is expected: before it nothing is counted (no entry, no streak day).

    The slot's ``since`` in schedule.toml when given; else its first note (a slot added to
    schedule.toml later has no false streak from before it existed); else, for a slot with no note
    yet, the vault's earliest dated note (a new vault's slot is not 7 days late on its first check);
    a vault with no dated note at all starts on ``day``.
    """
    firsts: dict[str, date] = {}
    for key, when in arrivals:
        firsts[key] = min(firsts.get(key, when), when)
    vault_start: date | None = None
    starts: dict[str, date] = {}
    for slot in cfg.schedule.slot:
        if slot.since is not None:
            starts[slot.key] = slot.since
        elif slot.key in firsts:
            starts[slot.key] = firsts[slot.key]
        else:
            if vault_start is None:
                vault_start = earliest_note_day(cfg) or day
            starts[slot.key] = vault_start
    return starts


def earliest_note_day(cfg: VaultConfig) -> date | None:
    """The date of the vault's earliest dated note (``inbox/<agent>/<date>…``), by file name; None: none yet."""
    inbox = Path(cfg.root) / "inbox"
    earliest: date | None = None
    if not inbox.is_dir():
        return None
    with os.scandir(inbox) as agents:
        folders = [entry.path for entry in agents if entry.is_dir()]
    for folder in folders:
        with os.scandir(folder) as entries:
            for entry in entries:
                if not entry.name.endswith(".md"):
                    continue
                when = parse_note_name(entry.name).day
                if when is not None and (earliest is None or when < earliest):
                    earliest = when
    return earliest


def _slot_day(
    cfg: VaultConfig,
    slot: Slot,
    day: date,
    streak: int,
    excuses: Excuses | None,
    arrivals: dict[tuple[str, date], list[Arrival]],
    as_of: datetime | None,
) -> GapEntry | None:
    tz = cfg.tz
    due = datetime.combine(day, parse_hhmm(slot.due), tzinfo=tz)
    notes = [a for a in arrivals.get((slot.key, day), []) if as_of is None or a.time <= as_of]
    first = notes[0] if notes else None
    if first is None and as_of is not None and due > as_of:
        return None
    checked_at = check_moment(cfg, slot, day)
    checked = as_of is None or checked_at <= as_of
    base = {
        "agent": slot.agent, "slot": slot.name, "date": day.isoformat(), "due": due,
        "checked_at": checked_at if checked else None,
        "arrived": first.time if first else None, "source": first.path if first else None,
    }
    excuse = _excuse_note(excuses, slot.key, day)
    if excuse is not None:
        # A notice quoted as such ("停棒：「…」"); a recorded excuse as leave.
        note = excuse if excuse.startswith("停棒：") else f"请假：{excuse}"
        return GapEntry(status="excused", streak=streak, note=note, **base)
    open_at_check = checked and (first is None or first.time > checked_at)
    if first is not None and first.time <= due:
        return GapEntry(status="met", streak=0, **base)
    if first is not None:
        return GapEntry(
            status="late", streak=streak + 1, closed=True, closed_at=first.time,
            open_at_check=open_at_check, note=f"缺口闭合 {_hhmm(first.time)}", **base,
        )
    return GapEntry(status="missing", streak=streak + 1, open_at_check=open_at_check, note="未交", **base)


def gaps_open_at_check(gaps: list[GapEntry], day: date) -> list[GapEntry]:
    """The gaps that the noon check of ``day`` sees open (slot due earlier, no note yet)."""
    return [g for g in gaps if g.open_at_check and g.checked_at is not None and g.checked_at.date() == day]


def _hhmm(when: datetime | time | None) -> str:
    return when.strftime("%H:%M") if when is not None else "?"


def short_date(day: date | str) -> str:
    """``2026-09-08`` → ``9-8``, the way the team writes dates."""
    value = date.fromisoformat(day) if isinstance(day, str) else day
    return f"{value.month}-{value.day}"


def describe_gap(gap: GapEntry) -> str:
    """One line in the team's words: ``spark/llm-infra-e1prep 第 7 日缺口（截至 12:45 未交，due 12:00）``."""
    key = f"{gap.agent}/{gap.slot}"
    due = _hhmm(gap.due)
    day = short_date(gap.date)
    if gap.status == "met":
        return f"{key} {day} 按时（{_hhmm(gap.arrived)}，due {due}）"
    if gap.status == "excused":
        return f"{key} {day} 已请假（{gap.note or ''}）"
    head = f"{key} 第 {gap.streak} 日缺口" if gap.streak > 1 else f"{key} {day} 缺口"
    if gap.open_at_check and gap.checked_at is not None:
        moment = _hhmm(gap.checked_at)
        if gap.checked_at.date().isoformat() != gap.date:
            moment = f"{short_date(gap.checked_at.date())} {moment}"
        state = f"截至 {moment} 未交"
        if gap.status == "late":
            state += f"，{_hhmm(gap.arrived)} 迟交闭合"
    elif gap.status == "late":
        state = f"{_hhmm(gap.arrived)} 迟交"
    else:
        state = "未交"
    return f"{head}（{state}，due {due}）"
