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
from pydantic import ValidationError

from state.errors import ApprovalError, UsageError
from state.graph_state import ACTION_DONE, ResumeValue, RunState, reviewer_name
from state.leases import hold
from state.models import Brief, BriefWarning
from state.runtime import BatonContext
from state.store import sha256_text
from state.tables.approval import DecisionRow
from workflows.api import graph_session, stream_thread
from workflows.changes import BriefChange, change_since_previous

__all__ = ["ReviewView", "Decided", "AlreadyDecided", "ThreadRow", "Unpublished", "parse_thread", "review",
           "approve", "reject", "discard", "dismiss_warning", "pending", "unpublished", "list_threads",
           "warning_line"]

# How long a decision waits for the thread's lease (another decision, or a run, holding it).
DECISION_WAIT = 30.0

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


def _not_waiting_message(ctx: BatonContext, thread: str, refused: str | None = None) -> str:
    """Why the thread takes no decision now; ``refused``: the decision that was asked for (not recorded)."""
    decisions = ctx.store.decisions(thread)
    if not decisions:
        if ctx.store.brief(thread) is None:
            return f"thread {thread!r} has no draft: run `baton run --topic … --date …` first"
        return f"thread {thread!r} is not waiting for approval"
    last = decisions[-1]
    lead = f"thread {thread!r}: your {refused} was not recorded" if refused else \
        f"thread {thread!r} is not waiting for approval"
    what = f"{ACTION_DONE.get(last.action, last.action)} by {last.by} at {last.at:%Y-%m-%d %H:%M} UTC"
    if last.action == "discard":
        return f"{lead}: revision {last.revision} was {what} ({last.reason})"
    if last.action == "approve":
        topic, day = parse_thread(thread)
        where = f", published to {last.published}" if last.published else \
            f"; publishing it did not complete: `baton run --topic {topic} --date {day.isoformat()}` finishes it"
        return f"{lead}: revision {last.revision} was already {what}{where}"
    return f"{lead}: revision {last.revision} was already {what}; run `baton run` again for a revised draft"


def _refuse_not_waiting(ctx: BatonContext, thread: str, refused: str | None = None) -> None:
    decisions = ctx.store.decisions(thread)
    raise AlreadyDecided(_not_waiting_message(ctx, thread, refused), decisions[-1] if decisions else None)


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


def _check_warnings(ctx: BatonContext, thread: str, dismiss: list[tuple[str, str]],
                    confirm: list[str]) -> list[tuple[str, str, str, str | None]]:
    """(id, key, action, reason) of each warning decision asked for; UsageError for an unknown warning."""
    stored = ctx.store.brief(thread)
    known = {w.id: w for w in stored[0].warnings} if stored else {}
    checked = []
    for warning_id, action, reason in [(w, "dismiss", r) for w, r in dismiss] + [(w, "confirm", None) for w in confirm]:
        warning = known.get(warning_id)
        if warning is None:
            raise UsageError(f"{thread!r} has no warning {warning_id!r}; it has: {', '.join(known) or 'none'}")
        checked.append((warning_id, warning.key or f"{warning.kind}:{warning.text}", action, reason))
    return checked


def _interrupt(graph, thread: str) -> dict | None:  # type: ignore[no-untyped-def]
    """The request the waiting approval step showed (its revision), or None when the thread is not waiting."""
    snapshot = graph.get_state({"configurable": {"thread_id": thread}})
    for task in snapshot.tasks if snapshot.next else ():
        for pending_interrupt in task.interrupts:
            value = pending_interrupt.value
            if isinstance(value, list):  # Agent Inbox's shape: a list of one request
                value = value[0] if value else {}
            return dict(value)
    return None


def _validated(**fields: object) -> ResumeValue:
    try:
        return ResumeValue.model_validate(fields)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'value'}: {e['msg']}" for e in exc.errors())
        raise UsageError(f"invalid decision: {problems}") from exc


def _decide(ctx: BatonContext, thread: str, value: ResumeValue,
            warnings: list[tuple[str, str, str, str | None]] | None = None) -> Decided:
    """Record the decision and resume the thread in one guarded step: the thread's lease is held throughout,
    and the revision takes the first decision only (a conditional insert). Says what was recorded; a second
    decision raises AlreadyDecided with the one that stands."""
    _, day = parse_thread(thread)
    config = {"configurable": {"thread_id": thread}}
    with hold(ctx.db, thread, value.action, wait=DECISION_WAIT), graph_session(ctx) as graph:
        shown = _interrupt(graph, thread)
        if shown is None:
            _refuse_not_waiting(ctx, thread, refused=value.action)
        stored = ctx.store.brief(thread)
        markdown = stored[1] if stored else ""
        if value.text == markdown:
            value = value.model_copy(update={"text": None})  # an "edit" that changed nothing is the draft
        text = value.text or markdown
        digest = sha256_text(text)
        if value.action == "approve":
            ctx.store.put_blobs({digest: text})
        row, created = ctx.store.decide(thread, int(shown["revision"]), value.action, value.by,
                                        sha256=digest if value.action == "approve" else None,
                                        reason=value.reason, edited=bool(value.text))
        notes = []
        if created:
            for warning_id, key, action, reason in warnings or []:
                ctx.store.record_warning_decision(thread, day.isoformat(), warning_id, key, action, value.by, reason)
                notes.append(f"{warning_id} {action}ed by {value.by}")
        # A decision recorded by a process that died before resuming is the one finished here.
        resume = value if created else ResumeValue(action=row.action, by=row.by, reason=row.reason, auto=row.auto)
        # The checkpoint keeps the decision's id, not the text: the approved text is a blob by its hash.
        resume = resume.model_copy(update={"decision_id": row.id, "text": None})
        stream_thread(graph, Command(resume=resume.model_dump()), config, ctx)
        state = RunState.model_validate(graph.get_state(config).values)
    if not created:
        what = f"{ACTION_DONE.get(row.action, row.action)} by {row.by} at {row.at:%Y-%m-%d %H:%M} UTC"
        done = f"; now published to {state.published}" if state.published else ""
        raise AlreadyDecided(f"thread {thread!r}: your {value.action} was not recorded: revision {row.revision} "
                             f"was already {what}{done}", row)
    return Decided(thread, row.action, row.revision, row.sha256, state.published, notes)


def approve(ctx: BatonContext, thread: str, by: str, *, edit: Path | None = None, replace: bool = False,
            dismiss: list[tuple[str, str]] | None = None, confirm: list[str] | None = None,
            text: str | None = None) -> Decided:
    """Approve the waiting draft (optionally an edited text: a file ``edit`` or the ``text`` itself) and publish."""
    parse_thread(thread)
    if text is not None and not text.strip():
        raise UsageError("the edited brief is empty")
    if edit is not None:
        try:
            text = edit.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise UsageError(f"cannot read the edited brief {str(edit)!r}: {exc}") from exc
        if not text.strip():
            raise UsageError(f"the edited brief {str(edit)!r} is empty")
    value = _validated(action="approve", by=by, text=text, replace=replace)
    warnings = _check_warnings(ctx, thread, dismiss or [], confirm or [])
    return _decide(ctx, thread, value, warnings)


def reject(ctx: BatonContext, thread: str, by: str, reason: str) -> Decided:
    """Reject the waiting draft with a reason; the next `baton run` of the thread revises it."""
    parse_thread(thread)
    if not reason.strip():
        raise UsageError("--reason must say why the draft is rejected")
    return _decide(ctx, thread, _validated(action="reject", by=by, reason=reason))


def discard(ctx: BatonContext, thread: str, by: str, reason: str) -> Decided:
    """Drop the waiting draft: nothing is published, the thread ends, the decision is recorded with why."""
    parse_thread(thread)
    if not reason.strip():
        raise UsageError("--reason must say why the draft is discarded")
    return _decide(ctx, thread, _validated(action="discard", by=by, reason=reason))


def dismiss_warning(ctx: BatonContext, thread: str, warning_id: str, by: str, reason: str) -> list[str]:
    """Dismiss one warning of a draft with a reason, so later briefs do not raise it again."""
    _, day = parse_thread(thread)
    if not reason.strip():
        raise UsageError("a dismissal needs a reason")
    try:
        by = reviewer_name(by)
    except ValueError as exc:
        raise UsageError(f"invalid decision: by: {exc}") from exc
    notes = []
    for checked_id, key, action, why in _check_warnings(ctx, thread, [(warning_id, reason)], []):
        ctx.store.record_warning_decision(thread, day.isoformat(), checked_id, key, action, by, why)
        notes.append(f"{checked_id} {action}ed by {by}")
    return notes


@dataclass
class Unpublished:
    """An approved draft whose publishing did not complete, and the command that finishes it."""

    thread: str
    revision: int
    by: str
    command: str


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


def unpublished(ctx: BatonContext) -> list[Unpublished]:
    """Approved threads that are not published yet (publishing failed or was killed)."""
    found: dict[str, Unpublished] = {}
    with graph_session(ctx) as graph:
        for row in ctx.store.unpublished_approvals():
            snapshot = graph.get_state({"configurable": {"thread_id": row.thread}})
            if "publish" in (snapshot.next or ()):
                topic, day = parse_thread(row.thread)
                found[row.thread] = Unpublished(row.thread, row.revision, row.by,
                                                f"baton run --topic {topic} --date {day.isoformat()}")
    return list(found.values())


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
                status = ACTION_DONE.get(decisions[-1].action, decisions[-1].action)
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
