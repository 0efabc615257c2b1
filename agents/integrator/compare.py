"""``baton compare OURS.json THEIRS.md``: how baton's brief stands against a hand-written one.

Figures, not thresholds: recall and precision of the arXiv numbers, of the
increments (matched by arXiv number or normalised URL; one with neither, by its source note), of the warnings
(matched by register D-number, else by a shared arXiv number), and the
increments both briefs carry but file in different sections.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field
from rapidfuzz import fuzz

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.e1_format import D_NUMBER, INCREMENT_LINE, PART, WARNING_LINE
from agents.scanner.urls import find_urls, normalize_url
from state.models import Brief

__all__ = ["Score", "SectionDisagreement", "CompareResult", "compare_briefs", "parse_theirs", "TheirBrief"]

_PART, _INCREMENT, _WARNING, _D_NUMBER = PART, INCREMENT_LINE, WARNING_LINE, D_NUMBER
_PATH = re.compile(r"(?:inbox|organized)/[\w./-]+?\.md")
_SECTION = re.compile(r"§\s?[\d.()（）]+\d[)）]?")


class Score(BaseModel):
    """Recall and precision of one kind of thing."""

    model_config = ConfigDict(extra="forbid")

    ours: int
    theirs: int
    matched: int
    recall: float | None
    precision: float | None
    missing: list[str] = Field(default_factory=list)
    extra: list[str] = Field(default_factory=list)


class SectionDisagreement(BaseModel):
    """An increment both briefs carry, filed in different sections."""

    model_config = ConfigDict(extra="forbid")

    key: str
    ours: str | None
    theirs: list[str]


class CompareResult(BaseModel):
    """What ``baton compare`` prints."""

    model_config = ConfigDict(extra="forbid")

    arxiv: Score
    increments: Score
    warnings: Score
    sections: list[SectionDisagreement] = Field(default_factory=list)
    not_compared: dict[str, int] = Field(default_factory=dict)  # our warnings of kinds the examples keep elsewhere

    def lines(self) -> list[str]:
        """Human-readable summary, one line per figure."""
        def fmt(name: str, score: Score) -> str:
            r = "—" if score.recall is None else f"{score.recall:.2f}"
            p = "—" if score.precision is None else f"{score.precision:.2f}"
            return f"{name}: recall {r} precision {p} (ours {score.ours}, theirs {score.theirs}, matched {score.matched})"
        out = [fmt("arXiv", self.arxiv), fmt("increments", self.increments), fmt("warnings", self.warnings)]
        if self.not_compared:
            out.append("not compared (kept outside section 三 by the team): "
                       + ", ".join(f"{k} {n}" for k, n in sorted(self.not_compared.items())))
        out.append(f"sections disagreed: {len(self.sections)}")
        out.extend(f"  {d.key}: ours {d.ours or '—'} vs theirs {' / '.join(d.theirs) or '—'}" for d in self.sections)
        return out


class TheirBlock(BaseModel):
    """One increment or warning of the hand-written brief."""

    model_config = ConfigDict(extra="forbid")

    arxiv: set[str] = Field(default_factory=set)
    urls: set[str] = Field(default_factory=set)
    sections: list[str] = Field(default_factory=list)
    registers: set[str] = Field(default_factory=set)
    sources: set[str] = Field(default_factory=set)  # vault paths on the "来源：" line
    text: str = ""


class TheirBrief(BaseModel):
    """What ``parse_theirs`` reads from a hand-written brief."""

    model_config = ConfigDict(extra="forbid")

    arxiv: set[str] = Field(default_factory=set)
    increments: list[TheirBlock] = Field(default_factory=list)
    warnings: list[TheirBlock] = Field(default_factory=list)


# Findings the hand-written briefs keep outside their contradictions section (coordination goes in the
# status summary; text addressed to a model is not a claim): counted apart, not as unmatched warnings.
NOT_COMPARED = frozenset({"instruction_in_source", "false_alarm", "gap_unreported", "streak_mismatch"})
FIGURE_TOKEN = re.compile(r"\d+(?:\.\d+)+|\d{2,}")


def _same_quote(ours: str, theirs: str) -> bool:
    """Both quote the same source sentence: one of our 「quotes」 stands, nearly word for word, in theirs."""
    for quoted in re.findall(r"「([^」]{12,})」", ours):
        for clause in re.split(r"[，,；;：:。]", re.sub(r"^[\s\-*•⚠⚬]+", "", quoted).rstrip("…")):
            if len(clause.strip()) >= 12 and fuzz.partial_ratio(clause.strip(), theirs) >= 75:
                return True
    return False


def _same_claim(subject: str, ours: str, theirs: str) -> bool:
    """The same claim in other words: every word of our subject and one of our figures appear in theirs."""
    words = [w for w in re.findall(r"[A-Za-z][\w.-]{2,}", subject)]
    if not words or not all(w.lower() in theirs.lower() for w in words):
        return False
    return bool(set(FIGURE_TOKEN.findall(ours)) & set(FIGURE_TOKEN.findall(theirs)))


def _same_subject(subject: str, theirs: str) -> bool:
    """Every Latin word of our subject (or the subject itself) appears in their text."""
    words = re.findall(r"[A-Za-z][\w.-]{2,}", subject) or ([subject] if subject else [])
    return bool(words) and all(w.lower() in theirs.lower() for w in words)


def _ids(text: str) -> set[str]:
    return {ref.id for ref in find_arxiv_refs(text) if not ref.malformed}


def _urls(text: str) -> set[str]:
    return {normalize_url(raw) for raw, _, _ in find_urls(text)}


def _parts(text: str) -> dict[str, str]:
    marks = list(_PART.finditer(text))
    parts = {}
    for index, mark in enumerate(marks):
        end = marks[index + 1].start() if index + 1 < len(marks) else len(text)
        parts[mark.group(2).strip()] = text[mark.end():end]
    return parts


def _blocks(text: str, start: re.Pattern[str]) -> list[str]:
    marks = list(start.finditer(text))
    return [text[m.start(): marks[i + 1].start() if i + 1 < len(marks) else len(text)] for i, m in enumerate(marks)]


def _part(parts: dict[str, str], *words: str) -> str:
    return next((body for title, body in parts.items() if any(w in title for w in words)), "")


def parse_theirs(text: str) -> TheirBrief:
    """Read arXiv numbers, increments and warnings from a hand-written brief (the examples' headings)."""
    parts = _parts(text)
    citable = _part(parts, "arXiv")
    brief = TheirBrief(arxiv=_ids(citable or text))
    for block in _blocks(_part(parts, "增量"), _INCREMENT):
        placed = re.search(r"建议归入章节[：:](.*)", block)
        sections = _SECTION.findall(placed.group(1)) if placed else []
        # The increment's own identity: its heading, its URL line and its arXiv line (not the
        # relation paragraph, which names neighbouring papers).
        own = "\n".join(line for line in block.split("\n")[:1] + re.findall(r"^\s*(?:URL|arXiv 号)[：:].*$", block, re.M))
        cited = re.search(r"^\s*来源[：:](.*)$", block, re.M)
        paths = set(_PATH.findall(cited.group(1))) if cited else set()
        brief.increments.append(TheirBlock(arxiv=_ids(own), urls=_urls(own), sections=sections, sources=paths))
    for block in _blocks(_part(parts, "矛盾", "待核"), _WARNING):
        brief.warnings.append(TheirBlock(arxiv=_ids(block), registers={f"D{n}" for n in _D_NUMBER.findall(block)},
                                         text=block))
    return brief


def _score(ours: int, theirs: int, matched_ours: int, matched_theirs: int, missing: Iterable[str],
           extra: Iterable[str]) -> Score:
    return Score(
        ours=ours, theirs=theirs, matched=matched_theirs,
        recall=matched_theirs / theirs if theirs else None,
        precision=matched_ours / ours if ours else None,
        missing=sorted(missing), extra=sorted(extra),
    )


def _norm_section(section: str) -> str:
    return section.replace(" ", "").replace("（", "(").replace("）", ")")


def compare_briefs(ours: Brief, theirs_text: str) -> CompareResult:
    """Compare baton's brief with a hand-written Markdown brief."""
    theirs = parse_theirs(theirs_text)
    our_ids = {a.id for a in ours.arxiv} | {i for inc in ours.increments for i in inc.arxiv}
    arxiv = _score(len(our_ids), len(theirs.arxiv), len(our_ids & theirs.arxiv), len(our_ids & theirs.arxiv),
                   theirs.arxiv - our_ids, our_ids - theirs.arxiv)

    def same(inc_ids: set[str], inc_urls: set[str], block: TheirBlock, sources: set[str]) -> bool:
        if inc_ids & block.arxiv or inc_urls & block.urls:
            return True
        # An increment with neither arXiv number nor link (a note's engineering content) is the same
        # when neither side has an identity of its own and they rest on the same source note.
        return not (inc_ids or inc_urls or block.arxiv or block.urls) and bool(sources & block.sources)

    matched_ours, matched_theirs, disagreements = set(), set(), []
    for index, inc in enumerate(ours.increments):
        ids, urls = set(inc.arxiv), {normalize_url(u) for u in inc.urls}
        for j, block in enumerate(theirs.increments):
            if j not in matched_theirs and same(ids, urls, block, set(inc.sources)):
                matched_ours.add(index)
                matched_theirs.add(j)
                theirs_sections = [_norm_section(s) for s in block.sections]
                if inc.section and theirs_sections and _norm_section(inc.section) not in theirs_sections:
                    disagreements.append(SectionDisagreement(key=inc.key or inc.title, ours=inc.section,
                                                             theirs=block.sections))
                break
    label = lambda b: " / ".join(sorted(b.arxiv | b.urls)) or " + ".join(sorted(b.sources)) or "?"  # noqa: E731
    increments = _score(
        len(ours.increments), len(theirs.increments), len(matched_ours), len(matched_theirs),
        [label(b) for j, b in enumerate(theirs.increments) if j not in matched_theirs],
        [inc.key or inc.title for i, inc in enumerate(ours.increments) if i not in matched_ours],
    )
    w_ours, w_theirs = set(), set()
    for index, warning in enumerate(ours.warnings):
        if warning.kind in NOT_COMPARED:
            continue
        ids = _ids(" ".join(filter(None, [warning.text, warning.subject, warning.key])))
        for j, block in enumerate(theirs.warnings):
            # A shared D-number alone is a coincidence of numbering: the two must also speak of the same thing.
            if (warning.register and warning.register in block.registers
                    and _same_subject(warning.subject or "", block.text)) or (ids & block.arxiv) \
                    or _same_claim(warning.subject or "", warning.text, block.text) \
                    or _same_quote(warning.text, block.text):
                w_ours.add(index)
                w_theirs.add(j)
    compared = [i for i, w in enumerate(ours.warnings) if w.kind not in NOT_COMPARED]
    warnings = _score(
        len(compared), len(theirs.warnings), len(w_ours), len(w_theirs),
        [" / ".join(sorted(b.registers | b.arxiv)) or "?" for j, b in enumerate(theirs.warnings) if j not in w_theirs],
        [f"{ours.warnings[i].id} {ours.warnings[i].kind} {ours.warnings[i].subject}" for i in compared
         if i not in w_ours],
    )
    apart = {}
    for w in ours.warnings:
        if w.kind in NOT_COMPARED:
            apart[w.kind] = apart.get(w.kind, 0) + 1
    return CompareResult(arxiv=arxiv, increments=increments, warnings=warnings, sections=disagreements,
                         not_compared=apart)
