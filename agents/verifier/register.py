"""The contradiction register in the store: seeding, atomic D-number allocation, collisions, open entries.

The table is seeded from ``organized/registry/contradictions.md`` and from
every brief; a new number follows the highest known as of the brief (the
register as it stood at its window's end: a backfill numbers as that day
would have, never after a later brief's numbers), skipping any number baton
gave already, so baton never names two things by one number; an allocation
is keyed by ``(thread, warning key)`` so a re-run of the same day takes no
new number. Where the vault holds a slot's own brief of a day, that brief is
the day's record: baton's run of that day is a draft beside it, and later
days carry the vault's numbers, not the draft's.

Everything "as of" uses the brief, never the clock: given the brief's moment
(its window end, tz-aware), collisions, carried numbers and open entries use
only what was written strictly before it, and never the slot's own brief
(the output being written). Given a bare date, "on or before that date".
``run_checks`` passes only the date; the verifier node wraps it in
``register_view(moment, exclude)`` so that date means that moment.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Collection, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from datetime import date, datetime

from rapidfuzz import fuzz
from sqlalchemy import select
from sqlalchemy import text as sql_text

from agents.scanner.briefs import BriefRecord, risk_of_mark
from agents.scanner.register import RegisterEntry
from state.db import Database
from state.errors import StoreConflict, StoreError
from state.models import BriefWarning
from state.tables.register import (
    AsOf,
    RegisterEntryRow,
    RegisterSightingRow,
    utc_moment,
)
from state.vault_config import REGISTER_PATH

__all__ = [
    "serialised",
    "REGISTERED_KINDS",
    "ITEM_KINDS",
    "OpenEntry",
    "register_view",
    "seed_register",
    "assign_numbers",
    "open_entries",
    "close_entry",
    "closed_on",
    "allocated_in",
    "collisions",
    "raised_elsewhere",
]

# Kinds that are contradictions or claims to verify, and so hold a D-number.
REGISTERED_KINDS = frozenset({
    "id_malformed", "id_conflict", "title_mismatch", "date_mismatch", "version_conflict", "number_conflict",
    "promise_open", "promise_overdue", "version_beyond_latest", "caveat",
})
# Kinds about one item (its own caveat, its card's date, its title): numbered only once the integrator
# keeps them (the item is in the brief), so that a number is never spent on an item the brief leaves out.
ITEM_KINDS = frozenset({"caveat", "date_mismatch", "title_mismatch"})
_SAME_ITEM = 70  # partial_ratio of two texts above which two sightings of a number are one item


@dataclass(frozen=True)
class OpenEntry:
    """An entry still open on a day, to be carried forward ("沿用")."""

    d: str
    number: int
    text: str
    risk: str | None
    raised: str | None
    source: str | None
    carried_from: str


def _iso(day: date | None) -> str | None:
    return day.isoformat() if day else None


_VIEW: ContextVar[AsOf | None] = ContextVar("register_view", default=None)


@contextmanager
def register_view(moment: datetime, exclude: Collection[str] = (), superseded: Collection[str] = (),
                  own_record: Collection[str] = ()) -> Iterator[AsOf]:
    """Within the block, a bare date "as of" of ``moment``'s day means strictly before ``moment``, without ``exclude``
    and without baton's entries of the ``superseded`` threads (days whose slot brief the vault has).

    For callers that know only the brief's date (``run_checks``); the verifier node knows its moment
    (the window end) and the slot's own brief of the day.
    """
    view = AsOf.of(moment, exclude, superseded, own_record)
    token = _VIEW.set(view)
    try:
        yield view
    finally:
        _VIEW.reset(token)


def _as_of(as_of: date | datetime | None, exclude: Collection[str] = ()) -> AsOf:
    """An explicit moment wins; a bare date of the active view's day means the view; else that date."""
    view = _VIEW.get()
    if view is not None and not isinstance(as_of, datetime) and as_of is not None and as_of.isoformat() == view.day:
        return AsOf(view.day, view.moment, view.exclude | frozenset(exclude), superseded=view.superseded,
                    own_record=view.own_record)
    return AsOf.of(as_of, exclude)


def seed_register(db: Database, entries: Sequence[RegisterEntry], briefs: Sequence[BriefRecord]) -> int:
    """Load the register file's rows and every brief's D-numbers with their moments; return rows added (idempotent).

    Give every brief of the vault, also later ones: allocation follows the highest number ever seen;
    the "as of" queries decide what a brief may know.
    """
    moments = {b.path: utc_moment(b.time) for b in briefs if b.time is not None}
    briefs = sorted(briefs, key=lambda b: (b.day or date.min, moments.get(b.path, ""), b.path))
    added = 0
    with db.session() as session:
        serialised(session)  # two topics' runs seed the same rows at once: one seeds, the other then sees them
        known = _vault_rows(session)  # the vault's entry of each number (the register's, else a brief's)
        sightings = {(s.number, s.source, s.role, s.text): s for s in session.scalars(select(RegisterSightingRow))}

        def sight(number: int, source: str, day: str | None, role: str, text: str, moment: str | None) -> None:
            row = sightings.get((number, source, role, text))
            if row is None:
                row = RegisterSightingRow(number=number, source=source, day=day, role=role, text=text, moment=moment)
                sightings[(number, source, role, text)] = row
                session.add(row)
            elif row.moment is None and moment is not None:
                row.moment = moment  # a store seeded before moments were kept

        for entry in entries:
            closed = re.search(r"\d{4}-\d{2}-\d{2}", entry.status) if entry.closed else None
            if entry.number not in known:
                row = RegisterEntryRow(
                    number=entry.number, text=entry.text, risk=risk_of_mark(entry.risk.split()[-1] if entry.risk
                                                                            else None),
                    raised=_iso(entry.raised), status="closed" if entry.closed else "open",
                    closed=closed.group(0) if closed else None, evidence=entry.status if entry.closed else None,
                    source=entry.source, origin="register")
                session.add(row)
                known[entry.number] = row
                added += 1
            row = known[entry.number]
            if row.origin == "register":  # the file's grade, also in a store seeded when "中低" read as "低"
                row.risk = risk_of_mark(entry.risk.split()[-1] if entry.risk else None)
            if row.origin == "register" and row.raised_at is None and entry.source in moments:
                row.raised_at = moments[entry.source]  # the register row counts from its source brief's moment
            sight(entry.number, REGISTER_PATH, _iso(entry.raised), "raised", entry.text, moments.get(entry.source or ""))
        renumbered = _renumbered(entries, briefs)
        for brief in briefs:
            moment = moments.get(brief.path)
            for item in brief.items:
                number = renumbered.get((brief.path, item.number))
                if number is not None:  # the register files it under another number: a sighting of that entry
                    sight(number, brief.path, _iso(brief.day), "carried" if item.role == "raised" else item.role,
                          item.text, moment)
                    item = replace(item, number=number, role="carried" if item.role == "raised" else item.role)
                else:
                    sight(item.number, brief.path, _iso(brief.day), item.role, item.text, moment)
                row = known.get(item.number)
                if item.role == "raised" and item.text and row is None:
                    row = RegisterEntryRow(number=item.number, text=item.text, risk=risk_of_mark(item.risk),
                                           raised=_iso(brief.day), raised_at=moment, status="open",
                                           source=brief.path, origin="brief")  # status now: a later brief may close it
                    session.add(row)
                    known[item.number] = row
                    added += 1
                elif item.role == "closed" and row is not None and row.status == "open":
                    row.status, row.closed, row.closed_at, row.closed_from = "closed", _iso(brief.day), moment, brief.path
                    row.evidence = f"{brief.path}：{item.text}" if item.text else brief.path
                elif item.role == "closed" and row is not None and row.closed_from == brief.path and row.closed_at is None:
                    row.closed_at = moment
                if row is not None and row.origin == "brief" and row.source == brief.path and row.raised_at is None:
                    row.raised_at = moment  # a store seeded before moments were kept
    return added


def _renumbered(entries: Sequence[RegisterEntry], briefs: Sequence[BriefRecord]) -> dict[tuple[str, int], int]:
    """(brief path, the number it used) → the register's number for that thing, where a register row records
    the renumbering ("（原 tom 9-27 自编"D195"）"): the brief of that agent and day that uses the number."""
    found: dict[tuple[str, int], int] = {}
    for entry in entries:
        for mark in entry.renumbered():
            for brief in briefs:
                if brief.day is None or (brief.day.month, brief.day.day) != (mark.month, mark.day):
                    continue
                if (mark.year and brief.day.year != mark.year) or (mark.agent and (brief.agent or "").lower()
                                                                   != mark.agent.lower()):
                    continue
                if any(item.number == mark.number for item in brief.items):
                    found.setdefault((brief.path, mark.number), entry.number)
    return found


def _items(sightings: Sequence[RegisterSightingRow], row: RegisterEntryRow | None) -> list[list[RegisterSightingRow]]:
    """Group a number's raised sightings into distinct items (same source or similar text = one item)."""
    # The register's row names the briefs it comes from ("inbox/spark/….md · inbox/tom/….md"): a sighting in
    # any of them is the row's item.
    row_sources = set(re.findall(r"(?:inbox|organized)/\S+?\.md", row.source or "")) if row is not None else set()

    def sources_of(sighting: RegisterSightingRow) -> set[str]:
        return (row_sources or {str(row.source)}) if row is not None and sighting.source == REGISTER_PATH \
            else {sighting.source}

    items: list[list[RegisterSightingRow]] = []
    for sighting in sorted(sightings, key=lambda s: (s.day or "", s.moment or "", s.source)):
        source = sources_of(sighting)
        for item in items:
            first = item[0]
            if any(source & sources_of(s) for s in item) or \
                    fuzz.partial_ratio(sighting.text.lower(), first.text.lower()) >= _SAME_ITEM:
                item.append(sighting)
                break
        else:
            items.append([sighting])
    return items


def _raised_by_number(session, view: AsOf, follow_ups: bool = False) -> dict[int, list[RegisterSightingRow]]:  # type: ignore[no-untyped-def]
    """Sightings that say what each number is; with ``follow_ups``, also this topic's own record's follow-ups
    on it ("D200 补记：C2C … 仍未见"), which name the same thing in today's words."""
    found: dict[int, list[RegisterSightingRow]] = {}
    roles = ("raised", "carried") if follow_ups else ("raised",)
    query = select(RegisterSightingRow).where(RegisterSightingRow.role.in_(roles), RegisterSightingRow.text != "")
    for sighting in session.scalars(query):
        if sighting.role != "raised" and sighting.source not in view.own_record:
            continue
        if view.sees(sighting.day, sighting.moment, sighting.source):
            found.setdefault(sighting.number, []).append(sighting)
    return found


def collisions(db: Database, as_of: date | datetime | None = None, exclude: Collection[str] = (),
               since: datetime | None = None) -> list[BriefWarning]:
    """``register_collision`` for every D-number that names two different items as of the brief.

    ``as_of``: the brief's moment (only sightings strictly before it, none from ``exclude``: the slot's
    own brief is the output being written, never an input), or a date (sightings dated on or before
    it), or None (every sighting). ``since``: the window's start; a collision already visible before it
    was the previous brief's to raise, so it is carried ("沿用") with the day it first showed, not new.
    """
    view = _as_of(as_of, exclude)
    before = AsOf.of(since, view.exclude, view.superseded) if since is not None else None
    warnings = []
    with db.session() as session:
        rows = _vault_rows(session)
        for number, sightings in sorted(_raised_by_number(session, view).items()):
            items = _items(sightings, rows.get(number))
            if len(items) < 2:
                continue
            listed = "；".join(f"{chr(0x2460 + i)} {item[0].source}（{item[0].day}）：「{item[0].text[:60]}」"
                              for i, item in enumerate(items[:10]))
            carried = None
            if before is not None:
                old = [item for item in items if any(before.sees(s.day, s.moment, s.source) for s in item)]
                if len(old) >= 2:
                    carried = f"{old[1][0].source}（{old[1][0].day}）起已可见"
            warnings.append(BriefWarning(
                id="", register=f"D{number}", kind="register_collision",
                text=(f"D{number} 在不同来源中指 {len(items)} 件不同的事：{listed}。各件除非另有闭合记录，均仍待核；"
                      "一个编号只能指一件事。"),
                risk="中", action=f"D{number} 保留给最早的一件，其余各件在本简报中改编新号",
                sources=sorted({item[0].source for item in items}), subject=f"D{number}",
                key=f"register_collision:D{number}", carried_from=carried))
    return warnings


def raised_elsewhere(db: Database, raised: Sequence[tuple[int, str, int, str]], as_of: datetime) -> list[BriefWarning]:
    """``register_collision`` for a note of the window raising a number that already names another thing
    ("新挂 D196" for ShardLake's figures, where D196 is "SGLang vs vLLM 双源基准"): (number, source, line, text)."""
    view = _as_of(as_of)
    warnings = []
    with db.session() as session:
        known = _raised_by_number(session, view)
        rows = _vault_rows(session)
        for number, source, line, text in raised:
            items = _items(known.get(number, []), rows.get(number))
            if not items or any(fuzz.partial_ratio(text.lower(), item[0].text.lower()) >= _SAME_ITEM for item in items):
                continue  # a number nobody used yet, or the same thing again
            listed = "；".join(f"{item[0].source}（{item[0].day}）：「{item[0].text[:50]}」" for item in items[:5])
            warnings.append(BriefWarning(
                id="", register=f"D{number}", kind="register_collision",
                text=f"{source} L{line} 把一件新事挂为 D{number}（「{text[:70]}」），但 D{number} 已指：{listed}。"
                     "一个编号只能指一件事。",
                risk="中", action=f"该事改编新号；D{number} 保留原指",
                sources=[source, *sorted({item[0].source for item in items})], subject=f"D{number}",
                key=f"register_collision:D{number}:{source}"))
    return warnings


def _terms(warning: BriefWarning) -> tuple[str, list[str]]:
    parts = (warning.key or "").split(":", 1)[-1]
    subject = warning.subject or ""
    if warning.kind == "number_conflict":
        subject = subject.split(" ")[0]  # "2610.03391 显存 降幅": the entity; its metric words are terms (from the key)
    terms = [t for t in re.split(r"[:,|\s]+", parts) if len(t) > 1 and t.lower() != subject.lower()
             and not (warning.kind == "number_conflict" and re.fullmatch(r"\d{4}\.\d{4,5}", t))  # the paper, named
             and t not in ("current", "scheme", "name", "id", "card", "ms")
             and not re.fullmatch(r"\d{4}-\d{2}(?:-\d{2})?", t)]  # a promise's due day is ours, not its words
    return subject, terms


# A vault item continues a warning only when it speaks of the same kind of problem.
_KIND_CUES = {
    "title_mismatch": ("标题", "拼写", "拼作", "title", "spell"),
    "version_conflict": ("版本", "version", "release"),
    "promise_open": ("计划", "发布", "承诺", "跳票", "release"),
    "promise_overdue": ("计划", "发布", "承诺", "跳票", "release"),
    "id_conflict": ("号", "编号", "arxiv"),
    "id_malformed": ("号", "格式", "截断", "arxiv"),
}


# Names and figures a reader looks up: "vLLM", "0.12.0", "2609.17863", "H100", "KVarN".
_TOKEN = re.compile(r"\d+(?:\.\d+)+|[A-Za-z][\w.-]*\d[\w.-]*|\d[\w.-]*[A-Za-z][\w.-]*|[A-Za-z][A-Za-z-]{2,}")
_COMMON = frozenset({"the", "and", "for", "with", "not", "arxiv", "http", "https", "inbox", "organized"})


# Tokens every benchmark line shares (hardware, model sizes, precisions, layouts, bare numbers): two entries
# naming "H100" and "8B" are not about one thing. A paper's number or a name is what ties them.
_GENERIC_TOKEN = re.compile(r"(?:\d+[×x])?[a-z]{1,3}\d{2,4}[a-z]?|\d+(?:\.\d+)?[bkmgt]|(?:fp|bf|int|nvfp|mxfp)\d+|"
                            r"(?:tp|pp|ep|dp)\d+|\d+(?:\.\d+)?(?:x|×|%|ms|s|gb|g)?|v?\d+\.\d+(?:\.\d+)*|"
                            # the field's common technology words: every benchmark line may name them
                            r"rdma|roce|roce-?v2|nvme|nvme-?of|cxl|hbm|gpu|gpus|cpu|nvlink|pcie|infiniband|ib|ethernet|"
                            r"mtls|tls|kv|cache|kv-cache|prefill|decode|ttft|tpot|itl|p50|p99|goodput|throughput|latency")


# The vault's own vocabulary: where a paper is filed and how it is ranked, said of any paper.
_VAULT_WORDS = frozenset({"work-queue", "queue", "top", "tier", "paper_card", "card", "living", "brief", "e1prep",
                          "net-new", "register"})


def _tokens(text: str) -> set[str]:
    text = re.sub(r"(?:inbox|organized)/\S+?\.md", " ", text)
    return {t.lower().rstrip(".") for t in _TOKEN.findall(text)} - _COMMON


def _match_caveat(session, warning: BriefWarning, view: AsOf) -> tuple[int, str] | None:  # type: ignore[no-untyped-def]
    """The open entry a scout's caveat restates: its paper, or two names and figures of its quoted words
    (one a figure or version) in the entry's text, more than in any other entry."""
    said = warning.text.split("——", 1)[-1]
    mine = _tokens(said) | ({(warning.subject or "").lower()} if warning.subject else set())
    scored = []
    for number, sightings in _raised_by_number(session, view).items():
        for sighting in sightings:
            shared = mine & _tokens(sighting.text)
            # What ties them: a paper number or a name (not the vault's words: "work-queue Top 0.5" is said of
            # every queued paper).
            tied = any(re.fullmatch(r"\d{4}\.\d{4,5}", t) or not (_GENERIC_TOKEN.fullmatch(t) or t in _VAULT_WORDS)
                       for t in shared)
            if len(shared) >= 2 and any(any(ch.isdigit() for ch in t) for t in shared) and tied:
                scored.append((len(shared), number, sighting.source))
    scored.sort(reverse=True)
    if not scored or (len(scored) > 1 and scored[1][0] == scored[0][0] and scored[1][1] != scored[0][1]):
        return None  # none, or two entries equally close: not sure which one it restates
    return scored[0][1], scored[0][2]


def _match_vault_item(session, warning: BriefWarning, view: AsOf) -> tuple[int, str] | None:  # type: ignore[no-untyped-def]
    if warning.kind == "caveat":
        return _match_caveat(session, warning, view)
    subject, terms = _terms(warning)
    cues = _KIND_CUES.get(warning.kind, ())
    if not subject:
        return None
    best: tuple[int, str, int, str, int] | None = None
    for number, sightings in _raised_by_number(session, view, follow_ups=True).items():
        for sighting in sightings:
            text = re.sub(r"[-_]", " ", sighting.text.lower())  # "agent-managed KV-Cache" holds "agent managed kv cache"
            if subject.lower() not in text:
                continue
            hits = sum(1 for term in terms if term.lower() in text)
            if terms and hits < len(terms) and sighting.source not in view.own_record:
                continue  # every term of the warning must be there, not any one of them (this topic's own
                # record names its entries in short: its subject and the kind's cue are enough)
            if cues and not any(cue in text for cue in cues):
                continue
            hits = max(hits, 1)
            # This topic's own record first: its number for the finding, over another topic's use of one.
            ours = int(sighting.source in view.own_record)
            if hits and (best is None or (ours, hits, sighting.day or "") > (best[4], best[2], best[3])):
                best = (number, sighting.source, hits, sighting.day or "", ours)
    return (best[0], best[1]) if best else None


_ALLOCATION_LOCK = 0x6261746F6E44  # "batonD": the advisory lock that serialises register writes on PostgreSQL


def serialised(session) -> None:  # type: ignore[no-untyped-def]
    """Hold the register's lock for the rest of this transaction (PostgreSQL; SQLite writes one at a time)."""
    if session.get_bind().dialect.name == "postgresql":
        session.execute(sql_text("SELECT pg_advisory_xact_lock(:key)"), {"key": _ALLOCATION_LOCK})


def _vault_rows(session) -> dict[int, RegisterEntryRow]:  # type: ignore[no-untyped-def]
    """The vault's entry of each number (register file, else the first brief): what a number was written for."""
    rows: dict[int, RegisterEntryRow] = {}
    for row in session.scalars(select(RegisterEntryRow).where(RegisterEntryRow.origin != "baton")
                               .order_by(RegisterEntryRow.id)):
        rows.setdefault(row.number, row)
    return rows


def _next_number(session, view: AsOf) -> int:  # type: ignore[no-untyped-def]
    """The number after the highest known as of the brief (the register as it stood at the window's end,
    never a later brief's, never the slot's own), skipping any baton has given already; except in its
    drafts of earlier days the vault's own slot brief records (never the record: their numbers are free)."""
    rows = list(session.scalars(select(RegisterEntryRow)))
    known = [row.number for row in rows if view.raised(row)]
    known += [s.number for s in session.scalars(select(RegisterSightingRow)) if view.sees(s.day, s.moment, s.source)]
    ours = {row.number for row in rows if row.origin == "baton"
            and not (row.thread in view.superseded and (row.raised or "") < (view.day or ""))}
    number = max(known, default=0) + 1
    while number in ours:
        number += 1
    return number


def _allocate(session, thread: str, warning: BriefWarning, carried_from: str | None, day: date,  # type: ignore[no-untyped-def]
              view: AsOf) -> int:
    """A number for a new item: the next one as the register stood at the brief's moment.

    Not the slot's own brief's number for it: that brief is the output being written, never an input.
    """
    serialised(session)  # runs of several topics allocate at once: one allocation at a time
    number = _next_number(session, view)
    session.add(RegisterEntryRow(
        number=number, text=warning.text, risk=warning.risk, kind=warning.kind, raised=day.isoformat(),
        raised_at=view.moment, source=carried_from, origin="baton", thread=thread, key=warning.key,
        subject=warning.subject, status="open"))
    session.flush()
    return number


def assign_numbers(db: Database, thread: str, warnings: Sequence[BriefWarning], as_of: datetime | None = None,
                   exclude: Collection[str] = ()) -> list[BriefWarning]:
    """Give each registrable warning its D-number: its own from a re-run, a carried one, or a new one.

    A carried number is one known as of the brief (``as_of``, its moment; else the thread's date);
    a new one follows the highest ever seen.
    """
    day = date.fromisoformat(thread.rsplit(":", 1)[-1])
    view = _as_of(as_of or day, exclude)
    result = []
    for warning in warnings:
        if warning.kind not in REGISTERED_KINDS or not warning.key or warning.register:
            result.append(warning)
            continue
        for attempt in range(8):
            try:
                with db.session() as session:
                    result.append(_number_one(session, thread, warning, day, view))
                break
            except StoreConflict:
                # Another run took that number first: read the highest again, after a short random pause.
                time.sleep(random.uniform(0, 0.05 * (attempt + 1)))
        else:
            raise StoreError(f"could not allocate a D-number for {warning.key!r} in thread {thread!r}")
    return result


_RENUMBERED = "（该编号另指他事，改编新号）"


def _number_one(session, thread: str, warning: BriefWarning, day: date, view: AsOf) -> BriefWarning:  # type: ignore[no-untyped-def]
    own = session.scalar(select(RegisterEntryRow).where(RegisterEntryRow.thread == thread,
                                                        RegisterEntryRow.key == warning.key))
    if own is not None:  # a re-run of this thread: the number and note it was given the first time
        if own.source and own.source.endswith(_RENUMBERED):
            return warning.model_copy(update={"register": f"D{own.number}",
                                              "renumbered_from": own.source.removesuffix(_RENUMBERED)})
        return warning.model_copy(update={"register": f"D{own.number}", "carried_from": own.source})
    # A number baton gave because the vault's own was taken stays the item's, also where the vault's
    # brief of that day is the record: that brief has no usable number for it.
    unshadowed = replace(view, superseded=frozenset())
    earlier = next((row for row in session.scalars(select(RegisterEntryRow).where(
        RegisterEntryRow.key == warning.key, RegisterEntryRow.raised < day.isoformat(),
    ).order_by(RegisterEntryRow.raised.desc()))
        if (view.raised(row) or ((row.source or "").endswith(_RENUMBERED) and unshadowed.raised(row)))
        and not view.closed(row)), None)
    if earlier is not None:
        return warning.model_copy(update={"register": f"D{earlier.number}",
                                          "carried_from": f"{earlier.thread or 'register'} D{earlier.number}"})
    match = _match_vault_item(session, warning, view)
    if match is not None:
        number, source = match
        row = session.scalar(select(RegisterEntryRow).where(RegisterEntryRow.number == number,
                                                            RegisterEntryRow.origin != "baton")
                             .order_by(RegisterEntryRow.id).limit(1))  # the vault's entry of that number
        canonical = row is not None and (row.source == source or source == REGISTER_PATH)
        if canonical and view.raised(row) and not view.closed(row):
            origin = f"register D{number}" if row.origin == "register" else f"{source} D{number}"
            return warning.model_copy(update={"register": f"D{number}", "carried_from": origin})
        if not canonical and source in view.own_record:
            # This topic's own earlier brief numbered the finding, though another brief gave that number to
            # something else: the topic carries its number (the collision is in the open list), not a new one.
            return warning.model_copy(update={"register": f"D{number}", "carried_from": f"{source} D{number}"})
        if not canonical:
            # A brief wrote this finding under a number that names another thing: a new number, and the
            # note of the one it was written under (not carried: nothing of ours stood under that number).
            written = f"{source} D{number}"
            return warning.model_copy(update={
                "register": f"D{_allocate(session, thread, warning, written + _RENUMBERED, day, view)}",
                "renumbered_from": written})
    return warning.model_copy(update={"register": f"D{_allocate(session, thread, warning, None, day, view)}"})


def open_entries(db: Database, as_of: date | datetime, exclude: Collection[str] = (),
                 superseded: Collection[str] = ()) -> list[OpenEntry]:
    """Entries raised and not closed as of the brief, oldest number first.

    ``as_of``: the brief's moment (raised strictly before it, by no source in ``exclude``) or a date
    (raised on or before it).
    """
    view = _as_of(as_of, exclude)
    if superseded:
        view = AsOf(view.day, view.moment, view.exclude, view.inclusive, view.superseded | frozenset(superseded))
    found = []
    with db.session() as session:
        for row in session.scalars(select(RegisterEntryRow).order_by(RegisterEntryRow.number)):
            if not view.raised(row) or view.closed(row):
                continue
            origin = f"register D{row.number}" if row.origin == "register" else (row.source or row.thread or "")
            found.append(OpenEntry(f"D{row.number}", row.number, row.text, row.risk, row.raised, row.source, origin))
    return found


def closed_on(db: Database, day: date, until: datetime | None = None, exclude: Collection[str] = ()) -> list[dict]:
    """Entries the evidence of ``day`` closed, with that evidence (for the brief's "本轮闭合" line).

    With ``until`` (the window's end), also those another brief of the day closed before it (not one of
    ``exclude``, this slot's own): said as that brief's closure, so an entry never just vanishes.
    """
    with db.session() as session:
        rows = session.scalars(select(RegisterEntryRow).where(RegisterEntryRow.closed == day.isoformat(),
                                                              RegisterEntryRow.status == "closed")
                               .order_by(RegisterEntryRow.number))
        found = []
        for row in rows:
            if row.closed_from is None:
                found.append({"d": f"D{row.number}", "text": row.text, "evidence": row.evidence or ""})
            elif until is not None and row.closed_from not in exclude and (
                    row.closed_at is None or row.closed_at <= utc_moment(until)):
                said = (row.evidence or "").removeprefix(row.closed_from).lstrip("：: ")
                found.append({"d": f"D{row.number}", "text": row.text,
                              "evidence": f"已由 {row.closed_from} 闭合" + (f"：{said}" if said else "（该简报未写依据）")})
        return found


def allocated_in(db: Database, thread: str) -> list[dict]:
    """The entries this thread allocated (new D-numbers), for appending to the register file on approval."""
    with db.session() as session:
        rows = session.scalars(select(RegisterEntryRow).where(RegisterEntryRow.thread == thread,
                                                              RegisterEntryRow.origin == "baton")
                               .order_by(RegisterEntryRow.number))
        return [{"d": f"D{row.number}", "text": row.text, "risk": row.risk or "", "raised": row.raised,
                 "kind": row.kind} for row in rows]


def close_entry(db: Database, number: int, day: date, evidence: str) -> None:
    """Close D``number`` on ``day`` with the evidence that settles it."""
    with db.session() as session:
        row = session.scalar(select(RegisterEntryRow).where(RegisterEntryRow.number == number)
                             .order_by(RegisterEntryRow.id).limit(1))
        if row is None:
            raise StoreError(f"no register entry D{number} to close")
        row.status, row.closed, row.evidence = "closed", day.isoformat(), evidence
