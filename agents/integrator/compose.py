"""Build the brief from the window: items, warnings, arXiv results, sources → ``state.models.Brief``.

Nothing here invents content. Key points are the sources' own sentences
(those that carry the item's figures first, then the lines of the passage
that discusses it), each cited by path and line. The core argument and the
relation are assembled from facts: which sources, which card, which queue
flag, which figures, where the living document already anchors it and what
its anchored neighbours are called. Every figure, version, URL and
identifier in the brief is copied from a source.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from agents.integrator.cluster import Item, MistakenNumber, cluster_items, mistaken_numbers
from agents.integrator.credibility import Credibility, score_credibility
from agents.integrator.sections import SectionMatch, propose_section, tokenize
from agents.integrator.select import (
    Judgement,
    SourceHealth,
    TopicFit,
    density_of,
    honesty_statement,
    item_text,
    judge_status,
    mentions_item,
    select_items,
    source_health,
    topic_fit,
)
from agents.verifier.claims import arxiv_name
from prompts import render_template
from state.models import (
    AlertEntry,
    ArxivEntry,
    BaseDoc,
    Brief,
    BriefWarning,
    GapEntry,
    Increment,
    Stats,
    Window,
)

if TYPE_CHECKING:
    from agents.scanner.window import WindowScan

__all__ = ["integrate", "render_markdown", "today_counts", "BRIEF_TEMPLATE"]

BRIEF_TEMPLATE = "brief.md.j2"
_MAX_POINTS = 5
_POINT_CHARS = 240
_STRIP_TITLE = re.compile(
    r"^\s*#+\s*|§[\w.()（）]+\s*|(?:增量|承接[^：:]*#)\s*\d*\s*[：:]|(?:arXiv\s*[:：]?\s*)?\d{4}\.\d{4,5}(?:v\d+)?"
    r"|[⭐★☆⚠⚬]+|https?://\S+",
    re.IGNORECASE,
)
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)、])\s+")
_STATUS_ZH = {"net_new": "NET-new", "integrated": "整合", "carried": "沿用"}


def today_counts(scan: WindowScan) -> dict[str, int]:
    """Today's read notes per agent (the input ``source_health`` compares with history)."""
    counts: dict[str, int] = {}
    for entry in scan.sources:
        if entry.kind == "note" and entry.in_window and entry.agent and entry.status in ("read", "truncated"):
            counts[entry.agent] = counts.get(entry.agent, 0) + 1
    return counts


def _results_map(arxiv_results: Mapping[str, ArxivEntry] | Sequence[ArxivEntry] | None) -> dict[str, ArxivEntry]:
    if arxiv_results is None:
        return {}
    if isinstance(arxiv_results, Mapping):
        return dict(arxiv_results)
    return {entry.id: entry for entry in arxiv_results}


def _clean(text: str) -> str:
    text = _BULLET.sub("", text.strip())
    if text.startswith("|"):
        text = " · ".join(cell.strip() for cell in text.strip("|").split("|") if cell.strip() and set(cell.strip()) != {"-"})
    return text.replace("**", "").strip()


def _cut(text: str, limit: int = _POINT_CHARS) -> str:
    """Shorten at a word or punctuation boundary, never inside a number."""
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = max(head.rfind(ch) for ch in " ，。；、,;）)")
    return (head[:cut] if cut > limit // 2 else head.rstrip("0123456789.,")) + "…"


def _tidy_title(text: str) -> str:
    title = re.sub(r"\s+", " ", _STRIP_TITLE.sub(" ", text))
    # Removing the identifier can leave "（ ，…" or "（ ）" behind.
    title = re.sub(r"[（(]\s*[)）]", "", re.sub(r"([（(])\s*[，,]?\s*", r"\1", title)).strip(" ·—-:：|")
    for left, right in (("（", "）"), ("(", ")")):
        if title.startswith(right):
            title = title[1:].strip()
        if title.count(left) > title.count(right):
            title += right
    return _cut(title, 90)


def _title(item: Item, judgement: Judgement | None = None) -> str:
    if item.card is not None:
        return str(item.card.title)
    if item.queue_title:
        return item.queue_title
    for passage in sorted(item.passages, key=lambda p: not p.by_heading):
        title = _tidy_title(passage.heading)
        if len(title) >= 4:
            return title
    # Only listed in passing today: the living document's own name for it reads better than a table cell.
    for _, bullet in judgement.bullets if judgement else []:
        title = _tidy_title(re.split(r"[：:]", bullet.text, maxsplit=1)[0])
        if len(title) >= 4:
            return title
    for mention in item.anchors:
        named = arxiv_name(mention) if mention.kind == "arxiv" else None
        if named and len(named[0]) >= 4:
            return _tidy_title(named[0])
    for mention in item.anchors:
        title = _tidy_title(_clean(mention.context))
        if len(title) >= 4:
            return title
    return item.arxiv[0] if item.arxiv else (item.urls or item.names or [item.key])[0]


def _focus(item: Item, title: str) -> str:
    """What the item is about, for section similarity: title, card summary, its first own passage, figures.

    The whole item text would drag every item towards the longest section:
    passages also carry their authors' asides about neighbouring work.
    """
    parts = [title] * 3
    if item.card is not None:
        parts.append(str(getattr(item.card, "summary", "") or ""))
    own = sorted(item.passages, key=lambda p: (not p.by_heading, not p.path.startswith("inbox/")))
    if own:
        parts.extend(line for _, line in own[0].lines)
    parts.extend(f.context for f in item.figures)
    if len(parts) == 3:
        parts.extend(m.context for m in item.anchors)
    return "\n".join(parts)


def _points(item: Item, judgement: Judgement) -> list[str]:
    points: list[str] = []
    seen: set[str] = set()

    def add(text: str, path: str, line: int) -> None:
        cleaned = _clean(text)
        if len(cleaned) < 6 or cleaned in seen or len(points) >= _MAX_POINTS:
            return
        seen.add(cleaned)
        points.append(f"{_cut(cleaned)}（{path} L{line}）")

    def add_passages() -> None:
        for passage in sorted(item.passages, key=lambda p: (not p.by_heading, not p.path.startswith("inbox/"))):
            for number, line in passage.lines:
                if _BULLET.match(line) or line.lstrip().startswith("|") and re.search(r"\d", line):
                    add(line, passage.path, number)

    # A new item is best described by its own passage; an integrated one by what is new today.
    if judgement.status == "net_new":
        add_passages()
    for figure in judgement.new_figures if judgement.status == "integrated" else item.figures:
        add(figure.context, figure.source, figure.line)
    add_passages()
    if not points and item.card is not None:
        points.append(f"{item.card.title}（{item.card.path}）")
    return points


def _label(item: Item, title: str) -> str:
    return f"arXiv {item.arxiv[0]}「{title}」" if item.arxiv else f"「{title}」"


def _card_status(item: Item) -> str:
    card = item.card
    if card is not None:
        mark = "✓" if card.status == "classified" else "待分类"
        parts = [f"paper_card {card.card} {mark} 主分类 {card.primary}"]
        if card.secondary:
            parts.append(f"副分类 {card.secondary}")
        if card.kind:
            parts.append(str(card.kind))
        parts.append(f"入库 {card.ingested:%Y-%m-%d %H:%M}")
        return " · ".join(parts)
    if item.queue_card:
        return f"paper_card {item.queue_card}（work-queue 登记；卡片不在本窗口）"
    return "无 paper_card"


def _bullet_head(bullet: Any) -> str:
    head = re.split(r"[：:]", bullet.text, maxsplit=1)[0]
    head = _cut(head.strip(), 48)
    if bullet.arxiv and bullet.arxiv[0] not in head:
        head = f"{head}（arXiv {bullet.arxiv[0]}）"
    return head


def _neighbours(section: Any, anchored: Sequence[tuple[Any, Any]], text: str, limit: int = 4) -> list[str]:
    words = set(tokenize(text))
    bullets = [b for s, b in anchored if s.id == section.id]
    bullets.sort(key=lambda b: (-len(words & set(tokenize(b.text))), b.line))
    return [_bullet_head(b) for b in bullets[:limit]]


def _version(version: str | None) -> str:
    return f"v{version}" if version and version[0].isdigit() else (version or "?")


def _argument(item: Item, title: str, judgement: Judgement, doc: str) -> str:
    agents = sorted(item.agents)
    facts = [f"{len(item.note_sources)} 份笔记（{' / '.join(agents) or '—'}）"]
    if item.card is not None:
        facts.append(f"paper_card {item.card.card}（主分类 {item.card.primary}）")
    if item.queue_flag:
        facts.append(f"work-queue {item.queue_flag}")
    if judgement.status == "net_new":
        return (f"{_label(item, title)} 今日首次出现，{doc} 与往期简报均未锚入；依据 {'、'.join(facts)}"
                f"；要点摘自来源原句（见上）。")
    figures = [f.raw for f in judgement.new_figures]
    figure_text = f"；今日新数字：{' / '.join(dict.fromkeys(figures[:6]))}" if figures else ""
    where = sorted({f"{s.id}（{_version(b.version)} · {b.day}）" for s, b in judgement.bullets})
    anchored = f"已锚入 {' / '.join(where)}" if where else f"往期简报已提及（{' / '.join(judgement.briefs)}）"
    new = "新入 paper_card" if judgement.new_card and not judgement.new_figures else "今日带来新数字"
    return f"{_label(item, title)} {anchored}；{new}，依据 {'、'.join(facts)}{figure_text}。"


def _relation(item: Item, judgement: Judgement, match: SectionMatch | None, scan: WindowScan, doc: str) -> str:
    if match is None:
        return f"{doc} 中没有与本条相近的章节，建议人工指定归属或新设小节。"
    anchored = scan.living.anchored_as_of(scan.day)
    section = scan.living.section(match.id)
    names = _neighbours(section, anchored, item_text(item)) if section is not None else []
    lead = f"{doc} {match.id}（{match.title}）"
    lead += f"已锚定：{' / '.join(names)}" if names else "尚无已锚条目"
    if judgement.status == "net_new":
        return f"{lead}。本条为该节新增的 NET-new 条目，与上列已锚条目并列补充。"
    where = sorted({s.id for s, _ in judgement.bullets})
    tail = f"本条已在 {' / '.join(where)} 锚入，今日内容是对已锚条目的补充（新数字或新组合）" if where else \
        "本条在往期简报中出现过、尚未写入活文档"
    return f"{lead}。{tail}。"


def _warnings_for(item: Item, warnings: Sequence[BriefWarning]) -> list[BriefWarning]:
    found = []
    for warning in warnings:
        text = " ".join(filter(None, [warning.subject, warning.key, warning.text]))
        if mentions_item(text, item):
            found.append(warning)
    return found


def _arxiv_entry(item: Item, title: str, judgement: Judgement, section: str | None, credibility: int,
                 results: Mapping[str, ArxivEntry]) -> list[ArxivEntry]:
    entries = []
    for arxiv_id in item.arxiv:
        versions = item.versions.get(arxiv_id) or set()
        result = results.get(arxiv_id)
        entries.append(ArxivEntry(
            id=arxiv_id,
            version=f"v{max(versions)}" if versions else (result.version if result else None),
            verified=result.verified if result else "unverified",
            title=title if item.card is not None or not (result and result.title) else result.title,
            section=section,
            credibility=credibility,
            note=(result.note if result else "本次未联网核对 arXiv"),
            status=judgement.status,  # type: ignore[arg-type]
            published=result.published if result else None,
            likely=result.likely if result else None,
        ))
    return entries


def _mistaken_entry(arxiv_id: str, mistaken: MistakenNumber, item: Item,
                   results: Mapping[str, ArxivEntry]) -> ArxivEntry:
    """A number written for another paper: listed for audit with the likely one, never citable as new.

    ``verified`` stays arXiv's verdict (``unverified`` when arXiv was not
    reached); a number arXiv knows is another paper's, hence ``mismatch``.
    """
    result = results.get(arxiv_id)
    versions = item.versions.get(arxiv_id) or set()
    verdict = result.verified if result else "unverified"
    why = f"与 {mistaken.likely} 同名「{mistaken.name}」（{mistaken.warning}），号码疑为笔误，可能是 {mistaken.likely}"
    return ArxivEntry(
        id=arxiv_id, version=f"v{max(versions)}" if versions else None,
        verified="mismatch" if verdict == "ok" else verdict,
        title=result.title if result and verdict == "ok" else mistaken.name,
        note=f"{why}；{result.note if result and result.note else '本次未联网核对 arXiv'}",
        published=result.published if result else None, likely=mistaken.likely)


def _e2(increments: Sequence[Increment], warnings: Sequence[BriefWarning]) -> list[dict]:
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


def integrate(
    scan: WindowScan,
    warnings: Sequence[BriefWarning],
    arxiv_results: Mapping[str, ArxivEntry] | Sequence[ArxivEntry] | None,
    history_counts: Sequence[Mapping[str, int]],
    thread: str,
    *,
    gaps: Sequence[GapEntry] = (),
    alerts: Sequence[AlertEntry] = (),
) -> Brief:
    """Turn one window's scan into the brief (no LLM): items, status, sections, credibility, selection."""
    topic = scan.topic
    results = _results_map(arxiv_results)
    doc = f"{PurePosixPath(topic.living_doc).name} v{scan.living.version or '?'}"
    anchored = scan.living.anchored_as_of(scan.day)
    items = cluster_items(scan.mentions, scan.files, scan.cards, scan.queue.rows if scan.queue else [])
    titles = {str(card.arxiv): str(card.title) for card in scan.cards}
    titles.update({k: e.title for k, e in results.items() if e.verified == "ok" and e.title})
    mistaken = mistaken_numbers(warnings, titles, {i for s in scan.living.sections for b in s.bullets for i in b.arxiv},
                                {str(card.arxiv) for card in scan.cards})
    wrong: list[ArxivEntry] = []
    rows: list[tuple[Item, Judgement, TopicFit, int]] = []
    details: dict[str, tuple[Credibility, list[BriefWarning], SectionMatch | None, str]] = {}
    excluded: list[dict] = []
    for item in items:
        # A number written for another paper is listed for audit, never sold as an item of its own.
        wrong.extend(_mistaken_entry(i, mistaken[i], item, results) for i in item.arxiv if i in mistaken)
        if any(i in mistaken for i in item.arxiv):
            if all(i in mistaken for i in item.arxiv):
                continue
            item = replace(item, arxiv=[i for i in item.arxiv if i not in mistaken])
        fit = topic_fit(item, topic.name, topic.keywords)
        if not fit.in_topic:
            title = _title(item)
            excluded.append({"key": item.key, "title": title, "reason": fit.reason, "arxiv": item.arxiv,
                             "paper_card": item.card.card if item.card is not None else None,
                             "sources": item.sources})
            continue
        judgement = judge_status(item, anchored, scan.earlier_briefs)
        title = _title(item, judgement)
        on_item = _warnings_for(item, warnings)
        credibility = score_credibility(item, results, on_item)
        match = propose_section(_focus(item, title), scan.living.sections, item.arxiv)
        details[item.key] = (credibility, on_item, match, title)
        rows.append((item, judgement, fit, credibility.score))
    chosen = select_items(rows, topic.increments)
    increments = []
    for rank, (item, judgement, fit, score) in enumerate(chosen, start=1):
        credibility, on_item, match, title = details[item.key]
        increments.append(Increment(
            rank=rank, title=title, status=judgement.status,  # type: ignore[arg-type]
            arxiv=item.arxiv, urls=item.urls, sources=item.sources, work_queue=item.queue_flag,
            paper_card=item.card.card if item.card is not None else item.queue_card,
            points=_points(item, judgement), argument=_argument(item, title, judgement, doc), credibility=score,
            credibility_reason=credibility.reason, relation=_relation(item, judgement, match, scan, doc),
            section=match.id if match else None, section_title=match.title if match else None,
            key=item.key, relevance=fit.relevance, card_status=_card_status(item),
            warnings=[w.id for w in on_item],
        ))
    chosen_keys = {item.key for item, *_ in chosen}
    citable: list[ArxivEntry] = []
    ordered = [row for row in chosen] + sorted((r for r in rows if r[0].key not in chosen_keys), key=lambda r: r[0].key)
    for item, judgement, _fit, score in ordered:
        _, _, match, title = details[item.key]
        citable.extend(_arxiv_entry(item, title, judgement, match.id if match else None, score, results))
    # Identifiers that cannot be cited as written still belong in the list, with the verdict and the likely id.
    citable.extend(wrong)
    listed = {entry.id for entry in citable}
    citable.extend(entry for key, entry in sorted(results.items())
                   if entry.verified in ("malformed", "not_found", "mismatch") and key not in listed)
    health = source_health(today_counts(scan), history_counts)
    statuses = [inc.status for inc in increments]
    density = density_of(statuses)
    labels = [(f"arXiv {inc.arxiv[0]}" if inc.arxiv else inc.title, inc.status) for inc in increments]
    honesty = honesty_statement(topic.name, density, labels, topic.increments, health)
    read = scan.read_count
    summary = _summary(increments, warnings, citable, excluded, health, topic.increments, read, len(scan.sources) - read)
    return Brief(
        topic=topic.name, date=scan.day.isoformat(), thread=thread, executor=topic.executor,
        window=Window(start=scan.start, end=scan.end),
        base_doc=BaseDoc(path=topic.living_doc, version=scan.living.version, updated=scan.living.updated),
        density=density, honesty=honesty, summary=summary, sources=list(scan.sources),
        increments=increments, warnings=list(warnings), arxiv=citable, gaps=list(gaps), alerts=list(alerts),
        stats=Stats(sources_read=read, sources_skipped=len(scan.sources) - read),
        e2=_e2(increments, warnings), excluded=excluded,
    )


def _summary(increments: Sequence[Increment], warnings: Sequence[BriefWarning], citable: Sequence[ArxivEntry],
             excluded: Sequence[dict], health: SourceHealth, limits: tuple[int, int], read: int,
             skipped: int) -> list[str]:
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
                 f"（{' / '.join(integrated) or '—'}）；可引用列表共 {len(citable)} 个")
    carried = sum(1 for w in warnings if w.carried_from)
    lines.append(f"警示：{len(warnings)} 条（沿用 {carried} / 新增 {len(warnings) - carried}）")
    lines.append(f"来源：读入 {read} 份，未读 {skipped} 份（原因见第一节）；主轴外条目排除 {len(excluded)} 件")
    if health.broken:
        lines.append("输入异常：" + ("、".join(f"{a} 收件箱今日静默" for a in health.silent) or "今日来源数远低于常值"))
    return lines


def render_markdown(brief: Brief) -> str:
    """Render the brief as the team's Chinese Markdown (``prompts/brief.md.j2``)."""
    return render_template(BRIEF_TEMPLATE, brief=brief)
