"""Writing files so that a crash never leaves half a file: temporary file, fsync, rename.

A full disk (or quota) is ``NoSpace`` naming the file: the temporary file is removed and the old file,
if any, is left as it was.

The new file keeps the mode of the file it replaces (a person's ``contradictions.md`` stays as they
set it); a file that did not exist gets the mode ``open()`` would give it (0666 less the umask), not
the 0600 of a temporary file.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
import threading
from pathlib import Path

from state.errors import NoSpace

__all__ = ["atomic_write_text", "atomic_write_bytes", "new_file_mode"]

_UMASK_LOCK = threading.Lock()


def _umask() -> int:
    try:
        for line in Path("/proc/self/status").read_text(encoding="ascii").splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    with _UMASK_LOCK:  # no getter elsewhere: set and restore at once
        mask = os.umask(0o022)
        os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The mode a newly created regular file gets: 0666 less the process's umask."""
    return 0o666 & ~_umask()


def atomic_write_text(path: Path, text: str, *, mode: int | None = None) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically (the old content or the new, never a mix)."""
    atomic_write_bytes(path, text.encode("utf-8"), mode=mode)


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` atomically: temporary file in the same folder, fsync, rename.

    The file gets ``mode`` if given, else the mode of the file it replaces, else the normal new-file mode.
    Raises NoSpace (naming ``path``) when the disk or quota is full.
    """
    try:
        _write_atomically(path, data, mode)
    except OSError as exc:
        if exc.errno in _FULL:
            raise NoSpace(f"no space left on device writing {str(path)!r}") from exc
        raise


_FULL = (errno.ENOSPC, errno.EDQUOT)


def _write_atomically(path: Path, data: bytes, mode: int | None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if mode is None:
        try:
            mode = stat.S_IMODE(path.stat().st_mode)
        except FileNotFoundError:
            mode = new_file_mode()
    handle, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.fchmod(handle, mode)
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    directory = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
