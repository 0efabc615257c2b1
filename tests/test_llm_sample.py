"""LLM mode on the sample vault's example days (skipped when ../shared is absent): every decision stays the
rules', calls per brief ≤ increments + 2, and the stable prefix is most of every run's prompt tokens."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from state.db import Database
from state.store import Store
from tests.conftest import SHARED_VAULT
from tests.fakes.openai_server import OpenAIFake
from workflows.cli import main
from workflows.quality import example_days

EXAMPLES = SHARED_VAULT.parent / "examples"


def _run(vault: Path, state: Path, topic: str, day: str, env: dict[str, str]) -> dict:
    with pytest.MonkeyPatch.context() as mp:
        for name, value in env.items():
            mp.setenv(name, value)
        code = main(["run", "--vault", str(vault), "--state", str(state), "--topic", topic, "--date", day,
                     "--format", "json", "--offline"])
    assert code == 0
    return json.loads((state / "drafts" / f"{day}-{topic}-e1prep.json").read_text(encoding="utf-8"))


def _decisions(brief: dict) -> list:
    return [[(i["key"], i["status"], i["credibility"], i["warnings"]) for i in brief["increments"]],
            brief["warnings"], brief["arxiv"], brief["excluded"], brief["carried"], brief["below_cut"]]


@pytest.mark.slow
def test_example_days_with_a_model(sample_vault: Path, tmp_path: Path) -> None:
    days = example_days(EXAMPLES)
    if not days:
        pytest.skip(f"no example briefs in {EXAMPLES}")
    with OpenAIFake() as fake:
        env = {"BATON_LLM_BASE_URL": fake.base_url, "BATON_LLM_MODEL": "scripted", "BATON_LLM_API_KEY": "k"}
        for topic, day in days:
            rules = _run(sample_vault, tmp_path / f"rules-{day}", topic, day, {})
            llm = _run(sample_vault, tmp_path / f"llm-{day}", topic, day, env)
            assert _decisions(llm) == _decisions(rules), day
            assert 0 < llm["stats"]["llm_calls"] <= len(llm["increments"]) + 2
            record = Store(Database(f"sqlite:///{tmp_path / f'llm-{day}' / 'baton.db'}")).llm_runs(f"{topic}:{day}")
            assert record[0]["prefix_share"] >= 0.7, (day, record[0]["prefix_share"])
            assert os.environ.get("BATON_LLM_MODEL") is None
