"""The integrator's node: build the brief from the scan and the verifier's results, write the drafts."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from langgraph.runtime import Runtime

from agents.integrator.compose import integrate as compose_brief
from agents.integrator.compose import link_open_entries, living_doc_label
from agents.integrator.drafts import save_and_write
from agents.integrator.llm_text import ModelWriter
from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.history import window_counts_history
from agents.scanner.node import current_scan
from agents.scanner.relevance import relevance
from agents.verifier.register import ITEM_KINDS, assign_numbers, register_view
from state.graph_state import RunState
from state.models import ArxivEntry, Brief, BriefWarning
from state.runtime import BatonContext

__all__ = ["integrate"]


def _numbered_here(warning: BriefWarning) -> bool:
    """Numbered once the brief keeps it: a one-item warning, or an overdue promise only a brief quoted."""
    return warning.kind in ITEM_KINDS or (warning.kind == "promise_overdue" and not warning.register)


def _papers_ruled_out(brief: Brief, keywords: Sequence[str], slot: str) -> None:
    """An open entry tied to this topic only by a paper of the window that the brief rules off-topic (D212
    on OffloadRL, an RL training paper) is another topic's: listed with that reason, not carried."""
    outside = {i for entry in brief.excluded for i in entry.get("arxiv") or []}
    keep = []
    for entry in brief.register_open:
        text = str(entry.get("text") or "")
        ids = {ref.id for ref in find_arxiv_refs(text) if not ref.malformed}
        if ids and ids <= outside and relevance(text, keywords) == 0 and \
                not str(entry.get("source") or entry.get("carried_from") or "").endswith(f"-{slot}.md"):
            brief.register_elsewhere.append({**entry, "reason": f"所涉论文 {'、'.join(sorted(ids))} 今日判为主轴外"})
        else:
            keep.append(entry)
    brief.register_open = keep


def integrate(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """Compose the brief from the scan and the verifier's verdicts and store it."""
    ctx = runtime.context
    scan = current_scan(state, ctx)
    verified = ctx.store.artifact(state.thread, "verify") or {}
    arxiv = [ArxivEntry.model_validate(a) for a in verified.get("arxiv", [])]
    warnings = [BriefWarning.model_validate(w) for w in verified.get("warnings", [])]
    history = window_counts_history(ctx.config, state.topic, date.fromisoformat(state.day))
    # With a model configured, it words the brief through one session per run (counts, budget, call cap).
    session = ctx.llm.session() if ctx.llm is not None else None
    writer = ModelWriter(session, scan, living_doc_label(scan)) if session is not None else None
    # Open as the window began: the entries still open, and those today's evidence closes (a section bringing that
    # news follows the entry, as an integration, not a NET-new item).
    open_register = {int(e["d"][1:]): str(e.get("text") or "")
                     for e in [*verified.get("register_open", []), *verified.get("register_closed", [])]
                     if str(e.get("d", "")).startswith("D") and str(e["d"])[1:].isdigit()}
    brief = compose_brief(scan, warnings, arxiv, history, state.thread, writer=writer, open_register=open_register)
    if session is not None and state.run_id is not None:
        ctx.store.record_llm_run(state.run_id, state.thread, session.record())
    # The one-item warnings the brief kept get their D-numbers now, as of the window's end.
    own = [s.path for s in scan.sources if s.kind == "brief" and not s.in_window]
    with register_view(scan.end, own, verified.get("superseded", ()), verified.get("own_record", ())):
        later = [w for w in brief.warnings if _numbered_here(w)]
        numbered = iter(assign_numbers(ctx.db, state.thread, later, as_of=scan.day))
    brief.warnings = [next(numbered) if _numbered_here(w) else w for w in brief.warnings]
    brief.stats.arxiv_requests, brief.stats.offline = state.arxiv_requests, ctx.settings.offline
    outage = verified.get("outage") or {}
    brief.stats.arxiv_failure, brief.stats.arxiv_failure_kind = outage.get("reason"), outage.get("kind")
    brief.register_open = verified.get("register_open", [])
    brief.register_closed = verified.get("register_closed", [])
    brief.register_elsewhere = verified.get("register_elsewhere", [])
    _papers_ruled_out(brief, scan.topic.keywords, scan.topic.slot)
    link_open_entries(brief, scan.topic.keywords)
    brief.review_notes = [
        f"第 {d.revision} 版被 {d.by} 驳回（{d.at:%Y-%m-%d %H:%M} UTC）：{d.reason}"
        for d in ctx.store.decisions(state.thread) if d.action == "reject"
    ]
    # The coordinator completes the brief (slots, alerts) and writes the drafts.
    digest, drafts = save_and_write(ctx, state, brief, write=False)
    ctx.progress(f"integrate: {len(brief.increments)} increments ({brief.density}), "
                 f"{len(brief.warnings)} warnings"
                 + (f", model {session.calls} calls / {session.tokens} tokens" if session is not None else ""))
    return {"brief_sha256": digest, "drafts": drafts, "increments": len(brief.increments)}
