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
]


@pytest.mark.parametrize(("line", "due", "who"), PROMISES)
def test_a_dated_promise_is_read_with_its_due_day_and_promiser(line: str, due: str, who: str) -> None:
    [found] = [m for m in extract_mentions("inbox/mei/2027-01-10-x.md", line) if m.kind == "promise"]
    assert found.detail["due"] == due
    assert promise_subject(found.context) == who


@pytest.mark.parametrize("line", NOT_PROMISES)
def test_past_events_plain_dates_and_undated_intents_are_not_promises(line: str) -> None:
    assert [m for m in extract_mentions("inbox/mei/2027-01-10-x.md", line) if m.kind == "promise"] == []


def test_the_warning_names_the_promiser_and_turns_overdue_only_after_the_due_day(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'p.db'}")
    db.create_all()
    note = "- Lattice-KV 压缩内核：据 InfoQ 报道，团队计划于 2027-02 开源。"
    track_promises(db, extract_mentions("inbox/otto/2027-01-20-n.md", note), date(2027, 1, 20))
    [open_] = promise_warnings(db, date(2027, 2, 28))
    assert open_.kind == "promise_open" and open_.subject == "Lattice-KV" and "Lattice-KV" in open_.text
    [late] = promise_warnings(db, date(2027, 3, 1))
    assert late.kind == "promise_overdue" and late.subject == "Lattice-KV"
    assert promise_warnings(db, date(2027, 1, 19)) == []  # a backfill before it was written knows nothing
