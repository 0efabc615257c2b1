"""The coordinator's clause reader and check_claims on a tiny vault written here (names: mei, otto, lin)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from agents.coordinator.claims import check_claims, read_clause, read_coordination_notes
from agents.coordinator.slots import compute_gaps
from state.vault_config import Slot, load_vault_config

DAY = date(2026, 3, 11)

SCHEDULE = """
timezone = "Asia/Shanghai"
check_at = "12:45"

[[slot]]
agent = "mei"
name = "digest"
pattern = "{date}-*-mei-digest*.md"
due = "09:00"

[[slot]]
agent = "otto"
name = "evening"
pattern = "{date}-*-otto-evening*.md"
due = "20:00"

[[slot]]
agent = "lin"
name = "radar"
pattern = "{date}-*-lin-radar*.md"
due = "10:00"

[[slot]]
agent = "lin"
name = "digest"
pattern = "{date}-*-lin-digest*.md"
due = "11:00"

[[slot]]
agent = "otto"
name = "coordination"
pattern = "{date}-1245-otto-coordination*.md"
due = "13:15"
"""

SLOTS = [Slot(agent="mei", name="digest", pattern="x", due="09:00"),
         Slot(agent="otto", name="evening", pattern="x", due="20:00"),
         Slot(agent="lin", name="radar", pattern="x", due="10:00"),
         Slot(agent="lin", name="digest", pattern="x", due="11:00")]


@pytest.mark.parametrize(("clause", "expected"), [
    # Missing, said several ways.
    ("mei 仍未出", [("mei/digest", DAY, "open", None)]),
    ("mei/digest still missing at noon", [("mei/digest", DAY, "open", None)]),
    ("lin radar：未见产出 ⚠⚬⚬", [("lin/radar", DAY, "open", 2)]),
    ("lin radar no delivery yet — day 4 of the streak", [("lin/radar", DAY, "open", 4)]),
    ("lin 的 radar 连续 5 日缺口", [("lin/radar", DAY, "open", 5)]),
    ("otto evening hasn't arrived", [("otto/evening", DAY, "open", None)]),
    # A late delivery is a delivery.
    ("otto 迟交但已到达（21:05）", [("otto/evening", DAY, "late", None)]),
    ("otto evening 晚到，22:40", [("otto/evening", DAY, "late", None)]),
    ("mei digest late but in (10:12)", [("mei/digest", DAY, "late", None)]),
    ("mei arrived 21:05", [("mei/digest", DAY, "met", None)]),
    ("mei 已出周报", []),
    ("otto 仍未到达", [("otto/evening", DAY, "open", None)]),
    ("mei no delivery yet", [("mei/digest", DAY, "open", None)]),
    ("otto delivered the slides", []),
    ("lin radar 补交完成", [("lin/radar", DAY, "late", None)]),
    # Not seen, in a status table or in words.
    ("| lin | radar | 10:00 | ❌ 没看到 —— 第 9 日 |", [("lin/radar", DAY, "open", 9)]),
    ("mei digest 到现在还没收到", [("mei/digest", DAY, "open", None)]),
    ("otto evening: not seen as of 12:45", [("otto/evening", DAY, "open", None)]),
    ("| mei | digest | 09:00 | ✅ 08:41 |", [("mei/digest", DAY, "met", None)]),
    # Negations claim the slot met.
    ("lin radar 并非缺口（请假已登记）".replace("（请假已登记）", ""), [("lin/radar", DAY, "met", None)]),
    ("mei digest is not a gap", [("mei/digest", DAY, "met", None)]),
    ("otto evening 无缺口", [("otto/evening", DAY, "met", None)]),
    # Conditions, requests and what is not due claim nothing.
    ("若 14:00 前未出则升级给 lead：mei digest", []),
    ("if lin radar is still missing by 15:00, page the lead", []),
    ("otto evening not yet due", []),
    ("otto evening 未到时限", []),
    ("请 lin radar 今晚补出", []),
    # Another day.
    ("mei digest（3-10）仍未出", [("mei/digest", date(2026, 3, 10), "open", None)]),
    ("昨日 otto evening 未交", [("otto/evening", date(2026, 3, 10), "open", None)]),
    ("otto evening from yesterday is still missing", [("otto/evening", date(2026, 3, 10), "open", None)]),
    ("lin radar 3-8 起连续缺口，第 4 日", [("lin/radar", DAY, "open", 4)]),
    # Near misses on the slot: an agent with two slots and no slot named, or two slots in one clause.
    ("lin 仍未出", []),
    ("mei digest 与 lin radar 都未出", []),
    ("今日整体无异常", []),
])
def test_clause_reader(clause: str, expected: list[tuple[str, date, str, int | None]]) -> None:
    readings = read_clause(clause, SLOTS, DAY)
    assert [(r.slot, r.day, r.state, r.streak) for r in readings] == expected


def _note(root: Path, agent: str, name: str, text: str) -> None:
    folder = root / "inbox" / agent
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


NOTE = """# otto · noon check · 2026-03-11 12:45

- mei 仍未出，已 @mei
- otto 迟交但已到达（21:05）（3-10）
- 其余正常。
"""


@pytest.fixture
def tiny_vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    root.mkdir()
    (root / "schedule.toml").write_text(SCHEDULE, encoding="utf-8")
    (root / "topics.toml").write_text("", encoding="utf-8")
    # mei delivered on time at 08:00; otto's evening slot of 3-10 came late at 21:05; lin's radar is missing.
    _note(root, "mei", "2026-03-11-0800-mei-digest.md", "# digest\n\nbody.\n")
    _note(root, "otto", "2026-03-10-2105-otto-evening.md", "# evening\n\nbody.\n")
    _note(root, "otto", "2026-03-09-1900-otto-evening.md", "# evening\n\nbody.\n")
    _note(root, "lin", "2026-03-11-1050-lin-digest.md", "# digest\n\nbody.\n")
    _note(root, "lin", "2026-03-10-0930-lin-radar.md", "# radar\n\nbody.\n")
    _note(root, "otto", "2026-03-11-1245-otto-coordination-noon.md", NOTE)
    return root


def test_check_claims_end_to_end(tiny_vault: Path) -> None:
    cfg = load_vault_config(tiny_vault)
    notes = read_coordination_notes(cfg, DAY, DAY)
    gaps = compute_gaps(cfg, DAY, 3)
    warnings = {w.key: w for w in check_claims(notes, gaps, cfg)}
    assert warnings["false_alarm#mei/digest/2026-03-11"].kind == "false_alarm"
    assert "08:00" in warnings["false_alarm#mei/digest/2026-03-11"].text
    assert not [k for k in warnings if "otto/evening" in k]
    unreported = warnings["gap_unreported#lin/radar/2026-03-11"]
    assert "未提及" in unreported.text and "lin/radar" in unreported.text
    assert {w.kind for w in warnings.values()} == {"false_alarm", "gap_unreported"}


def test_a_late_claim_for_a_slot_still_missing_is_an_unreported_gap(tiny_vault: Path) -> None:
    _note(tiny_vault, "otto", "2026-03-11-1245-otto-coordination-noon.md",
          "# noon\n\n- mei digest ✅ 08:00\n- lin radar 迟交但已到达\n")
    cfg = load_vault_config(tiny_vault)
    warnings = {w.key: w for w in check_claims(read_coordination_notes(cfg, DAY, DAY), compute_gaps(cfg, DAY, 3), cfg)}
    assert "标为迟交已到" in warnings["gap_unreported#lin/radar/2026-03-11"].text
    assert not any(k.startswith("false_alarm") for k in warnings)


@pytest.mark.parametrize("said", [
    "| mei | digest | 09:00 | ✅ 08:30 到（按文件名看的） |",
    "- mei digest 按时到了",
    "- mei digest arrived on time",
])
def test_a_late_delivery_called_on_time_is_corrected(tiny_vault: Path, said: str) -> None:
    """mei's note came at 09:40 (front matter), after its 09:00 due: a note calling it on time is corrected."""
    (tiny_vault / "inbox/mei/2026-03-11-0800-mei-digest.md").write_text(
        "---\ntime: 2026-03-11T09:40:00+08:00\n---\n# digest\n\nbody.\n", encoding="utf-8")
    _note(tiny_vault, "otto", "2026-03-11-1245-otto-coordination-noon.md",
          f"# noon\n\n| agent | 棒位 | due | 今日 |\n|---|---|---|---|\n{said}\n" if said.startswith("|") else f"# noon\n\n{said}\n")
    cfg = load_vault_config(tiny_vault)
    warnings = {w.key: w for w in check_claims(read_coordination_notes(cfg, DAY, DAY), compute_gaps(cfg, DAY, 3), cfg)}
    late = warnings["late_unreported#mei/digest/2026-03-11"]
    assert late.kind == "late_unreported" and "09:40" in late.text and "due 09:00" in late.text


@pytest.mark.parametrize(("status", "where", "expected"), [
    ("⚠ 未出 —— 需要 lead 介入", "lin · radar", [("lin/radar", DAY, "open", None)]),
    ("⚠⚬⚬ still missing · day 2", "lin | radar", [("lin/radar", DAY, "open", 2)]),
    ("✅ 08:00", "mei · digest（3-10）", [("mei/digest", date(2026, 3, 10), "met", None)]),
    ("昨日 21:05 迟交已到", "otto · evening", [("otto/evening", date(2026, 3, 10), "late", None)]),
    ("未到时限（3-10 ✅ 20:10）", "otto · evening", []),
    ("not yet due", "otto | evening", []),
    ("若 14:00 前未出，则记缺口", "mei · digest", []),
    ("并非缺口：已请假", "lin · radar", [("lin/radar", DAY, "met", None)]),
    ("late but in — 21:05", "otto · evening", [("otto/evening", DAY, "late", None)]),
    ("未见产出 · ⚠⚬⚬⚬", "lin · radar", [("lin/radar", DAY, "open", 3)]),
])
def test_status_cells(status: str, where: str, expected: list[tuple[str, date, str, int | None]]) -> None:
    readings = read_clause(status, SLOTS, DAY, where=where)
    assert [(r.slot, r.day, r.state, r.streak) for r in readings] == expected


def _holiday_vault(tmp_path: Path, said: str) -> Path:
    """Every slot delivered on 3-06, nothing at all from 3-07 to 3-10 (a stand-down), then 3-11: lin's radar
    is missing again and otto's noon check says so in its own words."""
    root = tmp_path / "vault"
    root.mkdir()
    (root / "schedule.toml").write_text(SCHEDULE, encoding="utf-8")
    (root / "topics.toml").write_text("", encoding="utf-8")
    for agent, name in (("mei", "0800-mei-digest"), ("otto", "1900-otto-evening"), ("lin", "0930-lin-radar"),
                        ("lin", "1050-lin-digest"), ("otto", "1245-otto-coordination-noon")):
        _note(root, agent, f"2026-03-06-{name}.md", "# note\n\nbody.\n")
    _note(root, "mei", "2026-03-11-0800-mei-digest.md", "# digest\n\nbody.\n")
    _note(root, "lin", "2026-03-11-1050-lin-digest.md", "# digest\n\nbody.\n")
    _note(root, "otto", "2026-03-11-1245-otto-coordination-noon.md", f"# otto · noon check\n\n{said}\n")
    return root


@pytest.mark.parametrize(("said", "kinds"), [
    # The check counts from the stand-down's end: another basis, not an error; the stand-down's own gaps
    # (3-10, every slot missing) are not gaps the check failed to report.
    ("- lin radar 第 1 日缺口，已 @lin", set()),
    ("- lin/radar still missing · day 1", set()),
    ("- lin radar 第 5 日缺口", set()),  # the strict count agrees with the slot table
    # Near miss: a count that matches neither basis.
    ("- lin radar 第 3 日缺口", {"streak_mismatch"}),
])
def test_days_nobody_delivered_are_a_stand_down_not_unreported_gaps(tmp_path: Path, said: str, kinds: set) -> None:
    root = _holiday_vault(tmp_path, said)
    cfg = load_vault_config(root)
    warnings = check_claims(read_coordination_notes(cfg, DAY, DAY), compute_gaps(cfg, DAY, 7), cfg)
    assert {w.kind for w in warnings} == kinds
    if kinds:
        assert "全队无交付" in warnings[0].text


@pytest.mark.parametrize(("said", "kinds"), [
    ("- lin radar 第 1 日缺口（停棒后重新计）", set()),  # counted anew after the stand-down
    ("- lin radar 第 8 日缺口", set()),  # the strict count
    ("- lin radar 第 3 日缺口", {"streak_mismatch"}),  # neither
])
def test_a_streak_counted_anew_after_a_stand_down_is_another_basis(tmp_path: Path, said: str, kinds: set) -> None:
    root = _holiday_vault(tmp_path, said)
    (root / "inbox/lin/2026-03-06-0930-lin-radar.md").unlink()  # lin's radar missing since 3-04, before the stand-down
    _note(root, "lin", "2026-03-03-0930-lin-radar.md", "# radar\n\nbody.\n")
    cfg = load_vault_config(root)
    warnings = check_claims(read_coordination_notes(cfg, DAY, DAY), compute_gaps(cfg, DAY, 10), cfg)
    assert {w.kind for w in warnings} == kinds



ALL = ["mei/digest", "otto/evening", "lin/radar", "lin/digest"]


@pytest.mark.parametrize(("text", "expected"), [
    # Whole-team stand-downs, in other words than the sample's: listed days, a range, a month-day list.
    ("> lead：3-07、3-08、3-09 全员停棒，不交东西，不算缺口，3-11 接着数。",
     {(k, date(2026, 3, d)) for k in ALL for d in (7, 8, 9)}),
    ("- 3-07 ~ 3-09 全队放假：不记缺口", {(k, date(2026, 3, d)) for k in ALL for d in (7, 8, 9)}),
    ("清明 4 月 4 日、5 日所有棒位暂停，不算缺口", {(k, date(2026, 4, d)) for k in ALL for d in (4, 5)}),
    ("All slots stand down 3-07 to 3-08, no gaps counted.", {(k, date(2026, 3, d)) for k in ALL for d in (7, 8)}),
    # Named slots paused until a day (from the note's day, the day itself not included), in prose and in a row.
    ("- radar 暂停到 3-14，不交不记缺口", {("lin/radar", date(2026, 3, d)) for d in (11, 12, 13)}),
    ("| otto | evening | 20:00 | 暂停到 3-13（lead 通知），不记 |", {("otto/evening", date(2026, 3, d)) for d in (11, 12)}),
    ("The evening slot is paused until 3-13 and not counted.", {("otto/evening", date(2026, 3, d)) for d in (11, 12)}),
    # Near misses: a gap's own days, a denial, a resume, a pause without a scope or "not counted", a plan.
    ("| spark | radar | 10:00 | 未出 —— 第 9 日缺口：3-01 ~ 3-08 连续迟交，停棒三天不计也不断 |", set()),
    ("- 3-07 不停棒，照常交，缺口照记", set()),
    ("- 3-12 起全员恢复，radar 照常", set()),
    ("- lin 说 3-12 想暂停一下 radar", set()),
    ("- 3-07 ~ 3-09 有人放假", set()),
    ("| lin | radar | 10:00 | ⚠ 未出 —— 第 9 日缺口；lin 申请暂停到 3-14，lead 未批 |", set()),
    ("- otto asks to pause the evening slot until 3-13 (not counted if approved) — pending", set()),
])
def test_a_leads_stand_down_notice_is_read_as_text(text: str, expected: set) -> None:  # type: ignore[type-arg]
    from agents.coordinator.standdown import read_notice
    assert {(key, day) for key, day, _ in read_notice(text, DAY, SLOTS)} == expected


def test_a_noticed_stand_down_excuses_its_days_and_keeps_streaks_whole(tmp_path: Path) -> None:
    """The stand-down of 3-07…3-10 is announced in the 3-11 noon note: those days are excused (no gap, no
    unreported-gap fault, the streak neither grows nor restarts), and the note's "第 3 日" is right."""
    from agents.coordinator.standdown import excuses_as_of
    from state.db import Database

    said = ("- lead 通知：3-07 ~ 3-10 全员停棒，不算缺口，连续缺口不加也不清零\n"
            "- lin radar 第 3 日缺口，已 @lin")
    root = _holiday_vault(tmp_path, said)
    (root / "inbox/lin/2026-03-06-0930-lin-radar.md").unlink()  # missing on 3-06, then the stand-down, then 3-11
    _note(root, "lin", "2026-03-05-0930-lin-radar.md", "# radar\n\nbody.\n")
    _note(root, "lin", "2026-03-04-0930-lin-radar.md", "# radar\n\nbody.\n")
    cfg = load_vault_config(root)
    db = Database(f"sqlite:///{tmp_path / 'c.db'}")
    db.upgrade()
    gaps = compute_gaps(cfg, DAY, 10, excuses=excuses_as_of(db, cfg, DAY, None))
    radar = {g.date: g for g in gaps if g.slot == "radar"}
    assert [radar[f"2026-03-{d:02d}"].status for d in (7, 8, 9, 10)] == ["excused"] * 4
    assert "停棒" in (radar["2026-03-08"].note or "")
    assert radar["2026-03-11"].streak == 2  # 3-06 and 3-11: the excused days neither add nor reset
    warnings = check_claims(read_coordination_notes(cfg, DAY, DAY), gaps, cfg)
    assert {w.kind for w in warnings} == {"streak_mismatch"}  # the note says 3, the slot table 2
    # Without the notice the days are inferred as a stand-down only where nobody delivered.
    plain = compute_gaps(cfg, DAY, 10)
    assert {g.status for g in plain if g.slot == "radar" and "2026-03-07" <= g.date <= "2026-03-10"} == {"missing"}


@pytest.mark.parametrize(("text", "expected"), [
    # The pipeline rests: its days, not the moment the lead decided nor the morning it resumed.
    ("- 3-06 晚上 lead 拍板：头两天（3-07、3-08）整条流水线歇两天——人不值班，定时任务也一并关掉，3-09 早上恢复",
     {(k, date(2026, 3, d)) for k in ALL for d in (7, 8)}),
    ("- lead 通知 3-07 ~ 3-08 所有 agent 的定时任务关掉，这两天不记缺口",
     {(k, date(2026, 3, d)) for k in ALL for d in (7, 8)}),
    ("- The whole pipeline is off duty 3-07 to 3-08; no gaps counted.", {(k, date(2026, 3, d)) for k in ALL for d in (7, 8)}),
    # Near misses: a scout resting is no team notice; a day that only says when something was decided.
    ("- lin 3-07 歇一天，radar 照记缺口", set()),
    ("- 3-06 晚上 lead 拍板：下周再议", set()),
])
def test_a_pipeline_rest_in_other_words_is_a_stand_down(text: str, expected: set) -> None:  # type: ignore[type-arg]
    from agents.coordinator.standdown import read_notice
    assert {(key, day) for key, day, _ in read_notice(text, DAY, SLOTS)} == expected
