"""The one parser of the contradiction register (``organized/registry/contradictions.md``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

__all__ = ["RegisterEntry", "parse_register", "D_NUMBER"]

D_NUMBER = re.compile(r"\bD(\d{2,5})\b")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass
class RegisterEntry:
    """One numbered row: a contradiction or a claim awaiting verification."""

    d: str
    number: int
    text: str
    risk: str
    raised: date | None
    status: str
    source: str

    @property
    def closed(self) -> bool:
        """True when the status says the entry was settled."""
        return self.status.startswith("已闭合")


def parse_register(text: str) -> list[RegisterEntry]:
    """Every table row whose first cell is a D-number."""
    entries = []
    for line in text.split("\n"):
        if not line.strip().startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 6:
            continue
        match = re.fullmatch(r"D(\d+)", cells[0])
        if not match:
            continue
        raised_match = _DATE.search(cells[3])
        raised = date.fromisoformat(raised_match.group(0)) if raised_match else None
        entries.append(RegisterEntry(cells[0], int(match.group(1)), cells[1], cells[2], raised, cells[4], cells[5]))
    return entries
