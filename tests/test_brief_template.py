"""The brief's Markdown template and the template loader."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from agents.integrator.markdown import render_markdown
from prompts import render_template, template_variables
from state.errors import TemplateError
from state.models import ArxivEntry, BaseDoc, Brief, BriefWarning, Increment, SourceEntry, Window
from tests.conftest import BRIEF_HEADINGS, INCREMENT_FIELDS

TZ = ZoneInfo("Asia/Shanghai")


def _brief() -> Brief:
    end = datetime(2026, 9, 29, 22, 20, tzinfo=TZ)
    incs = [
        Increment(rank=1, title="Paper A", status="net_new", arxiv=["2609.31415"], urls=["https://arxiv.org/abs/2609.31415"],
                  sources=["inbox/jay/a.md"], work_queue="Top 0.5", paper_card=1546, points=["要点（inbox/jay/a.md L3）"],
                  argument="论点", credibility=5, credibility_reason="卡", relation="关系", section="§3.3",
                  card_status="paper_card 1546 ✓"),
        Increment(rank=2, title="Blog B", status="integrated", urls=["https://example.org/b"],
                  sources=["inbox/tom/b.md"], points=[], argument="论点 B", credibility=3, relation="关系 B"),
    ]
    return Brief(
        topic="inference", date="2026-09-29", thread="inference:2026-09-29", executor="tom",
        window=Window(start=datetime(2026, 9, 28, 22, 20, tzinfo=TZ), end=end),
        base_doc=BaseDoc(path="organized/knowledge/inference.md", version="267"), density="中", honesty="诚实",
        summary=["增量条数：2 条"],
        sources=[SourceEntry(path="inbox/jay/a.md", kind="note", agent="jay", time=end, bytes=2048, relevance=5),
                 SourceEntry(path="inbox/jay/x.md", kind="note", status="empty", reason="文件为空")],
        increments=incs,
        warnings=[BriefWarning(id="C1", register="D195", kind="version_conflict", text="v0.29 vs v0.30",
                               carried_from="D195"),
                  BriefWarning(id="C2", kind="single_source", text="只有一个来源")],
        arxiv=[ArxivEntry(id="2609.31415", verified="ok", title="Paper A", section="§3.3", credibility=5, status="net_new")],
        e2=[{"priority": "🔴", "content": "Paper A", "action": "写入 §3.3"}],
    )


def test_headings_in_the_examples_order():
    markdown = render_markdown(_brief())
    positions = [markdown.index(h) for h in BRIEF_HEADINGS]
    assert positions == sorted(positions)
    assert markdown.index("执行体：tom") < positions[0]
    assert "诚实度声明：诚实" in markdown and "inference.md v267" in markdown


def test_every_increment_has_every_field():
    markdown = render_markdown(_brief())
    part = markdown[markdown.index("二、增量条目"): markdown.index("三、值得警惕")]
    blocks = part.split("增量 ")[1:]
    assert len(blocks) == 2
    for block in blocks:
        positions = [block.index(f) for f in INCREMENT_FIELDS]
        assert positions == sorted(positions), block


def test_warnings_sources_and_e2_are_rendered():
    markdown = render_markdown(_brief())
    assert "⚠️ C1（沿用 D195）" in markdown and "⚠️ C2（新增）" in markdown
    assert "inbox/jay/x.md" in markdown and "文件为空" in markdown
    assert "🔴 Paper A 写入 §3.3" in markdown
    assert "2609.31415 Paper A §3.3 ★★★★★ ✓ 已核对" in markdown


def test_loader_names_missing_variables():
    assert template_variables("brief.md.j2") == {"brief"}
    with pytest.raises(TemplateError, match="brief"):
        render_template("brief.md.j2")
    with pytest.raises(TemplateError, match="nope.j2"):
        render_template("nope.j2")


def test_loader_names_attribute_the_caller_lacks():
    with pytest.raises(TemplateError, match="brief.md.j2"):
        render_template("brief.md.j2", brief={"topic": "inference"})


def test_each_summary_line_stands_on_its_own_line() -> None:
    """The arXiv check line and the slot-gap line are two bullets, never run together."""
    from state.models import GapEntry

    brief = _brief()
    brief.gaps = [GapEntry(agent="mei", slot="digest", date="2026-09-29", status="missing", streak=3)]
    lines = render_markdown(brief).split("\n")
    check = next(line for line in lines if "arXiv 核对" in line)
    assert "棒位缺口" not in check
    assert any(line.strip().startswith("• 棒位缺口：mei/digest") for line in lines)


def test_open_register_entries_are_named_on_the_increment_they_are_about() -> None:
    from agents.integrator.compose import link_open_entries

    brief = _brief()
    brief.increments[1].title = "Rowan-KV 调度 blog"
    brief.register_open = [
        {"d": "D301", "text": "Paper A arXiv 2609.31415 误差只在 2 个 trace 上验证", "risk": "中低"},
        {"d": "D302", "text": "Rowan-KV 吞吐为项目方自测，需第三方复现", "risk": "中"},
        {"d": "D303", "text": "vLLM 路线图无时间表", "risk": "中"},
    ]
    link_open_entries(brief, generic=["vLLM"])
    assert brief.increments[0].register_open == ["D301"] and "登记簿未闭合 D301" in brief.increments[0].credibility_reason
    assert brief.increments[1].register_open == ["D302"]
    brief.increments[1].title = "vLLM 生产 10 大坑"  # a title leading with the topic's own term names no item
    link_open_entries(brief, generic=["vLLM"])
    assert brief.increments[1].register_open == []


def test_a_source_read_in_another_encoding_says_so() -> None:
    brief = _brief()
    brief.sources[0].encoding = "gb18030"
    markdown = render_markdown(brief)
    assert "inbox/jay/a.md（note" in markdown and "编码 gb18030，已转码读入" in markdown
    brief.sources[0].encoding = "utf-8"
    assert "已转码读入" not in render_markdown(brief)


@pytest.mark.parametrize(("entry", "moved"), [
    ({"d": "D212", "text": "Lumen-RL 2609.14402 峰值显存 -45% 只有 7B 单机 8 卡"}, True),  # tied only by an off-topic paper
    ({"d": "D213", "text": "Lumen-RL 2609.14402 rollout 用 vLLM 时 KV cache 占比未报"}, False),  # the topic's matter too
    ({"d": "D214", "text": "Tessel 2609.31415 数字待核"}, False),  # a paper the brief keeps
    ({"d": "D215", "text": "Lumen-RL 2609.14402 峰值显存未测", "carried_from": "inbox/tom/2026-09-28-inference-e1prep.md"},
     False),  # this slot raised it
])
def test_an_open_entry_tied_only_to_a_paper_ruled_off_topic_is_listed_elsewhere(entry: dict, moved: bool) -> None:
    from agents.integrator.node import _papers_ruled_out
    brief = _brief()
    brief.excluded = [{"key": "arxiv:2609.14402", "title": "Lumen-RL", "arxiv": ["2609.14402"], "reason": "转交 training",
                       "paper_card": None, "sources": ["inbox/bo/n.md"]}]
    brief.register_open = [dict(entry)]
    _papers_ruled_out(brief, ["vLLM", "KV cache", "TTFT"], "inference-e1prep")
    assert (entry["d"] in {e["d"] for e in brief.register_elsewhere}) is moved
    assert (entry["d"] in {e["d"] for e in brief.register_open}) is not moved
    if moved:
        assert "主轴外" in render_markdown(brief)


def test_a_warning_carrying_a_number_the_brief_calls_collided_says_so() -> None:
    brief = _brief()
    brief.warnings = [
        BriefWarning(id="C1", kind="number_conflict", text="Quokka TTFT 各源不一", register="D301",
                     carried_from="inbox/lin/2027-03-14-inference-e1prep.md D301", subject="Quokka ttft"),
        BriefWarning(id="C2", kind="caveat", text="Heron 只测了一种硬件", register="D305",
                     carried_from="register D305", subject="Heron"),
    ]
    brief.register_open = [{"d": "D301", "text": "编号冲突：D301 在不同来源中指 2 件不同的事", "risk": "中", "raised": "2027-03-14",
                            "carried_from": None}]
    lines = render_markdown(brief).split("\n")
    [c1] = [line for line in lines if line.startswith("⚠️ C1")]
    [c2] = [line for line in lines if line.startswith("⚠️ C2")]
    assert "沿用 D301" in c1 and "该号另有他指" in c1
    assert "沿用 D305" in c2 and "该号另有他指" not in c2  # a number nobody else uses is carried plainly
    # The register's own row keeps its number: a collision raised against it is the other use's to renumber.
    brief.register_open = [{"d": "D305", "text": "编号冲突：D305 在不同来源中指 2 件不同的事", "risk": "中",
                            "raised": "2027-03-14", "carried_from": None}]
    [c2] = [line for line in render_markdown(brief).split("\n") if line.startswith("⚠️ C2")]
    assert "该号另有他指" not in c2
