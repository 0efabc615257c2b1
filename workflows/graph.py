"""The daily E1 graph: scan → verify → integrate → coordinate → approve (human) → publish, per thread."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from agents.coordinator.node import after_approval, approve, coordinate, publish
from agents.integrator.node import integrate
from agents.scanner.node import scan
from agents.verifier.node import verify
from state.graph_state import RunState
from state.runtime import BatonContext

__all__ = ["build_graph", "NODES"]

NODES = ("scan", "verify", "integrate", "coordinate", "approve", "publish")


def _with_context(node: Callable, build: Callable[[Any], BatonContext]) -> Callable:
    """``node`` called with a runtime whose context ``build`` made from the runtime's own (LangGraph's server)."""

    @wraps(node)
    def wrapped(state: RunState, runtime):  # type: ignore[no-untyped-def]
        return node(state, runtime.override(context=build(runtime.context)))

    return wrapped


def build_graph(checkpointer: BaseCheckpointSaver | None, *, context_schema: type = BatonContext,
                context_from: Callable[[Any], BatonContext] | None = None) -> CompiledStateGraph:
    """Compile the graph with its checkpointer (None: LangGraph's server brings its own).

    ``context_from`` builds baton's context from another ``context_schema`` (LangGraph's server passes
    plain configuration: the vault's path, offline); without it the caller passes a BatonContext.
    """
    graph = StateGraph(RunState, context_schema=context_schema)
    for name, node in (("scan", scan), ("verify", verify), ("integrate", integrate), ("coordinate", coordinate),
                       ("approve", approve), ("publish", publish)):
        graph.add_node(name, _with_context(node, context_from) if context_from else node)
    graph.add_edge(START, "scan")
    graph.add_edge("scan", "verify")
    graph.add_edge("verify", "integrate")
    graph.add_edge("integrate", "coordinate")
    graph.add_edge("coordinate", "approve")
    graph.add_conditional_edges("approve", after_approval, ["publish", END])
    graph.add_edge("publish", END)
    return graph.compile(checkpointer=checkpointer)
