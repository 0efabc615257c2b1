"""`baton run` end to end on a copy of the sample vault (skipped when ../shared is absent)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import func, select

from state.db import Database, sqlite_url
from state.tables.core import MentionRow, SourceRow
from workflows.cli import main


def _run(vault: Path, *extra: str) -> dict:
    code = main(["run", "--vault", str(vault), "--topic", "inference", "--date", "2026-09-29",
                 "--format", "json", "--offline", *extra])
    assert code == 0
    out = vault / ".baton" / "drafts" / "2026-09-29-inference-e1prep.json"
    return json.loads(out.read_text(encoding="utf-8"))


def _by_path(brief: dict) -> dict[str, dict]:
    return {source["path"]: source for source in brief["sources"]}


def test_sources_of_the_window_are_exact(sample_vault: Path) -> None:
    brief = _run(sample_vault)
    sources = _by_path(brief)
    assert brief["thread"] == "inference:2026-09-29"
    assert brief["window"] == {"start": "2026-09-28T22:20:00+08:00", "end": "2026-09-29T22:20:00+08:00"}
    read_notes = sorted(p for p, s in sources.items() if s["kind"] == "note" and s["status"] == "read")
    expected = sorted(
        f"inbox/{p}" for p in [
            "tom/2026-09-29-0900-hf-daily-2026-09-29.md",
            "jay/2026-09-29T1105-jay-five-category-briefing.md",
            "jay/2026-09-29-engineering-e1prep.md",
            "jay/2026-09-29-csdn-aiagent-rag-highvalue.md",
            "stephen/2026-09-29-1245-stephen-coordination-check-noon.md",
            "jay/2026-09-29-jay-afternoon-briefing-inference-vecdb-stack2026.md",
            "jay/2026-09-29T1450-jay-engineering-secondary-screening.md",
            "jay/2026-09-29T1505-jay-evening-briefing-inference-vecdb-stack2026.md",
            "flyp/2026-09-29-coding-agents-e1prep.md",
            "jay/2026-09-29T1735-jay-evening-kvcache-context-engineering-stack2026.md",
            "spark/2026-09-29-llm-infra-e1prep.md",
            "stephen/2026-09-29-llm-application-e1prep.md",
            "flyp/2026-09-29-risk-e1prep.md",
        ]
    )
    assert read_notes == expected
    # time_from right for each naming style
    assert sources["inbox/jay/2026-09-29T1505-jay-evening-briefing-inference-vecdb-stack2026.md"]["time_from"] == "name"
    assert sources["inbox/jay/2026-09-29-jay-afternoon-briefing-inference-vecdb-stack2026.md"]["time"] == \
        "2026-09-29T14:05:00+08:00"
    assert sources["inbox/spark/2026-09-29-llm-infra-e1prep.md"]["time_from"] == "body"
    assert sources["inbox/spark/2026-09-29-llm-infra-e1prep.md"]["time"] == "2026-09-29T18:40:00+08:00"
    # defects, each with a reason
    copy = sources["inbox/jay/2026-09-29-engineering-e1prep-copy.md"]
    assert copy["status"] == "duplicate" and copy["duplicate_of"] == "inbox/jay/2026-09-29-engineering-e1prep.md"
    assert sources["inbox/jay/scratch-links.md"]["status"] == "undated"
    empty = sources["inbox/jay/2026-09-28-ai-engineering-rag-agents.md"]
    assert "empty" in empty["flags"] and empty["time_from"] == "date_only"
    truncated = sources["inbox/tom/2026-09-28-evaluation-e1prep.md"]
    assert "truncated" in truncated["flags"]
    gb = sources["inbox/flyp/2026-09-27-risk-e1prep.md"]
    assert gb["encoding"] == "gb18030" and gb["time"] == "2026-09-27T20:35:00+08:00"
    for source in brief["sources"]:
        assert (source["status"] == "read") == (source["reason"] is None), source["path"]
    # cards in and out of the window by their ingested time
    assert sources["organized/paper_cards/1546-2609-31415.md"]["status"] == "read"
    assert sources["organized/paper_cards/1537-2608-09444.md"]["status"] == "out_of_window"
    # the slot's own brief of the day is not an input; earlier ones are the baseline
    assert sources["inbox/tom/2026-09-29-inference-e1prep.md"]["in_window"] is False
    assert sources["inbox/tom/2026-09-28-inference-e1prep.md"]["kind"] == "brief"
    assert sources["inbox/jay/2026-09-29-engineering-e1prep.md"]["bytes"] == 3595


def _counts(vault: Path) -> tuple[int, int]:
    db = Database(sqlite_url(vault / ".baton"))
    with db.session() as session:
        counts = (session.scalar(select(func.count()).select_from(SourceRow)),
                  session.scalar(select(func.count()).select_from(MentionRow)))
    db.dispose()
    return counts


def test_second_run_writes_the_same_brief_and_no_duplicate_rows(sample_vault: Path) -> None:
    first = _run(sample_vault)
    counts = _counts(sample_vault)
    second = _run(sample_vault)
    assert _counts(sample_vault) == counts
    assert first == second  # the very same brief, stats included: an identical re-run rewrites nothing


def test_killed_between_nodes_resumes_from_the_checkpoint(sample_vault: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "workflows.cli", "run", "--vault", str(sample_vault), "--topic", "inference",
               "--date", "2026-09-29", "--offline"]
    env = {**os.environ, "BATON_CRASH_AFTER": "verify"}
    crashed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert crashed.returncode == 137
    assert not (sample_vault / ".baton" / "drafts" / "2026-09-29-inference-e1prep.md").exists()
    env.pop("BATON_CRASH_AFTER")
    resumed = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming inference:2026-09-29 at integrate" in resumed.stderr
    assert "scan:" not in resumed.stderr  # the scan node did not run again
    assert (sample_vault / ".baton" / "drafts" / "2026-09-29-inference-e1prep.md").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--topic", "nope", "--date", "2026-09-29"], "unknown topic 'nope'"),
        (["--topic", "inference", "--date", "2026-02-30"], "is not a date"),
    ],
)
def test_bad_arguments_exit_2_with_one_line(sample_vault: Path, capsys: pytest.CaptureFixture[str],
                                            args: list[str], message: str) -> None:
    with pytest.raises(SystemExit) as raised:
        code = main(["run", "--vault", str(sample_vault), *args])
        raise SystemExit(code)
    assert raised.value.code == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_missing_vault_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--vault", str(tmp_path / "none"), "--topic", "inference", "--date", "2026-09-29"]) == 2
    assert "does not exist" in capsys.readouterr().err
