"""The graph as LangGraph's server and Studio load it (``langgraph.json`` → ``workflows/studio.py:graph``).

The server brings its own checkpointer and passes the run's context as plain values; baton's
context (store, vault configuration) is built from them — the vault folder from the context's
``vault``, else the run's ``configurable.vault``, else ``$BATON_VAULT`` — once per vault and kept.
Start a thread with the input ``{"thread": "inference:2026-09-29", "topic": "inference",
"day": "2026-09-29"}``; it stops at the approval interrupt, in Agent Inbox's shape.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.config import get_config
from langgraph.graph.state import CompiledStateGraph

from state.errors import UsageError
from state.runtime import BatonContext
from state.settings import settings_from_env
from workflows.api import open_context
from workflows.graph import build_graph

__all__ = ["StudioContext", "baton_context", "make_graph", "graph"]


@dataclass
class StudioContext:
    """What a LangGraph server run may say: the vault (and state folder), and whether to stay offline."""

    vault: str = ""
    state: str = ""
    offline: bool = True


_contexts: dict[tuple[str, str, bool], BatonContext] = {}
_lock = threading.Lock()


def _values(context: Any) -> dict[str, Any]:
    names = {f.name for f in fields(StudioContext)}
    if isinstance(context, StudioContext):
        given = {name: getattr(context, name) for name in names}
    elif isinstance(context, dict):
        given = {k: v for k, v in context.items() if k in names}
    else:
        given = {}
    if not given.get("vault"):
        try:
            configurable = get_config().get("configurable", {})
        except RuntimeError:  # outside a run
            configurable = {}
        given.update({k: v for k, v in configurable.items() if k in names and v not in (None, "")})
    return given


def baton_context(context: Any) -> BatonContext:
    """baton's context for a server run's context (a StudioContext, a dict, or nothing)."""
    if isinstance(context, BatonContext):
        return context
    given = _values(context)
    vault = str(given.get("vault") or os.environ.get("BATON_VAULT") or "")
    if not vault:
        raise UsageError("no vault: give the run's context {\"vault\": \"/path/to/vault\"} or set BATON_VAULT")
    state = str(given.get("state") or "")
    offline = bool(given.get("offline", True))
    key = (vault, state, offline)
    with _lock:
        if key not in _contexts:
            settings = settings_from_env(Path(vault), Path(state) if state else None, offline=offline)
            _contexts[key] = open_context(settings)
        return _contexts[key]


def make_graph(checkpointer: BaseCheckpointSaver | None = None) -> CompiledStateGraph:
    """The graph with the server's context schema (tests pass an in-memory checkpointer)."""
    return build_graph(checkpointer, context_schema=StudioContext, context_from=baton_context)


graph = make_graph()
