"""Build the brief from the window: items, warnings, arXiv results, sources → ``state.models.Brief``.

Nothing here invents content: the words of each increment come from its
sources (``agents.integrator.increment_text``). Every figure, version, URL
and identifier in the brief is copied from a source.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any

from agents.integrator.audit import unplaced_sections
from agents.integrator.cluster import (
    NOTHING_FOR,
    Item,
    MistakenNumber,
    cluster_items,
    heading_name,
    mistaken_numbers,
    release_named,
    section_key,
)
from agents.integrator.compare import FIGURE_TOKEN, NOT_COMPARED
from agents.integrator.credibility import Credibility, score_credibility
from agents.integrator.echoes import EchoIndex, echoed_figures
from agents.integrator.increment_text import (
    SEQUEL,
    card_status,
    core_argument,
    focus_text,
    foreign_lines,
    item_title,
    key_points,
    relation_text,
    tidy_title,
)
from agents.integrator.scope import (
    ScopeRules,
    entry_subjects,
    item_marks,
    judge_scope,
    kept_entry,
    names_tracked,
    passage_verdicts,
    quiet_notes,
    section_subjects,
    section_terms,
    subject_anchored,
    text_relevance,
    tracked_subjects,
    with_note_remarks,
)
from agents.integrator.sections import SectionMatch, own_labels, placed_sections, propose_section
from agents.integrator.select import (
    MIN_RELEVANCE,
    Judgement,
    TopicFit,
    briefs_naming,
    cut_reason,
    density_of,
    figure_known,
    fresh_figures,
    honesty_statement,
    judge_status,
    mentions_item,
    rank_score,
    restates_chosen,
    said_unchanged,
    select_items,
    source_health,
)
from agents.integrator.summary import refresh_summary, today_counts
from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.caveats import METADATA_CAVEAT, RISK_ORDER
from agents.scanner.e1_format import (
    brief_topic,
    is_brief_path,
    is_coordination_path,
    is_relay_path,
    relayed_only,
)
from agents.scanner.excerpt import excerpt
from agents.scanner.mentions import RANK_LABEL
from agents.scanner.queue import claimed_flag
from agents.scanner.register import D_NUMBER
from agents.verifier.caveats import is_metadata_caveat
from agents.verifier.identifiers import (
    CARD_NAME_REPAIR,
    certain_repairs,
    renumbered_mentions,
    repaired_mentions,
)
from agents.verifier.names import leading_system
from agents.verifier.register import ITEM_KINDS
from state.models import (
    AlertEntry,
    ArxivEntry,
    BaseDoc,
    Brief,
    BriefWarning,
    GapEntry,
    Increment,
    SourceEntry,
    Stats,
    Window,
)

if TYPE_CHECKING:
    from agents.integrator.llm_text import ModelWriter
    from agents.scanner.window import WindowScan

__all__ = ["integrate", "living_doc_label"]


def _results_map(arxiv_results: Mapping[str, ArxivEntry] | Sequence[ArxivEntry] | None) -> dict[str, ArxivEntry]:
    if arxiv_results is None:
        return {}
    if isinstance(arxiv_results, Mapping):
        return dict(arxiv_results)
    return {entry.id: entry for entry in arxiv_results}


def _warnings_for(item: Item, warnings: Sequence[BriefWarning]) -> list[BriefWarning]:
    found = []
    for warning in warnings:
        text = " ".join(filter(None, [warning.subject, warning.key, warning.text]))
        if item.key.startswith("note:"):
            # A note digest is named by its note: a warning naming the note's path (an instruction on another of
            # its lines, another section's paper) is not about the sections digested. Only its own lines and
            # subjects count.
            named = _about(warning, item) or _states_version(warning, item)
        else:
            named = mentions_item(text, item) or (warning.kind in ("caveat", "number_conflict") and _about(warning, item)) \
                or _states_version(warning, item)
        if named:
            found.append(warning)  # a caveat on a line of the item's own passage qualifies the item
    return found


def _states_version(warning: BriefWarning, item: Item) -> bool:
    """A version conflict is about an item whose own passage writes one of the disputed versions after
    the name ("作者环境标注 vLLM 0.3.3"): the item passes the doubtful version on."""
    if warning.kind != "version_conflict" or not set(warning.sources) & set(item.sources) or warning.carried_from:
        return False  # a carried conflict is an old question, not a doubt on today's item writing one version
    parts = (warning.key or "").split(":")
    name, versions = (parts[-2], parts[-1].split(",")) if len(parts) >= 3 else (warning.subject or "", [])
    if not name or not versions:
        return False
    stated = re.compile(rf"(?<![\w-]){re.escape(name)}[^，。；;\n]{{0,12}}?v?(?:{'|'.join(map(re.escape, versions))})(?![\d.])",
                        re.IGNORECASE)
    # A note's own words, not a brief relaying them (another topic's brief restates its sources).
    return any(stated.search(line) for p in item.passages if p.path in warning.sources and not is_brief_path(p.path)
               for _, line in p.lines)


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



def _with_heading_names(item: Item, rules: ScopeRules) -> Item:
    """A note section's own name ("## C2C 仓库今天放了代码") names it, so the living document's bullets and the
    earlier briefs that name it are found; the topic's own terms ("vLLM", "FlashInfer") name too much to count."""
    common = {k.lower() for k in rules.keywords} | set(rules.names) | set(rules.people)  # an author is no subject
    leads = {n.lower() for p in item.passages if p.path.startswith("inbox/") and not is_brief_path(p.path)
             and not re.match(r"\s{0,3}#\s", p.heading)  # a note's title names the note ("# flyP · 精读 · …")
             and (n := heading_name(p.heading)) and len(n) >= 3 and not RANK_LABEL.fullmatch(n)} - common
    new = sorted(leads - set(item.names))
    # A repository named after the topic's own term (github.com/vllm-project/vllm) names every bullet about it.
    kept = [n for n in item.names if n not in common]
    return replace(item, names=[*kept, *new]) if new or len(kept) != len(item.names) else item


# A source reporting that a thing shipped today: code or weights out, a release tag.
_RELEASED = re.compile(r"今天(?:正式)?(?:放了|放出|发布|开源|上线)|放了代码|代码(?:已)?放出|权重(?:已)?放出|开源了|放出来的|"
                       r"打了\s*v?\d[\w.]*\s*(?:的\s*)?tag|\btagged\s+v?\d|"
                       r"github\.com/[\w.-]+/[\w.-]+/releases/tag/|\b(?:released|shipped|is out) (?:today|on)\b",
                       re.IGNORECASE)


def _read_anew(item: Item, evidence: str) -> bool:
    """Another scout discusses the item in a section of its own with figures today: one scout's "沿用，无新内容"
    (of a vote count, say) does not speak for that reading."""
    marked = re.search(r"（((?:inbox|organized)/[^\s）]+?) L\d+）", evidence)
    where = marked.group(1) if marked else ""
    return any(p.path != where and p.by_heading and p.path.startswith("inbox/") and not is_brief_path(p.path)
               and any(f.source == p.path and p.start <= f.line <= p.end for f in item.figures) for p in item.passages)


_NOT_THAT_ENTRY = re.compile(r"不是(?:一个|同一|一回)|不是[^，。；]{0,12}的|不是一件事|无关|不相关|不同(?:的)?(?:系统|东西|事|问题)|另一(?:个|件)|"
                             r"\b(?:different|unrelated|not the same|another (?:system|issue))\b", re.IGNORECASE)
_ENTRY_NEWS = re.compile(r"答案|有数了?|复现|修(?:了|掉|好|复)|补(?:了|上|测)|更新|回复|答复|进展|闭合|仍(?:未|没)|还是没|"
                         r"\b(?:answer(?:ed|s)?|reproduced|fixed|update[ds]?|settle[sd]?|still (?:no|not))\b", re.IGNORECASE)
def _follows_entry(item: Item, judgement: Judgement, entries: Mapping[int, str]) -> Judgement:
    """A section of the item's own that names an open register entry ("## FlashInfer FP8 KV 掉精度：有人复现了（D179）",
    "- spark 9-29 挂的那条 D208 还是没答案") brings news of a question the team already holds: an integration."""
    if judgement.status != "net_new":
        return judgement
    for passage in item.passages:
        if not passage.path.startswith("inbox/") or is_brief_path(passage.path) or is_relay_path(passage.path):
            continue
        for index, line in enumerate([passage.heading, *(text for _, text in passage.lines)]):
            if _NOT_THAT_ENTRY.search(line):
                continue  # "和 D178 不是一个系统": named to set it apart
            for number in (int(n) for n in D_NUMBER.findall(line)):
                # A heading naming the entry, or a line bringing it news ("D208 还是没答案", "D179 有人复现了"),
                # not a line likening the item to it ("和 D206 同一类问题").
                if number in entries and (index == 0 or _ENTRY_NEWS.search(line) or mentions_item(entries[number], item)):
                    return replace(judgement, status="integrated", marked=f"续登记簿 D{number}：{entries[number][:50]}")
    return judgement


# A scout saying the item brings nothing new today ("沿用，无新内容", "nothing new"): that holds whatever baseline.
_NOTHING_SAID_NEW = re.compile(r"(?:没有|没|无|并无)(?:什么)?新(?:的)?(?:内容|东西|结论|发现|数据|数字|信息)|\bnothing new\b|\bno new\b",
                               re.IGNORECASE)
# What a scout's "已锚" line says is new of the anchored thing: "新表态", "新维度", "new figures".
_NEWS_SAID = re.compile(r"(?<![不没无])新(?:的)?(?:表态|说法|内容|维度|数字|数据|结论|组合|进展|版本|实测|表)|"
                        r"\bnew (?:claims?|figures?|data|results?|angle|numbers?|statement)\b", re.IGNORECASE)


# A card or note saying the paper is not new ("论文本身不是本周新作", "旧文新卡", "an older paper"): its age is known.
_AGE_SAID = re.compile(r"不是(?:本周|本月|今年|近期)?的?新(?:作|论文|文|工作)|旧(?:论)?文|老论文|不算新作|"
                       r"\bnot (?:a )?(?:new|recent) (?:paper|work)\b|\ban? (?:older|old) paper\b", re.IGNORECASE)


def _age_said(item: Item) -> bool:
    card = str(getattr(item.card, "summary", "") or "") if item.card is not None else ""
    return bool(_AGE_SAID.search(card) or any(_AGE_SAID.search(line) for p in item.passages for _, line in p.lines))


# A scout saying only the title was read: "只扫了标题", "摘要没开", "还是只看了标题", "title only", "only skimmed the title".
_TITLE_ONLY = re.compile(r"只(?:扫|看|读)了?(?:一眼)?标题|摘要(?:没|未|还没)(?:开|看|读)|标题级|"
                         r"\btitle[- ]only\b|\bonly (?:read|skimmed|saw) the titles?\b", re.IGNORECASE)
# A coordinator asking for items to be anchored tonight: "### §三.1 强建议今晚锚入", "请今晚锚入", "anchor tonight".
_ANCHOR_REQUEST = re.compile(r"(?:强烈?建议|建议|请|务必|要求)[^，。；\n]{0,16}?锚入|今晚锚入|\banchor (?:it |these )?tonight\b",
                             re.IGNORECASE)


def requested_lines(files: Sequence[Any]) -> list[tuple[str, int, str]]:
    """(path, line, text) of the coordination notes' lines asking to anchor something: the line itself, or each
    list line under a heading that asks."""
    found = []
    for file in files:
        if not is_coordination_path(str(file.path)):
            continue
        asking = False
        for number, line in enumerate((file.body or "").split("\n"), start=1):
            if line.lstrip().startswith("#"):
                asking = bool(_ANCHOR_REQUEST.search(line))
                continue
            if _ANCHOR_REQUEST.search(line) or (asking and re.match(r"\s*(?:[-*•]|\d+[.)、])\s", line)):
                found.append((str(file.path), number, line.strip()))
    return found


def _asked_for(item: Item, title: str, lines: Sequence[tuple[str, int, str]]) -> str:
    """The coordination line asking for this item: one naming it, or sharing three of its title's Latin words and
    one of its figures ("SGLang vs vLLM 多轮 Agent 4.5x TTFT" for "SGLang vs vLLM：多轮 Agent 场景 TTFT 差 4.5×")."""
    words = {w.lower() for w in re.findall(r"[A-Za-z][\w.+-]+", title)}
    numbers = set(re.findall(r"\d+(?:\.\d+)?", title))
    for path, number, line in lines:
        if mentions_item(line, item):
            return f"{path} L{number}"
        said = {w.lower() for w in re.findall(r"[A-Za-z][\w.+-]+", line)}
        if len(words & said) >= 3 and numbers & set(re.findall(r"\d+(?:\.\d+)?", line)):
            return f"{path} L{number}"
    return ""


def _words(text: str) -> set[str]:
    """Latin words and Chinese character pairs of a text, to tell which of several bullets a title is about."""
    runs = re.findall(r"[\u4e00-\u9fff]{2,}", text)
    return {w.lower() for w in re.findall(r"[A-Za-z][\w.+-]+", text)} | {r[i:i + 2] for r in runs for i in range(len(r) - 1)}


def _named_like_an_entry(item: Item, judgement: Judgement, anchored: Sequence[tuple[Any, Any]],
                         rules: ScopeRules) -> Judgement:
    """A page of no paper of its own whose title opens with the name of an entry the document keeps ("MCP 2026-07-28
    规范 —— 无状态化整理" beside "MCP 2026-07-28 规范：无状态化重大版本…"): that entry, carried unless today brings
    figures it does not hold."""
    if judgement.status != "net_new" or item.arxiv:
        return judgement
    entry = kept_entry(item_title(item), rules)
    if entry is None:
        return judgement
    bullets = [(s, b) for s, b in anchored if str(getattr(s, "id", "")) == entry[0]
               and str(b.text).lower().startswith(entry[1].lower())][:1]
    if not bullets:
        return judgement
    known = "\n".join(str(b.text) for _, b in bullets)
    fresh = fresh_figures(item, known)
    return replace(judgement, status="integrated" if fresh else "carried", bullets=bullets, new_figures=fresh)


def _adds_to_subject(item: Item, judgement: Judgement, anchored: Sequence[tuple[Any, Any]],
                     subjects: Sequence[tuple[str, str]]) -> Judgement:
    """A page of no paper of its own about a subject a living-document section is about (its title opens with the
    section's subject: "llm-d · KV cache wins you can see" beside §1.2 "分布式推理编排（llm-d · K8s）") adds to it: an integration with the subject's bullets, neither a NET-new item nor, when the
    page itself is new (no bullet or earlier brief cites it) and discussed, a carried one. A paper is its own
    thing whatever it is about; a scout's "我算 NET-new" still outweighs this (``_scout_says_new``)."""
    if judgement.status == "integrated" or item.arxiv or item.card is not None or judgement.marked:
        return judgement
    own = [p for p in item.passages if p.path.startswith("inbox/") and not is_brief_path(p.path)]
    if not own:
        return judgement
    if judgement.status == "carried":
        pages = [url.split("://", 1)[-1].rstrip("/").lower() for url in item.urls]
        cited = any(page in str(b.text).lower() for page in pages for _, b in anchored)
        if judgement.briefs or not pages or cited or sum(len(p.lines) for p in own) < 2:
            return judgement
    name = subject_anchored(item_title(item), subjects)
    if name is None:
        return judgement
    # The bullets that name the system are its anchoring; a section naming it in its heading alone anchors nothing.
    pattern = re.compile(rf"(?<![\w-]){re.escape(name)}(?![\w-])", re.IGNORECASE)
    bullets = judgement.bullets or [(s, b) for s, b in anchored if pattern.search(str(b.text))][:3]
    if not bullets:
        return judgement
    known = "\n".join(str(b.text) for _, b in bullets)
    fresh = fresh_figures(item, known)
    return replace(judgement, status="integrated", bullets=bullets, new_figures=fresh)


def _scout_says_new(item: Item, judgement: Judgement, other_briefs: Collection[str]) -> Judgement:
    """A scout who compared the item with the document and calls it NET-new ("和活文档：§1.(2) 的 X 是按请求
    分池，这篇多了一维 → 我算 NET-new") outweighs an anchoring found only by shared words or figures: no bullet
    names the item, no earlier brief does. A bullet naming it, or the register, keeps the judgement."""
    if judgement.status == "net_new" or judgement.briefs or judgement.marked or not judgement.bullets:
        return judgement
    if any(set(getattr(b, "arxiv", [])) & set(item.arxiv) or mentions_item(str(b.text), item) for _, b in judgement.bullets):
        return judgement
    said = next((m for path, m in item_marks(item) if m.kind == "netnew" and path not in other_briefs
                 and path.startswith("inbox/") and not is_brief_path(path)), None)
    return Judgement("net_new") if said is not None else judgement


def _release_of_tracked(item: Item, judgement: Judgement, anchored: Sequence[tuple[Any, Any]],
                        rules: ScopeRules) -> Judgement:
    """A new release of a thing the living document keeps ("vLLM v0.30.1" beside its "vLLM v0.30.0" bullet) adds
    to that thing's entry: an integration, not a NET-new item; an anchored thing that shipped today (its code
    out, a release tag) is an integration too, not a carried one."""
    own = [p for p in item.passages if p.path.startswith("inbox/") and not is_brief_path(p.path)]
    known = " ".join([*(str(b.text) for _, b in judgement.bullets), *judgement.briefs])
    shipped = {release_named(p.heading) for p in own} - {None}
    if judgement.status == "carried" and not judgement.marked and own and any(
            _RELEASED.search(line) for p in own for line in [p.heading, *(text for _, text in p.lines)]) \
            and not any(version in known for _, version in shipped):  # "vLLM v0.30.1" the document already keeps
        # Anchored, and today it shipped ("C2C 仓库今天放了代码", a releases/tag link): news of an anchored thing.
        return replace(judgement, status="integrated")
    if judgement.status != "net_new" or not own or item.arxiv:
        return judgement
    releases = {release_named(p.heading) for p in own}
    if len(releases) != 1 or None in releases:
        return judgement
    product, version = next(iter(releases))
    if product not in rules.tracked:
        return judgement
    # The bullets the product opens ("Quill v1.1 …", a vendor's "NVIDIA Dynamo 1.0：…").
    bullets = [(s, b) for s, b in anchored
               if re.match(rf"\W*(?:[A-Z]{{2,}}\s+)?{re.escape(product)}\b", str(b.text), re.IGNORECASE)]
    if not bullets or any(version in str(b.text) for _, b in bullets):
        return judgement
    # Only the figures the product's bullets do not already hold: a patch release restating them brings none.
    known = "\n".join(str(b.text) for _, b in bullets)
    fresh = [f for f in item.figures if not f.detail.get("spec") and not figure_known(f, known) and not said_unchanged(f)]
    return replace(judgement, status="integrated", bullets=bullets[:3], new_figures=fresh)


def topic_names(topic: Any) -> frozenset[str]:
    """How sources name a topic: its name, title, living document's stem, aliases, and the short form the
    team says of an "llm-" topic ("infra 线" for llm-infra)."""
    names = {n.lower() for n in (topic.name, topic.title, PurePosixPath(topic.living_doc).stem, *topic.aliases) if n}
    return frozenset(names | {n[4:] for n in names if n.startswith("llm-") and len(n) > 6})


def item_lines(item: Item) -> list[tuple[str, str]]:
    """(path, line) of what the sources say of the item: its passages, the lines citing it, its card."""
    lines = [(p.path, line) for p in item.passages for _, line in [(p.start, p.heading), *p.lines]]
    lines += [(m.source, m.context or m.raw) for m in item.anchors]
    if item.card is not None:
        lines += [(str(item.card.path), line) for line in str(getattr(item.card, "summary", "") or "").split("\n")]
    return lines


def sequels_joined(items: list[Item]) -> list[Item]:
    """A digested section that is a sequel of another note's section ("## vLLM 生产 10 大坑（续篇）" beside a
    note whose section is "## vLLM 生产 10 大坑"), or that names the same release as an earlier one ("SGLang
    v0.5.22"), is that subject's second source, not an item of its own: the section joins the digest that
    holds the first (one subject, one item)."""
    def name(heading: str) -> str:
        return SEQUEL.sub("", tidy_title(heading)).strip().lower()

    firsts: dict[str, Item] = {}
    releases: dict[tuple[str, str], Item] = {}
    for item in items:
        if item.key.startswith("note:"):
            for passage in item.passages:
                if not SEQUEL.search(tidy_title(passage.heading)) and len(name(passage.heading)) >= 6:
                    firsts.setdefault(name(passage.heading), item)
                if (release := release_named(passage.heading)) is not None:
                    releases.setdefault(release, item)
    out: list[Item] = []
    moved: dict[str, list] = {}
    for item in items:
        if not item.key.startswith("note:"):
            out.append(item)
            continue
        keep = []
        for passage in item.passages:
            first = firsts.get(name(passage.heading)) if SEQUEL.search(tidy_title(passage.heading)) else None
            # "## SGLang v0.5.22 官方号" beside another note's "## Tier1-C · SGLang v0.5.22（10-03 发布）": one release.
            release = release_named(passage.heading)
            first = first or (releases.get(release) if release is not None else None)
            if first is not None and first.key != item.key:
                moved.setdefault(first.key, []).append((passage, item))
            else:
                keep.append(passage)
        if keep:
            out.append(item if len(keep) == len(item.passages) else replace(item, passages=keep))
    joined = []
    for item in out:
        extra = moved.get(item.key, [])
        if extra:
            sources = [*item.sources, *(i.sources[0] for _, i in extra if i.sources and i.sources[0] not in item.sources)]
            item = replace(item, passages=[*item.passages, *(p for p, _ in extra)], sources=list(dict.fromkeys(sources)),
                           figures=[*item.figures, *(f for p, i in extra for f in i.figures if p.start <= f.line <= p.end)])
        joined.append(item)
    return joined


def link_open_entries(brief: Brief, generic: Collection[str] = ()) -> None:
    """Name on each increment the open register entries about it (its arXiv number, or the name it leads
    with): a carried doubt is said where the item is passed on, not only in the register list.

    ``generic``: the topic's own terms ("vLLM", "KV cache"): a title leading with one names a field, not an item.
    """
    for inc in brief.increments:
        name = leading_system(inc.title, generic)
        found = [e for e in brief.register_open if e.get("d") and (
            any(i in str(e.get("text") or "") for i in inc.arxiv)
            or (name and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", str(e.get("text") or ""))))]
        inc.register_open = [str(e["d"]) for e in found]
        if found:
            said = "；".join(f"{e['d']}（{excerpt(str(e.get('text') or ''), 40)}）" for e in found[:3])
            inc.credibility_reason = f"{inc.credibility_reason} · 登记簿未闭合 {said}".lstrip(" ·")


def _mistaken_entry(arxiv_id: str, mistaken: MistakenNumber, versions: Collection[int],
                   results: Mapping[str, ArxivEntry]) -> ArxivEntry:
    """A number written for another paper: listed for audit with the likely one, never citable as new.

    ``verified`` stays arXiv's verdict (``unverified`` when arXiv was not
    reached); a number arXiv knows is another paper's, hence ``mismatch``.
    """
    result = results.get(arxiv_id)
    verdict = result.verified if result else "unverified"
    # The finding is named by its register number, which stays; a warning id may be renumbered or set aside.
    said = f"（{mistaken.warning}）" if re.fullmatch(r"D\d+", mistaken.warning or "") else ""
    why = f"与 {mistaken.likely} 同名「{mistaken.name}」{said}，号码疑为笔误，可能是 {mistaken.likely}"
    return ArxivEntry(
        id=arxiv_id, version=f"v{max(versions)}" if versions else None,
        verified="mismatch" if verdict == "ok" else verdict,
        title=result.title if result and verdict == "ok" else mistaken.name,
        note=f"{why}；{result.note if result and result.note else '本次未联网核对 arXiv'}",
        published=result.published if result else None, likely=mistaken.likely)


_CITED_LINE = re.compile(r"((?:inbox|organized)/[^\s：:（）()]+?\.md) L(\d+)")


def _restates(caveat: BriefWarning, finding: BriefWarning) -> bool:
    """A caveat that says what a cross-source finding already says (same subject, a shared number)."""
    subject = (finding.subject or "").lower()
    if bool(subject) and subject == (caveat.subject or "").lower() and bool(
            set(FIGURE_TOKEN.findall(caveat.text)) & set(FIGURE_TOKEN.findall(finding.text))):
        return True
    # The caveat's flagged line is one the finding lists ("…同一组实验…75% 从哪来的不知道 ⚠⚠⚬" under the
    # conflict it is about): one doubt, said once.
    cited, flags = set(_CITED_LINE.findall(finding.text)), set(_CITED_LINE.findall(caveat.text))
    if cited & flags:
        return True
    shared = set(re.findall(r"\d+(?:\.\d+)?%|\d+(?:\.\d+)?×", caveat.text.split("——", 1)[-1])) & set(
        re.findall(r"\d+(?:\.\d+)?%|\d+(?:\.\d+)?×", finding.text))
    # ...or flags, a few lines from a line the finding cites, the figures it lists ("75% 从哪来的不知道 ⚠⚠⚬"
    # under "P90 TTFT -57%"): the scout's doubt is that finding.
    if finding.kind == "number_conflict" and shared and any(
            path == p and abs(int(line) - int(n)) <= 3 for path, line in flags for p, n in cited):
        return True
    # Or it flags one of the finding's figures of the same entity ("llm-d v0.10：…" beside "llm-d ttft p90"):
    entity = subject.split(" ")[0]
    flagged = re.split(r"[\s：:（(]", (caveat.subject or "").lower(), maxsplit=1)[0]
    said = caveat.text.split("——", 1)[-1]
    return bool(entity) and entity == flagged and finding.kind == "number_conflict" and bool(
        set(re.findall(r"\d+(?:\.\d+)?%", said)) & set(re.findall(r"\d+(?:\.\d+)?%", finding.text)))


def _about(warning: BriefWarning, item: Item) -> bool:
    """Whether a one-item warning is about ``item``: it stands on a line of the item's own passages, or
    it names the item (a paper, a link, one of its distinctive figures); a note digest, named only by
    its note, also by the subject its sections discuss."""
    # A caveat on a line of a section shared by several items (a list under "与各主轴的关系") is about the
    # item its quoted clause names, not whichever item the section went to.
    quoted = " ".join(re.findall(r"「([^」]*)」", warning.text))
    # (Only a quote that is one clause of a line listing several items: "#9 B …——只有一台工程机 ⚠⚬⚬".)
    listed = bool(re.search(r"^\s*[-*•]?\s*#\d|\s#\d", quoted))
    carded = item.card is not None and bool(re.search(rf"(?:卡|card)\s*{item.card.card}\b", quoted))
    shared = warning.kind == "caveat" and listed and not mentions_item(quoted, item) and not carded
    spans = {(p.path, p.start, p.end) for p in item.passages if not (shared and not p.by_heading)}
    if any(path == where and start <= int(line) <= end
           for where, line in _CITED_LINE.findall(warning.text) for path, start, end in spans):
        return True
    if warning.kind == "caveat" and carded:
        return True  # "#9 NPU prefill（已入卡 1573）…⚠⚬⚬": the card's paper
    if item.key.startswith("note:"):
        subject = warning.subject or ""
        return len(subject) >= 3 and bool(set(warning.sources) & set(item.sources)) and any(
            subject in line for p in item.passages for _, line in [(p.start, p.heading), *p.lines])
    if mentions_item(" ".join(filter(None, [warning.subject, warning.key, warning.text])), item):
        return True
    subject = (warning.subject or "").lower()
    if warning.kind == "number_conflict":  # "Quokka-KV ttft": the entity the figures are of
        subject = (warning.key or "::").split(":")[1].lower()
    paper_name = re.match(r"\s*([A-Za-z][\w.+-]*[A-Za-z0-9])\s*[:：]", str(getattr(item.card, "title", "") or item.queue_title or ""))
    if warning.kind in ("caveat", "number_conflict") and len(subject) >= 4 and set(warning.sources) & set(item.sources) and (
            subject in {n.lower() for n in item.names}
            or (paper_name is not None and subject == paper_name.group(1).lower())  # "TierPilot" of "TierPilot: …"
            or any(re.search(rf"(?<![A-Za-z0-9]){re.escape(subject)}(?![A-Za-z0-9])", p.heading.lower())
                   for p in item.passages if p.path in warning.sources)):
        return True  # "待核：InferenceBench 显著性" in the note whose "§2.1 InferenceBench · arXiv:2607.20468" it is
    text = warning.text.replace(" ", "")  # a caveat quoting one of the item's own figures ("380ms")
    return warning.kind == "caveat" and any(
        len(re.sub(r"\D", "", f.raw)) >= 3 and f.raw.replace(" ", "") in text for f in item.figures)


def _record_doubt(warning: BriefWarning) -> str:
    """What a metadata caveat doubts, in the scout's words: the quoted line, its label left off."""
    quoted = re.search(r"「(.+?)」", warning.text)
    said = re.sub(r"^[-*•>\s]*(?:\*\*)?[^：:]{1,16}[：:]\s*", "", quoted.group(1)) if quoted else warning.text
    if said.endswith("…"):  # the quote was cut: keep its whole clauses
        said = said[:max(said.rfind("；"), said.rfind("，"), said.rfind(";"), 1)]
    said = said.rstrip("…。；，;,")
    return f"{said}；见 {warning.sources[0]}" if warning.sources else said


def _queue_claim(item: Item) -> dict | None:
    """A source's word on the item's queue flag that the queue of the day does not bear out (said, not hidden)."""
    for passage in item.passages:
        for number, line in [(passage.start, passage.heading), *passage.lines]:
            claim = claimed_flag(line)
            if claim is None or claim[0] == (item.queue_flag or ""):
                continue
            # On a line naming papers, the flag is the paper's said just before it ("2609.31415（…，Top 0.5）").
            refs = [r for r in find_arxiv_refs(line) if not r.malformed]
            before = [r for r in refs if r.start < claim[1]]
            named = (before[-1] if before else refs[0]).id if refs else None
            if named is None or named in item.arxiv:
                return {"flag": claim[0], "source": passage.path, "line": number}
    return None


def _card_age(warning: BriefWarning) -> bool:
    """The warning says a card's paper is older than the card (``verifier.dates``), nothing else."""
    return warning.kind == "date_mismatch" and (warning.key or "").startswith("date_mismatch:card:")


def _paper_month(item: Item) -> str | None:
    """The YYMM prefix of the item's card's arXiv number (its submission month) when the paper is older
    than its card by two months or more; None otherwise."""
    card = item.card
    if card is None or not re.fullmatch(r"\d{4}\.\d{4,5}", str(card.arxiv)):
        return None
    year, month = 2000 + int(str(card.arxiv)[:2]), int(str(card.arxiv)[2:4])
    ingested = card.ingested.date()
    return str(card.arxiv)[:4] if (ingested.year * 12 + ingested.month) - (year * 12 + month) >= 2 else None


def _named_for_item(warning: BriefWarning, chosen: Sequence[tuple[Item, Judgement, TopicFit, int]],
                    details: Mapping[str, tuple]) -> BriefWarning:
    """A caveat standing on a paper's or a page's own passage is about that item, whatever name its
    line happens to hold first (the model a benchmark ran, a vendor): it is named after the item.
    A note digest's caveats keep their claim's own name (the digest bundles many subjects)."""
    if warning.kind != "caveat":
        return warning
    for item, *_ in chosen:
        one_subject = len(item.passages) == 1 or len({release_named(p.heading) for p in item.passages} - {None}) == 1
        if (item.key.startswith("note:") and not one_subject) or not _about(warning, item):
            continue
        subject = warning.subject or ""
        title = str(details[item.key][3])
        if subject in item.arxiv or subject.lower() in title.lower() or any(subject.lower() == n.lower() for n in item.names):
            return warning
        # "KVFold: Cross-Layer KV Cache Folding…" is KVFold; a title without a lead name is said short.
        lead = re.match(r"([A-Za-z][\w.+-]*[A-Za-z0-9])\s*[:：]\s", title)
        short = lead.group(1) if lead else title if len(title) <= 40 else title[:39] + "…"
        text = warning.text.replace(f"{subject}：", f"{short}：", 1) if subject else warning.text
        return warning.model_copy(update={"subject": short, "text": text})
    return warning


def _rated_sources(sources: Sequence[SourceEntry], increments: Sequence[Increment]) -> list[SourceEntry]:
    """The sources as read; a source that supports an increment is at least as relevant as that increment
    (a card whose words carry the day's first item is not "低" for the topic, whatever its keyword count)."""
    best: dict[str, int] = {}
    for inc in increments:
        for path in inc.sources:
            best[path] = max(best.get(path, 0), inc.relevance or 0)
    return [s.model_copy(update={"relevance": max(s.relevance or 0, best[s.path])}) if s.path in best else s
            for s in sources]


# What a correction names: quoted words, and tokens a reader could look up (H100, bex.co, v0.30.0, 380ms).
_QUOTED = re.compile(r'"([^"\n]{3,80})"|“([^”\n]{3,80})”|『([^』\n]{3,80})』|「([^「」\n]{3,80})」')
_LOOKUP = re.compile(r"[A-Za-z][\w.-]*\d[\w.-]*|\d[\w.-]*[A-Za-z][\w.-]*|[A-Za-z]+\.[a-z]{2,}|[A-Z][A-Za-z]{3,}")


_FINDING_KINDS = ("version_conflict", "number_conflict", "id_conflict")  # cross-source findings
_DISPUTED = {"version_conflict": "版本号", "number_conflict": "数字", "id_conflict": "arXiv 编号"}


def _disputed_point(point: str, disputed: Sequence[BriefWarning]) -> str:
    """A key point quoting a line a finding lists as disagreeing with another source ("…降 41%（path L18）")
    says so where the reader takes the figure: "〔与他源不一，见 C4〕"."""
    cited = re.search(r"（((?:inbox|organized)/[^\s）]+) L(\d+)）$", point)
    if cited is None:
        return point
    where = f"{cited.group(1)} L{cited.group(2)}"
    ids = [w.id for w in disputed if w.kind in ("number_conflict", "version_conflict") and
           re.search(rf"{re.escape(where)}(?!\d)", w.text)]
    return f"{point}〔与他源不一，见 {' / '.join(ids)}〕" if ids else point


def _is_correction(warning: BriefWarning) -> bool:
    return (warning.key or "").startswith("correction:")


_CAVEAT_LABELS = re.compile(r"（([^（）]{2,40})）——")


def _source_words(warning: BriefWarning) -> str:
    """What a caveat quotes from its sources: the part after its "subject：label——"."""
    return warning.text.split("——", 1)[-1]


def _corrected_bullet(warning: BriefWarning, anchored: Sequence[tuple[Any, Any]]) -> tuple[Any, Any, str] | None:
    """The anchored (section, bullet) a scout's correction is about: one holding what it quotes, or two
    of the names and figures it gives; None when the correction touches nothing the document says."""
    said = _source_words(warning)
    # Inside the quoted source lines, what the correction itself quotes.
    lines = re.findall(r"「(.*?)」(?:；|。|$)", said) or [said]
    quoted = [next(g for g in m if g).strip() for line in lines for m in _QUOTED.findall(line)]
    tokens = _lookups(said)
    best, best_hits = None, 1
    for section, bullet in anchored:
        text = str(bullet.text)
        found = next((q for q in quoted if len(q) >= 6 and q in text), None)
        if found:
            return section, bullet, found
        shared = [t for t in tokens if t in text.lower()]
        if len(shared) > best_hits:
            best, best_hits = (section, bullet, shared[0]), len(shared)
    return best


def _around(text: str, needle: str, width: int = 90) -> str:
    """The part of ``text`` around ``needle`` (case-insensitive), about ``width`` characters, cut at its ends."""
    at = text.lower().find(needle.lower())
    if at < 0 or len(text) <= width:
        return excerpt(text, width)
    start = max(0, at - width // 3)
    return ("…" if start else "") + excerpt(text[start:], width)


def _warnings_in_scope(warnings: Sequence[BriefWarning], chosen: Sequence[Item], in_topic: Sequence[Item],
                       topical: Callable[[str], bool],
                       other_briefs: Collection[str] = (),
                       anchored: Sequence[tuple[Any, Any]] = (),
                       rated: Sequence[Item] = ()) -> tuple[list[BriefWarning], list[dict]]:
    """Keep the warnings the brief's items need; set the rest aside, listed, never silently dropped.

    A caveat qualifies a claim the brief passes on: kept when about an increment (a caveat that restates
    a cross-source finding is that finding). A card's wrong date or title misleads whoever reads the
    card, chosen today or not: kept for any item of the topic. Cross-source findings stay.
    """
    kept, aside = [], []
    findings = [w for w in warnings if w.kind in _FINDING_KINDS]
    hosts: dict[str, BriefWarning] = {}  # a correction's key → the conflict whose figures it corrects
    for warning in warnings:
        covered = next((f for f in findings if warning.kind == "caveat" and _restates(warning, f)
                        and not _is_correction(warning)), None)
        host = next((f for f in findings if _corrects(warning, f)), None) if _is_correction(warning) else None
        # A promise a brief quotes and whose day has passed since is today's finding, not the brief's: it
        # quoted a plan ("RC planned for 10-02"), baton finds it overdue as of today.
        relayed = warning.kind not in (*NOT_COMPARED, "register_collision") and relayed_only(warning.sources) \
            and not (warning.kind == "promise_overdue" and topical(warning.text))
        if relayed:
            # Found only in briefs (another topic's, earlier days'): they relay their notes, and their own
            # topic carries the finding; this brief reports what its first-hand sources show.
            ok, why = False, "仅见于简报的转述（各自主题已携带），无一手来源"
        elif covered is not None:
            ok, why = False, f"与 {covered.register or covered.id}（{covered.subject}）是同一件事，已在该条中"
        elif host is not None:
            hosts[warning.key or ""] = host
            ok, why = True, ""  # said in the conflict whose figures it corrects (``_corrections_joined``)
        elif _is_correction(warning) and (target := _corrected_bullet(warning, anchored)):
            # A scout corrects what the living document already says: whoever edits it must know, chosen or not.
            section, bullet, needle = target
            warning = warning.model_copy(update={
                "text": f"{warning.text.rstrip('。')}。活文档 {section.id} 现记：「{_around(str(bullet.text), needle)}」。"})
            ok, why = True, ""
        elif is_metadata_caveat(warning):
            # A doubt about a paper's record (venue, citations) is said on the item, not registered as a doubt
            # about its results.
            ok, why = False, "卡片元数据（出处、被引等）待核，非对论文结论的存疑" + (
                "；已在该增量的可信度说明中注明" if any(_about(warning, item) for item in chosen) else "")
        elif warning.kind == "caveat" and any(_follows(warning, p) for p in warnings if p.kind in _PROMISE_KINDS):
            ok, why = True, ""  # today's word on a promise: said in the promise's warning (``_follow_ups_joined``)
        elif warning.kind == "caveat":
            # A strong flag (risk 中 or more) on this topic's matter is reported even off the increments.
            ok = any(_about(warning, item) for item in chosen) or any(_names(warning, item) for item in rated) or (
                warning.kind == "caveat" and warning.risk in ("中", "中高", "高") and topical(warning.text))
            why = "所涉条目未入选本轮增量"
        elif _card_age(warning):
            # An old paper carded today is a fact about the item, said in the item; it is a question for
            # the reviewer only where the queue ranks it as today's priority read (a ranking to check).
            about = [item for item in in_topic if _about(warning, item)]
            said = [item for item in about if _age_said(item)]
            ok = any(item.queue_flag for item in about) and not said
            why = ("所涉条目在本主轴之外" if not about else
                   "旧论文今日入卡，卡片或来源已注明不是新作；论文日期已在条目中注明" if said else
                   "旧论文今日入卡，无来源把它当作新作（work-queue 未列为优先精读）；论文日期已在条目中注明")
        elif warning.kind in ITEM_KINDS:
            ok = any(_about(warning, item) for item in in_topic)
            why = "所涉条目在本主轴之外"
        else:
            ok, why = True, ""
        if ok:
            kept.append(warning)
        else:
            aside.append({"kind": warning.kind, "subject": warning.subject, "text": warning.text,
                          "sources": warning.sources, "reason": why})
    return _follow_ups_joined(*_corrections_joined(kept, aside, hosts))


_PROMISE_KINDS = ("promise_open", "promise_overdue")


def _names(warning: BriefWarning, item: Item) -> bool:
    """The caveat is about this very item: its subject is the item's paper number or one of its names."""
    subject = (warning.subject or "").lower()
    return len(subject) >= 3 and bool(set(warning.sources) & set(item.sources)) and (
        subject in item.arxiv or subject in {n.lower() for n in item.names})


def _follows(caveat: BriefWarning, promise: BriefWarning) -> bool:
    """A scout's line on a promise ("9-28 记的'计划于 2026-09 发布…'——今天 9-29 仍未见"): same subject, quoting it."""
    if (caveat.subject or "").lower() != (promise.subject or "").lower() or not caveat.subject:
        return False
    said = re.sub(r"[-_]", " ", _source_words(caveat).lower())
    what = (promise.key or "").split("|", 1)[-1].split()  # the promise's own words ("agent managed kv cache …")
    return len(what) >= 2 and all(word in said for word in what)


def _follow_ups_joined(kept: list[BriefWarning], aside: list[dict]) -> tuple[list[BriefWarning], list[dict]]:
    """What a scout says of a promise today is said in the promise's warning, not as a doubt beside it."""
    promises = [w for w in kept if w.kind in _PROMISE_KINDS]
    hosts = {id(w): p for w in kept if w.kind == "caveat" and not _is_correction(w)
             for p in [next((p for p in promises if _follows(w, p)), None)] if p is not None}
    said: dict[str, list[BriefWarning]] = {}
    for warning in kept:
        if id(warning) in hosts:
            host = hosts[id(warning)]
            said.setdefault(host.key or "", []).append(warning)
            aside.append({"kind": warning.kind, "subject": warning.subject, "text": warning.text,
                          "sources": warning.sources, "reason": f"说的是「{host.subject}」的承诺，已并入该条"})
    out = []
    for warning in kept:
        if id(warning) in hosts:
            continue
        follow = said.get(warning.key or "") if warning.kind in _PROMISE_KINDS else None
        if follow:
            words = "；".join(_source_words(f).rstrip("。") for f in follow)
            warning = warning.model_copy(update={"text": f"{warning.text.rstrip('。')}。另，来源跟进——{words}。",
                                                 "sources": sorted({*warning.sources, *(s for f in follow for s in f.sources)})})
        out.append(warning)
    return out, aside


def _one_warning_per_entry(warnings: list[BriefWarning], aside: list[dict]) -> list[BriefWarning]:
    """Two findings carrying one register entry's number (an entry "SGLang vs vLLM TTFT 口径不一致" met again as
    an SGLang and a vLLM figure conflict) are that entry's one warning, each part's words kept: one number,
    one warning."""
    out: list[BriefWarning] = []
    first: dict[str, int] = {}
    for warning in warnings:
        number = warning.register if warning.carried_from and warning.kind in _FINDING_KINDS else None
        at = first.get(number) if number else None
        if at is None:
            if number:
                first[number] = len(out)
            out.append(warning)
            continue
        base = out[at]
        out[at] = base.model_copy(update={
            "text": f"{base.text.rstrip('。')}；另：{warning.text}",
            "sources": sorted({*base.sources, *warning.sources}),
            "subject": base.subject if warning.subject == base.subject else f"{base.subject} / {warning.subject}"})
        aside.append({"kind": warning.kind, "subject": warning.subject, "text": warning.text,
                      "sources": warning.sources, "reason": f"与「{base.subject}」同属登记条目 {number}，已并入该条"})
    return out


def _caveats_joined(warnings: list[BriefWarning], chosen: Sequence[Item], aside: list[dict]) -> list[BriefWarning]:
    """One caveat warning per increment: a note that doubts one paper under its number and again under its
    name ("2607.20468 … 统计显著性" and "待核：InferenceBench 显著性"), or two sources noting one limit, say one
    thing about one item; each source's words are kept in it."""
    out: list[BriefWarning] = []
    first: dict[str, int] = {}  # increment key → index in ``out`` of its first caveat
    for warning in warnings:
        item = next((i for i in chosen if _about(warning, i)), None) if warning.kind == "caveat" and \
            not _is_correction(warning) and not warning.register else None
        # One increment, one caveat warning: a second source's doubt about it is said in the same warning
        # (two scouts noting "单节点" for one paper are one doubt with two witnesses, not two D-numbers).
        at = first.get(item.key) if item else None
        if at is None:
            if item is not None:
                first[item.key] = len(out)
            out.append(warning)
            continue
        base = out[at]
        text = f"{base.text.rstrip('。')}；{_source_words(warning)}"
        labels = [m.group(1) for w in (base, warning) if (m := _CAVEAT_LABELS.search(w.text))]
        if len(labels) == 2:  # "（单一测试条件）" and "（出处存疑）": the joined warning names both doubts
            joined = "、".join(dict.fromkeys(part for label in labels for part in re.split(r"[、，,]", label)))
            text = _CAVEAT_LABELS.sub(f"（{joined}）——", text, count=1)
        out[at] = base.model_copy(update={
            "text": text,
            "sources": sorted({*base.sources, *warning.sources}),
            "risk": max(base.risk or "低", warning.risk or "低", key=lambda r: RISK_ORDER.index(r) if r in RISK_ORDER else 0)})
        aside.append({"kind": warning.kind, "subject": warning.subject, "text": warning.text,
                      "sources": warning.sources, "reason": f"与「{base.subject}」是同一条目的保留，已并入该条"})
    return out


def _lookups(text: str) -> set[str]:
    """The names and figures a text gives, without its vault paths (a shared file is no shared subject)."""
    text = re.sub(r"(?:inbox|organized)/\S+?\.md", " ", text)
    return {t.lower().rstrip(".") for t in _LOOKUP.findall(text)}


def _corrects(correction: BriefWarning, finding: BriefWarning) -> bool:
    """The correction speaks of the finding's figures: two of the names and figures it gives stand in it."""
    return len(_lookups(_source_words(correction)) & _lookups(finding.text)) >= 2


def _corrections_joined(kept: list[BriefWarning], aside: list[dict],
                        hosts: Mapping[str, BriefWarning]) -> tuple[list[BriefWarning], list[dict]]:
    """One claim, one warning: a correction of the figures a kept conflict lists is said in that conflict,
    not beside it (one whose conflict was set aside stands on its own)."""
    joined = {w.key or "": w for w in kept if w.kind in _FINDING_KINDS}
    out = []
    for warning in kept:
        host = hosts.get(warning.key or "")
        if host is None or (host.key or "") not in joined:
            out.append(warning)
            continue
        base = joined[host.key or ""]
        joined[host.key or ""] = base.model_copy(update={
            "text": f"{base.text.rstrip('。')}。另，来源更正——{_source_words(warning).rstrip('。')}。",
            "sources": sorted({*base.sources, *warning.sources})})
        aside.append({"kind": warning.kind, "subject": warning.subject, "text": warning.text, "sources": warning.sources,
                      "reason": f"更正的是「{host.subject}」一条所列的数字，已并入该条"})
    return [joined.get(w.key or "", w) if w.kind in _FINDING_KINDS else w for w in out], aside


def _base_doc(path: str, scan: WindowScan, as_of_version: str | None) -> BaseDoc:
    """The living document as of the window's end; what the file says now too, when it changed since."""
    living = scan.living
    if living.updated is not None and living.updated > scan.end:
        return BaseDoc(path=path, version=as_of_version, updated=None, current_version=living.version,
                       current_updated=living.updated)
    return BaseDoc(path=path, version=living.version, updated=living.updated)


def living_doc_label(scan: WindowScan) -> str:
    """The living document as the brief names it: ``<file> v<version at the window's end>``."""
    version = scan.living.version_as_of(scan.day, scan.end)
    return f"{PurePosixPath(scan.topic.living_doc).name} v{version or '?'}"


def integrate(
    scan: WindowScan,
    warnings: Sequence[BriefWarning],
    arxiv_results: Mapping[str, ArxivEntry] | Sequence[ArxivEntry] | None,
    history_counts: Sequence[Mapping[str, int]],
    thread: str,
    *,
    gaps: Sequence[GapEntry] = (),
    alerts: Sequence[AlertEntry] = (),
    writer: ModelWriter | None = None,
    open_register: Mapping[int, str] | None = None,
) -> Brief:
    """Turn one window's scan into the brief: items, status, sections, credibility, selection.

    With a ``writer`` (a model is configured) the model words the increments and the honesty statement
    and may move candidates between the lists with a reason; everything else is the rules'.
    """
    topic = scan.topic
    results = _results_map(arxiv_results)
    as_of_version = scan.living.version_as_of(scan.day, scan.end)
    doc = living_doc_label(scan)
    anchored = scan.living.anchored_as_of(scan.day, scan.end)
    # A short number beside its carded paper's name joins that paper's item (``joined``); it is still warned of
    # and listed, so only the other repairs are said as repaired (``repairs``).
    joined = certain_repairs(scan.mentions, scan.cards, by_card_name=True)
    repairs = {written: fix for written, fix in joined.items() if not fix[1].startswith(CARD_NAME_REPAIR)}
    titles = {row.arxiv: row.title for row in (scan.queue.rows if scan.queue else []) if row.title}
    titles.update({str(card.arxiv): str(card.title) for card in scan.cards})
    titles.update({k: e.title for k, e in results.items() if e.verified == "ok" and e.title})
    # The numbers the team's own record carries (the living document, the register's rows) settle which of
    # one name's two numbers is the paper's.
    recorded = {i for s in scan.living.sections for b in s.bullets for i in b.arxiv} | {
        r.id for e in scan.register for r in find_arxiv_refs(e.text) if not r.malformed}
    # A number with a card of its own anywhere in the vault is a paper of its own, never another's slip.
    mistaken = mistaken_numbers(warnings, titles, recorded, {str(card.arxiv) for card in scan.cards} | set(scan.card_files))
    # What a source says under a number written for another paper is said of that paper (its caveats too);
    # the number itself is listed for audit with the warning that names it.
    written = [m for m in scan.mentions if m.kind == "arxiv" and m.value in mistaken]
    wrong: list[ArxivEntry] = [
        _mistaken_entry(i, m, {int(v) for w in written if w.value == i and (v := w.detail.get("version"))}, results)
        for i, m in sorted(mistaken.items()) if any(w.value == i for w in written)]
    items = cluster_items(renumbered_mentions(repaired_mentions(scan.mentions, joined),
                                              {i: m.likely for i, m in mistaken.items()}),
                          scan.files, scan.cards, scan.queue.rows if scan.queue else [])
    items = sequels_joined(items)
    repaired_ids = [{"written": written, "id": fixed, "why": why,
                     "sources": sorted({m.source for m in scan.mentions if m.kind == "arxiv" and m.value == written})}
                    for written, (fixed, why) in sorted(repairs.items())]
    rows: list[tuple[Item, Judgement, TopicFit, int]] = []
    details: dict[str, tuple[Credibility, list[BriefWarning], SectionMatch | None, str]] = {}
    excluded: list[dict] = []
    outside: list[ArxivEntry] = []
    rules = ScopeRules(
        topic=topic.name,
        names=topic_names(topic),
        keywords=tuple(topic.keywords), section_terms=section_terms(scan.living.sections),
        adjacent=frozenset(a.lower() for a in topic.adjacent or ()), min_relevance=topic.min_relevance,
        owners=frozenset({topic.executor.lower()}), entries=entry_subjects(anchored),
        tracked=tracked_subjects([bullet for _, bullet in anchored]),
        # the vault's agents: the folders of inbox/ ("转 flyp" hands an item to flyp's lane)
        people=frozenset(s.path.split("/")[1].lower() for s in scan.sources
                         if s.path.startswith("inbox/") and s.path.count("/") >= 2) | {topic.executor.lower()},
        known_topics=frozenset({t.lower() for t in (*(topic.adjacent or ()), topic.name)}
                               | {str(c).lower() for card in scan.cards for c in (card.primary, card.secondary) if c}
                               # the team's other briefs name the topics it writes for ("…-risk-e1prep.md")
                               | {t.lower() for s in scan.sources if (t := brief_topic(s.path))}))
    tracked = rules.tracked
    subjects = section_subjects(scan.living.sections)
    asked = requested_lines([f for f in scan.files if f.path in {s.path for s in scan.sources if s.in_window}])
    other_briefs = {s.path for s in scan.sources
                    if is_brief_path(s.path) and not PurePosixPath(s.path).stem.endswith(f"-{topic.slot}")}
    quiet = quiet_notes([f for f in scan.files if not is_brief_path(f.path)], rules.names)
    labels = {f.path: own_labels(f.body or "") for f in scan.files}  # the notes' own "§2.4" headings
    sections_carried: list[dict] = []
    sections_below: list[dict] = []
    # The papers the register's open entries are about (its file's rows as of the brief).
    register_papers = {r.id for e in scan.register if not e.closed and (e.raised is None or e.raised <= scan.day)
                       for r in find_arxiv_refs(e.text) if not r.malformed}
    # The open register entries as of the brief: the store's (the register file and every brief's), else the file's.
    open_entries: dict[int, str] = dict(open_register) if open_register is not None else {
        e.number: e.text for e in scan.register if not e.closed and (e.raised is None or e.raised <= scan.day)}
    for item in items:
        if item.card is None and not item.queue_card:
            item.vault_card = next((scan.card_files[i] for i in item.arxiv if i in scan.card_files), None)
        if item.card is None and not item.queue_title:
            # A paper carded before the window: its card's title is its name (not a note's heading).
            item.queue_title = next((scan.card_titles[i] for i in item.arxiv if i in scan.card_titles), None)
        if not any(set(b.arxiv) & set(item.arxiv) for _, b in anchored):  # anchored: carried, not excluded
            item = with_note_remarks(item, quiet, {s.path for s in scan.sources if is_brief_path(s.path)})
        # A number written for another paper is listed for audit (above), never sold as an item of its own.
        if any(i in mistaken for i in item.arxiv):
            if all(i in mistaken for i in item.arxiv):
                continue
            item = replace(item, arxiv=[i for i in item.arxiv if i not in mistaken])
        listed_for_topic = False
        if item.key.startswith("note:"):
            verdicts = passage_verdicts(item, rules)
            for verdict in verdicts:
                # A section set aside ends in a list of its own, with the reason its own words give.
                if verdict.place != "kept":
                    section = verdict.passage
                    entry = {"key": section_key(section), "title": tidy_title(section.heading) or item_title(item),
                             "arxiv": [], "paper_card": None, "sources": [section.path], "reason": verdict.reason}
                    if verdict.place == "below":
                        sections_below.append({**entry, "score": 0.0, "status": "net_new"})
                        continue
                    (sections_carried if verdict.place == "carried" else excluded).append(entry)
            passages = [v.passage for v in verdicts if v.place == "kept"]
            listed_for_topic = any(v.place == "kept" and v.listed for v in verdicts)
            if not passages:
                continue
            spans = [(p.start, p.end) for p in passages]
            item = replace(item, passages=passages,
                           figures=[f for f in item.figures if any(a <= f.line <= b for a, b in spans)])
        for passage in item.passages:
            passage.off_topic = passage.adopted and text_relevance(
                "\n".join([passage.heading, *(line for _, line in passage.lines)]), rules) == 0
        kept = [p for p in item.passages if not p.off_topic]
        if kept and len(kept) < len(item.passages):
            # A section joined by the item's name that says nothing of the topic (an M2 Max smoke test of an
            # engine release, in an infrastructure brief) neither weighs nor speaks for the item here.
            dropped = [(p.path, p.start, p.end) for p in item.passages if p.off_topic]
            excluded.extend({"key": section_key(p), "title": tidy_title(p.heading) or p.heading, "arxiv": [],
                             "paper_card": None, "sources": [p.path],
                             "reason": f"与「{item_title(item)}」同指，但该段无本主轴内容（相关度 0），不计入该条"}
                            for p in item.passages if p.off_topic)
            item = replace(item, passages=kept, figures=[f for f in item.figures if not any(
                f.source == path and a <= f.line <= b for path, a, b in dropped)])
        looked_up = [results[i].title for i in item.arxiv if i in results and results[i].verified == "ok"
                     and results[i].title]
        fit = judge_scope(item, rules, other_briefs, [t for t in looked_up if t])
        # Said of this paper: the line with the words cites its number (a list of others' titles is theirs).
        item.title_only = next((excerpt(line, 80) for _, line in item_lines(item) if item.arxiv and any(
            _TITLE_ONLY.search(piece) and any(r.id in item.arxiv for r in find_arxiv_refs(piece))
            for piece in re.split(r"[；;，,]", line))), "")
        if not fit.in_topic and fit.mark is None and fit.reason.startswith("正文无") and (
                relayed_only(item.sources) or item.title_only):
            # Known only from a brief's relay (a title in another topic's list), or only its title was read: too
            # little of it was read to call it off-topic; it is listed below the cut as such, not excluded.
            fit = replace(fit, in_topic=True, relevance=0, reason="")
        if listed_for_topic and not fit.in_topic and fit.mark is None:
            # The note lists these sections as the topic's ("inference 相关：§2 …"): the scout's word on scope.
            fit = replace(fit, in_topic=True, relevance=max(fit.relevance, MIN_RELEVANCE), reason="")
        if not fit.in_topic and fit.mark is None and fit.reason.startswith("正文无") and \
                set(item.arxiv) & register_papers:
            # An open question of the register is about this paper: the topic still asks it (not off-topic).
            fit = replace(fit, in_topic=True, relevance=max(fit.relevance, MIN_RELEVANCE), reason="")
        if not fit.in_topic and fit.mark is None and not fit.reason.startswith("来源标注丢弃") and \
                "仅邻接" not in fit.reason and (any(set(b.arxiv) & set(item.arxiv) for _, b in anchored)
                                              or (item.arxiv and briefs_naming(item, scan.earlier_briefs)[0])):
            # The living document (or this topic's earlier brief) already anchors this paper: it is this topic's,
            # whatever today's words
            # (a line that hands its own section to another topic only mentions the paper). Only the
            # scouts' "丢弃" or "仅邻接" of the paper itself take it out.
            fit = replace(fit, in_topic=True, relevance=max(fit.relevance, MIN_RELEVANCE), reason="")
        elif fit.in_topic and fit.relevance < MIN_RELEVANCE and item.card is None and \
                names_tracked(item_title(item), item.names, tracked):
            # A new release of something the living document keeps an entry for ("X v0.9" beside "X 入选 …").
            fit = replace(fit, relevance=MIN_RELEVANCE)
        elif fit.in_topic and 0 < fit.relevance < MIN_RELEVANCE and fit.stars >= 4:
            # One of the topic's terms, and a scout rated the item highly: the scout's judgement is evidence.
            fit = replace(fit, relevance=MIN_RELEVANCE)
        if not fit.in_topic:
            title = item_title(item)
            if item.card is not None:  # a carded paper stays auditable in the arXiv list, marked outside the topic
                outside.extend(ArxivEntry(
                    id=i, verified=results[i].verified if i in results else "unverified", title=title,
                    note="；".join(filter(None, [f"主轴外：{fit.reason}", results[i].note if i in results else None])),
                    published=results[i].published if i in results else None)
                    for i in item.arxiv)
            excluded.append({"key": item.key, "title": title, "reason": fit.reason, "arxiv": item.arxiv,
                             "paper_card": item.card.card if item.card is not None else None,
                             "sources": item.sources})
            continue
        item = _with_heading_names(item, rules)
        judgement = _release_of_tracked(item, judge_status(item, anchored, scan.earlier_briefs), anchored, rules)
        judgement = _follows_entry(item, judgement, open_entries)
        judgement = _adds_to_subject(item, judgement, anchored, subjects)
        judgement = _named_like_an_entry(item, judgement, anchored, rules)
        judgement = _scout_says_new(item, judgement, other_briefs)
        if fit.mark in ("carried", "anchored") and judgement.status == "net_new" and item.arxiv \
                and not _NOTHING_SAID_NEW.search(fit.evidence):
            # "已锚，沿用" of a paper neither this topic's document nor its earlier briefs cite (DualPath, kept in
            # inference.md; Rufus-Air, "沿用" in the agent line's table): the scout speaks of another topic's
            # baseline; nothing of it is anchored here.
            fit = replace(fit, mark=None, evidence="")
        if fit.mark == "carried" and judgement.status != "carried" and not _read_anew(item, fit.evidence):
            # The scout carries it forward ("沿用", "续立"): nothing new, whatever the figures say.
            judgement = replace(judgement, status="carried", marked=fit.evidence)
        elif fit.mark == "anchored" and judgement.status == "net_new":
            # The scout says it is anchored ("已锚入") though no anchored text was found: not NET-new;
            # new figures make it an integration, none a carried item.
            # No anchored text was found to hold its figures: today's figures are news of the entry.
            fresh = [f for f in item.figures if not f.detail.get("spec") and not is_relay_path(f.source)
                     and not said_unchanged(f)]
            # The scout's line saying what is new ("这篇是官方博客的新表态") makes it news without figures too.
            news = item.figures or _NEWS_SAID.search(fit.evidence)
            judgement = replace(judgement, status="integrated" if news else "carried", marked=fit.evidence,
                                new_figures=fresh)
        if judgement.status == "integrated" and not judgement.new_figures and item.card is not None and not (
                {str(c).lower() for c in (item.card.primary, item.card.secondary) if c} & rules.names):
            # Anchored already, and today only brings another topic's card for it: nothing new here.
            judgement = replace(judgement, status="carried",
                                marked=f"已锚入，今日仅新入 paper_card {item.card.card}（主分类 {item.card.primary}），无新内容")
        said = next((r for r in item.remarks if NOTHING_FOR.search(r)), None) if item.key.startswith("note:") else None
        if said and judgement.status == "net_new":
            # The note itself says it holds nothing new ("NET-new：无；…是已锚结论的复核"): a re-check.
            judgement = replace(judgement, status="carried", marked=f"来源注明无 NET-new：「{said[:60]}」（{item.sources[0]}）")
        title = item_title(item, judgement)
        on_item = _warnings_for(item, warnings)
        # A warning standing only on lines under another subject's sub-heading is not this item's.
        foreign = foreign_lines(item, title)
        on_item = [w for w in on_item if not (cited := {(p, int(n)) for p, n in _CITED_LINE.findall(w.text)})
                   or not cited <= foreign]
        credibility = score_credibility(item, results, on_item, fit.stars)
        # The selection ranks on what the vault says, not on whether arXiv was reached: stable offline/online.
        # A caveat qualifies a claim the brief passes on; it does not keep the item out of the brief.
        rank_credibility = score_credibility(item, {}, [w for w in on_item if w.kind != "caveat"], fit.stars).score
        # A digest is named after its note ("晚间简报（…Agentic RAG）"); its sections say what it is about.
        about = " / ".join(tidy_title(p.heading) for p in item.passages) if item.key.startswith("note:") else title
        placed = placed_sections(item_lines(item), scan.living.sections, sorted(rules.names),
                                 sorted(rules.known_topics - rules.names), labels)
        match = propose_section(focus_text(item, title), scan.living.sections, item.arxiv, about or title, placed)
        details[item.key] = (credibility, on_item, match, title)
        item.requested = _asked_for(item, title, asked)

        rows.append((item, judgement, fit, rank_credibility))
    chosen = select_items(rows, topic.increments)
    # An item that lost a tie at the cut for repeating a chosen one's figures (a digest lining up that page with
    # others) is one comparison with it: its sections join that increment, so what it adds is not lost.
    chosen_items = [row[0] for row in chosen]
    last = min((round(rank_score(r[0], r[1].status, r[3], r[2].relevance, r[2].stars), 1) for r in chosen), default=None)
    for item, judgement, fit, score in rows:
        if item in chosen_items or judgement.status == "carried" or last is None or len(chosen) < topic.increments[1]:
            continue
        tied = round(rank_score(item, judgement.status, score, fit.relevance, fit.stars), 1) >= last
        into = restates_chosen(item, chosen_items) if tied else None
        if into is not None and any(p.path not in into.sources for p in item.passages):
            into.passages.extend(p for p in item.passages if p not in into.passages)
            into.sources.extend(s for s in item.sources if s not in into.sources)
            into.figures.extend(f for f in item.figures if f not in into.figures)
    moved: dict[str, dict] = {}
    opinions: list[dict] = []
    if writer is not None:
        chosen, moved, opinions = _second_opinion(writer, rows, chosen, details, topic.increments, excluded,
                                                  _coordination_lines(scan))
    chosen_keys = {item.key for item, *_ in chosen}
    # A claim the brief passes on below the cut, from an item its scout rated highly, keeps its caveat.
    rated = [item for item, judgement, fit, _ in rows if item.key not in chosen_keys and fit.stars >= 4
             and judgement.status != "carried"]
    record_doubts = [w for w in warnings if is_metadata_caveat(w)]
    warnings, set_aside = _warnings_in_scope(warnings, [row[0] for row in chosen], [row[0] for row in rows],
                                             lambda text: text_relevance(text, rules) >= 1, other_briefs, anchored,
                                             rated)
    warnings = _caveats_joined(warnings, [row[0] for row in chosen], set_aside)
    warnings = _one_warning_per_entry(warnings, set_aside)
    warnings = [_named_for_item(w, chosen, details) for w in warnings]
    renamed = {w.id: f"C{i}" for i, w in enumerate(warnings, start=1)}
    warnings = [w.model_copy(update={"id": renamed[w.id]}) for w in warnings]
    # Nothing silently dropped: every in-topic item not chosen is carried or below the cut, with why.
    carried: list[dict] = list(sections_carried)
    below_cut: list[dict] = list(sections_below)
    for item, judgement, fit, score in rows:
        if item.key in chosen_keys or moved.get(item.key, {}).get("to") == "excluded":
            continue
        title = details[item.key][3]
        if item.key.startswith("note:") and len(item.passages) != 1:
            # A digest is the note's sections without a paper or a link: its papers are items of their own.
            title = f"{title}（该笔记中无论文 / 链接的段落）"
        entry = {"key": item.key, "title": title, "arxiv": item.arxiv, "sources": item.sources,
                 "paper_card": item.card.card if item.card is not None else None}
        if judgement.status == "carried":
            # The section of the bullet that says most of what the item is ("inferenceengineering.tech 决策框架" is
            # §6.1's decision-tree bullet, not §1.1's H100 table from the same site).
            best = max(judgement.bullets, key=lambda pair: len(_words(title) & _words(str(pair[1].text))), default=None)
            where = judgement.marked or (
                f"{best[0].id} 已锚" if best is not None else
                f"已见于 {judgement.briefs[0]}" if judgement.briefs else "")
            carried.append({**entry, "reason": where})
        else:
            reason = (f"模型复核：{moved[item.key]['reason']}" if item.key in moved else
                      cut_reason(item, judgement, fit, rows, chosen, topic.increments,
                                 {key: detail[3] for key, detail in details.items()}))
            below_cut.append({**entry, "score": round(rank_score(item, judgement.status, score, fit.relevance, fit.stars), 1),
                              "status": judgement.status, "reason": reason})
    words = _model_words(writer, chosen, details, scan, doc)
    increments = []
    # A link as its source wrote it ("www." and all); the canonical form only matches pages across sources.
    written: dict[str, str] = {}
    for mention in scan.mentions:
        if mention.kind == "url":
            written.setdefault(mention.value, str(mention.detail.get("raw") or mention.raw).rstrip("/"))
    echo_index = EchoIndex([row[0] for row in rows], {f.path: f.time for f in scan.files})
    for rank, (item, judgement, fit, _rank) in enumerate(chosen, start=1):
        _, on_item, match, title = details[item.key]
        # The reasons cite the warnings as the brief numbers them (only the ones it keeps).
        kept_on_item = [w.model_copy(update={"id": renamed[w.id]}) for w in on_item if w.id in renamed]
        credibility = score_credibility(item, results, kept_on_item, fit.stars)
        if item.requested:  # said where the team asked for it, so the ranking is read with its reason
            credibility = replace(credibility, reasons=[*credibility.reasons, f"协调记录要求今晚锚入（{item.requested}）"])
        record = next((w for w in record_doubts if _about(w, item)), None)
        if record is not None:
            credibility = replace(credibility, score=max(1, credibility.score - 1),
                                  reasons=[*credibility.reasons, f"{METADATA_CAVEAT}（{_record_doubt(record)}）"])
        lead = (leading_system(title, ()) or "").lower()
        echoes = echoed_figures(item, echo_index, item_title, lambda line, item=item, lead=lead: mentions_item(line, item)
                                or bool(lead) and lead in line.lower())
        if echoes:  # figures given earlier under another subject: said so, not sold as today's numbers
            echoed = {e.figure for e in echoes}
            judgement = replace(judgement, echoes=echoes,
                                new_figures=[f for f in judgement.new_figures if f.raw not in echoed])
        flagged = next((w.id for w in kept_on_item if _card_age(w)), None)
        month = _paper_month(item)
        late = f"论文并非新作，见 {flagged}" if flagged else (
            f"论文并非新作：arXiv 号前缀 {month} 即其提交年月" if month else None)
        points, argument, relation = words[rank - 1] if words else (
            key_points(item, judgement), core_argument(item, title, judgement, doc, late),
            relation_text(item, judgement, match, scan, doc))
        disputed = [w for w in kept_on_item if (w.kind in _FINDING_KINDS and not (w.kind == "id_conflict" and w.label))
                    or (w.kind == "caveat" and "出处存疑" in w.text.split("——", 1)[0])]
        if disputed:  # the item states what its sources disagree on: said where it is given, not only in 三
            what = "、".join(dict.fromkeys(_DISPUTED.get(w.kind, "数字（出处）") for w in disputed))
            argument = (f"{argument.rstrip('。')}；本条涉及的{what}各源不一（"
                        f"{' / '.join(w.id for w in disputed)}），核对后再引用。")
            points = [_disputed_point(point, disputed) for point in points]
        increments.append(Increment(
            rank=rank, title=title, status=judgement.status,  # type: ignore[arg-type]
            arxiv=item.arxiv, urls=[written.get(u, u) for u in item.urls], sources=item.sources,
            work_queue=item.queue_flag, work_queue_claim=_queue_claim(item),
            paper_card=item.card.card if item.card is not None else (
                item.queue_card or (item.vault_card[0] if item.vault_card else None)),
            points=points, argument=argument, credibility=credibility.score,
            credibility_reason=credibility.reason, relation=relation,
            section=match.id if match else None, section_title=match.title if match else None,
            key=item.key, relevance=fit.relevance, card_status=card_status(item),
            warnings=[w.id for w in kept_on_item],
        ))
    citable: list[ArxivEntry] = []
    ordered = [row for row in chosen] + sorted((r for r in rows if r[0].key not in chosen_keys), key=lambda r: r[0].key)
    stars_of = {inc.key: inc.credibility for inc in increments}  # one item, one credibility across the lists
    for item, judgement, _fit, _rank in ordered:
        shown, _, match, title = details[item.key]
        entries = _arxiv_entry(item, title, judgement, match.id if match else None,
                               stars_of.get(item.key, shown.score), results)
        if item.key not in chosen_keys and item.title_only:
            # Only its title was read: no number to cite for the topic yet.
            entries = [e.model_copy(update={"status": None, "citable": False, "section": None,
                                            "note": "；".join(filter(None, ["来源只读了标题，内容待核实", e.note]))})
                       for e in entries]
        elif item.key not in chosen_keys and judgement.status != "carried":
            # Not an increment today: listed for audit, not as NET-new or integrated.
            entries = [e.model_copy(update={"status": None, "note": "；".join(filter(None, ["未入选本轮增量", e.note]))})
                       for e in entries]
        citable.extend(entries)
    citable.extend(entry.model_copy(update={"citable": False}) for entry in outside)
    # Identifiers that cannot be cited as written still belong in the list, with the verdict and the likely id.
    citable.extend(entry.model_copy(update={"citable": False}) for entry in wrong)
    listed = {entry.id for entry in citable}
    citable.extend(entry.model_copy(update={"citable": False}) for key, entry in sorted(results.items())
                   if entry.verified in ("malformed", "not_found", "mismatch") and key not in listed
                   and key not in repairs)
    health = source_health(today_counts(scan), history_counts)
    _same_name_told(excluded, carried, below_cut, increments)
    read_paths = {s.path for s in scan.sources if s.in_window and s.status in ("read", "truncated")}
    unplaced, skipped_sections = unplaced_sections(scan.files, read_paths, items, rules)
    statuses = [inc.status for inc in increments]
    density = density_of(statuses)
    labels = [(f"arXiv {inc.arxiv[0]}" if inc.arxiv else inc.title, inc.status) for inc in increments]
    honesty = honesty_statement(topic.name, density, labels, topic.increments, health)
    read = scan.read_count
    alert = None
    if health.broken:
        alert = "、".join(f"{a} 收件箱今日静默" for a in health.silent) or "今日来源数远低于常值"
    brief = Brief(
        topic=topic.name, date=scan.day.isoformat(), thread=thread, executor=topic.executor,
        window=Window(start=scan.start, end=scan.end),
        base_doc=_base_doc(topic.living_doc, scan, as_of_version),
        density=density, honesty=honesty, sources=_rated_sources(scan.sources, increments),
        increments=increments, warnings=list(warnings), arxiv=citable, gaps=list(gaps), alerts=list(alerts),
        stats=Stats(sources_read=read, sources_skipped=len(scan.sources) - read),
        excluded=excluded, carried=carried, below_cut=below_cut, unplaced=unplaced, unplaced_set_aside=skipped_sections, input_alert=alert, set_aside=set_aside,
        repaired_ids=repaired_ids,
    )
    refresh_summary(brief, topic.increments)
    if writer is not None:
        brief.scope_moves = list(moved.values())
        brief.llm_opinions = opinions
        brief.honesty = writer.honesty(honesty, density, brief.summary,
                                       [f"{inc.rank} {inc.title}（{inc.status}）" for inc in increments])
        session = writer.session
        brief.stats.llm_calls, brief.stats.llm_tokens = session.calls, session.tokens
        brief.stats.llm_dropped = session.dropped
        brief.llm_model = session.provider.name
        brief.llm_notes = list(session.notes)
    return brief


_LIST_ZH = {"excluded": "主轴外", "carried": "已锚定沿用", "below_cut": "未入选", "increment": "增量"}


def _same_name_told(excluded: list[dict], carried: list[dict], below_cut: list[dict],
                    increments: Sequence[Increment]) -> None:
    """One name under two arXiv numbers in the brief's lists: each entry says where the other stands,
    so a reader sees the pair (which number is right is the id check's, when a first-hand source has both)."""
    rows: list[tuple[str, str, str, dict | None]] = [
        ("increment", inc.title, inc.arxiv[0], None) for inc in increments if inc.arxiv]
    rows += [(name, str(entry.get("title") or ""), entry["arxiv"][0], entry)
             for name, entries in (("excluded", excluded), ("carried", carried), ("below_cut", below_cut))
             for entry in entries if entry.get("arxiv")]
    by_name: dict[str, list[tuple[str, str, dict | None]]] = {}
    for name, title, number, entry in rows:
        if re.search(r"[/、+＋;；]|\band\b", title):
            continue  # a title listing several subjects names none of them alone
        key = re.sub(r"[\W_]+", "", title.split("：")[0].lower())
        if len(key) >= 6 and key != re.sub(r"\W+", "", number):
            by_name.setdefault(key, []).append((name, number, entry))
    for group in by_name.values():
        numbers = {number for _, number, _ in group}
        if len(numbers) < 2:
            continue
        for _, number, entry in group:
            others = "、".join(sorted({f"arXiv {n}（{_LIST_ZH[k]}）" for k, n, _ in group if n != number}))
            if entry is not None:
                entry["reason"] = f"{entry.get('reason') or ''}；同名条目另有 {others}，号码待核对".lstrip("；")


def _coordination_lines(scan: WindowScan, limit: int = 40) -> list[dict]:
    """The window's coordination notes, as data for the model's reading of what they claim."""
    notes = []
    for file in scan.files:
        if is_coordination_path(file.path) and file.body:
            lines = [line.strip() for line in file.body.split("\n") if line.strip()][:limit]
            notes.append({"path": file.path, "text": "\n".join(line[:200] for line in lines)})
    return notes


def _second_opinion(writer: ModelWriter, rows: list, chosen: list, details: dict, limits: tuple[int, int],
                    excluded: list[dict], coordination: list[dict] = ()) -> tuple[list, dict[str, dict], list[dict]]:
    """Apply the model's second opinion on scope: only moves between the rules' own lists, each with a reason.

    An increment may go below the cut or out of the topic; an item below the cut may become an increment
    while the brief has room (never a carried one). Nothing else the model says has an effect.
    """
    chosen_keys = {item.key for item, *_ in chosen}
    candidates = [{"key": item.key, "title": details[item.key][3], "sources": item.sources,
                   "list": "increments" if item.key in chosen_keys else "below_cut",
                   "reason": judgement.status if item.key in chosen_keys else
                   cut_reason(item, judgement, fit, rows, chosen, limits, {k: d[3] for k, d in details.items()}),
                   # the claims an increment passes on: its figures' lines, as the sources word them
                   "claims": [f"{f.source} L{f.line}: {f.context[:200]}" for f in item.figures[:4]]
                   if item.key in chosen_keys else []}
                  for item, judgement, fit, _ in rows if judgement.status != "carried"]
    # The model reconsiders the cut: the increments and the items nearest below it (as many as the brief
    # may hold), not every item of the day; the prompt stays bounded however long the below-cut list grows.
    near = {row[0].key for row in sorted(
        (r for r in rows if r[0].key not in chosen_keys and r[1].status != "carried"),
        key=lambda r: -rank_score(r[0], r[1].status, r[3], r[2].relevance, r[2].stars))[: limits[1]]}
    candidates = [c for c in candidates if c["list"] == "increments" or c["key"] in near]
    by_key = {row[0].key: row for row in rows}
    moved: dict[str, dict] = {}
    kept = list(chosen)
    opinion = writer.second_opinion(candidates, limits, coordination)
    titles = {c["key"]: c["title"] for c in candidates}
    opinions = [{"kind": "unconditioned", "key": n.key, "title": titles.get(n.key, n.key), "claim": n.claim,
                 "note": n.missing} for n in opinion.unconditioned]
    opinions += [{"kind": "coordination", "claim": n.claim, "note": n.reading} for n in opinion.coordination]
    for move in opinion.moves:
        row = by_key[move.key]
        item = row[0]
        record = {"key": item.key, "title": details[item.key][3], "to": move.to, "reason": move.reason,
                  "from": "increments" if item.key in chosen_keys else "below_cut"}
        if record["from"] == "increments":
            kept = [r for r in kept if r[0].key != item.key]
            if move.to == "excluded":
                excluded.append({"key": item.key, "title": record["title"], "arxiv": item.arxiv,
                                 "paper_card": item.card.card if item.card is not None else None,
                                 "sources": item.sources, "reason": f"模型复核：{move.reason}"})
        elif move.to == "increments" and len(kept) < limits[1]:
            kept.append(row)
        elif move.to == "excluded":
            excluded.append({"key": item.key, "title": record["title"], "arxiv": item.arxiv,
                             "paper_card": item.card.card if item.card is not None else None,
                             "sources": item.sources, "reason": f"模型复核：{move.reason}"})
        else:
            continue
        moved[item.key] = record
    return kept, moved, opinions


def _model_words(writer: ModelWriter | None, chosen: list, details: dict, scan: WindowScan,
                 doc: str) -> list[tuple[list[str], str, str]]:
    """The increments' words by the model (the rules' for any it could not word), or [] without a model."""
    if writer is None:
        return []
    from agents.integrator.llm_text import IncrementJob

    writer.session.cap = len(chosen) + 2  # calls per brief ≤ increments + 2, the scope call and any retry included
    jobs = []
    for rank, (item, judgement, _fit, _rank) in enumerate(chosen, start=1):
        _, _, match, title = details[item.key]
        jobs.append(IncrementJob(rank=rank, item=item, judgement=judgement, title=title,
                                 section=match.id if match else None, points=key_points(item, judgement),
                                 argument=core_argument(item, title, judgement, doc),
                                 relation=relation_text(item, judgement, match, scan, doc)))
    return [(w.points, w.argument, w.relation) for w in writer.increments(jobs)]
