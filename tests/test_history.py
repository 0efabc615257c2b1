"""Per-agent counts of earlier windows are counted the way the window scan counts today's notes."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from agents.integrator.summary import today_counts
from agents.scanner.history import window_counts_history
from agents.scanner.window import scan_window
from state.vault_config import load_vault_config
from workflows.demo_vault import generate_demo_vault


def test_history_counts_match_the_window_scan_of_each_day(tmp_path: Path) -> None:
    manifest = generate_demo_vault(tmp_path / "vault")
    cfg = load_vault_config(manifest.root)
    after = manifest.end + timedelta(days=1)  # so that the end day's window, with its traps, is history
    history = window_counts_history(cfg, "inference", after, windows=5)
    expected = [today_counts(scan_window(cfg, "inference", after - timedelta(days=k))) for k in range(5, 0, -1)]
    assert history == expected
    assert any(counts for counts in history)  # the demo has notes on those days
    # Each trap on its own: without the duplicate, the truncated note (read, flagged) still counts.
    (manifest.root / manifest.duplicate.copy).unlink()
    assert window_counts_history(cfg, "inference", after, windows=1) == \
        [today_counts(scan_window(cfg, "inference", manifest.end))]
