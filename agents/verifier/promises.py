"""Dated promises ("计划于 2026-09 发布"): tracked from the day first seen, open until due, overdue after.

A promise is kept in the store from the first note that makes it (also from
the vault's history, so a fresh store knows it); a later source that says it
happened confirms it and closes its register entry with that evidence. All
"as of" uses the brief's date, never the clock.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Mapping, Sequence
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from rapidfuzz import fuzz
from sqlalchemy import or_, select, update

from agents.scanner.briefs import is_brief_name
from agents.scanner.delivery import partial_in
from agents.scanner.derived import Derivation, decode_mentions, derive_many, encode_mentions, from_wall, wall
from agents.scanner.excerpt import excerpt
from agents.scanner.mentions import MENTIONS_FORMAT, PLATFORM, extract_mentions
from agents.scanner.notes import VaultFile, in_path_order, parse_note_name
from agents.verifier.names import PROPER_NAME
from agents.verifier.register import OpenEntry, serialised
from state.db import Database
from state.models import BriefWarning, Mention
from state.tables.register import PromiseRow, RegisterEntryRow

__all__ = [
    "promise_past", "overdue_entry",
    "promise_subject","PROMISE_HISTORY_DAYS", "track_promises", "track_promise_history", "promise_warnings"]

PROMISE_HISTORY_DAYS = 31  # a fresh store learns the promises of the notes of this many days before the window
_DONE = re.compile(r"已(?:经)?(?:正式)?(?:发布|开源|上线|放出|公开|兑现)|发布了|开源了|上线了|放了代码|代码放出|放出来了|"
                   r"(?:按时)?兑现了|终于(?:放|发)了?|放了\s*v?\d|released|is out|now available|shipped|"
                   r"github\.com/[\w.-]+/[\w.-]+/releases/tag/",
                   re.IGNORECASE)
_NOT_DONE = re.compile(r"仍(?:然)?(?:没|未)|尚未|还没|没有任何|未见|跳票|not (?:yet )?released|no release", re.IGNORECASE)


def _promise_words(mention: Mention) -> str:
    pos = mention.context.find(mention.raw)
    tail = mention.context[pos + len(mention.raw):] if pos >= 0 else mention.context
    tail = re.split(r"[。；;\"”」]", tail)[0]
    return " ".join(w for w in re.split(r"[^a-z0-9]+", tail.lower()) if w)


def track_promises(db: Database, mentions: Sequence[Mention], day: date) -> dict[str, str]:
    """Record each dated promise the first day it is seen; record a later source that confirms one.

    A release its source says kept only part of the promise ("单机 ✅ + serving ❌") confirms nothing: the
    promise stays open (or overdue) and is returned, key → "where it shipped; what did not", for its warning."""
    partial: dict[str, str] = {}
    with db.session() as session:
        serialised(session)  # two topics' runs record the same promise at once: one inserts, the other sees it
        rows = list(session.scalars(select(PromiseRow)))
        for mention in mentions:
            if mention.kind != "promise":
                continue
            words = _promise_words(mention)
            if not words:  # no Latin words to match a later release by: the sentence itself names it
                words = "#" + hashlib.sha256(mention.context.encode("utf-8")).hexdigest()[:12]
            due = str(mention.detail.get("due"))
            key = f"{due}|{words}"
            who = promise_subject(mention.context)
            # One promise however often it is restated: same words, or the same promiser for the same date.
            same = next((r for r in rows if r.key == key or (r.due == due and (
                (not words.startswith("#") and fuzz.token_set_ratio(r.key.split("|", 1)[1], words) >= 80)
                or (who is not None and promise_subject(r.text) == who)))), None)
            if same is None:
                row = PromiseRow(key=key, text=mention.context, due=due, when=mention.value,
                                 first_seen=day.isoformat(), source=mention.source)
                session.add(row)
                rows.append(row)
            elif same.first_seen > day.isoformat():
                same.first_seen, same.source, same.text = day.isoformat(), mention.source, mention.context
        for row in rows:
            if row.first_seen > day.isoformat() or (row.confirmed_on and row.confirmed_on <= day.isoformat()):
                continue  # an earlier confirmation (a backfill can bring one) replaces a later one
            words = set(row.key.split("|", 1)[1].split())
            who = (promise_subject(row.text) or "").lower()
            for mention in mentions:
                # A section saying a part was delivered ("只交了一半", "单机 ✅ + serving ❌") speaks of a release.
                half = bool(mention.detail.get("half")) and mention.source != row.source
                if mention.kind == "promise" and (mention.source == row.source or not (_DONE.search(mention.context)
                                                                                       or half)):
                    continue  # a line restating the promise is no evidence it was kept, unless it says it was
                context = mention.context
                found = set(re.split(r"[^a-z0-9]+", context.lower()))
                # What was promised (most of its words), or who promised it ("C2C … releases/tag/v0.1.0").
                named = (words and len(words & found) >= max(1, len(words) // 2)) or (len(who) >= 3 and who in found)
                if named and (_DONE.search(context) or half) and not _NOT_DONE.search(context):
                    own = partial_in([context])
                    missing = mention.detail.get("partial") or (own.line if own else None)
                    if missing:
                        partial.setdefault(row.key, f"{mention.source} L{mention.line}：「{excerpt(context, 80)}」；"
                                                    f"未兑现部分：「{excerpt(str(missing), 150)}」")
                        continue
                    row.confirmed_by, row.confirmed_on = mention.source, day.isoformat()
                    # The day's evidence settles the promise: its register entry closes with that evidence.
                    session.execute(
                        update(RegisterEntryRow)
                        .where(RegisterEntryRow.key == f"promise:{row.key}",
                               or_(RegisterEntryRow.status == "open", RegisterEntryRow.closed > day.isoformat()))
                        .values(status="closed", closed=day.isoformat(),
                                evidence=f"{mention.source} L{mention.line}：{context[:160]}"))
                    break
    return partial


def _with_subject(mention: Mention, lines: list[str], first_line: int = 1) -> Mention:
    """A promise quoted with the head of its line (a note's item), which names what is promised.

    The sentence alone often does not: "C2C 让 LLM 之间…。据 VentureBeat 报道，研究团队计划于 2026-09 发布…"
    is quoted "C2C 让 LLM 之间直接传递 KV Cache…据 VentureBeat 报道，研究团队计划于 2026-09 发布…".
    """
    index = mention.line - first_line
    if mention.kind != "promise" or not 0 <= index < len(lines):
        return mention
    line = lines[index].strip().lstrip("-*•>").strip()
    head = re.split(r"[，,。；;：:]", line, maxsplit=1)[0].strip()
    if not head or mention.context.startswith(head) or len(head) > 60:
        return mention
    return mention.model_copy(update={"context": f"{head}…{mention.context}"})


def track_promise_history(db: Database, root: Path, tz: ZoneInfo, before: datetime,
                          days: int = PROMISE_HISTORY_DAYS) -> int:
    """Track the promises and confirmations of the inbox notes written in the ``days`` days before ``before``.

    So that a fresh store knows what the vault promised before the window (``before``: the window
    start). Each day's notes go to ``track_promises`` in date order, first seen on the note's date.
    Briefs (``*-e1prep``, baton's ``.baton.md``) are skipped: they digest the notes read here.
    Each note's mentions are kept by the run's vault index (an unchanged note is not read again).
    Returns how many notes were read.
    """
    since = before - timedelta(days=days)
    by_day: dict[date, list[Mention]] = {}
    read = 0
    paths = []
    for path in in_path_order((root / "inbox").glob("*/*.md")):
        name = parse_note_name(path.name)
        if name.day is None or not since.date() <= name.day <= before.date():
            continue
        if is_brief_name(path.name) or path.name.endswith(".baton.md"):
            continue
        paths.append(path)
    for found in derive_many(root, paths, tz, note_promises_derivation(tz)):
        if found is None or not since <= found[0] < before:
            continue
        read += 1
        by_day.setdefault(found[0].astimezone(tz).date(), []).extend(found[1])
    for day in sorted(by_day):
        track_promises(db, by_day[day], day)
    return read


def _note_promises(file: VaultFile) -> tuple[datetime, list[Mention]] | None:
    """A note's time and its mentions as the history reads them (a promise with the head of its line)."""
    if file.time is None or file.text is None:
        return None
    lines = file.body.split("\n")
    return file.time, [_with_subject(m, lines, file.body_line)
                       for m in extract_mentions(file.path, file.body, file.body_line)]


_PROMISES_FORMAT = 1


@functools.lru_cache(maxsize=8)
def note_promises_derivation(tz: ZoneInfo) -> Derivation[tuple[datetime, list[Mention]] | None]:
    """How the vault index keeps ``_note_promises`` (bump ``_PROMISES_FORMAT`` when it changes; a change of
    the mentions' extraction is followed through ``MENTIONS_FORMAT``)."""

    def encode(value: tuple[datetime, list[Mention]] | None) -> object:
        return None if value is None else [wall(value[0], tz), encode_mentions(value[1])]

    def decode(raw: object) -> tuple[datetime, list[Mention]] | None:
        if raw is None:
            return None
        when, mentions = raw  # type: ignore[misc]
        return from_wall(when, tz), decode_mentions(mentions)  # type: ignore[return-value]

    return Derivation("note_promises", f"{_PROMISES_FORMAT}+m{MENTIONS_FORMAT}", _note_promises, encode, decode)


_RELAY = re.compile(r"(?:据|根据|来自|转引|援引|引自|according to|per|via|reported by|citing)\s*$", re.IGNORECASE)
_RELAY_CLAUSE = re.compile(r"(?:据|根据|来自|援引|according to|per|via|reported by|citing)[^，,。；;]*?(?:报道|称|消息)?[，,]",
                           re.IGNORECASE)
_COMMON = frozenset({"The", "This", "That", "A", "An", "In", "On", "By", "It", "We", "They", "According"})
_LEADS = re.compile(r"计划|预计|将于|将在|会在|会于|要在|承诺|拟于|拟在|预定|宣布将|表示将|表示会|准备|打算|争取|有望|预告|"
                    r"plans? to|will (?:ship|release|open)|targets?|expects? to|aims? to",
                    re.IGNORECASE)


def promise_subject(text: str) -> str | None:
    """Who or what promises: the first name before the promise words that is not a relay ("据 VentureBeat")."""
    lead = _LEADS.search(text)
    before = text[: lead.start()] if lead else text
    before = _RELAY_CLAUSE.sub(" ", before)  # "据 VentureBeat 报道，" / "According to The Verge," relay, not promise
    # The words quoted first ("Nimbic 发布会原话：\"HelixRoute 网关将于…\"", "Orbis 在大会上说：Quillgate 将于…":
    # HelixRoute, Quillgate promise, not the event's host or the speaker); then the whole line.
    quoted = re.split(r"[「『“\"]|(?:说|表示|称|原话|宣布|写道|提到|says|said|announced)\s*[：:]", before)
    for part in ([quoted[-1]] if len(quoted) > 1 else []) + [before]:
        for match in PROPER_NAME.finditer(part):
            name = match.group(1)
            # Not where the promise is said ("作者在 GitHub issue 里回复"): who makes it.
            if not any(c.isupper() for c in name) or name in _COMMON or PLATFORM.fullmatch(name) \
                    or _RELAY.search(part[: match.start()]):
                continue
            return name
    return None


def kept_on(db: Database, day: date) -> list[dict]:
    """Promises the evidence of ``day`` shows kept, that no register entry of baton's closes (one carried under
    the vault's own number, say): for the brief's "本轮闭合" line, so a kept promise is said, not just dropped."""
    with db.session() as session:
        numbered = {key.removeprefix("promise:") for key in session.scalars(
            select(RegisterEntryRow.key).where(RegisterEntryRow.key.like("promise:%")))}
        rows = session.scalars(select(PromiseRow).where(PromiseRow.confirmed_on == day.isoformat())
                               .order_by(PromiseRow.due, PromiseRow.id))
        return [{"d": "承诺兑现", "text": f"「{row.text[:90]}」（{row.source}，{row.first_seen} 首见，期限 {row.when}）",
                 "evidence": row.confirmed_by or ""} for row in rows if row.key not in numbered]


def promise_warnings(db: Database, day: date, partial: Mapping[str, str] | None = None) -> list[BriefWarning]:
    """``promise_open`` while a tracked promise's date has not passed, ``promise_overdue`` after it; ``partial``:
    promises the day's evidence shows kept only in part (``track_promises``), said so with both parts."""
    partial = partial or {}
    warnings = []
    with db.session() as session:
        for row in session.scalars(select(PromiseRow).order_by(PromiseRow.due, PromiseRow.id)):
            if row.first_seen > day.isoformat():
                continue
            if row.confirmed_by and row.confirmed_on and row.confirmed_on <= day.isoformat():
                continue
            quote = row.text if len(row.text) <= 160 else row.text[:159] + "…"
            part = partial.get(row.key)
            if part and day.isoformat() <= row.due:
                kind, risk = "promise_open", "低"
                text = (f"承诺「{quote}」（{row.source}，{row.first_seen} 首见）期限 {row.when}，截至 {day} 只部分兑现："
                        f"{part}。")
                action = f"已兑现部分可锚；未兑现部分 {row.due} 后复查，不写成已完整发布"
            elif part:
                kind, risk = "promise_overdue", "中"
                text = (f"承诺「{quote}」（{row.source}，{row.first_seen} 首见）期限 {row.when} 已过（截至 {day}），"
                        f"只部分兑现：{part}。")
                action = "已兑现部分可锚；未兑现部分降级为待观察，不锚定时间线，不写成已完整发布"
            elif day.isoformat() <= row.due:
                kind, risk = "promise_open", "低"
                text = f"承诺「{quote}」（{row.source}，{row.first_seen} 首见）期限 {row.when}，截至 {day} 尚未到期，未见兑现。"
                action = f"{row.due} 后复查是否发布"
            else:
                kind, risk = "promise_overdue", "中"
                text = f"承诺「{quote}」（{row.source}，{row.first_seen} 首见）期限 {row.when} 已过（截至 {day}），未见任何来源确认发布。"
                action = "降级为待观察，不锚定时间线；见到发布再恢复"
            warnings.append(BriefWarning(id="", kind=kind, text=text, risk=risk, action=action, sources=[row.source],
                                         subject=promise_subject(row.text) or row.when,
                                         key=f"promise:{row.key}"))
    return warnings


_PROMISE_WORDS = re.compile(r"承诺|计划于?|预计|将于|promise|planned|target", re.IGNORECASE)
_DAY_IN_TEXT = re.compile(r"(?<!\d)(20\d\d)-(\d\d)-(\d\d)(?!\d)")


def promise_past(text: str, day: date) -> str:
    """An open entry tracking a dated promise whose day has passed as of the brief says so (the entry itself was
    written before the day: "Mooncake Store v1.0 GA "2026-10-11" 承诺" read on 10-12)."""
    if not _PROMISE_WORDS.search(text) or "已过" in text:
        return text
    due = []
    for y, m, d in _DAY_IN_TEXT.findall(text):
        try:
            due.append(date(int(y), int(m), int(d)))
        except ValueError:
            continue  # "2026-02-31" names no day
    if not due or max(due) >= day:
        return text
    return f"{text}（承诺日期 {max(due).isoformat()} 已过，截至 {day.isoformat()} 未见闭合记录：按逾期跟进，勿作已兑现）"


_SLIPPED = re.compile(r"跳票|TBD|延期|推迟|没有?\s*(?:v?[\d.]+\s*)?tag|未(?:见)?发布|还没(?:发|放)|仍是|\bslipp?ed\b|"
                      r"\bpostponed\b|\bno (?:release|tag)\b", re.IGNORECASE)


def overdue_entry(entry: OpenEntry, files: Sequence[VaultFile], day: date, index: int) -> BriefWarning:
    """``promise_overdue`` for an open entry whose promised day has passed, carried under its number, with the
    window's line saying it slipped where one names the promise's subject."""
    subject = promise_subject(entry.text) or (re.findall(r"[A-Za-z][\w.+-]{2,}", entry.text) or [entry.d])[0]
    said = next(((f.path, n, line.strip()) for f in files if f.path.startswith("inbox/") and f.body
                 for n, line in enumerate(f.body.split("\n"), start=f.body_line)
                 if subject.lower() in line.lower() and _SLIPPED.search(line)), None)
    text = promise_past(entry.text, day)
    if said is not None:
        text += f"；今日来源：{said[0]} L{said[1]}：「{excerpt(said[2], 100)}」"
    return BriefWarning(id=f"W{index}", register=entry.d, kind="promise_overdue", text=f"{text}。", risk="中",
                        action="升级为逾期（跳票）跟进，不锚定时间线，不写成已兑现；见到发布再闭合",
                        sources=[s for s in (entry.source, said[0] if said else None) if s],
                        carried_from=entry.carried_from or f"register {entry.d}", subject=subject,
                        key=f"promise_overdue:register:{entry.d}")
