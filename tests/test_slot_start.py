"""A slot's streak counts only the days it was expected (issue 12): not before its ``since``, its first
note, or the vault's earliest dated note — so a new vault's first check shows no 7-day streak."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agents.coordinator.slots import compute_gaps, earliest_note_day, slot_starts
from state.vault_config import load_vault_config
from workflows.cli import main
from workflows.init_vault import init_vault

TZ = ZoneInfo("Asia/Shanghai")
INIT = date(2026, 10, 1)
SLOT = "lead/example-e1prep"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "team"
    init_vault(root, datetime(2026, 10, 1, 9, 30, tzinfo=TZ).isoformat())
    return root


def _without_since(root: Path) -> None:
    path = root / "schedule.toml"
    path.write_text("\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                              if not line.startswith("since")) + "\n", encoding="utf-8")


def test_init_writes_the_day_it_made_the_vault_as_the_slots_start(vault: Path) -> None:
    cfg = load_vault_config(vault)
    assert [slot.since for slot in cfg.schedule.slot] == [INIT]


def test_a_new_vaults_slot_with_no_note_counts_from_its_since(vault: Path) -> None:
    cfg = load_vault_config(vault)
    day = date(2026, 10, 3)
    gaps = compute_gaps(cfg, day, 7)
    assert [(g.date, g.status, g.streak) for g in gaps] == [
        ("2026-10-01", "missing", 1), ("2026-10-02", "missing", 2), ("2026-10-03", "missing", 3)]


def test_the_first_check_on_the_init_day_is_no_seven_day_streak(vault: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_NOW", "2026-10-02T12:45:00+08:00")  # the first noon check after init
    assert main(["--vault", str(vault), "gaps", "--date", "2026-10-01", "--days", "7", "--json"]) == 0
    gaps = json.loads(capsys.readouterr().out)["gaps"]
    assert [g["date"] for g in gaps] == ["2026-10-01"]
    assert max(g["streak"] for g in gaps) == 1


def test_without_since_an_empty_vault_starts_on_the_day_checked(vault: Path) -> None:
    _without_since(vault)
    cfg = load_vault_config(vault)
    assert earliest_note_day(cfg) is None
    gaps = compute_gaps(cfg, date(2026, 10, 5), 7)
    assert [(g.date, g.streak) for g in gaps] == [("2026-10-05", 1)]


def test_without_since_a_slot_with_no_note_starts_at_the_vaults_earliest_note(vault: Path) -> None:
    _without_since(vault)
    other = vault / "inbox" / "scout"
    other.mkdir()
    (other / "2026-10-03-1000-notes.md").write_text("# 2026-10-03 10:00\n\n笔记。\n", encoding="utf-8")
    (other / "undated-notes.md").write_text("no date in the name\n", encoding="utf-8")
    cfg = load_vault_config(vault)
    assert earliest_note_day(cfg) == date(2026, 10, 3)
    gaps = compute_gaps(cfg, date(2026, 10, 6), 7)
    assert [(g.date, g.streak) for g in gaps] == [
        ("2026-10-03", 1), ("2026-10-04", 2), ("2026-10-05", 3), ("2026-10-06", 4)]


def test_a_slots_own_first_note_starts_it_and_since_overrides_it(vault: Path) -> None:
    _without_since(vault)
    (vault / "inbox" / "lead" / "2026-10-04-example-e1prep.md").write_text(
        "---\ntime: 2026-10-04T20:00:00+08:00\n---\n# brief\n", encoding="utf-8")
    cfg = load_vault_config(vault)
    gaps = compute_gaps(cfg, date(2026, 10, 6), 7)
    assert [(g.date, g.status, g.streak) for g in gaps] == [
        ("2026-10-04", "met", 0), ("2026-10-05", "missing", 1), ("2026-10-06", "missing", 2)]
    path = vault / "schedule.toml"
    path.write_text(path.read_text(encoding="utf-8") + "since = 2026-10-02\n", encoding="utf-8")
    cfg = load_vault_config(vault)
    assert slot_starts(cfg, {}, date(2026, 10, 6)) == {SLOT: date(2026, 10, 2)}
    gaps = compute_gaps(cfg, date(2026, 10, 6), 7)
    assert [(g.date, g.streak) for g in gaps][:3] == [("2026-10-02", 1), ("2026-10-03", 2), ("2026-10-04", 0)]
