"""The daily E1 graph: scan → verify → integrate → coordinate → approve (human) → publish, per thread."""

from __future__ import annotations

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


def build_graph(checkpointer: BaseCheckpointSaver) -> CompiledStateGraph:
    """Compile the graph with its checkpointer."""
    graph = StateGraph(RunState, context_schema=BatonContext)
    graph.add_node("scan", scan)
    graph.add_node("verify", verify)
    graph.add_node("integrate", integrate)
    graph.add_node("coordinate", coordinate)
    graph.add_node("approve", approve)
    graph.add_node("publish", publish)
    graph.add_edge(START, "scan")
    graph.add_edge("scan", "verify")
    graph.add_edge("verify", "integrate")
    graph.add_edge("integrate", "coordinate")
    graph.add_edge("coordinate", "approve")
    graph.add_conditional_edges("approve", after_approval, ["publish", END])
    graph.add_edge("publish", END)
    return graph.compile(checkpointer=checkpointer)
