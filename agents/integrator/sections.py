"""Propose the living document's section an item belongs in, by deterministic text similarity.

Why BM25 and not rapidfuzz: rapidfuzz scores how alike two strings are as
strings (edit distance over tokens). Here a two-line item is compared with a
section of ten long bullets, so length differences dominate its ratios, and
it weighs "KV" (in every section) the same as "Disaggregation" (in one).
BM25 (Robertson & Zaragoza, "The Probabilistic Relevance Framework: BM25 and
Beyond", 2009) scores shared *rare* terms and normalises by section length:
that is the question "which section already talks about this". It is a few
lines of arithmetic, deterministic, and needs no new dependency.

Text is mixed Chinese and English: Latin words and numbers are tokens;
Chinese runs become character bigrams (the usual trick without a segmenter).
A section's title is counted three times: it names what the section is for.
When the item's own arXiv number is already in a section, that section wins.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents.integrator.scope import names_tracked, tracked_subjects

__all__ = ["SectionMatch", "tokenize", "propose_section", "rank_sections"]

_LATIN = re.compile(r"[a-z][a-z0-9+\-]*[a-z0-9+]|[a-z]|\d+(?:\.\d+)?")
_CJK = re.compile(r"[\u4e00-\u9fff]+")
_STOP = frozenset(
    "the a an of and or for to in on with by is are as at from vs via arxiv http https www com org "
    "来源 锚入 待核 条目 已锚定".split()
)
_K1, _B, _TITLE_WEIGHT, _QTF_CAP = 1.2, 0.75, 3, 3


def tokenize(text: str) -> list[str]:
    """Lower-case Latin words and numbers, Chinese character bigrams."""
    lowered = text.lower()
    tokens = [t for t in _LATIN.findall(lowered) if t not in _STOP]
    for run in _CJK.findall(lowered):
        if len(run) == 1:
            tokens.append(run)
        tokens.extend(run[i : i + 2] for i in range(len(run) - 1))
    return [t for t in tokens if t not in _STOP]


@dataclass(frozen=True)
class SectionMatch:
    """A section and how it was chosen."""

    id: str
    title: str
    score: float
    anchored: bool  # the item's own arXiv number already sits in this section
    keeps: bool = False  # the section keeps an entry for the name the item's title opens with


def _documents(sections: Sequence[Any]) -> list[tuple[Any, Counter]]:
    docs = []
    for section in sections:
        if not getattr(section, "id", None):
            continue  # the change log and other unnumbered parts are not places to file items
        words = tokenize(section.title) * _TITLE_WEIGHT
        for bullet in section.bullets:
            words.extend(tokenize(bullet.text))
        docs.append((section, Counter(words)))
    return docs


def _named_in(title: str, section_title: str) -> bool:
    """The item's title names the section: a part of the section's name (brackets and numbering
    dropped, split at 与 / 和 / "/" / 、) of four characters or more occurs in it ("Context Engineering 决策框架"
    under "§5.2 Context Engineering 与 Agentic RAG")."""
    name = re.sub(r"[（(].*?[）)]", " ", re.sub(r"^\s*§\s*[\w.]+(?:[（(]\d+[）)])?\s*", "", section_title))
    parts = [p.strip() for p in re.split(r"与|和|/|、|&|\band\b", name) if len(p.strip()) >= 4]
    lowered = title.lower()
    return any(part.lower() in lowered for part in parts)


def rank_sections(text: str, sections: Sequence[Any], arxiv: Sequence[str] = (),
                  title: str = "") -> list[SectionMatch]:
    """Score every numbered section against ``text``, best first (ties by section order): a section already
    holding the item's paper, then one keeping an entry for the name the item's ``title`` opens with
    ("llm-d · …" where "llm-d CNCF Sandbox…" stands), then one the title names, then by words."""
    docs = _documents(sections)
    if not docs:
        return []
    query = Counter(tokenize(text))
    lengths = [sum(c.values()) for _, c in docs]
    average = sum(lengths) / len(lengths) or 1.0
    frequency = Counter(term for _, counts in docs for term in counts)
    scored = []
    for index, ((section, counts), length) in enumerate(zip(docs, lengths, strict=True)):
        score = 0.0
        for term, qtf in query.items():
            tf = counts.get(term, 0)
            if not tf:
                continue
            idf = math.log(1 + (len(docs) - frequency[term] + 0.5) / (frequency[term] + 0.5))
            # Query term frequency counts, saturated: the item's recurring words say what it is about.
            weight = min(qtf, _QTF_CAP)
            score += weight * idf * tf * (_K1 + 1) / (tf + _K1 * (1 - _B + _B * length / average))
        anchored = any(a in getattr(b, "arxiv", []) for b in section.bullets for a in arxiv)
        named = bool(title) and _named_in(title, section.title)
        keeps = bool(title) and names_tracked(title, [], tracked_subjects(section.bullets)) is not None
        scored.append((not anchored, not keeps, not named, -score, index,
                       SectionMatch(section.id, section.title, score, anchored, keeps)))
    scored.sort(key=lambda row: row[:5])
    return [row[5] for row in scored]


def propose_section(text: str, sections: Sequence[Any], arxiv: Sequence[str] = (),
                    title: str = "") -> SectionMatch | None:
    """Return the best section for ``text`` (an item titled ``title``), or None when nothing is related."""
    ranked = rank_sections(text, sections, arxiv, title)
    if not ranked:
        return None
    top = ranked[0]
    if top.score <= 0 and not top.anchored and not top.keeps and not _named_in(title, top.title):
        return None
    return top
