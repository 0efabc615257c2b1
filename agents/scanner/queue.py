"""The one parser of the work queue (``organized/queue/work-queue.md``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from agents.scanner.arxiv_ids import find_arxiv_refs

__all__ = ["QueueRow", "QueueSnapshot", "parse_queue", "latest_snapshot", "claimed_flag"]

# A note saying what the queue flags a paper: "work-queue 标 Top 0.5", "队列里是 Top 15", "queue flag: Top 0.5",
# "flagged Top 0.5 in the work-queue". The flags are the format spec's (Top 0.5, Top 15).
_FLAG = r"Top\s*(?:0\.5|15)(?![\d.%]|\s*(?:ms|s\b|×|x\b|倍|%))"
_CLAIMED = re.compile(
    r"(?:work-?queue|精读队列|阅读队列|队列|\bqueue\b)[^，。；;\n]{0,12}?(?P<a>" + _FLAG + r")|"
    r"(?P<b>" + _FLAG + r")[^，。；;\n]{0,16}?(?:work-?queue|精读队列|阅读队列|\bqueue\b)", re.IGNORECASE)


def claimed_flag(line: str) -> tuple[str, int] | None:
    """The queue flag a note's line says a paper has ("Top 0.5") and where on the line it is said; None
    when the line says none."""
    match = _CLAIMED.search(line)
    if match is None:
        return None
    flag = re.sub(r"\s+", " ", match.group("a") or match.group("b"))
    return "Top " + flag[3:].strip(), match.start()

_SNAPSHOT = re.compile(r"^##\s+(\d{4}-\d{2}-\d{2})\s+(\d{1,2}:\d{2})\s*$")


@dataclass
class QueueRow:
    """One row of a snapshot: rank, arXiv id, title, card number and flag."""

    rank: int
    arxiv: str
    title: str
    card: int | None
    flag: str | None


@dataclass
class QueueSnapshot:
    """One ``## YYYY-MM-DD HH:MM`` snapshot of the queue."""

    taken: datetime
    rows: list[QueueRow] = field(default_factory=list)

    def flag_of(self, identifier: str) -> str | None:
        """The flag of ``identifier`` in this snapshot (None when absent or unflagged)."""
        return next((row.flag for row in self.rows if row.arxiv == identifier), None)


def _row(cells: list[str]) -> QueueRow | None:
    if len(cells) < 5 or not cells[0].isdigit():
        return None
    refs = [ref for ref in find_arxiv_refs(cells[1]) if not ref.malformed]
    if not refs:
        return None
    card = int(cells[3]) if cells[3].isdigit() else None
    return QueueRow(int(cells[0]), refs[0].id, cells[2], card, cells[4] or None)


def parse_queue(text: str, tz: ZoneInfo) -> list[QueueSnapshot]:
    """Every snapshot of the queue, in file order."""
    snapshots: list[QueueSnapshot] = []
    for line in text.split("\n"):
        match = _SNAPSHOT.match(line.strip())
        if match:
            try:
                taken = datetime.fromisoformat(f"{match.group(1)}T{int(match.group(2).split(':')[0]):02d}:"
                                               f"{match.group(2).split(':')[1]}").replace(tzinfo=tz)
            except ValueError:
                continue
            snapshots.append(QueueSnapshot(taken))
            continue
        if snapshots and line.strip().startswith("|"):
            cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
            row = _row(cells)
            if row:
                snapshots[-1].rows.append(row)
    return snapshots


def latest_snapshot(snapshots: list[QueueSnapshot], at: datetime) -> QueueSnapshot | None:
    """The newest snapshot taken at or before ``at``."""
    eligible = [snap for snap in snapshots if snap.taken <= at]
    return max(eligible, key=lambda snap: snap.taken) if eligible else None
