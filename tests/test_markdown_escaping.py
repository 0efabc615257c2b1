"""Vault text stays text in the brief's Markdown: no heading, table row, HTML or script link of its own (issue 9)."""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from agents.coordinator.publish import RegisterRow, append_register_entries
from agents.integrator.escape import markdown_cell, markdown_text
from state.settings import settings_from_env
from state.vault_config import REGISTER_PATH
from workflows import api, review
from workflows.demo_vault import generate_demo_vault

DAY = "2026-10-14"
CARD = "organized/paper_cards/1646-2610-20447.md"
HOSTILE = "# HEADING | x | y |\n|---|---|\n<script>alert(1)</script> [点我](javascript:alert(1))"
# The template's own lines that start like a block (section 六's column line); none other may.
_TEMPLATE_BLOCK_LINES = {"# 增量 arXiv 类型 可信度 建议归入章节"}
_BLOCK = re.compile(r"^\s{0,3}(#{1,6}(\s|$)|\||>|[-+*]\s|`{3}|~{3}|<)")


def _injected(markdown: str) -> list[str]:
    """Lines that vault text turned into Markdown structure or HTML."""
    bad = []
    for line in markdown.split("\n"):
        if line in _TEMPLATE_BLOCK_LINES:
            continue
        if _BLOCK.match(line) or re.search(r"<script|<img|javascript:", line, re.IGNORECASE):
            bad.append(line)
        elif "HEADING" in line and line.lstrip().startswith(("#", "|")):
            bad.append(line)
    return bad


def _hostile_vault(root: Path) -> Path:
    generate_demo_vault(root)
    card = root / CARD
    text = card.read_text(encoding="utf-8")
    title = re.search(r'^title: "(.*)"$', text, re.MULTILINE).group(1)
    card.write_text(text.replace(f'title: "{title}"',
                                 'title: "' + title + "\\n" + HOSTILE.replace("\n", "\\n") + '"'), encoding="utf-8")
    note = root / "inbox/jay/2026-10-14_jay-kv-offload-notes.md"
    note.write_text(note.read_text(encoding="utf-8") + "\n## <script>alert(2)</script> TierFlow 复测 ⭐⭐⭐⭐\n\n"
                    "- TierFlow（arXiv 2610.10580）<img src=x onerror=alert(3)> 复测 TTFT 降低 37%，"
                    "[细节](javascript:alert(4))\n", encoding="utf-8")
    # A file name with a line break and table pipes in it.
    (root / "inbox/jay/2026-10-14T1300-jay-notes\n# HEADING | x | y |.md").write_text(
        "# 笔记\n\n- TierFlow（arXiv 2610.10580）KV 卸载到 NVMe，TTFT 降低 37%。\n", encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, api.RunOutcome]:
    root = _hostile_vault(tmp_path_factory.mktemp("hostile") / "vault")
    ctx = api.open_context(settings_from_env(root, root / ".baton", offline=True))
    outcome = api.run_brief(ctx, "inference", date.fromisoformat(DAY))
    ctx.db.dispose()
    return root, outcome


def test_the_hostile_text_reaches_the_brief(hostile: tuple[Path, api.RunOutcome]) -> None:
    _, outcome = hostile
    draft = next(Path(p) for p in outcome.drafts if p.endswith(".md"))
    markdown = draft.read_text(encoding="utf-8")
    assert "HEADING" in markdown  # the hostile card and file name were read, as text
    assert "&lt;script>" in markdown


def test_the_draft_and_the_published_file_hold_no_injected_structure(hostile: tuple[Path, api.RunOutcome]) -> None:
    root, outcome = hostile
    draft = next(Path(p) for p in outcome.drafts if p.endswith(".md"))
    assert _injected(draft.read_text(encoding="utf-8")) == []
    ctx = api.open_context(settings_from_env(root, root / ".baton", offline=True))
    decided = review.approve(ctx, outcome.thread, "alice")
    ctx.db.dispose()
    assert decided.published
    published = Path(decided.published)
    published = published if published.is_absolute() else root / published
    text = published.read_text(encoding="utf-8")
    body = text.split("---\n", 2)[2]  # after the front matter
    assert "HEADING" in body
    assert _injected(body) == []


def test_register_rows_are_one_line_of_text(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    generate_demo_vault(root)
    row = RegisterRow(d="D900", text="a\n# HEADING | x | y |\n<script>alert(1)</script> [x](javascript:alert(1))",
                      risk="高", raised=date(2026, 10, 14), status="open", source="inbox/jay/a\n| b |.md")
    assert append_register_entries(root, [row]) == ["D900"]
    lines = (root / REGISTER_PATH).read_text(encoding="utf-8").split("\n")
    mine = [line for line in lines if "D900" in line]
    assert len(mine) == 1 and mine[0].count(" | ") == 5  # six cells, no more
    assert not any("HEADING" in line and "D900" not in line for line in lines)
    assert "<script" not in mine[0] and "javascript:" not in mine[0]
    assert append_register_entries(root, [row]) == []  # the same row again is recognised


@pytest.mark.parametrize("plain", ["vLLM 吞吐提升 12%（inbox/a.md L3）", "p < 0.05, 3 > 2", "~3× faster",
                                   "「MortalApps | 42ms | — |」", "training data: 1T tokens", "#12 号", "—"])
def test_ordinary_text_is_unchanged(plain: str) -> None:
    assert markdown_text(plain) == plain


@pytest.mark.parametrize(("hostile", "expected"), [
    ("# H", r"\# H"), ("a\nb\r\nc", "a b c"), ("  - item", r"\- item"), ("> quote", r"\> quote"),
    ("|---|---|", r"\|---\|---\|"), ("1. one", r"1\. one"), ("```", r"\```"), ("===", r"\==="),
    ("<b>x</b>", "&lt;b>x&lt;/b>"), ("[x](JavaScript:alert(1))", "[x](alert(1))"),
    ("<img src=data:image/png;base64,AA>", "&lt;img src=image/png;base64,AA>"),
])
def test_structure_is_neutralised(hostile: str, expected: str) -> None:
    assert markdown_text(hostile) == expected


def test_a_cell_keeps_its_pipes_as_full_width() -> None:
    assert markdown_cell("a | b\nc") == "a ｜ b c"


@pytest.mark.parametrize(("value", "written"), [
    ("https://gradientflow.com/feed：正文无主轴关键词", "<https://gradientflow.com/feed>：正文无主轴关键词"),
    ("见 https://example.org/paper/v1（2026-07 的论文）", "见 <https://example.org/paper/v1>（2026-07 的论文）"),
    ("https://example.org/a。", "<https://example.org/a>。"),
    # Followed by a space, an ASCII bracket or the end: every renderer already ends the link there.
    ("https://example.org/a 之后", "https://example.org/a 之后"),
    ("[原文](https://example.org/a)", "[原文](https://example.org/a)"),
    ("(https://example.org/a)", "(https://example.org/a)"),
])
def test_a_bare_url_run_into_chinese_text_ends_where_the_url_does(value: str, written: str) -> None:
    assert markdown_text(value) == written
