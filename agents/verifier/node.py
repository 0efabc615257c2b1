"""The verifier's node: check the window's identifiers and claims, keep the register, persist the results."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path, PurePosixPath
from zoneinfo import ZoneInfo

from langgraph.runtime import Runtime

from agents.scanner.briefs import BriefRecord, list_briefs
from agents.scanner.derived import derive_file
from agents.scanner.e1_format import is_brief_path
from agents.scanner.kept_mentions import BODY_MENTIONS, TEXT_MENTIONS
from agents.scanner.mentions import extract_mentions
from agents.scanner.node import current_scan
from agents.scanner.notes import VaultFile, heading_spans
from agents.scanner.register import closures_in, raises_in
from agents.scanner.relevance import relevance
from agents.scanner.window import WindowScan
from agents.verifier.arxiv_api import ArxivApi, ArxivLookup, ArxivSettings
from agents.verifier.checks import run_checks
from agents.verifier.identifiers import likely_ids
from agents.verifier.names import arxiv_name, leading_system
from agents.verifier.outage import find_outage, without_outage
from agents.verifier.promises import kept_on, overdue_entry, promise_past, track_promise_history
from agents.verifier.register import (
    close_entry,
    closed_on,
    open_entries,
    raised_elsewhere,
    register_view,
    seed_register,
)
from state.graph_state import RunState
from state.models import ArxivEntry, BriefWarning, Mention
from state.runtime import BatonContext
from state.tables.arxiv_cache import ArxivCache
from state.vault_config import Topic

__all__ = ["verify", "arxiv_entries"]


def _versions(mentions: list[Mention]) -> dict[str, int]:
    """The highest version suffix written for each identifier."""
    versions: dict[str, int] = {}
    for mention in mentions:
        if mention.kind == "arxiv" and mention.detail.get("version"):
            versions[mention.value] = max(versions.get(mention.value, 0), int(mention.detail["version"]))
    return versions


def arxiv_entries(verdicts: Mapping[str, ArxivLookup], mentions: list[Mention], tz: ZoneInfo,
                  likely: Mapping[str, tuple[str, str]] | None = None,
                  search_failures: Mapping[str, str] | None = None) -> list[ArxivEntry]:
    """One contract entry per identifier, with what arXiv said (or why nothing was said)."""
    versions = _versions(mentions)
    entries = []
    for _, verdict in sorted(verdicts.items()):
        record = verdict.record
        version = versions.get(verdict.id)
        guess = (likely or {}).get(verdict.id)
        note = verdict.note
        if guess:
            note = f"{note + '；' if note else ''}可能是 {guess[0]}（{guess[1]}）"
        failure = (search_failures or {}).get(verdict.id)
        if failure:
            note = f"{note + '；' if note else ''}{failure}"
        entries.append(ArxivEntry(
            id=verdict.id, version=f"v{version}" if version else None, verified=verdict.status,
            title=record.title if record else None,
            published=record.published.astimezone(tz).date().isoformat() if record and record.published else None,
            note=note, likely=guess[0] if guess else None,
        ))
    return entries


def _references(root: Path, scan: WindowScan) -> list[Mention]:
    """Mentions of the baseline (living document, earlier briefs): compared against, never reported.

    Kept by the run's vault index for each file's bytes: a living document or brief that did not change is not
    searched again.
    """
    refs: list[Mention] = []
    living = next((s for s in scan.sources if s.kind == "living_doc" and s.sha256), None)
    if living is not None and living.sha256 in scan.blobs:
        text = scan.blobs[living.sha256]
        file = scan.living_file
        if file is not None and file.path == living.path and file.sha256 == living.sha256 and file.text == text:
            refs += derive_file(root, file, TEXT_MENTIONS)
        else:
            refs += extract_mentions(living.path, text)
    for brief in scan.earlier_briefs:
        refs += derive_file(root, brief, BODY_MENTIONS)
    return refs


def _title_candidates(api: ArxivApi, scan: WindowScan,
                      verdicts: Mapping[str, ArxivLookup]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """For malformed or unknown identifiers: arXiv title searches by the name the notes give them.

    The search is the last resort (it costs a request and 3 s): an identifier whose intended number
    the window or a card already gives is not searched. Returns the candidates and, for a search
    that could not be made or answered, why (it goes into the identifier's note, never dropped).
    """
    settled = likely_ids(scan.mentions, scan.cards)
    wanted = {key for key, verdict in verdicts.items()
              if verdict.status in ("malformed", "not_found") and key not in settled}
    candidates: dict[str, list[str]] = {}
    failures: dict[str, str] = {}
    for mention in scan.mentions:
        if mention.kind != "arxiv" or mention.value not in wanted or mention.value in candidates:
            continue
        named = arxiv_name(mention)
        if named:
            noted = len(api.notes)
            candidates[mention.value] = [record.id for record in api.search_title(named[0])]
            if len(api.notes) > noted:
                failures[mention.value] = api.notes[-1]
    return candidates, failures


def _without_dismissed(ctx: BatonContext, day: str, warnings: list[BriefWarning]) -> list[BriefWarning]:
    dismissed = ctx.store.dismissed_keys(before_day=day)
    kept = [w for w in warnings if not (w.key and w.key in dismissed)]
    return [w.model_copy(update={"id": f"C{i}"}) for i, w in enumerate(kept, start=1)]


def _slot_briefs(topics: Mapping[str, Topic], briefs: Sequence[BriefRecord]) -> dict[str, str]:
    """The vault's own slot briefs (``…-{slot}.md``, dated, not published by baton): path → thread. Their days
    are the ones the vault's slot brief records (baton's draft of such a day is superseded); a topic's own
    earlier ones are the record whose numbers it carries. A brief baton published keeps its thread's entries."""
    slots = {topic.slot: name for name, topic in topics.items()}
    found = {}
    for brief in briefs:
        if brief.by_baton or brief.day is None:
            continue
        stem = PurePosixPath(brief.path).stem
        name = next((n for slot, n in slots.items() if stem.endswith(f"-{slot}")), None)
        if name is not None:
            found[brief.path] = f"{name}:{brief.day.isoformat()}"
    return found


def _notes(scan: WindowScan) -> list[VaultFile]:
    """The window's scout notes (not briefs): what their lines raise or settle is read from them here;
    briefs record their own (``seed_register``)."""
    return [f for f in scan.files if f.path.startswith("inbox/") and not is_brief_path(f.path)]


def _sections(notes: Sequence[VaultFile]) -> list[tuple[str, int, str]]:
    """(path, first file line, text) of each heading's section of the notes (the text before the first heading
    is a section too)."""
    found = []
    for file in notes:
        lines = file.body.split("\n")
        found.extend((file.path, file.body_line + start, "\n".join(lines[start:end]))
                     for start, end in heading_spans(lines))
    return found


def _raised_in_notes(notes: Sequence[VaultFile]) -> list[tuple[int, str, int, str]]:
    """The numbers the notes raise things under ("新挂 D196")."""
    return [(number, file.path, line, text) for file in notes
            for number, line, text in raises_in(file.body, file.body_line)]


def _close_settled(ctx: BatonContext, day: date, notes: Sequence[VaultFile], open_numbers: set[int]) -> None:
    """Close the open entries a scout's note settles ("D181：v0.31.0 已落地，晚上闭合"), with that line as the
    evidence."""
    for file in notes:
        for number, line, text in closures_in(file.body, file.body_line):
            if number in open_numbers:
                close_entry(ctx.db, number, day, f"{file.path} L{line}：{text[:160]}")
                open_numbers.discard(number)


def verify(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Look identifiers up on arXiv (batched, cached), run the cross-source checks, number the warnings."""
    ctx = runtime.context
    scan = current_scan(state, ctx)
    identifiers = sorted({m.value for m in scan.mentions if m.kind == "arxiv"})
    ctx.progress(f"verify: {len(identifiers)} identifiers" + (" (offline: cache only)" if ctx.settings.offline else ""))
    # Every brief seeds the register (a new number follows the highest ever used), but the brief knows only
    # what was written before its window end, never the slot's own brief of the day (the output being written).
    briefs = list_briefs(ctx.config.root, ctx.config.tz)
    seed_register(ctx.db, scan.register, briefs)
    own = [s.path for s in scan.sources if s.kind == "brief" and not s.in_window]
    slot_briefs = _slot_briefs(ctx.config.topics, briefs)
    superseded = set(slot_briefs.values())
    # This topic's own earlier slot briefs (not baton's drafts): the record whose numbers it carries.
    own_record = sorted(path for path, thread in slot_briefs.items() if thread < f"{state.topic}:{state.day}"
                        and thread.startswith(f"{state.topic}:"))
    track_promise_history(ctx.db, ctx.config.root, ctx.config.tz, scan.start)
    with ArxivApi(ArxivSettings.from_settings(ctx.settings), scan.day, ArxivCache(ctx.db)) as api:
        verdicts = api.lookup(identifiers)
        candidates, search_failures = _title_candidates(api, scan, verdicts)
        requests = api.requests_made
    with register_view(scan.end, own, superseded, own_record):
        notes = _notes(scan)
        warnings = run_checks(scan.mentions, scan.cards, verdicts, scan.day, state.thread, ctx.db,
                              references=_references(ctx.config.root, scan), candidates=candidates, since=scan.start,
                              sections=_sections(notes),
                              queue_titles={r.arxiv: r.title for r in (scan.queue.rows if scan.queue else [])})
        warnings += raised_elsewhere(ctx.db, _raised_in_notes(notes), scan.end)
    if ctx.settings.crash_after == "verify:numbered":
        os._exit(137)  # test hook: die with the D-numbers allocated, before the verify result is saved
    # A collision raised in an earlier brief is carried with its number in the open list, not raised again.
    carried_collisions = [w for w in warnings if w.kind == "register_collision" and w.carried_from]
    warnings = _without_dismissed(ctx, state.day, [w for w in warnings if w not in carried_collisions])
    entries = arxiv_entries(verdicts, scan.mentions, ctx.config.tz, likely_ids(scan.mentions, scan.cards, candidates),
                            search_failures)
    outage = find_outage(verdicts, api.notes)
    entries = without_outage(entries, outage)
    carried = {w.register for w in warnings if w.register}
    window_ids = {m.value for m in scan.mentions if m.kind == "arxiv" and not m.detail.get("malformed")}
    # The numbers the living document cites in its anchored bullets ("…（D173）〔v3.36〕"): its open questions.
    cited = {f"D{n}" for _, bullet in scan.living.anchored_as_of(scan.day, scan.end)
             for n in re.findall(r"(?<![A-Za-z0-9])D(\d{2,})(?!\d)", str(bullet.text))}
    # What the living document keeps as of the brief: its papers and the names its bullets lead with
    # ("DSpark 85% 加速 …"), not the topic's own terms: an open entry about one of them is this topic's.
    kept_ids = set(scan.living.anchored_ids(scan.day, scan.end))
    kept_names = {name for _, bullet in scan.living.anchored_as_of(scan.day, scan.end)
                  if (name := leading_system(str(bullet.text), scan.topic.keywords))}
    # The papers this slot's own earlier briefs listed as increments (a document not yet merged still owes them).
    own_papers = {p.arxiv for b in briefs if b.path in own_record for p in b.increments if p.arxiv}
    register_open, register_elsewhere = [], []
    _close_settled(ctx, scan.day, notes, {e.number for e in open_entries(ctx.db, scan.end, own, superseded)})
    for e in open_entries(ctx.db, scan.end, own, superseded):
        if e.d in carried:
            continue
        ours = (relevance(e.text, scan.topic.keywords) >= 1
                or e.d in cited  # the living document names it: this topic's question
                or (e.source or "").endswith(f"-{scan.topic.slot}.md")  # this slot raised it
                or any(i in e.text for i in window_ids)  # about a paper the window names
                or any(i in e.text for i in kept_ids)  # about a paper the living document keeps
                or any(i in e.text for i in own_papers)  # about a paper this slot's own briefs carried
                or any(re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", e.text) for n in kept_names))
        if ours and promise_past(e.text, scan.day) != e.text:
            # An open entry tracking a promise whose day has passed: today's overdue finding, under its number.
            warnings.append(overdue_entry(e, scan.files, scan.day, len(warnings) + 1))
            continue
        entry = {"d": e.d, "text": e.text, "risk": e.risk, "raised": e.raised, "carried_from": e.carried_from}
        # Another topic's open question is named, not silently left out: the reader sees what was set aside.
        (register_open if ours else register_elsewhere).append(entry if ours else {**entry, "source": e.source})
    listed = {e["d"]: e for e in register_open}
    for w in carried_collisions:  # one line per number: a collision on a listed number is said on its line
        note = f"编号冲突（{w.carried_from}）：{w.text}"
        if w.register in listed:
            listed[w.register]["text"] += f"；{note}"
        else:
            # First raised: the earliest day the collision's own text names (its sources' dates).
            days = sorted(re.findall(r"(?<!\d)(20\d\d-\d\d-\d\d)(?!\d)", note))
            listed[w.register] = {"d": w.register, "text": note, "risk": w.risk, "raised": days[0] if days else None,
                                  "carried_from": w.carried_from}
            register_open.append(listed[w.register])
    # A number carried for its collision is this topic's line: not also listed as another topic's.
    register_elsewhere = [e for e in register_elsewhere if e["d"] not in listed]
    ctx.store.save_artifact(state.thread, "verify", {
        "register_open": register_open,
        "register_elsewhere": register_elsewhere,
        "register_closed": [*closed_on(ctx.db, scan.day, scan.end, own), *kept_on(ctx.db, scan.day)],
        "superseded": sorted(superseded),  # days the vault's slot briefs record (for the integrator's numbers)
        "own_record": own_record,
        "arxiv": [e.model_dump(mode="json") for e in entries],
        "warnings": [w.model_dump(mode="json") for w in warnings], "requests": requests,
        "outage": {"reason": outage.reason, "kind": outage.kind, "unverified": outage.unverified} if outage else None})
    counts = {status: sum(1 for e in entries if e.verified == status)
              for status in ("ok", "not_found", "malformed", "unverified")}
    verdict_line = ", ".join(f"{n} {status}" for status, n in counts.items() if n) or "no identifiers"
    ctx.progress(f"verify: {verdict_line} · {requests} arXiv requests · {len(warnings)} warnings")
    degraded = (f"arXiv unreachable ({outage.reason}): {outage.unverified} identifiers unverified"
                if outage else None)
    return {"arxiv_requests": requests, "warnings": len(warnings), "arxiv_degraded": degraded}
