"""Human approval from outside the graph: review, approve, reject, pending — across process restarts.

The checkpoint is the only memory of a waiting thread: each function opens
the graph, reads the thread's state, and resumes it with ``Command(resume=…)``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

from langgraph.types import Command

from state.errors import ApprovalError, UsageError
from state.graph_state import RunState
from state.runtime import BatonContext
from workflows.api import graph_session

__all__ = ["ReviewView", "Decided", "parse_thread", "review", "approve", "reject", "pending"]

_THREAD = re.compile(r"^(?P<topic>[\w.-]+):(?P<day>\d{4}-\d{2}-\d{2})$")


def parse_thread(thread: str) -> tuple[str, date]:
    """Split ``inference:2026-09-29``; raise UsageError for anything else."""
    match = _THREAD.match(thread.strip())
    if not match:
        raise UsageError(f"{thread!r} is not a thread id (TOPIC:YYYY-MM-DD, e.g. inference:2026-09-29)")
    try:
        return match.group("topic"), date.fromisoformat(match.group("day"))
    except ValueError as exc:
        raise UsageError(f"{thread!r}: {exc}") from exc


@dataclass
class ReviewView:
    """What a reviewer sees."""

    thread: str
    revision: int
    waiting: bool
    markdown: str
    warnings: list[str]
    previous: str | None
    diff: str


@dataclass
class Decided:
    """The result of approve/reject."""

    thread: str
    action: str
    revision: int
    sha256: str | None = None
    published: str | None = None
    notes: list[str] = field(default_factory=list)


def _waiting(graph, thread: str) -> bool:  # type: ignore[no-untyped-def]
    snapshot = graph.get_state({"configurable": {"thread_id": thread}})
    return bool(snapshot.next) and any(task.interrupts for task in snapshot.tasks)


def _not_waiting_message(ctx: BatonContext, thread: str) -> str:
    decisions = ctx.store.decisions(thread)
    if not decisions:
        if ctx.store.brief(thread) is None:
            return f"thread {thread!r} has no draft: run `baton run --topic … --date …` first"
        return f"thread {thread!r} is not waiting for approval"
    last = decisions[-1]
    what = f"{'approved' if last.action == 'approve' else 'rejected'} by {last.by} at {last.at:%Y-%m-%d %H:%M} UTC"
    if last.action == "approve":
        where = f", published to {last.published}" if last.published else ""
        return f"thread {thread!r} is not waiting for approval: revision {last.revision} was already {what}{where}"
    return f"thread {thread!r} is not waiting for approval: revision {last.revision} was {what}; " \
           f"run `baton run` again for a revised draft"


def _previous_brief(ctx: BatonContext, topic: str, day: date) -> Path | None:
    executor = ctx.config.topic(topic).executor
    stem = f"{(day - timedelta(days=1)).isoformat()}-{topic}-e1prep"
    for name in (f"{stem}.baton.md", f"{stem}.md"):
        path = ctx.settings.vault / "inbox" / executor / name
        if path.is_file():
            return path
    return None


def review(ctx: BatonContext, thread: str) -> ReviewView:
    """The draft, its warnings and the diff against the previous day's brief of the slot."""
    topic, day = parse_thread(thread)
    stored = ctx.store.brief(thread)
    if stored is None:
        raise ApprovalError(f"thread {thread!r} has no draft: run `baton run --topic {topic} --date {day}` first")
    brief, markdown, revision = stored
    with graph_session(ctx) as graph:
        waiting = _waiting(graph, thread)
    previous = _previous_brief(ctx, topic, day)
    old = previous.read_text(encoding="utf-8", errors="replace") if previous else ""
    diff = "".join(difflib.unified_diff(
        old.splitlines(keepends=True), markdown.splitlines(keepends=True),
        fromfile=previous.relative_to(ctx.settings.vault).as_posix() if previous else "(no previous brief)",
        tofile=f"draft {thread} r{revision}", n=1))
    warnings = [f"{w.id}{' ' + w.register if w.register else ''} [{w.kind}] {w.text}" for w in brief.warnings]
    return ReviewView(thread, revision, waiting, markdown, warnings,
                      previous.relative_to(ctx.settings.vault).as_posix() if previous else None, diff)


def _decide_warnings(ctx: BatonContext, thread: str, day: date, by: str,
                     dismiss: list[tuple[str, str]], confirm: list[str]) -> list[str]:
    stored = ctx.store.brief(thread)
    known = {w.id: w for w in stored[0].warnings} if stored else {}
    notes = []
    for warning_id, action, reason in [(w, "dismiss", r) for w, r in dismiss] + [(w, "confirm", None) for w in confirm]:
        warning = known.get(warning_id)
        if warning is None:
            raise UsageError(f"{thread!r} has no warning {warning_id!r}; it has: {', '.join(known) or 'none'}")
        key = warning.key or f"{warning.kind}:{warning.text}"
        ctx.store.record_warning_decision(thread, day.isoformat(), warning_id, key, action, by, reason)
        notes.append(f"{warning_id} {action}ed by {by}")
    return notes


def _resume(ctx: BatonContext, thread: str, resume: dict) -> RunState:
    config = {"configurable": {"thread_id": thread}}
    with graph_session(ctx) as graph:
        if not _waiting(graph, thread):
            raise ApprovalError(_not_waiting_message(ctx, thread))
        for _ in graph.stream(Command(resume=resume), config, context=ctx, stream_mode="updates",
                              durability="sync"):
            pass
        return RunState.model_validate(graph.get_state(config).values)


def approve(ctx: BatonContext, thread: str, by: str, *, edit: Path | None = None, replace: bool = False,
            dismiss: list[tuple[str, str]] | None = None, confirm: list[str] | None = None) -> Decided:
    """Approve the waiting draft (optionally an edited text) and publish it."""
    _, day = parse_thread(thread)
    if not by.strip():
        raise UsageError("--by needs the reviewer's name")
    text = None
    if edit is not None:
        try:
            text = edit.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the edited brief {str(edit)!r}: {exc}") from exc
        if not text.strip():
            raise UsageError(f"the edited brief {str(edit)!r} is empty")
    with graph_session(ctx) as graph:
        if not _waiting(graph, thread):
            raise ApprovalError(_not_waiting_message(ctx, thread))
    notes = _decide_warnings(ctx, thread, day, by, dismiss or [], confirm or [])
    state = _resume(ctx, thread, {"action": "approve", "by": by, "text": text, "replace": replace})
    decision = state.decision or {}
    return Decided(thread, "approve", decision.get("revision", 0), decision.get("sha256"), state.published, notes)


def reject(ctx: BatonContext, thread: str, by: str, reason: str) -> Decided:
    """Reject the waiting draft with a reason; the next `baton run` of the thread revises it."""
    parse_thread(thread)
    if not reason.strip():
        raise UsageError("--reason must say why the draft is rejected")
    state = _resume(ctx, thread, {"action": "reject", "by": by, "reason": reason})
    decision = state.decision or {}
    return Decided(thread, "reject", decision.get("revision", 0))


def pending(ctx: BatonContext) -> list[tuple[str, int]]:
    """Threads waiting for a decision, with their draft revision."""
    threads = ctx.store.threads_with_pending_runs()
    waiting = []
    with graph_session(ctx) as graph:
        for thread in threads:
            if _waiting(graph, thread):
                stored = ctx.store.brief(thread)
                waiting.append((thread, stored[2] if stored else 0))
    return waiting
