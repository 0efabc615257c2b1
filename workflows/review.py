"""Human approval from outside the graph: review, approve, reject, pending — across process restarts.

The checkpoint is the only memory of a waiting thread: each function opens
the graph, reads the thread's state, and resumes it with ``Command(resume=…)``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from langgraph.types import Command

from state.errors import ApprovalError, UsageError
from state.graph_state import RunState
from state.models import Brief, BriefWarning
from state.runtime import BatonContext
from state.tables.approval import DecisionRow
from workflows.api import graph_session
from workflows.changes import BriefChange, change_since_previous

__all__ = ["ReviewView", "Decided", "AlreadyDecided", "ThreadRow", "parse_thread", "review", "approve",
           "reject", "discard", "dismiss_warning", "pending", "list_threads", "warning_line"]

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


class AlreadyDecided(ApprovalError):
    """A decision on a thread that is no longer waiting: ``decision`` is the one that stands (if any)."""

    def __init__(self, message: str, decision: DecisionRow | None) -> None:
        super().__init__(message)
        self.decision = decision


@dataclass
class ReviewView:
    """What a reviewer sees: the draft, its warnings, and what changed since the previous day's brief."""

    thread: str
    revision: int
    waiting: bool
    markdown: str
    brief: Brief
    change: BriefChange
    decisions: list[DecisionRow] = field(default_factory=list)

    @property
    def previous(self) -> str | None:
        """What the change is computed against (a thread or a vault path), if anything."""
        return self.change.previous

    @property
    def warnings(self) -> list[str]:
        """Every warning of the brief, one line each (the brief's own count)."""
        return [warning_line(w) for w in self.brief.warnings]

    def select_warnings(self, kinds: list[str] | None = None, new_only: bool = False) -> list[BriefWarning]:
        """The warnings of the given kinds (all when none), only those raised today when ``new_only``."""
        return [w for w in self.brief.warnings
                if (not kinds or w.kind in kinds) and not (new_only and w.carried_from)]


def warning_line(w: BriefWarning) -> str:
    """A warning as one line: id, D-number, kind, text."""
    return f"{w.id}{' ' + w.register if w.register else ''} [{w.kind}] {w.text}"


@dataclass
class ThreadRow:
    """One thread in the list of pending and past briefs."""

    thread: str
    topic: str
    day: str
    executor: str
    status: str  # waiting | approved | rejected | discarded | running | failed | draft
    revision: int
    warnings: int
    increments: int
    updated: datetime | None
    decisions: list[DecisionRow] = field(default_factory=list)

    def age(self, now: datetime | None = None) -> str:
        """How long ago the draft was last written, e.g. ``3h`` or ``2d``."""
        if self.updated is None:
            return "—"
        then = self.updated if self.updated.tzinfo else self.updated.replace(tzinfo=UTC)
        seconds = max(0, int(((now or datetime.now(UTC)) - then).total_seconds()))
        for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
            if seconds >= size:
                return f"{seconds // size}{unit}"
        return f"{seconds}s"


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
    if last.action == "discard":
        return f"thread {thread!r} is not waiting for approval: revision {last.revision} was discarded by " \
               f"{last.by} at {last.at:%Y-%m-%d %H:%M} UTC ({last.reason})"
    if last.action == "approve":
        where = f", published to {last.published}" if last.published else ""
        return f"thread {thread!r} is not waiting for approval: revision {last.revision} was already {what}{where}"
    return f"thread {thread!r} is not waiting for approval: revision {last.revision} was {what}; " \
           f"run `baton run` again for a revised draft"


def _refuse_not_waiting(ctx: BatonContext, thread: str) -> None:
    decisions = ctx.store.decisions(thread)
    raise AlreadyDecided(_not_waiting_message(ctx, thread), decisions[-1] if decisions else None)


def review(ctx: BatonContext, thread: str) -> ReviewView:
    """The draft, its warnings and the item-level change against the previous day's brief of the slot."""
    topic, day = parse_thread(thread)
    stored = ctx.store.brief(thread)
    if stored is None:
        raise ApprovalError(f"thread {thread!r} has no draft: run `baton run --topic {topic} --date {day}` first")
    brief, markdown, revision = stored
    with graph_session(ctx) as graph:
        waiting = _waiting(graph, thread)
    return ReviewView(thread, revision, waiting, markdown, brief, change_since_previous(ctx, brief),
                      ctx.store.decisions(thread))


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
            _refuse_not_waiting(ctx, thread)
        for _ in graph.stream(Command(resume=resume), config, context=ctx, stream_mode="updates",
                              durability="sync"):
            pass
        return RunState.model_validate(graph.get_state(config).values)


def approve(ctx: BatonContext, thread: str, by: str, *, edit: Path | None = None, replace: bool = False,
            dismiss: list[tuple[str, str]] | None = None, confirm: list[str] | None = None,
            text: str | None = None) -> Decided:
    """Approve the waiting draft (optionally an edited text: a file ``edit`` or the ``text`` itself) and publish."""
    _, day = parse_thread(thread)
    if not by.strip():
        raise UsageError("--by needs the reviewer's name")
    if text is not None and not text.strip():
        raise UsageError("the edited brief is empty")
    if edit is not None:
        try:
            text = edit.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the edited brief {str(edit)!r}: {exc}") from exc
        if not text.strip():
            raise UsageError(f"the edited brief {str(edit)!r} is empty")
    with graph_session(ctx) as graph:
        if not _waiting(graph, thread):
            _refuse_not_waiting(ctx, thread)
    notes = _decide_warnings(ctx, thread, day, by, dismiss or [], confirm or [])
    state = _resume(ctx, thread, {"action": "approve", "by": by, "text": text, "replace": replace})
    decision = state.decision or {}
    return Decided(thread, "approve", decision.get("revision", 0), decision.get("sha256"), state.published, notes)


def reject(ctx: BatonContext, thread: str, by: str, reason: str) -> Decided:
    """Reject the waiting draft with a reason; the next `baton run` of the thread revises it."""
    parse_thread(thread)
    if not reason.strip():
        raise UsageError("--reason must say why the draft is rejected")
    if not by.strip():
        raise UsageError("--by needs the reviewer's name")
    state = _resume(ctx, thread, {"action": "reject", "by": by, "reason": reason})
    decision = state.decision or {}
    return Decided(thread, "reject", decision.get("revision", 0))


def discard(ctx: BatonContext, thread: str, by: str, reason: str) -> Decided:
    """Drop the waiting draft: nothing is published, the thread ends, the decision is recorded with why."""
    parse_thread(thread)
    if not reason.strip():
        raise UsageError("--reason must say why the draft is discarded")
    if not by.strip():
        raise UsageError("--by needs the reviewer's name")
    state = _resume(ctx, thread, {"action": "discard", "by": by, "reason": reason})
    decision = state.decision or {}
    return Decided(thread, "discard", decision.get("revision", 0))


def dismiss_warning(ctx: BatonContext, thread: str, warning_id: str, by: str, reason: str) -> list[str]:
    """Dismiss one warning of a draft with a reason, so later briefs do not raise it again."""
    _, day = parse_thread(thread)
    if not reason.strip():
        raise UsageError("a dismissal needs a reason")
    if not by.strip():
        raise UsageError("--by needs the reviewer's name")
    return _decide_warnings(ctx, thread, day, by, [(warning_id, reason)], [])


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


_STATUS_OF_ACTION = {"approve": "approved", "reject": "rejected", "discard": "discarded"}


def list_threads(ctx: BatonContext) -> list[ThreadRow]:
    """Every thread with a draft, newest day first: its status, decisions, warning count and age."""
    rows = []
    runs = ctx.store.last_runs()
    with graph_session(ctx) as graph:
        for thread, brief, revision in ctx.store.all_briefs():
            decisions = ctx.store.decisions(thread)
            run = runs.get(thread)
            if _waiting(graph, thread):
                status = "waiting"
            elif run is not None and run.status in ("running", "failed"):
                status = run.status
            elif decisions:
                status = _STATUS_OF_ACTION.get(decisions[-1].action, decisions[-1].action)
            else:
                status = "draft"
            updated = (run.finished or run.started) if run is not None else None
            rows.append(ThreadRow(thread, brief.topic, brief.date, brief.executor, status, revision,
                                  len(brief.warnings), len(brief.increments), updated, decisions))
    rows.sort(key=lambda r: (r.day, r.topic), reverse=True)
    return rows


def show_lines(ctx: BatonContext, thread: str) -> list[str]:
    """One thread as lines: its draft's figures, every run and every decision (``baton show``)."""
    parse_thread(thread)
    row = next((r for r in list_threads(ctx) if r.thread == thread), None)
    if row is None:
        raise ApprovalError(f"thread {thread!r} has no draft: run `baton run` first (see `baton list`)")
    lines = [f"thread {row.thread} · {row.topic} · {row.day} · executor {row.executor}",
             f"status {row.status} · revision {row.revision} · {row.increments} increments · "
             f"{row.warnings} warnings · updated {row.age()} ago"]
    for run in ctx.store.runs(thread):
        took = f" {run.seconds:.1f}s" if run.seconds is not None else ""
        error = f" — {run.error}" if run.error else ""
        lines.append(f"run {run.id} {run.mode} {run.status} {run.started:%Y-%m-%d %H:%M} UTC{took}{error}")
    for d in row.decisions:
        extra = f" — {d.reason}" if d.reason else ""
        extra += f" → {d.published}" if d.published else ""
        extra += " (edited)" if d.edited else ""
        lines.append(f"{d.action} r{d.revision} by {d.by} at {d.at:%Y-%m-%d %H:%M} UTC{extra}")
    return lines
