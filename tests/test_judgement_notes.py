"""What a note says of itself and of its items decides, on a hand-made vault (no sample vault needed).

- A note whose preamble or summary says it holds nothing for the topic ("本轮 serving 相关度低",
  "nothing new for serving") speaks for every item only it discusses; one section's remark does not.
- "没有新结论" / "no new findings" on an item's own lines carries it.
- An old paper carded today is said in the item; it is a warning only where the queue ranks it first.
- A number missing a digit under the same name is counted under the full number, and listed.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from agents.integrator.compose import integrate
from agents.integrator.markdown import render_markdown
from agents.integrator.scope import quiet_notes
from agents.scanner.window import scan_window
from agents.verifier.checks import run_checks
from state.models import Brief
from state.vault_config import load_vault_config
from tests.test_integrator_compose import _vault

DAY = date(2026, 9, 29)


def _brief(root: Path) -> Brief:
    scan = scan_window(load_vault_config(root), "inference", DAY)
    warnings = run_checks(scan.mentions, scan.cards, {}, DAY, scan.thread)
    return integrate(scan, warnings, None, [{"jay": 1}] * 14, scan.thread)


def run_with_store(root: Path, day: date = DAY) -> Brief:
    """The day's brief through the whole run (store, register, promises), not only the integrator."""
    from state.settings import settings_from_env
    from workflows import api

    ctx = api.open_context(settings_from_env(root, root / ".baton", offline=True, formats=("json",)))
    try:
        outcome = api.run_brief(ctx, "inference", day)
    finally:
        ctx.db.dispose()
    return Brief.model_validate_json(Path(next(d for d in outcome.drafts if d.endswith(".json"))).read_text("utf-8"))


def _where(brief: Brief, arxiv_id: str) -> str:
    for name, rows in (("increment", [{"arxiv": i.arxiv} for i in brief.increments]), ("carried", brief.carried),
                       ("below_cut", brief.below_cut), ("excluded", brief.excluded)):
        if any(arxiv_id in (row.get("arxiv") or []) for row in rows):
            return name
    return "nowhere"


@pytest.mark.parametrize("preamble", [
    "> 本轮 inference 相关度低，主要给 rag 线",
    "> inference NET-new：无（都是检索侧）",
    "> inference 主轴：无 NET-new",
])
def test_a_note_that_says_it_holds_nothing_for_the_topic_speaks_for_its_items(tmp_path: Path, preamble: str) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1600-jay-rag.md").write_text(
        f"# jay · RAG 线\n{preamble}\n\n## Tidepool · arXiv 2609.30001 ⭐⭐⭐\n"
        "- 检索与 KV cache 混合：prefill 前先取粗粒度文档\n- 只比了质量\n", encoding="utf-8")
    brief = _brief(root)
    [row] = [x for x in brief.excluded if "2609.30001" in (x.get("arxiv") or [])]
    assert "相关度低" in row["reason"] or "无新增" in row["reason"]


def test_one_sections_remark_does_not_silence_the_rest_of_the_note(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1600-jay-mixed.md").write_text(
        "# jay · 下午\n\n## Tidepool · arXiv 2609.30001 ⭐⭐⭐⭐\n- KV cache 分层：prefill 节省 35%，vLLM 上实测\n\n"
        "## Saltmarsh · arXiv 2609.30002 ⭐⭐\n- 检索评测集\n- 本条 inference 相关度低\n", encoding="utf-8")
    brief = _brief(root)
    assert _where(brief, "2609.30001") == "increment"


@pytest.mark.parametrize(("text", "quiet"), [
    ("# x\n> 本轮 serving 相关度低\n## A\n- a", True),
    ("# x\n## A\n- a\n## 本轮小结\n- serving NET-new：无", True),
    ("# x\n## A\n- a\n## Summary\n- serving: 无 NET-new", True),
    ("# x\n> nothing new for serving today\n## A\n- a", True),
    ("# x\n## A\n- serving 相关度低\n## B\n- b", False),  # one section's remark
    ("# x\n> 本轮 training 相关度低\n## A\n- a", False),  # another topic
    ("# x\n> serving NET-new：3 件\n## A\n- a", False),
])
def test_note_level_remarks_are_read_from_the_preamble_and_the_summary(text: str, quiet: bool) -> None:
    class _Note:
        path = "inbox/lin/2027-03-16-x.md"
        body = text

    assert bool(quiet_notes([_Note()], {"serving"})) is quiet


def test_no_new_findings_on_an_items_lines_carries_it(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1600-jay-bench.md").write_text(
        "# jay · 复测\n\n## Corvid H100 复测 ⭐⭐⭐⭐\nhttps://corvid.example/bench/h100\n"
        "- vLLM 2,480 tok/s，TTFT 162 ms，prefix caching 开\n- 没有新结论，价值在于又一个独立源\n", encoding="utf-8")
    brief = _brief(root)
    assert not [i for i in brief.increments if any("corvid.example" in u for u in i.urls)]
    assert any("corvid.example" in x["key"] for x in brief.carried)


_OLD_CARD = """---
card: 1600
arxiv: "2506.04321"
title: "Quokka: Tool-Aware KV Retention for Multi-Turn Serving"
primary: inference
kind: system
ingested: 2026-09-29T04:00+08:00
status: classified
---
## 要点
- 多轮 agent 负载下按工具调用时长保留 KV cache，prefill 重算减少，vLLM 原型
"""
_QUEUE = """# work-queue

## 2026-09-29 08:00

| rank | arXiv | title | card | flag |
|---|---|---|---|---|
| 1 | 2506.04321 | Quokka: Tool-Aware KV Retention for Multi-Turn Serving | 1600 | Top 0.5 |
"""


def test_an_old_paper_carded_today_is_said_in_the_item_not_warned_of(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "organized/paper_cards/1600-2506-04321.md").write_text(_OLD_CARD, encoding="utf-8")
    brief = _brief(root)
    assert not [w for w in brief.warnings if w.kind == "date_mismatch"]
    assert any(x["kind"] == "date_mismatch" and "work-queue" in x["reason"] for x in brief.set_aside)
    [inc] = [i for i in brief.increments if "2506.04321" in i.arxiv]
    assert "并非新作" in inc.argument and "2506" in inc.argument


def test_an_old_paper_the_queue_ranks_first_is_a_warning(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "organized/paper_cards/1600-2506-04321.md").write_text(_OLD_CARD, encoding="utf-8")
    (root / "organized/queue").mkdir(parents=True, exist_ok=True)
    (root / "organized/queue/work-queue.md").write_text(_QUEUE, encoding="utf-8")
    brief = _brief(root)
    [warning] = [w for w in brief.warnings if w.kind == "date_mismatch"]
    [inc] = [i for i in brief.increments if "2506.04321" in i.arxiv]
    assert warning.id in inc.argument and warning.id in inc.warnings


def test_a_number_missing_a_digit_is_counted_under_the_full_one_and_listed(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1600-jay-a.md").write_text(
        "# jay\n\n## Quillstream · arXiv 2609.30017v2 ⭐⭐⭐⭐\n- KV cache 跨请求复用，TTFT 降 40%，vLLM 原型\n",
        encoding="utf-8")
    (root / "inbox/jay/2026-09-29T1700-jay-b.md").write_text(
        "# jay\n\n## 表\n- Quillstream 2609.3001（昨天那篇，prefill 侧）\n", encoding="utf-8")
    brief = _brief(root)
    assert not [w for w in brief.warnings if w.kind == "id_malformed"]
    assert brief.repaired_ids == [{"written": "2609.3001", "id": "2609.30017", "why": brief.repaired_ids[0]["why"],
                                   "sources": ["inbox/jay/2026-09-29T1700-jay-b.md"]}]
    [inc] = [i for i in brief.increments if "2609.30017" in i.arxiv]
    assert "inbox/jay/2026-09-29T1700-jay-b.md" in inc.sources
    assert _where(brief, "2609.3001") == "nowhere"
    text = render_markdown(brief)
    assert "2609.3001 → 2609.30017" in text
    # The header's check line counts it too: "格式错误 0" alone would contradict the list.
    assert "号码笔误 1 处已按正确号码归并" in text


def test_a_section_whose_source_line_has_its_link_below_is_about_that_page(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1600-jay-bench.md").write_text(
        "# jay · 生产数据\n\n### Lumen vs Corvid：多轮场景 TTFT ⭐⭐⭐⭐⭐\n\n"
        "- 原文：corvid.example 2026-09-20「Lumen vs Corvid as a model server」\n"
        "  https://corvid.example/blog/lumen-vs-corvid\n"
        "- 多轮 Agent：Lumen TTFT 85ms，Corvid 380ms；KV cache 命中率 78.6% vs 41.2%，vLLM 默认配置\n",
        encoding="utf-8")
    brief = _brief(root)
    [inc] = [i for i in brief.increments if any("corvid.example/blog" in u for u in i.urls)]
    assert "多轮" in inc.title and any("85ms" in p for p in inc.points)
    assert not [x for x in brief.below_cut if "corvid.example" in x["key"] and "列表" in x["reason"]]


def test_a_page_that_is_itself_a_digest_is_no_first_hand_source(tmp_path: Path) -> None:
    from agents.integrator.cluster import cluster_items
    from agents.integrator.credibility import score_credibility
    from agents.scanner.mentions import extract_mentions
    from tests.test_integrator_units import _File

    def credibility(source_line: str) -> tuple[int, str]:
        note = _File("inbox/jay/2026-09-29T1600-x.md", f"## Quokka v2.1 发布 ⭐⭐⭐\n\n{source_line}\n"
                     "  https://tracker.example/issues/12\n- Quokka v2.1 稳定版，KV cache 卸载默认开启\n")
        [item] = [i for i in cluster_items(extract_mentions(note.path, note.body), [note]) if i.urls]
        found = score_credibility(item, {})
        return found.score, found.reason

    relayed, why = credibility("- 来源：Weekly Infra Digest（自动追踪）")
    first_hand, _ = credibility("- 来源：作者博客")
    assert relayed == first_hand - 1 and "汇总" in why


def test_an_item_only_another_brief_lists_is_cut_as_a_relay(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/spark/").mkdir(parents=True, exist_ok=True)
    (root / "inbox/spark/2026-09-29-llm-infra-e1prep.md").write_text(
        "# llm-infra · E1 预消化简报(2026-09-29)\n\n二、增量条目\n\n增量 1：arXiv 2609.30055 Tidepool KV cache 分层（⭐⭐⭐⭐）\n"
        "- KV cache 分层卸载，prefill 降 30%，vLLM 集成\n", encoding="utf-8")
    brief = _brief(root)
    assert not [i for i in brief.increments if "2609.30055" in i.arxiv]
    rows = [x for x in [*brief.below_cut, *brief.excluded, *brief.carried] if "2609.30055" in (x.get("arxiv") or [])]
    assert rows and all("转述" in x["reason"] or "主轴" in x["reason"] for x in rows)


def test_key_points_are_the_notes_own_sentences_not_links_or_a_briefs_relay() -> None:
    from agents.integrator.cluster import cluster_items
    from agents.integrator.increment_text import key_points
    from agents.integrator.select import Judgement
    from agents.scanner.mentions import extract_mentions
    from tests.test_integrator_units import _File

    note = _File("inbox/jay/2027-03-16T0900-x.md",
                 "## Lumen-KV · arXiv 2703.04417 ⭐⭐⭐⭐\n- https://arxiv.org/html/2703.04417v1 ；演示：https://demo.example/lumen\n"
                 "- 方案：主缓存 + 稀疏差分，prefill 快 1.9×\n\n| # | 配置 | speedup | 备注 |\n|---|---|---|---|\n"
                 "| 1 | Lumen-KV + vLLM | 2.7× | 同 SLO |\n")
    brief = _File("inbox/tom/2027-03-16-serving-e1prep.md",
                  "增量 1：arXiv 2703.04417 Lumen-KV\n- 与 §5.1 已锚的级联故障形成两端，Hub 100%\n")
    mentions = [*extract_mentions(note.path, note.body), *extract_mentions(brief.path, brief.body)]
    [item] = [i for i in cluster_items(mentions, [note, brief]) if i.arxiv == ["2703.04417"]]
    points = key_points(item, Judgement("net_new"))
    assert not any(p.startswith("https://") for p in points)
    assert any(p.startswith("方案：主缓存") for p in points)
    assert any(p.startswith("Lumen-KV + vLLM（第 1）：speedup 2.7×") for p in points)
    assert not any(brief.path in p for p in points)  # the notes say enough; the brief only relays them


def test_an_item_its_scout_finds_little_new_in_is_cut_with_those_words(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1600-jay-survey.md").write_text(
        "# jay\n\n### KV cache 管理综述（Corvid Labs）⭐⭐⭐\n- Corvid Labs KV cache 综述 arXiv 2609.30071\n"
        "- 按分配 / 压缩 / 卸载组织，prefill 与 decode 各一节，vLLM 支持矩阵\n- 综述类，新意一般；可作引用入口\n",
        encoding="utf-8")
    brief = _brief(root)
    assert not [i for i in brief.increments if "2609.30071" in i.arxiv]
    [row] = [x for x in brief.below_cut if "2609.30071" in (x.get("arxiv") or [])]
    assert "新意" in row["reason"] and "综述" in row["title"]  # the heading's paper: its section is its own


_REGISTER = """---
updated: 2026-09-27T22:30:00+08:00
---

| D | 内容 | 风险 | 首次提出 | 状态 | 来源 |
|---|---|---|---|---|---|
| D50 | Tidepool arXiv 2609.31415 误差只在 2 个公开 trace 上验证 | ⚠⚬⚬ 中低 | 2026-09-20 | 待核 | jay 9-20 |
| D51 | 某视频数据集标注口径不一 | ⚠⚬ 低 | 2026-09-21 | 待核 | tom 9-21 |
"""


def test_an_open_register_entry_about_a_paper_the_window_names_is_carried_whatever_its_words(
        tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "organized/registry").mkdir(parents=True, exist_ok=True)
    (root / "organized/registry/contradictions.md").write_text(_REGISTER, encoding="utf-8")
    brief = run_with_store(root)
    listed = {e["d"] for e in brief.register_open}
    assert "D50" in listed  # no topic keyword in its words, but about a paper of the window
    assert "D51" not in listed  # neither the topic's words nor the window's papers


def test_an_open_register_entry_the_living_document_cites_is_carried(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "organized/registry").mkdir(parents=True, exist_ok=True)
    register = _REGISTER + "| D52 | 某评测框架的打分口径两份文档不一 | ⚠⚬⚬ 中低 | 2026-09-22 | 待核 | jay 9-22 |\n"
    (root / "organized/registry/contradictions.md").write_text(register, encoding="utf-8")
    living = root / "organized/knowledge/inference.md"
    text = living.read_text(encoding="utf-8")
    # Append to the first section's bullets: a bullet that cites D52 as its open question.
    first = text.index("\n- ")
    living.write_text(text[:first] + "\n- Wrenbench 打分器：评测口径见 D52〔v9 · 2026-09-20〕" + text[first:], encoding="utf-8")
    brief = run_with_store(root)
    listed = {e["d"] for e in brief.register_open}
    assert "D52" in listed and "D51" not in listed


@pytest.mark.parametrize(("line", "flag"), [
    ("- work-queue 标 Top 0.5。", "Top 0.5"),
    ("- 队列里是 Top 15，等深读", "Top 15"),
    ("- queue flag: Top 0.5", "Top 0.5"),
    ("- flagged Top 0.5 in the work-queue this morning", "Top 0.5"),
    ("- 精读队列列为 top 15", "Top 15"),
    ("- Quokka 进了 Top 10 榜单", None),  # a leaderboard, not the queue
    ("- work-queue 今天没更新", None),
    ("- Top 0.5% 的请求占了一半显存", None),
    ("- 排队（queue）延迟 Top 15 ms", None),
    ("- top-k 采样 0.5", None),
])
def test_a_notes_word_on_the_queue_flag(line: str, flag: str | None) -> None:
    from agents.scanner.queue import claimed_flag

    claim = claimed_flag(line)
    assert (claim[0] if claim else None) == flag


def test_a_queue_flag_the_days_snapshot_does_not_bear_out_is_said_beside_the_queues_own(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "organized/queue").mkdir(parents=True, exist_ok=True)
    (root / "organized/queue/work-queue.md").write_text(_QUEUE, encoding="utf-8")
    (root / "inbox/jay/2026-09-29T1600-jay-a.md").write_text(
        "# jay\n\n## Quillstream · arXiv 2609.30017 ⭐⭐⭐⭐\n- KV cache 跨请求复用，TTFT 降 40%，vLLM 原型\n"
        "- work-queue 标 Top 0.5\n\n## 今日\n- 另见 arXiv 2506.04321（work-queue Top 0.5）、arXiv 2609.30017\n",
        encoding="utf-8")
    brief = _brief(root)
    [inc] = [i for i in brief.increments if "2609.30017" in i.arxiv]
    assert inc.work_queue is None
    assert inc.work_queue_claim == {"flag": "Top 0.5", "source": "inbox/jay/2026-09-29T1600-jay-a.md", "line": 5}
    assert "work-queue 当日快照未列此号" in render_markdown(brief)


def test_a_version_conflict_is_linked_to_each_increment_whose_own_note_writes_a_disputed_version(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1200-jay-c.md").write_text(
        "# jay · CSDN\n\n## Quokka 生产调优十条 ⭐⭐⭐⭐\n- 作者环境标注 Quokka 0.3.3，A100 ×8，KV cache 调优后 P99 延迟 -60%\n"
        "- prefix caching 打开后 TTFT 降 35%\n", encoding="utf-8")
    (root / "inbox/jay/2026-09-29T1600-jay-release.md").write_text(
        "# jay · release\n\n## Quokka v0.30.0 ⭐⭐⭐⭐\n- https://github.com/quokka-ai/quokka/releases/tag/v0.30.0\n"
        "- KV cache offload 默认打开，prefill 吞吐 +25%\n", encoding="utf-8")
    (root / "inbox/tom/2026-09-29T1700-tom-radar.md").write_text(
        "# tom · radar\n\n## 调度器对比 ⭐⭐⭐⭐\n- https://blog.example.org/schedulers\n"
        "- 对比了 Quokka 与 Corvid 的 KV cache 调度，TTFT 差 20%\n", encoding="utf-8")
    brief = _brief(root)
    [conflict] = [w for w in brief.warnings if w.kind == "version_conflict"]
    csdn = [i for i in brief.increments if (i.key or "").endswith("jay-c.md")]
    other = [i for i in brief.increments if "blog.example.org" in " ".join(i.urls)]
    assert csdn and conflict.id in csdn[0].warnings
    assert not other or conflict.id not in other[0].warnings  # names Quokka, writes no version


@pytest.mark.parametrize(("line", "point"), [
    ("- https://arxiv.org/html/2703.04417v1 · 分类 cs.DC", None),  # where it is and its category: no point
    ("- <https://arxiv.org/abs/2703.04417>（2027-02 的论文，今天在 HN 上被翻出来，之前漏了）",
     "2027-02 的论文，今天在 HN 上被翻出来，之前漏了"),
    ("- https://doi.org/10.48550/arXiv.2703.04417 （v2 2027-03-02，代码和权重都开源了）", "v2 2027-03-02，代码和权重都开源了"),
    ("- https://lumen.example/blog — 作者博客，讲了 prefill 分批为什么能省 30% 显存", "作者博客，讲了 prefill 分批为什么能省 30% 显存"),
    ("- https://lumen.example/blog", None),
])
def test_a_key_point_led_by_its_link_is_what_follows_the_link(line: str, point: str | None) -> None:
    from agents.integrator.cluster import cluster_items
    from agents.integrator.increment_text import key_points
    from agents.integrator.select import Judgement
    from agents.scanner.mentions import extract_mentions
    from tests.test_integrator_units import _File

    note = _File("inbox/jay/2027-03-16T0900-x.md", f"## Lumen-KV · arXiv 2703.04417 ⭐⭐⭐⭐\n{line}\n"
                 "- 方案：主缓存 + 稀疏差分，prefill 快 1.9×\n")
    [item] = [i for i in cluster_items(extract_mentions(note.path, note.body), [note]) if i.arxiv == ["2703.04417"]]
    points = [p.rsplit("（inbox/", 1)[0] for p in key_points(item, Judgement("net_new"))]
    assert not any("http" in p for p in points)
    assert (point in points) if point else points == ["方案：主缓存 + 稀疏差分，prefill 快 1.9×"]
