"""Baton slots, streaks, excuses, claims of the coordination notes, and the SVG heatmap."""

from __future__ import annotations

import unicodedata
import xml.etree.ElementTree as ET
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agents.coordinator.claims import check_claims, parse_claims, read_coordination_notes
from agents.coordinator.heatmap import render_gaps_svg
from agents.coordinator.slots import compute_gaps, describe_gap, gaps_open_at_check, scan_arrivals
from state.db import Database
from state.models import BriefWarning
from state.tables.coordination import load_excuses, record_excuse
from state.vault_config import load_vault_config
from tests.conftest import ANN_DAILY_SCHEDULE

TZ = ZoneInfo("Asia/Shanghai")
SVG_NS = "{http://www.w3.org/2000/svg}"
SCHEDULE = ANN_DAILY_SCHEDULE + """
[[slot]]
agent = "ann"
name = "feed"
pattern = "{date}-0900-feed-*.md"
due = "09:30"

[[slot]]
agent = "boss"
name = "coordination"
pattern = "{date}-1245-boss-coordination-*.md"
due = "13:15"
"""


def _note(root: Path, agent: str, name: str, text: str = "# note\n\nbody text.\n") -> None:
    folder = root / "inbox" / agent
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def _timed(hhmm: str, day: str) -> str:
    return f"---\ntime: {day}T{hhmm}:00+08:00\n---\n\n# note\n\nbody text.\n"


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "schedule.toml").write_text(SCHEDULE, encoding="utf-8")
    (root / "topics.toml").write_text("", encoding="utf-8")
    # ann/daily: met 5-1, late 5-2 (front matter), missing 5-3, excused 5-4 (missing), missing 5-5, met 5-6.
    _note(root, "ann", "2026-05-01-daily.md", _timed("11:00", "2026-05-01"))
    _note(root, "ann", "2026-05-02-daily.md", _timed("15:10", "2026-05-02"))
    _note(root, "ann", "2026-05-06-daily.md", "# 2026-05-06 11:59 daily\n\nbody text.\n")
    # A later copy on 5-2 does not change the first arrival; a baton side file does not fill the slot.
    _note(root, "ann", "2026-05-02-daily.baton.md", _timed("10:00", "2026-05-02"))
    # ann/feed: name time 09:00 every day but 5-3, whose note does not match the pattern.
    for day in ("01", "02", "04", "05", "06"):
        _note(root, "ann", f"2026-05-{day}-0900-feed-x.md")
    _note(root, "ann", "2026-05-03-0900-other.md")
    return root


def _by(gaps, slot: str) -> dict[str, object]:
    return {g.date: g for g in gaps if f"{g.agent}/{g.slot}" == slot}


def test_met_late_missing_and_streaks(vault: Path) -> None:
    cfg = load_vault_config(vault)
    gaps = _by(compute_gaps(cfg, date(2026, 5, 6), days=6), "ann/daily")
    assert [gaps[f"2026-05-0{d}"].status for d in range(1, 7)] == ["met", "late", "missing", "missing", "missing", "met"]
    assert [gaps[f"2026-05-0{d}"].streak for d in range(1, 7)] == [0, 1, 2, 3, 4, 0]
    late = gaps["2026-05-02"]
    assert late.arrived == datetime(2026, 5, 2, 15, 10, tzinfo=TZ)
    assert late.closed and late.closed_at == late.arrived and late.note == "缺口闭合 15:10"
    assert late.source == "inbox/ann/2026-05-02-daily.md"
    assert late.open_at_check and late.checked_at == datetime(2026, 5, 2, 12, 45, tzinfo=TZ)
    assert gaps["2026-05-06"].arrived == datetime(2026, 5, 6, 11, 59, tzinfo=TZ)  # body time
    feed = _by(compute_gaps(cfg, date(2026, 5, 6), days=6), "ann/feed")
    assert feed["2026-05-03"].status == "missing" and feed["2026-05-04"].status == "met"


def test_window_keeps_streak_history_and_one_entry_per_slot_day(vault: Path) -> None:
    cfg = load_vault_config(vault)
    gaps = compute_gaps(cfg, date(2026, 5, 5), days=1)
    assert len(gaps) == 3
    assert _by(gaps, "ann/daily")["2026-05-05"].streak == 4  # 5-2 … 5-5, learnt from before the window


def test_excused_day_neither_breaks_nor_extends(vault: Path, tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'state.db'}")
    db.upgrade()
    record_excuse(db, "ann/daily", date(2026, 5, 4), "lead", "劳动节调休", datetime(2026, 5, 4, 9, tzinfo=TZ))
    excuses = load_excuses(db)
    assert str(excuses[("ann/daily", date(2026, 5, 4))]) == "lead：劳动节调休"
    gaps = _by(compute_gaps(load_vault_config(vault), date(2026, 5, 6), 6, excuses=excuses), "ann/daily")
    assert gaps["2026-05-04"].status == "excused" and "劳动节调休" in gaps["2026-05-04"].note
    assert gaps["2026-05-05"].streak == 3  # 5-2, 5-3, (5-4 excused), 5-5
    assert not gaps["2026-05-04"].open_at_check


def test_as_of_hides_later_notes_and_undue_slots(vault: Path) -> None:
    cfg = load_vault_config(vault)
    noon = datetime(2026, 5, 2, 12, 45, tzinfo=TZ)
    gaps = _by(compute_gaps(cfg, date(2026, 5, 2), 2, as_of=noon), "ann/daily")
    assert gaps["2026-05-02"].status == "missing" and gaps["2026-05-02"].open_at_check
    early = compute_gaps(cfg, date(2026, 5, 2), 1, as_of=datetime(2026, 5, 2, 9, 0, tzinfo=TZ))
    # At 09:00 only the feed has come; daily and coordination are not due yet.
    assert [(g.slot, g.status) for g in early] == [("feed", "met")]


def test_arrivals_scan_reads_only_matching_notes(vault: Path) -> None:
    arrivals = scan_arrivals(load_vault_config(vault))
    assert ("ann/feed", date(2026, 5, 3)) not in arrivals
    assert [a.path for a in arrivals[("ann/daily", date(2026, 5, 2))]] == ["inbox/ann/2026-05-02-daily.md"]


def test_describe_gap_in_team_words(vault: Path) -> None:
    cfg = load_vault_config(vault)
    gap = _by(compute_gaps(cfg, date(2026, 5, 5), 1, as_of=datetime(2026, 5, 5, 12, 45, tzinfo=TZ)),
              "ann/daily")["2026-05-05"]
    assert describe_gap(gap) == "ann/daily 第 4 日缺口（截至 12:45 未交，due 12:00）"


COORDINATION = """# boss · 协调检查 · 2026-05-03 12:45

（本人 5-2 协调棒位未出。）

| 棒位 | 应交 | 状态 |
|---|---|---|
| ann · daily（5-2） | 12:00 | ⚠⚬ 未见 · 第 1 日缺口 |
| ann · feed | 09:30 | ✅ 09:00 |

- P0：ann daily 第 3 日缺口，需要 lead 介入
"""


def test_claims_false_alarm_unreported_and_miscounted(vault: Path) -> None:
    _note(vault, "boss", "2026-05-01-1245-boss-coordination-noon.md", "# ok\n\n无缺口。\n")
    _note(vault, "boss", "2026-05-03-1245-boss-coordination-noon.md", COORDINATION)
    cfg = load_vault_config(vault)
    notes = read_coordination_notes(cfg, date(2026, 5, 3), date(2026, 5, 3))
    claims = {(c.slot, c.day.isoformat()): c for c in parse_claims(notes[0], cfg.schedule.slot)}
    assert claims[("ann/daily", "2026-05-02")].state == "open" and claims[("ann/daily", "2026-05-02")].line == 7
    assert claims[("ann/feed", "2026-05-03")].state == "met"
    assert claims[("boss/coordination", "2026-05-02")].state == "open"
    gaps = compute_gaps(cfg, date(2026, 5, 3), 3)
    warnings = {w.key: w for w in check_claims(notes, gaps, cfg)}
    # 5-2 daily came at 15:10, before the 5-3 check: the note's "未见" is a false alarm.
    assert warnings["false_alarm#ann/daily/2026-05-02"].sources == [
        "inbox/boss/2026-05-03-1245-boss-coordination-noon.md", "inbox/ann/2026-05-02-daily.md"]
    # The feed of 5-3 never came but the note says ✅.
    assert "标为 ✅" in warnings["gap_unreported#ann/feed/2026-05-03"].text
    # The P0 line counts 3 days; the slot record says 2 (5-2 late, 5-3 missing).
    assert warnings["streak_mismatch#ann/daily/2026-05-03"].kind == "streak_mismatch"
    assert "gap_unreported#boss/coordination/2026-05-02" not in warnings  # said in prose
    assert all(w.id == "" and w.text for w in warnings.values())


@pytest.mark.sample_vault
def test_sample_vault_slots_on_0928(sample_vault: Path) -> None:
    cfg = load_vault_config(sample_vault)
    gaps = compute_gaps(cfg, date(2026, 9, 28), days=14)
    infra = _by(gaps, "spark/llm-infra-e1prep")
    assert [infra[f"2026-09-{d}"].status for d in range(22, 29)] == ["late"] * 7
    day = infra["2026-09-28"]
    assert day.streak == 7 and day.closed and day.closed_at == datetime(2026, 9, 28, 18, 40, tzinfo=TZ)
    assert infra["2026-09-21"].status == "met" and infra["2026-09-21"].streak == 0
    agent = _by(gaps, "spark/agent-e1prep")
    assert [agent[f"2026-09-{d}"].status for d in range(22, 28)] == ["missing"] * 6
    assert agent["2026-09-28"].status == "late" and agent["2026-09-28"].streak == 7
    assert agent["2026-09-28"].arrived == datetime(2026, 9, 28, 18, 10, tzinfo=TZ)
    hf = _by(gaps, "tom/hf-daily")["2026-09-20"]
    assert hf.status == "missing" and hf.streak == 1 and hf.open_at_check
    assert _by(gaps, "tom/inference-e1prep")["2026-09-23"].status == "met"
    open_keys = {f"{g.agent}/{g.slot}" for g in gaps_open_at_check(gaps, date(2026, 9, 28))}
    assert open_keys == {"spark/llm-infra-e1prep", "spark/agent-e1prep"}


@pytest.mark.sample_vault
def test_sample_vault_false_alarm_of_0924(sample_vault: Path) -> None:
    cfg = load_vault_config(sample_vault)
    notes = read_coordination_notes(cfg, date(2026, 9, 22), date(2026, 9, 28))
    warnings = check_claims(notes, compute_gaps(cfg, date(2026, 9, 28), 8), cfg)
    false = [w for w in warnings if w.kind == "false_alarm"]
    assert [w.subject for w in false] == ["tom/inference-e1prep/2026-09-23"]
    assert "inbox/tom/2026-09-23-inference-e1prep.md" in false[0].sources
    assert "22:20" in false[0].text
    assert not [w for w in warnings if w.kind == "streak_mismatch"]


def test_heatmap_is_valid_svg_with_one_cell_per_slot_day(vault: Path) -> None:
    gaps = compute_gaps(load_vault_config(vault), date(2026, 5, 6), 6)
    svg = render_gaps_svg(gaps)
    root = ET.fromstring(svg)
    ns = {"s": "http://www.w3.org/2000/svg"}
    cells = [e for e in root.iter() if e.get("class") == "cell"]
    assert len(cells) == 3 * 6
    statuses = [c.get("data-status") for c in cells]
    assert statuses.count("missing") == sum(1 for g in gaps if g.status == "missing")
    streaks = [t.text for t in root.iterfind(".//s:text[@class='streak']", ns)]
    assert "4" in streaks  # ann/daily on 5-5
    texts = " ".join(t.text or "" for t in root.iterfind(".//s:text", ns))
    assert "2026-05-01 → 2026-05-06" in texts and "ann/daily" in texts and "迟交 late" in texts
    assert len(root.findall(".//s:rect[@class='legend']", ns)) == 4


def _estimated_width(text: str, size: float) -> float:
    """The test's own estimate: CJK / full-width one em, anything else 0.6 em."""
    return sum(size if unicodedata.east_asian_width(ch) in ("W", "F") else size * 0.6 for ch in text)


def test_heatmap_is_wide_enough_for_every_legend_item(vault: Path) -> None:
    for days in (1, 3, 6):  # the fewer the days, the more the legend outgrows the grid
        root = ET.fromstring(render_gaps_svg(compute_gaps(load_vault_config(vault), date(2026, 5, 6), days)))
        width = float(root.get("width"))
        assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
        legend = [t for t in root.iter(f"{SVG_NS}text") if t.get("class") == "legend"]
        assert [t.text for t in legend][-1].startswith("数字 = 连续缺口日数")
        rightmost = max(legend, key=lambda t: float(t.get("x")))
        assert width >= float(rightmost.get("x")) + _estimated_width(rightmost.text, 12), (days, rightmost.text)
        title = next(t for t in root.iter(f"{SVG_NS}text") if t.get("class") == "title")
        assert width >= float(title.get("x")) + _estimated_width(title.text, 18)


def test_heatmap_late_cell_shows_the_arrival_in_dark_ink_and_lists_cjk_fonts(vault: Path) -> None:
    root = ET.fromstring(render_gaps_svg(compute_gaps(load_vault_config(vault), date(2026, 5, 6), 6)))
    cells = {(c.get("data-slot"), c.get("data-date")): c for c in root.iter() if c.get("class") == "cell"}
    late = cells[("ann/daily", "2026-05-02")]
    assert late.get("data-status") == "late"
    texts = [(t.get("class"), t.text, t.get("fill")) for t in late.iter(f"{SVG_NS}text")]
    assert [(cls, text) for cls, text, _ in texts] == [("streak", "1"), ("arrival", "15:10")]
    assert all(fill.lower() not in ("#fff", "#ffffff", "white") for _, _, fill in texts)  # not white on amber
    missing = cells[("ann/daily", "2026-05-03")]
    assert [t.get("class") for t in missing.iter(f"{SVG_NS}text")] == ["streak"]  # nothing arrived
    fonts = root.get("font-family")
    for family in ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei"):
        assert f"'{family}'" in fonts
    assert fonts.endswith("sans-serif")


def test_heatmap_shows_warnings_escaped_and_inside_the_picture(vault: Path) -> None:
    gaps = compute_gaps(load_vault_config(vault), date(2026, 5, 6), 2)
    bare = ET.fromstring(render_gaps_svg(gaps))
    long = "误报：boss 5-3 12:45 协调笔记称 ann/daily 5-2 未交，但 inbox/ann/2026-05-02-daily.md 已到达 " * 3
    warnings = [BriefWarning(id="w1", kind="false_alarm", text=long),
                BriefWarning(id="w2", kind="gap_unreported", text="boss 协调检查未提及 ann/feed <5-3> & 其他")]
    svg = render_gaps_svg(gaps, warnings=warnings)
    root = ET.fromstring(svg)  # still valid XML: "<", ">" and "&" are escaped
    lines = [t for t in root.iter(f"{SVG_NS}text") if t.get("class") == "warning"]
    assert {t.get("data-kind") for t in lines} == {"false_alarm", "gap_unreported"}
    shown = "".join(t.text for t in lines)
    assert "ann/feed <5-3> & 其他" in shown and "漏报缺口" in shown
    assert "".join(t.text for t in lines if t.get("data-kind") == "false_alarm").replace(" ", "") == \
        ("⚠" + long).replace(" ", "")  # wrapped, nothing lost
    width, height = float(root.get("width")), float(root.get("height"))
    legend_y = max(float(t.get("y")) for t in root.iter(f"{SVG_NS}text") if t.get("class") == "legend")
    for line in lines:
        assert legend_y < float(line.get("y")) <= height - 4
        assert float(line.get("x")) + _estimated_width(line.text, 12) <= width, line.text
    assert height > float(bare.get("height")) and len(lines) > 2


def test_a_slot_added_later_has_no_history_before_its_first_note(tmp_path: Path) -> None:
    from workflows.demo_vault import generate_demo_vault

    root = tmp_path / "vault"
    manifest = generate_demo_vault(root)
    with (root / "schedule.toml").open("a", encoding="utf-8") as handle:
        handle.write('\n[[slot]]\nagent = "jay"\nname = "weekly"\npattern = "{date}-1000-weekly-*.md"\n'
                     'due = "11:00"\nalert = ["stephen"]\n')
    day = manifest.end
    (root / "inbox/jay" / f"{day - timedelta(days=1)}-1000-weekly-ops.md").write_text("周报\n", encoding="utf-8")
    gaps = compute_gaps(load_vault_config(root), day, 7)
    weekly = [(g.date, g.status, g.streak) for g in gaps if g.slot == "weekly"]
    assert weekly == [((day - timedelta(days=1)).isoformat(), "met", 0), (day.isoformat(), "missing", 1)]
