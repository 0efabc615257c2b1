"""Figures an item states that another subject's sources gave earlier: a re-quote, not the item's news.

A page read today may restate a benchmark another page published ("MortalApps: SGLang ~16,200 tok/s vs
vLLM ~12,500 tok/s" where a scout noted the same two numbers from Winder.ai in the morning). Two or more
distinctive numbers of one line (a grouped thousand, a decimal, three digits or more; years aside) found
together on one line of another item, written earlier and not naming this item, are that line's figures:
the brief says where they were seen and does not call them today's new numbers.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from agents.integrator.cluster import Item
from agents.scanner.e1_format import is_brief_path, is_coordination_path

__all__ = ["Echo", "echoed_figures"]

_DISTINCT = re.compile(r"(?<![\w.])(?:\d{1,3}(?:,\d{3})+|\d+\.\d+|\d{3,})(?![\w.,]*\d)")
_YEAR = re.compile(r"(?:19|20)\d\d")


@dataclass(frozen=True)
class Echo:
    """A figure of the item and the earlier line of another item that gives the same numbers."""

    figure: str  # the figure as the item's source wrote it
    other: str  # the other item's title
    path: str
    line: int


def is_note_path(path: str) -> bool:
    """A scout's own note (not a brief or a coordination record relaying others)."""
    return path.startswith("inbox/") and not is_brief_path(path) and not is_coordination_path(path)


def _distinctive(number: str) -> bool:
    """Not a year, a power of two (128, 4096: sizes) or a round hundred (300, 2000: settings)."""
    if _YEAR.fullmatch(number) or "." in number:
        return not _YEAR.fullmatch(number)
    value = int(number)
    return not (value & (value - 1) == 0 or (value % 100 == 0 and value < 10000))


def _numbers(text: str) -> set[str]:
    return {n for n in (m.replace(",", "") for m in _DISTINCT.findall(text)) if _distinctive(n)}


def _units(item: Item) -> list[tuple[str, int, str]]:
    """(path, line, text) units of an item's passages: a line, or a whole table (its rows read together:
    a column of a table gives one engine's numbers per row)."""
    units: list[tuple[str, int, str]] = []
    for passage in item.passages:
        table: list[tuple[int, str]] = []
        for number, line in [*passage.lines, (-1, "")]:
            if line.lstrip().startswith("|"):
                table.append((number, line))
                continue
            if table:
                units.append((passage.path, table[0][0], "\n".join(row for _, row in table)))
                table = []
            if number >= 0:
                units.append((passage.path, number, line))
    return units


def echoed_figures(item: Item, others: Sequence[Item], when: Mapping[str, datetime | None],
                   title_of: Callable[[Item], str], names_item: Callable[[str], bool]) -> list[Echo]:
    """The item's figures whose numbers another item's line gave earlier (``when``: a path's time).

    ``names_item(line)`` tells a line that names this item (then it is the same subject, not an echo).
    """
    found: list[Echo] = []
    for figure in item.figures:
        mine = _numbers(figure.context or figure.raw)
        if len(mine) < 2 or not is_note_path(figure.source):
            continue
        written = when.get(figure.source)
        for other in others:
            if other.key == item.key or other.keys & item.keys:
                continue
            hit = next(((path, number) for path, number, text in _units(other)
                        if path != figure.source and len(mine & _numbers(text)) >= 2 and not names_item(text)
                        and written is not None and (when.get(path) or written) < written), None)
            if hit is not None:
                found.append(Echo(figure.raw, title_of(other), *hit))
                break
    return found
