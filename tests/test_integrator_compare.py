"""``compare_briefs``: recall and precision against a hand-written brief."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

from agents.integrator.compare import compare_briefs, parse_theirs
from state.models import ArxivEntry, BaseDoc, Brief, BriefWarning, Increment, Window

TZ = ZoneInfo("Asia/Shanghai")
THEIRS = """inference · E1 预消化简报(2026-09-29)

二、增量条目

增量 1：arXiv 2609.31415 · Paper A（⭐⭐⭐⭐⭐）
URL：https://arxiv.org/abs/2609.31415v1
与活文档现有脉络的关系：与 arXiv 2602.14516 互补
建议归入章节：§3.3 Cache Compression（扩增）

增量 2：Blog B
URL：https://example.org/b?utm_source=x
建议归入章节：§1.1 推理引擎格局

三、值得警惕的矛盾或待核实说法

⚠️ C1（沿用 D195 修订）：vLLM 版本差异
⚠️ C2（新增）：arXiv 2609.26333 数字

四、可引用的 arXiv 号列表

2609.31415 A §3.3 ★★★★★
2609.26333 B §2.2 ★★★★
"""


def _ours() -> Brief:
    t = datetime(2026, 9, 29, 22, 20, tzinfo=TZ)
    return Brief(
        topic="inference", date="2026-09-29", thread="t", executor="tom", window=Window(start=t, end=t),
        base_doc=BaseDoc(path="organized/knowledge/inference.md"),
        increments=[
            Increment(rank=1, title="A", status="net_new", arxiv=["2609.31415"], section="§2.3", key="arxiv:2609.31415"),
            Increment(rank=2, title="B", status="net_new", urls=["https://example.org/b"], section="§1.1"),
            Increment(rank=3, title="C", status="net_new", arxiv=["2609.99999"]),
        ],
        warnings=[BriefWarning(id="C1", register="D195", kind="version_conflict", text="x", subject="vLLM")],
        arxiv=[ArxivEntry(id="2609.31415"), ArxivEntry(id="2609.99999")],
    )


def test_parse_theirs_reads_identity_not_relation():
    theirs = parse_theirs(THEIRS)
    assert [b.arxiv for b in theirs.increments] == [{"2609.31415"}, set()]
    assert "https://example.org/b" in theirs.increments[1].urls
    assert theirs.arxiv == {"2609.31415", "2609.26333"}
    assert theirs.warnings[0].registers == {"D195"}


def test_compare_figures_and_section_disagreement():
    result = compare_briefs(_ours(), THEIRS)
    assert (result.increments.matched, result.increments.recall) == (2, 1.0)
    assert abs(result.increments.precision - 2 / 3) < 1e-9
    assert result.arxiv.recall == 0.5 and result.arxiv.missing == ["2609.26333"]
    assert result.warnings.matched == 1 and result.warnings.recall == 0.5
    assert [(d.ours, d.theirs) for d in result.sections] == [("§2.3", ["§3.3"])]
    assert any(line.startswith("increments: recall 1.00") for line in result.lines())


def test_a_warning_matches_the_same_claim_in_other_words() -> None:
    from agents.integrator.compare import _same_claim

    theirs = "⚠️ C4（新增）：SGLang TTFT 三源不一致 问题：bex.co 测得 SGLang TTFT 85ms / vLLM 380ms"
    assert _same_claim("SGLang ttft", "SGLang 的 ttft 各源数字不一：42ms；85ms", theirs)
    assert not _same_claim("SGLang ttft", "SGLang 的 ttft 各源数字不一：42ms；60ms", theirs)  # no shared figure
    assert not _same_claim("vLLM throughput", "vLLM 3,100 tok/s vs 12,500 tok/s; 85", theirs)  # other subject


def test_a_shared_d_number_alone_is_not_a_match():
    ours = _ours()
    ours.warnings = [BriefWarning(id="C1", register="D195", kind="version_conflict", text="x", subject="SGLang")]
    assert compare_briefs(ours, THEIRS).warnings.matched == 0
