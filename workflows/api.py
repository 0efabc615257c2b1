"""What the CLI (and later the web app) calls: each function takes settings and returns a result."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from state.db import Database
from state.errors import UsageError
from state.graph_state import RunState
from state.leases import hold
from state.llm_settings import llm_settings_from_env
from state.runtime import BatonContext
from state.schema import check as check_schema
from state.settings import Settings
from state.store import Store
from state.vault_config import load_vault_config
from workflows.rerun import forget_answer, remember_answer, run_inputs, stored_answer

__all__ = ["RunOutcome", "open_context", "run_brief", "thread_id", "graph_session", "stream_thread"]

Progress = Callable[[str], None]


def thread_id(topic: str, day: date) -> str:
    """The thread of a topic and day: ``<topic>:<YYYY-MM-DD>``."""
    return f"{topic}:{day.isoformat()}"


@dataclass
class RunOutcome:
    """What a run produced."""

    thread: str
    mode: str
    drafts: list[str] = field(default_factory=list)
    brief_sha256: str | None = None
    revision: int = 0
    pending: bool = False
    published: str | None = None
    messages: list[str] = field(default_factory=list)
    degraded: list[str] = field(default_factory=list)  # done, but: arXiv unreachable, alerts not delivered


def open_context(settings: Settings, progress: Progress | None = None) -> BatonContext:
    """Check the vault, open the store (its schema must be current) and load the vault's configuration."""
    if not settings.vault.is_dir():
        raise UsageError(f"vault folder {str(settings.vault)!r} does not exist (use --vault DIR or $BATON_VAULT)")
    if not (settings.vault / "topics.toml").is_file():
        raise UsageError(f"{str(settings.vault)!r} is not a vault: it has no topics.toml (use --vault DIR)")
    config = load_vault_config(settings.vault)
    settings.state_dir.mkdir(parents=True, exist_ok=True)
    ignore = settings.state_dir / ".gitignore"
    if settings.state_dir.is_relative_to(settings.vault) and not ignore.exists():
        # A git-synced vault must not commit baton's local state (store, checkpoints, drafts).
        ignore.write_text("# baton's local state: never commit it\n*\n", encoding="utf-8")
    db = Database(settings.database_url)
    check_schema(db)
    llm_settings = llm_settings_from_env()  # rules only unless BATON_LLM_MODEL is set
    llm = None
    if llm_settings is not None:
        from agents.llm.provider import ChatProvider  # LangChain: imported only in LLM mode

        llm = ChatProvider.from_settings(llm_settings)
    return BatonContext(settings=settings, db=db, store=Store(db), config=config,
                        progress=progress or (lambda message: None), llm=llm)


@contextmanager
def graph_session(ctx: BatonContext) -> Iterator:
    """The compiled graph with its checkpointer, closed afterwards."""
    # LangGraph is imported here, not at the top: a command (or an unchanged re-run) that never
    # runs the graph does not pay for it.
    from state.checkpoints import open_checkpointer
    from workflows.graph import build_graph

    with open_checkpointer(ctx.settings.database_url, ctx.settings.checkpoint_path) as saver:
        yield build_graph(saver)


def stream_thread(graph, payload, config: dict, ctx: BatonContext) -> None:  # type: ignore[no-untyped-def]
    """Run the graph to its next stop; the test hooks (crash, pause after a node) act here."""
    # "sync" durability: a checkpoint is on disk before the next node starts, so a kill loses no node.
    for update in graph.stream(payload, config, context=ctx, stream_mode="updates", durability="sync"):
        for node in update:
            if ctx.settings.crash_after and node == ctx.settings.crash_after:
                # Test hook: die right after the checkpoint of this node, as a kill would.
                os._exit(137)
            if ctx.settings.pause_after and node == ctx.settings.pause_after.partition(":")[0]:
                _pause(Path(ctx.settings.pause_after.partition(":")[2]))


def _pause(gate: Path) -> None:
    """Test hook: say so in ``<gate>.paused`` and wait (at most 5 minutes) until ``gate`` exists."""
    gate.with_name(gate.name + ".paused").write_text(str(os.getpid()), encoding="utf-8")
    deadline = time.monotonic() + 300
    while not gate.exists() and time.monotonic() < deadline:
        time.sleep(0.1)


def run_brief(ctx: BatonContext, topic: str, day: date) -> RunOutcome:
    """Run (or resume) the thread of ``topic`` on ``day`` and return what it produced.

    One process at a time: the thread's lease is held throughout (ThreadBusy when another has it).
    An approved thread whose publishing did not complete is resumed at publish whatever the vault says.
    """
    ctx.config.topic(topic)
    thread = thread_id(topic, day)
    config = {"configurable": {"thread_id": thread}}
    started = time.monotonic()
    with hold(ctx.db, thread, "run"):
        ctx.store.close_stale_runs(thread)  # we hold the lease: a run still marked running is dead
        inputs = run_inputs(ctx, topic, day)
        answer = stored_answer(ctx, thread, inputs)
        if answer is not None:
            # Nothing it depends on changed since the thread stopped at the approval step: that draft stands.
            run_id = ctx.store.start_run(thread, topic, day.isoformat(), "unchanged")
            ctx.store.finish_run(run_id, "pending", time.monotonic() - started)
            remember_answer(ctx, thread, inputs, run_id=run_id, brief_sha256=answer.brief_sha256,
                            revision=answer.revision, drafts=answer.drafts)
            ctx.progress(f"unchanged since run {answer.run_id}: the vault, the store and the settings are as "
                         f"they were; revision {answer.revision} still waits for approval")
            return RunOutcome(thread=thread, mode="unchanged", drafts=answer.drafts,
                              brief_sha256=answer.brief_sha256, revision=answer.revision, pending=True)
        from agents.scanner.vault_index import VaultIndex  # the parsers: not imported by an unchanged re-run

        index = VaultIndex(ctx.settings.vault, ctx.config.tz, ctx.db)
        with graph_session(ctx) as graph, index.active():
            values, pending, mode, run_id = _run_graph(ctx, graph, config, thread, topic, day, started)
        ctx.store.finish_run(run_id, "pending" if pending else "done", time.monotonic() - started)
        stored = ctx.store.brief(thread)
        degraded = [why for why in (values.arxiv_degraded, values.alerts_degraded) if why]
        if (pending and not degraded and stored is not None and values.brief_sha256
                and run_inputs(ctx, topic, day) == inputs):
            remember_answer(ctx, thread, inputs, run_id=run_id, brief_sha256=values.brief_sha256,
                            revision=stored[2], drafts=values.drafts)
        else:
            forget_answer(ctx, thread)
    return RunOutcome(thread=thread, mode=mode, drafts=values.drafts, brief_sha256=values.brief_sha256,
                      revision=stored[2] if stored else 0, pending=pending, published=values.published,
                      degraded=degraded)


def _run_graph(ctx: BatonContext, graph, config: dict, thread: str, topic: str, day: date,  # type: ignore[no-untyped-def]
               started: float) -> tuple[RunState, bool, str, int]:
    """Run (or resume) the thread's graph; return its state, whether it waits, the mode and the run's id."""
    from agents.scanner.window import scan_window

    snapshot = graph.get_state(config)
    waiting = bool(snapshot.next) and any(task.interrupts for task in snapshot.tasks)
    mode = "resume" if snapshot.next and not waiting else "fresh"
    if waiting:
        mode = "revise"
    if mode == "resume" and "publish" not in snapshot.next:
        # Resume only onto the window the interrupted run scanned; a changed vault starts over,
        # so that no node mixes results of two different windows.
        scan = scan_window(ctx.config, topic, day)
        if scan.source_hashes() != RunState.model_validate(snapshot.values).source_hashes:
            ctx.progress(f"the vault changed since {thread} was interrupted: starting the run over")
            mode = "fresh"
        else:
            ctx.scans[thread] = scan
    run_id = ctx.store.start_run(thread, topic, day.isoformat(), mode)
    try:
        if mode == "resume":
            ctx.progress(f"resuming {thread} at {', '.join(snapshot.next)}")
            graph.update_state(config, {"run_id": run_id})
            stream_thread(graph, None, config, ctx)
        else:
            initial = RunState(thread=thread, topic=topic, day=day.isoformat(), run_id=run_id)
            stream_thread(graph, initial, config, ctx)
    except BaseException as exc:
        ctx.store.finish_run(run_id, "failed", time.monotonic() - started, f"{type(exc).__name__}: {exc}")
        raise
    final = graph.get_state(config)
    return RunState.model_validate(final.values), bool(final.next), mode, run_id


