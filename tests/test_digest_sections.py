"""A note's rated sections without a paper or a link: each ends in exactly one list, for its own reason.

A scout's digest note mixes subjects: one section is the topic's news, another is marked already
anchored, another handed to a colleague, another set aside, another about something else. The
digest increment holds only the first kind and is named after what it holds; every other section
is listed (carried or excluded) with the words that put it there. Phrasings here are not the
sample vault's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from state.models import Brief
from tests.test_integrator_compose import _vault
from tests.test_judgement_notes import _brief, run_with_store

NOTE = """# jay · 周末杂记

> 2026-09-29 16:00 · 几个社区帖子，按主题记

## A. Rowan 调度器的 prefill 分批 ⭐⭐⭐⭐
- 把长 prompt 的 prefill 切成 512 token 一批，和 decode 交错跑
- 作者在 vLLM 上测：TTFT p99 从 2.1 s 降到 0.9 s

## B. Quokka 推理网关 ⭐⭐⭐
- 网关层按 KV cache 命中路由，decode 节点独立扩缩
{anchored}

## C. 图像扩散采样加速 ⭐⭐⭐
- 扩散模型 4 步采样，和 LLM 推理无关
{forward}

## D. 推理引擎入门综述 ⭐⭐
- PagedAttention、continuous batching、KV cache 量化的科普
{discard}

## E. 周末烘焙笔记 ⭐⭐
- 酸面包发酵温度和时间的对照表
- 与工作无关，随手记
"""


def _placed(brief: Brief, path: str) -> dict[str, list[tuple[str, dict]]]:
    """Every list entry of a note's sections (key ends with #L<line>) or of its digest, by list."""
    found: dict[str, list[tuple[str, dict]]] = {}
    rows = [("increment", {"key": i.key, "title": i.title}) for i in brief.increments]
    rows += [(name, row) for name in ("carried", "below_cut", "excluded") for row in getattr(brief, name)]
    for name, row in rows:
        key = str(row.get("key") or "")
        if key.startswith(f"note:{path}"):
            found.setdefault(key, []).append((name, row))
    return found


@pytest.mark.parametrize(("anchored", "forward", "discard"), [
    ("- 已锚：§3.1 已有 Quokka 条目，本段只是复述", "- 交给 flyp（多模态）", "- 结论：不另列"),
    ("- already anchored in §3.1; restating", "- forward to flyp", "- not listed separately"),
    ("- 9-27 沿用，数字没变", "- （转 stephen）", "- 处理：剔除，太泛"),
])
def test_each_section_of_a_digest_ends_in_exactly_one_list(tmp_path: Path, anchored: str, forward: str,
                                                           discard: str) -> None:
    root = _vault(tmp_path)
    path = "inbox/jay/2026-09-29T1600-jay-weekend.md"
    (root / path).write_text(NOTE.format(anchored=anchored, forward=forward, discard=discard), encoding="utf-8")
    placed = _placed(_brief(root), path)
    assert all(len(where) == 1 for where in placed.values()), placed  # nothing listed twice
    by_title = {row["title"]: (name, row) for where in placed.values() for name, row in where}
    digest = next(name for name, (_, row) in by_title.items() if "Rowan" in name)
    assert by_title[digest][0] in ("increment", "below_cut")
    assert "Quokka" not in digest and "烘焙" not in digest  # the digest is named after what it holds
    quokka = next(v for k, v in by_title.items() if k.startswith("Quokka"))
    assert quokka[0] == "carried" and "已锚 / 沿用" in quokka[1]["reason"]
    diffusion = next(v for k, v in by_title.items() if "扩散" in k)
    assert diffusion[0] == "excluded" and "转交" in diffusion[1]["reason"]
    survey = next(v for k, v in by_title.items() if "综述" in k)
    assert survey[0] == "excluded" and "丢弃 / 不单列" in survey[1]["reason"]
    baking = next(v for k, v in by_title.items() if "烘焙" in k)
    assert baking[0] == "excluded" and "相关度 0" in baking[1]["reason"]
    assert all(f"{path} L" in row["reason"] for k, (name, row) in by_title.items() if name != "increment" and k != digest)


def test_a_digest_with_no_section_of_the_topic_is_listed_section_by_section(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    path = "inbox/jay/2026-09-29T1700-jay-offtopic.md"
    (root / path).write_text(
        "# jay · 杂项\n\n## 1. 园艺 ⭐⭐⭐\n- 番茄搭架的三种方法\n- 下周再试\n\n"
        "## 2. 相机评测 ⭐⭐\n- 两款无反的对焦速度\n- 转 flyp\n", encoding="utf-8")
    placed = _placed(_brief(root), path)
    assert len(placed) == 2 and all(where[0][0] == "excluded" for where in placed.values())
    reasons = sorted(where[0][1]["reason"] for where in placed.values())
    assert "转交" in reasons[0] + reasons[1] and "相关度" in reasons[0] + reasons[1]


def _warned(brief: Brief, words: str) -> list[str]:
    return [w.text for w in brief.warnings if words in w.text]


def test_a_correction_of_what_the_living_document_says_is_raised_with_the_bullet(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1620-jay-notes.md").write_text(
        "# jay · 下午\n\n## Mooncake 回看\n"
        "- Correction: the \"KV cache hit 92.2%\" was measured with prefix reuse on; without it the paper gives 61%\n",
        encoding="utf-8")
    [text] = _warned(_brief(root), "来源更正")
    assert "活文档 §3.3 现记" in text and "92.2%" in text


def test_a_correction_of_a_conflicts_figures_is_said_in_that_conflict(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1620-jay-notes.md").write_text(
        "# jay · 下午\n\n## QuillServe\n- QuillServe TTFT 120ms（benchhub.io，A100）\n", encoding="utf-8")
    (root / "inbox/tom/2026-09-29T1700-tom-notes.md").write_text(
        "# tom\n\n## QuillServe 复测\n- QuillServe TTFT 340ms（Lumen blog，A100）\n"
        "- 勘误：上午说 Lumen blog 的 QuillServe 用的是 H100，其实是 A100\n", encoding="utf-8")
    brief = _brief(root)
    conflicts = [w for w in brief.warnings if w.kind == "number_conflict" and "QuillServe" in (w.subject or "")]
    assert len(conflicts) == 1 and "来源更正" in conflicts[0].text
    assert not [w for w in brief.warnings if w.kind == "caveat" and "来源更正" in w.text]  # one claim, one warning
    assert any("已并入该条" in x["reason"] for x in brief.set_aside)


def test_a_correction_of_nothing_this_topic_holds_is_set_aside_with_its_reason(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1620-jay-notes.md").write_text(
        "# jay · 下午\n\n## 园艺\n- 更正：番茄搭架那条是 Pinecrest 园艺站的，不是 Fernhill\n", encoding="utf-8")
    brief = _brief(root)
    assert not _warned(brief, "来源更正")
    assert any("来源更正" in x["text"] and x["reason"] for x in brief.set_aside)


ENTRIES = """# jay · 源码导读

{lead}

## 一、引擎源码（3）

1. **Rowan 调度器主循环**（#5001）⭐⭐⭐⭐
   - prefill 与 decode 统一按 token budget 排，长 prompt 切块和 decode 混批
2. **Quokka KV cache 块哈希**（#5002）⭐⭐⭐⭐
   - prefix caching 的块哈希 = 父块哈希 + 本块 token；命中后 ref count +1
   - 请求结束后块进 free queue 尾部，只是可被复用
3. **酸面包发酵**（#5003）⭐⭐
   - 温度和时间的对照表，与工作无关
"""


def _code_reading(tmp_path: Path, lead: str) -> tuple[Brief, str]:
    root = _vault(tmp_path)
    path = "inbox/jay/2026-09-29T1600-jay-code-reading.md"
    (root / path).write_text(ENTRIES.format(lead=lead), encoding="utf-8")
    return _brief(root), path


@pytest.mark.parametrize("lead", [
    "都是读代码笔记型，价值在于给新人当导航。",
    "Code-reading notes for newcomers; pointers only.",
])
def test_rated_list_entries_are_sections_of_the_digest(tmp_path: Path, lead: str) -> None:
    brief, path = _code_reading(tmp_path, lead)
    placed = _placed(brief, path)
    titles = {row["title"]: name for where in placed.values() for name, row in where}
    # Every rated entry is somewhere, a one-line entry too; the off-topic one is excluded on its own.
    assert any("Rowan" in t for t in titles) and any("Quokka" in t for t in titles)
    assert next(name for t, name in titles.items() if "酸面包" in t) == "excluded"
    assert all("**" not in t for t in titles)


@pytest.mark.parametrize("lead", [
    "都是读代码笔记型，没有新数据；价值在于给新人当导航。",
    "Code-reading notes; no new data, only pointers into the source.",
])
def test_a_note_that_says_it_has_no_new_data_is_no_increment(tmp_path: Path, lead: str) -> None:
    brief, path = _code_reading(tmp_path, lead)
    assert not [i for i in brief.increments if i.key.startswith(f"note:{path}")]
    rows = [r for r in brief.below_cut if r["key"].startswith(f"note:{path}")]
    assert rows and all("新意有限" in r["reason"] and lead[:8] in r["reason"] for r in rows)


PAPER = """# jay · 论文

## Quokka-KV arXiv:2701.04242 ⭐⭐⭐⭐
- 问题：多轮 agent 的 prefill 在每轮重算共享前缀，TTFT 随轮数线性增长
- 方案：把共享前缀的 KV cache 按轮次版本化，只重算 delta
- 数字：vLLM 上 TTFT p50 -41%（H100，8 并发）
{judgement}
"""


@pytest.mark.parametrize(("judgement", "said"), [
    ("- 对我们：agent 负载的 prefix caching 直接受益，值得进 §3", "来源判断：「agent 负载的 prefix caching 直接受益"),
    ("- Takeaway: round-level KV reuse beats per-request reuse for agents", "来源判断：「round-level KV reuse"),
    ("", "来源概述：问题「多轮 agent 的 prefill"),  # no judgement line: the problem and the approach
])
def test_the_core_argument_is_the_scouts_own_judgement_not_a_template(tmp_path: Path, judgement: str,
                                                                      said: str) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1500-jay-papers.md").write_text(PAPER.format(judgement=judgement), encoding="utf-8")
    [increment] = [i for i in _brief(root).increments if "2701.04242" in i.arxiv]
    assert increment.argument.startswith(said), increment.argument
    assert "inbox/jay/2026-09-29T1500-jay-papers.md L" in increment.argument


SUMMARY = """# jay · 晚间

## §1 Rowan 调度器的 prefill 分批 ⭐⭐⭐⭐
- 把长 prompt 的 prefill 切成 512 token 一批，和 decode 交错跑
- vLLM 上 TTFT p99 从 2.1 s 降到 0.9 s

## §2 Quokka 网关的 KV cache 路由 ⭐⭐⭐
- 网关层按 KV cache 命中路由，prefill 与 decode 节点独立扩缩
- 作者说 vLLM 和 SGLang 都能接

## 小结
{handover}
"""


@pytest.mark.parametrize("handover", ["- 转交：§2 → flyp（gateway 线）", "- Forward: §2 -> flyp", "- 交给：§2、§9 ⇒ flyp"])
def test_a_summary_handing_a_section_over_by_its_label_excludes_that_section(tmp_path: Path, handover: str) -> None:
    root = _vault(tmp_path)
    path = "inbox/jay/2026-09-29T2000-jay-evening.md"
    (root / path).write_text(SUMMARY.format(handover=handover), encoding="utf-8")
    placed = _placed(_brief(root), path)
    by_title = {row["title"]: (name, row) for where in placed.values() for name, row in where}
    [(name, row)] = [v for k, v in by_title.items() if "Quokka" in k]
    assert name == "excluded" and "转交" in row["reason"] and handover.lstrip("- ")[:6] in row["reason"]
    assert any("Rowan" in k and v[0] in ("increment", "below_cut") for k, v in by_title.items())


def test_a_note_doubting_one_paper_under_its_number_and_its_name_gives_one_warning(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    path = "inbox/jay/2026-09-29T1500-jay-papers.md"
    text = PAPER.format(judgement="- ⚠ 统计显著性、每组跑了几次，摘要和 PDF 附录里都没有") + "\n## 待核\n- 待核：Quokka-KV 显著性；别家 2.3× 的条件\n"
    (root / path).write_text(text, encoding="utf-8")
    brief = _brief(root)
    about = [w for w in brief.warnings if w.kind == "caveat" and ("2701.04242" in (w.subject or "")
                                                                  or "Quokka-KV" in (w.subject or ""))]
    assert len(about) == 1 and "统计显著性" in about[0].text and "Quokka-KV 显著性" in about[0].text
    assert any("已并入该条" in row["reason"] for row in brief.set_aside)


def test_a_link_under_a_papers_heading_is_the_papers_not_an_item_of_its_own(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1500-jay-papers.md").write_text(
        PAPER.format(judgement="- https://arxiv.org/html/2701.04242v1 ；交互演示：https://demo.example.org/quokka-kv"),
        encoding="utf-8")
    brief = _brief(root)
    [increment] = [i for i in brief.increments if "2701.04242" in i.arxiv]
    assert any("demo.example.org" in u for u in increment.urls)
    listed = [*brief.excluded, *brief.below_cut, *brief.carried]
    assert not [row for row in listed if "demo.example.org" in str(row.get("key"))]


def test_an_increment_stating_figures_its_sources_disagree_on_says_so_in_its_argument(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T1500-jay-papers.md").write_text(
        PAPER.format(judgement="- Quokka-KV TTFT 120ms（H100，8 并发）"), encoding="utf-8")
    (root / "inbox/tom/2026-09-29T1700-tom-recheck.md").write_text(
        "# tom · 复核\n\n## Quokka-KV arXiv:2701.04242 复核\n- Quokka-KV TTFT 310ms（H100，8 并发），和上午记的差很多\n",
        encoding="utf-8")
    brief = _brief(root)
    conflicts = [w for w in brief.warnings if w.kind == "number_conflict"]
    [increment] = [i for i in brief.increments if "2701.04242" in i.arxiv]
    assert conflicts and "数字各源不一" in increment.argument and conflicts[0].id in increment.argument


NUMBERED = """# jay · 雷达

## 1. Quokka-KV 调度 · arXiv:2702.00011 ⭐⭐⭐⭐
- vLLM 上按 KV cache 命中排队，prefill 和 decode 分池，TTFT p99 降 30%

## 2. Lumen-VLA · arXiv:2702.00012 ⭐⭐
- 机器人操作的 VLA 预训练数据配方；decode 时也用了 KV cache 和 vLLM

## 小结
- 转交：1 → {owner}；2 → lin
"""


def test_a_numbered_section_handed_to_another_agent_by_the_summary_is_theirs(tmp_path: Path) -> None:
    from tests.test_judgement_notes import _where

    root = _vault(tmp_path)
    (root / "inbox/lin").mkdir(parents=True, exist_ok=True)
    (root / "inbox/lin/2026-09-29T0900-lin-notes.md").write_text("# lin\n\n- 今天看图像生成\n", encoding="utf-8")
    owner = "tom"
    (root / "inbox/jay/2026-09-29T1140-jay-radar.md").write_text(NUMBERED.format(owner=owner), encoding="utf-8")
    brief = _brief(root)
    assert _where(brief, "2702.00012") == "excluded"
    assert any("转交：2 → lin" in row["reason"] for row in brief.excluded if "2702.00012" in row.get("arxiv", []))
    assert _where(brief, "2702.00011") in ("increment", "below_cut")  # handed to the topic's own writer: still here


def test_a_scouts_word_on_a_promise_is_said_in_the_promises_warning(tmp_path: Path) -> None:
    root = _vault(tmp_path)
    (root / "inbox/jay/2026-09-29T0900-jay-news.md").write_text(
        "# jay · 新闻\n\n## Quokka ⭐⭐⭐\n- Quokka 让 vLLM 之间直接传 KV cache；研究团队计划于 2026-10 发布 Quokka serving system。\n",
        encoding="utf-8")
    (root / "inbox/jay/2026-09-29T1700-jay-evening.md").write_text(
        "# jay · 晚间\n\n## 跟进\n- Quokka：上午记的「计划于 2026-10 发布 Quokka serving system」，官方仓库还没动静 ⚠⚬⚬\n",
        encoding="utf-8")
    brief = run_with_store(root)
    promises = [w for w in brief.warnings if w.kind == "promise_open"]
    assert len(promises) == 1 and "来源跟进" in promises[0].text and "官方仓库还没动静" in promises[0].text
    assert not [w for w in brief.warnings if w.kind == "caveat" and "官方仓库" in w.text]


def test_a_section_about_what_the_living_document_keeps_an_entry_for_is_carried_not_off_topic(
        tmp_path: Path) -> None:
    root = _vault(tmp_path)
    living = root / "organized/knowledge/inference.md"
    text = living.read_text(encoding="utf-8")
    first = text.index("\n- ")
    living.write_text(text[:first] + "\n- Wrenfield Routing Extension：按队列长度挑端点〔v9 · 2026-09-20〕" + text[first:],
                      encoding="utf-8")
    path = "inbox/jay/2026-09-29T1100-jay-cloud.md"
    (root / path).write_text("# jay · 云原生\n\n### §Cloud.2 Wrenfield Routing Extension ⭐⭐⭐\n"
                             "- CRD 字段改了名，老配置要迁移\n- 和路由那条一起看即可\n", encoding="utf-8")
    placed = _placed(_brief(root), path)
    [(name, row)] = [v for where in placed.values() for v in where]
    assert name == "carried" and "已有该条目" in row["reason"] and "Wrenfield Routing Extension" in row["reason"]


@pytest.mark.parametrize("other", ["- Corvid 已锚（inference §2，活文档），沿用", "- Corvid：living doc §2 已锚，沿用",
                                   "- 见 llm-infra.md §2 已锚入，沿用"])
def test_a_section_number_after_another_documents_name_is_not_the_notes_own_section(tmp_path: Path,
                                                                                     other: str) -> None:
    from agents.integrator.cluster import _referenced, passages_of

    text = SUMMARY.format(handover=other)
    path = "inbox/jay/2026-09-29T2000-jay-evening.md"
    passages = passages_of(path, text)
    own = next(p for p in passages if p.heading.startswith("## §2"))
    _referenced(passages, passages)
    assert own.references == []
    handed = passages_of(path, SUMMARY.format(handover="- 转交：§2 → flyp"))
    _referenced(handed, handed)
    assert [line for _, line in next(p for p in handed if p.heading.startswith("## §2")).references] == ["- 转交：§2 → flyp"]


ROUTED = """# jay · 午间合集

## 1. Rowan 调度器的 prefill 分批 ⭐⭐⭐⭐
- 把长 prompt 的 prefill 切成 512 token 一批，和 decode 交错跑
- vLLM 上 TTFT p99 从 2.1 s 降到 0.9 s

## 2. Quokka 网关的 KV cache 路由 ⭐⭐⭐
- 网关层按 KV cache 命中路由，vLLM 的 prefill 与 decode 节点独立扩缩
- 作者说 vLLM 和 SGLang 都能接

## 3. 向量库选型 ⭐⭐⭐
- Milvus vs PGVector，亿级用 Milvus
- 召回 top-50 再 rerank，vLLM 跑 reranker 的 KV cache 也能复用

## 小结
{summary}
"""


@pytest.mark.parametrize(("summary", "kept", "out"), [
    ("- inference 相关：§1 Rowan 调度器\n- 其余是网关 / 向量库，转 stephen（应用线）", {"Rowan"}, {"Quokka", "向量库"}),
    ("- inference 相关：1、2\n- 其他部分交给 tom（rag）", {"Rowan", "Quokka"}, {"向量库"}),
    ("- inference: §2 only\n- the rest goes to tom (rag)", {"Quokka"}, {"Rowan", "向量库"}),
])
def test_a_summary_keeping_some_sections_for_the_topic_and_routing_the_rest_excludes_the_rest(
        tmp_path: Path, summary: str, kept: set[str], out: set[str]) -> None:
    root = _vault(tmp_path)
    path = "inbox/jay/2026-09-29T1230-jay-noon.md"
    (root / path).write_text(ROUTED.format(summary=summary), encoding="utf-8")
    placed = _placed(_brief(root), path)
    rows = [(name, row) for where in placed.values() for name, row in where]
    excluded = " ".join(row["title"] for name, row in rows if name == "excluded" and "其余转交" in row["reason"])
    elsewhere = " ".join(row["title"] for name, row in rows if name != "excluded")
    assert all(word in excluded for word in out), rows
    assert all(word in elsewhere and word not in excluded for word in kept), rows


@pytest.mark.parametrize("summary", [
    "- 其余是网关 / 向量库，转 stephen",  # no line says which sections are the topic's
    "- training 相关：§3\n- 其余转 tom",  # another topic's sections named
    "- inference 相关：见上\n- 其余转 tom",  # no section named
])
def test_a_rest_line_without_the_topics_own_list_routes_nothing(tmp_path: Path, summary: str) -> None:
    root = _vault(tmp_path)
    path = "inbox/jay/2026-09-29T1230-jay-noon.md"
    (root / path).write_text(ROUTED.format(summary=summary), encoding="utf-8")
    placed = _placed(_brief(root), path)
    rows = [row for where in placed.values() for _, row in where]
    assert not any("其余转交" in str(row.get("reason", "")) for row in rows)


SHARED_NOTE = """# jay · 晚间扫描

## §1 Rowan 调度器的 prefill 分批 ⭐⭐⭐⭐
- 把长 prompt 的 prefill 切成 512 token 一批，和 decode 交错跑
- vLLM 上 TTFT p99 从 2.1 s 降到 0.9 s

## §2 Heron 工作流框架的版本矩阵 ⭐⭐⭐
- 框架 1.2 与 1.3 的检查点格式不兼容，升级要先导出
- 生产上锁 1.2.x

## §3 Otter 多租户计费 ⭐⭐⭐
- 按租户计费的账单视图，偏财务
- 和工作流框架一起看

## 小结
- inference 相关：§1 Rowan、§2 Heron 版本矩阵
- 转交：§2 / §3 → stephen（应用线）
"""


def test_a_section_the_note_lists_for_the_topic_stays_though_also_handed_over(tmp_path: Path) -> None:
    """"inference 相关：§1、§2" with "转交：§2 / §3 → stephen": §2 is shared (the topic's, not given away),
    §3 is given away; §2 says nothing of the topic's matter, so it is listed on its own below the cut rather
    than bundled into the digest's news."""
    root = _vault(tmp_path)
    path = "inbox/jay/2026-09-29T2000-jay-shared.md"
    (root / path).write_text(SHARED_NOTE, encoding="utf-8")
    placed = _placed(_brief(root), path)
    rows = [(name, row) for key, found in placed.items() for name, row in found]
    [digest] = [row for name, row in rows if name == "increment"]
    assert "Rowan" in digest["title"] and "Heron" not in digest["title"]
    heron = [row for name, row in rows if name == "below_cut" and "Heron" in row["title"]]
    assert heron and "来源小结列为本主轴相关" in heron[0]["reason"]
    otter = [row for name, row in rows if name == "excluded" and "Otter" in row["title"]]
    assert otter and "stephen" in otter[0]["reason"]


TWO_SUBJECTS = """# jay · 夜读

## 1. Lark 调度器：prefill 分批 ⭐⭐⭐⭐
- 长 prompt 的 prefill 切成 256 token 一批，与 decode 交错；vLLM 上 TTFT p99 1.8 s → 0.7 s
- 作者只测了单卡 H100

## 2. 投机解码：Wren 草稿树 ⭐⭐⭐⭐
- draft 树宽 4、深 6，接受率 0.71；vLLM 上 decode 吞吐 2.2×
- draft 模型的 KV cache 单独分池
- 大 batch 下收益缩小

## 3. SGLang / vLLM 选型对比 ⭐⭐⭐
- 多轮 agent → SGLang；模型覆盖优先 → vLLM
- 先用真实流量 profiling 再迁移
"""
TREE_BULLET = "\n## §6.1 选型\n- vLLM vs SGLang 对比：prefix-heavy → SGLang；覆盖优先 → vLLM〔v9 · 2026-09-24〕\n"


def test_sections_of_one_note_on_different_subjects_are_items_of_their_own(tmp_path: Path) -> None:
    """One note, three rated sections: two subjects of their own (each its own increment, named after its
    section alone) and one that restates an anchored bullet under its own heading (carried, not sold as new)."""
    root = _vault(tmp_path)
    living = root / "organized/knowledge/inference.md"
    living.write_text(living.read_text(encoding="utf-8") + TREE_BULLET, encoding="utf-8")
    path = "inbox/jay/2026-09-29T2100-jay-night.md"
    (root / path).write_text(TWO_SUBJECTS, encoding="utf-8")
    brief = _brief(root)
    mine = [i for i in brief.increments if i.key.startswith(f"note:{path}")]
    titles = sorted(i.title for i in mine)
    assert len(mine) == 2 and "Lark" in titles[0] and "Wren" in titles[1], titles
    assert all(("Lark" in t) != ("Wren" in t) for t in titles)  # neither bundles the other
    [tree] = [r for r in brief.carried if r["key"].startswith(f"note:{path}")]
    assert "选型对比" in tree["title"] and "§6.1" in tree["reason"]


def test_a_notes_summary_routes_its_own_sections_not_a_sequel_from_another_note(tmp_path: Path) -> None:
    """Note A: "inference 相关：§1" then "其余转 tom"; note B continues A's §1 under its own "§4 …（续篇）".
    The sequel joins A's item; A's routing line does not exclude it (it routes A's sections only)."""
    root = _vault(tmp_path)
    first = "inbox/jay/2026-09-29T1200-jay-noon.md"
    (root / first).write_text(
        "# jay · 午间\n\n## §1 Lark 部署踩坑 ⭐⭐⭐⭐\n- KV cache 块不回收，显存只涨不降\n- TP=4 无 NVLink 比 TP=2 慢\n\n"
        "## §2 向量库选型 ⭐⭐⭐\n- 三家向量库对比\n- 召回差不多\n\n## 小结\n- inference 相关：§1\n- 其余是向量库，转 tom（rag）\n",
        encoding="utf-8")
    second = "inbox/jay/2026-09-29T1600-jay-evening.md"
    (root / second).write_text(
        "# jay · 傍晚\n\n## §4 Lark 部署踩坑（续篇）⭐⭐⭐⭐\n- 补了调优项：KV usage 进告警，vLLM 日志关掉\n"
        "- 调优后 P99 延迟 -80%\n", encoding="utf-8")
    brief = _brief(root)
    assert not [r for r in brief.excluded if r["key"].startswith(f"note:{second}")]
    [lark] = [i for i in brief.increments if "Lark" in i.title]
    assert second in lark.sources and first in lark.sources
