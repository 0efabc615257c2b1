"""The one parser of earlier E1 briefs: their D-numbers, increments and citable arXiv list.

Briefs are free Markdown written by people and instances; the D-numbers
appear in a handful of shapes, all of which occur in the vault:

- a raised item with its text: ``D195：vLLM 0.3.3 与 v0.30.0 版本号差异（⭐⭐⚬）``,
  ``⚠️ C1 → 登记 D195：…``, ``D190（⚠⚬⚬）MCP …``, a summary row ``D195 ⚠⚠⚬ … 中``;
- an inline status: ``D183 新增（WRP trace 未公开）``, ``D172 闭合：…``;
- a carried item with new text: ``C1（沿用 D195 修订）：…``;
- a range: ``新开矛盾/待核：D190-D194``, ``沿用：D180–D194 …``, ``D170…D173``;
- a plain reference (``D198/D200/D202``).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Literal
from zoneinfo import ZoneInfo

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.caveats import RISK_OF_MARKS, RISK_ORDER
from agents.scanner.derived import Derivation, derive_many, from_wall, wall
from agents.scanner.e1_format import INCREMENT_HEAD, PART_LINE, is_brief_name
from agents.scanner.notes import VaultFile, in_path_order

__all__ = [
    "BriefItem",
    "BriefPaper",
    "BriefRecord",
    "is_brief_name",
    "parse_brief",
    "parse_brief_text",
    "list_briefs",
    "brief_derivation",
    "risk_of_mark",
]

Role = Literal["raised", "carried", "closed", "mentioned"]

_MARKS = "⚠⚬⭐★☆"
_LEAD = re.compile(r"^[\s#>*•\-]*(?:⚠️|⚠\ufe0f)?\s*")
_RANGE = re.compile(r"D(\d{1,4})\s*(?:[-–—~～]|…+|\.\.\.)\s*D?(\d{1,4})(?!\d)")
_RAISED = re.compile(
    r"^(?:C\d+\s*(?:→|->)\s*)?(?:登记\s*)?D(?P<n>\d{3,4})"
    rf"(?:\s*[：:]\s*|\s*[（(](?P<risk>[{_MARKS}]+)[）)]\s*|\s+(?P<risk2>[{_MARKS}]+)\s+)(?P<text>\S.*)$"
)
# A warning heading naming its number: "⚠️ C1（沿用 D195 修订）：…" carries it, "⚠️ C2（新增 D231）：…" raises it.
_CARRIED_WITH_TEXT = re.compile(r"[（(](?P<word>沿用|新增|新开|登记)\s*D(?P<n>\d{3,4})[^）)]*[）)]\s*[：:]\s*(?P<text>\S.*)$")
_STATUS = re.compile(
    r"D(?P<n>\d{3,4})\s*(?P<word>新增|闭合|沿用|补记|续记|更新|跟进)\s*(?:[：:]\s*(?P<t1>[^；;]+)|[（(](?P<t2>[^）)]*)[）)])?"
)
_PLAIN = re.compile(r"(?<![\w])D(\d{3,4})(?!\d)")
# An entry's line that updates it: it starts with an update word or ends saying it stays open.
_UPDATE = re.compile(r"^(?:升级|降级|补记|续记|更新|追加|补充|跟进|updated?\b|upgraded?\b|downgraded?\b)|"
                     r"(?:^|[，,；;。\s])(?:沿用|续立|继续沿用|保持开放|仍开放|carried(?: over)?|still open)\s*[。.]?\s*$",
                     re.IGNORECASE)
_INNER_MARK = re.compile(rf"[（(][{_MARKS}]+[）)]")
_TRAILING_MARK = re.compile(rf"\s*[（(][{_MARKS}]+[）)]\s*$")
_TRAILING_RISK = re.compile(r"\s+(?:中低|中高|中|低|高)\s*$")
_SECTION = PART_LINE
_INCREMENT = INCREMENT_HEAD
_TITLE_STOP = re.compile(r"[（(：:⭐★→—§]|\s[—–-]\s|\s·\s|\s·\s*$")


@dataclass(frozen=True)
class BriefItem:
    """One D-number as a brief writes it."""

    number: int
    role: Role
    text: str
    risk: str | None
    line: int

    @property
    def d(self) -> str:
        """The number as the team writes it: ``D195``."""
        return f"D{self.number}"


@dataclass(frozen=True)
class BriefPaper:
    """An arXiv identifier a brief lists (an increment or a citable number) and the title it gives."""

    arxiv: str
    title: str
    line: int


@dataclass
class BriefRecord:
    """What an earlier brief says: its D-numbers, its increments' papers, its citable arXiv list.

    ``time`` is the brief's moment (``VaultFile.time``: front matter, name or body), so that
    "as of" another brief can tell whether this one was written before it.
    """

    path: str
    day: date | None
    agent: str | None
    slug: str
    items: list[BriefItem] = field(default_factory=list)
    increments: list[BriefPaper] = field(default_factory=list)
    citable: list[BriefPaper] = field(default_factory=list)
    time: datetime | None = None
    by_baton: bool = False  # published by baton (front matter ``generated_by: baton …``): its own record

    def raised(self) -> list[BriefItem]:
        """Items this brief raises with a text (one per number, the first and fullest)."""
        best: dict[int, BriefItem] = {}
        for item in self.items:
            if item.role == "raised" and item.text:
                if item.number not in best or len(item.text) > len(best[item.number].text):
                    best[item.number] = item
        return [best[n] for n in sorted(best)]

    def numbers(self) -> set[int]:
        """Every D-number the brief names, ranges expanded."""
        return {item.number for item in self.items}


def risk_of_mark(mark: str | None) -> str | None:
    """The risk a register row or a brief gives ("中低", or a mark ⚠⚬⚬ read by the vault's legend), kept
    at its own grade: an entry carried forward keeps the risk it was raised with."""
    if not mark:
        return None
    mark = mark.strip()
    if mark in RISK_ORDER:
        return mark
    if mark in RISK_OF_MARKS:  # the vault's legend: ⚠⚠⚬ 中, ⚠⚬⚬ 中低, ⚠⚬ 低
        return RISK_OF_MARKS[mark]
    strong = sum(1 for ch in mark if ch in "⚠⭐★")
    return "高" if strong >= 3 else "中" if strong == 2 else "低"


def _clean_text(text: str) -> str:
    text = _INNER_MARK.sub("", text.strip())
    text = re.split(r"\s+→\s+", text)[0]
    text = _TRAILING_MARK.sub("", text)
    text = _TRAILING_RISK.sub("", text)
    return text.strip(" ：:—-·").strip()


def _items_of_line(line: str, index: int) -> list[BriefItem]:
    items: list[BriefItem] = []
    body = _LEAD.sub("", line, count=1)
    taken: list[tuple[int, int]] = []
    for match in _RANGE.finditer(body):
        low, high = int(match.group(1)), int(match.group(2))
        if not 0 < high - low < 200:
            continue
        before = body[max(0, match.start() - 14):match.start()]
        role: Role = "raised" if re.search(r"新增|新开|登记", before) else (
            "carried" if "沿用" in body else "mentioned")
        items.extend(BriefItem(n, role, "", None, index) for n in range(low, high + 1))
        taken.append(match.span())
    raised = _RAISED.match(body)
    if raised and not taken:
        risk = raised.group("risk") or raised.group("risk2")
        text = raised.group("text")
        tail = _INNER_MARK.search(text)
        row_risk = re.search(r"\s(中低|中高|中|低|高)\s*$", text)
        risk = risk or (tail.group(0).strip("（）()") if tail else None) or (row_risk.group(1) if row_risk else None)
        # "D179：升级为"已复现、未修复"，沿用": an update of an open entry carries it, it raises nothing new.
        role: Role = "carried" if _UPDATE.search(text) else "raised"
        items.append(BriefItem(int(raised.group("n")), role, _clean_text(text), risk, index))
        return items
    carried = _CARRIED_WITH_TEXT.search(body)
    if carried:
        role = "carried" if carried.group("word") == "沿用" else "raised"
        items.append(BriefItem(int(carried.group("n")), role, _clean_text(carried.group("text")), None, index))
        taken.append(carried.span())
    for match in _STATUS.finditer(body):
        if any(s <= match.start() < e for s, e in taken):
            continue
        # "D200 补记：C2C … 仍未见": a follow-up on an open entry carries it, with today's words.
        role = {"新增": "raised", "闭合": "closed"}.get(match.group("word"), "carried")
        text = _clean_text(match.group("t1") or match.group("t2") or "")
        items.append(BriefItem(int(match.group("n")), role, text, None, index))
        taken.append(match.span())
    for match in _PLAIN.finditer(body):
        if any(s <= match.start() < e for s, e in taken):
            continue
        items.append(BriefItem(int(match.group(1)), "mentioned", "", None, index))
    return items


def _title_after(line: str, end: int) -> str:
    rest = line[end:].lstrip(" ·：:—-")
    if rest.startswith(("/", "）", ")")):
        return ""
    stop = _TITLE_STOP.search(rest)
    title = rest[:stop.start()] if stop else rest
    if re.search(r"\d{4}\.\d{4,5}", title):
        title = re.split(r"\s*[/·]\s*\d{4}\.\d{4,5}", title)[0]
    return title.strip(" ·/")


def _title_before(line: str, start: int) -> str:
    head = re.sub(r"arXiv\s*[:：]?\s*$", "", line[:start], flags=re.IGNORECASE).rstrip(" （(")
    head = _INCREMENT.sub("", head)
    head = re.split(r"[：:；;，,、]", head)[-1]
    if re.search(r"\d{4}\.\d{4,5}|/\s*$", head):
        return ""
    return head.strip(" ·")


def _papers_of_line(line: str, index: int, *, increment: bool) -> list[BriefPaper]:
    papers = []
    for ref in find_arxiv_refs(line):
        if ref.malformed:
            continue
        bracketed = re.search(r"[（(]\s*(?:arXiv\s*[:：]?\s*)?$", line[:ref.start], re.IGNORECASE)
        title = "" if bracketed else _title_after(line, ref.end)
        if not title and (increment or bracketed):
            title = _title_before(line, ref.start)
        papers.append(BriefPaper(ref.id, title, index))
    return papers


def parse_brief_text(path: str, text: str, day: date | None = None, agent: str | None = None,
                     slug: str = "", time: datetime | None = None) -> BriefRecord:
    """Parse a brief's text (front matter already removed or harmless); ``time`` is its moment when known."""
    record = BriefRecord(path=path, day=day, agent=agent, slug=slug, time=time)
    section = ""
    citable = False
    for index, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        heading = _SECTION.match(line)
        if heading:
            section = heading.group(1)
            citable = "可引用" in line or "citable" in line.lower()
            # Short briefs put the whole section on its heading line ("三、矛盾/待核：D183 新增（…）").
            record.items.extend(_items_of_line(line[heading.end():], index))
            continue
        record.items.extend(_items_of_line(line, index))
        if citable:
            record.citable.extend(_papers_of_line(line, index, increment=False))
        elif section == "二" and _INCREMENT.match(line):
            record.increments.extend(_papers_of_line(line, index, increment=True))
    return record


def parse_brief(file: VaultFile) -> BriefRecord:
    """Parse one brief file as read by ``read_vault_file``."""
    record = parse_brief_text(file.path, file.body or file.text or "", file.name.day, file.agent, file.slug, file.time)
    record.by_baton = str(file.front.data.get("generated_by", "")).startswith("baton")
    return record


def list_briefs(root: Path, tz: ZoneInfo, until: date | None = None) -> list[BriefRecord]:
    """Parse every brief of the vault (``inbox/*/*-e1prep.md``) dated on or before ``until``, oldest first.

    Every brief, also those written after the brief being made: a new D-number follows the highest
    ever used. What a brief may *know* is decided later, by each sighting's moment (``BriefRecord.time``).
    Each brief's record is kept by the run's vault index: an unchanged brief is not parsed again.
    """
    paths = [path for path in in_path_order((root / "inbox").glob("*/*.md")) if is_brief_name(path.name)]
    records = [record for record in derive_many(root, paths, tz, brief_derivation(tz))
               if record is not None and (until is None or record.day <= until)]  # type: ignore[operator]
    records.sort(key=lambda r: (r.day or date.min, r.time.timestamp() if r.time else 0.0, r.path))
    return records


def _dated_record(file: VaultFile) -> BriefRecord | None:
    """The record of a dated, readable brief; None for one ``list_briefs`` leaves out."""
    if file.name.day is None or file.text is None:
        return None
    return parse_brief(file)


@functools.lru_cache(maxsize=8)
def brief_derivation(tz: ZoneInfo) -> Derivation[BriefRecord | None]:
    """How the vault index keeps a brief's record (bump ``version`` when the parse above changes)."""

    def encode(record: BriefRecord | None) -> object:
        if record is None:
            return None
        return {"path": record.path, "day": record.day.isoformat() if record.day else None, "agent": record.agent,
                "slug": record.slug, "time": wall(record.time, tz),
                "items": [[i.number, i.role, i.text, i.risk, i.line] for i in record.items],
                "increments": [[p.arxiv, p.title, p.line] for p in record.increments],
                "citable": [[p.arxiv, p.title, p.line] for p in record.citable], "by_baton": record.by_baton}

    def decode(raw: object) -> BriefRecord | None:
        if raw is None:
            return None
        data: dict = raw  # type: ignore[assignment]
        return BriefRecord(
            path=data["path"], day=date.fromisoformat(data["day"]) if data["day"] else None, agent=data["agent"],
            slug=data["slug"], time=from_wall(data["time"], tz),
            items=[BriefItem(*item) for item in data["items"]],
            increments=[BriefPaper(*paper) for paper in data["increments"]],
            citable=[BriefPaper(*paper) for paper in data["citable"]], by_baton=bool(data.get("by_baton")))

    return Derivation("brief_record", 2, _dated_record, encode, decode)
