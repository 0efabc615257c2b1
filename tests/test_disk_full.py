"""A full disk while writing the brief or the published file: one line naming the file, exit 1 (issue 9).

The disk is made full in-process: every write of a file under the chosen folder fails with ENOSPC,
and so does every write of the log (it is on the same disk). Nothing half-written is left (the
temporary file is removed, an earlier file is unchanged), the terminal gets one line and no traceback,
and the same command run again after "freeing space" finishes the work.
"""

from __future__ import annotations

import errno
import io
import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from workflows.cli import main
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import generate_demo_vault

TOPIC = "inference"


@pytest.fixture
def demo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> DemoManifest:
    for name in [k for k in os.environ if k.startswith("BATON_") and k != "BATON_DATABASE_URL"]:
        monkeypatch.delenv(name)
    return generate_demo_vault(tmp_path / "vault")


class _FullStream(io.RawIOBase):
    """A file on a full disk: opening worked, writing does not."""

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def writable(self) -> bool:
        return True

    def write(self, _data) -> int:  # type: ignore[no-untyped-def, override]
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    def fileno(self) -> int:
        return self._fd

    def close(self) -> None:
        if not self.closed:
            os.close(self._fd)
        super().close()


def _fill_disk_under(folder: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Make every atomic write under ``folder`` hit ENOSPC, and the log too; return the paths refused."""
    import state.files

    refused: list[str] = []
    real_fdopen: Callable[..., object] = os.fdopen

    def fdopen(fd: int, *args: object, **kwargs: object) -> object:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if Path(path).is_relative_to(folder):
            refused.append(path)
            return _FullStream(fd)
        return real_fdopen(fd, *args, **kwargs)

    monkeypatch.setattr(state.files.os, "fdopen", fdopen)
    real_emit = logging.StreamHandler.emit

    def emit(self: logging.StreamHandler, record: logging.LogRecord) -> None:  # type: ignore[type-arg]
        if isinstance(self, logging.FileHandler):
            try:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            except OSError:
                self.handleError(record)  # what logging does with a failed write
            return
        real_emit(self, record)

    monkeypatch.setattr(logging.StreamHandler, "emit", emit)
    return refused


def _one_line(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err.strip()
    assert "Traceback" not in err and "Logging error" not in err, err
    lines = [line for line in err.splitlines() if not line.startswith("baton ")]  # progress lines are fine
    assert len(lines) == 1, err
    return lines[0]


def _leftovers(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*.tmp")] if folder.exists() else []


def test_a_full_disk_writing_the_draft_is_one_line_and_the_run_resumes(
        demo: DemoManifest, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    drafts = demo.root / ".baton" / "drafts"
    run = ["run", "--vault", str(demo.root), "--topic", TOPIC, "--date", demo.end.isoformat(), "--offline",
           "--format", "both"]
    with monkeypatch.context() as full:
        refused = _fill_disk_under(drafts, full)
        assert main(run) == 1
    line = _one_line(capsys)
    assert refused, "the draft was written despite the full disk"
    target = drafts / f"{demo.end}-{TOPIC}-e1prep.json"
    assert line.startswith("baton: failed: no space left on device writing ") and str(target) in line
    assert "run the same command again" in line
    assert not _leftovers(drafts) and not target.exists()  # nothing half-written
    # Space freed: the same command finishes and writes both drafts whole.
    assert main(run) == 0
    assert target.is_file() and target.with_suffix(".md").is_file()
    assert target.read_text(encoding="utf-8").rstrip().endswith("}")


def test_a_full_disk_publishing_keeps_the_thread_pending_and_says_how_to_finish(
        demo: DemoManifest, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    day = demo.end.isoformat()
    thread = f"{TOPIC}:{day}"
    run = ["run", "--vault", str(demo.root), "--topic", TOPIC, "--date", day, "--offline"]
    assert main(run) == 0
    capsys.readouterr()
    inbox = demo.root / "inbox"
    before = {p: p.read_bytes() for p in inbox.rglob("*.md")}
    with monkeypatch.context() as full:
        refused = _fill_disk_under(inbox, full)
        code = main(["approve", thread, "--vault", str(demo.root), "--by", "lead"])
    line = _one_line(capsys)
    assert code == 1 and refused
    assert line.startswith("baton: failed: no space left on device writing ") and str(inbox) in line
    assert not _leftovers(inbox)
    assert {p: p.read_bytes() for p in inbox.rglob("*.md")} == before  # no file new, none changed
    # The approval is recorded; `pending` shows the thread and the command that publishes it.
    assert main(["pending", "--vault", str(demo.root)]) == 0
    out = capsys.readouterr().out
    command = f"baton run --topic {TOPIC} --date {day}"
    assert thread in out and "approved by lead, not published" in out and command in out
    assert main(run) == 0
    published = [p for p in inbox.rglob("*.md") if p not in before]
    assert len(published) == 1 and published[0].name.startswith(f"{day}-{TOPIC}-e1prep")
