"""The approval interrupt in Agent Inbox's shape, and the resume values it (and baton's CLI) send back.

Agent Inbox shows an interrupt whose value is a list of ``{"action_request": {"action", "args"},
"config": {"allow_accept", "allow_edit", "allow_respond", "allow_ignore"}, "description"}`` and
resumes with a list of ``{"type": "accept" | "edit" | "response" | "ignore", "args": …}``. baton's CLI
and review page resume with ``{"action": "approve" | "reject" | "discard", "by": …, …}``; both work.
"""

from __future__ import annotations

from typing import Any

from state.errors import ApprovalError
from state.graph_state import RunState
from state.models import Brief

__all__ = ["APPROVAL_ACTION", "INBOX_REVIEWER", "approval_request", "decision_from_resume"]

APPROVAL_ACTION = "approve_e1_brief"
INBOX_REVIEWER = "agent-inbox"


def approval_request(state: RunState, brief: Brief, markdown: str, revision: int) -> list[dict[str, Any]]:
    """The interrupt value: one request to approve the draft; ``args.markdown`` is what an edit changes."""
    warnings = [f"{w.id} {w.kind}" for w in brief.warnings]
    description = (f"# E1 brief {state.thread} (revision {revision})\n\n"
                   f"{len(brief.increments)} increments, {len(warnings)} warnings. Accept publishes the draft; "
                   "edit publishes your text; respond rejects it with your words as the reason (the next run "
                   "revises); ignore discards the draft. The brief is `args.markdown`.")
    return [{
        "action_request": {"action": APPROVAL_ACTION, "args": {
            "thread": state.thread, "revision": revision, "sha256": state.brief_sha256,
            "markdown": markdown, "by": "", "replace": False,
        }},
        "config": {"allow_accept": True, "allow_edit": True, "allow_respond": True, "allow_ignore": True},
        "description": description,
        # baton's own fields, as before Agent Inbox's shape: what the CLI and page read.
        "thread": state.thread, "revision": revision, "sha256": state.brief_sha256,
        "warnings": warnings, "drafts": state.drafts,
    }]


def decision_from_resume(value: Any) -> dict[str, Any]:
    """Turn a resume value (baton's ``{"action": …}`` or Agent Inbox's response list) into baton's decision."""
    if isinstance(value, list):
        if not value:
            raise ApprovalError("an empty resume value: expected a decision")
        value = value[0]
    if not isinstance(value, dict):
        raise ApprovalError(f"cannot read the resume value {value!r}: expected a decision object")
    if "action" in value:
        if value["action"] not in ("approve", "reject", "discard"):
            raise ApprovalError(f"unknown decision {value['action']!r} (approve, reject or discard)")
        return value
    kind, args = value.get("type"), value.get("args")
    if kind == "accept":
        return {"action": "approve", "by": INBOX_REVIEWER}
    if kind == "edit":
        edited = (args or {}).get("args", {}) if isinstance(args, dict) else {}
        by = str(edited.get("by") or "").strip() or INBOX_REVIEWER
        text = edited.get("markdown")
        return {"action": "approve", "by": by, "text": text if isinstance(text, str) and text.strip() else None,
                "replace": bool(edited.get("replace"))}
    if kind == "response":
        reason = str(args or "").strip()
        if not reason:
            raise ApprovalError("a response (a rejection) needs the reason as its text")
        return {"action": "reject", "by": INBOX_REVIEWER, "reason": reason}
    if kind == "ignore":
        return {"action": "discard", "by": INBOX_REVIEWER, "reason": "ignored in Agent Inbox"}
    raise ApprovalError(f"cannot read the resume value {value!r}: expected accept, edit, response or ignore")
