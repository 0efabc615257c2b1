"""The gaps as a picture: a standalone SVG heatmap of slots × days."""

from __future__ import annotations

from collections.abc import Sequence
from xml.sax.saxutils import escape

from agents.coordinator.slots import short_date
from state.models import GapEntry

__all__ = ["render_gaps_svg", "COLOURS", "LABELS"]

COLOURS = {"met": "#4caf50", "late": "#ffb300", "missing": "#e53935", "excused": "#9e9e9e"}
LABELS = {"met": "按时 met", "late": "迟交 late", "missing": "缺失 missing", "excused": "请假 excused"}
_NOT_DUE = "#f0f0f0"

_CELL = 44
_GAP = 4
_LEFT = 200
_TOP = 64
_FONT = "font-family=\"'Noto Sans CJK SC','PingFang SC','Microsoft YaHei',sans-serif\""


def _attr(value: str) -> str:
    return escape(value, {'"': "&quot;"})


def render_gaps_svg(gaps: Sequence[GapEntry]) -> str:
    """Render one cell per slot and day, coloured by status, with the streak in late and missing cells."""
    slots = list(dict.fromkeys(f"{g.agent}/{g.slot}" for g in gaps))
    days = sorted({g.date for g in gaps})
    by_key = {(f"{g.agent}/{g.slot}", g.date): g for g in gaps}
    step = _CELL + _GAP
    width = _LEFT + max(len(days), 1) * step + 20
    legend_y = _TOP + max(len(slots), 1) * step + 16
    height = legend_y + 40
    title = f"棒位缺口 {days[0]} → {days[-1]}" if days else "棒位缺口（无数据）"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" {_FONT} font-size="12">',
        f"<title>{escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="16" y="28" font-size="18" font-weight="bold" class="title">{escape(title)}</text>',
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
    for i, (status, colour) in enumerate(COLOURS.items()):
        x = 16 + i * 150
        out.append(f'<rect x="{x}" y="{legend_y}" width="16" height="16" fill="{colour}" class="legend"/>')
        out.append(f'<text x="{x + 22}" y="{legend_y + 13}">{escape(LABELS[status])}</text>')
    out.append(f'<text x="{16 + 4 * 150}" y="{legend_y + 13}" fill="#555">数字 = 连续缺口日数</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


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
    parts = [
        f'<g class="cell" data-status="{gap.status}" data-slot="{_attr(gap.agent + "/" + gap.slot)}" '
        f'data-date="{gap.date}">',
        f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" rx="4" fill="{COLOURS[gap.status]}">'
        f"<title>{escape(tip)}</title></rect>",
    ]
    if gap.status in ("late", "missing"):
        parts.append(f'<text x="{x + _CELL / 2}" y="{y + _CELL / 2 + 5}" text-anchor="middle" '
                     f'font-size="15" font-weight="bold" fill="#ffffff" class="streak">{gap.streak}</text>')
    parts.append("</g>")
    return "".join(parts)
