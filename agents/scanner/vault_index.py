"""The vault index of one run: every vault file parsed at most once, and an unchanged file not read at all.

Kept in the store between runs (``state.tables.vault_index``): path → size, mtime, sha256 and the
parsed file. A file whose size and mtime (ns) match its row is answered from the row without being
opened; one whose stat changed is read and hashed, and re-parsed only when its bytes changed. Within
a run every role (scanner, verifier, coordinator) asks the same index, so a file read by the window
scan, the slot table and the D-register history is read once.

Only what ``read_vault_file_uncached`` would return is ever returned (a copy per call, so a caller
that changes its file changes no one else's): a file that could not be kept exactly (front matter
that JSON cannot carry, a time not in the vault's timezone) is parsed as before and not indexed; a
file not read (a link out of the vault, a pipe) is never indexed and always checked anew.
"""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import json
import os
import re
import stat
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date, time
from pathlib import Path
from zoneinfo import ZoneInfo

from agents.scanner.derived import Derivation, DerivedCache, T, from_wall, wall
from agents.scanner.frontmatter import FrontMatter
from agents.scanner.notes import (
    ACTIVE_READER,
    MAX_FILE_BYTES,
    NoteName,
    VaultFile,
    parse_vault_bytes,
    read_vault_bytes,
    unreadable_file,
)
from state.db import Database
from state.tables.vault_index import IndexedFile, load_index, load_parsed, save_index

__all__ = ["VaultIndex", "INDEX_FORMAT", "encode_file", "decode_file", "plain_tree"]

# Bump when the parse of a file changes (what notes.py puts in a VaultFile): older rows are re-parsed.
INDEX_FORMAT = 1


class VaultIndex:
    """The index of the vault at ``root`` for one run; ``db`` None: in-memory only (nothing kept)."""

    def __init__(self, root: Path, tz: ZoneInfo, db: Database | None = None) -> None:
        self.root = Path(root)
        self._root_text = os.fspath(self.root)
        self.tz = tz
        self.db = db
        self.parser = f"{INDEX_FORMAT}:{tz.key}"
        self._real_root = os.path.realpath(self.root)
        self.vault_key = self._real_root
        self._stored: dict[str, IndexedFile] | None = None
        self._stored_parsed: dict[str, str] | None = None
        self._memo: dict[str, VaultFile] = {}
        self._dirty: dict[str, dict] = {}
        self._real_dirs: dict[str, str] = {}
        self._shared: set[str] = set()  # files whose front matter shares objects (YAML aliases): copied whole
        self._checked: set[str] = set()
        self.derived = DerivedCache(db, self.vault_key, self.parser)  # what runs derive from files (briefs' records…)
        # What this run cost: files opened (read from disk), parsed, answered from the stored index.
        self.opened = 0
        self.parsed = 0
        self.from_store = 0

    # the reader protocol (agents.scanner.notes.FileReader) ------------------------------------------
    def serves(self, root: Path) -> bool:
        """Whether ``root`` is this index's vault."""
        return root == self.root or os.path.realpath(root) == self._real_root

    def read(self, root: Path, path: Path) -> VaultFile:
        """The file at ``path`` (inside ``root``, this vault) as ``read_vault_file_uncached`` returns it."""
        rel = Path(path).relative_to(root).as_posix()
        path = self.root / rel
        memo = self._memo.get(rel)
        if memo is None:
            memo = self._read(rel, path)
        if rel not in self._checked:
            self._checked.add(rel)
            if not plain_tree(memo.front.data):
                self._shared.add(rel)
        return copy.deepcopy(memo) if rel in self._shared else _copy(memo)

    def head(self, root: Path, path: Path, size: int) -> bytes | None:
        """The file's first ``size`` bytes from its parse (made now if need be), when its text is its bytes."""
        rel = Path(path).relative_to(root).as_posix()
        file = self._memo.get(rel)
        if file is None:
            if self._plain_stat(rel, self.root / rel) is None:
                return None  # a link, a pipe, missing: the caller opens it (and refusal says why)
            # Read (or answer from the store) the whole file once: the next run then opens nothing.
            file = self._read(rel, self.root / rel)
        if file.encoding != "utf-8" or file.text is None:
            return None
        data = file.text.encode("utf-8")
        # Exact only when the text is the bytes as they are (no BOM dropped, no line cut, not truncated).
        return data[:size] if len(data) == file.size else None

    # derivations (agents.scanner.derived) ---------------------------------------------------------------
    def derive_many(self, root: Path, paths: Sequence[Path], derivation: Derivation[T]) -> list[T]:
        """``derivation.compute`` of each file: an unchanged file (size and mtime as its row) is not even opened."""
        prefix = os.fspath(root).rstrip("/") + "/"
        rels = [text[len(prefix):] if (text := os.fspath(path)).startswith(prefix) and os.sep == "/"
                else Path(path).relative_to(root).as_posix() for path in paths]
        self.derived.prefetch(derivation.kind, rels)
        return [self._derive(rel, derivation) for rel in rels]

    def derive_file(self, file: VaultFile, derivation: Derivation[T]) -> T:
        """``derivation.compute(file)`` of a file read in this run, or the value kept for its bytes."""
        if file.size <= MAX_FILE_BYTES:
            found, value = self.derived.kept(file.path, derivation, file.sha256)
            if found:
                return value  # type: ignore[return-value]
        return self.derived.compute(file.path, file, derivation)

    def _derive(self, rel: str, derivation: Derivation[T]) -> T:
        memo = self._memo.get(rel)
        sha = ""
        if memo is not None:
            sha = memo.sha256 if memo.size <= MAX_FILE_BYTES else ""
        else:
            st = self._plain_stat(rel, os.path.join(self._root_text, rel))
            row = self._stored_row(rel) if st is not None else None
            if row is not None and st is not None and row.size == st.st_size and row.mtime_ns == st.st_mtime_ns \
                    and row.size <= MAX_FILE_BYTES:
                sha = row.sha256
        if sha:
            found, value = self.derived.kept(rel, derivation, sha)
            if found:
                return value  # type: ignore[return-value]
        # Read anew (touched, or not indexed): its bytes may still match a kept value.
        return self.derive_file(self.read(self.root, self.root / rel), derivation)

    # ------------------------------------------------------------------------------------------------
    def _plain_stat(self, rel: str, path: Path | str) -> os.stat_result | None:
        """The file's stat when it is a regular file inside the vault reached without a symlink; else None."""
        try:
            st = os.lstat(path)
        except OSError:
            return None
        if not stat.S_ISREG(st.st_mode):
            return None
        parent = os.path.dirname(rel)
        real = self._real_dirs.get(parent)
        if real is None:
            real = self._real_dirs[parent] = os.path.realpath(self.root / parent)
        expected = os.path.join(self._real_root, parent) if parent else self._real_root
        return st if real == expected else None

    def _stored_row(self, rel: str) -> IndexedFile | None:
        if self.db is None:
            return None
        if self._stored is None:
            self._stored = load_index(self.db, self.vault_key)
        row = self._stored.get(rel)
        return row if row is not None and row.parser == self.parser else None

    def _stored_file(self, rel: str) -> VaultFile | None:
        if self._stored_parsed is None:
            self._stored_parsed = load_parsed(self.db, self.vault_key) if self.db is not None else {}
        raw = self._stored_parsed.get(rel)
        return decode_file(raw, self.tz) if raw is not None else None

    def _read(self, rel: str, path: Path) -> VaultFile:
        st = self._plain_stat(rel, path)
        if st is None:
            # Not a plain file of the vault (a link, a pipe, missing): never indexed, read as before.
            self.opened += 1
            raw, size = read_vault_bytes(self.root, path)
            file = unreadable_file(self.root, path, str(size)) if raw is None else \
                parse_vault_bytes(self.root, path, self.tz, raw, int(size))
            self.parsed += raw is not None
            self._memo[rel] = file
            return file
        row = self._stored_row(rel)
        if row is not None and row.size == st.st_size and row.mtime_ns == st.st_mtime_ns:
            file = self._stored_file(rel)
            if file is not None:
                self.from_store += 1
                self._memo[rel] = file
                return file
        self.opened += 1
        raw, size = read_vault_bytes(self.root, path, checked=True)  # _plain_stat did what refusal() does
        if raw is None:
            file = unreadable_file(self.root, path, str(size))
            self._memo[rel] = file
            return file
        file = None
        if row is not None and row.size == size and row.sha256 == _sha256(raw):
            file = self._stored_file(rel)  # touched, not changed: the stored parse stands
            if file is not None:
                self.from_store += 1
        if file is None:
            file = parse_vault_bytes(self.root, path, self.tz, raw, int(size))
            self.parsed += 1
        encoded = encode_file(file, self.tz)
        if encoded is not None:
            self._dirty[rel] = {"path": rel, "size": int(size), "mtime_ns": st.st_mtime_ns,
                                "sha256": file.sha256, "parser": self.parser, "parsed": encoded}
        self._memo[rel] = file
        return file

    def save(self) -> int:
        """Keep the files read and the values derived anew in the store; returns how many rows were written."""
        if self.db is None:
            return 0
        rows = list(self._dirty.values())
        save_index(self.db, self.vault_key, rows)
        self._dirty.clear()
        return len(rows) + self.derived.save()

    @contextmanager
    def active(self) -> Iterator[VaultIndex]:
        """Answer every ``read_vault_file`` of this vault from the index inside the block (then keep it)."""
        token = ACTIVE_READER.set(self)
        try:
            yield self
        finally:
            ACTIVE_READER.reset(token)
        self.save()


def _copy(file: VaultFile) -> VaultFile:
    """A copy a caller may change without changing the index's (the strings are shared: they are immutable)."""
    front = file.front
    return dataclasses.replace(file, problems=list(file.problems),
                               front=dataclasses.replace(front, data=_copy_data(front.data)))


def _copy_data(value):  # type: ignore[no-untyped-def]
    if isinstance(value, dict):
        return {k: _copy_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy_data(v) for v in value]
    return value  # a plain tree (checked by the caller): the rest are immutable scalars


def _sha256(raw: bytes) -> str:
    return hashlib.sha256(raw[:MAX_FILE_BYTES]).hexdigest()


def plain_tree(data: object, limit: int = 10_000) -> bool:
    """Whether ``data`` is a tree of JSON values: no object reached twice (a YAML alias), at most ``limit`` nodes.

    Checked before anything walks it in full: an alias bomb (a few lines of YAML) expands to billions.
    """
    seen: set[int] = set()
    stack = [data]
    count = 0
    while stack:
        value = stack.pop()
        count += 1
        if count > limit or type(value) not in _PLAIN:
            return False
        if isinstance(value, dict | list):
            if id(value) in seen:
                return False
            seen.add(id(value))
            stack.extend(value.values() if isinstance(value, dict) else value)
            if isinstance(value, dict) and any(type(k) is not str for k in value):
                return False
    return True


def encode_file(file: VaultFile, tz: ZoneInfo) -> str | None:
    """The file as JSON, or None when JSON cannot carry it exactly (then it is not indexed)."""
    data = file.front.data
    try:
        if not plain_tree(data) or json.loads(json.dumps(data)) != data:
            return None
        record = {
            "path": file.path, "agent": file.agent,
            "name": [file.name.day.isoformat() if file.name.day else None,
                     file.name.hhmm.isoformat() if file.name.hhmm else None, file.name.slug],
            "size": file.size, "sha256": file.sha256, "encoding": file.encoding, "text": file.text,
            "front": [data, file.front.present, file.front.error, file.front.body_start_line],
            "body": _body_ref(file), "time": wall(file.time, tz), "time_from": file.time_from,
            "problems": [list(p) for p in file.problems],
        }
    except (TypeError, ValueError):
        return None
    encoded = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
    if _REFUSED.search(encoded):  # a lone surrogate the store would strip: escaped, so it survives
        encoded = json.dumps(record, ensure_ascii=True, separators=(",", ":"))
    return encoded


_REFUSED = re.compile("[\x00\ud800-\udfff]")


_PLAIN = (str, bool, type(None), int, float, list, dict)


def _body_ref(file: VaultFile) -> int | str:
    """The body as an offset into the text when it is the text's tail (it nearly always is), else itself."""
    text = file.text or ""
    if text.endswith(file.body):
        return len(text) - len(file.body)
    return file.body


def decode_file(raw: str, tz: ZoneInfo) -> VaultFile:
    """The VaultFile ``encode_file`` wrote."""
    record = json.loads(raw)
    day, hhmm, slug = record["name"]
    data, present, error, body_start = record["front"]
    text = record["text"]
    body = record["body"]
    when = record["time"]
    return VaultFile(
        path=record["path"], agent=record["agent"],
        name=NoteName(date.fromisoformat(day) if day else None, time.fromisoformat(hhmm) if hhmm else None, slug),
        size=record["size"], sha256=record["sha256"], encoding=record["encoding"], text=text,
        front=FrontMatter(data=data, present=present, error=error, body_start_line=body_start),
        body=(text or "")[body:] if isinstance(body, int) else body,
        time=from_wall(when, tz),
        time_from=record["time_from"], problems=[tuple(p) for p in record["problems"]],
    )
