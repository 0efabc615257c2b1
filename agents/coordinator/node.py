"""The coordinator's nodes: baton slots and alerts, the human approval step, publishing."""

from __future__ import annotations

from langgraph.runtime import Runtime

from state.graph_state import RunState
from state.runtime import BatonContext

__all__ = ["coordinate"]


def coordinate(state: RunState, runtime: Runtime[BatonContext]) -> dict:
    """First version: nothing to coordinate yet."""
    runtime.context.progress("coordinate: done")
    return {}
