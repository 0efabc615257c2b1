"""A lead's stand-down or suspension notice, read from the notes as text: days no slot (or named slots) is due.

Leads announce holidays and pauses in their own words, and the coordinator quotes them in the noon note:
"9-30、10-01、10-02 三天全员停棒：不交东西，不算缺口", "agent-e1prep 和 risk-e1prep 暂停到 10-08，不交不记缺口",
"| spark | agent-e1prep | 12:00 | 暂停到 10-08（lead 通知），不记 |", "All slots stand down Oct 1–3, no gaps
counted". Such a day is excused: no gap, no alert, and a streak neither grows nor restarts over it (the
schedule's rule for an excused day). A notice counts from the moment its note is visible, as of the brief.

A notice needs a pause word and either "not counted" or a whole-team scope, and a scope (the whole team, slots
by name, or the status-table row it stands in) and days (listed, a range, or "until" a day).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime, timedelta

from agents.coordinator.claims import read_coordination_notes
from agents.scanner.notes import VaultFile
from state.db import Database
from state.tables.coordination import load_excuses
from state.vault_config import Slot, VaultConfig

__all__ = ["notice_excuses", "read_notice", "excuses_as_of", "NOTICE_DAYS"]

NOTICE_DAYS = 21  # the coordination notes read for notices: a pause is announced at most this long before

_PAUSE = re.compile(r"停棒|停更|停工|暂停|全员停|全员休|放假|休假|假期|停交|不交(?:东西)?|(?<![不没])歇(?:[一两二三四五几]天)?|"
                    r"不值班|停摆|(?:定时任务|流水线|cron)[^，。；\n]{0,8}?(?:关掉|关停|停掉|停了)|"
                    r"\bstand(?:s|ing)?[- ]?down\b|\bpaused?\b|\bsuspended\b|\bon hold\b|\boff duty\b|\bno deliver(?:y|ies)\b",
                    re.IGNORECASE)
_NOT_COUNTED = re.compile(r"不算缺口|不记缺口|不计缺口|不记|不计|不算|不追|免交|"
                          r"\bexcused\b|\bnot count(?:ed)?\b|\bno gaps?\b|\bdo(?:n't| not) count\b", re.IGNORECASE)
_WHOLE_TEAM = re.compile(r"全员|全队|全组|所有棒位|所有人|全部棒位|各棒位|整条流水线|全流水线|所有\s*(?:agents?|实例|定时任务)|"
                         r"\bthe whole pipeline\b|\beveryone\b|\ball (?:slots|agents|hands)\b|"
                         r"\bwhole team\b|\bthe team\b", re.IGNORECASE)
# "不停棒", "没有暂停", "not paused": said to deny a pause.
_DENIED = re.compile(r"(?:不|没有|并未|未|别|\bnot\b|\bno longer\b)\s*$", re.IGNORECASE)
_DAY = r"(?:(?P<{p}y>\d{{4}})[-/.年])?(?P<{p}m>\d{{1,2}})\s*[-/.月]\s*(?P<{p}d>\d{{1,2}})\s*日?"
_ONE_DAY = re.compile(r"(?<![\d.:])" + _DAY.format(p="a") + r"(?![\d:])")
_RANGE = re.compile(r"(?<![\d.:])" + _DAY.format(p="a") + r"\s*(?:~|～|–|—|-{1,2}|至|到|through|to)\s*(?:"
                    + _DAY.format(p="b") + r"|(?P<bd2>\d{1,2})\s*日?)(?![\d:])", re.IGNORECASE)
# "10 月 1 日、2 日": a day after a listed one, its month left out.
_MORE_DAYS = re.compile(r"^\s*[、,，和及与&]\s*(\d{1,2})\s*日")
_UNTIL = re.compile(r"(?:到|至|直到|\buntil\b|\btill\b)\s*" + _DAY.format(p="u"), re.IGNORECASE)
# A pause asked for, proposed or pending, not decided: no notice.
_UNDECIDED = re.compile(r"申请|请求|提议|想要?|打算|未批|待批|没批|不批|未获批|未同意|还没回|尚未批|"
                        r"\brequest(?:s|ed)?\b|\bpropos(?:es|ed|al)\b|\basks? (?:to|for)\b|\bpending\b|"
                        r"\bnot (?:yet )?approved\b|\bawaiting\b", re.IGNORECASE)
_CLAUSE = re.compile(r"[。；;\n]|(?<=[.!?])\s")
_MOMENT_AFTER = re.compile(r"\s*(?:晚上|早上|上午|下午|中午|凌晨|傍晚|夜里|\d{1,2}[:：]\d{2})")
_PIECE = re.compile(r"[，,]")
# A piece about a gap or a late delivery, whose days are not the pause's ("9-22 ~ 9-29 连续 8 日迟交").
_GAP_WORDS = re.compile(r"缺口|未出|未交|迟交|晚交|\bmissing\b|\blate\b|\bgap\b", re.IGNORECASE)


def _year(month: int, near: date, written: str | None) -> int:
    if written:
        return int(written)
    if month > near.month + 6:
        return near.year - 1
    if month < near.month - 6:
        return near.year + 1
    return near.year


def _as_date(year: str | None, month: str, day: str, near: date) -> date | None:
    try:
        return date(_year(int(month), near, year), int(month), int(day))
    except ValueError:
        return None


def _days(clause: str, near: date) -> set[date]:
    """The days a clause names: a list ("9-30、10-01、10-02", "10 月 1 日、2 日"), ranges ("10-01 ~ 10-07"), and
    "until" a day, which the pause ends before ("暂停到 10-08": through 10-07, from the note's day)."""
    found: set[date] = set()
    taken: list[tuple[int, int]] = []
    for match in _UNTIL.finditer(clause):
        end = _as_date(match.group("uy"), match.group("um"), match.group("ud"), near)
        if end is not None and end > near:
            found.update(near + timedelta(days=i) for i in range((end - near).days))
        taken.append(match.span())
    for match in _RANGE.finditer(clause):
        if any(a <= match.start() < b for a, b in taken):
            continue
        start = _as_date(match.group("ay"), match.group("am"), match.group("ad"), near)
        end = (_as_date(match.group("by"), match.group("bm"), match.group("bd"), near) if match.group("bm") else
               _as_date(match.group("ay"), match.group("am"), match.group("bd2"), near) if match.group("bd2") else None)
        if start and end and start <= end and (end - start).days <= 62:
            found.update(start + timedelta(days=i) for i in range((end - start).days + 1))
            taken.append(match.span())
    for match in _ONE_DAY.finditer(clause):
        if any(a <= match.start() < b for a, b in taken) or _MOMENT_AFTER.match(clause, match.end()):
            continue  # "9-29 晚上 lead 拍板", "10-02 早上恢复": a moment something happened, not a paused day
        day = _as_date(match.group("ay"), match.group("am"), match.group("ad"), near)
        if day is None:
            continue
        found.add(day)
        rest = clause[match.end():]
        while (more := _MORE_DAYS.match(rest)) is not None:
            extra = _as_date(None, str(day.month), more.group(1), near)
            if extra is not None:
                found.add(extra)
            rest = rest[more.end():]
    return found


def _scope(clause: str, slots: Sequence[Slot], row: str = "") -> list[str]:
    """The slots a clause pauses: the whole team, slots by name, an agent's slots where the agent is said to be
    away, or the slot of the status-table row it stands in."""
    if _WHOLE_TEAM.search(clause):
        return [s.key for s in slots]
    named = [s.key for s in slots if re.search(rf"(?<![\w-]){re.escape(s.name)}(?![\w-])", clause, re.IGNORECASE)]
    if named:
        return named
    where = row.lower()
    return [s.key for s in slots if where and s.name.lower() in where and s.agent.lower() in where]


def read_notice(text: str, near: date, slots: Sequence[Slot]) -> list[tuple[str, date, str]]:
    """(slot key, day, the clause) for every slot-day a text's notices pause; ``near``: the note's day, for the
    year of a day written without one and for the start of a pause "until" a day."""
    found: list[tuple[str, date, str]] = []
    for line in text.split("\n"):
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.lstrip().startswith("|") else []
        row = " ".join(cells[:-1]) if len(cells) >= 2 else ""
        for clause in ([cells[-1]] if row else _CLAUSE.split(line)):
            if not (_NOT_COUNTED.search(clause) or _WHOLE_TEAM.search(clause)) or _UNDECIDED.search(clause):
                continue  # no notice, or a pause asked for and not granted ("申请暂停到 10-08，lead 未批")
            pieces = _PIECE.split(clause)
            at = next((i for i, piece in enumerate(pieces) for m in _PAUSE.finditer(piece)
                       if not _DENIED.search(piece[max(0, m.start() - 4):m.start()])), None)
            if at is None:
                continue
            # The days and the scope of the piece that pauses ("…三天全员停棒：不交东西"), else of a piece before
            # it in prose (not what comes after: "10-03 接着数" resumes), never of a piece about a gap.
            days = _days(pieces[at], near)
            before = [] if row else [p for p in reversed(pieces[:at]) if not _GAP_WORDS.search(p)]
            for piece in before:
                if days:
                    break
                days = _days(piece, near)
            keys = _scope(pieces[at], slots, row) or next(
                (keys for piece in before if (keys := _scope(piece, slots))), [])
            quoted = clause.strip()[:160]
            found.extend((key, day, quoted) for key in keys for day in sorted(days))
    return found


def notice_excuses(notes: Iterable[VaultFile], slots: Sequence[Slot],
                   as_of: datetime | None = None) -> Mapping[tuple[str, date], str]:
    """Slot-day → "停棒：<the notice>（<note>）" for the pauses the notes announce, as of ``as_of`` (a note written
    later is not known yet); the first notice of a slot-day wins."""
    excuses: dict[tuple[str, date], str] = {}
    known = [n for n in notes if n.name.day is not None and n.time is not None and (as_of is None or n.time <= as_of)]
    for note in sorted(known, key=lambda f: (f.time, f.path)):
        for key, day, clause in read_notice(note.body, note.name.day, slots):  # type: ignore[arg-type]
            excuses.setdefault((key, day), f"停棒：「{clause}」（{note.path}）")
    return excuses


def excuses_as_of(db: Database, cfg: VaultConfig, day: date, as_of: datetime | None) -> dict[tuple[str, date], object]:
    """Every excused slot-day the coordinator knows as of ``as_of``: the notices of the coordination notes of the
    ``NOTICE_DAYS`` days up to ``day``, and the decisions recorded with ``baton excuse`` (which win)."""
    notes = read_coordination_notes(cfg, day - timedelta(days=NOTICE_DAYS), day)
    return {**notice_excuses(notes, cfg.schedule.slot, as_of), **load_excuses(db)}
