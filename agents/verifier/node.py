"""The verifier's node: check the window's identifiers and claims, persist the results."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from langgraph.runtime import Runtime

from agents.scanner.node import current_scan
from agents.verifier.arxiv_api import ArxivApi, ArxivLookup, ArxivSettings
from state.graph_state import RunState
from state.models import ArxivEntry, Mention
from state.runtime import BatonContext
from state.tables.arxiv_cache import ArxivCache

__all__ = ["verify", "arxiv_entries"]


def _versions(mentions: list[Mention]) -> dict[str, int]:
    """The highest version suffix written for each identifier."""
    versions: dict[str, int] = {}
    for mention in mentions:
        if mention.kind == "arxiv" and mention.detail.get("version"):
            versions[mention.value] = max(versions.get(mention.value, 0), int(mention.detail["version"]))
    return versions


def arxiv_entries(verdicts: dict[str, ArxivLookup], mentions: list[Mention], tz: ZoneInfo) -> list[ArxivEntry]:
    """One contract entry per identifier, with what arXiv said (or why nothing was said)."""
    versions = _versions(mentions)
    entries = []
    for _, verdict in sorted(verdicts.items()):
        record = verdict.record
        version = versions.get(verdict.id)
        entries.append(ArxivEntry(
            id=verdict.id, version=f"v{version}" if version else None, verified=verdict.status,
            title=record.title if record else None,
            published=record.published.astimezone(tz).date().isoformat() if record and record.published else None,
            note=verdict.note,
        ))
    return entries


def verify(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Look the window's identifiers up on arXiv (batched, cached) and store the verdicts."""
    ctx = runtime.context
    scan = current_scan(state, ctx)
    identifiers = sorted({m.value for m in scan.mentions if m.kind == "arxiv"})
    ctx.progress(f"verify: {len(identifiers)} identifiers"
                 + (" (offline: cache only)" if ctx.settings.offline else ""))
    with ArxivApi(ArxivSettings.from_settings(ctx.settings), scan.day, ArxivCache(ctx.db)) as api:
        verdicts = api.lookup(identifiers)
        requests = api.requests_made
    entries = arxiv_entries(verdicts, scan.mentions, ctx.config.tz)
    ctx.store.save_artifact(state.thread, "verify", {
        "arxiv": [e.model_dump(mode="json") for e in entries], "warnings": [], "requests": requests})
    counts = {status: sum(1 for e in entries if e.verified == status) for status in ("ok", "not_found",
                                                                                     "malformed", "unverified")}
    ctx.progress("verify: " + ", ".join(f"{n} {status}" for status, n in counts.items() if n)
                 + f" · {requests} arXiv requests")
    return {"arxiv_requests": requests, "warnings": 0}
