"""What LLM mode costs: calls, tokens and the common-prefix share of prompt tokens, per example day.

Run: ``.venv/bin/python -m tests.benchmarks.bench_llm [--vault ../shared/vault] [--examples ../shared/examples]``

Each example day (``<day>-<topic>-e1prep.md`` in the examples folder) runs
offline on a copy of the sample vault against the scripted loopback server
(``tests/fakes/openai_server.py``, a model that words each task from its own
data). Without the sample vault (or its examples) the days are skipped and a
generated demo vault is used instead. Tokens are the server's count
(``agents.llm.tokens``: a CJK character, a word or a mark is one token); the
prefix share is the part of all prompt tokens that every call of the run
begins with — what vLLM's and SGLang's prefix caches reuse (target ≥ 0.7).
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from datetime import date
from pathlib import Path

from state.db import Database
from state.models import Brief
from state.settings import settings_from_env
from state.store import Store
from tests.fakes.openai_server import OpenAIFake
from workflows import api
from workflows.demo_vault import generate_demo_vault
from workflows.quality import example_days

_SHARED = Path(__file__).resolve().parents[3] / "shared"


def _run_day(vault: Path, topic: str, day: str, fake: OpenAIFake) -> tuple[Brief, dict]:
    settings = settings_from_env(vault, vault / ".baton", offline=True, formats=("json",))
    ctx = api.open_context(settings)
    try:
        outcome = api.run_brief(ctx, topic, date.fromisoformat(day))
        brief = Brief.model_validate_json(Path(outcome.drafts[0]).read_text(encoding="utf-8"))
        record = Store(Database(settings.database_url)).llm_runs(outcome.thread)[-1]
    finally:
        ctx.db.dispose()
    return brief, record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.bench_llm", description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, default=_SHARED / "vault")
    parser.add_argument("--examples", type=Path, default=_SHARED / "examples")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="baton-bench-llm-") as temp, OpenAIFake() as fake:
        os.environ.update(BATON_LLM_BASE_URL=fake.base_url, BATON_LLM_MODEL="scripted", BATON_LLM_API_KEY="bench")
        days = example_days(args.examples) if args.examples.is_dir() else []
        if (args.vault / "topics.toml").is_file() and days:
            vault = Path(temp) / "vault"
            shutil.copytree(args.vault, vault)
            label = "sample vault"
        else:
            print(f"sample vault or examples absent ({args.vault}, {args.examples}): example days skipped, "
                  "using a generated demo vault")
            manifest = generate_demo_vault(Path(temp) / "demo")
            vault, label = manifest.root, "demo vault"
            days = [(topic, manifest.end.isoformat()) for topic in manifest.topics]
        print(f"{'day':<11} {'topic':<12} {'increments':>10} {'calls':>6} {'≤ inc+2':>8} {'tokens':>8} "
              f"{'dropped':>8} {'prefix share':>13}   ({label}, scripted server)")
        total_calls = total_tokens = 0
        for topic, day in days:
            brief, record = _run_day(vault, topic, day, fake)
            calls, tokens = brief.stats.llm_calls, brief.stats.llm_tokens
            total_calls, total_tokens = total_calls + calls, total_tokens + tokens
            bound = "yes" if calls <= len(brief.increments) + 2 else "NO"
            print(f"{day:<11} {topic:<12} {len(brief.increments):>10} {calls:>6} {bound:>8} {tokens:>8} "
                  f"{brief.stats.llm_dropped:>8} {record['prefix_share']:>13.3f}")
        print(f"total: {total_calls} calls, {total_tokens} tokens over {len(days)} briefs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
