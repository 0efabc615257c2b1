"""Checks on the arXiv numbers themselves: malformed numbers, one name under two numbers, single sources."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from rapidfuzz import fuzz

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.e1_format import is_brief_path
from agents.verifier.claims import make_warning, quote
from agents.verifier.facts import CARD_DIR, CardLike, PaperFacts, known_titles
from agents.verifier.names import ArxivName, arxiv_names, name_key, name_words
from state.models import BriefWarning, Mention

__all__ = ["digits_within", "likely_ids", "certain_repairs", "repaired_mentions", "renumbered_mentions", "check_malformed", "check_id_conflicts", "check_single_source",
           "check_titles_under_other_numbers", "CARD_NAME_REPAIR"]

# A paper's proper name: one token with an inner capital, a digit or a hyphen ("PolyKV", "Workload-Router-Pool").
# Descriptions and nicknames ("Inference Control Plane", "CDB") differ legitimately and are not compared.
_PROPER = re.compile(r"(?=[A-Za-z0-9.-]{4,}$)[A-Za-z][a-z0-9]*(?:[A-Z0-9][A-Za-z0-9]*|-[A-Za-z0-9.]+)+")


# A source saying a number was miswritten: "是抄错", "写错了", "笔误", "typo", "以卡和 abs 页为准", "should read".
_SLIP = re.compile(r"抄错|写错|笔误|打错|错号|以[^，。；\n]{0,12}为准|应为|\btypo\b|\bmis-?typed\b|\bshould (?:be|read)\b",
                   re.IGNORECASE)


class _Malformed(NamedTuple):
    """What the window says about one malformed number: the full numbers starting with its digits,
    the names its own line gives it, and the numbers those names carry elsewhere."""

    mention: Mention
    prefixed: list[str]
    own: list[ArxivName]
    same_name: set[str]
    by_name: dict[str, set[str]]


def _malformed_numbers(mentions: Sequence[Mention]) -> list[_Malformed]:
    """One entry per malformed number of ``mentions`` (its first mention), with the window's evidence."""
    wellformed = sorted({m.value for m in mentions if m.kind == "arxiv" and not m.detail.get("malformed")})
    names = arxiv_names(mentions)
    by_name: dict[str, set[str]] = defaultdict(set)
    for named in names:
        if not named.mention.detail.get("malformed"):
            by_name[name_key(named.name)].add(named.id)
    found: dict[str, _Malformed] = {}
    for mention in mentions:
        if mention.kind != "arxiv" or not mention.detail.get("malformed") or mention.value in found:
            continue
        digits = mention.value
        own = [n for n in names if n.mention is mention or (n.id == digits and n.mention.source == mention.source)]
        found[digits] = _Malformed(mention, [i for i in wellformed if i.startswith(digits) and i != digits], own,
                                   {i for n in own for i in by_name.get(name_key(n.name), set())}, by_name)
    return list(found.values())


def likely_ids(mentions: Sequence[Mention], cards: Sequence[CardLike],
               candidates: Mapping[str, Sequence[str]] | None = None) -> dict[str, tuple[str, str]]:
    """For each malformed number: (likely identifier, why) from the window, the cards or a title search."""
    found: dict[str, tuple[str, str]] = {}
    for entry in _malformed_numbers(mentions):
        digits, prefixed, own = entry.mention.value, entry.prefixed, entry.own
        same_name = sorted(entry.same_name)
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
        elif (within := sorted({c.arxiv for c in cards if digits_within(digits, c.arxiv)})) and len(within) == 1:
            found[digits] = (within[0], "paper_card 号码（少写的一位之外逐位相同）")  # 2610.3391 in 2610.03391
    return found


def digits_within(short: str, full: str) -> bool:
    """``short``'s digits are ``full``'s with one or more left out, in order, the month the same."""
    rest = iter(full)
    return short != full and short[:5] == full[:5] and all(ch in rest for ch in short)


CARD_NAME_REPAIR = "同一行写明"  # how a repair by the carded paper's name on the line begins (``certain_repairs``)


def certain_repairs(mentions: Sequence[Mention], cards: Sequence[CardLike],
                    by_card_name: bool = False) -> dict[str, tuple[str, str]]:
    """Malformed numbers whose intended identifier is certain: the one well-formed number that starts with
    the same digits, under the same name in another source ("Continuum 2511.0223" beside "Continuum
    2511.02230"), or the line names a carded paper whose number holds its digits. Nothing is left to verify:
    the number is repaired and the repair listed, not warned of (a card's number alone is a guess)."""
    repairs: dict[str, tuple[str, str]] = {}
    for entry in _malformed_numbers(mentions):
        if len(entry.prefixed) == 1 and entry.prefixed[0] in entry.same_name:
            full = entry.prefixed[0]
            name = next(n.name for n in entry.own if full in entry.by_name.get(name_key(n.name), set()))
            repairs[entry.mention.value] = (full, f"同名「{name}」在其他来源写作 {full}，本号为其缺位写法")
            continue
        # The line names a carded paper whose number holds these digits with one left out ("引的号是 2610.1187
        # …就是 StrataKV" beside card 2610.01187 "StrataKV: …"): that paper, written short. For what the line
        # says (its item), not for the warning: a malformed number is still said as one (``check_malformed``).
        if not by_card_name:
            continue
        digits, line = entry.mention.value, entry.mention.context or ""
        named = [c for c in cards if digits_within(digits, str(c.arxiv)) and (lead := _lead(str(c.title)))
                 and re.search(rf"(?<![\w-]){re.escape(lead)}(?![\w-])", line, re.IGNORECASE)]
        if len(named) == 1:
            card = named[0]
            repairs[digits] = (str(card.arxiv), f"{CARD_NAME_REPAIR}「{_lead(str(card.title))}」（卡 {card.card}，"
                                                f"arXiv {card.arxiv}），本号为其缺位写法")
    return repairs


def repaired_mentions(mentions: Sequence[Mention], repairs: Mapping[str, tuple[str, str]]) -> list[Mention]:
    """The mentions with each certainly-repaired number replaced by its identifier (``written_as`` kept)."""
    out = []
    for mention in mentions:
        fixed = repairs.get(mention.value) if mention.kind == "arxiv" and mention.detail.get("malformed") else None
        if fixed is None:
            out.append(mention)
            continue
        detail = {k: v for k, v in mention.detail.items() if k not in ("malformed", "reason")}
        out.append(mention.model_copy(update={"value": fixed[0], "detail": {**detail, "written_as": mention.value}}))
    return out


def renumbered_mentions(mentions: Sequence[Mention], numbers: Mapping[str, str]) -> list[Mention]:
    """The mentions with each number written for another paper (``numbers``: written → likely) read as that
    paper's, so what its lines say joins the paper (``written_as`` kept)."""
    return [m.model_copy(update={"value": numbers[m.value], "detail": {**m.detail, "written_as": m.value}})
            if m.kind == "arxiv" and m.value in numbers else m for m in mentions]


def check_malformed(mentions: Sequence[Mention], cards: Sequence[CardLike],
                    candidates: Mapping[str, Sequence[str]] | None = None,
                    references: Sequence[Mention] = ()) -> list[BriefWarning]:
    """``id_malformed``: a number that breaks arXiv's scheme, with the likely intended one (a number
    whose repair is certain is not a warning: see ``certain_repairs``)."""
    likely = likely_ids([*mentions, *references], cards, candidates)
    repaired = certain_repairs([*mentions, *references], cards)
    groups: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        if mention.kind == "arxiv" and mention.detail.get("malformed") and mention.value not in repaired:
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
    titles = known_titles(facts or {}, cards)
    warnings = []
    by_name: dict[str, list[ArxivName]] = defaultdict(list)
    for named in names:
        if len(name_key(named.name)) >= 4 and not named.mention.source.startswith(CARD_DIR):
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
        # A source of the window already calls the other number a slip ("把号写成了 X，是抄错，以卡为准"):
        # the conflict is settled, said as such, not left for the reader to check.
        settled = next((m for m in [*mentions, *references] if m.kind == "arxiv" and len(known) == 1
                        and m.value in ids and m.value != known[0] and _SLIP.search(m.context or "")), None)
        if settled is not None:
            text += (f"{settled.source} L{settled.line} 已注明 {settled.value} 为笔误：「{quote(settled, 60)}」，"
                     f"以 {known[0]} 为准。")
            warnings.append(make_warning("id_conflict", text, "低", f"错号出现处加注，统一写作 {known[0]}",
                                         [n.mention.source for n in group], label, f"id_conflict:name:{key}")
                            .model_copy(update={"label": "号码笔误（来源已更正）"}))
            continue
        warnings.append(make_warning("id_conflict", text, "中", "核对原文链接，统一为正确号码；错号出现处加注",
                                 [n.mention.source for n in group], label, f"id_conflict:name:{key}"))
    warnings += _slipped_numbers(names, titles, window, {w.key for w in warnings}, [*mentions, *references])
    by_id: dict[str, list[ArxivName]] = defaultdict(list)
    for named in names:
        if named.strong and _PROPER.fullmatch(named.name) and not named.mention.source.startswith(CARD_DIR):
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


def _title_head(title: str) -> str | None:
    """The words of a title a note would write out: the part before its colon when that is a phrase of three
    words or more ("Prefill on the NPU, Decode on the GPU"), else the whole title; None when too short to tell."""
    head = re.split(r"\s*[:：]\s*", title.strip(), maxsplit=1)[0]
    head = head if len(head.split()) >= 3 else title.strip()
    return head if len(head.split()) >= 3 and len(head) >= 20 else None


def _squeezed(text: str) -> str:
    return re.sub(r"[\s,，:：;；\-–—·'\"“”]+", " ", text.lower()).strip()


def check_titles_under_other_numbers(sections: Sequence[tuple[str, int, str]], titles: Mapping[str, tuple[str, str]],
                                     ) -> list[BriefWarning]:
    """``id_conflict``: a note's section writing out one paper's title (its card's or arXiv's) under another
    number that has no title of its own ("## 端侧 NPU prefill（arXiv 2610.05528）" over "Prefill on the NPU,
    Decode on the GPU", the title of card 1573's 2609.45528): one paper under two numbers.

    ``sections``: (path, first line, text) of each heading's section of the window's notes."""
    heads = {identifier: head for identifier, (title, _) in titles.items() if (head := _title_head(title))}
    warnings = []
    seen: set[tuple[str, str]] = set()
    for path, first, text in sections:
        lines = text.split("\n")
        # The title on the line citing the number, or on the first line under a heading citing it: where a
        # note introduces one paper ("## … （arXiv 2610.05528）" then its title), not a list's other entry.
        spans = [line for line in lines[:1] if line.lstrip().startswith("#")]
        places = [" ".join(lines[:2])] if spans else []
        places += [line for line in lines if not line.lstrip().startswith("#")]
        for place in places:
            cited = {ref.id for ref in find_arxiv_refs(place) if not ref.malformed}
            if len(cited) != 1:
                continue
            squeezed = _squeezed(place)
            for identifier, head in heads.items():
                if identifier in cited or _squeezed(head) not in squeezed:
                    continue
                warnings += _title_slip(path, first, head, identifier, titles[identifier][1], cited - set(titles), seen)
    return warnings


def _title_slip(path: str, first: int, head: str, identifier: str, origin: str, others: set[str],
                seen: set[tuple[str, str]]) -> list[BriefWarning]:
    warnings = []
    for other in sorted(others):
        if (other, identifier) in seen:
            continue
        seen.add((other, identifier))
        warnings.append(make_warning(
            "id_conflict",
            f"{path}（L{first} 起一节）写出「{head}」——这是 {identifier}（{origin}）的标题——却写作 arXiv {other}："
            f"同一篇论文两个号码，{other} 无卡片或标题可对，疑为笔误。",
            "中", f"核对原文链接；该节按 {identifier} 计，错号出现处加注", [path], head,
            f"id_conflict:name:{name_key(head)}:{other}"))
    return warnings


def _lead(name: str) -> str | None:
    """The proper name a name or title leads with: "ShardLoom" of "ShardLoom: Preemption-Tolerant MoE Training"."""
    match = re.match(r"\s*([A-Za-z][\w+-]*[A-Za-z0-9])(?=\s*(?:[:：（(]|$))", name)
    word = match.group(1) if match else ""
    return word if len(word) >= 4 and re.search(r"[A-Z].*[A-Z0-9]|[0-9]", word[1:] or "") or (
        word[:1].isupper() and len(word) >= 5) else None


def _slip(a: str, b: str) -> bool:
    """Two numbers of one month whose digits differ as a slip does: two swapped, or one written wrong."""
    if a[:5] != b[:5] or len(a) != len(b):
        return False
    diff = [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]]
                              and a[diff[1]] == b[diff[0]])


def _slipped_numbers(names: Sequence[ArxivName], titles: Mapping[str, tuple[str, str]], window: set[str],
                     raised: set[str], mentions: Sequence[Mention]) -> list[BriefWarning]:
    """``id_conflict`` for one paper's name under a number and a slip of it ("ShardLoom" as 2609.40377 on its
    card, "ShardLoom: Preemption-Tolerant MoE Training" as 2609.40737 in a daily list): the names differ
    past their lead, the lead and the near-same digits say it is one paper."""
    by_lead: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    spelled: dict[str, str] = {}
    for named in names:
        if named.mention.source.startswith(CARD_DIR):
            continue
        # The name's lead, or the line's ("- Tessel-KV: KV Eviction…（2709.40737）" is named after its subtitle).
        line = re.sub(r"^[\s>*•|\-]*(?:\d{1,3}\s*[.、)|]\s*)?", "", named.mention.context or "")
        for lead in {found for found in (_lead(named.name), _lead(line)) if found}:
            by_lead[_core(lead)][named.id].append(named.mention.source)
            spelled.setdefault(_core(lead), lead)
    for identifier, (title, origin) in titles.items():
        if lead := _lead(title):
            by_lead[_core(lead)][identifier].append(origin)
            spelled[_core(lead)] = lead  # the card's spelling
    warnings = []
    for core, ids in sorted(by_lead.items()):
        lead = spelled[core]
        numbers = sorted(ids)
        if len(numbers) != 2 or not _slip(*numbers) or f"id_conflict:name:{name_key(lead)}" in raised \
                or not any(source in window for found in ids.values() for source in found):
            continue
        known = [i for i in numbers if i in titles]
        parts = "；".join(f"{i}（{'、'.join(sorted(set(ids[i]))[:3])}）" for i in numbers)
        text = f"同一名称「{lead}」对应两个只差一两位的 arXiv 号：{parts}，疑为笔误。"
        if len(known) == 1:
            text += f"{titles[known[0]][1]} 标题与 {known[0]} 相符，以其为准。"
        settled = next((m for m in mentions if m.kind == "arxiv" and m.value in numbers and m.value not in known
                        and _SLIP.search(m.context or "")), None)
        if settled is not None:
            text += f"{settled.source} L{settled.line} 已注明为笔误。"
        warnings.append(make_warning("id_conflict", text, "低" if settled is not None else "中",
                                     f"错号出现处加注，统一写作 {known[0]}" if len(known) == 1 else "核对原文链接，统一为正确号码",
                                     sorted({s for found in ids.values() for s in found if not s.startswith(CARD_DIR)}),
                                     lead, f"id_conflict:name:{name_key(lead)}"))
    return warnings


def _core(lead: str) -> str:
    """A lead name without a short suffix: "ThinkPrune" for "ThinkPrune-KV" (one system, written short)."""
    return re.sub(r"-[A-Za-z0-9]{1,3}$", "", lead).lower()


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
        if is_brief_path(source):
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
