"""The coordinator's own notes read as claims, and checked against the slots the vault shows.

``inbox/<coordinator>/*coordination*`` notes carry a status table (棒位 ·
应交 · 状态, in two layouts: ``| tom · hf-daily | 09:30 | ✅ 09:00 |`` and
``| tom | hf-daily | 09:30 | ✅ … |``; a slot cell may name an earlier day as
``（9-23）``) and prose lines such as ``P0：spark agent-e1prep 第 1 日缺口`` or
``本人 9-23 协调棒位未出``. A claimed gap that the vault contradicts (the
note was there before the check) is a ``false_alarm``; a gap open at the
check that the note does not report is ``gap_unreported``; a wrong day
count is ``streak_mismatch``.

Each clause (and each status cell) is read by ``read_clause`` for what it
says, qualifiers included: a late delivery is a delivery (迟交但已到达,
late but in), a negated gap claims the slot met (并非缺口, not a gap), a
condition, request or future step claims nothing (若 14:00 前未出则…, not
yet due), and a named day (（9-23）, 昨日, yesterday) is the day claimed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Literal

from agents.coordinator.slots import describe_gap, gaps_open_at_check, short_date
from agents.scanner.notes import VaultFile, parse_note_name, read_vault_file
from state.models import BriefWarning, GapEntry
from state.vault_config import Slot, VaultConfig, parse_hhmm

__all__ = ["Claim", "ClauseReading", "read_clause", "claimed_state", "parse_claims", "read_coordination_notes", "check_claims"]

# What a clause says about a slot-day: not delivered (open), delivered on time (met), delivered late (late).
ClaimState = Literal["open", "met", "late"]

# A condition, a request or a future step claims nothing yet ("若 14:00 前未出则…", "请 … 补出", "not yet due").
_NO_CLAIM = re.compile(
    r"若|如果|假如|倘若|万一|要是|未到时限|尚未到时限|未到期|未到\s*due|请(?!假)|务必|需要|需尽快|要求|应于|今晚|明早|明日|明天|稍后|"
    r"\bif\b|\bunless\b|\bin case\b|not\s+(?:yet\s+)?due|due\s+later|please|\bshould\b|\bmust\b|\bneeds?\s+to\b|"
    r"\bwill\b|\btonight\b|\btomorrow\b",
    re.IGNORECASE,
)
# A negated gap claims the slot met ("并非缺口", "not a gap").
_NOT_GAP = re.compile(
    r"并非缺口|不是缺口|不算缺口|非缺口|无缺口|没有缺口|不构成缺口|\bnot\s+a\s+gap\b|\bno\s+gaps?\b|"
    r"\bis(?:n't| not)\s+(?:a\s+)?(?:gap|missing)\b|\bnot\s+missing\b|\bnothing\s+missing\b",
    re.IGNORECASE,
)
# Words that say no note has come: they win over arrival words in one clause ("未出 … 迟交只闭合了 9-28 当日").
_NOT_IN = re.compile(
    r"仍未(?:到达|[出交到见])?|尚未(?:到达|[出交到见])?|未见产出|未出|未见|未交|未到达|未到(?!时限|期)|没到|没出|没交|没有产出|无产出|缺失|"
    r"(?:没|未|没有)(?:看到|见到|收到|看见)|❌|✗|✘|"
    r"\b(?:not|never)\s+seen\b|\bhave(?:n't| not)\s+seen\b|\bnot\s+received\b|"
    r"\bstill\s+(?:missing|out|absent|not)\b|\bno\s+(?:delivery|note|output)(?:\s+yet)?\b|\bnothing\s+(?:yet|in|delivered)\b|"
    r"\bnot\s+(?:yet\s+)?(?:in|arrived|delivered|received|submitted)\b|\bhas(?:n't| not)\s+(?:yet\s+)?"
    r"(?:arrived|come|landed|been delivered)\b|\bmissing\b|\babsent\b",
    re.IGNORECASE,
)
# A delivery that came after its due time: still a delivery.
_LATE = re.compile(r"迟交|迟到|晚到|晚交|补交|补出|补上|补齐|\blate\b|\bbelated(?:ly)?\b|\bovernight\b", re.IGNORECASE)
_IN = re.compile(
    r"✅|已到达|已到|到达|已交|已出|按时|准时|闭合|\barrived\b|\bcame\s+in\b|\bdelivered\b|\blanded\b|\bon\s+time\b|"
    r"\bis\s+in\b|\bclosed\b|\breceived\b|\bsubmitted\b",
    re.IGNORECASE,
)
_GAP = re.compile(r"缺口|⚠⚬|\bgap\b|\bmiss(?:ed)?\b", re.IGNORECASE)
_MONTH_DAY = re.compile(
    r"(?<![\d-])(?:(\d{4})-)?(\d{1,2})-(\d{1,2})(?![\d-])|(?<!\d)(?:(\d{4})\s*年\s*)?(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]"
)
# A date that starts a run ("9-22 起连续", "since 9-22") is not the day the clause is about.
_RUN_START = re.compile(r"\s*(?:起|以来|开始|至今)")
_SINCE = re.compile(r"(?:\bsince|\bfrom|自|从)\s*$", re.IGNORECASE)
_RELATIVE_DAYS = (
    (re.compile(r"前日|前天|day\s+before\s+yesterday", re.IGNORECASE), -2),
    (re.compile(r"昨日|昨天|昨晚|\byesterday\b", re.IGNORECASE), -1),
)
_STREAK = re.compile(
    r"第\s*(\d+)\s*[日天]|连续\s*(\d+)\s*[日天]|\bday\s+(\d+)\b|\b(\d+)(?:st|nd|rd|th)?[-\s]day\s+(?:gap|streak)\b|"
    r"\b(\d+)\s+days?\s+in\s+a\s+row\b",
    re.IGNORECASE,
)
_MARKS = re.compile(r"⚠(⚬+)")
_CLAUSE = re.compile(r"[，。；;！!]|,\s|\.\s")
# Words the coordinator uses for its own slot.
_SELF_WORDS = ("协调棒位", "coordination slot")


@dataclass(frozen=True)
class ClauseReading:
    """What one clause claims about one slot-day: its state and, for a gap, the streak it counts."""

    slot: str
    day: date
    state: ClaimState
    streak: int | None


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
    if not chosen:
        # A slot named by its agent alone ("mei 仍未出") when that agent has exactly one slot.
        for agent in sorted({s.agent for s in slots}):
            own = [s for s in slots if s.agent == agent]
            if len(own) == 1 and re.search(rf"(?<![\w-]){re.escape(agent)}(?![\w-])", text):
                chosen.append(own[0])
    if author and any(word in text.lower() for word in _SELF_WORDS):
        chosen.extend(s for s in slots if s.agent == author and s.name == "coordination" and s not in chosen)
    return chosen


def _dates(text: str, year: int) -> list[date]:
    days = []
    for match in _MONTH_DAY.finditer(text):
        if _RUN_START.match(text, match.end()) or _SINCE.search(text[:match.start()]):
            continue
        y, m, d = (match.group(1), match.group(2), match.group(3)) if match.group(2) else (
            match.group(4), match.group(5), match.group(6))
        try:
            days.append(date(int(y or year), int(m), int(d)))
        except ValueError:
            continue
    return days


def _days(text: str, note_day: date) -> list[date]:
    """The days a clause is about: its dates, else a relative day (昨日, yesterday), else the note's day."""
    explicit = _dates(text, note_day.year)
    if explicit:
        return explicit
    for pattern, shift in _RELATIVE_DAYS:
        if pattern.search(text):
            return [note_day + timedelta(days=shift)]
    return [note_day]


def _ends_on_state(clause: str) -> bool:
    """Whether nothing but times, dates and asides follows the clause's last state word ("mei 仍未出（10:00）")."""
    ends = [m.end() for rx in (_NOT_GAP, _NOT_IN, _LATE, _IN, _GAP) for m in rx.finditer(clause)]
    if not ends:
        return False
    rest = re.sub(r"[（(][^）)]*[）)]|\d{1,2}:\d{2}|\d{1,2}-\d{1,2}|[\s，。,.;；:：!！、—-]", "", clause[max(ends):])
    return not rest


_SUB_CLAUSE = re.compile(r"——|—|·|\s-\s|[，。；;,]")


def claimed_state(text: str) -> ClaimState | None:
    """The state a clause claims, or None when it claims nothing (a condition, a request, the future).

    The first part of the clause that claims a state decides (``⚠ 未出 —— 需要 lead 介入`` is open);
    a condition or request before any state leaves the rest unclaimed (``若 14:00 前未出，则记缺口``).
    """
    for part in _SUB_CLAUSE.split(text):
        if _NO_CLAIM.search(part):
            return None
        state = _part_state(part)
        if state is not None:
            return state
    return None


def _part_state(text: str) -> ClaimState | None:
    if _NOT_GAP.search(text):
        return "met"
    if _NOT_IN.search(text):
        return "open"
    if _LATE.search(text):
        return "late"
    if _IN.search(text):
        return "met"
    if _GAP.search(text) or _STREAK.search(text):
        return "open"
    return None


def _streak(text: str, state: ClaimState) -> int | None:
    if state != "open":
        return None
    match = _STREAK.search(text)
    if match:
        return int(next(g for g in match.groups() if g))
    # Without "第 N 日缺口" the team's mark ⚠⚬⚬⚬ counts the days in ⚬.
    marks = _MARKS.search(text)
    return len(marks.group(1)) if marks else None


def read_clause(clause: str, slots: Sequence[Slot], note_day: date, author: str | None = None,
                where: str | None = None) -> list[ClauseReading]:
    """Read one clause as claims: (slot, day, claimed state, streak) for the one slot it names.

    ``where`` is the part that names the slot and day when it is apart from the
    status (a status table's first cells); otherwise the clause itself. A clause
    naming no slot or several, or claiming nothing, gives no reading.
    """
    state = claimed_state(clause)
    if state is None:
        return []
    place = clause if where is None else where
    found = _find_slots(place, slots, author)
    if where is None and len(found) != 1:
        return []
    if where is None and not _slot_rx(found[0].name).search(clause) and not _ends_on_state(clause):
        return []  # "mei 已出精读": the agent's other note, not its slot
    streak = _streak(clause, state)
    if where is None:
        days = _days(clause, note_day)
    else:
        days = _dates(where, note_day.year)[:1] or _days(re.sub(r"\d{1,2}-\d{1,2}", "", clause), note_day)[:1]
    return [ClauseReading(slot.key, day, state, streak) for slot in found for day in days]


def _status_table(lines: list[str]) -> set[int]:
    """Line numbers (0-based) of the rows of status tables (a header naming a slot or agent column)."""
    rows: set[int] = set()
    inside = False
    for i, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("|"):
            inside = False
            continue
        lowered = stripped.lower()
        # The header names the slot or agent column; the status is the last column, whatever its header says
        # ("状态", "今日情况", "today", "delivery").
        if re.search(r"棒位|slot|agent|执行体|负责人|owner", lowered) and not inside:
            inside = True
            continue
        if inside and not re.fullmatch(r"\|[\s|:-]+\|?", stripped):
            rows.add(i)
    return rows


def parse_claims(file: VaultFile, slots: Sequence[Slot], check_at: str = "12:45") -> list[Claim]:
    """Read the claims of one coordination note (table rows first, then single-slot prose clauses)."""
    if file.text is None or file.name.day is None:
        return []
    note_day = file.name.day
    checked_at = file.time or datetime.combine(note_day, parse_hhmm(check_at))
    lines = file.body.split("\n") if file.body else []
    offset = (file.text.count("\n") - file.body.count("\n")) if file.body else 0
    claims: dict[tuple[str, date], Claim] = {}

    def add(reading: ClauseReading, text: str, i: int) -> None:
        claim = Claim(file.path, checked_at, reading.slot, reading.day, reading.state, reading.streak,
                      offset + i + 1, text.strip())
        claims.setdefault((reading.slot, reading.day), claim)

    table = _status_table(lines)
    for i in sorted(table):
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        where, status = " ".join(cells[:-1]), cells[-1]
        for reading in read_clause(status, slots, note_day, file.agent, where=where):
            add(reading, f"{where} | {status}", i)
    for i, line in enumerate(lines):
        if i in table or line.strip().startswith("|"):
            continue
        for clause in _CLAUSE.split(line):
            for reading in read_clause(clause, slots, note_day, file.agent):
                add(reading, clause, i)
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
    idle = idle_days(gaps)
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
            warning = _check_one(claim, gap, author, when, idle)
            if warning is not None:
                warnings.append(warning)
        for gap in gaps_open_at_check(list(gaps), note.name.day):
            slot = f"{gap.agent}/{gap.slot}"
            if (slot, gap.date) in reported or gap.date in idle:
                continue  # reported, or a day nobody delivered anything (a stand-down): not the check's miss
            said = next((c for c in claims if c.slot == slot and c.day.isoformat() == gap.date), None)
            how = "未提及" if said is None else "标为迟交已到" if said.state == "late" else "标为 ✅"
            text = f"{author} {when} 协调检查{how} {slot} {short_date(gap.date)}，实为：{describe_gap(gap)}"
            warnings.append(_warning(
                "gap_unreported", text, "中", f"补报缺口并 @{gap.agent}；协调检查以 baton 棒位表为准",
                [note.path] + ([gap.source] if gap.source else []), f"gap_unreported#{slot}/{gap.date}",
            ))
    return warnings


def idle_days(gaps: Sequence[GapEntry]) -> set[str]:
    """The days on which every slot went missing (a holiday, a stand-down): a team that delivers nothing at all
    has stopped, not missed. Streaks still count them, as schedule.toml has no such days; checks may not."""
    statuses: dict[str, list[str]] = {}
    for gap in gaps:
        statuses.setdefault(gap.date, []).append(gap.status)
    return {day for day, found in statuses.items() if len(found) >= 2 and all(s == "missing" for s in found)}


def _idle_in_streak(gap: GapEntry, idle: set[str]) -> int:
    end = date.fromisoformat(gap.date)
    return sum(1 for back in range(gap.streak) if (end - timedelta(days=back)).isoformat() in idle)


def _since_last_idle(gap: GapEntry, idle: set[str]) -> int:
    """The streak's days after its last day nobody delivered (a count restarted after a stand-down)."""
    end = date.fromisoformat(gap.date)
    return next((back for back in range(gap.streak) if (end - timedelta(days=back)).isoformat() in idle), gap.streak)


def _check_one(claim: Claim, gap: GapEntry, author: str, when: str, idle: set[str] = frozenset()) -> BriefWarning | None:
    subject = f"{claim.slot}/{claim.day.isoformat()}"
    day = short_date(claim.day)
    if claim.state == "open" and gap.arrived is not None and gap.arrived <= claim.checked_at:
        on_time = "按时" if gap.status == "met" else "迟交"
        text = (f"误报：{author} {when} 协调笔记称 {claim.slot} {day} 未交"
                f"{f'（第 {claim.streak} 日缺口）' if claim.streak else ''}，"
                f"但 {gap.source} 已于 {short_date(gap.arrived.date())} {gap.arrived.strftime('%H:%M')} 到达（{on_time}）")
        return _warning("false_alarm", text, "中", f"撤回对 {claim.slot.split('/')[0]} 的补交要求，更正协调笔记",
                        [claim.source] + ([gap.source] if gap.source else []), f"false_alarm#{subject}")
    if claim.state == "met" and gap.status == "late" and gap.arrived is not None and gap.due is not None:
        # Said on time, came late: a late delivery is still a delivery, but the streak counts it.
        text = (f"{author} {when} 协调笔记称 {claim.slot} {day} 按时，实为迟交："
                f"{gap.source or '该笔记'} {gap.arrived.strftime('%H:%M')} 到达，due {gap.due.strftime('%H:%M')}")
        return _warning("late_unreported", text, "低", "更正协调笔记为迟交；连续计数以棒位表为准",
                        [claim.source] + ([gap.source] if gap.source else []), f"late_unreported#{subject}")
    if claim.state == "open" and claim.streak and gap.status in ("late", "missing") and claim.streak != gap.streak:
        skipped = _idle_in_streak(gap, idle)
        since = _since_last_idle(gap, idle)
        if skipped and claim.streak in (gap.streak - skipped, gap.streak - skipped + 1, since):
            return None  # the check leaves out the days nobody delivered, or counts anew after them: another basis
        text = (f"{author} {when} 协调笔记称 {claim.slot} 第 {claim.streak} 日缺口，"
                f"棒位记录为第 {gap.streak} 日（{day}；按 schedule.toml 逐日连续计数"
                f"{f'，其中 {skipped} 天全队无交付' if skipped else ''}）")
        return _warning("streak_mismatch", text, "低", "以棒位表的连续计数为准",
                        [claim.source], f"streak_mismatch#{subject}")
    return None
