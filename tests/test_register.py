"""The brief parser and the contradiction register in the store."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from agents.scanner.briefs import parse_brief_text
from agents.scanner.register import RegisterEntry
from agents.verifier.promises import promise_warnings, track_promises
from agents.verifier.register import (
    assign_numbers,
    close_entry,
    collisions,
    open_entries,
    seed_register,
)
from state.db import Database
from state.models import BriefWarning, Mention

BRIEF_A = """inference · E1 预消化简报(2026-09-27)

二、增量条目
增量 1：arXiv 2609.23130 · From Inference Engine to Inference Control Plane（⭐⭐⭐⭐）
三、矛盾/待核：D183 新增（WRP trace 未公开）；D180 闭合（两口径均成立）
D195：vLLM 0.3.3 与 v0.30.0 版本号差异（⭐⭐⚬）
沿用：D180–D182 在册条目全部沿用

四、可引用 arXiv 号列表
2609.23130 Inference Control Plane · 4 条原则 §1.1 ★★★★
2605.17613 / 2604.24971（续立）
"""

BRIEF_B = """llm-infra · E1 预消化简报(2026-09-28)
三、值得警惕的矛盾或待核实说法
D195：Continnum arXiv 2511.02230v7 与 vLLM prefix caching Bug 8242 修复路线关系（⚠⚠⚬）
五、本棒新增矛盾/待核 D195-D196
D195 ⚠⚠⚬ Continnum arXiv 2511.02230v7 与 vLLM prefix caching Bug 8242 修复路线关系 中
D196 ⚠⚬⚬ PolyKV 97.7% 压缩率 claim 与精度损失权衡 中
"""


def _db(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 'r.db'}")
    db.upgrade()
    return db


def _briefs():  # type: ignore[no-untyped-def]
    return [parse_brief_text("inbox/tom/2026-09-27-inference-e1prep.md", BRIEF_A, date(2026, 9, 27), "tom"),
            parse_brief_text("inbox/spark/2026-09-28-llm-infra-e1prep.md", BRIEF_B, date(2026, 9, 28), "spark")]


REGISTER = [RegisterEntry("D183", 183, "Workload-Router-Pool arXiv 2609.21354 trace 未公开", "⚠⚬⚬ 中低",
                          date(2026, 9, 24), "已闭合 2026-09-25（作者补附录）", "inbox/tom/2026-09-24-inference-e1prep.md"),
            RegisterEntry("D184", 184, "vLLM v0.30.0 MXFP8 KV 仅限 SM100", "⚠⚠⚬ 中", date(2026, 9, 24), "沿用",
                          "inbox/spark/2026-09-24-llm-infra-e1prep.md")]


def test_brief_parser_reads_items_increments_and_citable_list() -> None:
    record = _briefs()[0]
    roles = {(i.d, i.role): i.text for i in record.items}
    assert roles[("D183", "raised")] == "WRP trace 未公开"
    assert roles[("D180", "closed")] == "两口径均成立"
    assert roles[("D195", "raised")] == "vLLM 0.3.3 与 v0.30.0 版本号差异"
    assert {i.d for i in record.items if i.role == "carried"} == {"D180", "D181", "D182"}
    assert [(p.arxiv, p.title) for p in record.increments] == [
        ("2609.23130", "From Inference Engine to Inference Control Plane")]
    assert [(p.arxiv, p.title) for p in record.citable] == [
        ("2609.23130", "Inference Control Plane"), ("2605.17613", ""), ("2604.24971", "")]
    [raised] = [i for i in _briefs()[1].raised() if i.number == 196]
    assert raised.risk == "⚠⚬⚬" and raised.text.startswith("PolyKV")


def test_seed_is_idempotent_and_collisions_name_both_briefs(tmp_path: Path) -> None:
    db = _db(tmp_path)
    assert seed_register(db, REGISTER, _briefs()) == 4  # D183, D184 + D195, D196 first raised in briefs
    assert seed_register(db, REGISTER, _briefs()) == 0
    [collision] = collisions(db)
    assert collision.register == "D195" and collision.kind == "register_collision"
    assert collision.sources == ["inbox/spark/2026-09-28-llm-infra-e1prep.md", "inbox/tom/2026-09-27-inference-e1prep.md"]
    assert collisions(db, as_of=date(2026, 9, 27)) == []  # a backfill of 9-27 knew only one D195


def test_register_row_and_its_source_brief_are_one_item(tmp_path: Path) -> None:
    db = _db(tmp_path)
    brief = parse_brief_text("inbox/tom/2026-09-24-inference-e1prep.md", "三、矛盾/待核：D183 新增（WRP trace 未公开）",
                             date(2026, 9, 24))
    seed_register(db, REGISTER, [brief])
    assert collisions(db) == []


def _warning(key: str, subject: str, kind: str = "number_conflict") -> BriefWarning:
    return BriefWarning(id="", kind=kind, text="…", risk="中", subject=subject, key=key)


def test_numbers_follow_the_highest_ever_seen_and_reruns_take_none(tmp_path: Path) -> None:
    db = _db(tmp_path)
    seed_register(db, REGISTER, _briefs())
    warnings = [_warning("number_conflict:SGLang:ttft:ms", "SGLang"), _warning("id_malformed:2511.0223", "2511.0223"),
                BriefWarning(id="", kind="single_source", text="…", key="single_source:2609.1")]
    first = assign_numbers(db, "inference:2026-09-29", warnings)
    assert [w.register for w in first] == ["D197", "D198", None]
    again = assign_numbers(db, "inference:2026-09-29", warnings)
    assert [w.register for w in again] == ["D197", "D198", None]
    other = assign_numbers(db, "llm-infra:2026-09-29", [_warning("number_conflict:vLLM:ttft:ms", "vLLM")])
    assert other[0].register == "D199"


def test_a_warning_matching_an_open_entry_carries_its_number(tmp_path: Path) -> None:
    db = _db(tmp_path)
    seed_register(db, REGISTER, _briefs())
    carried = assign_numbers(db, "llm-infra:2026-09-29", [
        _warning("version_conflict:scheme:vLLM:0.3.3,0.30.0", "vLLM", "version_conflict"),
        _warning("number_conflict:PolyKV:压缩:%", "PolyKV")])
    assert carried[0].register == "D195" and carried[0].carried_from == "inbox/tom/2026-09-27-inference-e1prep.md D195"
    assert carried[1].register == "D196"  # spark's D196 is the only D196: the number is carried


def test_next_day_carries_a_baton_number_and_open_entries_respect_as_of(tmp_path: Path) -> None:
    db = _db(tmp_path)
    seed_register(db, REGISTER, _briefs())
    [first] = assign_numbers(db, "inference:2026-09-29", [_warning("number_conflict:X:ttft:ms", "X")])
    [later] = assign_numbers(db, "inference:2026-09-30", [_warning("number_conflict:X:ttft:ms", "X")])
    assert later.register == first.register and later.carried_from == f"inference:2026-09-29 {first.register}"
    open_on_26 = {e.d for e in open_entries(db, date(2026, 9, 26))}
    assert "D184" in open_on_26 and "D183" not in open_on_26 and "D195" not in open_on_26
    assert "D183" in {e.d for e in open_entries(db, date(2026, 9, 24))}
    close_entry(db, 184, date(2026, 9, 29), "inbox/x.md：官方文档已更正")
    assert "D184" in {e.d for e in open_entries(db, date(2026, 9, 28))}
    assert "D184" not in {e.d for e in open_entries(db, date(2026, 9, 29))}
    carried = next(e for e in open_entries(db, date(2026, 9, 28)) if e.d == "D184")
    assert carried.carried_from == "register D184"


@pytest.mark.parametrize(("written", "risk"), [("⚠⚬⚬ 中低", "中低"), ("⚠⚠⚬ 中", "中"), ("⚠⚬⚬", "中低"),
                                               ("中高", "中高"), ("⚠⚬ 低", "低"), ("⚠⚠⚠", "高")])
def test_a_carried_entry_keeps_the_grade_it_was_raised_with(tmp_path: Path, written: str, risk: str) -> None:
    db = _db(tmp_path)
    seed_register(db, [RegisterEntry("D184", 184, "Orrery-KV 压缩率只在一组 trace 上测", written, date(2026, 9, 24),
                                     "沿用", "inbox/spark/2026-09-24-llm-infra-e1prep.md")], [])
    [carried] = [e for e in open_entries(db, date(2026, 9, 28)) if e.d == "D184"]
    assert carried.risk == risk


def _promise(source: str, context: str, due: str = "2026-09-30") -> Mention:
    return Mention(source=source, kind="promise", value=due[:7], raw="计划于 2026-09 发布", line=3, context=context,
                   detail={"due": due, "what": "发布"})


def _text(source: str, context: str) -> Mention:
    return Mention(source=source, kind="url", value="https://x.org", raw="https://x.org", line=1, context=context)


PROMISE = "研究团队计划于 2026-09 发布 agent-managed KV-Cache 实现及 serving system。"


def test_promise_is_open_until_its_month_ends_then_overdue(tmp_path: Path) -> None:
    db = _db(tmp_path)
    track_promises(db, [_promise("inbox/jay/a.md", PROMISE)], date(2026, 9, 28))
    track_promises(db, [_promise("inbox/jay/b.md", "9-28 记的" + PROMISE + "今天仍然没有任何 release")],
                   date(2026, 9, 29))
    assert [w.kind for w in promise_warnings(db, date(2026, 9, 27))] == []  # not yet seen on 9-27
    [open_] = promise_warnings(db, date(2026, 9, 30))
    assert open_.kind == "promise_open" and open_.sources == ["inbox/jay/a.md"]
    [late] = promise_warnings(db, date(2026, 10, 1))
    assert late.kind == "promise_overdue" and late.key == open_.key


@pytest.mark.parametrize(("context", "confirmed"), [
    ("agent-managed KV-Cache serving system 已正式发布，代码开源", True),
    ("agent-managed KV-Cache serving system 仍然没有发布", False),
])
def test_a_confirming_source_closes_the_promise(tmp_path: Path, context: str, confirmed: bool) -> None:
    db = _db(tmp_path)
    track_promises(db, [_promise("inbox/jay/a.md", PROMISE)], date(2026, 9, 28))
    track_promises(db, [_text("inbox/jay/c.md", context)], date(2026, 9, 30))
    assert (promise_warnings(db, date(2026, 10, 1)) == []) is confirmed
    assert len(promise_warnings(db, date(2026, 9, 29))) == 1  # as of 9-29 nothing confirmed it yet


def test_a_confirmed_promise_closes_its_register_entry_with_the_evidence(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from datetime import date

    from agents.verifier.promises import promise_warnings, track_promises
    from agents.verifier.register import (
        assign_numbers,
        closed_on,
        open_entries,
    )
    from state.db import Database
    from state.models import Mention

    db = Database(f"sqlite:///{tmp_path / 'baton.db'}")
    db.upgrade()
    promise = Mention(source="inbox/jay/2026-09-28-x.md", kind="promise", value="2026-09",
                      raw="计划于 2026-09 发布", line=3,
                      context="研究团队计划于 2026-09 发布 agent-managed kv-cache serving system",
                      detail={"due": "2026-09-30", "what": "发布"})
    track_promises(db, [promise], date(2026, 9, 28))
    [numbered] = assign_numbers(db, "inference:2026-09-28", promise_warnings(db, date(2026, 9, 28)))
    assert numbered.kind == "promise_open" and numbered.register
    released = Mention(source="inbox/jay/2026-09-29-y.md", kind="url", value="https://github.com/c2c", raw="x",
                       line=7, context="C2C 已发布 agent-managed kv-cache serving system 代码")
    track_promises(db, [released], date(2026, 9, 29))
    assert promise_warnings(db, date(2026, 10, 1)) == []
    closed = closed_on(db, date(2026, 9, 29))
    assert [c["d"] for c in closed] == [numbered.register]
    assert "inbox/jay/2026-09-29-y.md L7" in closed[0]["evidence"]
    assert numbered.register not in {e.d for e in open_entries(db, date(2026, 9, 30))}


CLOSURES = [
    ("- D231：同意上午的判断，Quill v0.9 已落地（experimental），晚上闭合", 231),
    ("- 9-29 挂的 D232（双份权重成本讨论少）这下有数了 → 建议闭合", 232),
    ("- D233 可以关闭：作者 v2 补了消融", 233),
    ("- D234 can be closed: the maintainers posted the numbers", 234),
    ("- D235 settled by the v2 appendix", 235),
    ("- 文档和代码注释一起改了——D236 说的\"文档与代码不一致\"这条，release note 里点名修掉了", 236),
    ("- D237 fixed in v0.9.1 (PR #2773)", 237),
    ("- → 9-24 挂的那条\"回退文档和代码说的不一样\"（D238），到这里算是了了，可以关", 238),
]
NOT_CLOSURES = [
    "- D236：v0.9 没提，沿用",
    "- 沿用：D231 路线图、D236 回退、D240-D246 全部沿用",
    "- D237 暂不闭合，等规范正文",
    "- D238 还不能闭合，数字只有一源",
    "- D239 not closed yet: waiting for the rerun",
    "- D231 与 D232 一起闭合",  # two numbers in one clause: which one the evidence settles is unsaid
    "- 闭合条件：D233 要等作者回复",
    "- D238：修复版原定 9-26，还没发",
    "- D239 还没修掉，issue 仍开着",
    "- D240 不能关，还差文档",
    "- 关于 D241：可关注后续",
]


@pytest.mark.parametrize(("line", "number"), CLOSURES)
def test_a_scouts_line_settling_an_entry_closes_it(line: str, number: int) -> None:
    from agents.scanner.register import closures_in
    assert [n for n, _, _ in closures_in(f"# note\n{line}\n")] == [number]


@pytest.mark.parametrize("line", NOT_CLOSURES)
def test_a_line_keeping_an_entry_open_or_unclear_closes_nothing(line: str) -> None:
    from agents.scanner.register import closures_in
    assert closures_in(line) == []


def test_a_run_closes_the_entry_a_note_settles_and_carries_the_rest(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.test_integrator_compose import _vault, write_register
    from tests.test_judgement_notes import run_with_store

    root = _vault(tmp_path)
    write_register(root, "| D181 | Quill sparse attention（decode）路线图：RFC 称 v0.9 落地，维护者说无时间表 | 中 | 2026-09-23 | 沿用 | x |",
                   "| D184 | Quill MXFP8 KV cache 在 SM90 的回退路径文档与代码不一致 | 中 | 2026-09-24 | 沿用 | x |")
    (root / "inbox/jay/2026-09-29T0935-jay-morning.md").write_text(
        "# jay · 早间\n\n## Quill v0.9 发布\n- sparse attention 后端已合入（experimental）\n"
        "- D181：v0.9 已落地，可以闭合\n- D184：v0.9 没提，沿用\n", encoding="utf-8")
    brief = run_with_store(root)
    assert [c["d"] for c in brief.register_closed] == ["D181"]
    assert "jay-morning.md L" in brief.register_closed[0]["evidence"]
    assert "D181" not in {e["d"] for e in brief.register_open}
    assert "D184" in {e["d"] for e in brief.register_open}


@pytest.mark.parametrize(("line", "numbers"), [
    ("- 同一配置两个数，新挂 **D296**，晚上写清楚口径", [296]),
    ("- 这条登记为 D297", [297]),
    ("- 挂到 D296 下面，同一件事", []),  # filed under an existing entry
    ("- raised as D298 in the noon check", [298]),
    ("- D296 沿用，无新证据", []),  # carries, raises nothing
    ("- 和 D206 是同一类问题", []),
])
def test_a_note_raising_an_entry_under_a_number_is_read(line: str, numbers: list[int]) -> None:
    from agents.scanner.register import raises_in
    assert [n for n, _, _ in raises_in(line)] == numbers


def test_a_note_raising_a_new_thing_under_a_used_number_is_a_collision(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from agents.scanner.briefs import parse_brief_text
    from agents.verifier.register import raised_elsewhere, seed_register
    from state.db import Database

    db = Database(f"sqlite:///{tmp_path / 'r.db'}")
    db.upgrade()
    tz = ZoneInfo("Asia/Shanghai")
    brief = parse_brief_text("inbox/lin/2027-03-10-serving-e1prep.md",
                             "三、矛盾/待核\nD296：Quill vs Corvid 双源基准数据精度警示（⚠⚠⚬）",
                             date(2027, 3, 10), "lin", "serving-e1prep", datetime(2027, 3, 10, 22, 20, tzinfo=tz))
    seed_register(db, [], [brief])
    moment = datetime(2027, 3, 16, 22, 20, tzinfo=tz)
    new = raised_elsewhere(db, [(296, "inbox/otto/2027-03-16-1245-otto-coordination.md", 22,
                                 "- Tessel 吞吐 +27% vs 最高 1.44×，同一配置两个数，新挂 D296")], moment)
    assert [w.kind for w in new] == ["register_collision"] and "Quill vs Corvid" in new[0].text
    same = raised_elsewhere(db, [(296, "inbox/otto/2027-03-16-1245-otto-coordination.md", 22,
                                  "- Quill vs Corvid 双源基准数据精度警示，新挂 D296")], moment)
    assert same == []  # the same thing again
    fresh = raised_elsewhere(db, [(299, "inbox/otto/2027-03-16-1245-otto-coordination.md", 22, "- 新挂 D299")], moment)
    assert fresh == []  # a number nobody used


@pytest.mark.parametrize(("line", "role"), [
    ("D279：升级为\"已复现、未修复\"，沿用", "carried"),
    ("D279：补记——作者回复下周修", "carried"),
    ("D279：Quill 的复现数字仍只有一源，沿用", "carried"),
    ("D279：updated — reproduced, still open", "carried"),
    ("D280：Heron 2-bit KV 只在子集上测（⚠⚠⚬）", "raised"),
    ("D281：沿用日期与发布日期不一致", "raised"),  # the word inside its subject, not a status at the end
])
def test_a_brief_line_updating_an_entry_carries_it(line: str, role: str) -> None:
    record = parse_brief_text("inbox/lin/2027-03-16-risk-e1prep.md", f"三、矛盾/待核\n{line}\n", date(2027, 3, 16), "lin")
    assert [i.role for i in record.items] == [role]


def test_an_entry_another_brief_of_the_day_closed_is_said_closed_not_dropped(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from agents.verifier.register import closed_on, open_entries, seed_register
    from state.db import Database

    tz = ZoneInfo("Asia/Shanghai")
    db = Database(f"sqlite:///{tmp_path / 'c.db'}")
    db.upgrade()
    raised = parse_brief_text("inbox/lin/2027-03-10-serving-e1prep.md", "三、矛盾/待核\nD284：Quill SM90 回退文档与代码不一致（⚠⚠⚬）",
                              date(2027, 3, 10), "lin", "serving-e1prep", datetime(2027, 3, 10, 22, 20, tzinfo=tz))
    other = parse_brief_text("inbox/bo/2027-03-16-infra-e1prep.md", "三、矛盾/待核\nD284 闭合：v0.9.1 点名修复",
                             date(2027, 3, 16), "bo", "infra-e1prep", datetime(2027, 3, 16, 11, 52, tzinfo=tz))
    late = parse_brief_text("inbox/cy/2027-03-16-risk-e1prep.md", "三、矛盾/待核\nD284 闭合：同上",
                            date(2027, 3, 16), "cy", "risk-e1prep", datetime(2027, 3, 16, 23, 5, tzinfo=tz))
    seed_register(db, [], [raised, other, late])
    end = datetime(2027, 3, 16, 22, 20, tzinfo=tz)
    [closed] = closed_on(db, date(2027, 3, 16), end)
    assert closed["d"] == "D284" and "infra-e1prep" in closed["evidence"] and "点名修复" in closed["evidence"]
    assert closed_on(db, date(2027, 3, 16)) == []  # without the window, another brief's round is its own
    assert "D284" not in {e.d for e in open_entries(db, end)}


@pytest.mark.parametrize(("text", "marks"), [
    # A register row recording the number a brief gave the same thing, in other wordings than the sample's.
    ("Quill TTFT 口径（原 lin 3-14 自编\"D301\"）", [("lin", 3, 14, 301)]),
    ("Heron 承诺（并入 mei 3-15 自编\"D302\"）", [("mei", 3, 15, 302)]),
    ("Corvid 数字来源（原 lin 3/14「D303」）", [("lin", 3, 14, 303)]),
    ("Corvid 基线（lin 3-16 记作\"沿用 D299 修订\"，以本号为准）", [("lin", 3, 16, 299)]),
    ("Lumen trace (was otto 4-02 D410)", [("otto", 4, 2, 410)]),
    ("Lumen ratio (merged from otto 4/3 D411)", [("otto", 4, 3, 411)]),
    ("Orca 版本（改登自 mei 3月15日 D305）", [("mei", 3, 15, 305)]),
    # Near misses: a date beside a number, a link to another entry, a follow-up note, a plain mention.
    ("2027-03-14 D301 的后续", []),
    ("关联 D181；见 D200", []),
    ("3-15 因新论文升至 ⚠⚠⚬，波及 D198", []),
    ("lin 3-14 提的 D301 同一件事待核", []),
])
def test_a_register_row_records_the_number_another_brief_gave_it(text: str, marks: list) -> None:  # type: ignore[type-arg]
    entry = RegisterEntry("D320", 320, text, "⚠⚬ 低", date(2027, 3, 17), "待核", "inbox/lin/x.md")
    assert [(m.agent, m.month, m.day, m.number) for m in entry.renumbered()] == marks


def test_a_number_the_register_renumbered_is_no_collision_and_carries_the_new_number(tmp_path: Path) -> None:
    """Two briefs both took D301; the lead's register files lin's under D320: no collision on D301, and lin's
    sighting is the register's D320 (carried, not raised anew)."""
    db = _db(tmp_path)
    lin = parse_brief_text("inbox/lin/2027-03-14-inference-e1prep.md",
                           "三、值得警惕的矛盾或待核实说法\nD301：Quill TTFT 单轮 / 多轮口径不一（⚠⚬⚬）\n",
                           date(2027, 3, 14), "lin")
    mei = parse_brief_text("inbox/mei/2027-03-14-llm-infra-e1prep.md",
                           "三、值得警惕的矛盾或待核实说法\nD301：Heron NVMe 卸载带宽未说明拓扑（⚠⚬⚬）\n",
                           date(2027, 3, 14), "mei")
    register = [RegisterEntry("D301", 301, "Heron NVMe 卸载带宽未说明拓扑", "⚠⚬⚬ 中低", date(2027, 3, 14), "待核",
                              "inbox/mei/2027-03-14-llm-infra-e1prep.md"),
                RegisterEntry("D320", 320, "Quill TTFT 单轮 / 多轮口径不一（原 lin 3-14 自编\"D301\"）", "⚠⚬⚬ 中低",
                              date(2027, 3, 14), "待核", "inbox/lin/2027-03-14-inference-e1prep.md")]
    seed_register(db, register, [lin, mei])
    assert [w.register for w in collisions(db)] == []
    # Without the register's record, the same two briefs collide on D301.
    (tmp_path / "other").mkdir()
    other = _db(tmp_path / "other")
    seed_register(other, register[:1], [lin, mei])
    assert [w.register for w in collisions(other)] == ["D301"]


@pytest.mark.parametrize(("said", "carried"), [
    # The caveat's own paper or subject, or two names of its own, tie it to an entry.
    ("Quill（2703.01234）只测了一个模型 Top 0.5", "D330"),
    ("Quill：作者只在 H100 上测，8.5× 待核", "D330"),
    ("只有 Lumen 的 ShareGPT trace，4.2× 未复现", "D331"),
    # Near misses: the vault's words and a rank ("work-queue Top 0.5") are said of every queued paper.
    ("Heron（work-queue 08:00 Top 0.5）摘要 2.9×，待核", None),
    ("Tarn paper_card 1571 Top 0.5，作者未给 batch", None),
])
def test_a_caveat_carries_an_entry_only_by_what_ties_them_not_by_the_vaults_words(
        tmp_path: Path, said: str, carried: str | None) -> None:
    db = _db(tmp_path)
    register = [
        RegisterEntry("D330", 330, "Quill arXiv 2703.01234 8.5× 只在 H100 单卡测得，work-queue 3-14 列 Top 0.5", "⚠⚬ 低",
                      date(2027, 3, 14), "待核", "inbox/mei/2027-03-14-llm-infra-e1prep.md"),
        RegisterEntry("D331", 331, "Corvid 4.2× 只用 Lumen ShareGPT trace，未复现", "⚠⚬ 低",
                      date(2027, 3, 14), "待核", "inbox/mei/2027-03-14-llm-infra-e1prep.md")]
    seed_register(db, register, [])
    warning = BriefWarning(id="", kind="caveat", text=f"来源作者自注存疑——{said}", risk="低",
                           subject=said.split("（")[0].split("：")[0].split(" ")[0], key=f"caveat:x:{said[:10]}")
    [numbered] = assign_numbers(db, "inference:2027-03-16", [warning])
    assert (numbered.register if numbered.carried_from else None) == carried


def test_a_register_row_naming_two_source_briefs_is_one_item_with_each(tmp_path: Path) -> None:
    """A row whose source column names two briefs ("spark ….md · tom ….md") is the item each of them raised,
    however differently worded: no collision between the row and either brief."""
    db = _db(tmp_path)
    mei = parse_brief_text("inbox/mei/2027-03-14-llm-infra-e1prep.md",
                           "三、值得警惕的矛盾或待核实说法\nD340：Corvid vs Quill 双源基准数据精度警示（T0935 vs T1150）\n",
                           date(2027, 3, 14), "mei")
    register = [RegisterEntry("D340", 340, "Corvid vs Quill TTFT 多源口径不一致：前缀密集单轮 79 / 103ms，多轮 85 / 380ms",
                              "⚠⚠⚬ 中", date(2027, 3, 14), "沿用",
                              "inbox/mei/2027-03-14-llm-infra-e1prep.md · inbox/lin/2027-03-14-inference-e1prep.md")]
    seed_register(db, register, [mei])
    assert collisions(db) == []
    # A third brief using the number for something else still collides.
    otto = parse_brief_text("inbox/otto/2027-03-15-serving-e1prep.md",
                            "三、值得警惕的矛盾或待核实说法\nD340：Heron 冷启动 +35% 未复现\n", date(2027, 3, 15), "otto")
    seed_register(db, register, [mei, otto])
    assert [w.register for w in collisions(db)] == ["D340"]


@pytest.mark.parametrize(("line", "number", "role"), [
    ("⚠️ C2（新增 D331）：Heron v1.0 GA \"2027-03-11\" 承诺", 331, "raised"),
    ("⚠️ C1（沿用 D305 修订）：Quill v0.29 vs v0.30 版本号差异", 305, "carried"),
    ("⚠️ C3（登记 D332）：Corvid 吞吐只测一组", 332, "raised"),
])
def test_a_warning_heading_naming_its_number_raises_or_carries_it(line: str, number: int, role: str) -> None:
    brief = parse_brief_text("inbox/lin/2027-03-11-inference-e1prep.md", f"三、值得警惕的矛盾或待核实说法\n\n{line}\n",
                             date(2027, 3, 11), "lin")
    [item] = [i for i in brief.items if i.number == number]
    assert item.role == role and item.text


@pytest.mark.parametrize(("text", "past"), [
    ('Heron v1.0 GA "2027-03-11" 承诺', True),
    ("Quill 计划于 2027-03-01 发布 serving system", True),
    ("Corvid 承诺 2027-03-20 给出复现脚本", False),  # not yet due on 03-12
    ("Lumen 2027-03-01 的数字只测一组", False),  # a date, no promise
    ("Heron 承诺 2027-02-31 发布", False),  # no such day
])
def test_an_open_entry_tracking_a_promise_past_its_day_says_so(text: str, past: bool) -> None:
    from agents.verifier.promises import promise_past as _promise_past

    assert ("已过" in _promise_past(text, date(2027, 3, 12))) is past
