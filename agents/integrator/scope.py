"""Is an item in the topic's scope? Content first, the scouts' marks next, a card's category as evidence.

The evidence, in order of weight:

1. The scouts' own marks on the item (``agents.scanner.marks``): "<topic> 主轴仅
   邻接" and "丢弃" exclude; "归入：<this topic> §…" or "转 <this topic>"
   include; a placement only in other topics excludes unless the content is
   strongly about this one (an item can belong to two topics).
2. The item's own text (its passages, the lines that cite it, its card's
   title and summary, the queue's title): the topic's declared terms
   (``keywords`` in topics.toml) and the words of the living document's
   section titles.
3. A card's category: a category the topic accepts (its own name, the
   topic's ``adjacent`` list, by default every topic of the vault) needs
   some content evidence; any other category needs more.

Marks in another topic's brief speak for that topic: its placements count
(where *it* files the item), its "丢弃" and "沿用" do not.
Thresholds live in topics.toml (``min_relevance``); nothing here names a topic.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

from agents.integrator.cluster import NOTHING_FOR, Item
from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.marks import NO_NEW_DATA, Mark, placement_topic, read_marks
from agents.scanner.relevance import keyword_hits

__all__ = ["TopicFit", "ScopeRules", "item_marks", "judge_scope", "quiet_notes", "with_note_remarks", "own_text", "section_terms", "text_relevance", "topical_passages", "passage_verdicts", "PassageVerdict"]

_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
_SEGMENTS = re.compile(r"\s+/\s+|[、；;]|\s\+\s")
_GENERIC = frozenset({"与", "和", "及", "新进展", "新维度", "格局", "理论", "全景", "外部参照框架", "变更记录"})
_RAG_WORDS = ("rag", "retrieval", "rerank", "检索", "向量", "vecdb", "vector db")
STRONG = 3  # relevance at which content outweighs a scout's placement elsewhere


@dataclass(frozen=True)
class TopicFit:
    """Whether an item belongs in the topic's brief, how strongly, why not, and the scouts' status mark."""

    in_topic: bool
    relevance: int
    reason: str = ""
    mark: str | None = None  # "discard" | "carried" | "anchored" | "minor": a scout's status for the item, with ``evidence``
    evidence: str = ""
    stars: int = 0  # the scouts' own rating of the item (⭐ on its lines in notes), 0 when none


@dataclass(frozen=True)
class ScopeRules:
    """What a topic's scope is made of (from topics.toml and its living document)."""

    topic: str
    names: frozenset[str]  # how sources name this topic: its name, title, living document's stem
    keywords: tuple[str, ...]
    section_terms: tuple[str, ...] = ()
    adjacent: frozenset[str] = frozenset()  # card categories that count as this topic's evidence
    min_relevance: int = 1
    known_topics: frozenset[str] = frozenset()  # every topic and card category of the vault (placement targets)
    owners: frozenset[str] = frozenset()  # who writes this topic's brief (topics.toml ``executor``)
    people: frozenset[str] = frozenset()  # the vault's agents (schedule.toml): "转 <agent>" hands it to their lane
    # The living document's entries as of the brief, by the subject that opens them: (section id, subject).
    entries: tuple[tuple[str, str], ...] = ()
    tracked: frozenset[str] = frozenset()  # the names the living document keeps entries for (``tracked_subjects``)


def section_terms(sections: Sequence[Any]) -> tuple[str, ...]:
    """The distinctive words of the living document's section titles (Chinese runs, Latin words)."""
    terms: list[str] = []
    for section in sections:
        title = re.sub(r"[（(].*?[）)]", " ", str(getattr(section, "title", "")))
        for run in _CJK_RUN.findall(title):
            for part in re.split(r"[与和及]", run):
                if len(part) >= 2 and part not in _GENERIC:
                    terms.append(part)
    # Latin words of titles ("Token", "Cache", "Agentic") are too common to tell sections or topics apart;
    # the topic's keywords carry the Latin terms.
    return tuple(dict.fromkeys(terms))


def _segment(line: str, raw: str) -> str:
    """The part of a listing line that is about ``raw``: a table row whole, else the list segment holding it."""
    if line.lstrip().startswith("|"):
        return line
    return next((part for part in _SEGMENTS.split(line) if raw and raw in part), line)


def own_text(item: Item, extra: Sequence[str] = ()) -> str:
    """What the sources say about the item itself (not the headings of lists that merely name it)."""
    parts = [_segment(m.context or m.raw, m.raw) for m in item.anchors]
    for passage in item.passages:
        parts.append(passage.heading)
        parts.extend(line for _, line in passage.lines)
    if item.card is not None:
        parts.extend([str(getattr(item.card, "title", "")), str(getattr(item.card, "summary", ""))])
    if item.queue_title:
        parts.append(item.queue_title)
    parts.extend(extra)
    return "\n".join(p for p in parts if p)


def item_marks(item: Item) -> list[tuple[str, Mark]]:
    """(source path, mark) for the lines that are the item's: its passages and the lines citing it."""
    lines: dict[str, dict[int, str]] = {}
    for passage in item.passages:
        own = lines.setdefault(passage.path, {})
        if passage.heading:
            own[passage.start] = passage.heading
        for number, line in passage.lines:
            own[number] = line
        for number, line in getattr(passage, "references", []):  # a hand-over line naming the section
            own.setdefault(number, line)
    for mention in item.anchors:
        # Only the clause citing it: "系列综述，没有新数据；第 9 篇引了 X（2609.06674）" says nothing of X.
        said = mention.context or mention.raw
        lines.setdefault(mention.source, {})[mention.line] = _segment(said, mention.raw) if ";" in said or "；" in said \
            else said
    card = item.card
    if card is not None and getattr(card, "summary", ""):
        own = lines.setdefault(str(getattr(card, "path", "") or f"paper_card {card.card}"), {})
        for number, line in enumerate(str(card.summary).split("\n"), start=int(getattr(card, "summary_line", 1) or 1)):
            own.setdefault(number, line)
    return [(path, mark) for path, numbered in lines.items() for mark in read_marks(sorted(numbered.items()))]


def _relevance(text: str, rules: ScopeRules) -> tuple[int, list[str]]:
    lowered = text.lower()
    hits = keyword_hits(text, rules.keywords)
    extra = [t for t in rules.section_terms if t.lower() in lowered and not any(t.lower() in h for h in hits)]
    return min(5, len(hits) + min(len(extra), 2)), hits + extra


def _quote(text: str, limit: int = 60) -> str:
    text = re.sub(r"^\s*(?:[-*•>]|#{1,6})\s*", "", text).strip()
    return text if len(text) <= limit else text[:limit] + "…"


def _where(path: str, mark: Mark) -> str:
    return f"{path} L{mark.line}" if mark.line else path


def _says_nothing_for(remark: str, names: Collection[str]) -> bool:
    """The remark says the topic gets nothing here: "serving 主轴：无 NET-new", "本轮 serving 相关度低"
    (the topic before the words), "nothing new for serving" (after them)."""
    said = NOTHING_FOR.search(remark)
    if not said:
        return False
    before, after = remark[: said.start()].lower(), remark[said.end(): said.end() + 24].lower()
    return any(name in before for name in names) or (
        said.group(0).lower().endswith(" for") and any(re.match(rf"\s*(?:the\s+)?{re.escape(n)}\b", after) for n in names))


# A note's "nothing new" that says why: what it holds overlaps what is anchored ("和已锚内容重合", "基本覆盖").
_OVERLAPS_ANCHORED = re.compile(r"重合|已锚|覆盖|重复|沿用|已有|already (?:anchored|covered)|overlaps?", re.IGNORECASE)
_LOW_RELEVANCE = re.compile(r"相关度(?:很|较)?低|low relevance|unrelated|无关", re.IGNORECASE)
_SUMMARY_HEADING = re.compile(r"^\s{0,3}#{1,6}\s*(?:本轮|今日|本次)?\s*(?:小结|总结|结论|summary|wrap[- ]?up|tl;?dr)\b",
                              re.IGNORECASE)
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")


def _note_level_lines(text: str) -> list[str]:
    """The lines where a note speaks of itself: before its first section, and under a summary heading."""
    lines, inside, seen_section = [], False, False
    for line in text.split("\n"):
        if _HEADING.match(line):
            if line.lstrip().startswith("# "):  # the title: the preamble continues
                continue
            seen_section, inside = True, bool(_SUMMARY_HEADING.match(line))
            continue
        if not seen_section or inside:
            lines.append(line.strip())
    return lines


def quiet_notes(files: Sequence[Any], names: Collection[str]) -> dict[str, str]:
    """Notes that say of themselves — in their preamble or summary, not of one section — that they hold
    nothing for this topic ("本轮 serving 相关度低", "serving NET-new：无"): path → the note's own words."""
    quiet = {}
    for file in files:
        said = next((line for line in _note_level_lines(str(getattr(file, "body", "") or getattr(file, "text", "") or ""))
                     if _says_nothing_for(line, names)), None)
        if said:
            quiet[str(file.path)] = said
    return quiet


def with_note_remarks(item: Item, quiet: dict[str, str], briefs: Collection[str]) -> Item:
    """An item whose every first-hand source is a note that says it holds nothing for this topic carries
    that note's words (a card or another note discussing it speaks for itself)."""
    if item.key.startswith("note:") or item.card is not None:
        return item
    first_hand = [s for s in item.sources if s not in briefs]
    if not first_hand or not all(s in quiet for s in first_hand):
        return item
    return replace(item, remarks=[*item.remarks, *(quiet[s] for s in first_hand)],
                   sources=first_hand + [s for s in item.sources if s not in first_hand])


def _targets(value: str, rules: ScopeRules) -> tuple[bool, bool]:
    """(names this topic, names another known topic): an agent's name alone is neither."""
    words = {w.lower().removesuffix(".md") for w in re.findall(r"[A-Za-z][\w.-]*", value)}
    return bool(words & rules.names), bool(words & (rules.known_topics - rules.names))


def _receivers(mark: Mark) -> set[str]:
    """The people a hand-over names, from its first one to the clause's end ("→ jay / tom；2 → …": jay, tom)."""
    start = mark.text.find(mark.value) if mark.value else -1
    clause = re.split(r"[；;。，,（(]", mark.text[start:] if start >= 0 else "", maxsplit=1)[0]
    return {w.lower() for w in re.findall(r"[A-Za-z][\w-]*", clause)}


def _handover(mark: Mark, rules: ScopeRules) -> Mark | None:
    """The mark with a line-end arrow read: "→ spark llm-infra" hands the item over when it names a person or a
    topic of the vault (then it is a ``forwarded`` mark); "vLLM → SGLang" names neither and is no mark."""
    if mark.kind != "arrow":
        return mark
    words = re.findall(r"[A-Za-z][\w.-]*", mark.value)
    if not words or words[0].lower() not in rules.people | rules.known_topics | rules.names:
        return None
    return replace(mark, kind="forwarded")


def _section_key(section: str) -> str:
    """A section id as written or as kept ("§1.(8)", "§ 1.（8） 训练" → "§1.(8)")."""
    head = re.match(r"§\s?[\d.()（）]+", section.strip())
    # Its digits in order: a bracket a placement's quoting stripped ("§1.(8") is the same section.
    return ".".join(re.findall(r"\d+", head.group(0))) if head else section.strip()


# What stays with a topic in a hand-over's line: "留在 inference 这边", "留给 inference", "inference 这边留着".
_STAYS = re.compile(r"(?<![不别没])(?:留在|留给|留|归|放在)\s*(?:我们?的?|本)?\s*(?P<t>[A-Za-z][\w.-]*)|"
                    r"(?P<t2>[A-Za-z][\w.-]*)\s*这边\s*(?:留|跟|看)", re.IGNORECASE)
_LINE_LABEL = re.compile(r"^[\s\-*•>#]*(?:\d{1,2}[.、)]\s*)?([A-Za-z][\w.-]*)\s*[：:]")


def _handing(marks: Sequence[tuple[str, Mark]], rules: ScopeRules) -> list[tuple[str, Mark]]:
    """``(path, mark)`` pairs with their arrows read (``_handover``)."""
    return [(path, read) for path, mark in marks if (read := _handover(mark, rules)) is not None]


def _read_marks(lines: Sequence[tuple[int, str]], rules: ScopeRules) -> list[Mark]:
    """The marks of ``lines`` with their arrows read (``_handover``)."""
    return [read for mark in read_marks(lines) if (read := _handover(mark, rules)) is not None]


def _other_lane(mark: Mark, rules: ScopeRules) -> bool:
    """A hand-over to this topic's writer naming a lane of theirs that is not this topic: "转 tom evaluation"."""
    receivers = _receivers(mark)
    lanes = receivers - rules.people
    return bool(receivers & rules.owners) and bool(lanes) and not lanes & (
        rules.names | {k.lower() for k in rules.keywords})


def _kept_out(mark: Mark, rules: ScopeRules) -> bool:
    """The scout keeps the item out of this topic: names it (or its writer) as not the item's
    ("不归 inference", "别算进 spark 的增量"), or calls the topic's matter in it incidental
    ("推理只是顺带提了一嘴", "集群、serving 只是做实验的手段")."""
    if mark.kind == "adjacent":
        return mark.value in rules.names or mark.value in rules.owners
    if mark.kind == "incidental":
        what = mark.value.lower()
        return any(n in what for n in rules.names) or any(k.lower() in what for k in rules.keywords)
    return False


def judge_scope(item: Item, rules: ScopeRules, other_briefs: Collection[str] = (),
                extra_text: Sequence[str] = ()) -> TopicFit:
    """Decide whether ``item`` is in ``rules.topic``'s scope, with the reason and the evidence.

    ``other_briefs``: paths of other topics' briefs among the sources (their "丢弃"/"沿用" are theirs).
    ``extra_text``: more of the item's own words (the arXiv title when cached).
    """
    text = own_text(item, extra_text)
    relevance, hits = _relevance(text, rules)
    marks = _handing(item_marks(item), rules)
    ours = rules.names
    stars = max((int(m.value) for path, m in marks if m.kind == "rating" and path not in other_briefs), default=0)

    def targets(value: str) -> tuple[bool, bool]:
        return _targets(value, rules)

    for path, mark in marks:
        # Another topic's brief speaks for its topic ("（llm-infra 邻接）" in the inference brief files it there).
        if _kept_out(mark, rules) and path not in other_briefs:
            return TopicFit(False, relevance, f"来源标注不属本主轴：「{_quote(mark.text)}」（{_where(path, mark)}）")
    placed_here = placed_else = forwarded = None
    for path, mark in marks:
        if mark.kind == "placed":
            topic, section = placement_topic(mark.value)
            if topic is None:
                # A section alone is the note's own topic's: this topic's only where its document has it.
                ids = {_section_key(sid) for sid, _ in rules.entries}
                if path not in other_briefs and section and (not ids or _section_key(section) in ids
                                                               or not re.match(r"§\s?\d", section)):
                    placed_here = placed_here or (path, mark)
            elif topic in ours:
                placed_here = placed_here or (path, mark)
            elif topic in rules.known_topics:
                placed_else = placed_else or (path, mark)
        elif mark.kind == "forwarded" and path not in other_briefs:  # another topic's brief hands over for its topic
            stays = [(m.group("t") or m.group("t2")).lower() for m in _STAYS.finditer(mark.text)]
            if any(t in ours for t in stays):
                # "安全细节交 flyp 深读，性能开销留在 inference 这边": one aspect handed over, the item stays here.
                placed_here = placed_here or (path, mark)
                continue
            here, elsewhere = targets(mark.value)
            label = _LINE_LABEL.match(mark.text.split("转")[0])
            if not (here or elsewhere) and label:
                # Handed to a person ("rag：A / B 转 ann"): the line's own topic label says whose it is (a
                # topic named elsewhere on the line, "llm-infra 不重复计", labels nothing).
                here, elsewhere = targets(label.group(1))
            if not (here or elsewhere):
                # Else the person: another agent's lane is not this topic's; this topic's own writer may keep
                # several lanes ("转 tom" can be tom's rag line), so that says nothing either way; nor does a
                # hand-over to several people one of whom writes this topic ("→ jay / tom").
                who = mark.value.split()[0].lower() if mark.value.split() else ""
                elsewhere = who in rules.people and (not (_receivers(mark) & rules.owners) or _other_lane(mark, rules))
            if here:
                placed_here = placed_here or (path, mark)
            elif elsewhere:
                forwarded = forwarded or (path, mark)
    status = next(((path, mark) for kind in ("discard", "carried", "anchored", "minor") for path, mark in marks
                   if mark.kind == kind and path not in other_briefs), None)
    if status is None and item.key.startswith("note:"):
        # A note that says of itself it holds no new data ("读代码笔记型，没有新数据"): so does its digest.
        status = next(((item.sources[0], Mark("minor", "", 0, remark)) for remark in item.remarks
                       if NO_NEW_DATA.search(remark)), None)
    status_mark = status[1].kind if status else None
    label = {"discard": "丢弃", "carried": "沿用", "anchored": "已锚入", "minor": "新意有限"}
    evidence = f"来源标注{label[status[1].kind]}：「{_quote(status[1].text)}」（{_where(*status)}）" if status else ""
    if status_mark == "discard":
        return TopicFit(False, relevance, f"来源标注丢弃：「{_quote(status[1].text)}」（{_where(*status)}）",
                        "discard", evidence)
    if placed_here is not None:
        return TopicFit(True, max(relevance, STRONG), mark=status_mark, evidence=evidence, stars=stars)
    if forwarded is not None:  # handed to another topic ("转 training"): that topic's, not ours
        path, mark = forwarded
        return TopicFit(False, relevance, f"来源标注转交：「{_quote(mark.text)}」（{_where(path, mark)}）")
    own_label = {_heading_label(p.heading) for p in item.passages} - {None}
    for remark in getattr(item, "remarks", []):
        named = remark_labels(remark)
        if named and own_label and not own_label & named:
            continue  # "…；线索3/4 和已锚内容重合" speaks of those sections, not of this one
        if _says_nothing_for(remark, ours):  # the note itself (or, for its items, its preamble or summary)
            if relevance >= 1 and _OVERLAPS_ANCHORED.search(remark) and not _LOW_RELEVANCE.search(remark):
                # "inference 主轴：无 NET-new；…和已锚内容重合": the topic's matter, already kept — carried.
                return TopicFit(True, relevance, mark="carried", stars=stars,
                                evidence=f"来源注明本主轴无新增：「{_quote(remark)}」（{item.sources[0]}）")
            return TopicFit(False, relevance, f"来源注明本主轴相关度低：「{_quote(remark)}」（{item.sources[0]}）")
    if placed_else is not None and (relevance < STRONG or "§" in placed_else[1].value):
        # "归入：engineering §训练基础设施": a scout filing it under another topic's section has read it as that topic's.
        path, mark = placed_else
        return TopicFit(False, relevance, f"来源建议归入「{mark.value[:40]}」（{_where(path, mark)}），"
                        f"正文本主轴相关词仅 {relevance} 个")
    unrelated = _unrelated_to_topic(text, rules)
    if unrelated is not None:
        # "与推理 serving 无直接关系", "unrelated to KV caching": the source says the item is not about the topic's
        # matter (a card's own note on what it relates to, whatever its class).
        return TopicFit(False, relevance, f"来源注明与本主轴内容无关：「{_quote(unrelated)}」")
    quality_only = _QUALITY_ONLY.search(text) if _QUALITY.search(text) else None
    if quality_only is not None:
        # "评测指标均为答题准确率（EM / F1）；显存、吞吐、延迟…正文未报告": a study of model quality that measures
        # nothing of the system, whatever its card's class or its words of the set-up (vLLM, 长上下文).
        return TopicFit(False, relevance, f"只测模型质量指标，来源注明未报告系统侧数字：「{_quote(quality_only.group(0))}」")
    card = item.card
    if card is not None:
        classes = {c for c in (getattr(card, "primary", None), getattr(card, "secondary", None)) if c}
        accepted = classes & (rules.adjacent | ours)
        primary = getattr(card, "primary", None)
        if primary in (rules.adjacent | ours):
            need, score = rules.min_relevance, relevance
        elif accepted:
            need, score = rules.min_relevance + 1, relevance
        else:  # a card filed elsewhere: only the topic's own terms, and strongly, outweigh it
            need, score = STRONG, len([h for h in hits if h in {k.lower() for k in rules.keywords}])
        if score >= need:
            return TopicFit(True, relevance, mark=status_mark, evidence=evidence, stars=stars)
        if _card_relates(card, rules):
            # Whatever its class, the card ties itself to this topic ("待复核是否归 llm-infra") or to what its
            # living document keeps ("与已锚的 GeoPair、TriAttention 同组"): the card's own words, not its class.
            return TopicFit(True, max(relevance, rules.min_relevance), mark=status_mark, evidence=evidence, stars=stars)
        # As the card has them: primary first ("rag/llm-infra" is a RAG card with a secondary category).
        category = "/".join(c for c in (getattr(card, "primary", None), getattr(card, "secondary", None)) if c)
        why = "但正文无本主轴内容" if accepted else "正文本主轴相关词不足"
        return TopicFit(False, relevance, f"paper_card {card.card} 分类 {category}，{why}（相关词 {relevance} 个）")
    if relevance >= rules.min_relevance:
        return TopicFit(True, relevance, mark=status_mark, evidence=evidence, stars=stars)
    rag = any(word in text.lower() for word in _RAG_WORDS)
    return TopicFit(False, 0, "仅 RAG 内容，无本主轴关键词" if rag else f"正文无 {rules.topic} 主轴关键词")


_NO_RELATION = (r"(?:无直接关系|没有?直接关系|关系不大|关联不大|无关|不相关|没(?:有)?(?:什么|啥)?关系|"
                r"一点关系(?:都|也)?没有|扯不上(?:关系)?|不沾边)")


def _unrelated_to_topic(text: str, rules: ScopeRules) -> str | None:
    """A line saying the item has nothing to do with the topic's matter: its name or a term of its own ("与推理
    serving 无直接关系", "跟 KV cache 一点关系没有", "unrelated to LLM inference serving")."""
    terms = sorted({*rules.names, *(k.lower() for k in rules.keywords)}, key=len, reverse=True)
    if not terms:
        return None
    alternatives = "|".join(re.escape(t) for t in terms)
    pattern = re.compile(
        rf"(?:与|和|跟|对)\s*(?:[A-Za-z\u4e00-\u9fff]{{0,6}}\s*)?(?:{alternatives})(?:\s*[A-Za-z\u4e00-\u9fff/-]{{0,12}})?"
        rf"\s*(?:都|也|完全|根本)?\s*{_NO_RELATION}|"
        rf"\b(?:unrelated|not (?:directly |really )?related|irrelevant|has nothing to do)\s+(?:to|with)\s+"
        rf"(?:the\s+|LLM\s+)?(?:{alternatives})", re.IGNORECASE)
    for line in text.split("\n"):
        match = pattern.search(line)
        if match and not re.search(r"不是|并非|并不是|\bnot\b", line[max(0, match.start() - 4):match.start()]):
            return line.strip()
    return None


# A study measuring model quality ("准确率", "EM / F1", "accuracy", "pass@1"), whose sources say it reports nothing of
# the system (memory, throughput, latency): an evaluation, not a serving or infrastructure result.
_QUALITY = re.compile(r"准确率|正确率|(?<![A-Za-z])(?:EM|F1)(?![A-Za-z])|\baccuracy\b|pass@\d|胜率|\bwin rate\b|BLEU|ROUGE",
                      re.IGNORECASE)
_SYSTEM_SIDE = r"(?:显存|内存|吞吐|延迟|时延|TTFT|TPOT|KV\s*(?:占用|cache)|系统侧(?:数字|指标)?|系统指标|开销)"
_QUALITY_ONLY = re.compile(
    rf"{_SYSTEM_SIDE}[^。；;\n]{{0,30}}?(?:均|都|全|一概|一律)?(?:未|没有?|并未)(?:报告|给出?|报|测量?|提供|涉及)|"
    rf"(?:未|没有?|并未)(?:报告|给出?|测量?|提供)[^。；;\n]{{0,10}}?{_SYSTEM_SIDE}|"
    r"\bno (?:latency|throughput|memory|system)[\w\s,/-]{0,40}?(?:numbers|figures|results|measurements|metrics)\b|"
    r"\b(?:latency|throughput|memory|system)[\w\s,/-]{0,40}?(?:are|were|is|was) (?:not|never) (?:reported|measured)\b",
    re.IGNORECASE)


def _card_relates(card: Any, rules: ScopeRules) -> bool:
    """The card's own text names this topic or a subject its living document keeps an entry for."""
    text = f"{getattr(card, 'title', '')}\n{getattr(card, 'summary', '')}"
    for line in text.split("\n"):
        # "待复核是否归 llm-infra", "可归 llm-infra", "llm-infra 候选": placed here, if tentatively.
        for match in _MAYBE_HERE.finditer(line):
            if (match.group("a") or match.group("b") or "").lower() in rules.names:
                return True
        # "与已锚的 GeoPair、TriAttention 同组": tied to the document's own entries.
        if _ANCHORED_KIN.search(line):
            words = {w.lower() for w in re.findall(r"[A-Za-z][\w.+-]*[A-Za-z0-9]", line)}
            if words & ({t for t in rules.tracked if len(t) >= 4} - {k.lower() for k in rules.keywords}):
                return True
    return False


_MAYBE_HERE = re.compile(r"(?:是否)?(?:归|归入|转入|应归|可归|放进|进)\s*(?P<a>[A-Za-z][\w.-]*)|"
                         r"(?P<b>[A-Za-z][\w.-]*)\s*(?:主轴|主题)?\s*候选")
_ANCHORED_KIN = re.compile(r"已锚|同组|同一条线|同一线|同方向|同一系列|same line as|alongside", re.IGNORECASE)


_SUBJECT_HEAD = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?([A-Za-z][\w.+-]*[A-Za-z0-9])")
_VERSION_WORD = re.compile(r"^v?\d+(?:\.\d+)*$", re.IGNORECASE)


def entry_subjects(anchored: Sequence[tuple[Any, Any]]) -> tuple[tuple[str, str], ...]:
    """(section id, subject) of each anchored bullet: the words before its first "：" or bracket, when
    they read as a name of ten characters or more ("K8s Gateway API Inference Extension")."""
    found = []
    for section, bullet in anchored:
        head = re.split(r"[：:（(〔]", str(getattr(bullet, "text", "")), maxsplit=1)[0].strip(" -*")
        if 10 <= len(head) <= 60:
            found.append((str(getattr(section, "id", "")), head))
    return tuple(found)


def kept_entry(heading: str, rules: ScopeRules) -> tuple[str, str] | None:
    """The living-document entry a section heading names whole ("## K8s Gateway API Inference Extension ⭐⭐⭐")."""
    name = re.sub(r"[⭐★☆⚠⚬]+", "", re.sub(r"^\s*#*\s*(?:§\S+\s+|[\w.]+[.、:：]\s+)?", "", heading)).strip().lower()
    if len(name) < 10:
        return None
    return next(((sid, head) for sid, head in rules.entries
                 if name.startswith(head.lower()) or head.lower().startswith(name)), None)


def tracked_subjects(bullets: Sequence[Any]) -> frozenset[str]:
    """The names the living document keeps entries for: the leading name of each anchored bullet
    ("llm-d 入选 …", "**Orca** v2：…"), lower-cased. A later release of a tracked thing is the topic's."""
    names = set()
    for bullet in bullets:
        head = re.split(r"[：:（(—]", str(getattr(bullet, "text", "")), maxsplit=1)[0]
        match = _SUBJECT_HEAD.match(head)
        if match and len(match.group(1)) >= 3 and not _VERSION_WORD.match(match.group(1)):
            names.add(match.group(1).lower())
            # A vendor's product ("NVIDIA Dynamo 1.0"): the word after the vendor names the product too.
            after = _VENDOR_PRODUCT.match(head, match.end())
            if after and match.group(1).isupper():
                names.add(after.group(1).lower())
    return frozenset(names)


_VENDOR_PRODUCT = re.compile(r"\s+([A-Z][\w.+-]*[A-Za-z0-9])(?=\s+v?\d|\s*$)")


def section_subjects(sections: Sequence[Any]) -> tuple[tuple[str, str], ...]:
    """(section id, name) of the systems a living-document section heading lists in its aside ("§1.2 分布式推理编排
    （llm-d · K8s）" → llm-d, K8s): a segment of the aside that is one name whole ("Era 5" names nothing). The
    heading's own words ("KV Cache 安全新维度", "Context Engineering 与 Agentic RAG") are the field's vocabulary:
    a page using them is about one aspect of the field, which may well be new."""
    found = []
    for section in sections:
        heading = str(getattr(section, "title", ""))
        for aside in re.findall(r"[（(]([^（()）]*)[)）]", heading):
            for part in (part.strip() for part in re.split(r"[·、,，/;；]", aside)):
                if len(part) >= 3 and _NAME_RUN.fullmatch(part) and not _VERSION_WORD.match(part):
                    found.append((str(getattr(section, "id", "")), part))
    return tuple(found)


_NAME_RUN = re.compile(r"[A-Za-z][\w.+-]*(?:[ \t]+[A-Za-z][\w.+-]*)*")


def subject_anchored(title: str, subjects: Sequence[tuple[str, str]]) -> str | None:
    """The system a living-document section is about that a title opens with ("llm-d · KV cache wins you can see"
    beside "§1.2 分布式推理编排（llm-d · K8s）"): a page about it adds to that section. A name that only opens some
    bullet ("vLLM v0.30.0 …") is no such subject: a page about one of its many aspects may well be new."""
    text = re.sub(r"^\W+", "", title or "")
    for _, name in sorted(subjects, key=lambda pair: -len(pair[1])):
        if re.match(rf"{re.escape(name)}(?![\w-])", text, re.IGNORECASE):
            return name
    return None


def names_tracked(title: str, names: Sequence[str], tracked: Collection[str]) -> str | None:
    """The tracked subject an item is named after (its title's or a name's leading word), if any."""
    for text in (title, *names):
        match = _SUBJECT_HEAD.match(text or "")
        if match and match.group(1).lower() in tracked:
            return match.group(1)
    return None


_LISTED_FOR_TOPIC = "来源小结列为本主轴相关"  # how a section the note lists for the topic is said


class PassageVerdict(NamedTuple):
    """Where one rated section of a note digest goes: kept in the digest, carried, or excluded, and why."""

    passage: Any
    place: str  # "kept" | "carried" | "below" (listed for the topic, nothing of it said) | "excluded"
    reason: str
    listed: bool = False  # the note's own summary lists this section as the topic's ("inference 相关：§2")


# The label of a note's own section: "## §4 …", "## 4. …", "## 线索4 …", "### Item 4 …".
_HEADING_LABEL = re.compile(r"^\s{0,3}#{1,6}\s*(?:§\s*|线索\s*|条目\s*|(?:item|lead)\s+)?(\d{1,2})(?![\d])", re.IGNORECASE)
# Section labels a remark names: "线索3/4", "§3、§4", "线索 1 和 5".
_REMARK_LABELS = re.compile(r"(?:线索|§|条目)\s*(\d{1,2}(?:\s*(?:/|、|,|，|和|及|与|-)\s*(?:线索|§)?\s*\d{1,2})*)")


def _heading_label(heading: str) -> str | None:
    match = _HEADING_LABEL.match(heading or "")
    return match.group(1) if match else None


def remark_labels(remark: str) -> set[str]:
    """The note's own section labels a remark names ("线索3/4 是生产运维清单" → {"3", "4"})."""
    return {n for m in _REMARK_LABELS.finditer(remark) for n in re.findall(r"\d{1,2}", m.group(1))}


_SECTION_LABEL = re.compile(r"^\s{0,3}#{1,6}\s*(?:§\s*)?(\d{1,2}(?:\.\d+)*)(?:[.、)]|\s)")
# The sections a routing line lists: "§1 / §3", "1、2", "§2 only"; a count or a figure is no label.
_LISTED_LABEL = re.compile(r"§\s*(\d{1,2}(?:\.\d+)*)(?![\d.])|"
                           r"(?<![\d.§A-Za-z])(\d{1,2})(?![\d.]|\s*(?:%|ms|s\b|×|x\b|倍|个|条|件|份|篇|项|GB|k\b|大|种|类|步|款|家|层|点|日|天|年|月))")


def _section_label(heading: str) -> str | None:
    match = _SECTION_LABEL.match(heading)
    return match.group(1) if match else None


def _routed(item: Item, rules: ScopeRules) -> tuple[set[str], tuple[int, str] | None]:
    """(labels a note's summary keeps for this topic, the line routing the rest elsewhere): from
    "inference 相关：§1 vLLM 生产 10 大坑" followed by "其余是 RAG / VecDB，转 tom". None when the note
    does not route its sections by topic."""
    routing = getattr(item, "routing", [])
    for (number, line), (rest_number, rest) in zip(routing, routing[1:], strict=False):
        if rest_number != number + 1:
            continue
        head = re.split(r"相关|[：:]", line, maxsplit=1)[0]
        if not _targets(head, rules)[0]:
            continue
        labels = {a or b for a, b in _LISTED_LABEL.findall(line.split("：", 1)[-1].split(":", 1)[-1])}
        if labels:
            return labels, (rest_number, rest)
    return set(), None


def _lane_elsewhere(mark: Mark, rules: ScopeRules) -> bool:
    """A hand-over to this topic's own writer that names another of their lanes: "转 tom（rag）", "→ tom / rag"."""
    after = mark.text.split(mark.value, 1)[-1][:16]
    lane = re.match(r"\s*[（(/·]\s*([A-Za-z][\w.-]*)", after)
    return bool(lane) and _targets(lane.group(1), rules) == (False, True)


# A heading that asks: "vLLM 0.31 发了？", "Is Quill 2.0 out?" (marks and ratings after the question mark).
_ASKED = re.compile(r"[？?]\s*(?:[⭐★☆⚠⚬]|\s)*$")


def _marks_a_paper(mark: Mark) -> bool:
    """The mark stands in the clause or cell of its line that cites a paper ("…（2609.19969，9-27 已锚）"): the
    paper's status, not the section's ("系列综述，没有新数据；第 9 篇引了 X（2609.06674）" is the section's)."""
    for clause in re.split(r"[；;|]", mark.text):
        if any(not r.malformed for r in find_arxiv_refs(clause)) and \
                any(m.kind == mark.kind for m in read_marks([(mark.line, clause)])):
            return True
    return False


def passage_verdicts(item: Item, rules: ScopeRules) -> list[PassageVerdict]:
    """Each passage of a note digest judged on its own words and marks.

    A note's rated sections can be about anything (a vector-database table beside a vLLM section):
    one the scout set aside ("不单列", "丢弃") is excluded with its words, one marked anchored or carried
    ("已锚", "沿用") is carried with its words, one that does not speak of the topic is excluded with its
    relevance; the rest are the digest's news.
    """
    verdicts = []
    kept_labels, routed = _routed(item, rules)
    for passage in item.passages:
        lines = [(passage.start, passage.heading), *passage.lines]
        label = _section_label(passage.heading)
        # The summary routes its own note's sections: a section joined from another note (a sequel) is not one.
        if routed is not None and label is not None and label not in kept_labels and passage.path == item.sources[0]:
            verdicts.append(PassageVerdict(passage, "excluded", f"来源小结只列 §{' / §'.join(sorted(kept_labels))} 为本主轴相关，"
                                           f"其余转交：「{_quote(routed[1])}」（{passage.path} L{routed[0]}）"))
            continue
        marks = _read_marks(lines, rules)
        outside = next((m for m in marks if _kept_out(m, rules)), None)
        if outside is not None:  # "和 inference 没关系", "不进 inference": the scout keeps it out of this topic
            verdicts.append(PassageVerdict(passage, "excluded", f"来源标注不属本主轴：「{_quote(outside.text)}」"
                                           f"（{_where(passage.path, outside)}）"))
            continue
        if _ASKED.search(passage.heading):
            # "## vLLM 0.31 发了？⚠⚬⚬⚬": the scout asks, asks someone to check; a question is no news of its own.
            verdicts.append(PassageVerdict(passage, "excluded", f"来源以问句提出、待核实，不作增量：「{_quote(passage.heading)}」"
                                           f"（{passage.path} L{passage.start}）"))
            continue
        # A status said on a line citing a paper ("| DeepSeek-V4.1-Flash | … |（2609.19969，9-27 已锚）") is that
        # paper's, not the section's.
        own_marks = [m for m in marks if not _marks_a_paper(m)]
        status = next((m for kind in ("discard", "carried", "anchored") for m in own_marks if m.kind == kind), None)
        if status is not None:
            where = _where(passage.path, status)
            if status.kind == "discard":
                verdicts.append(PassageVerdict(passage, "excluded", f"来源标注丢弃 / 不单列：「{_quote(status.text)}」（{where}）"))
            else:
                said = "来源标注已锚 / 沿用" if re.search(r"锚|沿用|续用|续立|carried|anchored", status.text, re.IGNORECASE) \
                    else "来源注明无新内容"
                verdicts.append(PassageVerdict(passage, "carried", f"{said}：「{_quote(status.text)}」（{where}）"))
            continue
        # The note's own lines naming this section ("转交：§3 / §6 → stephen") mark it as the section's lines do.
        referring = _read_marks(getattr(passage, "references", []), rules)
        handed = next((m for m in [*marks, *referring] if m.kind == "forwarded" and not _targets(m.value, rules)[0]
                       and not _targets(m.text.split("转")[0], rules)[0]
                       and (not (_receivers(m) & rules.owners) or _lane_elsewhere(m, rules) or _other_lane(m, rules))),
                      None)
        # The note's own list of what is this topic's ("inference 相关：§2、§3、§7") keeps a section it also
        # hands to someone else ("转交：§3 / §7 → stephen"): shared, not given away.
        listed_here = any(_targets(re.split(r"相关|[：:]", line, maxsplit=1)[0], rules)[0]
                          for _, line in getattr(passage, "references", []))
        if handed is not None and listed_here:
            # Kept for this topic: the hand-over line shares it, it does not speak for the item here.
            passage = replace(passage, references=[(n, line) for n, line in passage.references
                                                   if not any(m.kind == "forwarded" for m in read_marks([(n, line)]))])
        if handed is not None and not listed_here:  # handed to someone else ("转 flyp", "→ training"): theirs
            verdicts.append(PassageVerdict(passage, "excluded",
                                           f"来源标注转交：「{_quote(handed.text)}」（{_where(passage.path, handed)}）"))
            continue
        # Another note naming the section by its title and handing it on ("X（11:05 §②）：保留给 engineering 主轴").
        handed_elsewhere = next(((path, m) for path, number, line in getattr(passage, "elsewhere", [])
                                 for m in _read_marks([(number, line)], rules)
                                 if m.kind == "forwarded" and not _targets(m.value, rules)[0]
                                 and not (_receivers(m) & rules.owners)), None)
        if handed_elsewhere is not None and not listed_here:
            path, mark = handed_elsewhere
            verdicts.append(PassageVerdict(passage, "excluded", f"来源标注转交：「{_quote(mark.text)}」（{_where(path, mark)}）"))
            continue
        label = _heading_label(passage.heading)
        overlap = next((r for r in getattr(item, "remarks", []) if label and label in remark_labels(r)
                        and _OVERLAPS_ANCHORED.search(r) and not _LOW_RELEVANCE.search(r)), None)
        if overlap is not None:  # "线索3/4 是生产运维清单，和已锚内容重合": the note says this section is anchored matter
            verdicts.append(PassageVerdict(passage, "carried", f"来源注明与已锚内容重合：「{_quote(overlap)}」"
                                           f"（{passage.path}）"))
            continue
        entry = kept_entry(passage.heading, rules)
        if entry is not None:  # the document keeps an entry for exactly this subject: anchored matter
            verdicts.append(PassageVerdict(passage, "carried", f"活文档 {entry[0]} 已有该条目：「{entry[1]}」"
                                           f"（{passage.path} L{passage.start}）"))
            continue
        text = "\n".join(line for _, line in lines)
        relevance, _ = _relevance(text, rules)
        threshold = max(2, rules.min_relevance)
        # One of the topic's terms, and the section speaks to this topic by name ("对 inference：…", "inference 侧
        # 的结论…"): the scout addresses it to this topic.
        addressed = relevance >= 1 and _targets(text, rules)[0]
        if relevance >= threshold or (addressed and not listed_here):
            verdicts.append(PassageVerdict(passage, "kept", "", listed_here))
        elif listed_here:
            # The note lists it as the topic's, but it says nothing of the topic's own matter: listed below the
            # cut on its own, neither excluded against the note's word nor bundled into the digest's news.
            verdicts.append(PassageVerdict(passage, "below", f"{_LISTED_FOR_TOPIC}，但该段无本主轴术语（相关度 {relevance}），"
                                           f"不并入当日增量（{passage.path} L{passage.start}）"))
        elif relevance >= 1:
            # Some of the topic's matter, too little to stand alone (a deployment note naming the engine once):
            # not off-topic; listed below the cut with what it holds, or with the note's own word on it.
            said = next((r for r in getattr(item, "remarks", []) if NO_NEW_DATA.search(r)), None)
            verdicts.append(PassageVerdict(passage, "below", f"来源标注新意有限：「{_quote(said)}」（{passage.path}）" if said
                                           else f"该段只含 {relevance} 个本主轴术语（门槛 {threshold}），"
                                           f"内容偏弱，未单列（{passage.path} L{passage.start}）"))
        else:
            verdicts.append(PassageVerdict(passage, "excluded", f"该段本主轴相关度 {relevance}，低于门槛 {threshold}"
                                           f"（{passage.path} L{passage.start}）"))
    return verdicts


def topical_passages(item: Item, rules: ScopeRules) -> list[Any]:
    """A note digest's passages that are about this topic and that the scout did not set aside."""
    return [v.passage for v in passage_verdicts(item, rules) if v.place == "kept"]


def text_relevance(text: str, rules: ScopeRules) -> int:
    """How strongly a text speaks of the topic (declared terms and section words), 0–5."""
    return _relevance(text, rules)[0]
