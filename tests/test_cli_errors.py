"""Bad input: one clear line and exit 2, never a traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from workflows.cli import main
from workflows.demo_vault import generate_demo_vault


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    generate_demo_vault(root)
    return root


def _one_line_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err
    assert len(err.splitlines()) == 1, err
    return err


def test_broken_topics_toml(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (demo / "topics.toml").write_text("[topic.inference\nexecutor = ", encoding="utf-8")
    assert main(["run", "--vault", str(demo), "--topic", "inference", "--date", "2026-10-14", "--offline"]) == 2
    assert "topics.toml" in _one_line_error(capsys)


def test_topic_missing_a_field(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (demo / "topics.toml").read_text(encoding="utf-8").replace('window_end = "22:20"', 'window_end = "25:99"')
    (demo / "topics.toml").write_text(text, encoding="utf-8")
    assert main(["run", "--vault", str(demo), "--topic", "inference", "--date", "2026-10-14", "--offline"]) == 2
    assert "25:99" in _one_line_error(capsys)


def test_folder_that_is_not_a_vault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--vault", str(tmp_path), "--topic", "inference", "--date", "2026-10-14"]) == 2
    assert "no topics.toml" in _one_line_error(capsys)


def test_review_of_a_thread_that_never_ran(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["review", "inference:2026-10-01", "--vault", str(demo)]) == 1
    assert "has no draft" in _one_line_error(capsys)


def test_excuse_of_an_unknown_slot(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["excuse", "nobody/nothing", "2026-10-01", "--by", "lead", "--reason", "x", "--vault", str(demo)]) == 2
    assert "unknown slot" in _one_line_error(capsys)


def test_compare_with_a_file_that_is_not_a_brief(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ours, theirs = tmp_path / "ours.json", tmp_path / "theirs.md"
    ours.write_text("{not json", encoding="utf-8")
    theirs.write_text("# brief\n", encoding="utf-8")
    assert main(["compare", str(ours), str(theirs)]) == 2
    assert "not a baton brief JSON" in _one_line_error(capsys)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.startswith("baton ")


@pytest.mark.parametrize("topic", ["[/x]", "[bold]x", "[topic.inference]"])
def test_markup_in_user_text_is_printed_as_written(demo: Path, capsys: pytest.CaptureFixture[str], topic: str) -> None:
    assert main(["run", "--vault", str(demo), "--topic", topic, "--date", "2026-10-14", "--offline"]) == 2
    assert topic in _one_line_error(capsys)


def test_vault_before_the_command(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--vault", str(demo), "run", "--topic", "nonesuch", "--date", "2026-10-14", "--offline"]) == 2
    err = _one_line_error(capsys)
    assert "nonesuch" in err and "no topics.toml" not in err


def test_date_defaults_to_today_in_the_vault(demo: Path, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATON_TODAY", "2026-10-02")
    assert main(["gaps", "--vault", str(demo), "--days", "2", "--json"]) == 0
    days = {gap["date"] for gap in __import__("json").loads(capsys.readouterr().out)["gaps"]}
    assert max(days) == "2026-10-02"


def test_excuse_takes_date_as_an_option_too(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["excuse", "a/b", "2026-10-01", "--date", "2026-10-02", "--reason", "x", "--vault", str(demo)]) == 2
    assert "two dates" in _one_line_error(capsys)


def test_compare_makes_no_state_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    main(["compare", str(tmp_path / "a.json"), str(tmp_path / "b.md")])
    assert not (tmp_path / ".baton").exists()
