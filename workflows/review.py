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
from pydantic import ValidationError

from state.errors import ApprovalError, UsageError
from state.graph_state import ResumeValue, RunState
from state.leases import hold
from state.runtime import BatonContext
from state.store import sha256_text
from workflows.api import graph_session, stream_thread

__all__ = ["ReviewView", "Decided", "Unpublished", "parse_thread", "review", "approve", "reject", "pending",
           "unpublished"]

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
    what = f"{'approved' if last.action == 'approve' else 'rejected'} by {last.by} at {last.at:%Y-%m-%d %H:%M} UTC"
    if last.action == "approve":
        topic, day = parse_thread(thread)
        where = f", published to {last.published}" if last.published else \
            f"; publishing it did not complete: `baton run --topic {topic} --date {day.isoformat()}` finishes it"
        return f"{lead}: revision {last.revision} was already {what}{where}"
    return f"{lead}: revision {last.revision} was already {what}; run `baton run` again for a revised draft"


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
    """The value the waiting approval step showed (its revision), or None when the thread is not waiting."""
    snapshot = graph.get_state({"configurable": {"thread_id": thread}})
    for task in snapshot.tasks if snapshot.next else ():
        for pending_interrupt in task.interrupts:
            return dict(pending_interrupt.value)
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
    and the revision takes the first decision only (a conditional insert). Says what was recorded."""
    _, day = parse_thread(thread)
    config = {"configurable": {"thread_id": thread}}
    with hold(ctx.db, thread, value.action, wait=DECISION_WAIT), graph_session(ctx) as graph:
        shown = _interrupt(graph, thread)
        if shown is None:
            raise ApprovalError(_not_waiting_message(ctx, thread, refused=value.action))
        stored = ctx.store.brief(thread)
        markdown = stored[1] if stored else ""
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
        what = f"{'approved' if row.action == 'approve' else 'rejected'} by {row.by} at {row.at:%Y-%m-%d %H:%M} UTC"
        done = f"; now published to {state.published}" if state.published else ""
        raise ApprovalError(f"thread {thread!r}: your {value.action} was not recorded: revision {row.revision} "
                            f"was already {what}{done}")
    return Decided(thread, row.action, row.revision, row.sha256, state.published, notes)


def approve(ctx: BatonContext, thread: str, by: str, *, edit: Path | None = None, replace: bool = False,
            dismiss: list[tuple[str, str]] | None = None, confirm: list[str] | None = None) -> Decided:
    """Approve the waiting draft (optionally an edited text) and publish it."""
    parse_thread(thread)
    text = None
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
