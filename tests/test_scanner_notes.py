"""Reading single vault files: names, time rules, encodings, defects."""

from __future__ import annotations

from datetime import datetime, time
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agents.scanner.notes import looks_truncated, parse_note_name, read_vault_file

TZ = ZoneInfo("Asia/Shanghai")


def _write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    ("name", "day", "hhmm", "slug"),
    [
        ("2026-09-29T1505-jay-evening-briefing.md", "2026-09-29", time(15, 5), "jay-evening-briefing"),
        ("2026-09-27-1620-csdn-inference.md", "2026-09-27", time(16, 20), "csdn-inference"),
        ("2026-09-28_agents-lite.md", "2026-09-28", None, "agents-lite"),
        ("2026-09-29-engineering-e1prep.md", "2026-09-29", None, "engineering-e1prep"),
        ("2026-09-15-0900-hf-daily-2026-09-15.md", "2026-09-15", time(9, 0), "hf-daily-2026-09-15"),
        ("2026-09-28-2599-not-a-time.md", "2026-09-28", None, "2599-not-a-time"),
    ],
)
def test_every_name_style(name: str, day: str, hhmm: time | None, slug: str) -> None:
    parsed = parse_note_name(name)
    assert parsed.day is not None and parsed.day.isoformat() == day
    assert parsed.hhmm == hhmm
    assert parsed.slug == slug


def test_undated_name_has_no_day() -> None:
    assert parse_note_name("scratch-links.md").day is None


def test_time_rules_in_order(tmp_path: Path) -> None:
    front = _write(tmp_path, "inbox/a/2026-09-28-1000-x.md", "---\ntime: 2026-09-28T11:22:00+08:00\n---\nbody\n")
    named = _write(tmp_path, "inbox/a/2026-09-28-1000-y.md", "body 2026-09-28 13:00\n")
    body = _write(tmp_path, "inbox/a/2026-09-28-z.md", "title\n\n执行体：spark · 2026-09-28 18:40 CST\n")
    only = _write(tmp_path, "inbox/a/2026-09-28_w.md", "no time here\n")
    results = {p.name: read_vault_file(tmp_path, p, TZ) for p in (front, named, body, only)}
    assert results[front.name].time == datetime(2026, 9, 28, 11, 22, tzinfo=TZ)
    assert results[front.name].time_from == "front_matter"
    assert results[named.name].time == datetime(2026, 9, 28, 10, 0, tzinfo=TZ)
    assert results[named.name].time_from == "name"
    assert results[body.name].time == datetime(2026, 9, 28, 18, 40, tzinfo=TZ)
    assert results[body.name].time_from == "body"
    assert results[only.name].time == datetime(2026, 9, 28, 12, 0, tzinfo=TZ)
    assert results[only.name].time_from == "date_only"
    assert results[front.name].agent == "a"


def test_body_time_of_another_day_does_not_move_the_note(tmp_path: Path) -> None:
    path = _write(tmp_path, "inbox/a/2026-09-29-x.md", "窗口：2026-09-28 18:40 → 2026-09-29 18:40\n")
    assert read_vault_file(tmp_path, path, TZ).time == datetime(2026, 9, 29, 18, 40, tzinfo=TZ)


def test_gb18030_is_decoded_and_recorded(tmp_path: Path) -> None:
    text = "---\nagent: flyp\n---\n风险简报：推理后端侧信道（arXiv 2609.06674），需要复核。\n"
    path = _write(tmp_path, "inbox/flyp/2026-09-27-risk.md", text.encode("gb18030"))
    file = read_vault_file(tmp_path, path, TZ)
    assert file.encoding == "gb18030"
    assert "侧信道" in (file.text or "")
    assert file.problems == []


@pytest.mark.parametrize("codec", ["utf-16", "utf-16-be"])
def test_utf16_with_its_byte_order_mark_is_decoded_and_recorded(tmp_path: Path, codec: str) -> None:
    text = "---\nagent: flyp\n---\n## Corvid-Spec 侧信道 ⭐⭐⭐\n- 投机解码接受率随输入而变，可推断他人 prompt\n"
    raw = text.encode(codec)
    if codec == "utf-16-be":
        raw = b"\xfe\xff" + raw  # the big-endian form a BOM names
    path = _write(tmp_path, "inbox/flyp/2026-10-01-flyP-read.md", raw)
    file = read_vault_file(tmp_path, path, TZ)
    assert file.encoding in ("utf-16-le", "utf-16-be") and "侧信道" in (file.text or "")
    assert file.problems == []


def test_utf16_without_a_byte_order_mark_is_listed_not_guessed(tmp_path: Path) -> None:
    path = _write(tmp_path, "inbox/a/2026-10-01-x.md", "没有字节序标记的 UTF-16 文本\n".encode("utf-16-le"))
    file = read_vault_file(tmp_path, path, TZ)
    assert [kind for kind, _ in file.problems] == ["decode_error"]


def test_undecodable_bytes_are_listed_not_raised(tmp_path: Path) -> None:
    path = _write(tmp_path, "inbox/a/2026-09-27-bin.md", bytes(range(128, 256)) * 4)
    file = read_vault_file(tmp_path, path, TZ)
    assert [kind for kind, _ in file.problems] == ["decode_error"]


def test_empty_and_broken_front_matter(tmp_path: Path) -> None:
    empty = read_vault_file(tmp_path, _write(tmp_path, "inbox/a/2026-09-28-e.md", ""), TZ)
    broken = read_vault_file(tmp_path, _write(tmp_path, "inbox/a/2026-09-28-b.md", "---\ntime: [oops\n---\nx\n"), TZ)
    assert [k for k, _ in empty.problems] == ["empty"]
    assert [k for k, _ in broken.problems] == ["bad_front_matter"]
    assert "YAML" in broken.problems[0][1]


@pytest.mark.parametrize(
    ("text", "cut"),
    [
        ("正文。\n并在 jay 抄完 leaderboard 后补上各 scaffold 的", True),
        ("正文，包括以下几项，", True),
        ("正文。\n— jay · 17:35\n", False),
        ("正文。\n| a | b |", False),
        ("完整的一句话。", False),
        ("增量条目：3 条（见上）", False),
    ],
)
def test_truncation_rule(text: str, cut: bool) -> None:
    assert looks_truncated(text) is cut


def test_mentions_and_card_points_cite_the_line_a_reader_finds_in_the_file(tmp_path: Path) -> None:
    from agents.integrator.cluster import Item
    from agents.integrator.increment_text import key_points
    from agents.scanner.cards import parse_card
    from agents.scanner.mentions import extract_mentions
    from agents.scanner.notes import VaultFile

    tz = ZoneInfo("Asia/Shanghai")
    note = _write(tmp_path, "inbox/ann/2026-03-02-ann-notes.md",
                  "---\ntime: 2026-03-02T09:00:00+08:00\nagent: ann\n---\n\n# Notes\n\n- Quokka-KV arXiv 2703.00001\n")
    file: VaultFile = read_vault_file(tmp_path, note, tz)
    assert file.body_line == 5
    found = [m for m in extract_mentions(file.path, file.body, file.body_line) if m.kind == "arxiv"]
    lines = note.read_text(encoding="utf-8").split("\n")
    assert found and "2703.00001" in lines[found[0].line - 1]
    card_path = _write(tmp_path, "organized/paper_cards/0001-2703-00001.md",
                       "---\ncard: 1\narxiv: \"2703.00001\"\ntitle: Quokka-KV\nprimary: serving\n"
                       "ingested: 2026-03-02T06:00+08:00\nstatus: classified\n---\n\n## 摘要\n\n分层 KV。\n\n## 要点\n\n"
                       "- 只测了一种 GPU\n")
    card = parse_card(read_vault_file(tmp_path, card_path, tz))
    assert not isinstance(card, str)
    card_lines = card_path.read_text(encoding="utf-8").split("\n")
    from agents.integrator.select import Judgement

    points = key_points(Item(key="arxiv:2703.00001", arxiv=["2703.00001"], card=card), Judgement("net_new"))
    cited = [int(p.rsplit(" L", 1)[1].rstrip("）")) for p in points]
    assert cited and all(n > 8 for n in cited)  # never "L0", never inside the front matter
    assert all(p.split("（")[0].strip("- ")[:4] in card_lines[n - 1] for p, n in zip(points, cited, strict=True))
