"""The verifier's node: check the window's identifiers and claims, persist the results."""

from __future__ import annotations

from langgraph.runtime import Runtime

from agents.scanner.node import current_scan
from state.graph_state import RunState
from state.models import ArxivEntry
from state.runtime import BatonContext

__all__ = ["verify"]


def _identifiers(mentions) -> dict[str, dict]:  # type: ignore[no-untyped-def]
    seen: dict[str, dict] = {}
    for mention in mentions:
        if mention.kind != "arxiv":
            continue
        entry = seen.setdefault(mention.value, {"versions": set(), "malformed": mention.detail.get("malformed"),
                                                "reason": mention.detail.get("reason")})
        if mention.detail.get("version"):
            entry["versions"].add(mention.detail["version"])
    return seen


def verify(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """First version: validate identifiers; nothing claims a check it did not make."""
    ctx = runtime.context
    scan = current_scan(state, ctx)
    entries = []
    for identifier, info in sorted(_identifiers(scan.mentions).items()):
        version = f"v{max(info['versions'])}" if info["versions"] else None
        if info["malformed"]:
            entries.append(ArxivEntry(id=identifier, version=version, verified="malformed", note=info["reason"]))
        else:
            entries.append(ArxivEntry(id=identifier, version=version, verified="unverified",
                                      note="arXiv not consulted in this run"))
    ctx.store.save_artifact(state.thread, "verify", {
        "arxiv": [e.model_dump(mode="json") for e in entries], "warnings": [], "requests": 0})
    ctx.progress(f"verify: {len(entries)} identifiers")
    return {"arxiv_requests": 0, "warnings": 0}
