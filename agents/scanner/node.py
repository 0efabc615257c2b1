"""The scanner's node: read the window, persist sources and mentions, return counts."""

from __future__ import annotations

from datetime import date

from langgraph.runtime import Runtime

from agents.scanner.window import WindowScan, scan_window
from state.errors import VaultError
from state.graph_state import RunState
from state.runtime import BatonContext

__all__ = ["scan", "current_scan"]


def scan(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Scan the window of ``state.topic`` on ``state.day`` and store what was found.

    An input without a day (a LangGraph cron) is today's brief: today in the vault's timezone, now.
    """
    ctx = runtime.context
    day = date.fromisoformat(state.day) if state.day else ctx.settings.today_in(ctx.config.tz)
    thread = state.thread or f"{state.topic}:{day.isoformat()}"
    result = scan_window(ctx.config, state.topic, day)
    ctx.store.save_scan(thread, result.sources, result.mentions, result.blobs)
    ctx.scans[thread] = result
    read = result.read_count
    skipped = len(result.sources) - read
    ctx.progress(f"scan: {read} sources read, {skipped} listed as skipped, {len(result.mentions)} mentions")
    return {"day": day.isoformat(), "thread": thread, "sources_read": read, "sources_skipped": skipped,
            "mentions": len(result.mentions), "source_hashes": result.source_hashes()}


def current_scan(state: RunState, ctx: BatonContext) -> WindowScan:
    """The thread's scan: this process's memo, or the window read again after a resume.

    ``workflows.api.run_brief`` resumes only onto an unchanged window (a changed vault starts the run
    over), so a read that no longer matches the checkpoint means the vault changed during the run:
    stop rather than mix two windows in one brief.
    """
    cached = ctx.scans.get(state.thread)
    if cached is not None:
        return cached
    result = scan_window(ctx.config, state.topic, date.fromisoformat(state.day))
    if result.source_hashes() != state.source_hashes:
        raise VaultError(f"the vault changed while {state.thread} was running; run `baton run` again to start over")
    ctx.scans[state.thread] = result
    return result
