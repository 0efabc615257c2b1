"""What a run derives from a vault file, kept between runs (issue 12: "a day's cost follows the day").

A *derivation* is a pure function of one file as ``read_vault_file`` returns it (an earlier brief's
record, a note's mentions, a slot note's arrival). While a run's vault index is active, its value is
kept in the store (table ``vault_derived``) beside the sha256 of the bytes it came from and the
parser (index format, timezone, the derivation's version); the next run answers an unchanged file
from that row without opening, decoding or parsing it, and recomputes it when the bytes changed.
Without an active index (a unit test, a tool) it is simply computed.

Only what ``compute`` would return is ever returned: a value that does not survive its JSON
round trip exactly is computed every time, never kept; so is a file over the read bound (its
sha256 covers only what was read) or one that is not a plain file of the vault.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Generic, Protocol, TypeVar
from zoneinfo import ZoneInfo

from agents.scanner.notes import ACTIVE_READER, MAX_FILE_BYTES, VaultFile, read_vault_file
from state.db import Database
from state.models import Mention
from state.tables.vault_derived import load_derived, save_derived

__all__ = ["Derivation", "DerivedCache", "DerivingReader", "derive_many", "derive_file", "wall", "from_wall",
           "encode_mentions", "decode_mentions"]

T = TypeVar("T")
_REFUSED = re.compile("[\x00\ud800-\udfff]")


@dataclass(frozen=True)
class Derivation(Generic[T]):
    """A pure function of one file, and how its value is written as JSON and read back.

    Bump ``version`` whenever ``compute`` (or anything it calls) may give another value for the same
    file: every kept value of the older version is then recomputed.
    """

    kind: str
    version: int | str  # a string joins versions: "1+m2" (the derivation's own, and the mentions')
    compute: Callable[[VaultFile], T]
    encode: Callable[[T], object]
    decode: Callable[[object], T]


class DerivingReader(Protocol):
    """The part of the run's vault index that answers derivations."""

    def serves(self, root: Path) -> bool: ...

    def derive_many(self, root: Path, paths: Sequence[Path], derivation: Derivation[T]) -> list[T]: ...

    def derive_file(self, file: VaultFile, derivation: Derivation[T]) -> T: ...


def _reader(root: Path) -> DerivingReader | None:
    reader = ACTIVE_READER.get()
    if reader is not None and reader.serves(root) and hasattr(reader, "derive_many"):
        return reader  # type: ignore[return-value]
    return None


def derive_many(root: Path, paths: Sequence[Path], tz: ZoneInfo, derivation: Derivation[T]) -> list[T]:
    """``derivation.compute`` of each file at ``paths`` (inside ``root``), in order; kept values where they stand."""
    reader = _reader(root)
    if reader is not None:
        return reader.derive_many(root, paths, derivation)
    return [derivation.compute(read_vault_file(root, path, tz)) for path in paths]


def derive_file(root: Path, file: VaultFile, derivation: Derivation[T]) -> T:
    """``derivation.compute(file)`` for a file already read (from ``root``); the kept value when its bytes match."""
    reader = _reader(root)
    if reader is not None:
        return reader.derive_file(file, derivation)
    return derivation.compute(file)


class DerivedCache:
    """The kept derivations of one vault, for one run: looked up by (path, kind), checked by sha256 and parser."""

    def __init__(self, db: Database | None, vault: str, parser: str) -> None:
        self.db = db
        self.vault = vault
        self.parser = parser
        self._loaded: dict[str, dict[str, tuple[str, str, str]]] = {}  # kind → path → (sha256, parser, value)
        self._dirty: dict[tuple[str, str], dict] = {}
        self.hits = 0
        self.computed = 0

    def _parser(self, derivation: Derivation) -> str:
        return f"{self.parser}|{derivation.kind}:{derivation.version}"

    def prefetch(self, kind: str, paths: Iterable[str]) -> None:
        """Load the kept rows of ``kind`` for ``paths`` (one query per 500), unless loaded already."""
        if self.db is None:
            return
        known = self._loaded.setdefault(kind, {})
        wanted = [p for p in paths if p not in known]
        if wanted:
            found = load_derived(self.db, self.vault, kind, wanted)
            for path in wanted:
                known[path] = found.get(path, ("", "", ""))

    def kept(self, rel: str, derivation: Derivation[T], sha256: str) -> tuple[bool, T | None]:
        """(True, value) when a kept value was derived from these bytes with this parser; else (False, None)."""
        if self.db is None or not sha256:
            return False, None
        self.prefetch(derivation.kind, [rel])
        sha, parser, value = self._loaded[derivation.kind][rel]
        if sha != sha256 or parser != self._parser(derivation):
            return False, None
        self.hits += 1
        return True, derivation.decode(json.loads(value))

    def compute(self, rel: str, file: VaultFile, derivation: Derivation[T]) -> T:
        """Compute the value and keep it (when it can be kept exactly)."""
        value = derivation.compute(file)
        self.computed += 1
        if self.db is None or not file.sha256 or file.size > MAX_FILE_BYTES:
            return value
        try:
            encoded = json.dumps(derivation.encode(value), ensure_ascii=False, separators=(",", ":"))
            if _REFUSED.search(encoded):  # NUL or a lone surrogate the store would strip: escaped, so it survives
                encoded = json.dumps(derivation.encode(value), ensure_ascii=True, separators=(",", ":"))
            exact = derivation.decode(json.loads(encoded)) == value
        except (TypeError, ValueError):
            exact = False
        if exact:
            row = {"path": rel, "kind": derivation.kind, "sha256": file.sha256, "parser": self._parser(derivation),
                   "value": encoded}
            self._dirty[(rel, derivation.kind)] = row
            self._loaded.setdefault(derivation.kind, {})[rel] = (file.sha256, row["parser"], encoded)
        return value

    def save(self) -> int:
        """Keep the values derived anew; returns how many rows were written."""
        if self.db is None or not self._dirty:
            return 0
        rows = list(self._dirty.values())
        save_derived(self.db, self.vault, rows)
        self._dirty.clear()
        return len(rows)


def wall(value: datetime | None, tz: ZoneInfo) -> list | None:
    """A time of the vault's timezone as [wall clock, fold]; ValueError for any other (it could not come back the same)."""
    if value is None:
        return None
    if value.tzinfo is not tz:
        raise ValueError("a time outside the vault's timezone")
    return [value.replace(tzinfo=None).isoformat(), value.fold]


def from_wall(raw: list | None, tz: ZoneInfo) -> datetime | None:
    """The time ``wall`` wrote."""
    if raw is None:
        return None
    return datetime.fromisoformat(raw[0]).replace(tzinfo=tz, fold=raw[1])


def encode_mentions(mentions: Sequence[Mention]) -> list[dict]:
    """Mentions as JSON values."""
    return [m.model_dump() for m in mentions]


def decode_mentions(raw: object) -> list[Mention]:
    """The mentions ``encode_mentions`` wrote."""
    return [Mention.model_validate(m) for m in raw]  # type: ignore[union-attr]
