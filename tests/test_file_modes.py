"""Published and rewritten files keep the mode of the file they replace; new files get the umask's (issue 9)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from datetime import date
from pathlib import Path

import pytest

from agents.coordinator.publish import RegisterRow, append_register_entries, publish_brief
from state.files import atomic_write_text, new_file_mode
from state.vault_config import REGISTER_PATH
from workflows.demo_vault import generate_demo_vault

DAY = date(2026, 10, 14)


def _mode(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def test_a_new_file_gets_the_umask_mode_not_0600(tmp_path: Path, umask_027: None) -> None:
    atomic_write_text(tmp_path / "new.md", "x")
    assert new_file_mode() == 0o640
    assert _mode(tmp_path / "new.md") == 0o640


def test_a_rewritten_file_keeps_its_mode(tmp_path: Path) -> None:
    path = tmp_path / "kept.md"
    path.write_text("old", encoding="utf-8")
    os.chmod(path, 0o664)
    atomic_write_text(path, "new")
    assert path.read_text(encoding="utf-8") == "new" and _mode(path) == 0o664
    os.chmod(path, 0o600)
    atomic_write_text(path, "newer")
    assert _mode(path) == 0o600  # a person's stricter choice is kept too


def test_the_published_brief_and_the_appended_register_keep_their_modes(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    generate_demo_vault(root)
    register = root / REGISTER_PATH
    os.chmod(register, 0o664)
    row = RegisterRow(d="D900", text="新条目", risk="中", raised=DAY, status="open", source="inbox/a.md")
    assert append_register_entries(root, [row]) == ["D900"]
    assert "D900" in register.read_text(encoding="utf-8") and _mode(register) == 0o664

    first = publish_brief(root, "mei", DAY, "serving", "# brief\n")
    assert _mode(first.path) == new_file_mode() and _mode(first.path) != 0o600
    os.chmod(first.path, 0o644)
    again = publish_brief(root, "mei", DAY, "serving", "# brief v2\n", replace=True)
    assert again.path == first.path and again.backup is not None
    assert _mode(again.path) == 0o644 and _mode(again.backup) == 0o644
    beside = publish_brief(root, "mei", DAY, "serving", "# brief v3\n")
    assert beside.beside and _mode(beside.path) == new_file_mode()
