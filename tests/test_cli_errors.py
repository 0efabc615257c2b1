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


# -- config validated at load: exit 2 naming the file and the field, before any graph node runs (issue 9) --


def _exit_code(argv: list[str]) -> int:
    """``main``'s exit code, also when argparse refuses an argument (it raises SystemExit(2))."""
    try:
        return main(argv)
    except SystemExit as exc:
        return int(exc.code or 0)


def _run_refused(demo: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> str:
    code = _exit_code(["run", "--vault", str(demo), "--topic", "inference", "--offline", *(extra or ("--date", "2026-10-14"))])
    err = _one_line_error(capsys)
    assert code == 2, err
    assert "baton scan" not in err
    assert not (demo / ".baton" / "checkpoints.db").exists(), "a graph ran"
    assert not list((demo / ".baton").glob("drafts/*")), "a draft was written"
    return err


def test_a_date_whose_window_overflows_the_calendar_is_refused_at_load(
        demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    err = _run_refused(demo, capsys, "--date", "9999-12-31")
    assert "--date" in err and "9999-12-31" in err and "out of range" in err


def test_a_pinned_today_out_of_range_names_the_setting(demo: Path, capsys: pytest.CaptureFixture[str],
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATON_TODAY", "9999-12-31")
    code = main(["run", "--vault", str(demo), "--topic", "inference", "--offline"])
    err = _one_line_error(capsys)
    assert code == 2 and "BATON_TODAY" in err and "out of range" in err


@pytest.mark.parametrize(("text", "field"), [
    ("topic = 5\n", "topic: must be [topic.NAME] tables, not an integer 5"),
    ("[topic]\ninference = 5\n", "[topic.inference]: must be a table of settings, not an integer 5"),
])
def test_a_topic_that_is_not_a_table_names_the_file_and_the_field(
        demo: Path, capsys: pytest.CaptureFixture[str], text: str, field: str) -> None:
    (demo / "topics.toml").write_text(text, encoding="utf-8")
    err = _run_refused(demo, capsys)
    assert "topics.toml" in err and field in err


def test_a_topic_field_of_the_wrong_type_names_it(demo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (demo / "topics.toml").read_text(encoding="utf-8").replace('window_end = "22:20"', "window_end = 5", 1)
    (demo / "topics.toml").write_text(text, encoding="utf-8")
    err = _run_refused(demo, capsys)
    assert "topics.toml [topic." in err and "window_end" in err


@pytest.mark.parametrize("name", ["topics.toml", "schedule.toml"])
@pytest.mark.parametrize(("content", "says"), [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xff\xfe", "not UTF-8 text"),
    (b'timezone = "UTC"\x00\n', "NUL bytes"),
])
def test_a_binary_config_file_is_refused_naming_it(demo: Path, capsys: pytest.CaptureFixture[str], name: str,
                                                   content: bytes, says: str) -> None:
    (demo / name).write_bytes(content)
    err = _run_refused(demo, capsys)
    assert str(demo / name) in err and says in err


@pytest.mark.parametrize("command", [["run", "--topic", "inference", "--offline", "--date", "2026-10-14"],
                                     ["check"], ["schedule"]])
def test_check_at_that_is_not_a_time_is_refused_at_load(demo: Path, capsys: pytest.CaptureFixture[str],
                                                        command: list[str]) -> None:
    schedule = demo / "schedule.toml"
    text = schedule.read_text(encoding="utf-8")
    assert "check_at" in text
    schedule.write_text("\n".join('check_at = "noon"' if line.startswith("check_at") else line
                                  for line in text.split("\n")), encoding="utf-8")
    code = main([*command[:1], "--vault", str(demo), *command[1:]])
    err = _one_line_error(capsys)
    assert code == 2 and "schedule.toml" in err and "check_at" in err and "'noon'" in err
    assert not (demo / ".baton" / "checkpoints.db").exists()


# -- a damaged state file: exit 2 naming it and what to do (issue 9) ---------------------------------


@pytest.mark.parametrize("name", ["checkpoints.db", "baton.db"])
def test_a_damaged_database_file_is_named_with_what_to_do_and_the_advice_works(
        demo: Path, capsys: pytest.CaptureFixture[str], name: str) -> None:
    run = ["run", "--vault", str(demo), "--topic", "inference", "--date", "2026-10-14", "--offline"]
    assert main(run) == 0
    capsys.readouterr()
    damaged = demo / ".baton" / name
    assert damaged.is_file()
    for leftover in damaged.parent.glob(f"{name}-*"):  # SQLite's -wal and -shm beside it
        leftover.unlink()
    damaged.write_bytes(bytes(range(256)) * 40)  # garbage: no SQLite header
    commands = [run, ["pending", "--vault", str(demo)]] if name == "baton.db" else [run]
    for command in commands:
        assert main(command) == 2, command
        err = _one_line_error(capsys)
        assert str(damaged) in err and "damaged" in err and f"mv '{damaged}' '{damaged}.damaged'" in err
    # Doing what it says works: set aside, the next run starts afresh.
    damaged.rename(damaged.with_name(f"{name}.damaged"))
    assert main(run) == 0
