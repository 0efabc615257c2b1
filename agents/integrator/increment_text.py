"""The words of one increment, taken from its sources: title, key points, core argument, relation, card status.

Nothing here invents content. Key points are the sources' own sentences
(those that carry the item's figures first, then the lines of the passage
that discusses it), each cited by path and line. The core argument and the
relation are assembled from facts: which sources, which card, which queue
flag, which figures, where the living document already anchors it and what
its anchored neighbours are called.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from agents.integrator.cluster import GITHUB_REPO, Item, release_named
from agents.integrator.credibility import witness_notes
from agents.integrator.sections import SectionMatch, tokenize
from agents.integrator.select import Judgement, item_text, unsaid_claims
from agents.scanner.e1_format import is_brief_path, is_relay_path
from agents.scanner.excerpt import excerpt
from agents.scanner.marks import read_marks
from agents.scanner.register import RAISES, closures_in
from agents.scanner.tables import row_cells, row_sentence
from agents.verifier.names import arxiv_name

if TYPE_CHECKING:
    from agents.scanner.window import WindowScan

__all__ = ["SEQUEL", "foreign_lines", "item_title", "tidy_title", "focus_text", "key_points", "core_argument", "relation_text", "card_status"]

_MAX_POINTS = 5
_POINT_CHARS = 240
_STRIP_TITLE = re.compile(
    r"^\s*#+\s*|§[\w.]+(?:[（(]\d+[)）])?[\w.]*(?=\s+\S)\s*|§|(?:增量|承接[^：:]*#)\s*\d*\s*[：:]|(?:arXiv\s*[:：]?\s*)?\d{4}\.\d{4,5}(?:v\d+)?"
    r"|[⭐★☆⚠⚬]+|https?://\S+"
    # The scouts' status marks are not part of a name: "丢弃：…", "（沿用 9-27）", "（转 lin training）".
    r"|^\s*(?:丢弃|沿用|续立|已锚入?)\s*[：:]|[（(]\s*(?:沿用|续立|已锚|丢弃|转|交给?)[^）)]*[）)]"
    # Outline numbers of the note are not part of a name: "C.1 ", "A.6 ", "3. ", "线索4 ", "候选 1：".
    r"|^\s*(?:[A-Z]|\d{1,2})(?:\.\d+)*[.、)]?\s+(?=\S)|^\s*[\u4e00-\u9fff]{2,3}\s*\d{1,2}\s*(?:[：:]\s*|\s+)"
    # A note's tier or lane label ("Tier1-E · ", "Lane 2: ") and how the scout read it ("（全文精读）", "（16 min read）").
    r"|^\s*(?:tier|lane|track)\s*\d+(?:-[A-Z])?\s*[·:：]\s*"
    # A circled list number ("## ② 社区实测：…").
    r"|^\s*[\u2460-\u2473\u2776-\u277f]\s*"
    r"|[（(]\s*(?:全文精读|精读|速读|通读|粗读|摘要级?|\d+\s*min(?:ute)?s?\s*read)\s*[）)]",
    re.IGNORECASE,
)
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")
_ONLY_REFS = re.compile(r"(?:https?://[^\s；;，,（）()]+|(?:arXiv\s*[:：]?\s*)?\d{4}\.\d{4,5}(?:v\d+)?|[\s·,，、/|()（）;；:：-])+", re.I)
# A line that is links with labels ("论文：https://…；可视化：https://…"): where the item is, not what it says.
_LINK_LABELS = re.compile(r"^(?:(?:[\w\u4e00-\u9fff]{1,8}\s*[:：]\s*)?https?://\S+?(?:\s*[；;，,、]\s*|\s+|$))+$")
_BULLET = re.compile(r"^\s*(?:[-*•]|\d+[.)、])\s+")
_LEADING_LINK = re.compile(r"^\s*<?https?://[^\s<>（(]+>?")


def _clean(text: str) -> str:
    text = _BULLET.sub("", text.strip())
    if text.startswith("|") or text.count(" | ") >= 2:
        cells = [c.strip() for c in text.strip("|").split("|") if c.strip() and set(c.strip()) != {"-"}]
        text = f"{cells[0]}：{'，'.join(cells[1:])}" if len(cells) > 1 else "".join(cells)
    # The scouts' rating marks rate the line; they are not part of what it says.
    return re.sub(r"\s*(?:⭐|★){1,5}\s*", " ", text.replace("**", "")).strip()


def _cut(text: str, limit: int = _POINT_CHARS) -> str:
    return excerpt(text, limit)


_ROW_TAIL = re.compile(r"\s+(?:高|中高|中|中低|低)(?:\s*[（(][^）)]*[）)])?\s+(?:昨日|今日|本轮)?\s*(?:续立|沿用|新增|待核|闭合)"
                       r"(?:\s*(?:→|->)\s*[\d.]+)?\s*$")
# A Latin name, a colon, then a remark in sentences (two clauses or more, or a status word): the name alone.
_REMARK = re.compile(r"^([A-Za-z][\w.+-]*(?:\s[A-Z][\w.+-]*){0,2})\s*(?:[（(][^）)]*[）)])?\s*[：:]\s*(?=.*[\u4e00-\u9fff])"
                     r"(?=.*(?:[，,].*[，,]|已锚|沿用|记一笔|旧文|今天|讨论区|有人))")


def tidy_title(text: str) -> str:
    title = re.sub(r"\*\*|__", "", text)  # bold marks of a rated list entry
    for _ in range(3):  # a heading mark, then an outline number, then a status mark: each exposes the next
        stripped = re.sub(r"\s+", " ", _STRIP_TITLE.sub(" ", title)).strip()
        if stripped == title:
            break
        title = stripped
    # Removing the identifier can leave "（ ，…" or "（ ）" behind.
    title = re.sub(r"\s*[，,、]\s*([)）])", r"\1", re.sub(r"([（(])\s*[，,]?\s*", r"\1", title))
    title = re.sub(r"[（(]\s*[)）]", "", title).strip(" ·—-:：|")
    # A bracket left holding only status words and dates ("（· 沿用 9-27 ）"): a mark, not part of the name.
    title = re.sub(r"\s*[（(][\s·,，]*(?:沿用|续立|续用|已锚入?|新增|承接)?[\s·]*(?:\d{1,2}-\d{1,2})?[\s·]*[)）]\s*$", "", title)
    # A status after a dash ("X —— 沿用", "X - carried over"): the scout's verdict, not part of the name.
    title = re.sub(r"(?:\s*(?:——|—|–|--)\s*|\s+-\s+)(?:沿用|续立|续用|已锚入?|丢弃|不单列|新增|carried(?: over)?|dropped|anchored)\b.*$", "",
                   title, flags=re.IGNORECASE).strip()
    # A table row's trailing cells (its risk grade and status: "高（arXiv 2026-09-23） 昨日续立 → 3"): not the name.
    title = _ROW_TAIL.sub("", title).strip()
    # A name then the scout's remark on it ("Q-KVComm ：多 Agent 之间传量化 KV…，2025-12 的旧文，记一笔"): the name.
    remark = _REMARK.match(title)
    if remark:
        title = remark.group(1).strip()
    for left, right in (("（", "）"), ("(", ")")):
        if title.startswith(right):
            title = title[1:].strip()
        if title.count(left) > title.count(right):
            title += right
        if title.startswith(left) and title.endswith(right) and title.count(left) == 1:
            title = title[1:-1].strip()  # the name was all in brackets once the identifier left: "（X）" → "X"
    return _cut(title, 90)


# A line that is a source listing, not a name: a vault path, a timestamp opening a log line.
_NOT_A_NAME = re.compile(r"\.md\b|(?:^|\s)(?:inbox|organized)/|^(?:\d{4}-\d{2}-\d{2}[ T])?\d{1,2}:\d{2}(?::\d{2})?\s|\bfeed:")


def _nameable(title: str) -> bool:
    return len(title) >= 4 and not _NOT_A_NAME.search(title)


# Where a living-document bullet names several things before its colon ("A（arXiv x）/ B（arXiv y）："),
# the parts are separated by a slash, "、", "+" or a semicolon; the part holding the item's own number names it.
_NAME_PARTS = re.compile(r"\s*(?:/|／|、|\+|；|;)\s*")
_IDENTIFIER = re.compile(r"\b\d{4}\.\d{4,5}\b|https?:")


def bullet_name(text: str, item: Item) -> str:
    """The name a living-document bullet gives the item: its head, or the part of it naming the item's number."""
    head = re.split(r"[：:]", text, maxsplit=1)[0]
    parts = [part for part in _NAME_PARTS.split(head) if part.strip()]
    if sum(bool(_IDENTIFIER.search(part)) for part in parts) > 1:  # "vLLM / SGLang 对比（arXiv x）" is one name
        for number in [*item.arxiv, *item.urls]:
            own = [part for part in parts if number in part]
            if len(own) == 1:
                return tidy_title(own[0])
    return tidy_title(head)


# A sequel's mark on a heading: "（续篇）", "（续）", "续：", "(cont.)", "part 2", "follow-up".
SEQUEL = re.compile(r"\s*(?:[（(]\s*(?:续篇?|下篇|后续|cont\.?|continued|part\s*\d+|follow[- ]?up)\s*[)）]|"
                     r"[·:：-]\s*(?:续篇?|下篇|follow[- ]?up)\s*$)", re.IGNORECASE)


def item_title(item: Item, judgement: Judgement | None = None) -> str:
    if item.key.startswith("note:") and len(item.passages) == 1:
        return tidy_title(item.passages[0].heading) or item.title or item.key
    if item.key.startswith("note:") and item.passages:
        # Sections of several notes on one release ("SGLang v0.5.22（10-03 发布）" and "SGLang v0.5.22 官方号"):
        # the first one's heading names it.
        releases = {release_named(p.heading) for p in item.passages}
        if len(releases) == 1 and None not in releases:
            return tidy_title(item.passages[0].heading)
        # A digest of several sections: the note's name, then what its sections discuss; sections of one
        # subject and its sequel ("vLLM 生产 10 大坑" and "…（续篇）") are named by that subject alone.
        names = [name for p in item.passages if (name := tidy_title(p.heading))]
        subjects = {SEQUEL.sub("", name).strip() for name in names}
        if len(subjects) == 1 and len(names) > 1:
            return next(iter(subjects))
        shown = " / ".join(names[:3]) + (f" 等 {len(names)} 段" if len(names) > 3 else "")
        return f"{item.title}——{shown}" if item.title and shown else (item.title or shown or item.key)
    if item.card is not None and not item.title:
        return str(item.card.title)
    own = [p for p in item.passages if not is_brief_path(p.path)]
    if judgement and judgement.bullets and not own and item.card is None and not item.queue_title:
        # Only listed in passing today: the living document's own name for it reads better than a table cell.
        for _, bullet in judgement.bullets:
            title = bullet_name(bullet.text, item)
            if _nameable(title):
                return title
    if item.title:
        return item.title
    if item.card is not None:
        return str(item.card.title)
    if item.queue_title:
        return item.queue_title
    # Sections whose heading names the item, a section joined to it by name last ("《KVRail：以线速搬运 KV Cache》",
    # a translation, is not what the item is called).
    for passage in sorted(item.passages, key=lambda p: (p.adopted, not p.by_heading)):
        if item.arxiv and re.match(r"^\s*#\s", passage.heading):
            continue  # a note's own title ("# tom · 读论文笔记 · X + 2609.x") names the note, not the paper
        title = tidy_title(passage.heading)
        if _nameable(title):
            # "英伟达那套…框架出了 1.0.2" over github.com/ai-dynamo/dynamo: said with the project's name.
            repo = next((m.group(1) for u in item.urls if (m := GITHUB_REPO.match(u))), None)
            if repo and not re.search(r"[A-Za-z]{3,}", title) and repo.lower() not in title.lower():
                if len(title) <= 6 and not re.search(r"\d", title):
                    return repo  # a label heading ("它是什么", "简介") says nothing of the project: its name alone
                return f"{repo[:1].upper()}{repo[1:]} · {title}"
            return title
    # Only listed in passing today: the living document's own name for it reads better than a table cell.
    for _, bullet in judgement.bullets if judgement else []:
        title = bullet_name(bullet.text, item)
        if _nameable(title):
            return title
    for mention in item.anchors:
        named = arxiv_name(mention) if mention.kind == "arxiv" else None
        if named and _nameable(named[0]):
            return tidy_title(named[0])
    for mention in item.anchors:
        # A line listing several papers ("沿用：A（2508.x）、B（2608.y）、C"): the part holding this one's number.
        parts = [part for part in re.split(r"[、；;，,]", _clean(mention.context)) if part.strip()]
        own = [part for part in parts if any(i in part for i in item.arxiv)] if len(parts) > 1 else []
        title = tidy_title(re.sub(r"^[^：:]{0,12}[：:]", "", own[0])) if len(own) == 1 else tidy_title(_clean(mention.context))
        if _nameable(title):
            return title
    return item.arxiv[0] if item.arxiv else (item.urls or item.names or [item.key])[0]


def focus_text(item: Item, title: str) -> str:
    """What the item is about, for section similarity: title, card summary, its first own passage, figures.

    The whole item text would drag every item towards the longest section:
    passages also carry their authors' asides about neighbouring work.
    """
    if item.key.startswith("note:"):
        # A digest is about what its sections discuss, not its note's own title ("晚间简报（…Agentic RAG）").
        title = " / ".join(tidy_title(p.heading) for p in item.passages) or title
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


def _table_rows(item: Item) -> dict[tuple[str, int], str]:
    """(path, line) → the table row as a sentence naming its columns, for every row of the item's passages."""
    rows: dict[tuple[str, int], str] = {}
    for passage in item.passages:
        header: list[str] = []
        lines = passage.lines
        for index, (number, line) in enumerate(lines):
            if not line.lstrip().startswith("|"):
                header = []
                continue
            following = lines[index + 1][1] if index + 1 < len(lines) else ""
            if _TABLE_RULE.match(following):
                header = row_cells(line)  # a header row names the columns; it says nothing itself
            elif not _TABLE_RULE.match(line) and re.search(r"\d", line):
                rows[(passage.path, number)] = row_sentence(row_cells(line), header)
    return rows


# A scout's "not read yet": "方法细节还没读，明天补", "回头再看", "haven't read the method yet".
_PENDING = re.compile(r"还没读|没读完|尚未读|未细读|待补|明天.{0,12}补|晚点补|回头(?:再)?(?:看|补|查|对)|"
                      r"\b(?:haven't|have not|not yet) read\b|\bto be read\b|\bwill read\b", re.IGNORECASE)


def _read_later(item: Item) -> dict[str, str]:
    """The notes whose author discusses the item again in a later note, each with what the later notes say:
    the earlier note's "not read yet" lines are stale, and its figures said again later are said there."""
    by_agent: dict[str, dict[str, list[str]]] = {}
    for passage in item.passages:
        parts = passage.path.split("/")
        if passage.path.startswith("inbox/") and len(parts) >= 3 and not is_relay_path(passage.path):
            by_agent.setdefault(parts[1], {}).setdefault(parts[-1], []).extend(line for _, line in passage.lines)
    return {f"inbox/{agent}/{name}": "\n".join(line for other, lines in notes.items() if other > name for line in lines)
            for agent, notes in by_agent.items() for name in notes if any(other > name for other in notes)}


_FIGURE_WORD = re.compile(r"\d+(?:\.\d+)?\s*(?:×|x|%|ms|s|GB|tok/s)(?![A-Za-z])")


def _restated(line: str, later: str) -> bool:
    """Every figure of the line is in the author's later lines: the later reading says it, with more."""
    figures = {f.replace(" ", "") for f in _FIGURE_WORD.findall(line)}
    return bool(figures) and figures <= {f.replace(" ", "") for f in _FIGURE_WORD.findall(later)}


def _bookkeeping(line: str) -> bool:
    """A line about the team's records, not the item: it settles or raises a register entry, or it only hands
    the item over ("训练集群运维 → spark llm-infra", "转 tom")."""
    if closures_in(line) or RAISES.search(line):
        return True
    handed = [m for m in read_marks([(0, line)]) if m.kind in ("forwarded", "arrow")]
    return bool(handed) and len(re.sub(r"[\s\W_]", "", line)) - len(re.sub(r"[\s\W_]", "", handed[0].value)) < 12


def key_points(item: Item, judgement: Judgement) -> list[str]:
    """The item's key points, each a source's own sentence with where it stands: the scouts' notes first,
    briefs (which relay them) only when the notes give too little; a table row as a sentence."""
    points: list[str] = []
    relayed: list[str] = []
    seen: set[str] = set()
    rows = _table_rows(item)

    def add(text: str, path: str, line: int) -> None:
        if text.lstrip().startswith("#"):
            return  # a heading names the item (its title), it is no point of it
        if _bookkeeping(text):
            return  # the register's or the lanes' business ("→ D181 可以闭合", "训练集群运维 → spark"), said elsewhere
        cleaned = _clean(text)
        lead = _LEADING_LINK.match(cleaned)
        if lead:  # "https://… · 分类 cs.CR", "<https://…>（…）": the link is the item's URL; the point is what follows
            rest = cleaned[lead.end():].strip(" ·—–-:：,，;；")
            if rest.startswith(("（", "(")) and rest.endswith(("）", ")")):
                rest = rest[1:-1].strip()
            if len(re.sub(r"[\s\W_]", "", rest)) < 12:
                return
            cleaned = rest
        if len(_ONLY_REFS.sub("", cleaned)) < 6 or _LINK_LABELS.match(cleaned.strip()) or cleaned in seen \
                or cleaned.endswith(("：", ":")):  # a lead-in to the lines under it says nothing itself
            return  # a bare link or number is where the item is, not what it says
        seen.add(cleaned)
        bucket = relayed if is_relay_path(path) else points
        where = f"（{path} L{line}）"
        earlier = next((i for i, point in enumerate(bucket) if point.endswith(where)), None)
        if earlier is not None:  # one line, one point: the whole line over a clause of it, never both
            if len(cleaned) > len(bucket[earlier]) - len(where):
                bucket[earlier] = f"{_cut(cleaned)}{where}"
            return
        bucket.append(f"{_cut(cleaned)}{where}")

    later = _read_later(item)

    def stale(path: str, line: str) -> bool:  # what the author's own later reading settles or says again
        return path in later and bool(_PENDING.search(line) or _restated(line, later[path]))

    def add_passages() -> None:
        candidates = [[(passage.path, number, rows[(passage.path, number)] if (passage.path, number) in rows else line)
                       for number, line in passage.lines
                       if ((passage.path, number) in rows or (_BULLET.match(line) and not line.lstrip().startswith("|")))
                       and not stale(passage.path, line)]
                      for passage in item.passages]
        # The sections that discuss the item at length first (a heading of its own, a scout's note, most points).
        order = sorted(range(len(candidates)), key=lambda i: (not item.passages[i].by_heading,
                                                              not item.passages[i].path.startswith("inbox/"),
                                                              -len(candidates[i]), i))
        candidates = [candidates[i] for i in order]
        if len(candidates) > 1:
            # Several sections: each one's first points before any one's later ones, so that every reading
            # (a digest's every subject, a paper's every scout) has its say.
            depth = max(len(c) for c in candidates)
            candidates = [[c[i] for c in candidates if i < len(c)] for i in range(depth)]
        for group in candidates:
            for path, number, text in group:
                add(text, path, number)

    def add_card() -> None:
        card = item.card
        # Sentences end at 。；！？ or at ". " — never at the dot of a number ("93.3%").
        first = int(getattr(card, "summary_line", 1) or 1)
        for offset, text in enumerate(str(getattr(card, "summary", "") or "").split("\n")):
            if text.lstrip().startswith("#"):
                continue  # a card's own headings ("## 要点") say nothing
            for sentence in re.split(r"(?<=[。；！？])|(?<=[.!?])\s+", text):
                if sentence.strip():
                    add(sentence, str(card.path), first + offset)

    # A new item is best described by its own passage; an integrated one by what is new today.
    if judgement.status == "net_new":
        add_passages()
    for figure in judgement.new_figures if judgement.status == "integrated" else item.figures:
        if not stale(figure.source, figure.context):
            add(rows.get((figure.source, figure.line), figure.context), figure.source, figure.line)
    add_passages()
    if len(points) < 2 and item.card is not None:
        add_card()
    points.extend(relayed[: max(0, 2 - len(points))])
    points = points[:_MAX_POINTS]
    if not points and item.card is not None:
        points.append(f"{item.card.title}（{item.card.path}）")
    return points


def _label(item: Item, title: str) -> str:
    return f"arXiv {item.arxiv[0]}「{title}」" if item.arxiv else f"「{title}」"


def card_status(item: Item) -> str:
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
    if item.vault_card:
        return f"paper_card {item.vault_card[0]}（{item.vault_card[1]}，入库不在本窗口）"
    return "无 paper_card"


def _bullet_head(bullet: Any) -> str:
    head = re.split(r"[：:]", bullet.text, maxsplit=1)[0]
    if bullet.arxiv:  # the number is said once, after the name, never cut in half ("…Atlas（arXiv…（arXiv x）")
        head = re.sub(rf"\s*[（(][^（()）]*{re.escape(bullet.arxiv[0])}[^（()）]*[)）]", "", head)
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


# The scout's own judgement of an item, on a line of its own: "价值：…", "对我们：…", "我的看法：…", "Takeaway: …".
_LABELLED = r"^\s*(?:[-*•>]\s*)?(?:\*\*)?(?:{labels})(?:\*\*)?\s*[：:]\s*(?P<said>\S.{{5,}})"
_JUDGEMENT = re.compile(_LABELLED.format(labels="价值|对我们|意义|结论|核心(?:观点|结论)?|我的看法|看法|判断|论点|主张|工程价值|"
                                               "takeaway|why it matters|so what|implications?|claim|verdict"),
                        re.IGNORECASE)
# Else the scout's summary of the paper: the problem it takes and what it does ("问题：…", "方案：…").
_PROBLEM = re.compile(_LABELLED.format(labels="问题|痛点|problem|motivation"), re.IGNORECASE)
_APPROACH = re.compile(_LABELLED.format(labels="方案|做法|方法|思路|做什么|approach|method|idea"), re.IGNORECASE)
_RESULT = re.compile(_LABELLED.format(labels="结果|主结果|主要结果|实验结果|数字|results?|findings?"), re.IGNORECASE)


def _labelled_lines(item: Item, title: str = "") -> list[tuple[str, int, str]]:
    """The item's lines, without those under a sub-heading about something its title does not name ("### 线索3
    vLLM vs Ollama 24x" inside "SGLang vs vLLM vs TRT-LLM 三源数据对齐"): a judgement there is of that thing."""
    own = {w.lower() for w in re.findall(r"[A-Za-z][\w.+-]*[A-Za-z0-9]", title) if len(w) >= 3}
    lines = []
    for p in item.passages:
        other = False
        for number, line in p.lines:
            if line.lstrip().startswith("#"):
                names = {w.lower() for w in re.findall(r"[A-Za-z][\w.+-]*[A-Za-z0-9]", line) if len(w) >= 3}
                other = bool(own) and bool(names - own - _NOT_NAMES)
            if not other:
                lines.append((p.path, number, line))
    return lines + [(m.source, m.line, m.context or "") for m in item.anchors]


def foreign_lines(item: Item, title: str) -> set[tuple[str, int]]:
    """(path, line) of the item's lines under a sub-heading about something its title does not name."""
    kept = {(path, number) for path, number, _ in _labelled_lines(item, title)}
    return {(p.path, number) for p in item.passages for number, _ in p.lines} - kept


# Words a sub-heading uses that name no subject.
_NOT_NAMES = frozenset({"vs", "and", "the", "ttft", "itl", "tpot", "tier", "top", "h100", "h200", "a100", "b200", "gpu",
                        "fp8", "bf16", "kv", "cache"})


def scout_judgement(item: Item, title: str = "") -> str | None:
    """Where a scout says why the item matters, quoted with where it stands; else its problem and
    approach as the scout summarised them; None when the sources say neither."""
    lines = _labelled_lines(item, title)
    for path, number, line in lines:
        match = _JUDGEMENT.match(line)
        if match:
            return f"来源判断：「{_cut(match.group('said').strip(), 120)}」（{path} L{number}）"
    problem = next(((p, n, m.group("said")) for p, n, line in lines if (m := _PROBLEM.match(line))), None)
    approach = next(((p, n, m.group("said")) for p, n, line in lines if (m := _APPROACH.match(line))), None)
    if problem and approach:
        return (f"来源概述：问题「{_cut(problem[2].strip(), 70)}」，做法「{_cut(approach[2].strip(), 70)}」"
                f"（{problem[0]} L{problem[1]}–{approach[1]}）")
    # Else what it does and what it found, as the scout wrote it ("做法：…" then "结果：…").
    result = next(((p, n, m.group("said")) for p, n, line in lines if (m := _RESULT.match(line))), None)
    if approach and result:
        return (f"来源概述：做法「{_cut(approach[2].strip(), 70)}」，结果「{_cut(result[2].strip(), 70)}」"
                f"（{approach[0]} L{approach[1]}–{result[1]}）")
    if approach or result:
        path, number, said = approach or result  # type: ignore[misc]
        return f"来源概述：{'做法' if approach else '结果'}「{_cut(said.strip(), 110)}」（{path} L{number}）"
    card = item.card
    summary = [line.strip(" -*•") for line in str(getattr(card, "summary", "") or "").split("\n")
               if line.strip() and not line.lstrip().startswith("#")] if card is not None else []
    if summary:  # the card's own summary of the paper, first sentence
        first = re.split(r"(?<=[。；！？])", summary[0])[0]
        return f"卡片摘要：「{_cut(first, 110)}」（{card.path}）"
    return None


def core_argument(item: Item, title: str, judgement: Judgement, doc: str, late: str | None = None) -> str:
    """Why the item matters against the living document; ``late``: what to say when the paper is older
    than its card (new to the vault, not a new paper): its month, or the warning that says so. The
    scout's own judgement of it, where a source gives one, leads."""
    said = scout_judgement(item, title)
    lead = f"{said}。" if said else ""
    return lead + _status_argument(item, title, judgement, doc, late)


def _status_argument(item: Item, title: str, judgement: Judgement, doc: str, late: str | None) -> str:
    witnesses = witness_notes(item)
    others = [p for p in item.note_sources if p not in witnesses]
    relays = [p for p in others if is_relay_path(p)]
    listing = [p for p in others if p not in relays]
    agents = sorted({p.split("/")[1] for p in witnesses})
    # Counted as the credibility line counts them: witnesses are scouts, however many notes each wrote.
    facts = [f"{len(agents)} 个一手来源（{' / '.join(agents)}，{len(witnesses)} 份笔记）" if witnesses else "无一手笔记"]
    if listing:
        facts.append(f"另有 {len(listing)} 份笔记仅提及")
    if relays:  # worded as the credibility line words them
        facts.append(f"{len(relays)} 份简报 / 协调记录转述")
    if item.card is not None:
        facts.append(f"paper_card {item.card.card}（主分类 {item.card.primary}）")
    if item.queue_flag:
        facts.append(f"work-queue {item.queue_flag}")
    echoed = _echo_text(judgement)
    if judgement.status == "net_new":
        briefs = [p for p in relays if is_brief_path(p)]
        # Another topic's brief may have listed it before: new to this topic, not to the vault.
        seen = f"（他主题简报已提及：{' / '.join(briefs[:2])}{' 等' if len(briefs) > 2 else ''}）" if briefs else ""
        first = f"今日首次入卡（{late}）" if late else ("本主题首次锚入" if briefs else "今日首次出现")
        return (f"{_label(item, title)} {first}{seen}，{doc} 与本主题往期简报均未锚入；依据 {'、'.join(facts)}"
                f"；要点摘自来源原句（见上）{echoed}。")
    figures = [f.raw for f in judgement.new_figures]
    figure_text = f"；今日新数字：{' / '.join(dict.fromkeys(figures[:6]))}" if figures else ""
    where = sorted({f"{s.id}（{_version(b.version)} · {b.day}）" for s, b in own_history(item, judgement)})
    anchored = (f"已锚入 {' / '.join(where)}" if where else
                f"往期简报已提及（{' / '.join(judgement.briefs)}）" if judgement.briefs else
                (judgement.marked or "来源标注已锚"))
    return f"{_label(item, title)} {anchored}；{todays_news(item, judgement)}，依据 {'、'.join(facts)}{figure_text}{echoed}。"


def _release(item: Item) -> tuple[str, str] | None:
    """The one release the item's own note sections name ("## Quill v2.4.1 补丁"), if they name one."""
    headings = [p.heading for p in item.passages if p.path.startswith("inbox/") and not is_brief_path(p.path) and p.heading]
    found = {release_named(h) for h in headings} - {None}
    if len(found) != 1:
        return None
    product, version = next(iter(found))  # type: ignore[misc]
    written = next((m.group(0) for h in headings if (m := re.search(re.escape(product), h, re.IGNORECASE))), product)
    return written, version


def own_history(item: Item, judgement: Judgement) -> list[tuple[Any, Any]]:
    """The anchored bullets that are the item's own history, not every bullet that names its product.

    The bullets citing its paper or link first; for a release, the bullets recording a version of the
    product ("Quill v2.4.0 …"), else those about the product under their own head; else the bullets whose
    head names the item; else all that were found.
    """
    bullets = list(judgement.bullets)
    if len(bullets) <= 1:
        return bullets
    cited = [(s, b) for s, b in bullets if set(getattr(b, "arxiv", []) or []) & set(item.arxiv)
             or any(u.split("://", 1)[-1].rstrip("/").lower() in str(b.text).lower() for u in item.urls)]
    if cited:
        return cited
    release = _release(item)
    if release is not None:
        product = re.escape(release[0].lower())
        versions = [(s, b) for s, b in bullets
                    if re.search(rf"(?<![\w.-]){product}\s*[- ]?\s*v?\d+(?:\.\d+)+", str(b.text), re.IGNORECASE)]
        headed = [(s, b) for s, b in bullets if re.match(rf"\W*{product}\b", str(b.text), re.IGNORECASE)]
        return versions or headed or bullets
    names = [n for n in item.names if len(n) >= 3]
    headed = [(s, b) for s, b in bullets if names and any(
        n in re.split(r"[：:]", str(b.text), maxsplit=1)[0].lower() for n in names)]
    return headed or bullets


def todays_news(item: Item, judgement: Judgement) -> str:
    """What today brings to an anchored item, as the evidence says it: new figures, a new card, figures
    seen earlier elsewhere, a new release, news of a register entry; never "new figures" where there are none."""
    if judgement.new_card and not judgement.new_figures:
        return "新入 paper_card"
    if judgement.new_figures:
        return "今日带来新数字"
    if judgement.echoes:
        return "今日给出的数字见于更早的他源"
    if judgement.status == "carried":
        return "今日无新数字或新内容"
    release = _release(item)
    if release is not None:
        return f"今日为新版本 {release[0]} {_version(release[1])}，来源未给新数字"
    if judgement.marked.startswith("续登记簿"):
        return f"今日为登记簿条目 {judgement.marked.split('：', 1)[0].removeprefix('续登记簿 ')} 带来进展，无新数字"
    if unsaid_claims(item, [b for _, b in judgement.bullets]):
        return "今日有已锚条目未记的新要点，来源未给新数字"
    return "今日有新进展（发布 / 组合），来源未给新数字"


def _echo_text(judgement: Judgement) -> str:
    """Where figures the item states were given earlier under another subject: a re-quote to check."""
    if not judgement.echoes:
        return ""
    by_line: dict[tuple[str, str, int], list[str]] = {}
    for echo in judgement.echoes:
        by_line.setdefault((echo.other, echo.path, echo.line), []).append(echo.figure)
    said = "；".join(f"{' / '.join(dict.fromkeys(figures))} 更早已见于「{_cut(other, 40)}」（{path} L{line}）"
                    for (other, path, line), figures in by_line.items())
    return f"；{said}——疑为转引，非本条一手数字，引用前核对原始出处"


def relation_text(item: Item, judgement: Judgement, match: SectionMatch | None, scan: WindowScan, doc: str) -> str:
    if match is None:
        return f"{doc} 中没有与本条相近的章节，建议人工指定归属或新设小节。"
    anchored = scan.living.anchored_as_of(scan.day, scan.end)
    section = scan.living.section(match.id)
    names = _neighbours(section, anchored, item_text(item)) if section is not None else []
    lead = f"{doc} {match.id}（{match.title}）"
    lead += f"已锚定：{' / '.join(names)}" if names else "尚无已锚条目"
    if judgement.status == "net_new":
        return f"{lead}。本条为该节新增的 NET-new 条目，与上列已锚条目并列补充。"
    where = sorted({s.id for s, _ in own_history(item, judgement)})
    tail = (f"本条已在 {' / '.join(where)} 锚入，今日内容是对已锚条目的补充（{todays_news(item, judgement)}）" if where else
            "本条在往期简报中出现过、尚未写入活文档" if judgement.briefs else
            "来源称其内容已锚（活文档未见以本条为名的条目），今日内容按整合处理")
    return f"{lead}。{tail}。"
