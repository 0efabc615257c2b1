"""`baton schedule --format langgraph` (issue 12): the vault's brief jobs as LangGraph server crons in UTC,
and a cron's input without a day: the graph takes today in the vault's timezone when it runs."""

from __future__ import annotations

import json
import re
import sys
import types
from datetime import date, timedelta
from pathlib import Path

import pytest
from langgraph.checkpoint.memory import InMemorySaver

from state.vault_config import load_vault_config
from workflows.cli import main
from workflows.demo_vault import generate_demo_vault
from workflows.langgraph_crons import GRAPH_ID, langgraph_crons

ROOT = Path(__file__).resolve().parents[1]


def _script(vault: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    capsys.readouterr()
    assert main(["--vault", str(vault), "schedule", "--format", "langgraph", *extra]) == 0
    return capsys.readouterr().out


def _calls(script: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, list[tuple[tuple, dict]]]:
    """Run the printed script against a fake ``langgraph_sdk``: the server URL and every crons.create call."""
    made: list[tuple[tuple, dict]] = []
    urls: list[str] = []

    class Crons:
        def create(self, *args: object, **kwargs: object) -> dict:
            made.append((args, kwargs))
            return {"cron_id": str(len(made))}

    def get_sync_client(url: str) -> object:
        urls.append(url)
        return types.SimpleNamespace(crons=Crons())

    monkeypatch.setitem(sys.modules, "langgraph_sdk", types.SimpleNamespace(get_sync_client=get_sync_client))
    exec(compile(script, "crons.py", "exec"), {})  # noqa: S102 - the script baton printed, against a fake client
    return urls[0], made


def test_the_graph_id_is_langgraph_jsons() -> None:
    assert list(json.loads((ROOT / "langgraph.json").read_text())["graphs"]) == [GRAPH_ID]


def test_sample_vault_crons_in_utc(sample_vault: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_TODAY", "2026-09-29")
    script = _script(sample_vault, capsys)
    assert "times converted from Asia/Shanghai to UTC as of 2026-09-29" in script
    assert "daylight saving" not in script  # Asia/Shanghai has none
    url, made = _calls(script, monkeypatch)
    assert url == "http://127.0.0.1:2024"
    # topics.toml: llm-infra ends 18:40, inference 22:20 (Asia/Shanghai, UTC+8)
    assert [(args, kw["schedule"], kw["input"]) for args, kw in made] == [
        ((GRAPH_ID,), "40 10 * * *", {"topic": "llm-infra"}),
        ((GRAPH_ID,), "20 14 * * *", {"topic": "inference"}),
    ]
    for _, kw in made:
        assert kw["context"] == {"vault": str(sample_vault), "offline": False}
        assert kw["on_run_completed"] == "keep"  # the waiting brief's thread stays for Agent Inbox
        assert "day" not in kw["input"] and "thread" not in kw["input"]


def test_a_generated_vault_in_a_zone_with_dst(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    vault = generate_demo_vault(tmp_path / "vault").root
    schedule = vault / "schedule.toml"
    text = re.sub(r'timezone = "[^"]+"', 'timezone = "Europe/Berlin"', schedule.read_text(encoding="utf-8"))
    schedule.write_text(text, encoding="utf-8")
    cfg = load_vault_config(vault)
    ends = {name: topic.window_end for name, topic in cfg.topics.items()}
    monkeypatch.setenv("BATON_TODAY", "2026-07-01")  # summer: UTC+2
    script = _script(vault, capsys, "--server", "http://127.0.0.1:8123")
    assert "daylight saving time" in script
    url, summer = _calls(script, monkeypatch)
    assert url == "http://127.0.0.1:8123"
    assert len(summer) == len(ends)
    for _, kw in summer:
        hour, minute = (int(x) for x in ends[kw["input"]["topic"]].split(":"))
        assert kw["schedule"] == f"{minute} {(hour - 2) % 24} * * *"
    winter = langgraph_crons(cfg, date(2026, 1, 15))
    for cron in winter:
        hour, minute = (int(x) for x in cron.local.split(":"))
        assert cron.schedule == f"{minute} {(hour - 1) % 24} * * *"


def test_a_cron_input_without_a_day_runs_the_vaults_today(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from workflows.studio import StudioContext, make_graph

    manifest = generate_demo_vault(tmp_path / "vault")
    end = manifest.end  # 2026-10-14; in UTC it is still the 13th at 07:30 Asia/Shanghai
    monkeypatch.setenv("BATON_NOW", f"{(end - timedelta(days=1)).isoformat()}T23:30:00+00:00")
    graph = make_graph(InMemorySaver())
    config = {"configurable": {"thread_id": "cron-run-1"}}  # a cron's own thread, not baton's id
    graph.invoke({"topic": "inference"}, config, context=StudioContext(vault=str(manifest.root)))
    values = graph.get_state(config).values
    assert values["day"] == end.isoformat()
    assert values["thread"] == f"inference:{end.isoformat()}"
    assert graph.get_state(config).next == ("approve",)
    draft = manifest.root / ".baton" / "drafts" / f"{end.isoformat()}-inference-e1prep.md"
    assert draft.is_file()
