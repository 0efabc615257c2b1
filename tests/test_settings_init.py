"""Settings in one place (every BATON_* variable, .env files, .env.example) and `baton init`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from state.errors import ConfigError
from state.settings import EnvSettings, settings_from_env
from state.vault_config import load_vault_config
from workflows.cli import main

REPO = Path(__file__).resolve().parents[1]


def _example() -> dict[str, str]:
    text = (REPO / ".env.example").read_text(encoding="utf-8")
    return dict(re.findall(r"^#? ?(BATON_[A-Z_]+)=(.*)$", text, flags=re.M))


def test_env_example_names_every_setting_with_its_default() -> None:
    example = _example()
    for name, field in EnvSettings.model_fields.items():
        variable = f"BATON_{name.upper()}"
        assert variable in example, f"{variable} is not in .env.example"
        default = field.default
        written = example[variable]
        if default in (None, ""):
            assert written == "", variable
        elif isinstance(default, bool):
            assert written == str(default).lower(), variable
        else:
            assert type(default)(written) == default, variable


def test_every_variable_the_code_reads_is_in_env_example() -> None:
    used: set[str] = set()
    for folder in ("agents", "workflows", "state"):
        for path in (REPO / folder).rglob("*.py"):
            used |= set(re.findall(r"BATON_[A-Z_]*[A-Z]", path.read_text(encoding="utf-8")))
    missing = used - set(_example())
    assert not missing, f"read in code but not in .env.example: {sorted(missing)}"


def test_dotenv_file_is_read_and_the_environment_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    env = tmp_path / "baton.env"
    env.write_text("BATON_ARXIV_DELAY=0.5\nBATON_WEBHOOKS=lead=http://127.0.0.1:9/a,http://127.0.0.1:9/all\n"
                   "BATON_ARXIV_BUDGET=7\n", encoding="utf-8")
    monkeypatch.setenv("BATON_ENV_FILE", str(env))
    monkeypatch.setenv("BATON_ARXIV_BUDGET", "9")
    settings = settings_from_env(tmp_path, None)
    assert settings.arxiv_delay == 0.5
    assert settings.arxiv_budget == 9.0  # the process environment wins over the file
    assert settings.webhooks == ["http://127.0.0.1:9/all"]
    assert settings.recipient_webhooks == {"lead": ["http://127.0.0.1:9/a"]}
    assert settings.state_dir == (tmp_path / ".baton").resolve()


def test_no_env_file_when_told_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".env").write_text("BATON_ARXIV_DELAY=0.25\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BATON_ENV_FILE")
    assert settings_from_env(tmp_path, None).arxiv_delay == 0.25  # ./.env by default
    monkeypatch.setenv("BATON_ENV_FILE", "")
    assert settings_from_env(tmp_path, None).arxiv_delay == 3.0


def test_a_bad_setting_names_the_variable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_ARXIV_DELAY", "soon")
    with pytest.raises(ConfigError, match="BATON_ARXIV_DELAY"):
        settings_from_env(tmp_path, None)
    assert main(["init", str(tmp_path / "v")]) == 0
    capsys.readouterr()
    assert main(["--vault", str(tmp_path / "v"), "pending"]) == 2
    err = capsys.readouterr().err
    assert "BATON_ARXIV_DELAY" in err and "Traceback" not in err


def test_webhook_entry_without_url_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATON_WEBHOOKS", "lead=not-a-url")
    with pytest.raises(ConfigError, match="NAME=URL"):
        settings_from_env(tmp_path, None)


def test_init_writes_a_vault_that_loads_and_refuses_to_overwrite(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "new"
    assert main(["init", str(root)]) == 0
    cfg = load_vault_config(root)
    [topic] = cfg.topics.values()
    assert cfg.slot(topic.slot).topic == topic.name
    assert (root / topic.living_doc).is_file()
    for folder in ("inbox/feeds", "organized/paper_cards", f"inbox/{topic.executor}"):
        assert (root / folder).is_dir(), folder
    assert (root / ".baton" / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    (root / "topics.toml").write_text(cfg_text := "# edited by the team\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["init", str(root)]) == 2
    err = capsys.readouterr().err
    assert "never overwrites" in err and "topics.toml" in err
    assert (root / "topics.toml").read_text(encoding="utf-8") == cfg_text


def test_init_into_a_folder_with_other_files(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("mine\n", encoding="utf-8")
    assert main(["init", str(tmp_path)]) == 0
    assert (tmp_path / "notes.md").read_text(encoding="utf-8") == "mine\n"


def test_state_folder_gets_a_gitignore(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "v"
    assert main(["init", str(root)]) == 0
    (root / ".baton" / ".gitignore").unlink()
    monkeypatch.setenv("BATON_TODAY", "2026-10-02")
    assert main(["--vault", str(root), "pending"]) == 0
    assert (root / ".baton" / ".gitignore").is_file()


def test_a_new_teams_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The README's path: init, edit the two TOML files, schedule --install, the next day's brief waits."""
    root = tmp_path / "team"
    assert main(["init", str(root)]) == 0
    topics = (root / "topics.toml").read_text(encoding="utf-8").replace('keywords = ["inference", "KV cache", "推理"]',
                                                                         'keywords = ["compiler", "编译"]')
    (root / "topics.toml").write_text(topics, encoding="utf-8")
    (root / "schedule.toml").write_text((root / "schedule.toml").read_text(encoding="utf-8")
                                        .replace('check_at = "12:45"', 'check_at = "13:00"'), encoding="utf-8")
    (root / "inbox" / "lead" / "2026-10-02-1500-compiler-notes.md").write_text(
        "# 编译笔记\n\n- MLIR 编译 pass 重排，compiler 吞吐 +12%（arXiv 2609.00001）\n", encoding="utf-8")
    units = tmp_path / "units"
    capsys.readouterr()
    assert main(["--vault", str(root), "schedule", "--install", "--unit-dir", str(units), "--baton", "baton"]) == 0
    out = capsys.readouterr().out
    assert "systemctl --user enable --now baton-run-example.timer baton-check.timer" in out
    assert "OnCalendar=*-*-* 13:00:00 Asia/Shanghai" in (units / "baton-check.timer").read_text(encoding="utf-8")
    # What the timer runs, on the next day: `baton --vault V run --topic example` with today's date.
    monkeypatch.setenv("BATON_TODAY", "2026-10-02")
    assert main(["--vault", str(root), "run", "--topic", "example", "--offline"]) == 0
    capsys.readouterr()
    assert main(["--vault", str(root), "pending"]) == 0
    assert "example:2026-10-02" in capsys.readouterr().out


def test_the_vaults_own_env_file_wins_over_the_working_folders(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / ".env").write_text("BATON_ARXIV_DELAY=0.5\nBATON_FEED_DELAY=9\n", encoding="utf-8")
    vault = tmp_path / "vault"
    (vault / ".baton").mkdir(parents=True)
    (vault / ".baton" / ".env").write_text("BATON_ARXIV_DELAY=0.75\nBATON_WEBHOOKS=lead=http://127.0.0.1:9/x\n",
                                           encoding="utf-8")
    monkeypatch.chdir(work)
    monkeypatch.delenv("BATON_ENV_FILE")
    settings = settings_from_env(vault, None)
    assert (settings.arxiv_delay, settings.feed_delay) == (0.75, 9.0)
    assert settings.recipient_webhooks == {"lead": ["http://127.0.0.1:9/x"]}
    monkeypatch.setenv("BATON_ENV_FILE", "")
    assert settings_from_env(vault, None).arxiv_delay == 3.0  # no file at all
