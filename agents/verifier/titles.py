"""``title_mismatch``: the name the notes give a paper against arXiv's (or the card's) title.

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

from rapidfuzz import fuzz

from agents.verifier.claims import make_warning
from agents.verifier.facts import CARD_DIR, CardLike, PaperFacts, known_titles
from agents.verifier.names import ArxivName, arxiv_names, name_key, name_words
from state.models import BriefWarning, Mention

__all__ = ["check_titles"]

_TITLE_STOP = frozenset("the and for with from into via of on in to a an".split())


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 4 and word.endswith("s") and not word.endswith(("ss", "us", "is")) else word


def _led_by_related_title(name: str, title: str, names: Sequence[str]) -> bool:
    """Another name the notes give the same number relates to the known title ("Cross-Request KV Deduplication
    for Agentic Serving" beside "DedupKV" for "TwinBlock: Runtime Cross-Request KV Block Deduplication…"): the
    number is the paper's, the unrelated name another version's (a rename), not a wrong number."""
    key = name_key(name)
    return any(name_key(other) != key and not _unrelated(other, title) for other in names)


def _only_misspelt(name: str, title: str, typos: Sequence[tuple[str, str]]) -> bool:
    """With its misspelt words put right, the name is (part of) the title: the slips are the only difference."""
    fixed = dict(typos)
    words = [fixed.get(_singular(w), w) for w in name_words(name)]
    return fuzz.partial_ratio(" ".join(words), " ".join(name_words(title))) >= 90


def _written_title(name: str) -> bool:
    """The note writes a whole title, not a short name ("HF Daily JEV-as-a-Judge"): a lead and a subtitle,
    or three words of four letters or more that are not stop words."""
    words = [w for w in name_words(name) if len(w) >= 4 and w not in _TITLE_STOP]
    return len(words) >= 3 or (":" in name and len(words) >= 2)


def _same_title(name: str, title: str) -> bool:
    """Two titles with the same words in them (one shorter, or reordered); a misspelling is not the same."""
    return fuzz.token_set_ratio(" ".join(map(_singular, name_words(name))),
                                " ".join(map(_singular, name_words(title)))) >= 90


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
    titles = known_titles(facts, cards)
    seen: dict[tuple[str, str], list[ArxivName]] = defaultdict(list)
    for named in arxiv_names(mentions):
        if named.id in titles and not named.mention.source.startswith(CARD_DIR):
            seen[(named.id, name_key(named.name))].append(named)
    warnings = []
    for (identifier, key), group in sorted(seen.items()):
        title, origin = titles[identifier]
        name = group[0].name
        if fuzz.partial_ratio(" ".join(name_words(name)), " ".join(name_words(title))) >= 90:
            continue
        if _bracketed_alias(group, title):
            continue
        unrelated = any(n.strong for n in group) and _unrelated(name, title)
        renamed = unrelated and _led_by_related_title(
            name, title, [n.name for (other, _), others in seen.items() if other == identifier for n in others])
        typos = _misspelled(name, title)
        if typos and not _only_misspelt(name, title, typos):
            typos = []  # another wording of the title ("Sharing Draft Trees Across Requests"), not a misspelling
        if typos:
            detail = "、".join(f"{a}→{b}" for a, b in typos)
            text = (f"arXiv {identifier} 在笔记中写作「{name}」，{origin}标题为「{title}」：拼写不一致（{detail}）。")
            action = f"按{origin}标题改正拼写"
        elif unrelated and not renamed:
            text = (f"笔记把「{name}」标为 arXiv {identifier}，但{origin}上 {identifier} 的标题是「{title}」，"
                    "两者无关：号码可能写错。")
            action = "核对原文链接，改正号码或名称"
        elif (_written_title(name) and not _same_title(name, title)) or (unrelated and renamed):
            # "DedupKV: Cross-Request KV Deduplication…" for the card's "TwinBlock: Runtime Cross-Request KV Block…":
            # the note writes another title of the paper (an earlier version's, or from memory).
            text = (f"arXiv {identifier} 在笔记中的标题是「{name}」，{origin}标题为「{title}」：标题不同"
                    "（可能是论文改版改名，或凭记忆书写）。")
            warnings.append(make_warning("title_mismatch", text, "低", f"核对 arXiv 当前版本标题，以{origin}标题为准引用",
                                         [n.mention.source for n in group], identifier,
                                         f"title_mismatch:{identifier}:{key}"))
            continue
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
