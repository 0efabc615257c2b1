"""Cross-source checks of a window: each finding becomes a ``BriefWarning`` (text in Chinese).

Inputs are plain values: the window's mentions, optional reference mentions
(the living document, earlier briefs: compared against, never reported on
their own), the window's cards, arXiv verdicts (id → result, see
``PaperFacts``), and the brief's date. Nothing here reads the clock.

Title thresholds (rapidfuzz, on lower-cased Latin words):
- ``partial_ratio ≥ 90`` between the note's name and the title: the name is
  a part of the title ("Pareto Atlas" in "The Inference Engineering Pareto
  Atlas"), not a mismatch;
- otherwise a name word of ≥ 4 letters whose best ``ratio`` against a title
  word is in [80, 100) is a misspelling ("continnum" vs "continuum": 88.9),
  plural "s" ignored;
- a *strong* name (one that labels the number) sharing no word (ratio ≥ 80)
  with the title names another paper: the number is probably wrong.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from rapidfuzz import fuzz

from agents.verifier.claims import (
    ArxivName,
    arxiv_names,
    check_number_conflicts,
    check_version_conflicts,
    make_warning,
    name_key,
    name_words,
    quote,
)
from agents.verifier.register import assign_numbers, collisions, promise_warnings, track_promises
from state.db import Database
from state.models import BriefWarning, Mention

__all__ = [
    "CardLike",
    "PaperFacts",
    "paper_facts",
    "likely_ids",
    "check_malformed",
    "check_id_conflicts",
    "check_titles",
    "check_dates",
    "check_versions_beyond_latest",
    "check_single_source",
    "check_instructions",
    "arxiv_checks",
    "run_checks",
]

_CARD_DIR = "organized/paper_cards/"
# A paper's proper name: one token with an inner capital, a digit or a hyphen ("PolyKV", "Workload-Router-Pool").
# Descriptions and nicknames ("Inference Control Plane", "CDB") differ legitimately and are not compared.
_PROPER = re.compile(r"(?=[A-Za-z0-9.-]{4,}$)[A-Za-z][a-z0-9]*(?:[A-Z0-9][A-Za-z0-9]*|-[A-Za-z0-9.]+)+")
_TITLE_STOP = frozenset("the and for with from into via of on in to a an".split())


class CardLike(Protocol):
    """What the checks read from ``agents.scanner.cards.Card``."""

    card: int
    arxiv: str
    title: str
    ingested: datetime
    path: str


@dataclass(frozen=True)
class PaperFacts:
    """What arXiv says about one identifier, whatever shape the caller's result has."""

    status: str
    title: str | None = None
    published: date | None = None
    updated: date | None = None
    latest_version: int | None = None


def _as_date(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}", value):
        return date.fromisoformat(value[:10])
    return None


def paper_facts(results: Mapping[str, object]) -> dict[str, PaperFacts]:
    """Read arXiv verdicts keyed by identifier (a version suffix on the key is dropped).

    A result has ``status`` and either a ``record`` (``ArxivLookup``) or flat
    ``title``/``published``/``updated``/``latest_version`` attributes.
    """
    facts = {}
    for key, result in results.items():
        source = getattr(result, "record", None) or result
        latest = getattr(source, "latest_version", None)
        facts[re.sub(r"v\d+$", "", key)] = PaperFacts(
            status=str(getattr(result, "status", "unverified")),
            title=getattr(source, "title", None),
            published=_as_date(getattr(source, "published", None)),
            updated=_as_date(getattr(source, "updated", None)),
            latest_version=int(latest) if latest else None,
        )
    return facts


def _titles(facts: Mapping[str, PaperFacts], cards: Sequence[CardLike]) -> dict[str, tuple[str, str]]:
    """id → (title, where it comes from): arXiv first, the card otherwise."""
    titles = {card.arxiv: (card.title, f"卡 {card.card}") for card in cards}
    for identifier, fact in facts.items():
        if fact.status == "ok" and fact.title:
            titles[identifier] = (fact.title, "arXiv")
    return titles


def likely_ids(mentions: Sequence[Mention], cards: Sequence[CardLike],
               candidates: Mapping[str, Sequence[str]] | None = None) -> dict[str, tuple[str, str]]:
    """For each malformed number: (likely identifier, why) from the window, the cards or a title search."""
    wellformed = sorted({m.value for m in mentions if m.kind == "arxiv" and not m.detail.get("malformed")})
    names = arxiv_names(mentions)
    by_name: dict[str, set[str]] = defaultdict(set)
    for named in names:
        if not named.mention.detail.get("malformed"):
            by_name[name_key(named.name)].add(named.id)
    found: dict[str, tuple[str, str]] = {}
    for mention in mentions:
        if mention.kind != "arxiv" or not mention.detail.get("malformed") or mention.value in found:
            continue
        digits = mention.value
        prefixed = [i for i in wellformed if i.startswith(digits) and i != digits]
        own = [n for n in names if n.mention is mention or (n.id == digits and n.mention.source == mention.source)]
        same_name = sorted(set().union(*(by_name.get(name_key(n.name), set()) for n in own))) if own else []
        card_hits = [c.arxiv for c in cards if c.arxiv.startswith(digits)] + [
            c.arxiv for c in cards for n in own if fuzz.partial_ratio(" ".join(name_words(n.name)),
                                                                   " ".join(name_words(c.title))) >= 90]
        if prefixed and (not same_name or prefixed[0] in same_name):
            found[digits] = (prefixed[0], "窗口内其他来源写有完整号码")
        elif same_name:
            found[digits] = (same_name[0], f"同名「{own[0].name}」在其他来源的号码")
        elif card_hits:
            found[digits] = (card_hits[0], "paper_card 号码")
        elif candidates and candidates.get(digits):
            found[digits] = (candidates[digits][0], "arXiv 标题检索候选")
    return found


def check_malformed(mentions: Sequence[Mention], cards: Sequence[CardLike],
                    candidates: Mapping[str, Sequence[str]] | None = None,
                    references: Sequence[Mention] = ()) -> list[BriefWarning]:
    """``id_malformed``: a number that breaks arXiv's scheme, with the likely intended one."""
    likely = likely_ids([*mentions, *references], cards, candidates)
    groups: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        if mention.kind == "arxiv" and mention.detail.get("malformed"):
            groups[mention.value].append(mention)
    warnings = []
    for digits, found in sorted(groups.items()):
        first = found[0]
        guess = likely.get(digits)
        text = (f"arXiv 号 {digits} 格式错误（{first.detail.get('reason') or '不符合 arXiv 编号规则'}），"
                f"见 {first.source} 第 {first.line} 行：「{quote(first)}」。")
        if guess:
            text += f"可能是 {guess[0]}（{guess[1]}）。"
            action = f"核对后改为 {guess[0]}；格式错误的号码不送 arXiv 查询"
        else:
            text += "未找到可能的正确号码。"
            action = "请作者核对原文并补全号码"
        warnings.append(make_warning("id_malformed", text, "中", action, [m.source for m in found], digits,
                                 f"id_malformed:{digits}"))
    return warnings


def _in_window(named: ArxivName, window: set[str]) -> bool:
    return named.mention.source in window


def check_id_conflicts(mentions: Sequence[Mention], references: Sequence[Mention] = (),
                       facts: Mapping[str, PaperFacts] | None = None,
                       cards: Sequence[CardLike] = ()) -> list[BriefWarning]:
    """``id_conflict``: one name under two numbers; one number under two unrelated names."""
    window = {m.source for m in mentions}
    names = [n for n in arxiv_names([*mentions, *references]) if not n.mention.detail.get("malformed")]
    titles = _titles(facts or {}, cards)
    warnings = []
    by_name: dict[str, list[ArxivName]] = defaultdict(list)
    for named in names:
        if len(name_key(named.name)) >= 4 and not named.mention.source.startswith(_CARD_DIR):
            by_name[name_key(named.name)].append(named)
    for key, group in sorted(by_name.items()):
        ids = sorted({n.id for n in group})
        if len(ids) < 2 or not any(_in_window(n, window) for n in group):
            continue
        label = group[0].name
        parts = []
        for identifier in ids:
            where = sorted({n.mention.source for n in group if n.id == identifier})
            parts.append(f"{identifier}（{'、'.join(where[:3])}{' 等' if len(where) > 3 else ''}）")
        text = f"同一名称「{label}」对应两个不同的 arXiv 号：" + " 与 ".join(parts) + "。"
        known = [i for i in ids if i in titles and fuzz.partial_ratio(
            " ".join(name_words(label)), " ".join(name_words(titles[i][0]))) >= 90]
        if known:
            text += f"{titles[known[0]][1]} 标题与 {known[0]} 相符。"
        warnings.append(make_warning("id_conflict", text, "中", "核对原文链接，统一为正确号码；错号出现处加注",
                                 [n.mention.source for n in group], label, f"id_conflict:name:{key}"))
    by_id: dict[str, list[ArxivName]] = defaultdict(list)
    for named in names:
        if named.strong and _PROPER.fullmatch(named.name) and not named.mention.source.startswith(_CARD_DIR):
            by_id[named.id].append(named)
    for identifier, group in sorted(by_id.items()):
        if identifier in titles or not any(_in_window(n, window) for n in group):
            continue  # with a known title, title_mismatch says which name is wrong
        clusters: list[list[ArxivName]] = []
        for named in group:
            for cluster in clusters:
                if fuzz.ratio(name_key(named.name), name_key(cluster[0].name)) >= 80:
                    cluster.append(named)
                    break
            else:
                clusters.append([named])
        if len(clusters) < 2:
            continue
        labels = "」与「".join(c[0].name for c in clusters[:3])
        warnings.append(make_warning(
            "id_conflict", f"同一 arXiv 号 {identifier} 被写成不同的名称：「{labels}」，至少一处号码或名称有误。",
            "低", "查 arXiv 标题后改正出错的一处", [n.mention.source for n in group], identifier,
            f"id_conflict:id:{identifier}"))
    return warnings


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 4 and word.endswith("s") else word


def _misspelled(name: str, title: str) -> list[tuple[str, str]]:
    title_words = [_singular(w) for w in name_words(title) if w not in _TITLE_STOP]
    found = []
    for word in name_words(name):
        if len(word) < 4 or not word.isalpha():
            continue
        word = _singular(word)
        best = max(title_words, key=lambda t: fuzz.ratio(word, t), default="")
        if best and 80 <= fuzz.ratio(word, best) < 100 and not best.startswith(word):
            found.append((word, best))
    return found


_INITIALISM_SKIP = {"for", "of", "the", "a", "an", "and", "in", "on", "with", "to", "via", "by"}


def _initialism(name: str, title: str) -> bool:
    """True when ``name`` is an acronym of consecutive title words ("CDB" for "Continuous Depth Batching")."""
    letters = re.sub(r"[^a-z]", "", name.lower())
    if not 2 <= len(letters) <= 8 or " " in name.strip():
        return False
    initials = "".join(w[0] for w in name_words(title) if w and w not in _INITIALISM_SKIP)
    return letters in initials


def _unrelated(name: str, title: str) -> bool:
    title_words = [_singular(w) for w in name_words(title)]
    words = [_singular(w) for w in name_words(name) if len(w) >= 3]
    if _initialism(name, title):
        return False
    return bool(words) and not any(fuzz.ratio(w, t) >= 80 for w in words for t in title_words)


def _bracketed_alias(group: Sequence[ArxivName], title: str) -> bool:
    """True when a bracketed alternative name on the mention's line is part of the title."""
    target = " ".join(name_words(title))
    for named in group:
        for alias in re.findall(r"[（(]([^）)]{3,80})[）)]", named.mention.context):
            words = " ".join(name_words(alias))
            if words and fuzz.partial_ratio(words, target) >= 90:
                return True
    return False


def check_titles(mentions: Sequence[Mention], facts: Mapping[str, PaperFacts],
                 cards: Sequence[CardLike] = ()) -> list[BriefWarning]:
    """``title_mismatch``: the name the notes use against arXiv's (or the card's) title."""
    titles = _titles(facts, cards)
    seen: dict[tuple[str, str], list[ArxivName]] = defaultdict(list)
    for named in arxiv_names(mentions):
        if named.id in titles and not named.mention.source.startswith(_CARD_DIR):
            seen[(named.id, name_key(named.name))].append(named)
    warnings = []
    for (identifier, key), group in sorted(seen.items()):
        title, origin = titles[identifier]
        name = group[0].name
        if fuzz.partial_ratio(" ".join(name_words(name)), " ".join(name_words(title))) >= 90:
            continue
        if _bracketed_alias(group, title):
            continue
        typos = _misspelled(name, title)
        if typos:
            detail = "、".join(f"{a}→{b}" for a, b in typos)
            text = (f"arXiv {identifier} 在笔记中写作「{name}」，{origin}标题为「{title}」：拼写不一致（{detail}）。")
            action = f"按{origin}标题改正拼写"
        elif any(n.strong for n in group) and _unrelated(name, title):
            text = (f"笔记把「{name}」标为 arXiv {identifier}，但{origin}上 {identifier} 的标题是「{title}」，"
                    "两者无关：号码可能写错。")
            action = "核对原文链接，改正号码或名称"
        else:
            continue
        warnings.append(make_warning("title_mismatch", text, "中", action, [n.mention.source for n in group],
                                 identifier, f"title_mismatch:{identifier}:{key}"))
    for card in cards:
        fact = facts.get(card.arxiv)
        if fact and fact.status == "ok" and fact.title and fuzz.token_set_ratio(
                " ".join(name_words(card.title)), " ".join(name_words(fact.title))) < 80:
            warnings.append(make_warning(
                "title_mismatch", f"卡 {card.card} 标题「{card.title}」与 arXiv {card.arxiv} 标题「{fact.title}」不一致。",
                "中", "以 arXiv 标题为准更新 paper_card", [card.path], card.arxiv, f"title_mismatch:card:{card.card}"))
    return warnings


def _yymm(identifier: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"(\d{2})(\d{2})\.\d{4,5}", identifier)
    return (2000 + int(match.group(1)), int(match.group(2))) if match else None


_CLAIMED_DATE = re.compile(r"^\s*[（(]\s*(?:v\d+\s*)?(\d{4})-(\d{2})(?:-(\d{2}))?")


def check_dates(mentions: Sequence[Mention], cards: Sequence[CardLike], facts: Mapping[str, PaperFacts],
                day: date) -> list[BriefWarning]:
    """``date_mismatch``: a date claimed beside a number against its YYMM or arXiv's date; old papers carded now."""
    warnings = []
    for card in cards:
        fact = facts.get(card.arxiv)
        paper = fact.published if fact and fact.published else None
        yymm = (paper.year, paper.month) if paper else _yymm(card.arxiv)
        ingested = card.ingested.date()
        if yymm is None or ingested > day:
            continue
        months = (ingested.year * 12 + ingested.month) - (yymm[0] * 12 + yymm[1])
        if months >= 2:
            when = paper.isoformat() if paper else f"{yymm[0]}-{yymm[1]:02d}"
            warnings.append(make_warning(
                "date_mismatch",
                f"卡 {card.card}「{card.title}」（arXiv {card.arxiv}）于 {ingested.isoformat()} 入卡，"
                f"但论文日期是 {when}，约 {months} 个月前：这是旧论文新入卡，不是新进展。",
                "低", "不计入当日 NET-new；如引用请注明论文原始日期", [card.path], card.arxiv,
                f"date_mismatch:card:{card.card}"))
    seen = set()
    for mention in mentions:
        if mention.kind != "arxiv" or mention.detail.get("malformed"):
            continue
        pos = mention.context.find(mention.raw)
        claim = _CLAIMED_DATE.match(mention.context[pos + len(mention.raw):]) if pos >= 0 else None
        yymm = _yymm(mention.value)
        if not claim or not yymm or (mention.value, claim.group(0)) in seen:
            continue
        seen.add((mention.value, claim.group(0)))
        claimed = (int(claim.group(1)), int(claim.group(2)))
        fact = facts.get(mention.value)
        known = {(d.year, d.month) for d in (fact.published, fact.updated) if d} if fact else set()
        if claimed < yymm:
            reason = f"号码前缀 {mention.value[:4]} 表示 {yymm[0]}-{yymm[1]:02d} 提交，不可能更早"
        elif known and claimed not in known:
            reason = "arXiv 记录的发布/更新日期为 " + "、".join(
                d.isoformat() for d in (fact.published, fact.updated) if d)  # type: ignore[union-attr]
        else:
            continue
        warnings.append(make_warning(
            "date_mismatch", f"{mention.source} 称 arXiv {mention.value} 的日期为 {claim.group(0).strip(' （(')}：{reason}。",
            "低", "核对 arXiv 页面上的日期", [mention.source], mention.value,
            f"date_mismatch:{mention.value}:{claimed[0]}-{claimed[1]:02d}"))
    return warnings


def check_versions_beyond_latest(mentions: Sequence[Mention], facts: Mapping[str, PaperFacts]) -> list[BriefWarning]:
    """``version_beyond_latest``: ``2511.02230v7`` when arXiv's latest version is v3."""
    worst: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        version = mention.detail.get("version") if mention.kind == "arxiv" else None
        fact = facts.get(mention.value)
        if version and fact and fact.latest_version and version > fact.latest_version:
            worst[mention.value].append(mention)
    warnings = []
    for identifier, found in sorted(worst.items()):
        versions = sorted({m.detail["version"] for m in found})
        latest = facts[identifier].latest_version
        warnings.append(make_warning(
            "version_beyond_latest",
            f"笔记引用 arXiv {identifier}" + "/".join(f"v{v}" for v in versions) + f"，但 arXiv 最新版本只到 v{latest}。",
            "中", f"改为 {identifier}v{latest} 或不带版本号引用", [m.source for m in found], identifier,
            f"version_beyond_latest:{identifier}"))
    return warnings


def check_single_source(mentions: Sequence[Mention], references: Sequence[Mention] = (),
                        cards: Sequence[CardLike] = ()) -> list[BriefWarning]:
    """``single_source``: an arXiv number only one source gives, without any link to it."""
    sources: dict[str, set[str]] = defaultdict(set)
    linked: set[str] = set()
    for mention in [*mentions, *references]:
        if mention.kind == "arxiv" and not mention.detail.get("malformed"):
            sources[mention.value].add(mention.source)
            if mention.detail.get("in_url"):
                linked.add(mention.value)
    carded = {card.arxiv for card in cards}
    window = {m.source for m in mentions}
    by_source: dict[str, list[str]] = defaultdict(list)
    for identifier, where in sorted(sources.items()):
        if len(where) != 1 or identifier in linked or identifier in carded or not where & window:
            continue
        source = next(iter(where))
        if source.removesuffix(".md").endswith("-e1prep"):
            continue  # a brief restates what its sources said; the sources are checked instead
        by_source[source].append(identifier)
    # One warning per source: a listing note (an HF daily table, say) names many numbers at once.
    warnings = []
    for source, identifiers in sorted(by_source.items()):
        listed = " / ".join(identifiers)
        warnings.append(make_warning(
            "single_source", f"arXiv {listed} 只有 {source} 一处提到，且无链接（{len(identifiers)} 个）。", "低",
            "引用前打开 arXiv 页面核对", [source], identifiers[0] if len(identifiers) == 1 else source,
            f"single_source:{source}:{listed}"))
    return warnings


def check_instructions(mentions: Sequence[Mention]) -> list[BriefWarning]:
    """``instruction_in_source``: text addressed to "the model", quoted and treated as text."""
    warnings = []
    for mention in mentions:
        if mention.kind == "instruction":
            warnings.append(make_warning(
                "instruction_in_source",
                f"{mention.source} 第 {mention.line} 行含有写给模型的指令：「{quote(mention, 120)}」。"
                "已按普通文本处理，未执行。", "中", "告知作者；该段内容不作为事实引用", [mention.source],
                mention.source, f"instruction_in_source:{mention.source}:{mention.line}"))
    return warnings


def arxiv_checks(mentions: Sequence[Mention], cards: Sequence[CardLike], facts: Mapping[str, PaperFacts], day: date,
                 references: Sequence[Mention] = (),
                 candidates: Mapping[str, Sequence[str]] | None = None) -> list[BriefWarning]:
    """Every check that needs no store, in the brief's order."""
    return [
        *check_instructions(mentions),
        *check_malformed(mentions, cards, candidates, references),
        *check_id_conflicts(mentions, references, facts, cards),
        *check_titles(mentions, facts, cards),
        *check_dates(mentions, cards, facts, day),
        *check_versions_beyond_latest(mentions, facts),
        *check_version_conflicts(mentions, references),
        *check_number_conflicts(mentions),
        *check_single_source(mentions, references, cards),
    ]


def run_checks(mentions: Sequence[Mention], cards: Sequence[CardLike], arxiv_results: Mapping[str, object], day: date,
               thread: str, db: Database | None = None, *, references: Sequence[Mention] = (),
               candidates: Mapping[str, Sequence[str]] | None = None) -> list[BriefWarning]:
    """Run every check of a window and number the findings; the verifier node's one call.

    Args:
        mentions: the window's mentions (``WindowScan.mentions``).
        cards: the window's paper cards.
        arxiv_results: identifier → arXiv verdict (``ArxivLookup`` or any object with the same fields).
        day: the brief's date; every "as of" uses it.
        thread: ``"<topic>:<YYYY-MM-DD>"``; keys the D-number allocations.
        db: the store; without it promises are not tracked and no D-number is given.
        references: mentions of baseline sources (living document, earlier briefs), compared against only.
        candidates: malformed number → identifiers found by an arXiv title search.
    """
    warnings = arxiv_checks(mentions, cards, paper_facts(arxiv_results), day, references, candidates)
    if db is not None:
        track_promises(db, mentions, day)
        warnings = assign_numbers(db, thread, [*warnings, *promise_warnings(db, day)])
        warnings = [*warnings, *collisions(db, as_of=day)]
    return [w.model_copy(update={"id": f"W{i}"}) for i, w in enumerate(warnings, start=1)]
