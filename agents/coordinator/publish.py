"""Publishing an approved brief into the vault, and appending approved register rows, atomically.

Every write goes to a temporary file in the target's folder, is flushed and
fsynced, then renamed over the target (``os.replace`` is atomic on POSIX and
Windows), so a reader sees the old file or the new one, never half of one.
A person's file is never overwritten: baton writes ``….baton.md`` beside it
unless ``replace=True``, which keeps the old file as ``.bak``.
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path

import yaml

from agents.integrator.escape import markdown_cell
from agents.scanner.e1_format import brief_file_name
from agents.scanner.frontmatter import split_front_matter
from agents.scanner.notes import decode_bytes
from state.errors import UsageError, VaultError
from state.files import atomic_write_bytes, atomic_write_text
from state.vault_config import REGISTER_PATH

__all__ = [
    "BriefFrontMatter",
    "with_front_matter",
    "PublishResult",
    "RegisterRow",
    "publish_brief",
    "append_register_entries",
]

_SAFE_PART = re.compile(r"^[\w.-]+$")


@dataclass(frozen=True)
class PublishResult:
    """Where the brief went, what was kept aside, and a sentence that says so."""

    path: Path
    note: str
    beside: bool = False
    backup: Path | None = None


@dataclass(frozen=True)
class RegisterRow:
    """One new row of the contradiction register (``| D | 内容 | 风险 | 首次提出 | 状态 | 来源 |``)."""

    d: str
    text: str
    risk: str
    raised: date
    status: str
    source: str


@dataclass(frozen=True)
class BriefFrontMatter:
    """The front matter of a published brief, the team's keys first (``time``/``agent``/``slot``).

    ``time`` is the window's end, the moment the brief is "as of" (what Dataview and the slot check
    read); the approval says who approved which revision when, and whether a person edited it.
    """

    time: datetime
    agent: str
    slot: str
    topic: str
    baton_version: str
    approved_by: str
    approved_at: datetime
    approval: str  # approved | edited | auto-approved
    revision: int
    thread: str

    def fields(self) -> dict[str, object]:
        """The keys in order, times as ISO 8601 with their offset."""
        return {"time": self.time.isoformat(timespec="seconds"), "agent": self.agent, "slot": self.slot,
                "topic": self.topic, "generated_by": f"baton {self.baton_version}",
                "baton_version": self.baton_version, "approval": self.approval, "approved_by": self.approved_by,
                "approved_at": self.approved_at.isoformat(timespec="seconds"), "revision": self.revision,
                "thread": self.thread}


def with_front_matter(markdown: str, front: BriefFrontMatter) -> str:
    """The brief with its front matter; keys a person's edited text already has are kept as they wrote."""
    own, body = split_front_matter(markdown)
    fields = front.fields()
    if own.present and not own.error and isinstance(own.data, dict):
        fields.update({str(k): v for k, v in own.data.items()})
    else:
        body = markdown
    head = yaml.safe_dump(fields, allow_unicode=True, sort_keys=False, default_flow_style=False)
    return f"---\n{head}---\n{body if body.startswith(chr(10)) else chr(10) + body}"


def _body_sha256(path: Path) -> str:
    """The hash of a published file without its front matter (what the decision's hash is of)."""
    text = path.read_text(encoding="utf-8", errors="replace")
    front, body = split_front_matter(text)
    return hashlib.sha256((body.removeprefix("\n") if front.present else text).encode("utf-8")).hexdigest()


def _free_backup(path: Path) -> Path:
    candidate = path.with_name(path.name + ".bak")
    number = 2
    while candidate.exists():
        candidate = path.with_name(f"{path.name}.bak.{number}")
        number += 1
    return candidate


def _keep_backup(path: Path) -> Path:
    """Keep the current file under a fresh ``.bak`` name without a moment where ``path`` is absent."""
    backup = _free_backup(path)
    try:
        os.link(path, backup)
    except OSError:
        atomic_write_bytes(backup, path.read_bytes(), mode=stat.S_IMODE(path.stat().st_mode))
    return backup


def publish_brief(
    vault_root: Path, executor: str, day: date, topic: str, markdown: str, replace: bool = False,
    baton_hashes: frozenset[str] = frozenset(),
) -> PublishResult:
    """Write the approved brief to ``inbox/<executor>/<date>-<topic>-e1prep.md``, never over a person's file."""
    for label, value in (("executor", executor), ("topic", topic)):
        if not _SAFE_PART.match(value) or value.startswith("."):
            raise UsageError(f"{label} {value!r} cannot be part of a vault file name")
    folder = Path(vault_root) / "inbox" / executor
    target = folder / brief_file_name(day, topic)
    rel = target.relative_to(vault_root).as_posix()
    if not target.exists():
        atomic_write_text(target, markdown)
        return PublishResult(target, f"已发布：{rel}")
    if hashlib.sha256(target.read_bytes()).hexdigest() in baton_hashes or _body_sha256(target) in baton_hashes:
        # baton's own earlier publication of this thread, not a person's brief: replace it.
        atomic_write_text(target, markdown)
        return PublishResult(target, f"已发布：{rel}（替换了 baton 先前发布的版本）")
    if replace:
        backup = _keep_backup(target)
        atomic_write_text(target, markdown)
        return PublishResult(
            target, f"已替换 {rel}，原文件保留为 {backup.name}", backup=backup
        )
    beside = target.with_name(brief_file_name(day, topic, baton=True))
    again = beside.exists()
    atomic_write_text(beside, markdown)
    note = f"{rel} 已有人工简报，未覆盖；baton 版本写在旁边：{beside.name}"
    if again:
        note += "（替换了 baton 先前的版本）"
    return PublishResult(beside, note, beside=True)


def _cell(value: str) -> str:
    return markdown_cell(value)


def _row_line(row: RegisterRow) -> str:
    cells = (row.d, row.text, row.risk, row.raised.isoformat(), row.status, row.source)
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


_D_CELL = re.compile(r"^\|\s*D(\d+)\s*\|")


def append_register_entries(vault_root: Path, rows: Sequence[RegisterRow]) -> list[str]:
    """Append new rows to the register's table atomically; return the D-numbers written.

    A row whose D-number is already there with the same text is skipped (a
    repeated approval); the same number with other text raises VaultError,
    since one number never names two things.
    """
    path = Path(vault_root) / REGISTER_PATH
    try:
        raw = path.read_bytes()
    except FileNotFoundError as exc:
        raise VaultError(f"the register {REGISTER_PATH!r} is missing from {str(vault_root)!r}") from exc
    text, encoding = decode_bytes(raw)
    if text is None or encoding != "utf-8":
        # Rewriting it as UTF-8 would change a person's file behind their back.
        raise VaultError(f"{REGISTER_PATH!r} is not UTF-8 ({encoding or 'undecodable'}); re-save it as UTF-8 "
                         "and approve again to append the new entries")
    lines = text.split("\n")
    table_rows = [i for i, line in enumerate(lines) if _D_CELL.match(line)]
    if not table_rows:
        raise VaultError(f"{REGISTER_PATH!r} has no register table to append to")
    existing = {}
    for i in table_rows:
        cells = [c.strip() for c in lines[i].strip().strip("|").split("|")]
        existing[cells[0]] = cells[1] if len(cells) > 1 else ""
    new_lines, written = [], []
    for row in rows:
        if not re.fullmatch(r"D\d+", row.d):
            raise VaultError(f"register number {row.d!r} is not of the form D<number>")
        if row.d in existing:
            if existing[row.d] == _cell(row.text):
                continue
            raise VaultError(f"{row.d} already names another entry in {REGISTER_PATH!r}: {existing[row.d]!r}")
        existing[row.d] = _cell(row.text)
        new_lines.append(_row_line(row))
        written.append(row.d)
    if not new_lines:
        return []
    last = table_rows[-1]
    lines[last + 1:last + 1] = new_lines
    atomic_write_text(path, "\n".join(lines))
    return written
