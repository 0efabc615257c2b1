"""The gaps as a picture: a standalone SVG heatmap of slots × days, with the legend and the warnings."""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from xml.sax.saxutils import escape

from agents.coordinator.slots import short_date
from state.models import BriefWarning, GapEntry

__all__ = ["render_gaps_svg", "text_width", "COLOURS", "LABELS", "TEXT_COLOURS", "WARNING_LABELS"]

COLOURS = {"met": "#4caf50", "late": "#ffb300", "missing": "#e53935", "excused": "#9e9e9e"}
LABELS = {"met": "按时 met", "late": "迟交 late", "missing": "缺失 missing", "excused": "请假 excused"}
# Text drawn on a cell: dark on amber (white on #ffb300 is ~1.9:1), white on red.
TEXT_COLOURS = {"met": "#1b1b1b", "late": "#1b1b1b", "missing": "#ffffff", "excused": "#1b1b1b"}
WARNING_LABELS = {"false_alarm": "误报", "gap_unreported": "漏报缺口", "streak_mismatch": "连续日数不符"}
_NOT_DUE = "#f0f0f0"
_STREAK_LABEL = "数字 = 连续缺口日数 · 小字 = 到达时间"

_CELL = 44
_GAP = 4
_LEFT = 200
_TOP = 64
_MARGIN = 16
_SIZE = 12  # the default font size
_LINE = 18  # the height of one line of warnings
_MIN_WIDTH = 720  # room for warnings, whose lines wrap to the picture's width
_FONT = ("font-family=\"'Noto Sans CJK SC','Noto Sans SC','Source Han Sans SC','WenQuanYi Micro Hei',"
         "'PingFang SC','Microsoft YaHei',sans-serif\"")


def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def text_width(text: str, size: float = _SIZE) -> float:
    """A generous estimate of ``text``'s drawn width: CJK and full-width characters one em, others 0.62 em."""
    return sum(size if unicodedata.east_asian_width(ch) in ("W", "F") else size * 0.62 for ch in text)


def _wrap(text: str, first: float, rest: float, size: float = _SIZE) -> list[str]:
    """Greedy wrap to ``first`` (the first line's width) then ``rest``: at spaces where possible,
    anywhere else (CJK, long paths) when a word alone is too long."""
    lines: list[str] = []
    line = ""

    def room() -> float:
        return first if not lines else rest

    for word in text.split(" "):
        candidate = f"{line} {word}" if line else word
        if text_width(candidate, size) <= room():
            line = candidate
            continue
        if line and text_width(word, size) <= rest:
            lines.append(line)
            line = word
            continue
        for ch in (" " if line else "") + word:  # break inside the word
            if line.strip() and text_width(line + ch, size) > room():
                lines.append(line)
                line = ch.strip()
            else:
                line += ch
    if line or not lines:
        lines.append(line)
    return lines


def render_gaps_svg(gaps: Sequence[GapEntry], warnings: Sequence[BriefWarning] = ()) -> str:
    """Render one cell per slot and day, coloured by status, with the streak (and the arrival of late
    cells) written in the cell, a legend, and the ``warnings`` (false alarms, unreported gaps) under it."""
    slots = list(dict.fromkeys(f"{g.agent}/{g.slot}" for g in gaps))
    days = sorted({g.date for g in gaps})
    by_key = {(f"{g.agent}/{g.slot}", g.date): g for g in gaps}
    step = _CELL + _GAP
    title = f"棒位缺口 {days[0]} → {days[-1]}" if days else "棒位缺口（无数据）"

    legend_y = _TOP + max(len(slots), 1) * step + 16
    legend, legend_right = _legend(legend_y)
    width = int(max(_MIN_WIDTH if warnings else 0,
                    _LEFT + max(len(days), 1) * step + 20,
                    legend_right + _MARGIN,
                    _MARGIN + text_width(title, 18) + _MARGIN) + 0.999)
    notes = _warnings(warnings, legend_y + 44, width - 2 * _MARGIN)
    height = legend_y + 40 + (len(notes) * _LINE + 8 if notes else 0)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {_FONT} font-size="{_SIZE}">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{_MARGIN}" y="28" font-size="18" font-weight="bold" class="title">{escape(title)}</text>',
    ]
    for col, day in enumerate(days):
        x = _LEFT + col * step + _CELL / 2
        out.append(f'<text x="{x}" y="{_TOP - 8}" text-anchor="middle" class="day">{short_date(day)}</text>')
    for row, slot in enumerate(slots):
        y = _TOP + row * step
        out.append(f'<text x="{_LEFT - 10}" y="{y + _CELL / 2 + 4}" text-anchor="end" class="slot">'
                   f"{escape(slot)}</text>")
        for col, day in enumerate(days):
            out.append(_cell(by_key.get((slot, day)), _LEFT + col * step, y))
    out += legend
    out += notes
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _legend(y: float) -> tuple[list[str], float]:
    """The swatches and the streak label, laid out by their estimated widths; also the right edge."""
    out: list[str] = []
    x: float = _MARGIN
    for status, colour in COLOURS.items():
        out.append(f'<rect x="{x}" y="{y}" width="16" height="16" fill="{colour}" class="legend"/>')
        out.append(f'<text x="{x + 22}" y="{y + 13}" class="legend">{escape(LABELS[status])}</text>')
        x += 22 + text_width(LABELS[status]) + 24
    out.append(f'<text x="{x}" y="{y + 13}" fill="#555" class="legend">{escape(_STREAK_LABEL)}</text>')
    return out, x + text_width(_STREAK_LABEL)


def _warnings(warnings: Sequence[BriefWarning], y: float, width: float) -> list[str]:
    """One ``⚠ [label] text`` entry per warning, wrapped to ``width``; continuation lines indented."""
    out: list[str] = []
    indent = 14
    for warning in warnings:
        label = WARNING_LABELS.get(warning.kind, warning.kind)
        text = warning.text if warning.text.startswith(label) else f"[{label}] {warning.text}"
        for i, line in enumerate(_wrap(f"⚠ {text}", width, width - indent)):
            out.append(f'<text x="{_MARGIN + (indent if i else 0)}" y="{y + len(out) * _LINE}" fill="#8a4b00" '
                       f'class="warning" data-kind="{_attr(warning.kind)}">{escape(line)}</text>')
    return out


def _cell(gap: GapEntry | None, x: float, y: float) -> str:
    if gap is None:
        return (f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" rx="4" fill="{_NOT_DUE}" '
                f'class="cell" data-status="none"><title>未到时限 / 无记录</title></rect>')
    tip = f"{gap.agent}/{gap.slot} {gap.date} {gap.status}"
    if gap.arrived is not None:
        tip += f" · 到达 {gap.arrived.strftime('%H:%M')}"
    if gap.status in ("late", "missing"):
        tip += f" · 第 {gap.streak} 日缺口"
    if gap.note:
        tip += f" · {gap.note}"
    ink = TEXT_COLOURS[gap.status]
    parts = [
        f'<g class="cell" data-status="{gap.status}" data-slot="{_attr(gap.agent + "/" + gap.slot)}" '
        f'data-date="{gap.date}">',
        f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" rx="4" fill="{COLOURS[gap.status]}">'
        f"<title>{escape(tip)}</title></rect>",
    ]
    arrival = gap.arrived.strftime("%H:%M") if gap.status == "late" and gap.arrived is not None else None
    if gap.status in ("late", "missing"):
        number_y = y + (20 if arrival else _CELL / 2 + 5)
        parts.append(f'<text x="{x + _CELL / 2}" y="{number_y}" text-anchor="middle" '
                     f'font-size="15" font-weight="bold" fill="{ink}" class="streak">{gap.streak}</text>')
    if arrival:
        parts.append(f'<text x="{x + _CELL / 2}" y="{y + 36}" text-anchor="middle" font-size="10" '
                     f'fill="{ink}" class="arrival">{arrival}</text>')
    parts.append("</g>")
    return "".join(parts)
