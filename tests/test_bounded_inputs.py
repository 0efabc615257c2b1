"""Nothing read outside the vault, no file that is not a file, and no unbounded file or line (issue 9)."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agents.scanner.notes import MAX_FILE_BYTES, MAX_LINE_CHARS, read_vault_file
from agents.scanner.window import scan_window
from state.vault_config import load_vault_config
from tests.unseen_vault import DAY, write_unseen_vault

TZ = ZoneInfo("Asia/Shanghai")


def _vault(tmp_path: Path) -> Path:
    return write_unseen_vault(tmp_path / "vault")


def _status(root: Path, name: str):  # type: ignore[no-untyped-def]
    file = read_vault_file(root, root / "inbox" / "otto" / name, TZ)
    return file.problems[0] if file.problems else ("read", ""), file


def test_a_note_linking_outside_the_vault_is_listed_not_read(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    secret = tmp_path / "secret.md"
    secret.write_text("password = hunter2\n", encoding="utf-8")
    (root / "inbox" / "otto" / f"{DAY}T0900-link.md").symlink_to(secret)
    (problem, reason), file = _status(root, f"{DAY}T0900-link.md")
    assert problem == "unreadable" and "outside the vault" in reason and file.text is None


def test_a_pipe_or_a_folder_named_like_a_note_is_listed_and_the_scan_goes_on(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    os.mkfifo(root / "inbox" / "otto" / f"{DAY}T0901-pipe.md")
    (root / "inbox" / "otto" / f"{DAY}T0902-folder.md").mkdir()
    (root / "organized" / "paper_cards" / "3999-2703-09999.md").mkdir()
    assert _status(root, f"{DAY}T0901-pipe.md")[0] == ("unreadable", "这是管道（FIFO），不是普通文件")
    scan = scan_window(load_vault_config(root), "serving", date.fromisoformat(DAY))  # would hang on the pipe
    reasons = {s.path: s.reason for s in scan.sources if s.status == "unreadable"}
    assert any("文件夹" in (r or "") for p, r in reasons.items() if p.endswith("3999-2703-09999.md"))
    assert any("管道" in (r or "") for r in reasons.values())
    assert scan.read_count >= 2  # the real notes are still read


def test_a_huge_file_and_a_huge_line_are_read_up_to_a_bound_and_flagged(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    big = root / "inbox" / "otto" / f"{DAY}T0903-big.md"
    big.write_text("# big\n" + ("- KV cache 90 ms\n" * (MAX_FILE_BYTES // 16 + 10)), encoding="utf-8")
    (problem, reason), file = _status(root, big.name)
    assert problem == "truncated" and "MB" in reason and len(file.text or "") <= MAX_FILE_BYTES
    assert file.size > MAX_FILE_BYTES
    wide = root / "inbox" / "otto" / f"{DAY}T0904-wide.md"
    wide.write_text("# wide\n" + "x" * (MAX_LINE_CHARS * 3) + "\n", encoding="utf-8")
    (problem, reason), file = _status(root, wide.name)
    assert problem == "truncated" and "截断" in reason
    assert max(len(line) for line in (file.text or "").split("\n")) == MAX_LINE_CHARS


@pytest.mark.parametrize("target", ["/dev/zero", "/etc/hostname"])
def test_links_to_system_files_are_refused(tmp_path: Path, target: str) -> None:
    if not Path(target).exists():
        pytest.skip(f"{target} not on this machine")
    root = _vault(tmp_path)
    (root / "inbox" / "otto" / f"{DAY}T0905-sys.md").symlink_to(target)
    (problem, reason), _ = _status(root, f"{DAY}T0905-sys.md")
    assert problem == "unreadable" and "outside the vault" in reason


def test_mentions_are_capped_per_source_and_extraction_stops_at_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.scanner import mentions as module

    lines = [f"- see arXiv:2511.{n:05d} for TTFT {n} ms" for n in range(50_000)]  # 2 mentions a line
    seen: list[str] = []
    real = module.find_caveats
    monkeypatch.setattr(module, "find_caveats", lambda line: (seen.append(line), real(line))[1])
    found, reason = module.extract_source_mentions("inbox/x/dump.md", "\n".join(lines), first_line=3, limit=1_000)
    assert len(found) == 1_000 and reason is not None
    assert "上限 1,000" in reason and "第 503 行" in reason  # the file line, after front matter
    assert [m.line for m in found] == sorted(m.line for m in found) and found[0].line == 3
    assert found[0].value == "2511.00000"
    # The lines past the cap are not searched at all: the work is bounded by the cap, not by the file.
    assert len(seen) <= 1_000
    few, none = module.extract_source_mentions("inbox/x/note.md", "\n".join(lines[:10]), limit=1_000)
    assert len(few) == 20 and none is None
    assert len(module.extract_mentions("inbox/x/dump.md", "\n".join(lines))) == module.MAX_MENTIONS_PER_SOURCE
