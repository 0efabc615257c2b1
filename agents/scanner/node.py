"""The scanner's node: read the window, persist sources and mentions, return counts."""

from __future__ import annotations

from datetime import date

from langgraph.runtime import Runtime

from agents.scanner.window import WindowScan, scan_window
from state.graph_state import RunState
from state.runtime import BatonContext

__all__ = ["scan", "current_scan"]


def scan(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Scan the window of ``state.topic`` on ``state.day`` and store what was found."""
    ctx = runtime.context
    result = scan_window(ctx.config, state.topic, date.fromisoformat(state.day))
    ctx.store.save_scan(state.thread, result.sources, result.mentions, result.blobs)
    ctx.scans[state.thread] = result
    read = result.read_count
    skipped = len(result.sources) - read
    ctx.progress(f"scan: {read} sources read, {skipped} listed as skipped, {len(result.mentions)} mentions")
    return {"sources_read": read, "sources_skipped": skipped, "mentions": len(result.mentions),
            "source_hashes": result.source_hashes()}


def current_scan(state: RunState, ctx: BatonContext) -> WindowScan:
    """The thread's scan: from this process's memo, or re-read after a resume.

    A resumed run (a new process) re-reads the window; when the vault changed
    since the checkpointed scan, the stored sources and mentions are replaced
    so that every later node sees one consistent window.
    """
    cached = ctx.scans.get(state.thread)
    if cached is not None:
        return cached
    result = scan_window(ctx.config, state.topic, date.fromisoformat(state.day))
    if result.source_hashes() != state.source_hashes:
        ctx.progress("scan: the vault changed since the checkpoint; the window was read again")
        ctx.store.save_scan(state.thread, result.sources, result.mentions, result.blobs)
    ctx.scans[state.thread] = result
    return result
