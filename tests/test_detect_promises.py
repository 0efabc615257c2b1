"""Dated promises in wordings the sample vault does not use: who promised what, due when, as of the brief."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from agents.scanner.mentions import extract_mentions
from agents.verifier.promises import promise_subject, promise_warnings, track_promises
from state.db import Database

PROMISES = [
    ("QuillServe 团队计划于 2027-03 开源 v2 调度器", "2027-03-31", "QuillServe"),
    ("Lattice-KV will ship in March 2027 according to its README", "2027-03-31", "Lattice-KV"),
    ("Orca is targeting a Q2 2027 release of the router", "2027-06-30", "Orca"),
    ("据 TechCrunch 报道，Helix 计划 2027 年 Q1 上线托管版", "2027-03-31", "Helix"),
    ("According to The Verge, Tessera plans to release the SDK by 2027-05-01", "2027-05-01", "Tessera"),
    ("PagePool 预计 2027 年 4 月发布 1.0", "2027-04-30", "PagePool"),
    ("- Mistletoe：维护者说将于 2027-02 发布 FP8 支持", "2027-02-28", "Mistletoe"),
    ("The Kestrel maintainers expect to publish weights in Sep 2027", "2027-09-30", "Kestrel"),
    ("FlowCache aims to open-source the kernels by 2027-07", "2027-07-31", "FlowCache"),
    ("Sparrow 宣布将在 2027-06 推出 serving 插件", "2027-06-30", "Sparrow"),
    ("- Quokka-R：Acme 表示将在 2027-04 开源推理内核", "2027-04-30", "Quokka-R"),
    ("The HeronKV authors say weights will be out by 2027-05", "2027-05-31", "HeronKV"),
    ("Lumen 团队打算在 2027 年 6 月发布 v2", "2027-06-30", "Lumen"),
    ("- Corvid：维护者准备于 2027-08 上线托管版", "2027-08-31", "Corvid"),
]
NOT_PROMISES = [
    "2026-09 发布的论文讲了 KV 卸载",
    "Orca 已于 2027-01 发布 1.0",
    "The paper was released in March 2026",
    "发布于 2027-03-02 的博客",
    "QuillServe v2 shipped on 2027-02-11",
    "计划书里提到 2027 年的预算",
    "we plan to read the paper in March 2027",
    "Roadmap: 2027-04 (no commitment)",
    "预计提速 30%",
    "will ship faster kernels (no date)",
    "2027-04 的评测显示吞吐 +30%",
    "v0.31 计划中的功能：sparse attention，时间表未定",
    "预计下月推出（无具体日期）",
    "将在 H100 上复现 2027-01 的实验",
    "the dashboard will be available to the team (2027-02 budget)",
]


# A second table, written independently by another engineer; dates without a year count from the note's date.
SECOND_NOTE = "inbox/x/2026-11-03-radar.md"
SECOND_PROMISES = [
    ('FooServe 计划于 2027-03 开源推理内核。', 'FooServe', '2027-03-31'),
    ('- BarDB：预计 Q2 上线托管版', 'BarDB', '2027-06-30'),
    ('The Zeta team will ship the v2 scheduler in March 2027.', 'Zeta', '2027-03-31'),
    ('Acme is targeting a 2027-01 release of its KV router.', 'Acme', '2027-01-31'),
    ('据 The Register 报道，OmegaLM 计划 2027 年 5 月开源权重。', 'OmegaLM', '2027-05-31'),
    ('- QuillKV 把压缩做进 page 表。据 SomeBlog 2026-10 报道，研究团队计划于 2026-12 发布 serving 实现。', 'QuillKV', '2026-12-31'),
    ('NimbusRT plans to open-source the runtime by 2027-02-15, per the maintainers.', 'NimbusRT', '2027-02-15'),
    ('官方说 LumenDB 预计 2027 年上半年 GA', 'LumenDB', '2027-06-30'),
    ('Orca-9B weights are expected to be released in Q1 2027.', 'Orca-9B', '2027-03-31'),
    ('PicoLLM 将于 12 月发布 1.0', 'PicoLLM', '2026-12-31'),
    # Yearless parts of a month, promise verbs without 在/于, and release verbs beyond 发布.
    ('Cobalt 的作者在 issue 里答复，团队打算 11 月中旬把权重放出来', 'Cobalt', '2026-11-20'),
    ('Garnet 团队表示会在 12 月下旬公布训练脚本', 'Garnet', '2026-12-31'),
    ('- Basalt：维护者争取 1 月上旬释出 FP8 kernel', 'Basalt', '2027-01-10'),
    ('Cobalt 的作者在 GitHub issue 里说，代码和 trace 打算 11 月 20 日前后一起放出来', 'Cobalt', '2026-11-20'),
    # The deadline first: "「这个月底前」推到 GitHub", a month in Chinese numerals.
    ('- Quillmap 团队在答疑里说插件"这个月底前"推到 GitHub', 'Quillmap', '2026-11-30'),
    ('Garnet 维护者说十二月内放出来', 'Garnet', '2026-12-31'),
    ('- Basalt 的插件：之前说"十月内放到 GitHub"，今天看仓库还是空的，已经逾期', 'Basalt', '2026-10-31'),  # just gone
    # A day without its year, English verbs of posting and opening, the thing before its date.
    ('Lattice 维护者在 issue 里写 "benchmark numbers will be posted by 11-20"', 'Lattice', '2026-11-20'),
    ('- Heron 的 RFC 写着 "RC planned for 2026-12-02"', 'Heron', '2026-12-02'),
    ('Tarn 的作者回复：集成 PR "will open before 11-10"', 'Tarn', '2026-11-10'),
    ('- Cobalt 维护者："11-15 前给 benchmark"', 'Cobalt', '2026-11-15'),
    ('Garnet maintainers will share the traces on Nov 28', 'Garnet', '2026-11-28'),
    ('Basalt: artifact release scheduled for 2026-12-01 per README', 'Basalt', '2026-12-01'),
    ('- 路线图：博客里写 Heron 插件 "targeting upstream merge by 2026-11-25"', 'Heron', '2026-11-25'),
]
SECOND_NOT_PROMISES = [
    'QuxKV 已于 2027-01 发布，release note 里写了 FP8。',
    '2026-09 发布的论文 BazNet 讲的是调度。',
    '计划在 H100 上发布基准数字。',
    'The paper was expected to ship in March 2026 and did.',
    'Zeta 2.0 shipped on 2026-10-02 with the new scheduler.',
    'Orca 计划书（2027-03 版）里没有发布时间。',
    '作者说 12 月底前不会放出训练代码。',  # a promise not to
    '我们打算 11 月中旬复测一次 Cobalt。',  # the team's own plan, no release
    '这个月底前我们要把 Cobalt 的 benchmark 跑完。',  # a plan of ours, no release verb
    '十一月内 Garnet 共有 3 次发布。',  # a count of releases, not a deadline
    '11-04 的评测给了 30% 的提升。',  # a dated result
    'Orca 10-25 公布了 6 起事故。',  # a day something happened
    '- Heron 11 月 2 日发布 v2',
    'The Basalt RC was planned for 2026-10-02 and shipped on time.',  # past, kept
    '我们 11-20 前给 Cobalt 补测一次。',  # our own plan
    'we will re-run Garnet before 11-20',  # our own plan, no release verb
]


FIRST_NOTE = "inbox/mei/2027-01-10-x.md"


def _promises(note: str, line: str) -> list:  # type: ignore[type-arg]
    return [m for m in extract_mentions(note, line) if m.kind == "promise"]


@pytest.mark.parametrize(("note", "line", "due", "who"),
                         [(FIRST_NOTE, line, due, who) for line, due, who in PROMISES]
                         + [(SECOND_NOTE, line, due, who) for line, who, due in SECOND_PROMISES])
def test_a_dated_promise_is_read_with_its_due_day_and_promiser(note: str, line: str, due: str, who: str) -> None:
    [found] = _promises(note, line)
    assert found.detail["due"] == due
    assert promise_subject(found.context) == who
    assert who in found.context  # the quote names who promised


@pytest.mark.parametrize(("note", "line"), [(FIRST_NOTE, line) for line in NOT_PROMISES]
                         + [(SECOND_NOTE, line) for line in SECOND_NOT_PROMISES])
def test_past_events_plain_dates_and_undated_intents_are_not_promises(note: str, line: str) -> None:
    assert _promises(note, line) == []


def test_the_warning_names_the_promiser_and_turns_overdue_only_after_the_due_day(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'p.db'}")
    db.upgrade()
    note = "- Lattice-KV 压缩内核：据 InfoQ 报道，团队计划于 2027-02 开源。"
    track_promises(db, extract_mentions("inbox/otto/2027-01-20-n.md", note), date(2027, 1, 20))
    [open_] = promise_warnings(db, date(2027, 2, 28))
    assert open_.kind == "promise_open" and open_.subject == "Lattice-KV" and "Lattice-KV" in open_.text
    [late] = promise_warnings(db, date(2027, 3, 1))
    assert late.kind == "promise_overdue" and late.subject == "Lattice-KV"
    assert promise_warnings(db, date(2027, 1, 19)) == []  # a backfill before it was written knows nothing


def test_promises_without_latin_words_are_tracked_apart_and_never_collide(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'q.db'}")
    db.upgrade()
    note = "- 代码仓说是 4 月发。\n- 另一个仓库也说是 4 月发。\n- 代码仓说是 4 月发。\n"
    mentions = extract_mentions("inbox/lin/2027-02-10-n.md", note)
    track_promises(db, mentions, date(2027, 2, 10))
    track_promises(db, mentions, date(2027, 2, 10))  # a re-run adds nothing
    assert len(promise_warnings(db, date(2027, 3, 1))) == 2


def test_a_promise_under_a_heading_is_the_headings_subject_not_the_platform_it_was_said_on() -> None:
    body = "## Quillmap：分层 KV 卸载 ⭐⭐⭐\n- 时间线：作者在 GitHub issue #3 里回复，代码打算 11 月 20 日前后放出来\n"
    [promise] = _promises(SECOND_NOTE, body)
    assert promise.detail["due"] == "2026-11-20"
    assert promise_subject(promise.context) == "Quillmap"


@pytest.mark.parametrize(("note", "who"), [
    # The authors of the section's subject promise; the name in the line is where the work goes.
    ("## Tier2-B · Tessel 跨层共享（arXiv 2611.02817）\n- 作者在 issue 里回复：Quill 集成 PR \"will open before 11-10\"\n",
     "Tessel"),
    ("## Heron 调度器\n- The maintainers say the Corvid plugin will ship by 2026-12-01\n", "Heron"),
    # A section heading without a name: the note's title names what it reads.
    ("# 精读 · Lumen: Timing-Safe Caching\n## 4. 批判性阅读\n- README 写 \"artifact release planned for 2026-11-20\"\n",
     "Lumen"),
    # The note's title leads with its author: the subject is what the title reads.
    ("# bo · 精读 · Tessel（arXiv 2611.02817）\n## 4. 代码\n- 作者说\"将于 2026-12-01 前开源\"\n", "Tessel"),
    # The line names its promiser before the people word: that name.
    ("## Heron 调度器\n- Corvid 的维护者说 plugin will ship by 2026-12-01\n", "Corvid"),
])
def test_a_promise_by_the_subjects_people_is_the_subjects(note: str, who: str) -> None:
    [found] = _promises(SECOND_NOTE, note)
    assert promise_subject(found.context) == who


@pytest.mark.parametrize(("evidence", "kept"), [
    ("## Quill 仓库今天放了代码\n- https://github.com/quill-kv/Quill/releases/tag/v0.1.0 —— release 时间 2027-02-27", True),
    ("- Quill 的 serving 原型已放出：https://github.com/quill-kv/Quill（README 标了 prototype）", True),
    ("- Quill 还没放代码，仓库只有 README", False),
    ("- Heron 今天放了代码", False),  # another promiser
])
def test_a_promise_is_kept_when_its_promiser_ships(tmp_path: Path, evidence: str, kept: bool) -> None:
    from agents.verifier.promises import kept_on
    db = Database(f"sqlite:///{tmp_path / 'k.db'}")
    db.upgrade()
    track_promises(db, extract_mentions("inbox/otto/2027-02-10-n.md", "- Quill：团队计划于 2027-02 发布 serving system。"),
                   date(2027, 2, 10))
    track_promises(db, extract_mentions("inbox/jay/2027-02-27-n.md", evidence), date(2027, 2, 27))
    assert (promise_warnings(db, date(2027, 2, 27)) == []) is kept
    assert bool(kept_on(db, date(2027, 2, 27))) is kept


def test_a_later_note_saying_the_promise_was_kept_in_the_promises_words_confirms_it(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'l.db'}")
    db.upgrade()
    track_promises(db, extract_mentions("inbox/otto/2027-02-10-n.md", "- Quill：团队计划于 2027-02 发布 serving system。"),
                   date(2027, 2, 10))
    later = "- Quill：2-10 记的\"计划于 2027-02 发布 serving system\"——今天 10:12 GitHub 终于放了 v0.1.0"
    track_promises(db, extract_mentions("inbox/jay/2027-02-27-n.md", later), date(2027, 2, 27))
    assert promise_warnings(db, date(2027, 2, 27)) == []


@pytest.mark.parametrize(("line", "due"), [
    ('- 维护者回过一句："the fix for the scale overflow will land in v0.6.3, targeting 11/26"', "2026-11-26"),
    ("- Heron patch v2.1 is targeting 12/05 per the tracker", "2026-12-05"),
])
def test_a_target_date_after_what_is_promised_is_read(line: str, due: str) -> None:
    [found] = _promises(SECOND_NOTE, line)
    assert found.detail["due"] == due


def test_a_fraction_is_no_date() -> None:
    assert _promises(SECOND_NOTE, "- Heron release 命中 3/4 的请求") == []


@pytest.mark.parametrize(("evidence", "partial"), [
    # Partial: the section says what shipped and what did not, in either order and in other words.
    ("## Quill v0.1.0 —— 只放了一半\n- https://github.com/quill-kv/Quill/releases/tag/v0.1.0 单机 reference 实现\n"
     "- 多节点 serving system 没放", True),
    ("## Quill 今天放了 v0.1.0\n- 放出来的：单机 demo\n- 没放出的：serving system（README 写 planned for April）", True),
    ("## Quill\n- Quill 今天放了代码 https://github.com/quill-kv/Quill/releases/tag/v0.1.0\n- 单机 ✅ + serving ❌", True),
    ("## Quill v0.1.0 is out\n- only the single-node reference was released; the serving system is deferred", True),
    ("## Quill released v0.1.0\n- The multi-node part is not included in this release", True),
    ("## Quill 放了 v0.1.0\n- serving system 推迟到 4 月，仍缺多节点调度", True),
    ("## Quill shipped v0.1.0\n- README changed to \"planned for April\" for the serving system", True),
    ("## Quill 跟踪 —— 只交了一半\n- 3-18 仓库终于有东西了：quill-core v0.1.0\n- serving system 那半没有，还是 coming soon",
     True),
    # Near misses: a whole release, a denial of partialness, a partial word about something else in another
    # section, a promise deferred whole (nothing delivered: no part kept).
    ("## Quill\n- Quill 的 serving system 推迟到 5 月，仓库还是空的", False),
    ("## Quill 今天放了代码\n- https://github.com/quill-kv/Quill/releases/tag/v0.1.0\n"
     "- serving system 和单机实现都在，README 标了 prototype", False),
    ("## Quill v0.1.0 is out\n- https://github.com/quill-kv/Quill/releases/tag/v0.1.0 — serving system and the "
     "single-node runtime both included", False),
    ("## Quill 今天放了代码\n- https://github.com/quill-kv/Quill/releases/tag/v0.1.0\n- 不是只放了一半，serving system 也在"
     "\n\n## Heron\n- Heron 的多节点部分推迟到 5 月", False),
])
def test_a_release_that_keeps_only_part_of_a_promise_leaves_it_open_and_says_both_parts(
        tmp_path: Path, evidence: str, partial: bool) -> None:
    from agents.verifier.promises import kept_on
    db = Database(f"sqlite:///{tmp_path / 'p.db'}")
    db.upgrade()
    track_promises(db, extract_mentions("inbox/otto/2027-02-10-n.md", "- Quill：团队计划于 2027-03 发布 serving system。"),
                   date(2027, 2, 10))
    found = track_promises(db, extract_mentions("inbox/jay/2027-03-20-n.md", evidence), date(2027, 3, 20))
    warnings = promise_warnings(db, date(2027, 3, 20), found)
    assert bool(found) is partial
    deferred = "仓库还是空的" in evidence
    assert bool(kept_on(db, date(2027, 3, 20))) is not (partial or deferred)  # never both "kept" and "partly kept"
    if partial:
        [warning] = warnings
        assert "只部分兑现" in warning.text and "inbox/jay/2027-03-20-n.md" in warning.text
        assert "不写成已完整发布" in warning.action
        # After the due day the undelivered part is overdue, still said as a partial delivery.
        [late] = promise_warnings(db, date(2027, 4, 2), found)
        assert late.kind == "promise_overdue" and "只部分兑现" in late.text
    elif deferred:
        [warning] = warnings  # still open, said as not yet seen
        assert "只部分兑现" not in warning.text
    else:
        assert warnings == []


@pytest.mark.parametrize(("line", "due", "who"), [
    # The promise quoted from someone else's event: the quoted subject promises, not the host.
    ('- 9-09 Orbis 秋季发布会 PPT 原话："Quillgate 网关将于 9 月 25 日前在 GitHub 以 Apache-2.0 协议开源"', "2026-09-25", "Quillgate"),
    ("- 据 Lumen 官方博客，Tarn 推理栈计划于 2026-10 开源", "2026-10-31", "Tarn"),
    ("- Orbis 在大会上说：Quillgate 将于 10 月 8 日前正式发布，代码放 GitHub", "2026-10-08", "Quillgate"),
    ("- Quillgate 团队表示，将于 2026-11 上线托管版", "2026-11-30", "Quillgate"),  # its own clause names nobody
])
def test_a_quoted_or_clause_promise_is_made_by_the_name_in_its_own_clause(line: str, due: str, who: str) -> None:
    [found] = _promises("inbox/mei/2026-09-30-x.md", line)
    assert found.detail["due"] == due
    assert promise_subject(found.context) == who
