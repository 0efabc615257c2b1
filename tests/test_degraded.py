"""Exit codes a scheduler can use: 3 when the run is done but degraded, with one line saying why."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import pytest

from tests.fakes.webhook import WebhookReceiver
from workflows.cli import main
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import generate_demo_vault


@pytest.fixture
def demo(tmp_path: Path) -> DemoManifest:
    return generate_demo_vault(tmp_path / "vault")


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_arxiv_unreachable_is_exit_3_one_line_one_note(demo: DemoManifest, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_ARXIV_URL", f"http://127.0.0.1:{_closed_port()}/api/query")
    monkeypatch.setenv("BATON_ARXIV_DELAY", "0.01")
    monkeypatch.setenv("BATON_ARXIV_BUDGET", "2")
    day = demo.end.isoformat()
    assert main(["run", "--vault", str(demo.root), "--topic", "inference", "--date", day]) == 3
    err = capsys.readouterr().err.strip().splitlines()
    degraded = [line for line in err if line.startswith("baton: degraded:")]
    assert len(degraded) == 1 and err[-1] == degraded[0]
    assert "arXiv unreachable (cannot reach arXiv" in degraded[0]
    assert f"retry with `baton run --topic inference --date {day}`" in degraded[0]
    drafts = demo.root / ".baton" / "drafts"
    brief = json.loads((drafts / f"{day}-inference-e1prep.json").read_text(encoding="utf-8"))
    assert brief["stats"]["arxiv_failure_kind"] == "connect"
    unverified = [e for e in brief["arxiv"] if e["verified"] == "unverified"]
    assert unverified and not any("cannot reach" in (e["note"] or "") for e in unverified)
    markdown = (drafts / f"{day}-inference-e1prep.md").read_text(encoding="utf-8")
    assert markdown.count("arXiv 未能连通") == 1 and "cannot reach" not in markdown


def test_offline_is_not_degraded(demo: DemoManifest, capsys: pytest.CaptureFixture[str]) -> None:
    day = demo.end.isoformat()
    assert main(["run", "--vault", str(demo.root), "--topic", "inference", "--date", day, "--offline"]) == 0
    assert "degraded" not in capsys.readouterr().err
    brief = json.loads((demo.root / ".baton" / "drafts" / f"{day}-inference-e1prep.json").read_text(encoding="utf-8"))
    assert brief["stats"]["arxiv_failure"] is None


def test_failing_webhook_in_a_run_is_exit_3(demo: DemoManifest, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    with WebhookReceiver(codes=[403] * 50) as hook:
        monkeypatch.setenv("BATON_WEBHOOKS", hook.url)
        monkeypatch.setenv("BATON_TODAY", demo.end.isoformat())
        code = main(["run", "--vault", str(demo.root), "--topic", "inference", "--date", demo.end.isoformat(),
                     "--offline"])
        assert hook.requests, "the run had alerts to send"
    assert code == 3
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith("baton: degraded: ") and "not delivered" in last and "HTTP 403" in last
