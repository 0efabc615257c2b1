"""Storing a thread's brief and writing its drafts: one place, used by every node that changes the brief."""

from __future__ import annotations

from pathlib import Path

from agents.integrator.markdown import render_markdown
from state.files import atomic_write_text
from state.graph_state import RunState
from state.models import Brief
from state.runtime import BatonContext

__all__ = ["draft_paths", "save_and_write"]


def draft_paths(ctx: BatonContext, state: RunState) -> dict[str, Path]:
    """Where the drafts of this thread go, by format."""
    stem = f"{state.day}-{state.topic}-e1prep"
    return {fmt: ctx.settings.out_dir / f"{stem}.{fmt}" for fmt in ctx.settings.formats}


def save_and_write(ctx: BatonContext, state: RunState, brief: Brief) -> tuple[str, list[str]]:
    """Store the brief (a new revision only when it changed) and write the drafts; return (sha256, paths)."""
    markdown = render_markdown(brief)
    digest = ctx.store.save_brief(state.thread, state.run_id, brief, markdown)
    paths = draft_paths(ctx, state)
    if "json" in paths:
        atomic_write_text(paths["json"], brief.model_dump_json(indent=2) + "\n")
    if "md" in paths:
        atomic_write_text(paths["md"], markdown)
    return digest, [str(path) for path in paths.values()]
