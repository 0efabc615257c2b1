"""langgraph.json loads with LangGraph's own config loader; its graph runs to the Agent Inbox interrupt."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import Command

from agents.coordinator.inbox import APPROVAL_ACTION, decision_from_resume
from state.errors import ApprovalError
from workflows.demo_vault import generate_demo_vault

ROOT = Path(__file__).resolve().parents[1]


def _load_graph_path(spec: str) -> object:
    """Import ``./path/file.py:name`` the way LangGraph's server does: by file path."""
    file, name = spec.rsplit(":", 1)
    module_spec = importlib.util.spec_from_file_location("baton_studio_graph", ROOT / file)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[module_spec.name] = module  # as the server registers it (dataclasses look it up)
    module_spec.loader.exec_module(module)
    return getattr(module, name)


def test_langgraph_json_passes_langgraphs_own_loader_and_names_a_compiled_graph() -> None:
    config_module = pytest.importorskip("langgraph_cli.config", reason="langgraph-cli is a dev dependency")
    config = config_module.validate_config_file(ROOT / "langgraph.json")
    assert list(config["graphs"]) == ["baton_e1"]
    graph = _load_graph_path(config["graphs"]["baton_e1"])
    assert isinstance(graph, CompiledStateGraph)
    assert {"scan", "verify", "integrate", "coordinate", "approve", "publish"} <= set(graph.nodes)
    assert graph.checkpointer is None  # the server brings its own
    assert json.loads((ROOT / "langgraph.json").read_text())["dependencies"] == ["."]


def _start(tmp_path: Path):  # type: ignore[no-untyped-def]
    from workflows.studio import StudioContext, make_graph

    vault = tmp_path / "vault"
    end = generate_demo_vault(vault).end.isoformat()
    graph = make_graph(InMemorySaver())
    config = {"configurable": {"thread_id": f"inference:{end}"}}
    context = StudioContext(vault=str(vault))
    graph.invoke({"thread": f"inference:{end}", "topic": "inference", "day": end}, config, context=context)
    return graph, config, context, vault, end


def test_the_server_graph_stops_at_an_agent_inbox_interrupt_and_accept_publishes(tmp_path: Path) -> None:
    graph, config, context, vault, end = _start(tmp_path)
    snapshot = graph.get_state(config)
    assert snapshot.next == ("approve",)
    (request,) = snapshot.tasks[0].interrupts[0].value
    assert request["action_request"]["action"] == APPROVAL_ACTION
    assert request["config"] == {"allow_accept": True, "allow_edit": True, "allow_respond": True,
                                 "allow_ignore": True}
    assert request["action_request"]["args"]["thread"] == f"inference:{end}"
    assert request["action_request"]["args"]["markdown"].startswith("inference")
    assert request["warnings"] and request["revision"] == 1  # baton's own fields stay
    graph.invoke(Command(resume=[{"type": "accept", "args": None}]), config, context=context)
    published = graph.get_state(config).values["published"]
    assert published == f"inbox/tom/{end}-inference-e1prep.md" and (vault / published).is_file()


def test_an_agent_inbox_edit_publishes_the_edited_text(tmp_path: Path) -> None:
    graph, config, context, vault, end = _start(tmp_path)
    (request,) = graph.get_state(config).tasks[0].interrupts[0].value
    args = {**request["action_request"]["args"], "markdown": "# 人工改写\n", "by": "erin"}
    graph.invoke(Command(resume=[{"type": "edit", "args": {"action": APPROVAL_ACTION, "args": args}}]), config,
                 context=context)
    values = graph.get_state(config).values
    assert values["decision"]["by"] == "erin"
    published = (vault / values["published"]).read_text(encoding="utf-8")
    # The edited text is what is published, under the front matter every published brief carries.
    assert published.startswith("---\n") and published.endswith("---\n\n# 人工改写\n")
    assert "approved_by: erin" in published


def test_an_agent_inbox_response_rejects_with_its_text(tmp_path: Path) -> None:
    from workflows.studio import baton_context

    graph, config, context, vault, end = _start(tmp_path)
    graph.invoke(Command(resume=[{"type": "response", "args": "请补来源"}]), config, context=context)
    values = graph.get_state(config).values
    assert values["decision"]["action"] == "reject" and values.get("published") is None
    decisions = baton_context(context).store.decisions(f"inference:{end}")
    assert [(d.action, d.reason) for d in decisions] == [("reject", "请补来源")]


def test_resume_values_map_to_baton_decisions() -> None:
    legacy = {"action": "approve", "by": "alice", "text": None, "replace": False}
    assert decision_from_resume(legacy) is legacy
    assert decision_from_resume([{"type": "ignore", "args": None}])["action"] == "discard"
    assert decision_from_resume({"type": "accept", "args": None}) == {"action": "approve", "by": "agent-inbox"}
    for bad in ([], "yes", {"type": "response", "args": "  "}, {"type": "shrug"}, {"action": "publish"}):
        with pytest.raises(ApprovalError):
            decision_from_resume(bad)


def test_without_a_vault_the_context_says_what_to_give(monkeypatch: pytest.MonkeyPatch) -> None:
    from state.errors import UsageError
    from workflows.studio import baton_context

    monkeypatch.delenv("BATON_VAULT", raising=False)
    with pytest.raises(UsageError, match="vault"):
        baton_context({})
