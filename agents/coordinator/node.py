"""The coordinator's nodes: baton slots and alerts, the human approval step, publishing."""

from __future__ import annotations

import os
from datetime import UTC, date, datetime
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _package_version
from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import interrupt
from pydantic import ValidationError

from agents.coordinator.alerts import (
    DeliveryReport,
    SinkConfig,
    build_sinks,
    deliver_pending,
    load_alerts,
    record_gaps_and_outbox,
)
from agents.coordinator.claims import check_claims, read_coordination_notes
from agents.coordinator.inbox import approval_request, decision_from_resume
from agents.coordinator.publish import (
    BriefFrontMatter,
    RegisterRow,
    append_register_entries,
    publish_brief,
    with_front_matter,
)
from agents.coordinator.slots import compute_gaps
from agents.coordinator.standdown import excuses_as_of
from agents.integrator.drafts import save_and_write
from agents.verifier.register import allocated_in
from state.errors import ApprovalError, ThreadBusy, VaultError
from state.graph_state import ACTION_DONE, ResumeValue, RunState
from state.leases import hold
from state.runtime import BatonContext
from state.settings import Settings
from state.store import sha256_text

# Days of slot history a brief's coordination check looks at: enough for
# yesterday's claims and the streaks that reach into the window.
_GAP_DAYS = 8
# How long a run waits for another run's delivery of the alert outbox.
OUTBOX_WAIT = 120.0

__all__ = ["coordinate", "approve", "publish", "after_approval"]


def sink_configs(settings: Settings) -> list[SinkConfig]:
    """The alert sinks of a run: a Markdown note per alert in <state>/alerts/, webhooks, maybe stdout."""
    configs = [SinkConfig(kind="folder", name="notes")]
    # Webhook sinks are named by the hash of their URL (WebhookSink's default): order does not matter.
    wait = settings.webhook_max_wait
    configs += [SinkConfig(kind="webhook", url=url, max_wait=wait) for url in settings.webhooks]
    # NAME=URL entries: a webhook serves the recipients of schedule.toml's ``alert = [...]`` mapped to it.
    by_url: dict[str, list[str]] = {}
    for name, urls in settings.recipient_webhooks.items():
        for url in urls:
            by_url.setdefault(url, []).append(name)
    configs += [SinkConfig(kind="webhook", url=url, recipients=names, max_wait=wait)
                for url, names in by_url.items() if url not in settings.webhooks]
    if settings.alert_stdout:
        configs.append(SinkConfig(kind="stdout"))
    return configs


def baton_version() -> str:
    """baton's installed version, written into what it publishes."""
    try:
        return _package_version("baton")
    except PackageNotFoundError:  # a source tree never installed
        return "unknown"


def coordinate(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Check the baton slots as of the window's end, send gap alerts once, add them to the brief."""
    ctx = runtime.context
    cfg = ctx.config
    stored = ctx.store.brief(state.thread)
    if stored is None:
        raise ApprovalError(f"thread {state.thread!r} has no draft to coordinate")
    brief = stored[0]
    day = date.fromisoformat(state.day)
    as_of = brief.window.end
    gaps = compute_gaps(cfg, day, _GAP_DAYS, excuses=excuses_as_of(ctx.db, cfg, day, as_of), as_of=as_of)
    claims = check_claims(read_coordination_notes(cfg, day, day), gaps, cfg)
    today = ctx.settings.today_in(cfg.tz)
    record_gaps_and_outbox(ctx.db, cfg, gaps, today=today, now=datetime.now(cfg.tz),
                           send_backfill=ctx.settings.send_backfill, run_day=day)
    if ctx.settings.crash_after == "coordinate:recorded":
        os._exit(137)  # test hook: die after the gaps and the outbox are recorded, before any send
    # One deliverer at a time (runs of other topics share the outbox): each alert goes out once.
    try:
        with hold(ctx.db, "outbox", "deliver", wait=OUTBOX_WAIT, what="the alert outbox"):
            report = deliver_pending(ctx.db, build_sinks(sink_configs(ctx.settings), ctx.settings.state_dir),
                                     now=lambda: datetime.now(cfg.tz),
                                     collapse_before=today if ctx.settings.send_backfill else None)
    except ThreadBusy as exc:
        # Still busy after the wait: the alerts stay in the outbox for that deliverer or the next run.
        ctx.progress(f"coordinate: alerts not sent by this run: {exc}")
        report = DeliveryReport()
    brief.stats.seconds = round(ctx.store.run_seconds(state.run_id), 2) if state.run_id else 0.0
    brief.gaps = [gap for gap in gaps if gap.date == state.day]
    own_slot = cfg.topics[state.topic].slot if state.topic in cfg.topics else None
    for gap in brief.gaps:
        if gap.slot == own_slot and gap.status == "missing":
            # The slot this brief delivers: not missing, it is this draft, closed when it is published.
            gap.this_brief = True
    brief.alerts = load_alerts(ctx.db, day)
    known = {w.key for w in brief.warnings if w.key}
    for warning in claims:
        if warning.key not in known:
            warning.id = f"C{len(brief.warnings) + 1}"
            brief.warnings.append(warning)
    digest, drafts = save_and_write(ctx, state, brief)
    open_gaps = [g for g in brief.gaps if g.status in ("late", "missing")]
    ctx.progress(f"coordinate: {len(open_gaps)} slot gaps, {len(claims)} coordination warnings, "
                 f"{len(report.sent)} alerts sent" + (f", {len(report.failed)} not delivered" if report.failed else ""))
    degraded = None
    if report.failed:
        reasons = "; ".join(dict.fromkeys(reason for _, _, reason in report.failed))
        degraded = f"{len(report.failed)} alert(s) not delivered ({reasons}); they go out on the next `baton check`"
    return {"brief_sha256": digest, "drafts": drafts, "gaps_open": len(open_gaps), "alerts_sent": len(report.sent),
            "alerts_degraded": degraded}


def approve(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Hold the draft for a person: interrupt until ``baton approve`` or ``baton reject`` resumes it.

    The node runs again from its start on resume (LangGraph's interrupt
    semantics), so what it does before ``interrupt`` is idempotent: ``present``
    marks the same revision again, nothing else is written.
    """
    ctx = runtime.context
    stored = ctx.store.brief(state.thread)
    if stored is None:
        raise ApprovalError(f"thread {state.thread!r} has no draft to approve")
    brief, markdown, _ = stored
    revision = ctx.store.present(state.thread)
    if ctx.settings.auto_approve:
        raw: dict = {"action": "approve", "by": "auto-approve", "auto": True}
    else:
        raw = interrupt(approval_request(state, brief, markdown, revision))
    value = _resume_value(raw)
    if value.text == markdown:
        value = value.model_copy(update={"text": None})  # an "edit" that changed nothing is the draft as it is
    row = ctx.store.decision(value.decision_id) if value.decision_id is not None else None
    if row is None:
        # Auto-approval, Agent Inbox or LangGraph Studio (or a resume from an older baton): record it
        # here, once per revision.
        text = value.text or markdown
        digest = sha256_text(text)
        if value.action == "approve":
            ctx.store.put_blobs({digest: text})
        row, _ = ctx.store.decide(state.thread, revision, value.action, value.by,
                                  sha256=digest if value.action == "approve" else None, reason=value.reason,
                                  auto=value.auto, edited=bool(value.text))
    if row.action == "reject":
        ctx.store.retire_revision(state.thread)
    ctx.progress(f"approve: revision {row.revision} {ACTION_DONE.get(row.action, row.action)} by {row.by}")
    return {"decision": {"action": row.action, "by": row.by, "reason": row.reason, "auto": row.auto,
                         "replace": value.replace, "sha256": row.sha256 or sha256_text(markdown), "id": row.id,
                         "revision": row.revision}}


def _resume_value(raw: object) -> ResumeValue:
    """baton's own resume value (the CLI and page: the decision already recorded), or Agent Inbox's
    response list (LangGraph Studio, Agent Inbox: recorded by the node), checked before anything is written."""
    decision = raw if isinstance(raw, dict) and "action" in raw else decision_from_resume(raw)
    try:
        return ResumeValue.model_validate(decision)
    except ValidationError as exc:
        raise ApprovalError(f"invalid decision: {exc.errors()[0]['msg']}") from exc


def after_approval(state: RunState) -> Literal["publish", "__end__"]:
    """Route an approved draft to publishing; a rejected one ends the run (the next run revises)."""
    return "publish" if state.decision and state.decision.get("action") == "approve" else "__end__"


def publish(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Write the approved text into the vault, never over a person's brief."""
    ctx = runtime.context
    decision = state.decision or {}
    text = ctx.store.blob(decision["sha256"])
    if text is None:
        raise ApprovalError(f"the approved text of {state.thread!r} is missing from the store")
    stored = ctx.store.brief(state.thread)
    topic = ctx.config.topic(state.topic)
    executor = stored[0].executor if stored else topic.executor
    decisions = ctx.store.decisions(state.thread)
    published_before = frozenset(d.sha256 for d in decisions if d.published and d.sha256)
    row = next((d for d in decisions if d.id == decision.get("id")), None)
    approved_at = (row.at if row and row.at.tzinfo else (row.at.replace(tzinfo=UTC) if row else datetime.now(UTC)))
    front = BriefFrontMatter(
        time=stored[0].window.end if stored else topic.window(date.fromisoformat(state.day), ctx.config.tz)[1],
        agent=executor, slot=topic.slot, topic=state.topic, baton_version=baton_version(),
        approved_by=str(decision.get("by") or "?"), approved_at=approved_at.astimezone(ctx.config.tz),
        approval="auto-approved" if decision.get("auto") else "edited" if row and row.edited else "approved",
        revision=int(decision.get("revision") or 0), thread=state.thread,
    )
    result = publish_brief(ctx.settings.vault, executor, date.fromisoformat(state.day), state.topic,
                           with_front_matter(text, front), replace=bool(decision.get("replace")),
                           baton_hashes=published_before)
    rel = result.path.relative_to(ctx.settings.vault).as_posix()
    ctx.store.mark_published(decision["id"], rel)
    ctx.progress(f"publish: {result.note}")
    day = date.fromisoformat(state.day)
    rows = [RegisterRow(d=e["d"], text=e["text"], risk=e["risk"], raised=date.fromisoformat(e["raised"] or state.day),
                        status="待核", source=rel) for e in allocated_in(ctx.db, state.thread)]
    try:
        written = append_register_entries(ctx.settings.vault, rows) if rows else []
    except VaultError as exc:
        # The brief is out; the register file needs a person (one number must never name two things).
        ctx.progress(f"publish: register not updated: {exc}")
    else:
        if written:
            ctx.progress(f"publish: appended {', '.join(written)} to the register ({day})")
    return {"published": rel}
