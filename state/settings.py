"""Settings of one baton invocation, built once (by the CLI or a web app) and passed down."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from state.db import sqlite_url

__all__ = ["Settings", "DEFAULT_ARXIV_URL", "settings_from_env"]

DEFAULT_ARXIV_URL = "https://export.arxiv.org/api/query"


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
    webhooks: list[str] = Field(default_factory=list)
    alert_stdout: bool = False

    @property
    def checkpoint_path(self) -> Path:
        """The LangGraph checkpoint database beside the store."""
        return self.state_dir / "checkpoints.db"

    @property
    def log_path(self) -> Path:
        """Where failures are logged in full."""
        return self.state_dir / "logs" / "baton.log"


def settings_from_env(vault: Path | None, state_dir: Path | None, **overrides: object) -> Settings:
    """Resolve the vault (argument, ``$BATON_VAULT``, else cwd) and state folder; read BATON_* once."""
    env = os.environ
    vault_path = (vault or Path(env.get("BATON_VAULT") or Path.cwd())).expanduser().resolve()
    state_path = (state_dir or Path(env.get("BATON_STATE") or vault_path / ".baton")).expanduser().resolve()
    out = overrides.pop("out_dir", None) or state_path / "drafts"
    webhooks = [url for url in env.get("BATON_WEBHOOKS", "").split(",") if url.strip()]
    values: dict[str, object] = {
        "vault": vault_path,
        "state_dir": state_path,
        "database_url": env.get("BATON_DATABASE_URL") or sqlite_url(state_path),
        "out_dir": Path(str(out)).expanduser().resolve(),
        "arxiv_url": env.get("BATON_ARXIV_URL") or DEFAULT_ARXIV_URL,
        "crash_after": env.get("BATON_CRASH_AFTER") or None,
        "pause_after": env.get("BATON_PAUSE_AFTER") or None,
        "webhooks": webhooks,
    }
    if env.get("BATON_ALERT_STDOUT"):
        values["alert_stdout"] = env["BATON_ALERT_STDOUT"] not in ("0", "", "false")
    if env.get("BATON_TODAY"):
        values["today"] = date.fromisoformat(env["BATON_TODAY"])
    if env.get("BATON_ARXIV_DELAY"):
        values["arxiv_delay"] = float(env["BATON_ARXIV_DELAY"])
    if env.get("BATON_ARXIV_BUDGET"):
        values["arxiv_budget"] = float(env["BATON_ARXIV_BUDGET"])
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Settings(**values)
