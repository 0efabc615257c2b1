"""Cross-source checks of a window: each finding becomes a ``BriefWarning`` (text in Chinese).

Inputs are plain values: the window's mentions, optional reference mentions
(the living document, earlier briefs: compared against, never reported on
their own), the window's cards, arXiv verdicts (id → result, see
``agents.verifier.facts.PaperFacts``), and the brief's date. Nothing here
reads the clock. The checks themselves live by subject: ``identifiers``,
``titles``, ``dates`` and ``claims`` (versions, figures).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date, datetime

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.e1_format import is_brief_path, is_coordination_path, relayed_only
from agents.verifier.caveats import check_caveats
from agents.verifier.claims import (
    check_number_conflicts,
    check_version_conflicts,
    figure_claims,
    make_warning,
    quote,
)
from agents.verifier.dates import check_dates, check_versions_beyond_latest
from agents.verifier.facts import CardLike, PaperFacts, known_titles, paper_facts
from agents.verifier.identifiers import check_id_conflicts, check_malformed, check_titles_under_other_numbers
from agents.verifier.promises import promise_warnings, track_promises
from agents.verifier.register import ITEM_KINDS, assign_numbers, collisions
from agents.verifier.titles import check_titles
from state.db import Database
from state.models import BriefWarning, Mention

__all__ = [
    "check_instructions",
    "arxiv_checks",
    "run_checks",
]


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
                 candidates: Mapping[str, Sequence[str]] | None = None,
                 sections: Sequence[tuple[str, int, str]] = (),
                 queue_titles: Mapping[str, str] | None = None) -> list[BriefWarning]:
    """Every check that needs no store, in the brief's order; ``sections``: (path, line, text) of the window's
    notes' sections, for titles written out under another number (the cards', arXiv's and the queue's)."""
    conflicts = check_id_conflicts(mentions, references, facts, cards)
    known = {w.key for w in conflicts}
    titles = {i: (t, "work-queue") for i, t in (queue_titles or {}).items() if t} | known_titles(facts, cards)
    identity = one_finding_per_pair([*conflicts, *(w for w in check_titles_under_other_numbers(sections, titles)
                                                   if w.key not in known)])
    return [
        *check_instructions(mentions),
        *check_malformed(mentions, cards, candidates, references),
        *identity,
        *check_titles(mentions, facts, cards),
        *check_dates(mentions, cards, facts, day),
        *check_versions_beyond_latest(mentions, facts),
        *check_version_conflicts(mentions, references),
        *_clash_claims_checked(check_number_conflicts(mentions), check_caveats(mentions), mentions),
    ]


def _clash_claims_checked(conflicts: list[BriefWarning], caveats: list[BriefWarning],
                          mentions: Sequence[Mention]) -> list[BriefWarning]:
    """The number conflicts, then the caveats; a coordination note's call of a contradiction ("FlexLane 吞吐两处对
    不上，请登记") that the figures' own sources do not bear out (each states another set-up) is no doubt of the
    scouts to register: it is said as a false alarm, with the figures and the conditions each source gives."""
    confirmed = {w.subject.split()[0].lower() for w in conflicts if w.subject}
    claims = figure_claims(mentions)
    out = list(conflicts)
    for warning in caveats:
        relayed = warning.text.count("协调记录所称矛盾")
        subject = (warning.subject or "").lower()
        if not relayed or relayed != warning.text.count("」") or subject in confirmed:
            out.append(warning)
            continue
        # The figures the note lines up, as their own sources state them (a paper named or numbered).
        papers = {c.subject.lower() for c in claims if subject in (c.subject.lower(), c.named.lower())}
        stated = {}
        for claim in claims:
            if claim.subject.lower() in papers and claim.conditions and claim.mention.value in warning.text \
                    and not is_coordination_path(claim.mention.source) and not is_brief_path(claim.mention.source):
                told = " · ".join(("batch / 并发 " if kind == "concurrency" else "") + value
                                  for kind, values in sorted(claim.conditions.items()) for value in sorted(values))
                stated.setdefault((claim.low, claim.high), f"{claim.mention.value}（{told}；{claim.mention.source} "
                                                           f"L{claim.mention.line}）")
        if len({v.split("（", 1)[1].split("；", 1)[0] for v in stated.values()}) < 2:
            out.append(warning)  # the sources give no set-ups to tell the figures apart: the doubt stands
            continue
        where = warning.text.split("——", 1)[-1].split("（协调记录所称矛盾", 1)[0]
        out.append(make_warning(
            "false_alarm", f"{warning.subject}：协调记录称数字矛盾（{where}），但各源写明的条件不同："
            + "；".join(stated.values()) + "。不同条件下的两数不构成矛盾，不登记。", "低",
            "更正协调笔记：两数分别注明条件后并列引用", warning.sources, warning.subject or "",
            f"false_alarm:clash:{subject}"))
    return out


def one_finding_per_pair(warnings: Sequence[BriefWarning]) -> list[BriefWarning]:
    """One identity finding per pair of numbers: the same slip found by its full title, its short name and its
    section ("StreamLoad: …" and "StreamLoad" under 2609.36905 / 2609.36950) is one warning, the one that says which
    number is right, with every source."""
    kept: list[BriefWarning] = []
    pairs: dict[frozenset[str], int] = {}
    for warning in warnings:
        ids = frozenset(r.id for r in find_arxiv_refs(warning.text) if not r.malformed)
        if warning.kind != "id_conflict" or len(ids) != 2:
            kept.append(warning)
            continue
        if ids not in pairs:
            pairs[ids] = len(kept)
            kept.append(warning)
            continue
        first = kept[pairs[ids]]
        best = warning if ("为准" in warning.text and "为准" not in first.text) else first
        sources = list(dict.fromkeys([*first.sources, *warning.sources]))
        kept[pairs[ids]] = best.model_copy(update={"sources": sources})
    return kept


def run_checks(mentions: Sequence[Mention], cards: Sequence[CardLike], arxiv_results: Mapping[str, object], day: date,
               thread: str, db: Database | None = None, *, references: Sequence[Mention] = (),
               candidates: Mapping[str, Sequence[str]] | None = None,
               since: datetime | None = None, sections: Sequence[tuple[str, int, str]] = (),
               queue_titles: Mapping[str, str] | None = None) -> list[BriefWarning]:
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
        since: the window's start: a register collision visible before it is carried, not new.
        sections: (path, first line, text) of each section of the window's notes.
        queue_titles: arXiv number → the work queue's title of it.
    """
    warnings = arxiv_checks(mentions, cards, paper_facts(arxiv_results), day, references, candidates, sections,
                            queue_titles)
    if db is not None:
        partial = track_promises(db, mentions, day)
        # A finding only relayed by briefs is kept or set aside by the integrator: numbered only if it is kept
        # (a promise a brief quotes can be overdue today, news of no brief), never dropped here.
        found = [*warnings, *promise_warnings(db, day, partial)]
        numbered = assign_numbers(db, thread, [w for w in found
                                               if w.kind not in ITEM_KINDS and not relayed_only(w.sources)])
        warnings = [*numbered, *(w for w in found if w.kind in ITEM_KINDS or relayed_only(w.sources))]
        warnings = [*warnings, *collisions(db, as_of=day, since=since)]
    return [w.model_copy(update={"id": f"W{i}"}) for i, w in enumerate(warnings, start=1)]
