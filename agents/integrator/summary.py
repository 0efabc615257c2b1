"""The brief's status summary and E2 rows, and today's read-note counts that source health compares."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from state.models import Brief, BriefWarning, Increment

if TYPE_CHECKING:
    from agents.scanner.window import WindowScan

__all__ = ["today_counts", "summary_lines", "refresh_summary", "e2_rows"]

_STATUS_ZH = {"net_new": "NET-new", "integrated": "整合", "carried": "沿用"}


def today_counts(scan: WindowScan) -> dict[str, int]:
    """Today's read notes per agent (the input ``source_health`` compares with history)."""
    counts: dict[str, int] = {}
    for entry in scan.sources:
        if entry.kind == "note" and entry.in_window and entry.agent and entry.status in ("read", "truncated"):
            counts[entry.agent] = counts.get(entry.agent, 0) + 1
    return counts


def summary_lines(brief: Brief, limits: tuple[int, int]) -> list[str]:
    """The status summary, every count taken from the list it counts (so header and body cannot differ)."""
    increments, warnings, citable = brief.increments, brief.warnings, brief.arxiv
    thin = "；偏薄，未凑数" if len(increments) < limits[0] else ""
    lines = [f"增量条数：{len(increments)} 条（目标区间 {limits[0]}–{limits[1]}{thin}）"]
    if increments:
        core = " ".join(
            f"{chr(0x2460 + i)} {'arXiv ' + inc.arxiv[0] + ' ' if inc.arxiv else ''}{inc.title}（{_STATUS_ZH[inc.status]}）"
            for i, inc in enumerate(increments[:20]))
        lines.append(f"核心增量：{core}")
    new = [a.id for a in citable if a.status == "net_new"]
    integrated = [a.id for a in citable if a.status == "integrated"]
    lines.append(f"涉及 arXiv 号：NET-new {len(new)} 个（{' / '.join(new) or '—'}）；整合 {len(integrated)} 个"
                 f"（{' / '.join(integrated) or '—'}）；可引用列表共 {sum(1 for a in citable if a.citable)} 个"
                 + (f"（另列 {sum(1 for a in citable if not a.citable)} 个仅供核对、不可引用）"
                    if any(not a.citable for a in citable) else ""))
    carried = sum(1 for w in warnings if w.carried_from)
    lines.append(f"警示：{len(warnings)} 条（沿用 {carried} / 新增 {len(warnings) - carried}）；另有登记簿未闭合条目 "
                 f"{len(brief.register_open)} 件逐条沿用（见第三节）"
                 + (f"；{len(brief.register_elsewhere)} 件属其他主题，列名不沿用" if brief.register_elsewhere else ""))
    read = sum(1 for s in brief.sources if s.status in ("read", "truncated"))
    lines.append(f"来源：读入 {read} 份，未读 {len(brief.sources) - read} 份（原因见第一节）；主轴外条目排除 "
                 f"{len(brief.excluded)} 件；已锚定沿用 {len(brief.carried)} 件；未入选 {len(brief.below_cut)} 件"
                 + (f"；未成条目的段落 {len(brief.unplaced)} 段" if brief.unplaced else "")
                 + (f"（另有来源自注不收 {len(brief.unplaced_set_aside)} 段）" if brief.unplaced_set_aside else ""))
    if brief.input_alert:
        lines.append(f"输入异常：{brief.input_alert}")
    return lines


def refresh_summary(brief: Brief, limits: tuple[int, int]) -> None:
    """Recompute the summary and the E2 rows from the brief's lists (after any node changed them)."""
    brief.summary = summary_lines(brief, limits)
    brief.e2 = e2_rows(brief.increments, brief.warnings)


def e2_rows(increments: Sequence[Increment], warnings: Sequence[BriefWarning]) -> list[dict]:
    rows = []
    for inc in increments:
        priority = "🔴" if inc.status == "net_new" and inc.credibility >= 4 else "🟡"
        label = f"arXiv {inc.arxiv[0]} {inc.title}" if inc.arxiv else inc.title
        rows.append({"priority": priority, "content": f"{label}（{_STATUS_ZH[inc.status]}）",
                     "action": f"写入 {inc.section}" if inc.section else "人工指定章节"})
    rows.sort(key=lambda r: r["priority"] != "🔴")
    if warnings:
        ids = " / ".join(w.register or w.id for w in warnings)
        rows.append({"priority": "🟢", "content": f"矛盾 / 待核标注（{ids}）", "action": "登记簿与文内 D 编号同步"})
    return rows
