"""`baton review` (pager, 80 columns, item-level change, filters, counts), `list`, `show`, `discard`."""

from __future__ import annotations

import os
import pty
import re
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from tests.review_vault import PREVIOUS, THREAD, build_review_vault, context, copy_vault
from workflows import review
from workflows.cli import main
from workflows.review_text import fit


def _cells(line: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in line)


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_review_vault(tmp_path_factory.mktemp("review-cli") / "vault")


@pytest.fixture
def vault(pristine: Path, tmp_path: Path) -> Path:
    return copy_vault(pristine, tmp_path / "vault")


def _summary_count(markdown: str) -> int:
    return int(re.search(r"警示：(\d+) 条", markdown).group(1))


def test_review_fits_80_columns_and_its_counts_agree_with_the_brief(vault: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", THREAD, "--vault", str(vault)]) == 0
    out = capsys.readouterr().out
    assert max(_cells(line) for line in out.splitlines()) <= 80
    view = review.review(context(vault), THREAD)
    carried = sum(1 for w in view.brief.warnings if w.carried_from)
    header = f"── warnings: {len(view.brief.warnings)} (沿用 {carried} / 新增 {len(view.brief.warnings) - carried}) ──"
    assert header in out
    assert len(view.brief.warnings) == _summary_count(view.markdown)
    assert sum(1 for line in out.splitlines() if re.match(r"C\d+ ", line)) == len(view.brief.warnings)


def test_review_shows_the_item_level_change_against_yesterdays_json(vault: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", THREAD, "--vault", str(vault), "--diff-only"]) == 0
    out = capsys.readouterr().out
    view = review.review(context(vault), THREAD)
    assert view.change.basis == "json" and view.change.previous == PREVIOUS
    expected = [piece for line in view.change.lines() for piece in fit(line)]
    assert "\n".join(expected) in out
    assert "状态摘要" not in out  # only the change
    # Items, not a text diff of two days: the change's own lines and a header and footer, nothing more.
    assert len(out.splitlines()) <= len(expected) + 6


def test_review_filters_warnings_by_kind_and_new(vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    view = review.review(context(vault), THREAD)
    kind = view.brief.warnings[0].kind
    assert main(["review", THREAD, "--vault", str(vault), "--kind", kind]) == 0
    out = capsys.readouterr().out
    shown = [line for line in out.splitlines() if re.match(r"C\d+( D\d+)? \[", line)]
    assert shown and all(f"[{kind}]" in line for line in shown)
    assert len(shown) == sum(1 for w in view.brief.warnings if w.kind == kind)
    assert f"showing {len(shown)} (kind {kind})" in out
    assert main(["review", THREAD, "--vault", str(vault), "--new"]) == 0
    new = [line for line in capsys.readouterr().out.splitlines() if re.match(r"C\d+( D\d+)? \[", line)]
    assert len(new) == sum(1 for w in view.brief.warnings if not w.carried_from)
    assert main(["review", THREAD, "--vault", str(vault), "--kind", "nonsense"]) == 2
    assert "unknown warning kind nonsense" in capsys.readouterr().err


def test_review_pages_through_pager_on_a_terminal(vault: Path, tmp_path: Path) -> None:
    paged = tmp_path / "paged.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}
    env["PAGER"] = f"cat > {paged}"
    leader, follower = pty.openpty()
    try:
        done = subprocess.run([sys.executable, "-m", "workflows.cli", "review", THREAD, "--vault", str(vault)],
                              stdout=follower, stderr=subprocess.PIPE, env=env, timeout=120)
    finally:
        os.close(follower)
        os.close(leader)
    assert done.returncode == 0, done.stderr
    text = paged.read_text(encoding="utf-8")
    assert "状态摘要" in text and f"thread {THREAD}" in text


def test_list_show_and_discard(vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--vault", str(vault)]) == 0
    listed = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in listed] == [[THREAD, "waiting"], [PREVIOUS, "waiting"]]
    assert main(["discard", PREVIOUS, "--vault", str(vault), "--by", "alice", "--reason", "重复的草稿"]) == 0
    assert "nothing was published" in capsys.readouterr().out
    assert main(["discard", PREVIOUS, "--vault", str(vault), "--by", "alice", "--reason", "again"]) == 1
    assert "discarded by alice" in capsys.readouterr().err
    assert main(["list", "--vault", str(vault)]) == 0
    rows = {line.split()[0]: line.split() for line in capsys.readouterr().out.splitlines()}
    assert rows[PREVIOUS][1] == "discarded" and "discard r1 by alice" in " ".join(rows[PREVIOUS])
    assert main(["show", PREVIOUS, "--vault", str(vault)]) == 0
    shown = capsys.readouterr().out
    assert "status discarded" in shown and "run 1 fresh pending" in shown and "重复的草稿" in shown
    assert main(["show", "inference:2020-01-01", "--vault", str(vault)]) == 1
    assert main(["discard", THREAD, "--vault", str(vault), "--reason", " "]) == 2
    assert not (vault / "inbox/tom/2026-10-13-inference-e1prep.baton.md").exists()


@pytest.mark.sample_vault
def test_review_counts_agree_with_the_sample_brief(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--vault", str(sample_vault), "--topic", "inference", "--date", "2026-09-29",
                 "--offline"]) == 0
    capsys.readouterr()
    assert main(["review", "inference:2026-09-29", "--vault", str(sample_vault)]) == 0
    out = capsys.readouterr().out
    view = review.review(context(sample_vault), "inference:2026-09-29")
    assert f"── warnings: {_summary_count(view.markdown)} (" in out
    assert max(_cells(line) for line in out.splitlines()) <= 80
    assert view.change.basis == "markdown"  # the day before is a person's brief
