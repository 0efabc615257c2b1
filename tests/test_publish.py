"""Publishing a brief and appending register rows: atomic, and never over a person's file."""

from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

from agents.coordinator import publish as publish_module
from agents.coordinator.publish import (
    RegisterRow,
    append_register_entries,
    publish_brief,
)
from state.errors import UsageError, VaultError
from state.files import atomic_write_text
from state.vault_config import REGISTER_PATH

DAY = date(2026, 5, 2)
REGISTER = """---
updated: 2026-05-01T22:30:00+08:00
---

# 登记簿

| D | 内容 | 风险 | 首次提出 | 状态 | 来源 |
|---|---|---|---|---|---|
| D10 | 旧条目 | ⚠⚬ 低 | 2026-04-30 | 沿用 | inbox/ann/x.md |
| D11 | 另一条 | ⚠⚠⚬ 中 | 2026-05-01 | 待核 | inbox/ann/y.md |

统计：共 2 件。下一编号：D12。
"""


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_publish_new_file(tmp_path: Path) -> None:
    result = publish_brief(tmp_path, "tom", DAY, "inference", "# brief\n")
    target = tmp_path / "inbox" / "tom" / "2026-05-02-inference-e1prep.md"
    assert result.path == target and target.read_text(encoding="utf-8") == "# brief\n"
    assert not result.beside and result.note == "已发布：inbox/tom/2026-05-02-inference-e1prep.md"
    assert _leftovers(target.parent) == []


def test_never_overwrites_a_persons_brief(tmp_path: Path) -> None:
    folder = tmp_path / "inbox" / "tom"
    folder.mkdir(parents=True)
    person = folder / "2026-05-02-inference-e1prep.md"
    person.write_text("# tom 手写\n", encoding="utf-8")
    first = publish_brief(tmp_path, "tom", DAY, "inference", "# baton v1\n")
    assert person.read_text(encoding="utf-8") == "# tom 手写\n"
    assert first.beside and first.path == folder / "2026-05-02-inference-e1prep.baton.md"
    assert "已有人工简报，未覆盖" in first.note
    second = publish_brief(tmp_path, "tom", DAY, "inference", "# baton v2\n")
    assert second.path.read_text(encoding="utf-8") == "# baton v2\n" and "替换了 baton 先前的版本" in second.note
    assert person.read_text(encoding="utf-8") == "# tom 手写\n"
    assert sorted(p.name for p in folder.iterdir()) == [
        "2026-05-02-inference-e1prep.baton.md", "2026-05-02-inference-e1prep.md"]


def test_replace_keeps_the_old_file_as_bak(tmp_path: Path) -> None:
    folder = tmp_path / "inbox" / "tom"
    folder.mkdir(parents=True)
    target = folder / "2026-05-02-inference-e1prep.md"
    target.write_text("# tom 手写\n", encoding="utf-8")
    result = publish_brief(tmp_path, "tom", DAY, "inference", "# baton\n", replace=True)
    assert target.read_text(encoding="utf-8") == "# baton\n"
    assert result.backup == folder / "2026-05-02-inference-e1prep.md.bak"
    assert result.backup.read_text(encoding="utf-8") == "# tom 手写\n"
    again = publish_brief(tmp_path, "tom", DAY, "inference", "# baton 2\n", replace=True)
    assert again.backup.name == "2026-05-02-inference-e1prep.md.bak.2"
    assert result.backup.read_text(encoding="utf-8") == "# tom 手写\n"  # the person's file is kept
    assert _leftovers(folder) == []


def test_failed_write_leaves_the_target_and_no_temp_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    target = tmp_path / "note.md"
    target.write_text("old\n", encoding="utf-8")

    def boom(_src: object, _dst: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(publish_module.os, "replace", boom)
    with pytest.raises(OSError, match="disk full"):
        atomic_write_text(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert _leftovers(tmp_path) == [] and os.listdir(tmp_path) == ["note.md"]


def test_bad_executor_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match="'../tom'"):
        publish_brief(tmp_path, "../tom", DAY, "inference", "x")


def test_append_register_rows(tmp_path: Path) -> None:
    path = tmp_path / REGISTER_PATH
    path.parent.mkdir(parents=True)
    path.write_text(REGISTER, encoding="utf-8")
    row = RegisterRow("D12", "vLLM 版本 0.3.3 | v0.30.0 不一致", "⚠⚠⚬ 中", DAY, "待核", "inbox/jay/z.md")
    assert append_register_entries(tmp_path, [row]) == ["D12"]
    lines = path.read_text(encoding="utf-8").split("\n")
    i = lines.index("| D11 | 另一条 | ⚠⚠⚬ 中 | 2026-05-01 | 待核 | inbox/ann/y.md |")
    assert lines[i + 1] == "| D12 | vLLM 版本 0.3.3 ｜ v0.30.0 不一致 | ⚠⚠⚬ 中 | 2026-05-02 | 待核 | inbox/jay/z.md |"
    assert lines[i + 3].startswith("统计：")
    assert append_register_entries(tmp_path, [row]) == []  # a repeated approval adds nothing
    with pytest.raises(VaultError, match="D11 already names another entry"):
        append_register_entries(tmp_path, [RegisterRow("D11", "别的事", "低", DAY, "待核", "x")])
    assert _leftovers(path.parent) == []


def test_baton_s_own_earlier_publication_is_replaced_not_treated_as_a_person_s(tmp_path: Path) -> None:
    import hashlib

    first = publish_brief(tmp_path, "tom", DAY, "inference", "# baton r1\n")
    own = frozenset({hashlib.sha256(b"# baton r1\n").hexdigest()})
    second = publish_brief(tmp_path, "tom", DAY, "inference", "# baton r2\n", baton_hashes=own)
    assert second.path == first.path and not second.beside
    assert first.path.read_text(encoding="utf-8") == "# baton r2\n"
    assert list(first.path.parent.iterdir()) == [first.path]  # no .baton.md, no .bak
    person = publish_brief(tmp_path, "tom", DAY, "inference", "# baton r3\n", baton_hashes=frozenset({"other"}))
    assert person.beside  # a file baton did not write is a person's: never overwritten


def test_a_register_that_is_not_utf8_is_refused_with_a_reason(tmp_path: Path) -> None:
    register = tmp_path / "organized/registry/contradictions.md"
    register.parent.mkdir(parents=True)
    register.write_bytes("| D | 内容 | 风险 | 首次提出 | 状态 | 来源 |\n|---|---|---|---|---|---|\n"
                         "| D170 | 旧条目 | 低 | 2026-09-15 | 沿用 | x |\n".encode("gb18030"))
    before = register.read_bytes()
    row = RegisterRow(d="D212", text="新条目", risk="中", raised=DAY, status="待核", source="y")
    with pytest.raises(VaultError, match="not UTF-8"):
        append_register_entries(tmp_path, [row])
    assert register.read_bytes() == before


# -- front matter like the team's ----------------------------------------------------------------------


def _front(**overrides: object):  # type: ignore[no-untyped-def]
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from agents.coordinator.publish import BriefFrontMatter

    tz = ZoneInfo("Asia/Shanghai")
    values = dict(time=datetime(2026, 9, 29, 22, 20, tzinfo=tz), agent="ann", slot="t-e1prep", topic="t",
                  baton_version="0.1.0", approved_by="lead", approved_at=datetime(2026, 9, 29, 22, 40, tzinfo=tz),
                  approval="approved", revision=1, thread="t:2026-09-29")
    values.update(overrides)
    return BriefFrontMatter(**values)  # type: ignore[arg-type]


def test_front_matter_has_the_teams_keys_first() -> None:
    from agents.coordinator.publish import with_front_matter
    from agents.scanner.frontmatter import split_front_matter

    text = with_front_matter("t · E1 预消化简报(2026-09-29)\n\nbody\n", _front())
    front, body = split_front_matter(text)
    assert list(front.data)[:3] == ["time", "agent", "slot"]
    assert front.data["time"] == "2026-09-29T22:20:00+08:00" and front.data["approved_by"] == "lead"
    assert front.data["generated_by"] == "baton 0.1.0" and front.data["approval"] == "approved"
    assert body.lstrip("\n") == "t · E1 预消化简报(2026-09-29)\n\nbody\n"


def test_front_matter_keeps_what_an_editor_wrote() -> None:
    from agents.coordinator.publish import with_front_matter
    from agents.scanner.frontmatter import split_front_matter

    text = with_front_matter("---\nagent: bob\ntags: [e1]\n---\n\nedited\n", _front(approval="edited"))
    front, body = split_front_matter(text)
    assert front.data["agent"] == "bob" and front.data["tags"] == ["e1"] and front.data["slot"] == "t-e1prep"
    assert text.count("---\n") == 2 and body.strip() == "edited"


def test_republishing_recognises_batons_own_file_under_its_front_matter(tmp_path: Path) -> None:
    import hashlib

    from agents.coordinator.publish import publish_brief, with_front_matter

    first = "brief v1\n"
    publish_brief(tmp_path, "ann", date(2026, 9, 29), "t", with_front_matter(first, _front()))
    result = publish_brief(tmp_path, "ann", date(2026, 9, 29), "t", with_front_matter("brief v2\n", _front()),
                           baton_hashes=frozenset({hashlib.sha256(first.encode()).hexdigest()}))
    assert not result.beside and result.path.read_text(encoding="utf-8").endswith("brief v2\n")
