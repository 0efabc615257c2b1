"""Figures an item states that another subject's sources gave earlier: flagged as a re-quote.

Phrasings and numbers here are invented (not the sample vault's).
"""

from __future__ import annotations

from datetime import datetime

import pytest

from agents.integrator.cluster import Item, Passage
from agents.integrator.echoes import EchoIndex, echoed_figures
from state.models import Mention

MORNING = "inbox/lin/2027-03-16T0930-lin-radar.md"
EVENING = "inbox/mei/2027-03-16T1700-mei-evening.md"
WHEN = {MORNING: datetime(2027, 3, 16, 9, 30), EVENING: datetime(2027, 3, 16, 17, 0)}


def _item(key: str, path: str, lines: list[str], figure_line: int | None = None) -> Item:
    numbered = list(enumerate(lines, start=2))
    figures = []
    if figure_line is not None:
        context = lines[figure_line - 2]
        figures = [Mention(source=path, kind="figure", value="x", raw=context.split("：")[-1][:30],
                           line=figure_line, context=context)]
    return Item(key=key, keys={key}, sources=[path], figures=figures,
                passages=[Passage(path, 1, len(lines) + 1, f"## {key}", numbered)])


def _echoes(earlier: list[str], today: str, *, names: str = "corvid", swap_times: bool = False):
    when = dict(WHEN)
    if swap_times:
        when = {MORNING: WHEN[EVENING], EVENING: WHEN[MORNING]}
    other = _item("note:lumen", MORNING, earlier)
    item = _item("url:https://corvid.example/blog", EVENING, [today], figure_line=2)
    return echoed_figures(item, EchoIndex([other, item], when), lambda i: i.key, lambda line: names in line.lower())


@pytest.mark.parametrize(("earlier", "today"), [
    (["- Lumen 横评：Quill 23,400 tok/s，Heron 18,700 tok/s"], "- 文中给：Quill ~23,400 vs Heron ~18,700 tok/s"),
    (["| 引擎 | 吞吐 |", "|---|---|", "| Quill | 23,400 |", "| Heron | 18,700 |"],  # a table's column
     "- Quill 23,400 tok/s vs Heron 18,700 tok/s（H100）"),
    (["- p50 -63.7%，p99 -88.2%（Lumen 复测）"], "- 调优后 P50 延迟 -63.7%、P99 -88.2%"),
    (["- throughput 3,150 req/s vs 2,470 req/s on 8×H200"], "- they report 3150 vs 2470 req/s"),
])
def test_numbers_another_subject_gave_earlier_are_a_re_quote(earlier: list[str], today: str) -> None:
    [echo] = _echoes(earlier, today)
    assert echo.path == MORNING and echo.other == "note:lumen"


@pytest.mark.parametrize(("earlier", "today", "kwargs"), [
    # one number in common is a coincidence, not a re-quote
    (["- Quill 23,400 tok/s"], "- Quill 23,400 vs Heron 18,900 tok/s", {}),
    # sizes and round settings are everyone's numbers
    (["- 512-token prompts, 128 outputs, batch 300"], "- 512 in / 128 out, batch 300, 41.7 ms", {}),
    # years are no figures
    (["- 2026 与 2027 两版"], "- 2026→2027：吞吐 2,310 tok/s", {}),
    # the earlier line names this item: the same subject, not another's figures
    (["- Corvid 博客：Quill 23,400 vs Heron 18,700"], "- Quill ~23,400 vs Heron ~18,700 tok/s", {}),
    # the other source wrote later: it re-quotes this one, not the other way round
    (["- Lumen：Quill 23,400，Heron 18,700"], "- Quill ~23,400 vs Heron ~18,700 tok/s", {"swap_times": True}),
    # different numbers altogether
    (["- Quill 23,400 vs Heron 18,700"], "- Quill 24,100 vs Heron 17,900 tok/s", {}),
])
def test_near_misses_are_no_re_quote(earlier: list[str], today: str, kwargs: dict) -> None:
    assert _echoes(earlier, today, **kwargs) == []
