"""`baton run` end to end on the project's own demo vault (always runs; no ../shared).

Every expectation comes from the generator's manifest (``workflows/demo_vault.py``),
so the assertions follow the planted traps wherever the seed puts them.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agents.scanner.cards import Card, parse_card
from agents.scanner.notes import read_vault_file
from state.vault_config import load_vault_config
from tests.conftest import BRIEF_HEADINGS, INCREMENT_FIELDS
from workflows.cli import main
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import generate_demo_vault

TZ = ZoneInfo("Asia/Shanghai")
TOPIC = "inference"
_CITATION = re.compile(r"（[^（）]*\.md(?: L\d+)?）\s*$")
_NUMBER = re.compile(r"\d+(?:\.\d+)*")


def _clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}


def _drafts(manifest: DemoManifest) -> Path:
    return manifest.root / ".baton" / "drafts"


def _run(manifest: DemoManifest, fmt: str = "json") -> dict:
    with pytest.MonkeyPatch.context() as mp:
        for name in [k for k in os.environ if k.startswith("BATON_")]:
            mp.delenv(name)
        code = main(["run", "--vault", str(manifest.root), "--topic", TOPIC, "--date", manifest.end.isoformat(),
                     "--format", fmt, "--offline"])
    assert code == 0
    path = _drafts(manifest) / f"{manifest.end}-{TOPIC}-e1prep.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _without_seconds(brief: dict) -> dict:
    copy = json.loads(json.dumps(brief))
    copy["stats"].pop("seconds", None)
    return copy


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoManifest:
    return generate_demo_vault(tmp_path_factory.mktemp("demo-run") / "vault")


@pytest.fixture(scope="module")
def brief(demo: DemoManifest) -> dict:
    return _run(demo, "both")


@pytest.fixture(scope="module")
def markdown(demo: DemoManifest, brief: dict) -> str:
    return (_drafts(demo) / f"{demo.end}-{TOPIC}-e1prep.md").read_text(encoding="utf-8")


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[DemoManifest]:
    yield generate_demo_vault(tmp_path / "vault")


def _sources(brief: dict) -> dict[str, dict]:
    return {s["path"]: s for s in brief["sources"]}


def _window(manifest: DemoManifest) -> tuple[datetime, datetime]:
    return load_vault_config(manifest.root).topic(TOPIC).window(manifest.end, TZ)


# -- sources -------------------------------------------------------------------------------------


def test_read_notes_are_exactly_the_end_days_notes(demo: DemoManifest, brief: dict) -> None:
    sources = _sources(brief)
    assert brief["thread"] == f"{TOPIC}:{demo.end}"
    start, end = _window(demo)
    assert brief["window"] == {"start": start.isoformat(), "end": end.isoformat()}
    # In the demo vault every note of the end day falls in the window and no earlier note does
    # (the eve's last note is the 22:20 brief, on the open start of the window).
    dated_today = {p.relative_to(demo.root).as_posix() for p in (demo.root / "inbox").rglob(f"*{demo.end}*.md")}
    defective = {demo.empty_note, demo.truncated_note, demo.duplicate.copy}
    read = {p for p, s in sources.items() if s["kind"] == "note" and s["status"] == "read"}
    assert read == dated_today - defective
    for path in read:
        when = datetime.fromisoformat(sources[path]["time"])
        assert start < when <= end, path
    assert {demo.duplicate.kept, demo.gb18030_note, demo.false_alarm.path} <= read


def test_time_rule_of_each_planted_note(demo: DemoManifest, brief: dict) -> None:
    sources = _sources(brief)
    for path, rule in demo.time_sources.items():
        assert sources[path]["time_from"] == rule, path
        assert sources[path]["time"].startswith(demo.end.isoformat()), path
        if rule == "date_only":
            assert sources[path]["time"] == f"{demo.end}T12:00:00+08:00", path


def test_defective_files_are_flagged_with_reasons(demo: DemoManifest, brief: dict) -> None:
    sources = _sources(brief)
    gb = sources[demo.gb18030_note]
    assert (gb["status"], gb["encoding"]) == ("read", "gb18030")
    assert sources[demo.empty_note]["status"] == "empty" and sources[demo.empty_note]["bytes"] == 0
    assert sources[demo.truncated_note]["status"] == "truncated"
    assert "在句中断开" in sources[demo.truncated_note]["reason"]
    assert sources[demo.undated_note]["status"] == "undated"
    copy = sources[demo.duplicate.copy]
    assert copy["status"] == "duplicate" and copy["duplicate_of"] == demo.duplicate.kept
    assert sources[demo.duplicate.kept]["status"] == "read"
    bad = sources[demo.bad_card]
    assert bad["kind"] == "card" and bad["status"] == "bad_front_matter" and "YAML" in bad["reason"]
    for source in brief["sources"]:
        assert (source["status"] == "read") == (source["reason"] is None), source["path"]


def test_cards_in_and_out_of_the_window_by_ingested(demo: DemoManifest, brief: dict) -> None:
    sources = _sources(brief)
    assert sources[demo.card_in_window]["status"] == "read"
    assert sources[demo.card_out_of_window]["status"] == "out_of_window"
    assert sources[demo.card_at_window_start]["status"] == "out_of_window"
    start, end = _window(demo)
    expected = set()
    for path in sorted((demo.root / "organized" / "paper_cards").glob("*.md")):
        card = parse_card(read_vault_file(demo.root, path, TZ))
        if isinstance(card, Card) and start < card.ingested <= end:
            expected.add(path.relative_to(demo.root).as_posix())
    listed = {p for p, s in sources.items() if s["kind"] == "card" and s["status"] == "read"}
    assert listed == expected and len(expected) >= 5


# -- re-runs ----------------------------------------------------------------------------------------


def _row_counts(manifest: DemoManifest) -> dict[str, int]:
    with sqlite3.connect(manifest.root / ".baton" / "baton.db") as conn:
        return {t: conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]  # noqa: S608 (fixed names)
                for t in ("sources", "mentions", "register_entries")}


def test_second_identical_run_same_brief_no_new_rows(fresh: DemoManifest) -> None:
    first = _run(fresh)
    counts = _row_counts(fresh)
    assert counts["sources"] > 0 and counts["mentions"] > 0 and counts["register_entries"] > 0
    second = _run(fresh)
    assert _row_counts(fresh) == counts
    assert first == second  # the very same brief, stats included


def test_killed_after_verify_resumes_and_writes_the_same_brief(fresh: DemoManifest, brief: dict) -> None:
    command = [sys.executable, "-m", "workflows.cli", "run", "--vault", str(fresh.root), "--topic", TOPIC,
               "--date", fresh.end.isoformat(), "--offline"]
    crashed = subprocess.run(command, env={**_clean_env(), "BATON_CRASH_AFTER": "verify"},
                             capture_output=True, text=True, timeout=120)
    assert crashed.returncode == 137, crashed.stderr
    md = _drafts(fresh) / f"{fresh.end}-{TOPIC}-e1prep.md"
    assert not md.exists()
    resumed = subprocess.run(command, env=_clean_env(), capture_output=True, text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert f"resuming {TOPIC}:{fresh.end} at integrate" in resumed.stderr
    assert "scan:" not in resumed.stderr
    assert md.is_file()
    again = json.loads(md.with_suffix(".json").read_text(encoding="utf-8"))
    assert _without_seconds(again) == _without_seconds(brief)


# -- increments ------------------------------------------------------------------------------------


def test_increment_count_and_honest_density(brief: dict) -> None:
    count = len(brief["increments"])
    assert [inc["rank"] for inc in brief["increments"]] == list(range(1, count + 1))
    assert f"「{brief['density']}」" in brief["honesty"]
    if count < 3:
        assert brief["density"] in ("中", "低") and "硬凑" in brief["honesty"]
    else:
        assert count <= 8


def test_net_new_and_anchored_papers_keep_their_status(demo: DemoManifest, brief: dict) -> None:
    by_id = {i: inc for inc in brief["increments"] for i in inc["arxiv"]}
    present = [i for i in demo.net_new_ids if i in by_id]
    assert len(present) >= 3, by_id.keys()
    for identifier in present:
        assert by_id[identifier]["status"] == "net_new", identifier
    for identifier in demo.anchored_ids:
        assert identifier not in by_id or by_id[identifier]["status"] != "net_new", identifier
    citable = {entry["id"]: entry for entry in brief["arxiv"]}
    for identifier in demo.anchored_ids:
        assert citable[identifier]["status"] in ("carried", "integrated"), identifier


def test_multimodal_cards_are_excluded_not_increments(demo: DemoManifest, brief: dict) -> None:
    used = {path for inc in brief["increments"] for path in inc["sources"]}
    excluded = {path for item in brief["excluded"] for path in item["sources"]}
    for card in demo.excluded_cards:
        assert card not in used
        assert card in excluded
    numbers = {int(Path(card).name.split("-")[0]) for card in demo.excluded_cards}
    assert not numbers & {inc["paper_card"] for inc in brief["increments"]}


def test_every_figure_of_every_point_is_in_its_sources(demo: DemoManifest, brief: dict) -> None:
    checked = 0
    for inc in brief["increments"]:
        text = "\n".join(read_vault_file(demo.root, demo.root / p, TZ).text for p in inc["sources"])
        assert inc["points"], inc["title"]
        for point in inc["points"]:
            point = re.sub(r"〔与他源不一，见 [^〕]*〕$", "", point)  # the brief's mark on a disputed figure, not a quote
            cited = _CITATION.search(point)
            if cited:
                assert cited.group(0).strip("（） \n").split(" L")[0] in inc["sources"], point
            for figure in _NUMBER.findall(_CITATION.sub("", point)):
                assert figure in text, f"{figure!r} of {point!r} is in none of {inc['sources']}"
                checked += 1
    assert checked >= 5


# -- warnings --------------------------------------------------------------------------------------


def _warnings(brief: dict, kind: str) -> list[dict]:
    return [w for w in brief["warnings"] if w["kind"] == kind]


def test_malformed_id_names_the_intended_one(demo: DemoManifest, brief: dict) -> None:
    raw, intended, path, _ = demo.malformed_id
    [warning] = [w for w in _warnings(brief, "id_malformed") if raw in w["text"]]
    assert intended in warning["text"] and path in warning["sources"]
    [entry] = [e for e in brief["arxiv"] if e["id"] == raw]
    assert entry["verified"] == "malformed" and entry["likely"] == intended


def test_number_conflict_lists_both_figures(demo: DemoManifest, brief: dict) -> None:
    conflict = demo.number_conflict
    matching = [w for w in _warnings(brief, "number_conflict") if w["subject"].startswith(conflict.entity)]
    assert len(matching) == 1, matching
    warning = matching[0]
    for value in conflict.values:
        assert f"{value:g}{conflict.unit}" in warning["text"]
    assert set(conflict.paths) <= set(warning["sources"])


def test_version_conflict_is_raised_on_the_product(demo: DemoManifest, brief: dict) -> None:
    product, (_, written), (_, csdn) = demo.version_conflict
    matching = [w for w in _warnings(brief, "version_conflict") if w["subject"] == product]
    assert matching and any(written.lstrip("v") in w["text"] and csdn in w["sources"] for w in matching)


def test_version_conflict_names_both_notes_of_the_window(demo: DemoManifest, brief: dict) -> None:
    product, versions, paths = demo.version_conflict
    matching = [w for w in _warnings(brief, "version_conflict") if w["subject"] == product]
    assert any(set(paths) <= set(w["sources"]) and all(v.lstrip("v") in w["text"] for v in versions)
               for w in matching), [w["text"] for w in matching]


def test_promise_instruction_and_false_alarm(demo: DemoManifest, brief: dict) -> None:
    text, due, path = demo.promise
    kind = "promise_overdue" if due < demo.end else "promise_open"
    assert any(path in w["sources"] and due.strftime("%Y-%m") in w["text"] for w in _warnings(brief, kind))
    instruction = _warnings(brief, "instruction_in_source")
    assert [w["sources"] for w in instruction] == [[demo.instruction.path]]
    alarm = demo.false_alarm
    [warning] = _warnings(brief, "false_alarm")
    assert alarm.path in warning["sources"] and warning["subject"] == f"{alarm.slot}/{alarm.day}"
    assert demo.earlier_briefs[TOPIC] in warning["sources"]


def test_transposed_number_is_not_sold_as_net_new(demo: DemoManifest, brief: dict) -> None:
    wrong = demo.two_numbers.wrong
    assert any(wrong in w["text"] for w in _warnings(brief, "id_conflict"))
    entry = next(e for e in brief["arxiv"] if e["id"] == wrong)
    assert entry["status"] != "net_new"


# -- Markdown --------------------------------------------------------------------------------------


def test_markdown_headings_in_the_examples_order(markdown: str) -> None:
    lines = [line.strip() for line in markdown.splitlines()]
    positions = [lines.index(heading) for heading in BRIEF_HEADINGS]
    assert positions == sorted(positions)
    assert lines[0].startswith(f"{TOPIC} · E1 预消化简报")
    assert "执行体：tom" in markdown[: markdown.index("状态摘要")]


def test_every_increment_block_has_every_field(markdown: str, brief: dict) -> None:
    part = markdown[markdown.index("\n二、增量条目"): markdown.index("\n三、值得警惕")]
    blocks = re.split(r"\n增量 \d+：", part)[1:]
    assert len(blocks) == len(brief["increments"])
    for block, inc in zip(blocks, brief["increments"], strict=True):
        assert inc["title"] in block.splitlines()[0]
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        starts = [next(i for i, line in enumerate(lines) if line.startswith(f)) for f in INCREMENT_FIELDS]
        assert starts == sorted(starts), inc["title"]
        for field, at in zip(INCREMENT_FIELDS, starts, strict=True):
            value = lines[at][len(field):].strip() or lines[at + 1]
            assert value, f"{field} of {inc['title']!r} is empty"


def test_front_matter_dates_without_offset_do_not_break_a_run(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    manifest = generate_demo_vault(root)
    for rel in ("organized/knowledge/inference.md", "organized/registry/contradictions.md"):
        path = root / rel
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"(updated: \d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(:\d{2})?[+-]\d{2}:\d{2}", r"\1 \2", text),
                        encoding="utf-8")
    assert main(["run", "--vault", str(root), "--topic", "inference", "--date", manifest.end.isoformat(),
                 "--offline", "--format", "json"]) == 0
    brief = json.loads((root / ".baton/drafts" / f"{manifest.end}-inference-e1prep.json").read_text("utf-8"))
    living = next(s for s in brief["sources"] if s["kind"] == "living_doc")
    assert living["time"].endswith("+08:00")


def test_a_vault_changed_after_a_kill_starts_the_run_over(fresh: DemoManifest) -> None:
    command = [sys.executable, "-m", "workflows.cli", "run", "--vault", str(fresh.root), "--topic", TOPIC,
               "--date", fresh.end.isoformat(), "--offline"]
    crashed = subprocess.run(command, env={**_clean_env(), "BATON_CRASH_AFTER": "verify"},
                             capture_output=True, text=True, timeout=120)
    assert crashed.returncode == 137, crashed.stderr
    kept = fresh.duplicate.kept  # an in-window note: edit it after the kill
    with (fresh.root / kept).open("a", encoding="utf-8") as handle:
        handle.write("\n补记：vLLM 复现 TTFT 99ms。\n")
    rerun = subprocess.run(command, env=_clean_env(), capture_output=True, text=True, timeout=120)
    assert rerun.returncode == 0, rerun.stderr
    assert "the vault changed since" in rerun.stderr and "resuming" not in rerun.stderr
    assert "scan:" in rerun.stderr  # the window was read again from the start, by the scan node
    brief = json.loads((_drafts(fresh) / f"{fresh.end}-{TOPIC}-e1prep.json").read_text(encoding="utf-8"))
    edited = {s["path"]: s for s in brief["sources"]}[kept]
    assert edited["status"] == "read" and edited["duplicate_of"] is None
