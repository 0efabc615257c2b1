"""The integrator on a copy of the sample vault: the Done-when of issue 4 for the three example days."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from agents.integrator.markdown import render_markdown
from agents.scanner.notes import decode_bytes
from agents.scanner.urls import find_urls, normalize_url
from agents.scanner.window import scan_window
from state.models import Brief
from state.settings import settings_from_env
from state.vault_config import load_vault_config
from workflows import api

pytestmark = pytest.mark.sample_vault

DAYS = [("inference", "2026-09-27"), ("inference", "2026-09-29"), ("llm-infra", "2026-09-28")]
_CITATION = re.compile(r"（[^（）]*\.md(?: L\d+(?:[–-]\d+)?)?）")  # where a point or a quoted judgement stands
_FIGURE = re.compile(r"\d+(?:\.\d+)+|\d+(?:,\d{3})*")


def _brief(vault: Path, topic: str, day: str):
    """The brief as `baton run --offline` writes it (the whole pipeline: verifier warnings included)."""
    ctx = api.open_context(settings_from_env(vault, vault / ".baton", offline=True, formats=("json",)))
    outcome = api.run_brief(ctx, topic, date.fromisoformat(day))
    ctx.db.dispose()
    brief = Brief.model_validate_json(Path(outcome.drafts[0]).read_text(encoding="utf-8"))
    return scan_window(load_vault_config(vault), topic, date.fromisoformat(day)), brief


def test_done_when_2026_09_29_inference(sample_vault: Path):
    _, brief = _brief(sample_vault, "inference", "2026-09-29")
    assert 3 <= len(brief.increments) <= 8
    status = {i: inc.status for inc in brief.increments for i in inc.arxiv}
    assert status["2609.31415"] == "net_new"
    assert status["2609.26333"] == "net_new"
    assert status["2609.23130"] == "integrated"
    cards = {inc.paper_card for inc in brief.increments}
    assert not cards & set(range(1558, 1564))
    assert {x["paper_card"] for x in brief.excluded} >= set(range(1558, 1564))
    sections = {i: inc.section for inc in brief.increments for i in inc.arxiv}
    assert sections["2609.31415"] == "§3.3"
    assert sections["2609.26333"] == "§2.3"  # the vault's PD-disaggregation section


@pytest.mark.parametrize(("topic", "day"), DAYS)
def test_every_increment_figure_occurs_in_its_sources(sample_vault: Path, topic: str, day: str):
    scan, brief = _brief(sample_vault, topic, day)
    assert brief.increments, "an example day with no increment"
    living = (sample_vault / scan.topic.living_doc).read_text(encoding="utf-8")
    queue = (sample_vault / "organized/queue/work-queue.md").read_text(encoding="utf-8")
    for inc in brief.increments:
        corpus = "\n".join(decode_bytes((sample_vault / p).read_bytes())[0] or "" for p in inc.sources) + living + queue
        texts = [_CITATION.sub("", t) for t in [*inc.points, inc.argument, inc.title, inc.relation]]
        for text in texts:
            for figure in _FIGURE.findall(text):
                assert figure in corpus, f"increment {inc.rank} states {figure!r} that no source gives: {text}"
        given = {normalize_url(url) for url, _, _ in find_urls(corpus)}
        for url in inc.urls:
            assert normalize_url(url) in given, f"increment {inc.rank} gives URL {url} that no source gives"
        for point in inc.points:
            assert _CITATION.search(point), f"uncited point: {point}"


@pytest.mark.parametrize(("topic", "day"), DAYS)
def test_sample_days_render_and_serialise(sample_vault: Path, topic: str, day: str):
    _, brief = _brief(sample_vault, topic, day)
    markdown = render_markdown(brief)
    assert markdown.startswith(f"{topic} · E1 预消化简报({day})")
    data = brief.model_dump(mode="json")
    assert data["window"]["end"].endswith("+08:00")
    assert {"sources", "increments", "warnings", "arxiv", "gaps", "alerts", "stats"} <= set(data)
    assert all(s["status"] == "read" or s["reason"] for s in data["sources"])
