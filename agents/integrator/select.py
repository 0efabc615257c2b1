"""Which items make the brief: topic fit, status against what was anchored, ranking, density.

Status is judged against the living document *as it stood when the brief
was written*: bullets whose marker date is before the brief's date (the
evening merge of D-1 lands after D-1's brief, so it counts for D; a D marker
does not), and against the earlier briefs of the same slot.

- ``net_new``: no anchored bullet and no earlier brief names the item.
- ``integrated``: named before, but today brings figures the anchored text
  does not hold, or a paper card that was not there.
- ``carried``: named before and nothing new; not listed as an increment.

The count is the topic's range (``increments = [3, 8]``) read as a cap and a
target, never a quota: items below the bar stay out even on a thin day.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from agents.integrator.cluster import Item, item_text
from agents.integrator.scope import STRONG, TopicFit
from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.e1_format import anchoring_lines, is_brief_path, is_relay_path, relayed_only
from agents.scanner.history import HISTORY_WINDOWS

__all__ = [
    "Judgement",
    "TopicFit",
    "SourceHealth",
    "judge_status",
    "briefs_naming",
    "restates_chosen",
    "figure_known",
    "said_unchanged",
    "mentions_item",
    "cut_reason",
    "item_text",
    "rank_score",
    "select_items",
    "density_of",
    "source_health",
    "honesty_statement",
    "HISTORY_WINDOWS",
]

# Hosts that say nothing about which page it is: matching them is not "already anchored".
_GENERIC_HOSTS = frozenset({
    "github.com", "arxiv.org", "doi.org", "huggingface.co", "medium.com", "blog.csdn.net", "zhihu.com",
    "x.com", "twitter.com", "youtube.com", "www.youtube.com", "substack.com", "dev.to",
})
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
# NET-new is the brief's first purpose: an integration (new figures on anchored matter) needs clearly more
# substance to outrank a NET-new item.
_NOVELTY = {"net_new": 3.0, "integrated": 1.0, "carried": 0.0}
_FLAG_BONUS = {"Top 0.5": 1.0, "Top 15": 0.5}
MIN_RELEVANCE = 2


@dataclass
class Judgement:
    """An item's status and the anchored text it was judged against."""

    status: str
    bullets: list[tuple[Any, Any]] = field(default_factory=list)  # (Section, Bullet) that cite it
    briefs: list[str] = field(default_factory=list)  # earlier briefs that name it
    new_figures: list[Any] = field(default_factory=list)
    new_card: bool = False
    marked: str = ""  # a scout's own "沿用"/"已锚入" mark that made the item carried, with where
    echoes: list[Any] = field(default_factory=list)  # figures another subject's sources gave earlier (Echo)


def _host(url: str) -> str:
    host = (urlsplit(url).hostname or "").lower()
    return host[4:] if host.startswith("www.") else host


_VAULT_PATH = re.compile(r"(?:inbox|organized)/[\w./-]+?\.md", re.IGNORECASE)


def mentions_item(text: str, item: Item) -> bool:
    """Tell whether ``text`` names the item: its arXiv number, its URL (or page host), its PR."""
    if item.arxiv and any(ref.id in item.arxiv for ref in find_arxiv_refs(text)):
        return True
    # A vault path names its file, not what it is about ("…-tierweave-kvset-sep30.md" is no mention of KVSET).
    lowered = _VAULT_PATH.sub(" ", text).lower()
    for url in item.urls:
        bare = url.split("://", 1)[-1].rstrip("/").lower()
        host = _host(url)
        # A site's name stands for its front page only: one post of llm-d.ai is not another.
        root = "/" not in bare
        if bare in lowered or (root and host and host not in _GENERIC_HOSTS and host in lowered):
            return True
    return any(name in lowered for name in item.names)


# A figure its line says is as before ("2-4× 区间不变", "same as v0.30", "持平"): no news of the item.
_UNCHANGED = re.compile(r"(?<![不没])变化?不大|不变|没变|未变|照旧|持平|(?<!不)一致|\bunchanged\b|\bsame as (?:before|v?\d)|\bno change\b", re.IGNORECASE)


def said_unchanged(figure: Any) -> bool:
    """The figure's own clause says it did not change."""
    context = str(getattr(figure, "context", "") or "")
    raw = str(getattr(figure, "raw", "") or "")
    at = context.find(raw)
    clause = re.split(r"[；;。]", context[at:] if at >= 0 else context)[0]
    return bool(_UNCHANGED.search(clause))


def fresh_figures(item: Any, known: str) -> list[Any]:
    """The item's figures that are news against `known`: no set-up size, no relayed brief, not said unchanged."""
    return [f for f in item.figures if not f.detail.get("spec") and not is_relay_path(f.source)
            and not figure_known(f, known) and not said_unchanged(f)]


def figure_known(figure: Any, known: str) -> bool:
    numbers = _NUMBER.findall(figure.raw)
    if not numbers:
        return True
    if len(numbers[0].replace(".", "").replace(",", "")) <= 1:
        return figure.raw.replace(" ", "") in known.replace(" ", "")
    # The number as a number: "25" is not known from "2025" or "1.25", nor "3.8" from "13.85".
    return re.search(rf"(?<![\d.,]){re.escape(numbers[0])}(?!\d|[.,]\d)", known) is not None


# A number that tells one measurement from another: a grouped thousand, a decimal, three digits or more
# (not part of a version or a longer number: "v0.30.0" holds none). Years are set apart with ``YEAR``.
# Nor a model's name or size ("Llama-3.1-70B", "Qwen3-32B") nor a context or model size ("128K", "70B"): set-up.
DISTINCT_NUMBER = re.compile(r"(?<![\w.])(?<![A-Za-z]-)(?:\d{1,3}(?:,\d{3})+|\d+\.\d+|\d{3,})(?![\w.,]*\d)(?![KkMB](?![a-z]))")
_GROUPED = re.compile(r"(?<![\w.,])\d{1,3}(?:,\d{3})+(?![\w.,])")  # 16,200: thousands grouped, not a version
YEAR = re.compile(r"(?:19|20)\d\d")


def _anchored_by_figures(item: Item, anchored: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """A bullet that holds two or more of the item's distinctive figures anchors it, though it names
    the source otherwise ("SGLang 16,200 tok/s vs vLLM 12,500 tok/s" for a benchmark page)."""
    numbers = {n for f in item.figures for n in DISTINCT_NUMBER.findall(f.raw)}
    # A table's bare cells ("| 吞吐 tok/s | 16,200 | 12,500 |") are figures too, when they are distinctive.
    numbers |= {n for p in item.passages for _, line in p.lines for n in _GROUPED.findall(line)}
    numbers = {n for n in numbers if not YEAR.fullmatch(n.replace(",", ""))}
    if len(numbers) < 2:
        return []
    return [(s, b) for s, b in anchored if sum(1 for n in numbers if _has_number(n, b.text)) >= 2]


def _has_number(number: str, text: str) -> bool:
    """``text`` states ``number`` as a number: "1.2" is not stated by "v1.2.1", nor "120" by "1200"."""
    return re.search(rf"(?<![\w.,])(?<![A-Za-z]-){re.escape(number)}(?!\d|[.,]\d)", text) is not None


# The words a claim is made of: names, versions, figures and the Latin terms of the field ("RadixAttention",
# "multi-LoRA", "llama.cpp", "92.7k"), lower-cased; Chinese prose is too loose to compare word by word.
_CLAIM_WORD = re.compile(r"[A-Za-z][A-Za-z0-9.+-]*[A-Za-z0-9]|\d+(?:[.,]\d+)*(?:\s*(?:%|×|x|ms|s|k|tok/s|GB))?")
_PLAIN = frozenset({"the", "and", "for", "with", "vs", "via", "on", "in", "of", "to", "is", "are", "a", "an",
                    "https", "http", "www", "com"})
_SAME_CLAIM = 4  # words a claim line shares with one anchored bullet to restate it


def _claim_words(text: str) -> set[str]:
    return {w.lower() for w in _CLAIM_WORD.findall(text) if w.lower() not in _PLAIN and len(w) >= 2}


def _anchored_by_claims(item: Item, anchored: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """The bullets an item's own claims restate, when most of them do ("TGI 2025-12 起 maintenance mode，
    README 建议迁到 vLLM / SGLang / llama.cpp / MLX" beside the anchored "TGI 停服" bullet): a page that
    sums up what the document already keeps is no NET-new item, whatever its name.

    A claim restates a bullet when they share at least ``_SAME_CLAIM`` words and half of the claim's own.
    Needs two such claims and at least half of the item's claim lines; nothing for a one-line item.
    """
    lines = [line for p in item.passages if p.path.startswith("inbox/") and not is_brief_path(p.path)
             for _, line in p.lines if re.match(r"\s*(?:[-*•]|\d+[.)、]|\|)", line) and not _cites_another(line, item)]
    claims = [words for line in lines if len(words := _claim_words(line)) >= _SAME_CLAIM]
    if len(claims) < 2:
        return []
    bullet_words = [((s, b), _claim_words(str(b.text))) for s, b in anchored]
    matched: list[tuple[Any, Any]] = []
    restated = 0
    for words in claims:
        best = max(bullet_words, key=lambda pair: len(words & pair[1]), default=None)
        if best is not None and len(words & best[1]) >= max(_SAME_CLAIM, len(words) / 2):
            restated += 1
            if best[0] not in matched:
                matched.append(best[0])
    return matched if restated >= 2 and restated * 2 >= len(claims) else []


# A bullet's head: what it is about, before its first colon ("- vLLM vs SGLang vs TRT-LLM 决策树：…").
_BULLET_HEAD = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?([^：:\n]{2,60}?)(?:\*\*)?\s*[：:]")
_HEAD_MARKS = re.compile(r"(?:⭐|★|⚠|⚬)+|^\s*#{1,6}\s*|§\s*[\d一二三四五六七八九十]+(?:\.\d+)*|^\s*\d{1,2}[.、]\s*")
_CJK_RUN = re.compile(r"[\u4e00-\u9fff]{2,}")
_VERSION = re.compile(r"\bv?\d+(?:\.\d+)+\b", re.IGNORECASE)


def _head_terms(text: str) -> tuple[set[str], list[str]]:
    """A heading's Latin names (versions, stop words and bracketed asides aside) and its Chinese runs."""
    text = _HEAD_MARKS.sub(" ", re.sub(r"[（(][^（()）]*[)）]", " ", text))
    names = {w for w in _claim_words(text) if re.search(r"[a-z]", w) and not re.fullmatch(r"v?\d[\d.]*", w)}
    return names, _CJK_RUN.findall(text)


def _same_subject(heading: str, head: str) -> bool:
    """A section heading and a bullet head name the same subject: the same Latin names (two or more, or
    one beside a shared Chinese term of two characters or more) and no name only one of them has."""
    names, runs = _head_terms(heading)
    their_names, their_runs = _head_terms(head)
    if not names or names != their_names:
        return False
    versions, theirs = set(_VERSION.findall(heading)), set(_VERSION.findall(head))
    if versions and theirs and versions != theirs:
        return False  # "Quill v1.2" is another release than "Quill v1.1"
    shared = any(a in b or b in a for a in runs for b in their_runs)
    if their_runs and not shared:
        return False  # "vLLM 生产 10 大坑" is not "vLLM 部署指南"
    return len(names) >= 2 or shared


def _anchored_by_heading(item: Item, anchored: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """The bullets whose head names what a note's one section is about ("## vLLM / SGLang / TRT-LLM 选型决策树"
    beside the anchored "vLLM vs SGLang vs TRT-LLM 决策树：…"): the section adds to that bullet."""
    if len(item.passages) != 1 or not item.passages[0].heading:
        return []
    heading = item.passages[0].heading
    found = []
    for section, bullet in anchored:
        head = _BULLET_HEAD.match(str(bullet.text))
        if head and _same_subject(heading, head.group(1)):
            found.append((section, bullet))
    return found


_RARE_NAME = re.compile(r"(?<![A-Za-z])[A-Z][a-z]{4,}(?![A-Za-z])")  # "Mattson": a person's or method's name
_SAME_PAIRS = 6
_COMMON_PAIRS = frozenset({"推理", "模型", "数据", "一个", "可以", "我们", "这个", "没有", "服务", "问题", "结果", "方法"})


def _pairs(text: str) -> set[str]:
    return {run[i:i + 2] for run in _CJK_RUN.findall(text) for i in range(len(run) - 1)} - _COMMON_PAIRS


def _cites_another(line: str, item: Item) -> bool:
    """The line cites a paper that is not the item: what it says there is of that paper."""
    return any(ref.id not in item.arxiv for ref in find_arxiv_refs(line) if not ref.malformed)


def _anchored_by_rare_name(item: Item, anchored: Sequence[tuple[Any, Any]]) -> list[tuple[Any, Any]]:
    """A section that describes an anchored entry in other words ("用 Mattson 栈距离算法在线算出'显存 → 命中率'
    曲线" beside "KVSET：Mattson 栈算法在线估算 KV working set，给出'显存 → 命中率'曲线"): a rare proper name only
    one bullet of the document holds, on a line sharing six of that bullet's Chinese word pairs."""
    counts: dict[str, list[tuple[Any, Any]]] = {}
    for pair in anchored:
        for name in set(_RARE_NAME.findall(str(pair[1].text))):
            counts.setdefault(name, []).append(pair)
    for passage in item.passages:
        for _, line in passage.lines:
            if _cites_another(line, item):
                continue  # "§3.8 已锚的 Shadow in the Cache（2608.09442）讲的正是…": that paper's, not this item's
            for name in set(_RARE_NAME.findall(line)):
                holders = counts.get(name, [])
                if len(holders) == 1 and len(_pairs(line) & _pairs(str(holders[0][1].text))) >= _SAME_PAIRS:
                    return holders
    return []


def briefs_naming(item: Item, earlier_briefs: Sequence[Any]) -> tuple[list[str], list[str]]:
    """(paths, lines) of the topic's earlier briefs that carry the item; a line only doubting it ("另记疑点 3 条
    （2609.27981 实验条件…）", a D-number's row) carries nothing."""
    briefs, lines = [], []
    for brief in earlier_briefs:
        hits = [line for line in anchoring_lines(brief.text or "") if mentions_item(line, item) and not _DOUBT_LINE.search(line)]
        if hits:
            briefs.append(brief.path)
            lines.extend(hits)
    return briefs, lines


_DOUBT_LINE = re.compile(r"疑点|待核|存疑|矛盾|(?<![A-Za-z])D\d{3}(?!\d)|\b(?:to verify|open question|conflict)\b", re.IGNORECASE)


def judge_status(item: Item, anchored: Sequence[tuple[Any, Any]], earlier_briefs: Sequence[Any]) -> Judgement:
    """Judge ``item`` against anchored (Section, Bullet) pairs and earlier briefs (VaultFiles)."""
    bullets = [(s, b) for s, b in anchored if set(getattr(b, "arxiv", [])) & set(item.arxiv) or mentions_item(b.text, item)]
    if not bullets:
        bullets = _anchored_by_figures(item, anchored)
    if not bullets and not item.arxiv:
        # A paper of its own number is anchored by a bullet citing or naming it, not by bullets sharing the
        # field's words with it ("HBM", "CXL 2.0", "NVMe" beside a tiering paper's summary).
        bullets = _anchored_by_claims(item, anchored)
    by_heading = False
    if not bullets and item.key.startswith("note:"):
        bullets = _anchored_by_heading(item, anchored)
        by_heading = bool(bullets)
    if not bullets and not item.arxiv:
        bullets = _anchored_by_rare_name(item, anchored)
    briefs, lines = briefs_naming(item, earlier_briefs)
    if item.key.startswith("note:") and not bullets and not briefs:
        # A note's own sections name no paper or link: judge them by their figures against the whole
        # anchored text; a digest whose every figure is already anchored brings nothing new.
        known = "\n".join(b.text for _, b in anchored)
        if item.figures and all(figure_known(f, known) for f in item.figures):
            return Judgement("carried", marked="要点中的数字均已见于活文档")
        return Judgement("net_new")
    if not bullets and not briefs:
        return Judgement("net_new")
    known = "\n".join([b.text for _, b in bullets] + lines)
    # A hardware part's size ("H100 80GB") describes the setup: it is no news of the item.
    # A brief's figures relay its own topic's notes and documents: news only when a scout's note gives them.
    new_figures = fresh_figures(item, known)
    card = item.card
    new_card = card is not None and f"paper_card {card.card}" not in known and f"卡 {card.card}" not in known
    # A section anchored by its heading alone ("vLLM / SGLang / TRT-LLM 选型决策树" beside the anchored decision
    # tree) that goes on to say what the bullet does not ("两条工程提醒…") brings news of the entry.
    fresh_claims = by_heading and not briefs and len(unsaid_claims(item, [b for _, b in bullets])) >= 2
    status = "integrated" if new_figures or new_card or fresh_claims else "carried"
    return Judgement(status, bullets, briefs, new_figures, new_card)


_LIST_LINE = re.compile(r"\s*(?:[-*•]|\d+[.)、])\s+")


def unsaid_claims(item: Item, bullets: Sequence[Any]) -> list[str]:
    """The list lines of the item's own notes that the bullets do not say: a line of some substance (six words
    or word pairs) of which not a third is found in the bullets' words."""
    said = set().union(*(_claim_words(str(b.text)) | _pairs(str(b.text)) for b in bullets)) if bullets else set()
    unsaid = []
    for p in item.passages:
        if not p.path.startswith("inbox/") or is_brief_path(p.path):
            continue
        for _, line in p.lines:
            if not _LIST_LINE.match(line):
                continue
            words = _claim_words(line) | _pairs(line)
            if len(words) >= 6 and len(words & said) * 3 < len(words):
                unsaid.append(line.strip())
    return unsaid


def rank_score(item: Item, status: str, credibility: int, relevance: int, stars: int = 0) -> float:
    """Relevance, novelty, credibility, the scouts' own rating and how much is said, in one number (higher first).

    Discussion weighs more than listing: a passage of its own with figures says more than a row in a table.
    """
    digest = item.key.startswith("note:")
    # A note digest bundles several sections of one note: it weighs as much as its best section, not
    # as the sum (else one long note outranks every paper the day discusses).
    # A section joined by the item's name that says nothing of the topic ("复现记录：X 本地 smoke test" in an
    # infrastructure brief) is about the item, not the topic's matter: it weighs nothing here.
    weighed = [p for p in item.passages if not p.off_topic]
    discussed = max((len(p.lines) for p in weighed), default=0) if digest else sum(len(p.lines) for p in weighed)
    figures = min(len(item.figures), 2) if digest else len(item.figures)
    return (
        _NOVELTY[status]
        + credibility
        + 0.4 * relevance
        + 0.3 * stars
        + _FLAG_BONUS.get(item.queue_flag or "", 0.0)
        + (1.0 if item.requested else 0.0)  # the coordinator asks for it tonight: the team's own priority
        + 0.1 * min(figures, 5)
        + 0.1 * min(discussed, 10)
        + 0.3 * min(_witnesses(item), 4)
    )


def _witnesses(item: Item) -> int:
    """Independent witnesses: each scout once however many notes it wrote, the card, other files once each."""
    others = {p for p in item.sources if not (p.startswith("inbox/") and p.count("/") >= 2)}
    return len(item.agents) + len(others)


def _has_substance(item: Item, fit: TopicFit) -> bool:
    """The item is discussed somewhere (its own passage) or carded in the topic, not just listed."""
    return bool(item.passages) or (item.card is not None and fit.in_topic)


def select_items(
    candidates: Sequence[tuple[Item, Judgement, TopicFit, int]], limits: tuple[int, int]
) -> list[tuple[Item, Judgement, TopicFit, int]]:
    """Rank (item, judgement, fit, credibility) rows and keep at most ``limits[1]``; never pad."""
    eligible = [
        row for row in candidates
        if row[2].in_topic and row[1].status != "carried" and row[2].relevance >= MIN_RELEVANCE
        and not row[0].title_only  # only its title was read: nothing of it to pass on yet
        and _has_substance(row[0], row[2]) and not relayed_only(row[0].sources)  # a relay is no witness
        and row[2].mark != "minor"  # the scout finds little new in it
    ]
    # Content that is the topic's own (relevance STRONG or more) comes before adjacent matter, however
    # much the adjacent is discussed; within each, the score decides.
    # A tie (to the tenth, as the brief shows scores) goes to the item its scouts rated higher.
    eligible.sort(key=lambda row: (row[2].relevance < STRONG,
                                   -round(rank_score(row[0], row[1].status, row[3], row[2].relevance, row[2].stars), 1),
                                   -row[2].stars, row[0].key))
    # Within a tie, an item that repeats what a chosen one already says (its figures) gives way to one that does not.
    def place(row: tuple[Item, Judgement, TopicFit, int]) -> tuple[bool, float]:
        return row[2].relevance < STRONG, round(rank_score(row[0], row[1].status, row[3], row[2].relevance,
                                                           row[2].stars), 1)
    chosen: list[tuple[Item, Judgement, TopicFit, int]] = []
    remaining = list(eligible)
    while remaining and len(chosen) < limits[1]:
        tied = [row for row in remaining if place(row) == place(remaining[0])]
        pick = next((row for row in tied if restates_chosen(row[0], [r[0] for r in chosen]) is None), tied[0])
        chosen.append(pick)
        remaining.remove(pick)
    return chosen


def _own_lines(item: Item) -> list[str]:
    return [line for p in item.passages if not is_relay_path(p.path) for _, line in p.lines]


def _distinct_numbers(item: Item) -> set[str]:
    numbers = {n for line in _own_lines(item) for n in DISTINCT_NUMBER.findall(line)}
    return {n for n in numbers if not YEAR.fullmatch(n.replace(",", ""))}


def restates_chosen(item: Item, chosen: Sequence[Item]) -> Item | None:
    """The chosen item whose figures this one repeats (a digest collating pages another increment already gives:
    "MortalApps：16,200 vs 12,500 tok/s" again under "三源数据对齐"), if any: two or more of its distinctive figures
    stated in that item's own lines. A paper of its own number repeats nobody."""
    if item.arxiv:
        return None
    numbers = _distinct_numbers(item)
    for other in chosen:
        text = "\n".join(_own_lines(other))
        if sum(1 for n in numbers if _has_number(n, text)) >= 2:
            return other
    return None


def _credibility_of(item: Item, rows: Sequence[tuple[Item, Judgement, TopicFit, int]]) -> int:
    """The ranking credibility the selection gave ``item`` (0 when it was not a candidate)."""
    return next((row[3] for row in rows if row[0].key == item.key), 0)


def cut_reason(item: Item, judgement: Judgement, fit: TopicFit,
               rows: Sequence[tuple[Item, Judgement, TopicFit, int]],
               chosen: Sequence[tuple[Item, Judgement, TopicFit, int]], limits: tuple[int, int],
               titles: Mapping[str, str] | None = None) -> str:
    """Why an in-topic, not-carried item did not make the increments (in Chinese, for the brief)."""
    if fit.mark == "minor":
        return fit.evidence or "来源标注新意有限"
    if relayed_only(item.sources):
        return f"仅见于简报的转述（{'、'.join(item.sources[:2])}{' 等' if len(item.sources) > 2 else ''}），无一手来源"
    if item.title_only:  # "只扫了标题：2609.x（…），摘要没开": unread, whatever its title's words say
        return f"来源只读了标题、内容待核实：「{item.title_only}」"
    if fit.relevance < MIN_RELEVANCE:
        return f"本主轴相关度 {fit.relevance}，低于入选门槛 {MIN_RELEVANCE}"
    if not _has_substance(item, fit):
        return "只在列表或表格中被提及，无正文讨论，也无本主轴 paper_card"
    if chosen:
        last = min(rank_score(r[0], r[1].status, r[3], r[2].relevance, r[2].stars) for r in chosen)
        mine = rank_score(item, judgement.status, _credibility_of(item, rows), fit.relevance, fit.stars)
        if fit.relevance < STRONG and mine >= last:
            return (f"本主轴相关度 {fit.relevance}（邻接，主轴内容需 ≥ {STRONG}）：排在主轴条目之后，"
                    f"目标上限 {limits[1]} 条已满")
        restated = restates_chosen(item, [r[0] for r in chosen])
        if round(mine, 1) >= round(last, 1) and restated is not None:
            return (f"得分与入选的第 {len(chosen)} 条持平（{last:.1f}），与入选的「{(titles or {}).get(restated.key) or restated.title or restated.key}」"
                    f"同比一组数字：该节已并入那一条（来源与要点），不另列，目标上限 {limits[1]} 条已满")
        if round(mine, 1) >= round(last, 1):  # a tie at the cut: said as a tie, not as "8.0 低于 8.0"
            return (f"得分与入选的第 {len(chosen)} 条持平（{last:.1f}），来源评级不高于入选条目，排在其后，"
                    f"目标上限 {limits[1]} 条已满")
        return f"得分低于入选的第 {len(chosen)} 条（{last:.1f}），目标上限 {limits[1]} 条"
    return "未达入选门槛"


def density_of(statuses: Sequence[str]) -> str:
    """高 / 中高 / 中 / 低 from the day's actual novelty (NET-new weighs most), on the team's scale: a day of
    four to six NET-new items is 中高 in their own briefs ("中-高" with six on 09-28), 高 is a day beyond that."""
    new, integrated = statuses.count("net_new"), statuses.count("integrated")
    if new >= 7:
        return "高"
    if new >= 3 or (new >= 1 and new + integrated >= 5):
        return "中高"
    if new >= 1 or integrated >= 3:
        return "中"
    return "低"


@dataclass(frozen=True)
class SourceHealth:
    """Today's sources per agent against the median of the previous windows."""

    today: dict[str, int]
    median: dict[str, float]
    silent: list[str]
    broken: bool

    @property
    def total_today(self) -> int:
        """Sources read today, all agents."""
        return sum(self.today.values())

    @property
    def total_median(self) -> float:
        """The usual total: sum of the per-agent medians."""
        return sum(self.median.values())


def source_health(today: Mapping[str, int], history: Sequence[Mapping[str, int]]) -> SourceHealth:
    """Compare today's per-agent counts with the median of the last 14 windows (oldest first)."""
    recent = list(history)[-HISTORY_WINDOWS:]
    agents = sorted(set(today) | {a for window in recent for a in window})
    median = {a: float(statistics.median([w.get(a, 0) for w in recent])) if recent else 0.0 for a in agents}
    counts = {a: int(today.get(a, 0)) for a in agents}
    silent = [a for a in agents if counts[a] == 0 and median[a] >= 1]
    total_median = sum(median.values())
    broken = bool(silent) or (total_median >= 2 and sum(counts.values()) < 0.5 * total_median)
    return SourceHealth(counts, median, silent, broken)


def _fmt(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:.1f}"


def honesty_statement(
    topic: str, density: str, selected: Sequence[tuple[str, str]], limits: tuple[int, int], health: SourceHealth
) -> str:
    """The header's honesty statement from (label, status) of the selected increments and the source health."""
    new = [label for label, status in selected if status == "net_new"]
    integrated = [label for label, status in selected if status == "integrated"]

    def names(labels: Sequence[str]) -> str:
        # "；" between items: titles themselves hold "/" ("vLLM / SGLang 选型"), so "/" would miscount them.
        return "；".join(labels)

    parts = [f"本轮 {topic} 增量密度为「{density}」——"]
    if new:
        parts.append(f"{len(new)} 件此前活文档与往期简报均未覆盖的 NET-new（{names(new)}）")
    else:
        parts.append("无 NET-new")
    if integrated:
        parts.append(f"，{len(integrated)} 件已锚定但今日带来新数字或新组合的整合增量（{names(integrated)}）")
    parts.append("。")
    if len(selected) < limits[0]:
        parts.append(f"今日偏薄：只有 {len(selected)} 条达到入选门槛（目标区间 {limits[0]}–{limits[1]}），不凑数。")
    if health.broken:
        silent = "、".join(
            f"{a}（今日 0 份，近 {HISTORY_WINDOWS} 窗口中位数 {_fmt(health.median[a])}）" for a in health.silent
        )
        reason = f"{silent} 收件箱静默" if silent else (
            f"今日来源 {health.total_today} 份，远低于近 {HISTORY_WINDOWS} 窗口中位数合计 {_fmt(health.total_median)}")
        parts.append(f"输入疑似异常而非单纯偏薄：{reason}，请先核对收件链路。")
    elif len(selected) < limits[0]:
        parts.append(
            f"来源数量正常（今日 {health.total_today} 份，近 {HISTORY_WINDOWS} 窗口中位数合计 "
            f"{_fmt(health.total_median)}），偏薄是当日真实情况。"
        )
    parts.append("无硬凑字数。")
    return "".join(parts)
