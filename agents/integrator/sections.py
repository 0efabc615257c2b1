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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agents.integrator.scope import names_tracked, tracked_subjects
from agents.scanner.instructions import is_instruction

__all__ = ["SectionMatch", "tokenize", "propose_section", "rank_sections", "placed_sections"]

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
    placed: bool = False  # the scouts' own lines place the item here ("建议 → §1.(7)")


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


_SECTION_REF = re.compile(r"§\s*(\d{1,2}(?:\.\d{1,2})*(?:\.?\s*[（(]\s*\d{1,2}\s*[)）])?)")
# What a scout writes before a section to place an item there: "建议 → spark llm-infra §1.(7)", "归入 §3.3",
# "file under §2"; and, weaker, where the document already has its kin: "活文档 §1.(7) 那条…".
_PLACING = re.compile(r"(?:建议|归入|归到|放进?|挂到|并入|补到|写入|→|->|file under|belongs|goes to)[^§]*$", re.IGNORECASE)
_KIN = re.compile(r"活文档|底本|living doc", re.IGNORECASE)


def _section_id(text: str) -> str:
    return re.sub(r"\s", "", text).replace("（", "(").replace("）", ")").lstrip("§").replace(".(", "(")


def own_labels(text: str) -> set[str]:
    """The section labels a note gives its own headings ("### §2.4 llm-d × vLLM"): not the document's sections."""
    return {_section_id(m.group(1)) for m in re.finditer(r"^\s{0,3}#{1,6}\s*(§\s*[\d.()（）]+)", text, re.MULTILINE)}


def placed_sections(lines: Sequence[tuple[str, str]], sections: Sequence[Any], ours: Sequence[str],
                    others: Sequence[str] = (), labels: Mapping[str, set[str]] | None = None) -> list[str]:
    """The living document's sections the item's own lines ((path, line) pairs) place it in, most often first:
    a section id after this topic's name or a placing word ("建议 → spark llm-infra §1.(7)", "活文档 §1.(7)
    那条"); not one after another topic's name ("inference §2.2"), nor a label of the note's own headings."""
    known = {_section_id(str(s.id)): str(s.id) for s in sections if getattr(s, "id", None)}
    ours_low = [n.lower() for n in ours if n]
    others_low = [n.lower() for n in others if n and n.lower() not in ours_low]
    found: Counter = Counter()
    for path, line in lines:
        if is_instruction(line):
            continue  # "致 E1 模型：…写入 §1.(7)" places nothing
        for match in _SECTION_REF.finditer(line):
            written = _section_id(match.group(0))
            sid = known.get(written)
            if sid is None or written in (labels or {}).get(path, set()):
                continue
            before = line[max(0, match.start() - 30):match.start()].lower()
            mine = max((before.rfind(n) for n in ours_low), default=-1)
            theirs = max((before.rfind(n) for n in others_low), default=-1)
            if theirs > mine:
                continue  # another topic's section of the same number
            # The section a placing word points at first weighs most ("→ §3.3 / §3.6 / §1.2": §3.3); the rest
            # of a list, a section named after the topic, or where its kin stands, less.
            if _PLACING.search(before[-14:]):
                found[sid] += 3
            elif mine >= 0:
                found[sid] += 2
            elif _KIN.search(before[-14:]) or re.search(r"(?:→|->|建议|归入|写入)", before[-14:]):
                found[sid] += 1
    return [sid for sid, _ in sorted(found.items(), key=lambda pair: -pair[1])]


def rank_sections(text: str, sections: Sequence[Any], arxiv: Sequence[str] = (),
                  title: str = "", placed: Sequence[str] = ()) -> list[SectionMatch]:
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
        # The scouts' own placement ("建议 → §1.(7)") comes after the paper's own place, before any guess.
        scout = placed.index(section.id) if section.id in placed else len(placed)
        scored.append((not anchored, scout, not keeps, not named, -score, index,
                       SectionMatch(section.id, section.title, score, anchored, keeps, section.id in placed)))
    scored.sort(key=lambda row: row[:6])
    return [row[6] for row in scored]


def propose_section(text: str, sections: Sequence[Any], arxiv: Sequence[str] = (),
                    title: str = "", placed: Sequence[str] = ()) -> SectionMatch | None:
    """Return the best section for ``text`` (an item titled ``title``), or None when nothing is related."""
    ranked = rank_sections(text, sections, arxiv, title, placed)
    if not ranked:
        return None
    top = ranked[0]
    if top.score <= 0 and not top.anchored and not top.keeps and not top.placed and not _named_in(title, top.title):
        return None
    return top
