"""The integrator's node: build the brief from the scan and the verifier's results, write the drafts."""

from __future__ import annotations

from langgraph.runtime import Runtime

from agents.scanner.node import current_scan
from state.files import atomic_write_text
from state.graph_state import RunState
from state.models import ArxivEntry, BaseDoc, Brief, BriefWarning, Window
from state.runtime import BatonContext

__all__ = ["integrate", "draft_paths"]


def draft_paths(ctx: BatonContext, state: RunState) -> dict[str, str]:
    """Where the drafts of this thread go, by format."""
    stem = f"{state.day}-{state.topic}-e1prep"
    return {fmt: str(ctx.settings.out_dir / f"{stem}.{fmt}") for fmt in ctx.settings.formats}


def integrate(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Compose the brief, store it, and write the drafts."""
    ctx = runtime.context
    scan = current_scan(state, ctx)
    verified = ctx.store.artifact(state.thread, "verify") or {}
    arxiv = [ArxivEntry.model_validate(a) for a in verified.get("arxiv", [])]
    warnings = [BriefWarning.model_validate(w) for w in verified.get("warnings", [])]
    brief = Brief(
        topic=state.topic, date=state.day, thread=state.thread, executor=scan.topic.executor,
        window=Window(start=scan.start, end=scan.end),
        base_doc=BaseDoc(path=scan.topic.living_doc, version=scan.living.version, updated=scan.living.updated),
        sources=scan.sources, arxiv=arxiv, warnings=warnings,
    )
    brief.review_notes = [
        f"第 {d.revision} 版被 {d.by} 驳回（{d.at:%Y-%m-%d %H:%M} UTC）：{d.reason}"
        for d in ctx.store.decisions(state.thread) if d.action == "reject"
    ]
    markdown = brief.model_dump_json(indent=2)
    digest = ctx.store.save_brief(state.thread, state.run_id, brief, markdown)
    paths = draft_paths(ctx, state)
    if "json" in paths:
        from pathlib import Path

        atomic_write_text(Path(paths["json"]), brief.model_dump_json(indent=2) + "\n")
    if "md" in paths:
        from pathlib import Path

        atomic_write_text(Path(paths["md"]), markdown)
    ctx.progress(f"integrate: {len(brief.increments)} increments, drafts written")
    return {"brief_sha256": digest, "drafts": list(paths.values()), "increments": len(brief.increments)}
