"""The coordinator's nodes: baton slots and alerts, the human approval step, publishing."""

from __future__ import annotations

from datetime import date
from typing import Literal

from langgraph.runtime import Runtime
from langgraph.types import interrupt

from agents.coordinator.publish import publish_brief
from state.errors import ApprovalError
from state.graph_state import RunState
from state.runtime import BatonContext
from state.store import sha256_text

__all__ = ["coordinate", "approve", "publish", "after_approval"]


def coordinate(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """First version: nothing to coordinate yet."""
    runtime.context.progress("coordinate: done")
    return {}


def approve(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Hold the draft for a person: interrupt until ``baton approve`` or ``baton reject`` resumes it.

    The node runs again from its start on resume (LangGraph's interrupt
    semantics), so nothing before ``interrupt`` has side effects.
    """
    ctx = runtime.context
    stored = ctx.store.brief(state.thread)
    if stored is None:
        raise ApprovalError(f"thread {state.thread!r} has no draft to approve")
    brief, markdown, revision = stored
    if ctx.settings.auto_approve:
        decision: dict = {"action": "approve", "by": "auto-approve", "auto": True}
    else:
        decision = interrupt({
            "thread": state.thread, "revision": revision, "sha256": state.brief_sha256,
            "warnings": [f"{w.id} {w.kind}" for w in brief.warnings], "drafts": state.drafts,
        })
    text = decision.get("text") or markdown
    digest = sha256_text(text)
    if decision["action"] == "approve":
        ctx.store.put_blobs({digest: text})
    decision_id = ctx.store.record_decision(
        state.thread, revision, decision["action"], decision["by"],
        sha256=digest if decision["action"] == "approve" else None, reason=decision.get("reason"),
        auto=bool(decision.get("auto")), edited=bool(decision.get("text")),
    )
    ctx.progress(f"approve: revision {revision} {decision['action']}d by {decision['by']}")
    return {"decision": {**{k: v for k, v in decision.items() if k != "text"}, "sha256": digest,
                         "id": decision_id, "revision": revision}}


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
    executor = stored[0].executor if stored else ctx.config.topic(state.topic).executor
    result = publish_brief(ctx.settings.vault, executor, date.fromisoformat(state.day), state.topic, text,
                           replace=bool(decision.get("replace")))
    rel = result.path.relative_to(ctx.settings.vault).as_posix()
    ctx.store.mark_published(decision["id"], rel)
    ctx.progress(f"publish: {result.note}")
    return {"published": rel}
