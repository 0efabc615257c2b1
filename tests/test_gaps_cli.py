"""`baton gaps` and `baton excuse` through the CLI: JSON, the SVG heatmap, excuses, the sample vault's streaks."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from datetime import date, datetime, timedelta
from pathlib import Path

import pytest

from state.vault_config import load_vault_config
from workflows.cli import main
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import generate_demo_vault

SVG = "{http://www.w3.org/2000/svg}"


def _gaps(vault: Path, day: date | str, capsys: pytest.CaptureFixture[str], *extra: str) -> dict:
    capsys.readouterr()
    assert main(["gaps", "--vault", str(vault), "--date", str(day), "--json", *extra]) == 0
    return json.loads(capsys.readouterr().out)


def _by_key(payload: dict) -> dict[tuple[str, str], dict]:
    entries = {(f"{g['agent']}/{g['slot']}", g["date"]): g for g in payload["gaps"]}
    assert len(entries) == len(payload["gaps"]), "one entry per slot and day"
    return entries


def _days(first: date, last: date) -> list[str]:
    return [(first + timedelta(days=k)).isoformat() for k in range((last - first).days + 1)]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoManifest:
    return generate_demo_vault(tmp_path_factory.mktemp("demo-gaps") / "vault")


# -- the demo vault ------------------------------------------------------------------------------------


def test_json_has_one_entry_per_slot_and_day(demo: DemoManifest, capsys: pytest.CaptureFixture[str]) -> None:
    payload = _gaps(demo.root, demo.end, capsys, "--days", "7")
    slots = [slot.key for slot in load_vault_config(demo.root).schedule.slot]
    shown = _days(demo.end - timedelta(days=6), demo.end)
    assert set(_by_key(payload)) == {(slot, day) for slot in slots for day in shown}


def test_late_streak_arrival_and_the_open_gap(demo: DemoManifest, capsys: pytest.CaptureFixture[str]) -> None:
    gaps = _by_key(_gaps(demo.root, demo.end, capsys, "--days", "7"))
    late = demo.late_slot
    before = gaps[(late.slot, (late.first - timedelta(days=1)).isoformat())]
    assert (before["status"], before["streak"]) == ("met", 0)
    for n, day in enumerate(_days(late.first, late.last), start=1):
        entry = gaps[(late.slot, day)]
        assert (entry["status"], entry["streak"]) == ("late", n), day
        assert datetime.fromisoformat(entry["arrived"]).strftime("%H:%M") == late.arrival
    assert n == late.streak
    end = gaps[(late.slot, demo.end.isoformat())]
    assert (end["status"], end["streak"], end["arrived"]) == ("missing", late.streak + 1, None)


def test_missing_day_and_false_alarm(demo: DemoManifest, capsys: pytest.CaptureFixture[str]) -> None:
    payload = _gaps(demo.root, demo.end, capsys, "--days", "7")
    gaps = _by_key(payload)
    missing = demo.missing_slot
    assert gaps[(missing.slot, missing.day.isoformat())]["status"] == "missing"
    for neighbour in (missing.day - timedelta(days=1), missing.day + timedelta(days=1)):
        assert gaps[(missing.slot, neighbour.isoformat())]["status"] == "met"
    alarm = demo.false_alarm
    [warning] = [w for w in payload["warnings"] if w["kind"] == "false_alarm"]
    assert warning["subject"] == f"{alarm.slot}/{alarm.day}" and alarm.path in warning["sources"]
    assert gaps[(alarm.slot, alarm.day.isoformat())]["status"] == "met"  # the vault says it came on time


def _svg(demo_root: Path, day: date | str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
         days: int = 7) -> tuple[ET.Element, dict]:
    path = tmp_path / "gaps.svg"
    payload = _gaps(demo_root, day, capsys, "--days", str(days), "--svg", str(path))
    return ET.parse(path).getroot(), payload


def test_svg_has_a_cell_per_slot_day_with_the_streaks(
    demo: DemoManifest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, payload = _svg(demo.root, demo.end, tmp_path, capsys)
    assert root.tag == f"{SVG}svg"
    cells = [el for el in root.iter() if el.get("class") == "cell"]
    assert len(cells) == len(payload["gaps"])
    gaps = _by_key(payload)
    streaks = 0
    for cell in cells:
        gap = gaps[(cell.get("data-slot"), cell.get("data-date"))]
        assert cell.get("data-status") == gap["status"]
        numbers = [t.text for t in cell.iter(f"{SVG}text") if t.get("class") == "streak"]
        if gap["status"] in ("late", "missing"):
            assert numbers == [str(gap["streak"])]
            streaks += 1
        else:
            assert numbers == []
    assert streaks >= demo.late_slot.streak + 2  # the late row, its open end day, the missing day


def _visible_text(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(f"{SVG}text"))


def test_svg_text_stays_inside_the_picture(
    demo: DemoManifest, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, _ = _svg(demo.root, demo.end, tmp_path, capsys)
    width = float(root.get("width"))
    for text in _visible_text(root):
        assert float(text.get("x")) < width - 20, text.text


def test_excused_days_neither_break_nor_extend_a_streak(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    demo = generate_demo_vault(tmp_path / "vault")
    late, missing = demo.late_slot, demo.missing_slot
    middle = late.first + timedelta(days=2)
    for slot, day in ((missing.slot, missing.day), (late.slot, middle), (late.slot, demo.end)):
        assert main(["excuse", slot, day.isoformat(), "--vault", str(demo.root), "--by", "stephen",
                     "--reason", "国庆调休"]) == 0
        assert f"excused {slot} on {day}" in capsys.readouterr().out
    gaps = _by_key(_gaps(demo.root, demo.end, capsys, "--days", "7"))
    flyp = gaps[(missing.slot, missing.day.isoformat())]
    assert (flyp["status"], flyp["streak"]) == ("excused", 0) and "国庆调休" in flyp["note"]
    row = [(gaps[(late.slot, day)]["status"], gaps[(late.slot, day)]["streak"])
           for day in _days(late.first, demo.end)]
    # late 1, late 2, excused (holds 2), late 3 (not broken, not 4), late 4, excused end day (holds 4)
    expected = [("late", 1), ("late", 2), ("excused", 2)] + [("late", n) for n in range(3, late.streak)]
    assert row == [*expected, ("excused", late.streak - 1)]
    with pytest.raises(SystemExit) as bad:
        raise SystemExit(main(["excuse", "nobody/slot", demo.end.isoformat(), "--vault", str(demo.root),
                               "--by", "x", "--reason", "y"]))
    assert bad.value.code == 2


# -- the sample vault ------------------------------------------------------------------------------


def test_sample_vault_streaks_and_false_alarm(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    payload = _gaps(sample_vault, "2026-09-28", capsys)
    gaps = _by_key(payload)
    llm = [gaps[("spark/llm-infra-e1prep", day)] for day in _days(date(2026, 9, 22), date(2026, 9, 28))]
    assert [(g["status"], g["streak"]) for g in llm] == [("late", n) for n in range(1, 8)]
    last = llm[-1]
    assert last["arrived"] == "2026-09-28T18:40:00+08:00" and last["closed"] is True
    agent = [gaps[("spark/agent-e1prep", day)] for day in _days(date(2026, 9, 22), date(2026, 9, 28))]
    assert [(g["status"], g["streak"]) for g in agent] == [("missing", n) for n in range(1, 7)] + [("late", 7)]
    assert agent[-1]["arrived"] == "2026-09-28T18:10:00+08:00"
    [alarm] = [w for w in payload["warnings"] if w["kind"] == "false_alarm"]
    assert alarm["subject"] == "tom/inference-e1prep/2026-09-23"
    assert "inbox/stephen/2026-09-24-1245-stephen-coordination-noon.md" in alarm["sources"]
    assert gaps[("tom/inference-e1prep", "2026-09-23")]["status"] == "met"


def test_sample_vault_svg_shows_the_streaks(
    sample_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, payload = _svg(sample_vault, "2026-09-28", tmp_path, capsys, days=8)
    cells = {(c.get("data-slot"), c.get("data-date")): c for c in root.iter() if c.get("class") == "cell"}
    row = [cells[("spark/llm-infra-e1prep", day)] for day in _days(date(2026, 9, 22), date(2026, 9, 28))]
    assert [c.get("data-status") for c in row] == ["late"] * 7
    assert [next(t.text for t in c.iter(f"{SVG}text")) for c in row] == [str(n) for n in range(1, 8)]
    tooltip = "".join(row[-1].find(f"{SVG}rect").find(f"{SVG}title").itertext())
    assert "18:40" in tooltip and "第 7 日缺口" in tooltip


def test_sample_vault_table_shows_every_arrival_at_80_columns(sample_vault: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}
    env["COLUMNS"] = "80"
    shown = subprocess.run([sys.executable, "-m", "workflows.cli", "gaps", "--vault", str(sample_vault),
                            "--date", "2026-09-28"], env=env, capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    header = next(line for line in shown.stdout.splitlines() if "slot" in line)
    assert "9-22" in header and "9-28" in header and "…" not in shown.stdout.split("\n", 1)[1]  # not the title
    assert shown.stdout.count("18:40") == 7 and "18:10" in shown.stdout


def test_sample_vault_table_of_eight_days_fits_80_columns(
    sample_vault: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.cells import cell_len

    monkeypatch.setenv("COLUMNS", "80")
    capsys.readouterr()
    assert main(["gaps", "--vault", str(sample_vault), "--date", "2026-09-28", "--days", "8"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("slot"))
    assert [cell.strip() for cell in header.split("│")[1:]] == [f"9-{d}" for d in range(21, 29)]
    assert "…" not in "".join(lines[1:]) and out.count("18:40") == 7 and "18:10" in out  # lines[0]: the title
    row = lines.index(next(line for line in lines if line.startswith("spark/llm-infra-e1prep")))
    assert [c.strip() for c in lines[row].split("│")[1:]] == ["✓"] + [f"迟{n}" for n in range(1, 8)]
    assert [c.strip() for c in lines[row + 1].split("│")[1:]] == [""] + ["18:40"] * 7  # arrival below
    table = lines[: lines.index(next(line for line in lines if line.startswith("✓ met")))]
    assert max(cell_len(line) for line in table) <= 80


def test_sample_vault_svg_late_cells_show_arrival_and_the_false_alarm(
    sample_vault: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root, payload = _svg(sample_vault, "2026-09-28", tmp_path, capsys, days=8)
    cells = {(c.get("data-slot"), c.get("data-date")): c for c in root.iter() if c.get("class") == "cell"}
    for day in _days(date(2026, 9, 22), date(2026, 9, 28)):
        texts = [t.text for t in cells[("spark/llm-infra-e1prep", day)].iter(f"{SVG}text")]
        assert "18:40" in texts, day
    assert "18:10" in [t.text for t in cells[("spark/agent-e1prep", "2026-09-28")].iter(f"{SVG}text")]
    warnings = "".join(t.text for t in root.iter(f"{SVG}text") if t.get("class") == "warning")
    [alarm] = [w for w in payload["warnings"] if w["kind"] == "false_alarm"]
    assert alarm["text"].replace(" ", "") in warnings.replace(" ", "")
