"""Reading one of the vault's TOML files (topics, schedule, feeds): every failure a ConfigError naming the file."""

from __future__ import annotations

import tomllib
from pathlib import Path

from state.errors import ConfigError

__all__ = ["read_toml"]


def read_toml(path: Path) -> dict:
    """The table of the TOML file at ``path``; ConfigError naming the file when it is missing or not TOML text."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise ConfigError(f"{str(path)!r} is missing: is this a vault folder?") from exc
    except OSError as exc:
        raise ConfigError(f"cannot read {str(path)!r}: {exc.strerror or exc}") from exc
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{str(path)!r} is not UTF-8 text (byte 0x{raw[exc.start]:02x} at offset {exc.start}): "
                          f"it must be a TOML file saved as UTF-8") from exc
    if "\x00" in text:
        raise ConfigError(f"{str(path)!r} holds NUL bytes (offset {text.index(chr(0))}): it is not a TOML text file")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{str(path)!r} is not valid TOML: {exc}") from exc
