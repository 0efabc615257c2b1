"""Figures an item states that another subject's sources gave earlier: a re-quote, not the item's news.

A page read today may restate a benchmark another page published ("MortalApps: SGLang ~16,200 tok/s vs
vLLM ~12,500 tok/s" where a scout noted the same two numbers from Winder.ai in the morning). Two or more
distinctive numbers of one line (a grouped thousand, a decimal, three digits or more; years aside) found
together on one line of another item, written earlier and not naming this item, are that line's figures:
the brief says where they were seen and does not call them today's new numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from agents.integrator.cluster import Item
from agents.integrator.select import DISTINCT_NUMBER, YEAR
from agents.scanner.e1_format import is_relay_path

__all__ = ["Echo", "EchoIndex", "echoed_figures"]


@dataclass(frozen=True)
class Echo:
    """A figure of the item and the earlier line of another item that gives the same numbers."""

    figure: str  # the figure as the item's source wrote it
    other: str  # the other item's title
    path: str
    line: int


def _distinctive(number: str) -> bool:
    """Not a year, a power of two (128, 4096: sizes) or a round hundred (300, 2000: settings)."""
    if YEAR.fullmatch(number):
        return False
    if "." in number:
        return True
    value = int(number)
    return not (value & (value - 1) == 0 or (value % 100 == 0 and value < 10000))


def _numbers(text: str) -> frozenset[str]:
    return frozenset(n for n in (m.replace(",", "") for m in DISTINCT_NUMBER.findall(text)) if _distinctive(n))


@dataclass(frozen=True)
class _Unit:
    """A line of an item's passages, or a whole table (its rows read together: a column gives one
    engine's numbers per row), with its distinctive numbers."""

    item: Item
    path: str
    line: int
    text: str
    numbers: frozenset[str]


class EchoIndex:
    """The day's items' lines and tables with their numbers, read once for every increment's check."""

    def __init__(self, items: Sequence[Item], when: Mapping[str, datetime | None]) -> None:
        self.when = when
        self.units: list[_Unit] = []
        for item in items:
            for passage in item.passages:
                table: list[tuple[int, str]] = []
                for number, line in [*passage.lines, (-1, "")]:
                    if line.lstrip().startswith("|"):
                        table.append((number, line))
                        continue
                    if table:
                        text = "\n".join(row for _, row in table)
                        self._add(item, passage.path, table[0][0], text)
                        table = []
                    if number >= 0:
                        self._add(item, passage.path, number, line)

    def _add(self, item: Item, path: str, line: int, text: str) -> None:
        numbers = _numbers(text)
        if len(numbers) >= 2:  # fewer can echo nothing
            self.units.append(_Unit(item, path, line, text, numbers))


def echoed_figures(item: Item, index: EchoIndex, title_of: Callable[[Item], str],
                   names_item: Callable[[str], bool]) -> list[Echo]:
    """The item's figures whose numbers another item's line gave earlier.

    ``names_item(line)`` tells a line that names this item (then it is the same subject, not an echo).
    """
    found: list[Echo] = []
    for figure in item.figures:
        mine = _numbers(figure.context or figure.raw)
        written = index.when.get(figure.source)
        if len(mine) < 2 or written is None or not figure.source.startswith("inbox/") or is_relay_path(figure.source):
            continue
        hit = next((u for u in index.units
                    if u.item.key != item.key and not (u.item.keys & item.keys) and u.path != figure.source
                    and len(mine & u.numbers) >= 2 and (index.when.get(u.path) or written) < written
                    and not names_item(u.text)), None)
        if hit is not None:
            found.append(Echo(figure.raw, title_of(hit.item), hit.path, hit.line))
    return found
