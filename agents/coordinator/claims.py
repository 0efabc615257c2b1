"""The coordinator's own notes read as claims, and checked against the slots the vault shows.

``inbox/<coordinator>/*coordination*`` notes carry a status table (棒位 ·
应交 · 状态, in two layouts: ``| tom · hf-daily | 09:30 | ✅ 09:00 |`` and
``| tom | hf-daily | 09:30 | ✅ … |``; a slot cell may name an earlier day as
``（9-23）``) and prose lines such as ``P0：spark agent-e1prep 第 1 日缺口`` or
``本人 9-23 协调棒位未出``. A claimed gap that the vault contradicts (the
note was there before the check) is a ``false_alarm``; a gap open at the
check that the note does not report is ``gap_unreported``; a wrong day
count is ``streak_mismatch``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Literal

from agents.coordinator.slots import describe_gap, gaps_open_at_check, short_date
from agents.scanner.notes import VaultFile, parse_note_name, read_vault_file
from state.models import BriefWarning, GapEntry
from state.vault_config import Slot, VaultConfig, parse_hhmm

__all__ = ["Claim", "parse_claims", "read_coordination_notes", "check_claims"]

ClaimState = Literal["open", "met"]

_MISS = re.compile(r"未出|未见|未交|缺失|无产出|缺口")
_NOT_MISS = re.compile(r"迟到|迟交|补出|闭合|未到时限")
_MONTH_DAY = re.compile(r"(?<![\d-])(?:(\d{4})-)?(\d{1,2})-(\d{1,2})(?![\d-])")
_STREAK = re.compile(r"第\s*(\d+)\s*日缺口")
_MARKS = re.compile(r"⚠(⚬+)")
_CLAUSE = re.compile(r"[，。；;！!]")
# Words the coordinator uses for its own slot.
_SELF_WORDS = ("协调棒位",)


@dataclass(frozen=True)
class Claim:
    """What one coordination note says about one slot-day at its check."""

    source: str
    checked_at: datetime
    slot: str
    day: date
    state: ClaimState
    streak: int | None
    line: int
    text: str


def _slot_rx(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])")


def _find_slots(text: str, slots: Sequence[Slot], author: str | None) -> list[Slot]:
    found = [s for s in slots if _slot_rx(s.name).search(text)]
    by_name: dict[str, list[Slot]] = {}
    for slot in found:
        by_name.setdefault(slot.name, []).append(slot)
    chosen = []
    for same in by_name.values():
        named = [s for s in same if re.search(rf"(?<![\w-]){re.escape(s.agent)}(?![\w-])", text)]
        chosen.extend(named or (same if len(same) == 1 else []))
    if author and any(word in text for word in _SELF_WORDS):
        chosen.extend(s for s in slots if s.agent == author and s.name == "coordination" and s not in chosen)
    return chosen


def _dates(text: str, year: int) -> list[date]:
    days = []
    for match in _MONTH_DAY.finditer(text):
        try:
            days.append(date(int(match.group(1) or year), int(match.group(2)), int(match.group(3))))
        except ValueError:
            continue
    return days


def _status_table(lines: list[str]) -> set[int]:
    """Line numbers (0-based) of the rows of status tables (a header with 棒位 and 状态)."""
    rows: set[int] = set()
    inside = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("|"):
            inside = False
            continue
        if "棒位" in stripped and "状态" in stripped:
            inside = True
            continue
        if inside and not re.fullmatch(r"\|[\s|:-]+\|?", stripped):
            rows.add(i)
    return rows


def _row_claim(cells: list[str]) -> tuple[str, str, ClaimState] | None:
    """Split a status row into (slot cells, status cell, state), or None when it claims nothing."""
    status = cells[-1]
    where = " ".join(cells[:-1])
    if "未到时限" in status:
        return None
    if "✅" in status:
        return where, status, "met"
    # "未出 … 9-28 18:40 迟交只闭合了 9-28 当日" is still a gap today: the miss words win.
    if _MISS.search(status):
        return where, status, "open"
    if "迟" in status:
        return where, status, "met"
    return None


def parse_claims(file: VaultFile, slots: Sequence[Slot], check_at: str = "12:45") -> list[Claim]:
    """Read the claims of one coordination note (table rows first, then single-slot prose clauses)."""
    if file.text is None or file.name.day is None:
        return []
    note_day = file.name.day
    checked_at = file.time or datetime.combine(note_day, parse_hhmm(check_at))
    lines = file.body.split("\n") if file.body else []
    offset = (file.text.count("\n") - file.body.count("\n")) if file.body else 0
    claims: dict[tuple[str, date], Claim] = {}

    def add(slot: Slot, day: date, state: ClaimState, text: str, i: int) -> None:
        match = _STREAK.search(text)
        # Without "第 N 日缺口" the team's mark ⚠⚬⚬⚬ counts the days in ⚬.
        marks = _MARKS.search(text) if state == "open" else None
        streak = int(match.group(1)) if match else len(marks.group(1)) if marks else None
        claim = Claim(file.path, checked_at, slot.key, day, state, streak, offset + i + 1, text.strip())
        claims.setdefault((slot.key, day), claim)

    table = _status_table(lines)
    for i in sorted(table):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        parsed = _row_claim(cells)
        if parsed is None:
            continue
        where, status, state = parsed
        for slot in _find_slots(where, slots, file.agent):
            day = next(iter(_dates(where, note_day.year)), note_day)
            add(slot, day, state, f"{where} | {status}", i)
    for i, line in enumerate(lines):
        if i in table or line.strip().startswith("|"):
            continue
        for clause in _CLAUSE.split(line):
            if not _MISS.search(clause) or _NOT_MISS.search(clause):
                continue
            found = _find_slots(clause, slots, file.agent)
            if len(found) != 1:
                continue
            for day in _dates(clause, note_day.year) or [note_day]:
                add(found[0], day, "open", clause, i)
    return list(claims.values())


def read_coordination_notes(cfg: VaultConfig, start: date, end: date) -> list[VaultFile]:
    """Read the coordination notes dated ``start``…``end`` (``inbox/*/*coordination*``)."""
    root = Path(cfg.root)
    agents = sorted({s.agent for s in cfg.schedule.slot if s.name == "coordination"}) or sorted(
        p.name for p in (root / "inbox").iterdir() if p.is_dir()) if (root / "inbox").is_dir() else []
    files = []
    for agent in agents:
        for path in sorted((root / "inbox" / agent).glob("*coordination*.md")):
            day = parse_note_name(path.name).day
            if day is not None and start <= day <= end:
                files.append(read_vault_file(root, path, cfg.tz))
    return files


def _warning(kind: str, text: str, risk: str, action: str, sources: list[str], key: str) -> BriefWarning:
    # The lead assigns the brief's warning ids (C1, C2…); the key keeps the warning stable across runs.
    return BriefWarning(id="", kind=kind, text=text, risk=risk, action=action, sources=sources, key=key,
                        subject=key.split("#")[1])


def check_claims(notes: Sequence[VaultFile], gaps: Sequence[GapEntry], cfg: VaultConfig) -> list[BriefWarning]:
    """Compare each note's claims with the gaps; ``gaps`` must cover the day before each note too."""
    by_key = {(f"{g.agent}/{g.slot}", g.date): g for g in gaps}
    warnings: list[BriefWarning] = []
    for note in notes:
        if note.name.day is None:
            continue
        claims = parse_claims(note, cfg.schedule.slot, cfg.schedule.check_at)
        author = note.agent or "协调"
        when = f"{short_date(note.name.day)} {note.time.strftime('%H:%M') if note.time else ''}".strip()
        reported = set()
        for claim in claims:
            gap = by_key.get((claim.slot, claim.day.isoformat()))
            if gap is None:
                continue
            if claim.state == "open":
                reported.add((claim.slot, claim.day.isoformat()))
            warning = _check_one(claim, gap, author, when)
            if warning is not None:
                warnings.append(warning)
        for gap in gaps_open_at_check(list(gaps), note.name.day):
            slot = f"{gap.agent}/{gap.slot}"
            if (slot, gap.date) in reported:
                continue
            said = next((c for c in claims if c.slot == slot and c.day.isoformat() == gap.date), None)
            how = "标为 ✅" if said is not None else "未提及"
            text = f"{author} {when} 协调检查{how} {slot} {short_date(gap.date)}，实为：{describe_gap(gap)}"
            warnings.append(_warning(
                "gap_unreported", text, "中", f"补报缺口并 @{gap.agent}；协调检查以 baton 棒位表为准",
                [note.path] + ([gap.source] if gap.source else []), f"gap_unreported#{slot}/{gap.date}",
            ))
    return warnings


def _check_one(claim: Claim, gap: GapEntry, author: str, when: str) -> BriefWarning | None:
    subject = f"{claim.slot}/{claim.day.isoformat()}"
    day = short_date(claim.day)
    if claim.state == "open" and gap.arrived is not None and gap.arrived <= claim.checked_at:
        on_time = "按时" if gap.status == "met" else "迟交"
        text = (f"误报：{author} {when} 协调笔记称 {claim.slot} {day} 未交"
                f"{f'（第 {claim.streak} 日缺口）' if claim.streak else ''}，"
                f"但 {gap.source} 已于 {short_date(gap.arrived.date())} {gap.arrived.strftime('%H:%M')} 到达（{on_time}）")
        return _warning("false_alarm", text, "中", f"撤回对 {claim.slot.split('/')[0]} 的补交要求，更正协调笔记",
                        [claim.source] + ([gap.source] if gap.source else []), f"false_alarm#{subject}")
    if claim.state == "open" and claim.streak and gap.status in ("late", "missing") and claim.streak != gap.streak:
        text = (f"{author} {when} 协调笔记称 {claim.slot} 第 {claim.streak} 日缺口，"
                f"棒位记录为第 {gap.streak} 日（{day}）")
        return _warning("streak_mismatch", text, "低", "以棒位表的连续计数为准",
                        [claim.source], f"streak_mismatch#{subject}")
    return None
