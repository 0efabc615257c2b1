"""The register "as of" a brief's moment: only what was written strictly before it, never the own brief.

Hand-made briefs and notes (no sample vault): A is the 9-27 inference brief (22:20), B the 9-28
llm-infra brief (18:40, the output being written when llm-infra 9-28 is made), C the 9-28 inference
brief (22:20, after it). Each raises D195 for a different matter.
"""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import text

from agents.scanner.briefs import list_briefs, parse_brief_text
from agents.verifier.checks import run_checks
from agents.verifier.promises import promise_warnings, track_promise_history
from agents.verifier.register import (
    assign_numbers,
    collisions,
    open_entries,
    register_view,
    seed_register,
)
from state.db import Database
from state.models import BriefWarning
from state.tables.register import AsOf

TZ = ZoneInfo("Asia/Shanghai")
A, B, C = ("inbox/tom/2026-09-27-inference-e1prep.md", "inbox/spark/2026-09-28-llm-infra-e1prep.md",
           "inbox/tom/2026-09-28-inference-e1prep.md")
LLM_INFRA_0928 = datetime(2026, 9, 28, 18, 40, tzinfo=TZ)
INFERENCE_0928 = datetime(2026, 9, 28, 22, 20, tzinfo=TZ)


def _at(day: int, hour: int, minute: int) -> datetime:
    return datetime(2026, 9, day, hour, minute, tzinfo=TZ)


def _briefs(own_time: datetime = LLM_INFRA_0928):  # type: ignore[no-untyped-def]
    return [
        parse_brief_text(A, "三、矛盾/待核\nD195：vLLM 0.3.3 与 v0.30.0 版本号差异（⭐⭐⚬）", date(2026, 9, 27), "tom",
                         "inference-e1prep", _at(27, 22, 20)),
        parse_brief_text(B, "三、矛盾/待核\nD195：Continnum 拼写与 arXiv 标题不符（⚠⚠⚬）\nD204：PolyKV 压缩率 claim（⚠⚬⚬）",
                         date(2026, 9, 28), "spark", "llm-infra-e1prep", own_time),
        parse_brief_text(C, "三、矛盾/待核\nD195：SGLang vs vLLM TTFT 双源口径不一致（⚠⚠⚬）\n"
                            "D205：vLLM v0.29.0 与 v0.30.0 版本号差异（⚠⚬⚬）\nD198 闭合：作者补了附录",
                         date(2026, 9, 28), "tom", "inference-e1prep", _at(28, 22, 20)),
        parse_brief_text("inbox/tom/2026-09-26-inference-e1prep.md", "三、矛盾/待核\nD198：Mooncake 命中率鲁棒性（⚠⚬⚬）",
                         date(2026, 9, 26), "tom", "inference-e1prep", _at(26, 22, 20)),
    ]


def _db(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'r.db'}")
    db.upgrade()
    return db


def _seeded(tmp_path: Path, own_time: datetime = LLM_INFRA_0928) -> Database:
    db = _db(tmp_path)
    seed_register(db, [], _briefs(own_time))
    return db


def _d195(warnings: list[BriefWarning]) -> list[BriefWarning]:
    return [w for w in warnings if w.kind == "register_collision" and w.register == "D195"]


def test_a_collision_counts_only_briefs_before_the_moment_and_never_the_own_one(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    assert _d195(collisions(db, LLM_INFRA_0928, exclude=[B])) == []  # only A had used D195 by 18:40
    [at_2220] = _d195(collisions(db, INFERENCE_0928, exclude=[C]))  # C is stamped 22:20: the own, excluded
    assert at_2220.sources == [B, A]
    [next_day] = _d195(collisions(db, _at(29, 18, 40), exclude=["inbox/spark/2026-09-29-llm-infra-e1prep.md"]))
    assert sorted(next_day.sources) == sorted([A, B, C])
    # The bare date keeps its old meaning, "on or before that day": it sees C too.
    assert sorted(_d195(collisions(db, date(2026, 9, 28)))[0].sources) == sorted([A, B, C])


def test_an_own_brief_written_before_the_window_end_is_still_not_read(tmp_path: Path) -> None:
    db = _seeded(tmp_path, own_time=_at(28, 11, 30))  # spark once wrote llm-infra at 11:30
    assert len(_d195(collisions(db, LLM_INFRA_0928))) == 1  # without the exclusion the own brief leaks in
    assert _d195(collisions(db, LLM_INFRA_0928, exclude=[B])) == []


def test_register_view_gives_run_checks_the_moment(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    plain = run_checks([], [], {}, date(2026, 9, 28), "llm-infra:2026-09-28", db)
    assert _d195(plain)  # the date alone sees B and C
    with register_view(LLM_INFRA_0928, [B]) as view:
        assert view == AsOf.of(LLM_INFRA_0928, [B])
        viewed = run_checks([], [], {}, date(2026, 9, 28), "llm-infra:2026-09-28", db)
    # The own brief B is the output being written and C (22:20) comes later: by 18:40 only A used D195.
    assert _d195(viewed) == []
    with register_view(LLM_INFRA_0928, [B]):  # another day's date is not bent to the view
        assert _d195(collisions(db, date(2026, 9, 29)))


def _warning(key: str, subject: str, kind: str = "version_conflict") -> BriefWarning:
    return BriefWarning(id="", kind=kind, text="…", risk="中", subject=subject, key=key)


def test_a_carried_number_is_one_known_by_then_and_a_new_one_follows_every_brief(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    (tmp_path / "other").mkdir()
    [dated] = assign_numbers(_seeded(tmp_path / "other"), "llm-infra:2026-09-28",
                             [_warning("version_conflict:vLLM", "vLLM")])
    assert dated.register == "D205" and C in (dated.carried_from or "")  # the date alone reads C (22:20)
    vllm, other = assign_numbers(db, "llm-infra:2026-09-28",
                                 [_warning("version_conflict:vLLM", "vLLM"), _warning("number_conflict:X:ttft", "X")],
                                 as_of=LLM_INFRA_0928, exclude=[B])
    assert vllm.register == "D195" and vllm.carried_from == f"{A} D195"
    # X is new: the next number as the register stood at 18:40 (A's D195, the 9-26 brief's D198), not after
    # C's D205 (written at 22:20) nor after the own brief B's D204.
    assert other.register == "D199" and other.carried_from is None


def test_a_backfill_numbers_as_its_day_would_have_and_baton_never_gives_one_number_twice(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    [late] = assign_numbers(db, "serving:2026-09-30", [_warning("number_conflict:Q:tpot", "Q", "number_conflict")],
                            as_of=_at(30, 22, 20))
    assert late.register == "D206"  # after C's D205
    first, second = assign_numbers(db, "serving:2026-09-27", [
        _warning("number_conflict:R:itl", "R", "number_conflict"),
        _warning("number_conflict:S:ttft", "S", "number_conflict")], as_of=_at(27, 12, 0))
    # At 9-27 12:00 the highest known was the 9-26 brief's D198: the backfill continues from there,
    # not from D206; D195 was A's later that day.
    assert (first.register, second.register) == ("D199", "D200")
    [again] = assign_numbers(db, "serving:2026-09-27", [_warning("number_conflict:T:tpot", "T", "number_conflict")],
                             as_of=_at(27, 12, 0))
    assert again.register == "D201"  # D199 and D200 are baton's already


def test_a_day_the_vault_has_its_slot_brief_for_is_carried_from_that_brief_not_from_batons_draft(
        tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    [draft] = assign_numbers(db, "inference:2026-09-27", [_warning("number_conflict:U:ttft", "U", "number_conflict")],
                             as_of=_at(27, 22, 20), exclude=[A])
    assert draft.register == "D199"
    # Seen from 9-28 18:40: with the 9-27 inference day recorded by A, A's numbers are carried, baton's
    # draft of that day is not (its number stays baton's, never given again).
    recorded = {e.d for e in open_entries(db, LLM_INFRA_0928, [B], superseded={"inference:2026-09-27"})}
    assert "D195" in recorded and "D199" not in recorded
    assert "D199" in {e.d for e in open_entries(db, LLM_INFRA_0928, [B])}  # no record of the day: the draft is
    [new] = assign_numbers(db, "llm-infra:2026-09-28", [_warning("number_conflict:V:tpot", "V", "number_conflict")],
                           as_of=LLM_INFRA_0928, exclude=[B])
    assert new.register == "D200"  # baton's own D199 is kept from reuse...
    with register_view(LLM_INFRA_0928, [B], superseded={"inference:2026-09-27"}):
        [free] = assign_numbers(db, "serving:2026-09-28",
                                [_warning("number_conflict:W:tpot", "W", "number_conflict")])
    assert free.register == "D199"  # ...except where A is the day's record: the draft's number is no one's


def test_the_own_briefs_numbers_are_not_read(tmp_path: Path) -> None:
    own = "inbox/mei/2026-09-29-serving-e1prep.md"
    at = _at(29, 20, 0)
    briefs = [*_briefs(), parse_brief_text(own, "三、矛盾/待核\nD230：QuillServe p99 两源不一（⚠⚬⚬）", date(2026, 9, 29),
                                           "mei", "serving-e1prep", at)]
    db = _db(tmp_path)
    seed_register(db, [], briefs)
    same, other = assign_numbers(db, "serving:2026-09-29",
                                 [_warning("number_conflict:QuillServe:p99", "QuillServe", "number_conflict"),
                                  _warning("number_conflict:Z:tpot", "Z", "number_conflict")], as_of=at, exclude=[own])
    # The brief being written is the output, never an input: its D230 for QuillServe is not taken over;
    # both are new, after the highest number known by then (C's D205).
    assert (same.register, other.register) == ("D206", "D207")


def test_open_entries_as_of_the_moment(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    at_1840 = {e.d: e for e in open_entries(db, LLM_INFRA_0928, exclude=[B])}
    assert "D195" in at_1840 and at_1840["D195"].carried_from == A
    assert "D198" in at_1840  # C closes it at 22:20, after 18:40
    assert "D204" not in at_1840 and "D205" not in at_1840  # raised by the own brief / a later one
    assert "D198" not in {e.d for e in open_entries(db, date(2026, 9, 28))}  # the old date view: closed that day
    assert "D198" not in {e.d for e in open_entries(db, _at(29, 22, 20))}


NOTE = """---
time: {time}
---
# 笔记
- C2C 让 LLM 之间直接传递 KV Cache。据报道，研究团队计划于 2026-09 发布 agent-managed KV-Cache 实现及 serving system。
"""
RELEASED = """# 笔记
- C2C agent-managed KV-Cache serving system 已正式发布：https://github.com/example/c2c
"""


def _vault(tmp_path: Path, notes: dict[str, str]) -> Path:
    root = tmp_path / "vault"
    for name, body in notes.items():
        path = root / "inbox" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(body, encoding="utf-8")
    return root


def test_a_fresh_store_learns_the_promises_of_the_month_before(tmp_path: Path) -> None:
    root = _vault(tmp_path, {"jay/2026-09-12T0935-jay-morning.md": NOTE.format(time="2026-09-12T09:35:00+08:00")})
    db = _db(tmp_path)
    assert track_promise_history(db, root, TZ, _at(30, 22, 20)) == 1
    [overdue] = promise_warnings(db, date(2026, 10, 1))
    assert overdue.kind == "promise_overdue" and overdue.sources == ["inbox/jay/2026-09-12T0935-jay-morning.md"]
    assert "C2C" in overdue.text and "2026-09-12 首见" in overdue.text  # the quote names what is promised
    assert promise_warnings(db, date(2026, 9, 11)) == []


def test_history_reads_only_notes_before_the_window_and_within_the_days(tmp_path: Path) -> None:
    root = _vault(tmp_path, {
        "jay/2026-08-20T0935-jay-old.md": NOTE.format(time="2026-08-20T09:35:00+08:00"),  # 41 days before
        "jay/2026-09-30T2300-jay-in-window.md": NOTE.format(time="2026-09-30T23:00:00+08:00"),
        "tom/2026-09-29-inference-e1prep.md": NOTE.format(time="2026-09-29T22:20:00+08:00"),  # a brief
    })
    db = _db(tmp_path)
    assert track_promise_history(db, root, TZ, _at(30, 22, 20)) == 0
    assert promise_warnings(db, date(2026, 10, 1)) == []


def test_a_confirmation_in_the_history_settles_the_promise(tmp_path: Path) -> None:
    root = _vault(tmp_path, {"jay/2026-09-12T0935-jay-morning.md": NOTE.format(time="2026-09-12T09:35:00+08:00"),
                             "jay/2026-09-25T1735-jay-evening.md": RELEASED})
    db = _db(tmp_path)
    assert track_promise_history(db, root, TZ, _at(30, 22, 20)) == 2
    assert promise_warnings(db, date(2026, 10, 1)) == []
    assert [w.kind for w in promise_warnings(db, date(2026, 9, 24))] == ["promise_open"]  # not yet released then


def test_list_briefs_carries_each_brief_moment(tmp_path: Path) -> None:
    root = _vault(tmp_path, {"spark/2026-09-28-llm-infra-e1prep.md": "---\ntime: 2026-09-28T18:40:00+08:00\n---\nD204：x",
                             "tom/2026-09-28-inference-e1prep.md": "# tom\nD205：y"})
    moments = {b.path: b.time for b in list_briefs(root, TZ)}
    assert moments[B] == LLM_INFRA_0928
    assert moments[C] is not None and moments[C].date() == date(2026, 9, 28)  # date only: the assumed time


def test_a_store_made_before_the_moments_is_upgraded(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'old.db'}")
    with db.engine.begin() as connection:
        connection.execute(text("CREATE TABLE register_sightings (id INTEGER PRIMARY KEY, number INTEGER, "
                                "source VARCHAR(500), day VARCHAR(10), role VARCHAR(20), text TEXT, "
                                "CONSTRAINT uq_sighting UNIQUE (number, source, role, text))"))
        connection.execute(text("CREATE TABLE register_entries (id INTEGER PRIMARY KEY, number INTEGER UNIQUE, "
                                "text TEXT, risk VARCHAR(20), kind VARCHAR(40), raised VARCHAR(10), "
                                "status VARCHAR(20), closed VARCHAR(10), evidence TEXT, source VARCHAR(500), "
                                "origin VARCHAR(20), thread VARCHAR(100), key VARCHAR(500), subject VARCHAR(200))"))
        connection.execute(text(f"INSERT INTO register_sightings (number, source, day, role, text) "
                                f"VALUES (195, '{A}', '2026-09-27', 'raised', 'vLLM 0.3.3 与 v0.30.0 版本号差异')"))
    db.upgrade()
    seed_register(db, [], _briefs())
    assert _d195(collisions(db, LLM_INFRA_0928, exclude=[B])) == []  # the old sighting got its moment
    assert len(_d195(collisions(db, INFERENCE_0928, exclude=[C]))) == 1


def test_this_rounds_closures_are_not_another_briefs(tmp_path: Path) -> None:
    from agents.verifier.register import close_entry, closed_on

    db = _seeded(tmp_path)
    assert closed_on(db, date(2026, 9, 28)) == []  # C closed D198 at 22:20: its round, not llm-infra's
    close_entry(db, 195, date(2026, 9, 28), "jay 9-28 note settles it")
    assert [e["d"] for e in closed_on(db, date(2026, 9, 28))] == ["D195"]


def test_a_collision_is_raised_once_then_carried(tmp_path: Path) -> None:
    db = _seeded(tmp_path)
    # First visible in the 9-28 inference window (B at 18:40 came after A): new there.
    [first] = _d195(collisions(db, INFERENCE_0928, exclude=[C], since=_at(27, 22, 20)))
    assert first.carried_from is None
    # The next day's window starts after both: the previous brief could raise it, so it is carried.
    [again] = _d195(collisions(db, _at(29, 22, 20), exclude=["inbox/tom/2026-09-29-inference-e1prep.md"],
                               since=INFERENCE_0928))
    assert again.carried_from and B in again.carried_from


def _caveat(subject: str, said: str) -> BriefWarning:
    return BriefWarning(id="", kind="caveat", text=f"{subject}：来源作者自注存疑——inbox/jay/n.md L4：「{said}」。",
                        risk="低", subject=subject, key=f"caveat:{subject.lower()}:来源标注可信度打折")


@pytest.mark.parametrize(("said", "carried"), [
    ("备注：Corvid 0.12.0 版本很老，绝对数字别直接搬 ⚠⚬⚬", True),   # names and version of D230
    ("the absolute numbers come from Corvid 0.12.0, too old to reuse", True),
    ("Corvid 的数字只作定性参考", False),                          # one shared name, no figure: not sure
    ("Quokka 0.12.0 上的吞吐未复现", False),                        # the version alone, another product
    ("同一配置（16×H200、70B、8B 草稿）两个数", False),             # only hardware and sizes in common
    ("H200 上 70B 的数字没复现", False),
    ("作者自测（每节点 8×H200，跨节点 RDMA）：没有对照", False),  # hardware and a technology word only
])
def test_a_caveat_restating_an_open_entry_carries_its_number(tmp_path: Path, said: str, carried: bool) -> None:
    brief = parse_brief_text("inbox/spark/2026-09-29-llm-infra-e1prep.md",
                             "三、矛盾/待核\nD230：Pareto Atlas 基于 Corvid 0.12.0，8×H200 上 70B 与 8B 的绝对数字跨节点 RDMA 未验证，不可迁移到 v0.30.x（⚠⚬⚬）",
                             date(2026, 9, 29), "spark", "llm-infra-e1prep", _at(29, 18, 40))
    db = _db(tmp_path)
    seed_register(db, [], [*_briefs(), brief])
    [numbered] = assign_numbers(db, "inference:2026-09-29", [_caveat("2609.17863", said)], as_of=_at(29, 22, 20))
    assert (numbered.register == "D230") is carried


def test_a_day_is_recorded_by_the_vaults_slot_brief_unless_baton_published_it() -> None:
    from agents.verifier.node import _slot_briefs
    from state.vault_config import Topic

    topics = {"serving": Topic(name="serving", title="serving", living_doc="organized/knowledge/serving.md", executor="mei",
                               slot="serving-e1prep", window_end="22:20", keywords=["vLLM"])}
    person = parse_brief_text("inbox/mei/2026-09-27-serving-e1prep.md", "", date(2026, 9, 27), "mei")
    ours = parse_brief_text("inbox/mei/2026-09-28-serving-e1prep.md", "", date(2026, 9, 28), "mei")
    ours.by_baton = True  # front matter "generated_by: baton …": baton's own entries are that day's record
    other = parse_brief_text("inbox/lin/2026-09-27-risk-e1prep.md", "", date(2026, 9, 27), "lin")
    assert set(_slot_briefs(topics, [person, ours, other]).values()) == {"serving:2026-09-27"}
    assert _slot_briefs(topics, [person, ours, other]) == {"inbox/mei/2026-09-27-serving-e1prep.md": "serving:2026-09-27"}


def test_a_published_brief_says_it_is_batons(tmp_path: Path) -> None:
    from agents.scanner.briefs import parse_brief
    from agents.scanner.notes import read_vault_file_uncached

    for front, ours in (("generated_by: baton 0.1.0\n", True), ("agent: mei\n", False)):
        path = tmp_path / "inbox/mei/2026-09-28-serving-e1prep.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"---\n{front}slot: serving-e1prep\n---\n三、矛盾/待核\nD230：Quokka p99（⚠⚬⚬）\n", encoding="utf-8")
        assert parse_brief(read_vault_file_uncached(tmp_path, path, TZ)).by_baton is ours


@pytest.mark.parametrize(("entry", "carried"), [
    ("D230：Tessel 2711.03391 KV 显存降幅不一——jay 记 -35%，卡为 -52%（⚠⚠⚬）", True),
    ("D230：Tessel 2711.03391 的显存降幅两源不一（⚠⚬⚬）", True),
    ("D230：Tessel 2711.03391 吞吐口径待核（⚠⚬⚬）", False),  # the paper, another metric
    ("D230：Heron 2711.05555 KV 显存降幅不一（⚠⚬⚬）", False),  # the metric, another paper
])
def test_a_number_conflict_carries_the_entry_naming_its_paper_and_metric(tmp_path: Path, entry: str,
                                                                        carried: bool) -> None:
    brief = parse_brief_text("inbox/spark/2026-09-29-llm-infra-e1prep.md", f"三、矛盾/待核\n{entry}",
                             date(2026, 9, 29), "spark", "llm-infra-e1prep", _at(29, 18, 40))
    db = _db(tmp_path)
    seed_register(db, [], [*_briefs(), brief])
    conflict = BriefWarning(id="", kind="number_conflict", text="2711.03391 的 显存 降幅 各源数字不一：35%；52%。",
                            risk="中", subject="2711.03391 显存 降幅", key="number_conflict:2711.03391:显存 降幅:%")
    [numbered] = assign_numbers(db, "inference:2026-09-29", [conflict], as_of=_at(29, 22, 20))
    assert (numbered.register == "D230") is carried
