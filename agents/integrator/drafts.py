"""Storing a thread's brief and writing its drafts: one place, used by every node that changes the brief."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from agents.integrator.markdown import render_markdown
from agents.integrator.summary import refresh_summary
from agents.scanner.e1_format import brief_file_name
from state.files import atomic_write_text
from state.graph_state import RunState
from state.models import Brief
from state.runtime import BatonContext

__all__ = ["draft_paths", "save_and_write"]


def draft_paths(ctx: BatonContext, state: RunState) -> dict[str, Path]:
    """Where the drafts of this thread go, by format."""
    stem = brief_file_name(date.fromisoformat(state.day), state.topic).removesuffix(".md")
    return {fmt: ctx.settings.out_dir / f"{stem}.{fmt}" for fmt in ctx.settings.formats}


def _unchanged(paths: dict[str, Path], markdown: str, brief: Brief) -> bool:
    """True when the drafts on disk already say this (the run's duration aside)."""
    if not all(path.is_file() for path in paths.values()):
        return False
    if "md" in paths:
        return paths["md"].read_text(encoding="utf-8") == markdown
    try:
        old = Brief.model_validate_json(paths["json"].read_text(encoding="utf-8"))
    except ValueError:
        return False
    old.stats.seconds = brief.stats.seconds
    return old == brief


def save_and_write(ctx: BatonContext, state: RunState, brief: Brief, *, write: bool = True) -> tuple[str, list[str]]:
    """Store the brief and, with ``write``, the drafts; return (sha256, paths).

    An identical re-run leaves the drafts as they are: the same day run twice writes the same brief.
    """
    if brief.topic in ctx.config.topics:
        refresh_summary(brief, ctx.config.topics[brief.topic].increments)  # counts follow the lists, always
    markdown = render_markdown(brief)
    digest = ctx.store.save_brief(state.thread, state.run_id, brief, markdown)
    paths = draft_paths(ctx, state)
    if write and not _unchanged(paths, markdown, brief):
        if "json" in paths:
            atomic_write_text(paths["json"], brief.model_dump_json(indent=2) + "\n")
        if "md" in paths:
            atomic_write_text(paths["md"], markdown)
    return digest, [str(path) for path in paths.values()]
