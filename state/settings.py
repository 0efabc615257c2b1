"""Settings of one baton invocation, built once (by the CLI or a web app) and passed down.

Every ``BATON_*`` environment variable is read here and nowhere else, by ``EnvSettings``
(pydantic-settings): from the process environment, then from a ``.env`` file in the current
folder (or the file ``BATON_ENV_FILE`` names; ``BATON_ENV_FILE=`` reads none) and then from
``<state>/.env`` (``<vault>/.baton/.env``: git-ignored, the place for webhook secrets). The repository's
``.env.example`` lists each variable with its default. ``settings_from_env`` turns them, with the
command line's overrides, into the ``Settings`` of one run.
"""

from __future__ import annotations

import os
from datetime import date, datetime, tzinfo
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from state.db import sqlite_url
from state.errors import ConfigError
from state.run_day import check_run_day

__all__ = ["Settings", "EnvSettings", "DEFAULT_ARXIV_URL", "settings_from_env", "parse_webhooks", "env_file"]

DEFAULT_ARXIV_URL = "https://export.arxiv.org/api/query"


def env_file() -> Path | None:
    """The ``.env`` file read for settings: ``$BATON_ENV_FILE`` (empty: none), else ``./.env``."""
    named = os.environ.get("BATON_ENV_FILE")
    if named is not None:
        return Path(named).expanduser() if named.strip() else None
    return Path(".env")


class EnvSettings(BaseSettings):
    """The ``BATON_*`` variables, each with its default (``.env.example`` documents them)."""

    model_config = SettingsConfigDict(env_prefix="BATON_", extra="ignore", env_file_encoding="utf-8")

    vault: Path | None = None  # the vault folder (default: the current folder)
    state: Path | None = None  # the state folder (default: <vault>/.baton)
    database_url: str | None = None  # any SQLAlchemy URL (default: SQLite <state>/baton.db)
    arxiv_url: str = DEFAULT_ARXIV_URL
    arxiv_delay: float = Field(default=3.0, ge=0)
    arxiv_budget: float = Field(default=60.0, gt=0)
    arxiv_timeout: float = Field(default=20.0, gt=0)
    webhooks: str = ""  # comma-separated: URL (every recipient) or NAME=URL (recipient NAME of schedule.toml)
    webhook_max_wait: float = Field(default=30.0, ge=0)  # longest Retry-After honoured before giving up
    alert_stdout: bool = False
    today: date | None = None  # pins "today" (scripts, tests)
    now: datetime | None = None  # pins "now" (ISO 8601 with offset) for `baton check` (tests, replays)
    crash_after: str | None = None  # test hook: exit 137 after this node's checkpoint
    pause_after: str | None = None  # test hook "NODE:GATE": wait after NODE until the file GATE exists
    feed_timeout: float = Field(default=20.0, gt=0)
    feed_delay: float = Field(default=2.0, ge=0)  # seconds between two requests to the same host

    @field_validator("database_url", "crash_after", "pause_after", mode="before")
    @classmethod
    def _empty_is_none(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("alert_stdout", mode="before")
    @classmethod
    def _empty_is_false(cls, value: object) -> object:
        return False if value in ("", None) else value

    @field_validator("today", "now", "vault", "state", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return None if value == "" else value

    @field_validator("today")
    @classmethod
    def _today_in_range(cls, value: date | None) -> date | None:
        return None if value is None else check_run_day(value)

    @field_validator("now")
    @classmethod
    def _now_in_range(cls, value: datetime | None) -> datetime | None:
        if value is not None:
            check_run_day(value.date())
        return value


def parse_webhooks(value: str) -> tuple[list[str], dict[str, list[str]]]:
    """``BATON_WEBHOOKS``: URLs for every recipient, and ``NAME=URL`` entries by recipient."""
    everyone: list[str] = []
    named: dict[str, list[str]] = {}
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        name, sep, url = part.partition("=")
        if sep and "://" not in name:
            if not name.strip() or "://" not in url:
                raise ConfigError(f"BATON_WEBHOOKS entry {part!r} is not NAME=URL")
            named.setdefault(name.strip(), []).append(url.strip())
        else:
            everyone.append(part)
    return everyone, named


class Settings(BaseModel):
    """Where things live and how this run behaves."""

    model_config = ConfigDict(extra="forbid")

    vault: Path
    state_dir: Path
    database_url: str
    out_dir: Path
    formats: tuple[Literal["md", "json"], ...] = ("md", "json")
    offline: bool = False
    arxiv_url: str = DEFAULT_ARXIV_URL
    arxiv_delay: float = 3.0
    arxiv_budget: float = 60.0
    arxiv_timeout: float = 20.0
    auto_approve: bool = False
    send_backfill: bool = False
    crash_after: str | None = None
    pause_after: str | None = None  # test hook "NODE:GATE": wait after NODE until the file GATE exists
    today: date | None = None
    now: datetime | None = None
    webhooks: list[str] = Field(default_factory=list)
    # Webhooks by recipient (the names of schedule.toml's ``alert = [...]``).
    recipient_webhooks: dict[str, list[str]] = Field(default_factory=dict)
    webhook_max_wait: float = 30.0
    alert_stdout: bool = False
    feed_timeout: float = 20.0
    feed_delay: float = 2.0

    def today_in(self, tz: tzinfo) -> date:
        """Today in ``tz`` (the vault's timezone): ``today`` (``BATON_TODAY``) when pinned, else the day of
        ``now`` (``BATON_NOW``, else the clock) in ``tz``."""
        if self.today is not None:
            return self.today
        return (self.now or datetime.now(tz)).astimezone(tz).date()

    @property
    def checkpoint_path(self) -> Path:
        """The LangGraph checkpoint database beside the store."""
        return self.state_dir / "checkpoints.db"

    @property
    def log_path(self) -> Path:
        """Where failures are logged in full."""
        return self.state_dir / "logs" / "baton.log"


def read_env(state_dir: Path | None = None) -> EnvSettings:
    """The ``BATON_*`` variables; a bad value is a ConfigError naming the variable.

    Files, later ones winning: ``./.env`` (or ``$BATON_ENV_FILE``), then ``<state>/.env`` (the vault's
    own settings, e.g. webhook secrets: ``.baton/`` is git-ignored); the process environment wins over both.
    """
    file = env_file()
    files = [f for f in (file, state_dir / ".env" if state_dir else None) if f is not None and f.is_file()]
    if os.environ.get("BATON_ENV_FILE") is not None and not (os.environ.get("BATON_ENV_FILE") or "").strip():
        files = []  # BATON_ENV_FILE= : no file at all
    try:
        return EnvSettings(_env_file=tuple(files) or None)  # type: ignore[call-arg]
    except ValidationError as exc:
        parts = [f"BATON_{'_'.join(str(p) for p in err['loc']).upper()}: {err['msg']}" for err in exc.errors()]
        raise ConfigError("bad setting: " + "; ".join(parts)) from exc


def settings_from_env(vault: Path | None, state_dir: Path | None, **overrides: object) -> Settings:
    """Resolve the vault (argument, ``$BATON_VAULT``, else cwd) and state folder; read BATON_* once."""
    env = read_env()
    vault_path = (vault or env.vault or Path.cwd()).expanduser().resolve()
    state_path = (state_dir or env.state or vault_path / ".baton").expanduser().resolve()
    if (state_path / ".env").is_file():
        env = read_env(state_path)
    out = overrides.pop("out_dir", None) or state_path / "drafts"
    everyone, named = parse_webhooks(env.webhooks)
    values: dict[str, object] = {
        "vault": vault_path,
        "state_dir": state_path,
        "database_url": env.database_url or sqlite_url(state_path),
        "out_dir": Path(str(out)).expanduser().resolve(),
        "arxiv_url": env.arxiv_url or DEFAULT_ARXIV_URL,
        "arxiv_delay": env.arxiv_delay,
        "arxiv_budget": env.arxiv_budget,
        "arxiv_timeout": env.arxiv_timeout,
        "crash_after": env.crash_after,
        "webhooks": everyone,
        "recipient_webhooks": named,
        "webhook_max_wait": env.webhook_max_wait,
        "alert_stdout": env.alert_stdout,
        "today": env.today,  # else BATON_NOW's day in the vault's timezone: Settings.today_in
        "now": env.now,
        "feed_timeout": env.feed_timeout,
        "feed_delay": env.feed_delay,
        "pause_after": env.pause_after,
    }
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Settings(**values)
