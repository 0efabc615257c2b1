"""Reading one vault file: name, encoding, front matter, time, and defects.

Time rules (the vault README): front matter ``time:`` first, then the time in
the file name, then the first ``YYYY-MM-DD HH:MM`` in the first five body
lines, else the date alone, counted as 12:00 and marked as assumed.
"""

from __future__ import annotations

import hashlib
import re
import stat
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from typing import Protocol
from zoneinfo import ZoneInfo

from agents.scanner.frontmatter import FrontMatter, parse_front_time, split_front_matter

__all__ = [
    "heading_spans",
    "NoteName",
    "VaultFile",
    "parse_note_name",
    "decode_bytes",
    "read_vault_file",
    "looks_truncated",
    "ASSUMED_TIME",
    "ACTIVE_READER",
    "FileReader",
    "read_vault_file_uncached",
    "read_vault_bytes",
    "read_vault_head",
    "parse_vault_bytes",
    "unreadable_file",
    "in_path_order",
]

ASSUMED_TIME = time(12, 0)


class FileReader(Protocol):
    """What answers ``read_vault_file`` for one vault while it is active (the run's vault index)."""

    def serves(self, root: Path) -> bool:
        """Whether this reader is the one for the vault at ``root``."""

    def read(self, root: Path, path: Path) -> VaultFile:
        """The file at ``path`` (inside ``root``) as ``read_vault_file_uncached`` would return it."""

    def head(self, root: Path, path: Path, size: int) -> bytes | None:
        """The first ``size`` bytes of the file when known without opening it, else None."""


# The reader of the current run (set by ``agents.scanner.vault_index.VaultIndex.active``); None: read directly.
ACTIVE_READER: ContextVar[FileReader | None] = ContextVar("baton_vault_reader", default=None)

_NAME = re.compile(
    r"^(?P<date>\d{4}-\d{2}-\d{2})"
    r"(?:(?:T|-)(?P<hhmm>\d{4})(?=[-_.]))?"
    r"(?P<rest>.*?)(?:\.md)?$",
    re.DOTALL,  # a file name may hold a newline: it is still dated by its name (issue 9)
)
_BODY_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})[ T](\d{1,2}):(\d{2})(?!\d)")
# A last line ending like these was cut mid-sentence: a comma, an opening
# bracket, or a Chinese function word that cannot end a sentence.
_CUT_ENDINGS = tuple("，、,;；:：（([「“‘-→") + tuple("的了和与及或在把被对从向将并而但是为于以其")
_SENTENCE_ENDINGS = tuple("。！？.!?）)」”’…|*`>~") + ("CST",)


@dataclass(frozen=True)
class NoteName:
    """What a file name says: the date, maybe a time, and the slug."""

    day: date | None
    hhmm: time | None
    slug: str


def parse_note_name(name: str) -> NoteName:
    """Parse every naming style of the vault; ``day`` is None for an undated name."""
    match = _NAME.match(name)
    if not match:
        return NoteName(None, None, name.removesuffix(".md"))
    try:
        day = date.fromisoformat(match.group("date"))
    except ValueError:
        return NoteName(None, None, name.removesuffix(".md"))
    hhmm = None
    if match.group("hhmm"):
        hours, minutes = int(match.group("hhmm")[:2]), int(match.group("hhmm")[2:])
        if hours < 24 and minutes < 60:
            hhmm = time(hours, minutes)
    rest = match.group("rest").lstrip("-_")
    if match.group("hhmm") and hhmm is None:
        rest = f"{match.group('hhmm')}{match.group('rest')}".lstrip("-_")
    return NoteName(day, hhmm, rest)


def decode_bytes(raw: bytes) -> tuple[str | None, str | None]:
    """Decode UTF-8 (with or without BOM), UTF-16 with its BOM (a Windows editor's "Unicode"), else
    GB18030; return (text, encoding)."""
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    for bom, codec in ((b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if raw.startswith(bom):
            try:
                text = raw[2:].decode(codec)
            except UnicodeDecodeError:
                return None, None
            return (text, codec) if "\x00" not in text else (None, None)
    try:
        return raw.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    try:
        text = raw.decode("gb18030")
    except UnicodeDecodeError:
        return None, None
    # GB18030 decodes many byte strings; accept it only when the result reads as text.
    readable = sum(1 for ch in text if ch.isprintable() or ch in "\n\r\t")
    if readable < 0.97 * max(len(text), 1):
        return None, None
    return text, "gb18030"


def looks_truncated(text: str) -> bool:
    """Tell, as far as a rule can, whether the last line was cut mid-sentence."""
    lines = [line.rstrip() for line in text.rstrip("\n").split("\n") if line.strip()]
    if not lines:
        return False
    last = lines[-1]
    if last.lstrip().startswith(("#", "|", "```")):
        return False
    if last.endswith(_CUT_ENDINGS):
        return True
    if text.endswith("\n"):
        return False
    # No final newline: a note saved in full ends a sentence, a signature or a mark.
    if last.endswith(_SENTENCE_ENDINGS) or re.search(r"\d{1,2}:\d{2}$", last):
        return False
    return bool(re.search(r"[\w\u4e00-\u9fff]$", last)) and len(last) > 20


@dataclass
class VaultFile:
    """One file as read: what it is, when it is, and what is wrong with it."""

    path: str
    agent: str | None
    name: NoteName
    size: int
    sha256: str
    encoding: str | None
    text: str | None
    front: FrontMatter = field(default_factory=FrontMatter)
    body: str = ""
    time: datetime | None = None
    time_from: str | None = None
    problems: list[tuple[str, str]] = field(default_factory=list)

    @property
    def body_line(self) -> int:
        """The file line the body starts on (1 without front matter): citations use file lines."""
        if not self.text or not self.body:
            return 1
        return self.text.count("\n") - self.body.count("\n") + 1

    @property
    def slug(self) -> str:
        """The file name's slug (the part after date and time)."""
        return self.name.slug


def _body_time(body: str, day: date | None, tz: ZoneInfo) -> datetime | None:
    head = "\n".join([line for line in body.split("\n") if line.strip()][:5])
    candidates = []
    for match in _BODY_TIME.finditer(head):
        try:
            when = datetime.combine(
                date.fromisoformat(match.group(1)), time(int(match.group(2)), int(match.group(3))), tzinfo=tz
            )
        except ValueError:
            continue
        candidates.append(when)
    # A header often names yesterday's window too; the note's own date wins.
    for when in candidates:
        if day is None or when.date() == day:
            return when
    return None


# Bounds on what one file can cost: a note is a few KB; a 50 MB file or a 10 MB line is a mistake or an attack.
MAX_FILE_BYTES = 2_000_000
MAX_LINE_CHARS = 20_000


def refusal(root: Path, path: Path) -> str | None:
    """Why ``path`` is not read at all: it leads outside the vault, or it is not a regular file."""
    try:
        target = path.resolve(strict=True)
        inside = target.is_relative_to(root.resolve())
        mode = target.stat().st_mode
    except (OSError, RuntimeError) as exc:
        return f"无法打开文件：{getattr(exc, 'strerror', None) or exc}"
    if not inside:
        return "链接指向库外的文件（outside the vault）；baton 不读库外的任何内容"
    if not stat.S_ISREG(mode):
        kind = "文件夹" if stat.S_ISDIR(mode) else "管道（FIFO）" if stat.S_ISFIFO(mode) else "设备或套接字"
        return f"这是{kind}，不是普通文件"
    return None


def _cap_lines(text: str) -> tuple[str, int]:
    if len(text) <= MAX_LINE_CHARS or all(len(line) <= MAX_LINE_CHARS for line in text.split("\n")):
        return text, 0
    lines = text.split("\n")
    long = sum(1 for line in lines if len(line) > MAX_LINE_CHARS)
    return "\n".join(line[:MAX_LINE_CHARS] for line in lines), long


def in_path_order(paths: Iterable[Path]) -> list[Path]:
    """``sorted(paths)`` (pathlib's order: part by part), made with one key per path instead of a Python
    comparison per pair: a year's inbox has thousands of notes."""
    return sorted(paths, key=lambda path: path.parts)


def read_vault_file(root: Path, path: Path, tz: ZoneInfo) -> VaultFile:
    """Read ``path`` (inside ``root``) and resolve its time; never raises for bad content.

    While a vault index is active for ``root`` (``agents.scanner.vault_index``, one per run), the
    file is answered from it: parsed at most once per run, and not opened at all when its size and
    mtime match what the index kept from an earlier run.
    """
    reader = ACTIVE_READER.get()
    if reader is not None and reader.serves(root):
        return reader.read(root, path)
    return read_vault_file_uncached(root, path, tz)


def read_vault_head(root: Path, path: Path, size: int) -> bytes | None:
    """The first ``size`` bytes of ``path``; from the run's index when it knows them.

    None: not opened — it leads outside the vault or is no regular file (``refusal``), or cannot be read.
    """
    reader = ACTIVE_READER.get()
    if reader is not None and reader.serves(root):
        known = reader.head(root, path, size)
        if known is not None:
            return known
    if refusal(root, path):
        return None
    try:
        with path.open("rb") as handle:
            return handle.read(size)
    except OSError:
        return None


def read_vault_bytes(root: Path, path: Path, *, checked: bool = False) -> tuple[bytes, int] | tuple[None, str]:
    """The file's first ``MAX_FILE_BYTES + 1`` bytes and its size, or (None, why it cannot be read).

    ``checked``: the caller already knows the file is a regular file inside the vault (``refusal`` is skipped).
    """
    refused = None if checked else refusal(root, path)
    if refused:
        return None, refused
    try:
        with path.open("rb") as handle:
            raw = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return None, f"无法读取文件：{exc.strerror or exc}"
    return raw, path.stat().st_size


def read_vault_file_uncached(root: Path, path: Path, tz: ZoneInfo) -> VaultFile:
    """``read_vault_file`` without any index: open, decode and parse the file now."""
    raw, size = read_vault_bytes(root, path)
    if raw is None:
        return unreadable_file(root, path, str(size))
    return parse_vault_bytes(root, path, tz, raw, int(size))


def unreadable_file(root: Path, path: Path, why: str) -> VaultFile:
    """A file listed unread, with the reason."""
    rel = path.relative_to(root).as_posix()
    file = VaultFile(rel, _agent_of(rel), parse_note_name(path.name), 0, "", None, None)
    file.problems.append(("unreadable", why))
    return file


def _agent_of(rel: str) -> str | None:
    parts = rel.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "inbox" else None


def parse_vault_bytes(root: Path, path: Path, tz: ZoneInfo, raw: bytes, size: int) -> VaultFile:
    """Parse the bytes read from ``path`` (at most ``MAX_FILE_BYTES + 1``; ``size`` is the file's size)."""
    rel = path.relative_to(root).as_posix()
    name = parse_note_name(path.name)
    cut = len(raw) > MAX_FILE_BYTES
    raw = raw[:MAX_FILE_BYTES]
    file = VaultFile(rel, _agent_of(rel), name, size, hashlib.sha256(raw).hexdigest(), None, None)
    if cut:
        file.problems.append(("truncated", f"文件大小 {size / 1e6:.1f} MB，只读入前 "
                                           f"{MAX_FILE_BYTES // 1_000_000} MB"))
    text, encoding = decode_bytes(raw)
    if text is not None:
        text, long_lines = _cap_lines(text)
        if long_lines:
            file.problems.append(("truncated", f"{long_lines} 行超过 {MAX_LINE_CHARS:,} 字符，"
                                               f"已在该长度截断"))
    file.text, file.encoding = text, encoding
    if text is None:
        file.problems.append(("decode_error", "字节既不是 UTF-8、带 BOM 的 UTF-16，也不是 GB18030 文本；请另存为 UTF-8"))
    else:
        file.front, file.body = split_front_matter(text)
        if file.front.error:
            file.problems.append(("bad_front_matter", f"front matter 不是有效的 YAML：{file.front.error}"))
    _resolve_time(file, tz)
    if text is not None and not text.strip():
        file.problems.append(("empty", "文件为空" if not raw else "文件只有空白字符"))
    elif text is not None and not cut and looks_truncated(file.body):  # a cut file ends mid-line by our cut
        last = [line for line in file.body.rstrip().split("\n") if line.strip()][-1].strip()
        file.problems.append(("truncated", f"最后一行在句中断开：…{last[-30:]!r}"))
    return file


def _resolve_time(file: VaultFile, tz: ZoneInfo) -> None:
    when = parse_front_time(file.front.data.get("time"), tz)
    if when is not None:
        file.time, file.time_from = when.astimezone(tz), "front_matter"
        return
    if file.name.day is None:
        return
    if file.name.hhmm is not None:
        file.time, file.time_from = datetime.combine(file.name.day, file.name.hhmm, tzinfo=tz), "name"
        return
    when = _body_time(file.body, file.name.day, tz) if file.text else None
    if when is not None:
        file.time, file.time_from = when, "body"
        return
    file.time, file.time_from = datetime.combine(file.name.day, ASSUMED_TIME, tzinfo=tz), "date_only"


def heading_spans(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) line indexes of each heading's section of ``lines``; the text before the first heading is
    a section too. The one place notes are cut into sections by their headings."""
    starts = [0, *(i for i, line in enumerate(lines) if i and line.lstrip().startswith("#"))]
    return list(zip(starts, [*starts[1:], len(lines)], strict=True))
