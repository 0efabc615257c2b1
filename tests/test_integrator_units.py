"""Integrator units on hand-made inputs: clustering, sections, credibility, status, density, source health."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime
from zoneinfo import ZoneInfo

import pytest

from agents.integrator.cluster import cluster_items
from agents.integrator.credibility import score_credibility
from agents.integrator.increment_text import bullet_name, tidy_title
from agents.integrator.scope import ScopeRules, judge_scope
from agents.integrator.sections import propose_section
from agents.integrator.select import density_of, honesty_statement, judge_status, source_health
from agents.scanner.living_doc import parse_living_doc
from agents.scanner.mentions import extract_mentions
from state.models import ArxivEntry, BriefWarning

TZ = ZoneInfo("Asia/Shanghai")


@dataclass
class _File:
    """The VaultFile fields the integrator reads."""

    path: str
    body: str
    text: str = ""
    agent: str | None = None


@dataclass
class _Card:
    card: int
    arxiv: str
    title: str
    primary: str
    path: str
    secondary: str | None = None
    kind: str | None = "method"
    status: str = "classified"
    summary: str = ""
    ingested: datetime = field(default_factory=lambda: datetime(2026, 9, 29, 6, 0, tzinfo=TZ))


NOTE_A = """# jay · evening
## §1 arXiv:2609.31415v1 · Evaluating KV Cache Reuse
https://arxiv.org/abs/2609.31415v1
- 论点：现有评测低估 KV cache 复用的精度损失
- TTFT 7.85 s → 2.56 s（GLM-5.2）

## §2 MortalApps 对比
https://mortalapps.com/blog/vllm-vs-sglang?utm_source=x
- SGLang ~16,200 tok/s vs vLLM ~12,500 tok/s
- 顺带：arXiv 2609.28870 只扫了标题
"""
NOTE_B = """# spark
增量 1：arXiv 2609.31415 · KV Cache Reuse（卡 1546）
- 评测方法学，RAG 场景
- 相关 PR：sgl-project/SGLang#36513
"""
NOTE_C = """# tom
- 2511.02230v7 与 arXiv:2511.02230v2 同一篇；见 https://github.com/sgl-project/SGLang/pull/36513
"""


def _mentions(*files: _File):
    found = []
    for file in files:
        found.extend(extract_mentions(file.path, file.body))
    return found


def _items():
    files = [
        _File("inbox/jay/2026-09-29T1505-jay-evening.md", NOTE_A),
        _File("inbox/spark/2026-09-29-llm-infra-e1prep.md", NOTE_B),
        _File("inbox/tom/2026-09-29-note.md", NOTE_C),
    ]
    card = _Card(1546, "2609.31415", "Evaluating the Accuracy of KV Cache Reuse Techniques", "llm-infra",
                 "organized/paper_cards/1546-2609-31415.md", secondary="evaluation")
    return cluster_items(_mentions(*files), files, [card]), card


def _by_key(items, key):
    return next(item for item in items if key in item.keys)


def test_one_paper_in_every_spelling_and_version_is_one_item():
    items, _ = _items()
    paper = _by_key(items, "arxiv:2609.31415")
    assert paper.arxiv == ["2609.31415"]
    assert set(paper.sources) >= {"inbox/jay/2026-09-29T1505-jay-evening.md", "inbox/spark/2026-09-29-llm-infra-e1prep.md"}
    continuum = _by_key(items, "arxiv:2511.02230")
    assert continuum.versions["2511.02230"] == {2, 7}
    assert sum("arxiv:2511.02230" in item.keys for item in items) == 1


def test_card_and_figures_attach_to_the_passage_subject():
    items, card = _items()
    paper = _by_key(items, "arxiv:2609.31415")
    assert paper.card is card and card.path in paper.sources
    assert any("7.85" in f.raw for f in paper.figures)
    blog = next(item for item in items if any("mortalapps.com" in u for u in item.urls))
    assert any("16,200" in f.raw or "16200" in f.raw.replace(",", "") for f in blog.figures)
    assert not any("16,200" in f.raw for f in paper.figures)


def test_listed_in_passing_is_its_own_item_and_pr_spellings_merge():
    items, _ = _items()
    aside = _by_key(items, "arxiv:2609.28870")
    assert aside.passages == [] and aside.figures == []
    pr = _by_key(items, "pr:sgl-project/sglang#36513")
    assert pr.names == ["sgl-project/sglang#36513"]
    assert sum("pr:sgl-project/sglang#36513" in item.keys for item in items) == 1


LIVING = """---
version: 100
updated: 2026-09-28T23:50:00+08:00
---
## §2.3 Prefill-Decode Disaggregation
- AMPD（arXiv 2602.14516）：Prefill-Decode 解耦自适应资源划分〔v90 · 2026-09-20〕
## §3.3 Cache Compression
- GEAR（arXiv 2403.05527）：4-bit KV Cache 近无损量化压缩〔v80 · 2026-09-10〕
- Mooncake 数字（arXiv 2609.23130）：Cache hit 1.7%→92.2%、吞吐 3.8×〔v95 · 2026-09-27〕
- Today（arXiv 2609.99999）：merged on the brief's own day〔v101 · 2026-09-29〕
## 变更记录
- v100
"""


def test_section_by_similarity_and_anchored_section_wins():
    doc = parse_living_doc(LIVING)
    match = propose_section("Disaggregated Quantization: prefill 与 decode 解耦量化", doc.sections)
    assert match is not None and match.id == "§2.3"
    anchored = propose_section("Control plane 设计原则", doc.sections, ["2609.23130"])
    assert anchored is not None and anchored.id == "§3.3" and anchored.anchored
    assert propose_section("完全无关 zebra", doc.sections) is None


def _item_with(figures_raw: list[str], arxiv: str):
    body = f"## arXiv {arxiv} · Paper\n" + "\n".join(f"- 指标 {raw}" for raw in figures_raw) + "\n"
    file = _File("inbox/jay/2026-09-29T1000-x.md", body)
    items = cluster_items(_mentions(file), [file])
    return _by_key(items, f"arxiv:{arxiv}")


def test_status_against_markers_before_the_brief_day():
    doc = parse_living_doc(LIVING)
    anchored = doc.anchored_as_of(date(2026, 9, 29))
    assert judge_status(_item_with(["TTFT 120 ms"], "2609.31415"), anchored, []).status == "net_new"
    integrated = judge_status(_item_with(["TTFT 7.85 s", "吞吐 3.8×"], "2609.23130"), anchored, [])
    assert integrated.status == "integrated" and [f.raw for f in integrated.new_figures] == ["7.85 s"]
    assert judge_status(_item_with(["吞吐 3.8×"], "2609.23130"), anchored, []).status == "carried"
    # A marker dated the brief's own day does not count as anchored yet.
    assert judge_status(_item_with(["TTFT 9 ms"], "2609.99999"), anchored, []).status == "net_new"
    brief = _File("inbox/tom/2026-09-28-inference-e1prep.md", "", text="增量 1：arXiv 2609.31415 · 已写过\n")
    assert judge_status(_item_with(["TTFT 120 ms"], "2609.31415"), anchored, [brief]).status == "integrated"


def _rules(topic: str = "inference", keywords=("KV cache", "vLLM")) -> ScopeRules:
    return ScopeRules(topic=topic, names=frozenset({topic}), keywords=tuple(keywords),
                      adjacent=frozenset({"llm-infra"}), known_topics=frozenset({"llm-infra", "multimodal", topic}))


def test_scope_card_category_is_evidence_and_rag_only_is_out():
    items, _ = _items()
    paper = _by_key(items, "arxiv:2609.31415")
    assert judge_scope(paper, _rules()).in_topic
    # A card filed under another category needs strong content; this one's is about KV reuse, but weakly.
    paper.card = _Card(1558, "2609.31415", "InfiniHand", "multimodal", "organized/paper_cards/1558.md")
    fit = judge_scope(paper, _rules(keywords=("KV cache",)))
    assert not fit.in_topic and "multimodal" in fit.reason
    file = _File("inbox/jay/2026-09-29T1000-rag.md", "## arXiv 2609.32049 EngramRAG\n- RAG 检索记忆\n")
    rag = _by_key(cluster_items(_mentions(file), [file]), "arxiv:2609.32049")
    assert "RAG" in judge_scope(rag, _rules()).reason


def test_credibility_follows_the_content_and_not_the_lookup():
    items, _ = _items()
    paper = _by_key(items, "arxiv:2609.31415")
    offline = score_credibility(paper, {})
    online = score_credibility(paper, {"2609.31415": ArxivEntry(id="2609.31415", verified="ok")})
    # Reaching arXiv is said, not rewarded; not reaching it is said, not punished.
    assert offline.score == online.score == 4 and "paper_card 1546" in online.reason
    assert "核对一致" in online.reason and "未联网核对" in offline.reason
    # The spark brief restates jay's note: a relay, not a second witness.
    assert "转述" in online.reason and "独立一手来源" not in online.reason
    assert score_credibility(paper, {}, stars=5).score == 5  # the scout's own high rating counts
    warning = BriefWarning(id="C1", kind="id_conflict", text="2609.31415 两处编号不一致")
    caveat = BriefWarning(id="C2", kind="caveat", text="只测了一组配置")
    low = score_credibility(paper, {"2609.31415": ArxivEntry(id="2609.31415", verified="mismatch")}, [warning, caveat])
    assert low.score < online.score and "C1" in low.reason and "C2" in low.reason and "不一致" in low.reason
    aside = _by_key(items, "arxiv:2609.28870")
    assert score_credibility(aside, {}).score <= 3


def test_density_and_honesty_tell_thin_day_from_broken_input():
    assert density_of(["net_new"] * 7) == "高"
    assert density_of(["net_new"] * 6 + ["integrated"] * 2) == "中高"  # the team's "中-高" day of six NET-new
    assert density_of(["net_new"] * 3) == "中高"
    assert density_of(["net_new", "net_new"] + ["integrated"] * 5) == "中高"
    assert density_of(["integrated"] * 2) == "低"
    history = [{"jay": 8, "spark": 2, "tom": 2}] * 14
    normal = source_health({"jay": 7, "spark": 2, "tom": 1}, history)
    assert not normal.broken
    thin = honesty_statement("inference", "低", [("arXiv 2609.31415", "net_new")], (3, 8), normal)
    assert "偏薄" in thin and "真实情况" in thin and "异常" not in thin
    silent = source_health({"jay": 0, "spark": 2, "tom": 2}, history)
    assert silent.broken and silent.silent == ["jay"]
    broken = honesty_statement("inference", "低", [], (3, 8), silent)
    assert "jay" in broken and "静默" in broken and "中位数 8" in broken
    # Titles holding "/" stay countable: the statement's count is the items it lists.
    labels = [("vLLM / SGLang 选型决策树", "net_new"), ("arXiv 2609.31415", "net_new"), ("KV 压缩 / 卸载综述", "net_new")]
    listed = honesty_statement("inference", "高", labels, (3, 8), normal)
    assert "3 件" in listed and listed.split("NET-new（", 1)[1].split("）", 1)[0].count("；") == 2


def test_a_source_listing_line_or_a_log_line_is_not_an_items_title() -> None:
    from agents.integrator.cluster import Item
    from agents.integrator.increment_text import item_title
    from state.models import Mention

    def titled(context: str, key: str = "arxiv:2702.00042") -> str:
        mention = Mention(source="inbox/x/brief.md", kind="arxiv", value="2702.00042", raw="2702.00042", line=3,
                          context=context)
        return item_title(Item(key=key, arxiv=["2702.00042"], anchors=[mention]))

    assert titled("inbox/ann 2026-03-02-0900-ann-notes.md（09:00 · 4KB · 2702.00042 …）") == "2702.00042"
    assert titled("organized/paper_cards/0042-2702-00042.md 已读") == "2702.00042"
    assert titled("10:01:02 GET 200 38KB etag 未变") == "2702.00042"
    assert titled("2026-03-02 10:01 · feed: · 0 条新条目") == "2702.00042"
    # A real name stays, even with a time or a file type in it.
    assert titled("Quokka-Serve：tool-call aware KV TTL，10:00 发布") .startswith("Quokka-Serve")
    assert titled("Markdown 解析器 md4c 的 KV 缓存") .startswith("Markdown")


def test_a_witness_discusses_the_item_and_a_coordination_note_relays_it() -> None:
    from agents.integrator.cluster import Item, Passage

    passage = Passage("inbox/ann/2026-03-02-ann-notes.md", 4, 9, "## Quokka-KV ⭐⭐⭐⭐", [(5, "- 压缩 4×")])
    listed_only = "inbox/bo/2026-03-02-bo-daily-list.md"
    check = "inbox/lead/2026-03-02-1245-lead-coordination-check-noon.md"
    item = Item(key="arxiv:2703.00001", arxiv=["2703.00001"], passages=[passage],
                sources=[passage.path, listed_only, check])
    reason = score_credibility(item, {}).reason
    assert "单一一手来源" in reason and "独立一手来源" not in reason  # bo only lists it
    assert "另有 1 份简报 / 协调记录转述" in reason  # the lead's check restates the scouts
    # Two notes that each discuss it are two witnesses.
    other = Passage(listed_only, 2, 6, "## Quokka-KV 复现", [(3, "- 我们测到 3.6×")])
    both = Item(key=item.key, arxiv=item.arxiv, passages=[passage, other], sources=item.sources)
    assert "2 个独立一手来源（ann / bo）" in score_credibility(both, {}).reason
    # Nobody discusses it: every first-hand note that names it counts, as before.
    named = Item(key=item.key, arxiv=item.arxiv, sources=[passage.path, listed_only])
    assert "2 个独立一手来源" in score_credibility(named, {}).reason


def test_a_routing_line_handing_items_to_a_person_is_read_by_its_topic_label():
    file = _File("inbox/ann/2027-02-01-ann-triage.md",
                 "## 本轮小结\n- multimodal：Quokka-VL 2702.00111 / Lumen-Vid 2702.00222 转 bo\n"
                 "- inference：Corvid-KV 2702.00333 vLLM KV cache 转 bo\n- 2702.00444 Orrery KV cache 转 bo\n")
    items = cluster_items(_mentions(file), [file])
    assert not judge_scope(_by_key(items, "arxiv:2702.00111"), _rules()).in_topic  # multimodal's, via bo
    assert "转交" in judge_scope(_by_key(items, "arxiv:2702.00222"), _rules()).reason
    assert judge_scope(_by_key(items, "arxiv:2702.00333"), _rules()).in_topic  # handed over inside the topic
    assert judge_scope(_by_key(items, "arxiv:2702.00444"), _rules()).in_topic  # no topic named: the content decides


def test_the_teams_brief_names_tell_which_topics_it_writes_for():
    from agents.scanner.e1_format import brief_topic

    assert brief_topic("inbox/bo/2027-02-01-risk-e1prep.md") == "risk"
    assert brief_topic("inbox/bo/2027-02-01-llm-infra-e1prep.baton.md") == "llm-infra"
    assert brief_topic("inbox/bo/2027-02-01-risk-e1prep-copy.md") is None
    assert brief_topic("inbox/bo/2027-02-01-notes.md") is None
    file = _File("inbox/ann/2027-02-01-ann-sec.md", "## Corvid KV cache 漏洞 2702.00555 ⭐⭐⭐⭐\n- vLLM KV cache 端口，转 bo risk 线\n")
    item = _by_key(cluster_items(_mentions(file), [file]), "arxiv:2702.00555")
    rules = _rules()
    assert judge_scope(item, rules).in_topic  # "risk" is no topic it knows
    rules = ScopeRules(**{**rules.__dict__, "known_topics": rules.known_topics | {"risk"}})
    assert not judge_scope(item, rules).in_topic and "转交" in judge_scope(item, rules).reason


def test_an_excluded_card_is_named_by_its_categories_in_the_cards_order():
    from types import SimpleNamespace

    file = _File("inbox/ann/2027-02-01-ann-cards.md", "## arXiv 2702.00666 Quokka retrieval\n- 检索重排\n")
    item = _by_key(cluster_items(_mentions(file), [file]), "arxiv:2702.00666")
    item.card = SimpleNamespace(card=42, primary="rag", secondary="llm-infra", title="Quokka retrieval",
                                summary="检索重排", path="organized/paper_cards/0042.md")
    fit = judge_scope(item, _rules())
    assert not fit.in_topic and "分类 rag/llm-infra" in fit.reason  # primary first, as the card has them


def test_a_section_the_title_names_comes_first_unless_the_paper_is_anchored_elsewhere():
    from agents.integrator.sections import _named_in

    doc = parse_living_doc(LIVING)
    body = "prefill 与 decode 的 KV cache 压缩取舍，4-bit 量化"  # words of both sections
    assert propose_section(body, doc.sections, title="Cache Compression 的五个家族").id == "§3.3"
    assert propose_section(body, doc.sections, title="Prefill-Decode Disaggregation 实践").id == "§2.3"
    anchored = propose_section(body, doc.sections, ["2609.23130"], title="Prefill-Decode Disaggregation 实践")
    assert anchored.id == "§3.3" and anchored.anchored
    assert _named_in("Context Engineering 决策框架", "§5.2 Context Engineering 与 Agentic RAG")
    assert not _named_in("KV 引擎选型", "§6.1 推理引擎选型决策树（2026）")  # a few shared words are not its name


LEAD_DOC = """---
version: 12
---
## §1.2 分布式推理编排
- Quokka-Router CNCF Sandbox：多实例前缀感知路由〔v10 · 2026-09-20〕
## §2.2 调度理论
- 前缀感知调度与 KV 命中率的上界分析；prefix cache aware scheduling 的排队模型〔v11 · 2026-09-21〕
"""


def test_an_item_named_after_a_project_goes_where_the_document_keeps_that_project() -> None:
    doc = parse_living_doc(LEAD_DOC)
    text = "prefix cache aware scheduling 排队 调度 KV 命中率"  # words that alone point at §2.2
    assert propose_section(text, doc.sections, (), "调度博客 · prefix cache aware scheduling").id == "§2.2"
    assert propose_section(text, doc.sections, (), "Quokka-Router · prefix cache aware scheduling").id == "§1.2"
    assert propose_section(text, doc.sections, (), "Quokka · prefix cache aware scheduling").id == "§2.2"  # not a prefix


@pytest.mark.parametrize(("heading", "title"), [
    ("### Quokka-Serve 架构拆解（全文精读）⭐⭐⭐⭐", "Quokka-Serve 架构拆解"),
    ("## Lumen · vLLM vs SGLang（12 min read）", "Lumen · vLLM vs SGLang"),
    ("### Tier2-B · 三家 TTFT 并表 ⭐⭐⭐", "三家 TTFT 并表"),
    ("## ③ Rowan 开源了", "Rowan 开源了"),
    ("### 2610.01234（Rowan 精度评测）—— 沿用", "Rowan 精度评测"),
    ("## §Trending（GitHub，10:30 快照）", "Trending（GitHub，10:30 快照）"),  # a § word that is the whole name
    ("### §安全线 · Rowan Leaks · arXiv 2610.01234 ⭐⭐⭐⭐", "Rowan Leaks"),
    ("## Lumen scheduler - carried over", "Lumen scheduler"),
    ("## Rowan-KV — 已锚入 §3.3", "Rowan-KV"),
    ("### ⑫ 社区实测：Lumen v2 vs v1", "社区实测：Lumen v2 vs v1"),
    ("## Lane 3: KV offload to NVMe", "KV offload to NVMe"),
    ("1. **Rowan 调度器主循环**（#5001）⭐⭐⭐⭐", "Rowan 调度器主循环（#5001）"),
    # Words of the name stay: a sequel, a hardware bracket, a word that merely starts like a label.
    ("## vLLM 生产 10 大坑（续篇）⭐⭐⭐⭐", "vLLM 生产 10 大坑（续篇）"),
    ("## Tiered KV cache（H100）", "Tiered KV cache（H100）"),
    # A bracket the identifier was taken out of keeps what else it held, without the dangling comma.
    ("Quokka 压缩新标杆（paper_card 1417，arXiv 2703.04417）", "Quokka 压缩新标杆（paper_card 1417）"),
    ("Lumen-KV（arXiv 2703.04417）", "Lumen-KV"),
    # A table row's trailing risk and status cells, a scout's remark after the name: not the name.
    ("Rowan 全流水线训练不稳定 高 续立 → 4.2", "Rowan 全流水线训练不稳定"),
    ("风险约束型淘汰：Lumen Contract 中高（arXiv 2027-03-12） 昨日续立 → 3", "风险约束型淘汰：Lumen Contract"),
    ("Q-Rowan ：多 Agent 之间传量化 KV 而不是文本，旧文，记一笔", "Q-Rowan"),
    ("Lumen ：agentic 推理 I/O 瓶颈，已锚，今天又被讨论", "Lumen"),
    ("RowanKernel （Trust-Native Agent OS，卡 1518）：今天讨论区有人把它和 Lumen 比", "RowanKernel"),
    # Near misses: a subtitle stays, in English or in Chinese; a risk word inside a name stays.
    ("Rowan Leaks：共享后端推理的侧信道攻击", "Rowan Leaks：共享后端推理的侧信道攻击"),
    ("Lumen: Efficient Multi-Turn Scheduling, with KV TTL", "Lumen: Efficient Multi-Turn Scheduling, with KV TTL"),
    ("Rowan 高并发调度", "Rowan 高并发调度"),
])
def test_a_title_is_the_name_without_the_notes_labels_and_reading_marks(heading: str, title: str) -> None:
    assert tidy_title(heading) == title


@pytest.mark.parametrize(("line", "name"), [
    ("## 1. Quokka-R：面向长上下文的 KV 分层 ⭐⭐⭐⭐", "Quokka-R"),
    ("- **Lumen-2**（Acme Labs，开源推理引擎）：吞吐 +30%", "Lumen-2"),
    ("### §3 HeronKV（作者自测）", "HeronKV"),
    ("SpillWay: Spilling KV Cache to NVMe", "SpillWay"),
    ("2) TernLM — 首 token 120ms", "TernLM"),
    ("* **vLLM**: v0.31 release notes", "vLLM"),
    # A sentence that starts with a name, and labels that are not names.
    ("## 3. vLLM 生产环境十个坑 ⭐⭐⭐", None),
    ("- Quokka-R 的提速没写条件", None),
    ("- 来源：https://acme.dev/blog", None),
    ("- arXiv: 2703.04417", None),
    ("- Note: read later", None),
    ("## 小结：inference 主轴两条", None),
])
def test_the_name_an_entry_leads_with(line: str, name: str | None) -> None:
    from agents.integrator.cluster import lead_name

    assert lead_name(line) == name


_RADAR = """# lin · 新闻雷达
## 1. Quokka-R：长上下文 KV 分层 ⭐⭐⭐⭐
- 官方博客：首 token 延迟降 38%，显存省 2.1×
- 对我们：serving 侧可以直接试；厂商数字，独立复测还没看到

## 2. Heron 家族：一周三个版本 ⭐⭐⭐
- Heron-7B 和 Heron-13B 都发了
- 权重下周开源
"""
_EVENING = """# mei · evening
## 工程线索
- **Quokka-R**（Acme，长上下文推理）：中午雷达已记，这里补定价页 https://acme.dev/models/quokka-r ⭐⭐⭐⭐
- **Heron-7B**（Heron Labs）：https://heron.dev/7b
- **Heron-13B**（Heron Labs）：https://heron.dev/13b
"""


def test_a_digested_section_joins_the_one_item_a_link_line_names_and_an_ambiguous_name_joins_none() -> None:
    files = [_File("inbox/lin/2027-03-16T1140-lin-radar.md", _RADAR),
             _File("inbox/mei/2027-03-16T1700-mei-evening.md", _EVENING)]
    items = cluster_items(_mentions(*files), files)
    [quokka] = [item for item in items if "https://acme.dev/models/quokka-r" in item.urls]
    assert "inbox/lin/2027-03-16T1140-lin-radar.md" in quokka.sources
    assert any(p.heading.startswith("## 1. Quokka-R") for p in quokka.passages)
    assert any("38%" in f.raw for f in quokka.figures)
    # "Heron" leads no link line alone (Heron-7B and Heron-13B do): its section stays in the note's digest.
    [digest] = [item for item in items if item.key.startswith("note:")]
    assert [p.heading for p in digest.passages] == ["## 2. Heron 家族：一周三个版本 ⭐⭐⭐"]
    assert not any("38%" in f.raw for f in digest.figures)


def test_a_name_two_link_lines_lead_with_joins_neither() -> None:
    evening = _EVENING.replace("https://heron.dev/13b", "https://quokka.example/other")
    evening = evening.replace("**Heron-13B**", "**Quokka-R**")
    files = [_File("inbox/lin/2027-03-16T1140-lin-radar.md", _RADAR),
             _File("inbox/mei/2027-03-16T1700-mei-evening.md", evening)]
    items = cluster_items(_mentions(*files), files)
    digests = [item for item in items if item.key.startswith("note:")]
    assert any(p.heading.startswith("## 1. Quokka-R") for d in digests for p in d.passages)
    assert not any("inbox/lin/2027-03-16T1140-lin-radar.md" in item.sources for item in items
                   if not item.key.startswith("note:"))


def test_the_topics_own_content_comes_before_adjacent_matter_however_much_that_is_discussed() -> None:
    from agents.integrator.cluster import Item, Passage
    from agents.integrator.scope import STRONG, TopicFit
    from agents.integrator.select import Judgement, cut_reason, select_items

    def row(key: str, relevance: int, lines: int, stars: int):
        passage = Passage("inbox/lin/2027-03-16-n.md", 1, lines + 1, f"## {key}",
                          [(n, f"- line {n}") for n in range(2, lines + 2)])
        item = Item(key=key, keys={key}, sources=["inbox/lin/2027-03-16-n.md", "inbox/mei/2027-03-16-m.md"],
                    passages=[passage])
        return item, Judgement("net_new"), TopicFit(True, relevance, stars=stars), 3

    core = [row(f"url:https://core{i}.dev", STRONG, 2, 2) for i in range(2)]
    adjacent = row("url:https://adjacent.dev", STRONG - 1, 10, 5)  # long, five stars, but only adjacent
    rows = [adjacent, *core]
    chosen = select_items(rows, (1, 2))
    assert [r[0].key for r in chosen] == [r[0].key for r in sorted(core, key=lambda r: r[0].key)]
    reason = cut_reason(adjacent[0], adjacent[1], adjacent[2], rows, chosen, (1, 2))
    assert "邻接" in reason and "得分低于" not in reason
    # With room left, the adjacent item is chosen after the core ones.
    assert [r[0].key for r in select_items(rows, (1, 3))][-1] == "url:https://adjacent.dev"


def test_two_notes_of_one_scout_are_one_witness_in_the_ranking() -> None:
    from agents.integrator.cluster import Item
    from agents.integrator.select import rank_score

    one_scout = Item(key="url:a", sources=["inbox/lin/2027-03-16-a.md", "inbox/lin/2027-03-16T1700-b.md"])
    two_scouts = Item(key="url:b", sources=["inbox/lin/2027-03-16-a.md", "inbox/mei/2027-03-16-b.md"])
    alone = Item(key="url:c", sources=["inbox/lin/2027-03-16-a.md"])
    with_card = Item(key="url:d", sources=["inbox/lin/2027-03-16-a.md", "organized/paper_cards/7-2703-04417.md"])
    score = {i.key: rank_score(i, "net_new", 3, 3) for i in (one_scout, two_scouts, alone, with_card)}
    assert score["url:a"] == score["url:c"] < score["url:b"] == score["url:d"]


@pytest.mark.parametrize(("raw", "known", "expected"), [
    ("25×", "2025 年的评测：吞吐 3.1×", False),
    ("3.8×", "吞吐 13.85× 于基线", False),
    ("25×", "最高 1.25× 提速", False),
    ("25×", "最高 25× 提速", True),
    ("16,200 tok/s", "SGLang 16,200 tok/s vs vLLM", True),
    ("16,200 tok/s", "116,200 tok/s", False),
    ("92.2%", "命中率 1.7%→92.2%", True),
    ("380 ms", "TTFT 380ms", True),
])
def test_a_figure_is_known_only_as_a_whole_number(raw: str, known: str, expected: bool) -> None:
    from agents.integrator.select import figure_known

    @dataclass
    class _Figure:
        raw: str

    assert figure_known(_Figure(raw), known) is expected


def test_one_name_under_two_numbers_in_the_lists_is_told_on_both_entries_and_a_list_title_is_not() -> None:
    from agents.integrator.compose import _same_name_told

    excluded = [{"title": "Lattice-KV Attack", "arxiv": ["2703.01111"], "reason": "正文无主轴关键词"}]
    below = [{"title": "Lattice-KV Attack", "arxiv": ["2603.01111"], "reason": "仅见于简报"},
             {"title": "Quokka / Lumen 对比", "arxiv": ["2703.02222"], "reason": "得分低"},
             {"title": "Quokka / Lumen 对比", "arxiv": ["2703.03333"], "reason": "得分低"}]
    carried = [{"title": "Corvid", "arxiv": ["2703.04444"], "reason": "已锚"}]
    _same_name_told(excluded, carried, below, [])
    assert excluded[0]["reason"].endswith("同名条目另有 arXiv 2603.01111（未入选），号码待核对")
    assert "arXiv 2703.01111（主轴外）" in below[0]["reason"]
    assert below[1]["reason"] == below[2]["reason"] == "得分低"  # a title listing two subjects names neither
    assert carried[0]["reason"] == "已锚"


@pytest.mark.parametrize(("bullet", "numbers", "name"), [
    ("FlowKV（arXiv 2610.00111）/ StashAttn（arXiv 2610.00222）：邻接登记——两篇互补", ["2610.00222"], "StashAttn"),
    ("FlowKV（arXiv 2610.00111）/ StashAttn（arXiv 2610.00222）：邻接登记", ["2610.00111"], "FlowKV"),
    ("Alpha 2610.00333、Beta 2610.00444: both measured on A100", ["2610.00444"], "Beta"),
    ("vLLM / SGLang 对比（arXiv 2610.00555）：同一机器", ["2610.00555"], "vLLM / SGLang 对比"),
    ("Gamma（arXiv 2610.00666）：单篇", ["2610.00666"], "Gamma"),
])
def test_a_bullet_naming_several_papers_names_each_by_its_own_part(bullet: str, numbers: list[str], name: str) -> None:
    """Each paper of a shared living-document bullet is named by the part holding its number, not the whole head."""
    from agents.integrator.cluster import Item

    item = Item(key=f"arxiv:{numbers[0]}", arxiv=numbers)
    assert bullet_name(bullet, item) == name


@pytest.mark.parametrize(("summary", "in_topic"), [
    ("长上下文 KV cache 稀疏注意力；主分类暂记 engineering，待复核是否归 inference", True),
    ("KV cache 稀疏检索线（与已锚的 Tessel、Lattice 同组）", True),
    ("KV cache 访存模式相关；inference 主轴邻接，非直接增量", False),
    ("提到 KV cache；与 inference 主轴仅在推理成本上弱相关，排除", False),
    ("KV cache 一笔带过；Tessel 只是引用", False),  # a kept name without the card tying itself to it
])
def test_a_card_filed_elsewhere_that_ties_itself_to_the_topic_is_the_topics(summary: str, in_topic: bool) -> None:
    items, _ = _items()
    paper = _by_key(items, "arxiv:2609.31415")
    paper.card = _Card(1528, "2609.31415", "Sparse lookup", "engineering", "organized/paper_cards/1528.md",
                       summary=summary)
    paper.passages, paper.anchors = [], []  # only the card speaks
    rules = replace(_rules(keywords=("KV cache",)), tracked=frozenset({"tessel", "lattice"}))
    assert judge_scope(paper, rules).in_topic is in_topic


def test_a_paper_listed_beside_others_on_one_line_is_named_by_its_own_part() -> None:
    from agents.integrator.cluster import Item
    from agents.integrator.increment_text import item_title
    from state.models import Mention

    line = "沿用：Quokka Leak（2610.00101）、加密推理窃取（2610.00202）、MCP 无状态化后的鉴权面"
    mention = Mention(source="inbox/mei/2026-10-02-risk.md", kind="arxiv", value="2610.00202", raw="2610.00202",
                      line=3, context=line)
    assert item_title(Item(key="arxiv:2610.00202", arxiv=["2610.00202"], anchors=[mention])) == "加密推理窃取"


@pytest.mark.parametrize(("heading", "head", "same"), [
    ("## §2 Quill / Heron / Wren 选型决策树 ⭐⭐⭐⭐", "Quill vs Heron vs Wren 决策树", True),
    ("## Heron 与 Quill 对比 ⭐⭐⭐", "Quill vs Heron 对比", True),
    ("### Heron-KV / Quill-Router", "Quill-Router + Heron-KV", True),
    ("## 3. Quill、Heron 选型", "Quill vs Heron 选型建议", True),
    ("## Lark-Serve benchmarks (H100)", "Lark-Serve benchmarks", True),
    ("## §4 Quill 生产 10 大坑（续篇）⭐⭐⭐⭐", "Quill v0.30.0（2026-09-22，762 commits）", False),  # one name, other words
    ("## Mooncake 部署笔记", "Mooncake", False),  # one name alone says nothing of the section's matter
    ("## Quill 部署指南", "Quill 生产坑", False),  # the same system, another subject
    ("## Quill / Heron / Wren 选型", "Quill vs Heron 选型", False),  # a name only one of them has
    ("### DeepSpark 草稿树", "DeepSpark-V4 部署", False),
    ("## 推理引擎选型", "推理引擎选型", False),  # no name at all: too loose to tie
    ("## Quill v1.2 发布", "Quill v1.1 发布", False),  # one name (versions are no names)
])
def test_a_sections_heading_names_an_anchored_bullets_subject(heading: str, head: str, same: bool) -> None:
    from agents.integrator.select import _same_subject
    assert _same_subject(heading, head) is same


def _owned(topic: str = "serving") -> ScopeRules:
    return ScopeRules(topic=topic, names=frozenset({topic}), keywords=("KV cache", "GPU", "集群", "推理"),
                      known_topics=frozenset({topic, "training"}), people=frozenset({"ann", "bo", "cy"}),
                      owners=frozenset({"ann"}))


@pytest.mark.parametrize(("line", "in_topic"), [
    ("- 转交：1 → bo / ann；2 → cy", True),  # the topic's own writer is among the receivers
    ("- 转 bo、ann 一起看", True),
    ("- 转交：1 → bo；2 → ann", False),  # item 1 goes to bo alone
    ("- → 转 bo evaluation", False),  # a person and their lane: another's
    ("- 这条先别算进 ann 的增量", False),  # not counted for this topic's writer
    ("- 预训练论文，推理只是顺带提了一嘴", False),  # the topic's matter is incidental
    ("- GPU 集群只是他们做实验的手段", False),
    ("- 对推理很重要，GPU 利用率提升明显", True),
    # A line ending in an arrow hands the item over when it names a person or a topic of the vault.
    ("- 集群运维的事 → bo training", False),
    ("- 推理侧没变化 -> cy", False),
    ("- 纯训练侧 ⇒ training", False),
    ("- 内容是 kernel 和接受率 → 我 training 线今晚收", False),  # the writer's own other lane, in words
    ("- 先看 → ann / bo", True),  # the topic's writer among the receivers
    ("- 迁移路径：Quill → Corvid", True),  # a migration, not a hand-over
    ("- 部署从 v0.29 → v0.30", True),
    # The topic's own writer, but a lane of theirs that is not this topic.
    ("- 评测方法论 → 转 ann evaluation", False),
    ("- 转 ann serving 看", True),
])
def test_a_hand_over_or_a_scope_remark_decides_by_who_and_what_it_names(line: str, in_topic: bool) -> None:
    file = _File("inbox/bo/2027-03-16T1000-bo-radar.md",
                 f"## 1. Corvid-KV arXiv 2703.04411 ⭐⭐⭐\n- GPU 上的 KV cache 分层，推理 TTFT -30%\n{line}\n")
    [item] = [i for i in cluster_items(_mentions(file), [file]) if i.key == "arxiv:2703.04411"]
    assert judge_scope(item, _owned()).in_topic is in_topic


def test_a_section_under_a_short_number_joins_the_paper_its_heading_names() -> None:
    radar = _File("inbox/bo/2027-03-16T1000-bo-radar.md",
                  "## 1. 长上下文训练\n- **Loomfold** · arXiv:2703.04412 · https://arxiv.org/abs/2703.04412\n"
                  "- 激活显存峰值 -46%\n")
    side = _File("inbox/cy/2027-03-16T1100-cy-side.md",
                 "## 5. 训练侧一篇：Loomfold\n- arXiv:2703.0441，HF 上午 20▲\n- 把激活 offload 藏进 bubble\n\n"
                 "## 6. Tarn 调度\n- arXiv:2703.0441，同号不同名\n")
    items = cluster_items(_mentions(radar, side), [radar, side])
    [paper] = [i for i in items if i.key == "arxiv:2703.04412"]
    assert "inbox/cy/2027-03-16T1100-cy-side.md" in paper.sources and "2703.0441" in paper.malformed
    assert any("Loomfold" in p.heading for p in paper.passages if p.path.startswith("inbox/cy"))
    assert not any("Tarn" in p.heading for p in paper.passages)  # a heading naming nothing of it stays apart


@dataclass
class _Front:
    data: dict


SOLE_H1 = """# 精读：Tessellate（arXiv 2610.04417）
一句话：把 prefill 切成可抢占的小块。

## 方法
- 块大小随队列长度自适应

## 实验设置
- 8×H100，Llama-3-70B，TTFT p99 降 37%

## 我的疑问
- 没有和 chunked prefill 默认配置对比 ⚠
"""
SOLE_FRONT = """# Critical read
## What they claim
- decode stalls vanish under mixed load

## Where it is thin
- one model size only; no ablation of the scheduler
"""
SOLE_LEAD = """# spark · 细读
arXiv: 2610.05521 · https://arxiv.org/abs/2610.05521 · ⭐⭐⭐⭐

## 结论
- 吞吐提升 1.4×

## 局限
- 只测了 A100
"""
TWO_PAPERS = """# 精读：Tessellate（arXiv 2610.04417）
## 方法
- 块大小自适应

## 对照：arXiv 2610.09990
- 另一篇做了同样的事

## 杂项
- 组会改到周四
"""
NO_PAPER = """# 周报
## 方法论
- 换了评测脚本

## 杂项
- 组会改到周四
"""


@pytest.mark.parametrize(("body", "front", "paper", "headings"), [
    # One paper read end to end: its sections that name nothing are that paper's.
    (SOLE_H1, None, "arxiv:2610.04417", {"## 方法", "## 实验设置", "## 我的疑问"}),
    (SOLE_FRONT, {"arxiv": "2610.07702"}, "arxiv:2610.07702", {"## What they claim", "## Where it is thin"}),
    (SOLE_FRONT, {"paper": "https://arxiv.org/abs/2610.07702v2"}, "arxiv:2610.07702", {"## What they claim"}),
    (SOLE_LEAD, None, "arxiv:2610.05521", {"## 结论", "## 局限"}),
    # Near misses: a note citing a second paper, a note citing none, a front matter naming two.
    (TWO_PAPERS, None, "arxiv:2610.04417", set()),
    (NO_PAPER, None, None, set()),
    (SOLE_FRONT, {"arxiv": "2610.07702, 2610.07703"}, None, set()),
])
def test_a_note_reading_one_paper_gives_it_its_unnamed_sections(body, front, paper, headings):
    note = _File("inbox/flyp/2026-10-06-critical-read.md", body)
    note.front = _Front(front or {})  # type: ignore[attr-defined]
    items = cluster_items(extract_mentions(note.path, body), [note])
    if paper is None:
        assert not any(k.startswith("arxiv:") for item in items for k in item.keys)
        return
    item = _by_key(items, paper)
    got = {p.heading for p in item.passages}
    assert headings <= got
    if not headings:
        assert "## 杂项" not in got and "## 方法" not in got


@pytest.mark.parametrize(("first", "second", "joined"), [
    ("## Tier1-C · Quill v2.4.1（11-02 发布）⭐⭐", "## 1. Quill v2.4.1 官方号 ⭐⭐", True),
    ("## Corvid-Serve 0.9 release ⭐⭐⭐", "## 4. corvid-serve v0.9 上 X 了 ⭐⭐", True),
    ("## Quill v2.4.1 发布 ⭐⭐", "## Quill v2.4.2 热修 ⭐⭐", False),  # another release
    ("## Tarn-3.1-8B 评测 ⭐⭐", "## Tarn-3.1-70B 部署 ⭐⭐", False),  # models by size, no release named
    ("## Quill 0.9 vs Corvid 1.2 ⭐⭐", "## Quill 0.9 更新 ⭐⭐", False),  # the first names two releases
])
def test_sections_of_two_notes_naming_one_release_are_one_item(first: str, second: str, joined: bool) -> None:
    from agents.integrator.compose import sequels_joined
    a = _File("inbox/bo/2027-03-16T1050-bo-screen.md", f"{first}\n- 发布说明：解码更快\n- 官方博客数字，待复现\n")
    b = _File("inbox/bo/2027-03-16-1140-news-radar.md", f"{second}\n- 原帖转述，同一条\n- 没有新数字\n")
    items = sequels_joined(cluster_items(_mentions(a, b), [a, b]))
    digests = [i for i in items if i.key.startswith("note:")]
    assert (len(digests) == 1) is joined
    if joined:
        assert set(digests[0].sources) == {a.path, b.path}


@pytest.mark.parametrize(("line", "joined"), [
    ("| 5 | Loomfold: Activation Offload in Bubbles | 2703.0441 | 20 |", True),
    ("- Loomfold（arXiv 2703.0441）：HF 上午 20▲", True),
    ("- Loomfold: Activation Offload in Bubbles, 2703.0441", True),
    ("- Tarn（arXiv 2703.0441）：另一篇", False),  # another name: the number stays an item of its own
    ("- 2703.0441 只扫了标题", False),  # no name at all
])
def test_a_line_under_a_short_number_joins_the_paper_its_name_names(line: str, joined: bool) -> None:
    radar = _File("inbox/bo/2027-03-16T1000-bo-radar.md",
                  "## 1. 长上下文训练\n- **Loomfold** · arXiv:2703.04412 · https://arxiv.org/abs/2703.04412\n"
                  "- 激活显存峰值 -46%\n")
    daily = _File("inbox/cy/2027-03-16-0900-hf-daily.md", f"# HF daily\n\n{line}\n")
    items = cluster_items(_mentions(radar, daily), [radar, daily])
    [paper] = [i for i in items if i.key == "arxiv:2703.04412"]
    assert (daily.path in paper.sources) is joined
    assert any("2703.0441" in i.malformed for i in items)


def test_a_slip_of_the_number_in_one_note_does_not_lower_a_papers_credibility() -> None:
    from agents.integrator.cluster import Item
    paper = Item(key="arxiv:2703.04412", arxiv=["2703.04412"], malformed=["2703.0441"],
                 sources=["inbox/bo/2027-03-16T1000-bo-radar.md", "inbox/cy/2027-03-16-0900-hf-daily.md"])
    alone = Item(key="arxiv:2703.0441", malformed=["2703.0441"], sources=["inbox/cy/2027-03-16-0900-hf-daily.md"])
    assert not any("格式错误" in r for r in score_credibility(paper, {}).reasons)
    assert any("格式错误" in r for r in score_credibility(alone, {}).reasons)
    assert score_credibility(alone, {}).score < score_credibility(paper, {}).score


def _tessel_items(extra: str = "") -> list:
    night = _File("inbox/bo/2027-03-15T2310-bo-radar.md",
                  "## Tessel · https://arxiv.org/abs/2703.02817v1 ⭐⭐⭐⭐\n"
                  "- 数字（只看了摘要）：8×H100，batch 64，吞吐 1.9×\n"
                  "- ⚠ 方法细节还没读，明天二筛时补\n- 为什么值得看：大 batch 投机解码没人正面解决\n")
    day = _File("inbox/bo/2027-03-16T1050-bo-screen.md",
                "## Tier1-A · Tessel 跨请求共享草稿树（arXiv 2703.02817）⭐⭐⭐⭐\n"
                "- 今天把方法和表 3 读了：草稿按前缀树组织\n- 主数字（表 3）：8×H100 · batch 64 → 吞吐 1.9×，vs EAGLE-2 1.6×\n"
                f"{extra}")
    evening = _File("inbox/bo/2027-03-16T1735-bo-wrapup.md",
                    "# 晚间收尾\n\n## 3. Tessel 补一句\n- 又看了 §6：agent trace 上收益从 1.9× 降到 1.4×\n\n## 4. 杂项\n- 组会改期\n")
    card = _Card(1571, "2703.02817", "Tessel: Cross-Request Draft Tree Sharing", "inference",
                 "organized/paper_cards/1571-2703-02817.md")
    files = [night, day, evening]
    return cluster_items(_mentions(*files), files, [card])


def test_a_section_leading_with_an_items_name_joins_it_rated_or_not() -> None:
    [paper] = [i for i in _tessel_items() if "arxiv:2703.02817" in i.keys]
    headings = {p.heading for p in paper.passages}
    assert "## 3. Tessel 补一句" in headings and "## 4. 杂项" not in headings
    assert any("1.4×" in f.raw for f in paper.figures)


def test_key_points_give_every_reading_its_say_and_drop_what_a_later_reading_settles() -> None:
    from agents.integrator.increment_text import key_points
    from agents.integrator.select import Judgement
    [paper] = [i for i in _tessel_items() if "arxiv:2703.02817" in i.keys]
    points = key_points(paper, Judgement("net_new"))
    said = "\n".join(points)
    assert "1.4×" in said and "1.6×" in said  # the later readings' figures
    assert "还没读" not in said  # the author read it the next morning
    assert "只看了摘要" not in said  # its 1.9× is said again, with more, later


def test_a_pending_line_stays_when_the_author_never_came_back() -> None:
    from agents.integrator.increment_text import key_points
    from agents.integrator.select import Judgement
    night = _File("inbox/bo/2027-03-15T2310-bo-radar.md",
                  "## Tessel · https://arxiv.org/abs/2703.02817v1 ⭐⭐⭐⭐\n- 吞吐 1.9×（8×H100）\n"
                  "- ⚠ 方法细节还没读，明天二筛时补\n")
    other = _File("inbox/cy/2027-03-16T1050-cy-screen.md", "## Tessel（arXiv 2703.02817）\n- 思路：前缀树共享草稿\n")
    [paper] = [i for i in cluster_items(_mentions(night, other), [night, other]) if "arxiv:2703.02817" in i.keys]
    assert any("还没读" in p for p in key_points(paper, Judgement("net_new")))


@pytest.mark.parametrize(("line", "bookkeeping"), [
    ("- → D231（RFC 说 v0.9 落地）可以闭合：确实落地了", True),  # settles a register entry
    ("- 同一配置两个数，新挂 **D236**，晚上写清楚口径", True),  # raises one
    ("- 训练集群运维 → bo training", True),  # only hands the item over
    ("- 转 cy", True),
    ("- 数字：8×H100 上吞吐 1.9×，vs EAGLE-2 1.6×", False),
    ("- FP8 MoE 训练 recipe + expert 并行通信重叠；推理侧没变化 → bo", False),  # says something first
    ("- 和 D206 是同一类问题：精度没按统一协议测", False),  # names an entry, neither settles nor raises it
])
def test_the_registers_and_lanes_business_is_no_key_point(line: str, bookkeeping: bool) -> None:
    from agents.integrator.increment_text import _bookkeeping
    assert _bookkeeping(line) is bookkeeping


_DOC_SECTIONS = parse_living_doc("---\nversion: 3\n---\n## §1.(3) KV Cache\n- Heron：KV 分层〔v1 · 2027-03-01〕\n"
                                 "## §1.(7) 存储与分层内存\n- CXL 内存池作 KV 溢出层〔v2 · 2027-03-02〕\n"
                                 "## §2.4 调度\n- Quill 调度〔v2 · 2027-03-02〕\n").sections


@pytest.mark.parametrize(("lines", "first"), [
    ([("inbox/bo/n.md", "- 建议 → ann serving §1.(7)")], "§1.(7)"),
    ([("inbox/bo/n.md", "- 和已锚内容的关系：活文档 §1.(7) 那条只是定性判断")], "§1.(7)"),
    ([("organized/paper_cards/1571-2703-04417.md", "serving §1.(7) 存储与分层内存：本文提供实测")], "§1.(7)"),
    ([("inbox/bo/n.md", "- → §1.(3) / §1.(7)")], "§1.(3)"),  # the first one a placing word points at
    ([("inbox/bo/n.md", "- 活文档都有（§1.(7)）"), ("inbox/bo/n.md", "- 建议归入：§1.(3)")], "§1.(3)"),
    # Near misses: another topic's section, the note's own heading label, a bare mention.
    ([("inbox/bo/n.md", "- training §1.(7) 也提过")], None),
    ([("inbox/bo/n.md", "### §2.4 Quill 调度"), ("inbox/bo/n.md", "- serving 候选：Quill（§2.4）")], None),
    ([("inbox/bo/n.md", "- 我们 §1.(3) 里的数字都是小 batch")], None),
])
def test_the_scouts_own_placement_names_the_section(lines: list, first: str | None) -> None:
    from agents.integrator.sections import own_labels, placed_sections
    labels = {"inbox/bo/n.md": own_labels("\n".join(line for path, line in lines if path == "inbox/bo/n.md"))}
    found = placed_sections(lines, _DOC_SECTIONS, ["serving"], ["training"], labels)
    assert (found[0] if found else None) == first


def test_an_unrated_repost_of_a_release_joins_the_release() -> None:
    from agents.integrator.compose import sequels_joined
    from agents.integrator.increment_text import item_title
    a = _File("inbox/bo/2027-03-16T1050-bo-screen.md", "## Tier1-C · Quill v2.4.1（03-14 发布）⭐⭐\n- 发布说明：解码更快\n- 官方博客数字\n")
    b = _File("inbox/bo/2027-03-16-1620-csdn-repost.md",
              "# CSDN 转载\n\n## 【转载】Quill 2.4.1 正式发布：解码和 FP8 终于能一起开\n- 跟上午那条是同一件事\n- 没有新数字\n\n"
              "## 评论区\n- 有人问 batch 32\n")
    items = sequels_joined(cluster_items(_mentions(a, b), [a, b]))
    [release] = [i for i in items if i.key.startswith("note:") and a.path in i.sources]
    assert b.path in release.sources
    assert "Quill v2.4.1" in item_title(release) and "CSDN" not in item_title(release)
    assert not any(p.heading == "## 评论区" for i in items for p in i.passages)


@pytest.mark.parametrize(("key", "headings", "subject", "title", "named"), [
    # A paper's caveat is named by the paper's lead name, not a section label or a cut-off title.
    ("arxiv:2703.03391", ["## Tier1-B · Tessel 跨层折叠"], "Tier1-B", "Tessel: Cross-Layer KV Folding for Decoding", "Tessel"),
    # A one-release digest's caveat is named after the release.
    ("note:inbox/bo/n.md", ["## Tier1-C · Quill v2.4.1（03-14 发布）"], "Tier1-C", "Quill v2.4.1（03-14 发布）",
     "Quill v2.4.1（03-14 发布）"),
    # A digest of several subjects keeps the claim's own name.
    ("note:inbox/bo/n.md", ["## 1. Quill 部署", "## 2. Heron 调度"], "Heron", "bo 晚报——Quill 部署 / Heron 调度", "Heron"),
])
def test_a_caveat_on_an_item_is_named_after_it(key: str, headings: list, subject: str, title: str, named: str) -> None:
    from agents.integrator.cluster import Item, Passage
    from agents.integrator.compose import _named_for_item
    passages = [Passage("inbox/bo/n.md", 10 * i + 1, 10 * i + 5, h, [(10 * i + 2, "- ⚠ 只测了一组配置")])
                for i, h in enumerate(headings)]
    item = Item(key=key, keys={key}, passages=passages, sources=["inbox/bo/n.md"],
                arxiv=[key.split(":")[1]] if key.startswith("arxiv:") else [])
    warning = BriefWarning(id="", kind="caveat", subject=subject, sources=["inbox/bo/n.md"],
                           text=f"{subject}：来源作者自注存疑——inbox/bo/n.md L{passages[-1].start + 1}：「只测了一组配置」。")
    renamed = _named_for_item(warning, [(item, None, None, 0)], {key: (None, [], None, title)})
    assert renamed.subject == named and renamed.text.startswith(f"{named}：")


@pytest.mark.parametrize(("heading", "name"), [
    ("## B. 《Corvid：以线速搬运 KV Cache》⭐⭐", "Corvid"),
    ("## Corvid · 开源的 GPU 间 KV 搬运库 ⭐⭐⭐⭐", "Corvid"),
    ("## 3. Ember-1：基于稀疏路由", "Ember-1"),
    ("## A. 《看得见的 KV Cache 收益》", None),  # no name leads it
    ("## vLLM 的坑", None),  # a sentence, not a label
])
def test_a_heading_leads_with_a_name_as_its_label(heading: str, name: str | None) -> None:
    from agents.integrator.cluster import lead_name
    assert lead_name(heading) == name


def test_a_translation_is_the_page_it_renders_and_a_repost_joins_the_item_its_heading_names() -> None:
    night = _File("inbox/bo/2027-03-15T2110-bo-late.md",
                  "## Corvid · 开源的 GPU 间 KV 搬运库 ⭐⭐⭐⭐\n- 仓库：https://github.com/acme/corvid\n- 400G RoCE 单卡 38 GB/s\n")
    csdn = _File("inbox/bo/2027-03-16-1620-csdn.md",
                 "# CSDN\n\n## A. 《看得见的 KV Cache 收益》⭐⭐⭐\n"
                 "- 译文，原文是官方博客（https://heron.example/blog/kv-wins），译者注了出处\n- 内容跟原文一致\n\n"
                 "## B. 《Corvid：以线速搬运 KV Cache》⭐⭐\n- README 的中文转述，数字一样\n- 同一个东西，不重复计\n")
    items = cluster_items(_mentions(night, csdn), [night, csdn])
    [blog] = [i for i in items if "url:https://heron.example/blog/kv-wins" in i.keys]
    assert any("看得见的" in p.heading for p in blog.passages)
    [repo] = [i for i in items if any("github.com/acme/corvid" in k for k in i.keys)]
    assert any("以线速搬运" in p.heading for p in repo.passages)
    assert not any(i.key.startswith("note:") for i in items)
    from agents.integrator.increment_text import item_title
    assert item_title(repo).startswith("Corvid")


def test_an_llm_topic_is_also_named_by_its_short_form() -> None:
    from types import SimpleNamespace

    from agents.integrator.compose import topic_names
    infra = SimpleNamespace(name="llm-infra", title="llm-infra", living_doc="organized/knowledge/llm-infra.md", aliases=[])
    assert "infra" in topic_names(infra)
    serving = SimpleNamespace(name="serving", title="Serving", living_doc="organized/knowledge/serving.md", aliases=[])
    assert topic_names(serving) == {"serving"}



def test_a_carried_version_conflict_is_no_doubt_on_todays_item_writing_one_of_the_versions() -> None:
    from agents.integrator.cluster import Item, Passage
    from agents.integrator.compose import _states_version
    item = Item(key="arxiv:2709.38112", arxiv=["2709.38112"], sources=["inbox/jay/n.md"],
                passages=[Passage("inbox/jay/n.md", 1, 3, "## Tessel", [(2, "- 基线：Quill v0.30.0，batch 64")])])
    new = BriefWarning(id="", kind="version_conflict", text="Quill 0.3.3 vs 0.30.0", subject="Quill",
                       sources=["inbox/jay/n.md"], key="version_conflict:scheme:Quill:0.3.3,0.30.0")
    assert _states_version(new, item)
    assert not _states_version(new.model_copy(update={"carried_from": "register D195"}), item)


@pytest.mark.parametrize(("line", "witnesses"), [
    ("- 快讯内容全部来自摘要和作者线程，我这里只是记一下传播面，不另算", 1),
    ("- 量子位那篇只是复述摘要，别当独立来源", 1),
    ("- 我自己把表 3 对了一遍，吞吐 1.9×", 2),  # a reading of its own
])
def test_a_source_that_says_it_only_relays_is_no_witness(line: str, witnesses: int) -> None:
    from agents.integrator.credibility import witness_notes
    a = _File("inbox/bo/2027-03-16T1450-bo-screen.md", "## Tessel（arXiv 2703.38214）⭐⭐⭐⭐\n- 吞吐 1.9×（H100）\n")
    b = _File("inbox/cy/2027-03-16-0910-cy-radar.md", f"## 量子位：Tessel（arXiv 2703.38214）\n{line}\n")
    [paper] = [i for i in cluster_items(_mentions(a, b), [a, b]) if "arxiv:2703.38214" in i.keys]
    assert len(witness_notes(paper)) == witnesses


@pytest.mark.parametrize(("headings", "title"), [
    # A digest of one subject and its sequel is named by the subject, not by the note and a list of sections.
    (["## Lumen 生产 8 大坑 ⭐⭐⭐⭐", "## Lumen 生产 8 大坑（续篇）⭐⭐⭐"], "Lumen 生产 8 大坑"),
    (["## Rowan 调度 (part 1)", "## Rowan 调度 (part 2)"], "Rowan 调度"),
    # Near miss: two subjects keep the note's name and both sections.
    (["## Lumen 生产 8 大坑 ⭐⭐⭐⭐", "## Rowan 调度笔记 ⭐⭐⭐"], "CSDN 合集——Lumen 生产 8 大坑 / Rowan 调度笔记"),
])
def test_a_digest_of_one_subject_and_its_sequel_is_named_by_the_subject(headings: list[str], title: str) -> None:
    from agents.integrator.cluster import Item, Passage
    from agents.integrator.increment_text import item_title

    passages = [Passage(path="inbox/lin/2027-03-16-n.md", start=3 + 5 * i, end=7 + 5 * i, heading=h, lines=[])
                for i, h in enumerate(headings)]
    item = Item(key="note:inbox/lin/2027-03-16-n.md", title="CSDN 合集", passages=passages)
    assert item_title(item) == title


@pytest.mark.parametrize(("line", "joined"), [
    ("- 就是 10-11 简报增量 1 那篇（arXiv 2709.40921），作者今天把代码和生产 trace 一起放了", True),
    ("- this is the paper we carried on Monday (arXiv 2709.40921); code is out today", True),
    # Near misses: a paper named in passing, or two papers.
    ("- 思路和 arXiv 2709.40921 有点像，但不是一回事", False),
    ("- 就是 2709.40921 和 2709.40922 两篇的合体", False),
])
def test_a_section_saying_which_paper_it_is_is_that_papers(line: str, joined: bool) -> None:
    note = _File("inbox/lin/2027-10-12-n.md",
                 f"# lin\n\n## 1. Quokka 代码开源（github.com/quokka/quokka）⭐⭐⭐⭐\n\n{line}\n  - 命中率 84%，TTFT p50 -41%\n")
    items = cluster_items(extract_mentions(note.path, note.body), [note])
    paper = next(i for i in items if "2709.40921" in i.arxiv)
    assert bool(paper.passages) is joined


@pytest.mark.parametrize(("lines", "other", "gives_way"), [
    # The tied item restates two of the chosen item's own figures: it gives way to the one that does not.
    (["- Orrery 站：吞吐 21,400 vs 17,900 tok/s，TTFT 63 ms"], ["- 吞吐 21,400 vs 17,900 tok/s"], True),
    (["- throughput 21,400 vs 17,900 tok/s on H200 (per the Orrery post)"], ["- 21,400 / 17,900 tok/s"], True),
    # One shared figure is a coincidence, not a restatement; nor is a year or a version.
    (["- 吞吐 21,400 tok/s，P99 880 ms"], ["- 21,400 tok/s，P99 1,240 ms"], False),
    (["- 2026 年 v0.30.1 发布，延迟 1,250 ms"], ["- 2026 年 v0.30.1 的数字：延迟 3,100 ms"], False),
])
def test_a_tie_goes_to_the_item_that_does_not_repeat_a_chosen_ones_figures(lines: list[str], other: list[str],
                                                                             gives_way: bool) -> None:
    from agents.integrator.cluster import Item, Passage
    from agents.integrator.scope import STRONG, TopicFit
    from agents.integrator.select import Judgement, cut_reason, rank_score, select_items

    def row(key: str, body: list[str]):
        passage = Passage("inbox/lin/2027-03-16-n.md", 1, len(body) + 1, f"## {key}",
                          [(n, line) for n, line in enumerate(body, start=2)])
        item = Item(key=key, keys={key}, sources=["inbox/lin/2027-03-16-n.md"], passages=[passage])
        return item, Judgement("integrated"), TopicFit(True, STRONG, stars=3), 3

    first = row("url:https://a-first.dev", [*other, "- 另一行", "- 再一行"])
    repeating = row("url:https://b-repeats.dev", lines)
    fresh = row("url:https://c-fresh.dev", ["- 没有数字的一行"])
    scores = {round(rank_score(r[0], r[1].status, r[3], r[2].relevance, r[2].stars), 1) for r in (repeating, fresh)}
    assert len(scores) == 1  # a true tie: only the repetition decides
    rows = [first, repeating, fresh]
    chosen = select_items(rows, (1, 2))
    assert chosen[0][0].key == "url:https://a-first.dev"
    picked = {r[0].key for r in chosen}
    assert ("url:https://c-fresh.dev" in picked) == gives_way
    if gives_way:
        reason = cut_reason(repeating[0], repeating[1], repeating[2], rows, chosen, (1, 2),
                            {"url:https://a-first.dev": "Orrery 对比"})
        assert "持平" in reason and "「Orrery 对比」" in reason


@pytest.mark.parametrize(("url", "key"), [
    ("https://github.com/tarn-ai/tarn/blob/v0.4.0/README.md", "url:https://github.com/tarn-ai/tarn"),
    ("https://github.com/tarn-ai/tarn/tree/main/docs", "url:https://github.com/tarn-ai/tarn"),
    ("https://github.com/tarn-ai/tarn", "url:https://github.com/tarn-ai/tarn"),
    ("https://github.com/tarn-ai/tarn/pull/42", "pr:tarn-ai/tarn#42"),                     # a PR is its own item
    ("https://github.com/tarn-ai/tarn/releases/tag/v0.4.0", "url:https://github.com/tarn-ai/tarn/releases/tag/v0.4.0"),
    ("https://gitlab.com/tarn-ai/tarn/blob/main/README.md", "url:https://gitlab.com/tarn-ai/tarn/blob/main/README.md"),
])
def test_a_repositorys_files_are_the_repository(url: str, key: str) -> None:
    from agents.integrator.cluster import _url_key

    assert _url_key(url) == key


@pytest.mark.parametrize(("bullet", "names"), [
    ("NVIDIA Dynamo 1.0：KVBM 多级 KV 块管理", {"nvidia", "dynamo"}),    # a vendor's product
    ("AMD Quark v0.9：量化工具链", {"amd", "quark"}),
    ("Quokka v1.1：前缀路由", {"quokka"}),
    ("Orrion Gateway 入选沙箱", {"orrion"}),                             # a two-word name, no vendor
])
def test_a_vendors_product_is_tracked_by_its_own_name(bullet: str, names: set[str]) -> None:
    from agents.integrator.scope import tracked_subjects

    class B:
        text = bullet

    assert tracked_subjects([B()]) == names


@pytest.mark.parametrize(("other", "joined"), [
    # A second note's section on the same release joins the item its link made; another version does not.
    ("# mei\n\n## 2. Tarn v1.1.0 —— 补另一档并发\n\n- 同一张表另一行：并发 128，TTFT 改善 1.8×\n- 博客解释：读带宽先饱和\n", True),
    ("# mei\n\n## 2. Tarn 1.1.0 另一行数字\n\n- 并发 128：TTFT 改善 1.8×\n- 带宽先饱和\n", True),
    ("# mei\n\n## 2. Tarn v1.2.0 预告\n\n- 下个版本加 GPU 直读\n- 日期未定\n", False),
])
def test_sections_of_one_release_in_two_notes_are_one_item(other: str, joined: bool) -> None:
    first = ("# lin\n\n## §1 Orbis Tarn v1.1.0 ⭐⭐⭐⭐\n\n- 来源：https://github.com/orbis-ai/tarn/releases/tag/v1.1.0\n"
             "- 新远端层；并发 32 时 TTFT 改善 2.6×\n")
    files = [_File("inbox/lin/2027-03-16T1040-lin-radar.md", first), _File("inbox/mei/2027-03-16_mei-notes.md", other)]
    items = cluster_items(_mentions(*files), files)
    owner = next(i for i in items if any("releases/tag" in u for u in i.urls))
    assert ("inbox/mei/2027-03-16_mei-notes.md" in owner.sources) == joined


@pytest.mark.parametrize(("heading", "joined"), [
    ("## 我的评估 ⭐⭐⭐", True),      # a label of the note's one subject
    ("## 结论 ⭐⭐⭐", True),
    ("## Quokka 对比 ⭐⭐⭐", False),   # a section naming something else is its own
])
def test_a_label_only_section_of_a_note_about_one_thing_is_that_things(heading: str, joined: bool) -> None:
    note = ("---\ntime: 2027-03-16T14:10:00+08:00\n---\n# flyp · 速读 · kvtrace（eBPF 版 KV 观测）\n\n"
            "## 它是什么\n\n- 仓库：https://github.com/kvtrace-dev/kvtrace ，v0.2.0\n- 给引擎装 USDT 探针，按前缀哈希聚合 KV 事件\n\n"
            f"{heading}\n\n1. 采集器要 CAP_BPF，多租户要过安全评审\n2. 开销 <2% 只有 README 一句，作者自测\n")
    files = [_File("inbox/flyp/2027-03-16-flyp-kvtrace.md", note)]
    items = cluster_items(_mentions(*files), files)
    owner = next(i for i in items if any("kvtrace-dev" in u for u in i.urls))
    assert (len(owner.passages) == 2) == joined


@pytest.mark.parametrize(("elsewhere", "adopted"), [
    ("", True),                                                        # the page is cited nowhere else
    ("\n## Orrion 文档\n- https://docs.orrion.dev/pd.html 新页面\n", False),  # a section of its own elsewhere
])
def test_a_link_a_section_gives_in_its_prose_is_that_sections(elsewhere: str, adopted: bool) -> None:
    note = ("# lin\n\n## §2 Orrion PD 分离文档改口了 —— D175 有结果 ⭐⭐⭐\n- 文档页把 experimental 撤了\n"
            "- 两处表述已一致，D175 可以关；晚上确认一下页面（https://docs.orrion.dev/pd.html ）\n")
    files = [_File("inbox/lin/2027-03-16T1040-lin-radar.md", note)]
    if elsewhere:
        files.append(_File("inbox/mei/2027-03-16T1500-mei-docs.md", "# mei\n" + elsewhere))
    items = cluster_items(_mentions(*files), files)
    section = next(i for i in items if any("改口" in p.heading for p in i.passages))
    assert ("https://docs.orrion.dev/pd.html" in " ".join(section.urls)) == adopted


@pytest.mark.parametrize(("line", "independent"), [
    ("- 同一张表我补抄一行：并发 128，TTFT 改善 1.8×", False),     # a second copy of the vendor's table
    ("- 来源：README 的 benchmark 表（表头注明\"同发布博客\"）", False),
    ("- same table as mei's note, the 128-concurrency row", False),
    ("- 我在自己的 H100 上复现了一遍：TTFT 改善 2.4×", True),        # a measurement of one's own
])
def test_a_second_copy_of_the_same_page_is_no_independent_witness(line: str, independent: bool) -> None:
    from agents.integrator.cluster import Item, Passage
    from agents.integrator.credibility import witness_notes

    first = Passage("inbox/lin/2027-03-16-a.md", 1, 3, "## Tarn v1.1", [(2, "- 官方表：并发 32，TTFT 改善 2.6×")])
    second = Passage("inbox/mei/2027-03-16-b.md", 1, 3, "## Tarn v1.1 另一行", [(2, line)])
    item = Item(key="url:https://tarn.dev/blog", keys={"url:https://tarn.dev/blog"},
                sources=[first.path, second.path], passages=[first, second], urls=["https://tarn.dev/blog"])
    assert (second.path in witness_notes(item)) == independent
