"""The vault's ``feeds.toml``: the RSS / Atom feeds ``baton feeds fetch`` reads, parsed once at the edge."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from state.errors import ConfigError
from state.toml_file import read_toml
from state.vault_config import parse_hhmm

__all__ = ["Feed", "FeedsConfig", "load_feeds_config", "FEEDS_FILE", "FEEDS_FOLDER"]

FEEDS_FILE = "feeds.toml"
FEEDS_FOLDER = "inbox/feeds"  # one note per entry; the scanner reads it like any agent's inbox
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*$")


class Feed(BaseModel):
    """One ``[[feed]]``: a name (used in note names and front matter) and its URL."""

    model_config = ConfigDict(extra="forbid")

    name: str
    url: str

    @field_validator("name")
    @classmethod
    def _safe_name(cls, value: str) -> str:
        if not _NAME.match(value):
            raise ValueError(f"feed name {value!r} may hold only letters, digits, '.', '_' and '-'")
        return value

    @field_validator("url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError(f"{value!r} is not an http(s) URL")
        return value


class FeedsConfig(BaseModel):
    """``feeds.toml``: the feeds and, optionally, when ``baton schedule`` fetches them."""

    model_config = ConfigDict(extra="forbid")

    fetch_at: list[str] = Field(default_factory=list)
    feed: list[Feed] = Field(default_factory=list)

    @field_validator("fetch_at")
    @classmethod
    def _times(cls, values: list[str]) -> list[str]:
        for value in values:
            parse_hhmm(value)
        return values


def load_feeds_config(root: Path) -> FeedsConfig | None:
    """Read ``<root>/feeds.toml``; None when the vault has none."""
    path = root / FEEDS_FILE
    if not path.is_file():
        return None
    raw = read_toml(path)
    try:
        config = FeedsConfig(**raw)
    except (ValidationError, TypeError) as exc:
        detail = "; ".join(f"{'.'.join(str(p) for p in e['loc'])}: {e['msg']}" for e in exc.errors()) \
            if isinstance(exc, ValidationError) else str(exc)
        raise ConfigError(f"feeds.toml: {detail}") from exc
    names = [f.name for f in config.feed]
    doubles = sorted({n for n in names if names.count(n) > 1})
    if doubles:
        raise ConfigError(f"feeds.toml: feed names must be unique; twice: {', '.join(doubles)}")
    return config
