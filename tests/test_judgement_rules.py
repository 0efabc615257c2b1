"""Rules from the review of issue 8, on hand-made inputs: the author's own words decide."""

from __future__ import annotations

import re

import pytest

from agents.integrator.cluster import cluster_items
from agents.integrator.select import judge_status
from agents.scanner.caveats import find_caveats
from agents.scanner.living_doc import parse_living_doc
from agents.scanner.mentions import extract_mentions
from agents.verifier.claims import check_number_conflicts
from tests.test_integrator_units import _File


def test_figures_already_in_a_bullet_anchor_an_item_that_bullet_does_not_name() -> None:
    note = _File("inbox/lin/2027-03-16T0900-x.md",
                 "## Corvid bench\nhttps://corvid.example/h100\n- 前缀密集：Foo 16,200 tok/s vs Bar 12,500 tok/s\n")
    [item] = [i for i in cluster_items(extract_mentions(note.path, note.body), [note]) if i.urls]
    doc = parse_living_doc("---\nversion: 3\n---\n## §1 引擎\n- 前缀密集负载：Foo 16,200 tok/s vs Bar 12,500 tok/s"
                           "〔v2 · 2027-03-01〕\n")
    anchored = [(s, b) for s in doc.sections for b in s.bullets]
    assert judge_status(item, anchored, []).status != "net_new"


@pytest.mark.parametrize(("figures", "bullet", "anchored"), [
    ("- 吞吐 1.9×，vs 逐请求草稿 1.6×", "- Corvid 1.9× 吞吐，比逐请求草稿 1.6× 更高", True),
    ("- 吞吐 1.9×，另一组 1.2× 与 2.1×", "- Quill v1.2.1：后端切到 PyTorch（来源：releases）", False),  # a version
    ("- 延迟 120 ms，另一组 350 ms", "- Tarn 1200 ms / 3500 ms 两档", False),  # longer numbers
    ("- 命中率 93.4%，开销 3.6%", "- Heron 命中率 93.4%，overhead 3.6%", True),
    # A model's name and a set-up size are no figures of a result ("Llama-3.1-70B", "128K").
    ("- 吞吐 3.1×，128K 上下文，延迟 4.6 s", "- Llama-3.1-70B KV 预算：128K 上下文单请求约 40 GB", False),
    ("- 吞吐 2.5×，Qwen3-32B，32K 上下文", "- Qwen-2.5-32B 在 32K 上下文下的 KV 预算", False),
])
def test_figures_anchor_only_as_numbers_not_as_parts_of_versions(figures: str, bullet: str, anchored: bool) -> None:
    note = _File("inbox/lin/2027-03-16T0900-x.md", f"## Some bench\nhttps://bench.example/run\n{figures}\n")
    [item] = [i for i in cluster_items(extract_mentions(note.path, note.body), [note]) if i.urls]
    doc = parse_living_doc(f"---\nversion: 3\n---\n## §1 引擎\n{bullet}〔v2 · 2027-03-01〕\n")
    found = [(s, b) for s in doc.sections for b in s.bullets]
    assert (judge_status(item, found, []).status != "net_new") is anchored


def test_two_figures_the_author_says_are_not_comparable_are_no_conflict() -> None:
    a = extract_mentions("inbox/lin/2027-03-16-a.md",
                         "- 口径：这里 Foo TTFT 380ms，上午那份是 103ms。一个多轮，一个单轮，不是一回事，不能合并。\n")
    b = extract_mentions("inbox/mei/2027-03-16-b.md", "- Foo TTFT 103ms\n")
    assert not [w for w in check_number_conflicts([*a, *b]) if "Foo" in (w.subject or "")]


def test_a_negated_doubt_is_no_caveat_and_a_merge_warning_is_one() -> None:
    assert find_caveats("- Corvid 数据：独立测试，不是厂商稿") == []
    assert find_caveats("- Corvid numbers are not self-reported") == []
    [caveat] = find_caveats("- Foo 380ms 和 Bar 103ms 口径不同，不能合并 ⚠⚬⚬")
    assert caveat.label == "口径不可合并"


def test_a_release_of_a_thing_the_living_document_tracks_is_named_after_it() -> None:
    from types import SimpleNamespace

    from agents.integrator.scope import names_tracked, tracked_subjects

    bullets = [SimpleNamespace(text=t) for t in (
        "quokka-serve 入选 CNCF Sandbox：K8s 原生分布式推理〔v3.1〕",
        "- **Lumen** v2（arXiv 2701.00001）：分层 KV",
        "0.30.0 起默认开启 chunked prefill",
        "Orrery: a scheduler for MoE serving",
        "本周无新增",
    )]
    tracked = tracked_subjects(bullets)
    assert tracked == {"quokka-serve", "lumen", "orrery"}
    assert names_tracked("quokka-serve v0.9", [], tracked) == "quokka-serve"
    assert names_tracked("Lumen 2.1 release notes", [], tracked) == "Lumen"
    assert names_tracked("https://github.com/x/y/releases", ["Orrery v3"], tracked) == "Orrery"
    # Near misses: a name that merely starts like a tracked one, a tracked name later in the title.
    assert names_tracked("quokka v0.9", [], tracked) is None
    assert names_tracked("Benchmarks of Lumen and others", [], tracked) is None
    assert names_tracked("Lumenix 1.0", [], tracked) is None


def test_a_note_saying_it_holds_nothing_new_is_read_in_either_order() -> None:
    from agents.integrator.cluster import NOTHING_FOR

    for said in ("NET-new：无；§2 是已锚结论的复核", "净增量: 0（都已锚）", "NET-new: none, a re-check",
                 "serving 主轴：无 NET-new", "本轮相关度较低"):
        assert NOTHING_FOR.search(said), said
    for other in ("NET-new：3 件（见下）", "NET-new: 10 items", "无 NET-new 风险的部署建议见 §3"):
        assert not NOTHING_FOR.search(other), other


def test_an_old_paper_new_to_the_vault_is_said_to_be_newly_carded() -> None:
    from agents.integrator.cluster import Item
    from agents.integrator.increment_text import core_argument
    from agents.integrator.select import Judgement

    item = Item(key="arxiv:2504.00007", arxiv=["2504.00007"], sources=["inbox/lin/2027-03-16-a.md"])
    fresh = core_argument(item, "Quokka", Judgement("net_new"), "serving.md v3")
    late = core_argument(item, "Quokka", Judgement("net_new"), "serving.md v3", late="C4")
    assert "今日首次出现" in fresh and "首次入卡" not in fresh
    assert "今日首次入卡" in late and "C4" in late and "今日首次出现" not in late


def test_an_item_another_topics_brief_listed_is_new_to_this_topic_not_to_the_vault() -> None:
    from agents.integrator.cluster import Item
    from agents.integrator.increment_text import core_argument
    from agents.integrator.select import Judgement

    other = "inbox/mei/2027-03-15-serving-e1prep.md"
    item = Item(key="arxiv:2703.00007", arxiv=["2703.00007"], sources=["inbox/lin/2027-03-16-a.md", other])
    said = core_argument(item, "Quokka", Judgement("net_new"), "infra.md v3")
    assert "本主题首次锚入" in said and other in said and "今日首次出现" not in said


def _day_brief(tmp_path, note: str, living_extra: str = "", earlier: str = "", schedule_extra: str = "",  # type: ignore[no-untyped-def]
               files: dict[str, str] | None = None):
    from pathlib import Path

    from tests.test_integrator_compose import _vault
    from tests.test_judgement_notes import _brief

    root = _vault(tmp_path)
    for path, text in (files or {}).items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    if schedule_extra:  # another agent's slot, and their inbox with a note of theirs
        schedule = root / "schedule.toml"
        schedule.write_text(schedule.read_text(encoding="utf-8") + schedule_extra, encoding="utf-8")
        for agent in re.findall(r'agent = "(\w+)"', schedule_extra):
            (root / "inbox" / agent).mkdir(parents=True, exist_ok=True)
            (root / "inbox" / agent / "2026-09-29-0900-radar.md").write_text("# radar\n\n- nothing today\n",
                                                                              encoding="utf-8")
    if living_extra:
        doc = root / "organized/knowledge/inference.md"
        doc.write_text(doc.read_text(encoding="utf-8") + living_extra, encoding="utf-8")
    if earlier:
        Path(root / "inbox/tom/2026-09-28-inference-e1prep.md").write_text(earlier, encoding="utf-8")
    (root / "inbox/jay/2026-09-29T1735-jay-evening.md").write_text(note, encoding="utf-8")
    return _brief(root)


def _status_of(brief, words: str):  # type: ignore[no-untyped-def]
    for inc in brief.increments:
        if words in inc.title:
            return inc.status
    for name in ("carried", "excluded", "below_cut"):
        if any(words in str(e.get("title", "")) for e in getattr(brief, name)):
            return name
    return None


def test_a_patch_release_of_a_tracked_engine_is_an_integration(tmp_path) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay\n\n## §Backend.2 vLLM v0.30.1 补丁版 ⭐⭐⭐⭐\n- https://github.com/vllm-project/vllm/releases/tag/v0.30.1\n"
            "- MXFP8 KV 在 SM90 上的回退写死为 FP8 E4M3，prefill 路径修了一个 hash bug\n- decode ITL 没变化\n")
    assert _status_of(_day_brief(tmp_path, note), "vLLM v0.30.1") == "integrated"


def test_an_anchored_thing_that_ships_today_is_an_integration_not_carried(tmp_path) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay\n\n## §Backend.1 Quill 仓库今天放了代码 ⭐⭐⭐⭐\n- https://github.com/quill-kv/Quill/releases/tag/v0.1.0\n"
            "- KV cache 融合的实现和一个 serving 原型都在，README 标了 prototype\n- 性能数字只有一张图，先不引\n")
    living = "## §3.4 跨模型 KV\n- Quill：模型间直接传 KV cache（ICLR）〔v9 · 2026-09-28〕\n"
    assert _status_of(_day_brief(tmp_path, note, living), "Quill") == "integrated"


def test_a_question_in_a_heading_is_no_increment(tmp_path) -> None:  # type: ignore[no-untyped-def]
    note = ("# stephen · radar\n\n## 2. vLLM 0.31 发了？⚠⚬⚬⚬\n- X 上转发都写 0.31，我没点进 release 页\n"
            "- 如果属实，prefill 路线可能也进了；请 jay 确认\n")
    brief = _day_brief(tmp_path, note)
    assert not any("0.31" in inc.title for inc in brief.increments)
    assert any("问句" in str(e.get("reason", "")) for e in brief.excluded)


def test_a_project_described_in_other_words_is_found_by_its_repository(tmp_path) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay\n\n### 线索1 那套开源的数据中心级分布式推理框架出了 1.0.2 ⭐⭐⭐\n"
            "https://github.com/quill-ai/quillserve/releases/tag/v1.0.2\n"
            "- 就是带多级 KV 块管理器、按 KV 命中做路由的那个\n- 1.0.2 是补丁：SSD 层块回收泄漏修了\n")
    living = "## §3.5 分布式推理框架\n- QuillServe 1.0：KV 块管理器 + KV-aware routing〔v9 · 2026-09-20〕\n"
    brief = _day_brief(tmp_path, note, living)
    [inc] = [i for i in brief.increments if "1.0.2" in i.title]
    assert inc.status == "integrated" and inc.title.startswith("Quillserve")


@pytest.mark.parametrize("line", ["- 功能面没变，原来怎么锚的还怎么锚", "- 照原来的锚法写", "- nothing changes, anchor as before"])
def test_the_scout_keeping_the_anchor_is_an_anchored_mark(line: str) -> None:
    from agents.scanner.marks import read_marks
    assert "anchored" in {m.kind for m in read_marks([(3, line)])}


def test_a_section_naming_an_open_register_entry_is_an_integration(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.test_integrator_compose import _vault, write_register
    from tests.test_judgement_notes import _brief

    root = _vault(tmp_path)
    write_register(root, "| D279 | Quill FP8 KV 在 >64K 上下文精度劣化的社区 issue 未复现 | ⚠⚠⚬ 中 | 2026-09-21 | 沿用 | x |")
    (root / "inbox/jay/2026-09-29T1735-jay-evening.md").write_text(
        "# jay\n\n## Quill FP8 KV 长上下文掉精度：有人复现了（D279）⭐⭐⭐\n- https://github.com/quill/quill/issues/1234\n"
        "- 96K needle 从 94% 掉到 81%，prefill 之后 decode 阶段开始偏\n", encoding="utf-8")
    brief = _brief(root)
    [inc] = [i for i in brief.increments if "复现" in i.title]
    assert inc.status == "integrated" and "D279" in inc.argument


@pytest.mark.parametrize(("reading", "status"), [
    # Another scout's own section with figures: news, whatever the vote-count note says.
    ("## §3 Tessel 复测协议细节（arXiv 2609.31415）⭐⭐⭐⭐\n- 新协议下 KV cache 复用掉 6.8 pt，旧基准只掉 1.2 pt\n", "net_new"),
    # Near miss: a mention in passing carries no reading of its own.
    ("## 杂项\n- 2609.31415 的 KV cache 复用还在榜上\n", "carried"),
])
def test_one_scouts_carried_mark_does_not_speak_for_anothers_reading(tmp_path, reading: str, status: str) -> None:  # type: ignore[no-untyped-def]
    from tests.test_integrator_compose import _vault
    from tests.test_judgement_notes import _brief

    root = _vault(tmp_path)
    (root / "inbox/tom/2026-09-29-0900-hf-daily.md").write_text(
        "# tom · hf\n\n- 9-28 的 2609.31415 票数只小涨，沿用，无新内容\n", encoding="utf-8")
    (root / "inbox/jay/2026-09-29T1505-jay-evening.md").write_text(f"# jay\n\n{reading}", encoding="utf-8")
    brief = _brief(root)
    found = [i.status for i in brief.increments if "2609.31415" in i.arxiv]
    carried = [e for e in brief.carried if "2609.31415" in (e.get("arxiv") or [])]
    assert (found[0] if found else "carried" if carried else None) == status


def test_a_notes_author_named_in_its_title_is_no_subject_of_its_sections(tmp_path) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay · 精读 · Tessel（arXiv 2609.31415）\n\n## 1. 它解决什么问题\n- KV cache 复用在多租户下泄露前缀\n"
            "## 2. 数字\n- prefill TTFT 补齐到桶上沿，p99 +11%\n")
    earlier = "# tom · inference E1\n\n二、增量条目\n增量 1：jay 的 KV 笔记（沿用）\n"
    brief = _day_brief(tmp_path, note, earlier=earlier)
    [inc] = [i for i in brief.increments if "2609.31415" in i.arxiv]
    assert inc.status == "net_new"  # the earlier brief names jay, not Tessel


@pytest.mark.parametrize(("line", "status"), [
    ("- README 里没写两套权重的显存开销（spark 9-29 挂的那条 D279 还是没答案）", "integrated"),
    ("- 我的联想：D279 缺的就是跨节点数据……不过这篇测的是它自己的系统，不是 Quill 的划分策略", "net_new"),
    ("- 精度没用那套协议测 → 挂 ⚠，和 D279 同一类问题", "net_new"),  # likened to the entry, no news of it
])
def test_a_section_speaking_to_an_open_entry_follows_it_unless_it_sets_it_apart(tmp_path, line: str, status: str) -> None:  # type: ignore[no-untyped-def]
    from tests.test_integrator_compose import _vault, write_register
    from tests.test_judgement_notes import _brief

    root = _vault(tmp_path)
    write_register(root, "| D279 | Quill 双份权重的存储 / 加载成本文中讨论少 | ⚠⚬⚬ 中低 | 2026-09-21 | 沿用 | x |")
    (root / "inbox/jay/2026-09-29T1735-jay-evening.md").write_text(
        f"# jay\n\n## §Backend.5 prefill 和 decode 分开量化的放代码了 ⭐⭐⭐\n- https://github.com/dq-lab/disagg-quant —— KV cache 两套 checkpoint\n{line}\n",
        encoding="utf-8")
    brief = _brief(root)
    [inc] = [i for i in brief.increments if "disagg-quant" in " ".join(i.urls)]
    assert inc.status == status


def test_a_number_with_a_card_of_its_own_in_the_vault_is_never_another_papers_slip() -> None:
    from agents.integrator.cluster import mistaken_numbers
    from state.models import BriefWarning
    warning = BriefWarning(id="C7", kind="id_conflict", subject="Tessel", key="id_conflict:name:tessel",
                           text="同一名称「Tessel」对应两个不同的 arXiv 号：2609.27746（a.md） 与 2511.02230（b.md）。")
    titles = {"2609.27746": "Tessel: Online Working-Set Estimation"}
    assert "2511.02230" in mistaken_numbers([warning], titles)
    assert mistaken_numbers([warning], titles, cards={"2511.02230"}) == {}


@pytest.mark.parametrize(("line", "anchored"), [
    # The same method in other words: a rare name only one bullet holds, and the bullet's words around it.
    ("- 内容：用 Mattson 栈距离算法在线算出\"给多少显存 → 前缀命中率多少\"的曲线，估算误差 4% 左右", True),
    # Near misses: the name alone; the words without the name; a name two bullets hold.
    ("- 内容：Mattson 这个名字我第一次见", False),
    ("- 内容：在线算出给多少显存、命中率多少的曲线，估算误差 4% 左右", False),
    ("- 内容：Lumen 的在线显存命中率曲线估算误差 4%", False),
])
def test_an_entry_described_in_other_words_is_found_by_its_rare_name_and_words(line: str, anchored: bool) -> None:
    note = _File("inbox/jay/2026-09-30-1620-csdn.md", f"## 2. 《推理服务显存怎么买》⭐⭐⭐\n{line}\n- 评论区没有新数字\n")
    [item] = [i for i in cluster_items(extract_mentions(note.path, note.body), [note])]
    doc = parse_living_doc("---\nversion: 3\n---\n## §3.3 容量\n"
                           "- Tessel（arXiv 2609.27746）：Mattson 栈算法在线估算 KV working set，给出\"显存 → 命中率\"曲线，误差 <5%〔v2 · 2026-09-01〕\n"
                           "- Lumen 调度：按命中率排队〔v2 · 2026-09-01〕\n- Lumen 显存：分层〔v2 · 2026-09-01〕\n")
    found = [(s, b) for s in doc.sections for b in s.bullets]
    assert (judge_status(item, found, []).status != "net_new") is anchored


def test_a_full_translation_of_a_paper_is_that_paper() -> None:
    note = _File("inbox/jay/2026-09-30-1620-csdn.md",
                 "## 1. 《KV 缓存复用的精度被高估了？一篇论文的完整翻译》⭐⭐\n\n- https://blog.csdn.net/x/article/details/1\n"
                 "- 全文翻译，原文就是 2609.31415（昨天的精度评测），译者没加实验\n")
    items = cluster_items(extract_mentions(note.path, note.body), [note])
    [paper] = [i for i in items if "arxiv:2609.31415" in i.keys]
    assert any("完整翻译" in p.heading for p in paper.passages)
    assert "url:https://blog.csdn.net/x/article/details/1" in paper.keys


_TRACKED = ("## §9.1 引擎版本\n- Quill v2.4.0：默认开启 chunked prefill，TTFT p50 210 ms〔v9 · 2026-09-20〕\n"
            "## §9.2 部署经验\n- Quill 生产踩坑：多租户下 prefix cache 命中率掉到 40%〔v9 · 2026-09-21〕\n"
            "- 调度器对比：Quill / Tern 在长上下文下排队时延差 2×〔v9 · 2026-09-22〕\n")


@pytest.mark.parametrize(("note", "news"), [
    # A patch with no figures at all.
    ("## Quill v2.4.1 补丁 ⭐⭐⭐\n- https://github.com/quill-ai/quill/releases/tag/v2.4.1\n"
     "- 修了 chunked prefill 下 LoRA adapter 串号的 bug\n- 没有新 benchmark\n", "来源未给新数字"),
    # A patch restating the figure the release bullet already holds.
    ("## Quill 2.4.1 hotfix ⭐⭐⭐\n- https://github.com/quill-ai/quill/releases/tag/v2.4.1\n"
     "- release notes repeat TTFT p50 210 ms; only a scheduler crash fix\n", "来源未给新数字"),
    # A patch with a figure of its own.
    ("## Quill v2.4.1 补丁 ⭐⭐⭐\n- https://github.com/quill-ai/quill/releases/tag/v2.4.1\n"
     "- 修了 prefill 死锁，TTFT p50 降到 185 ms\n", "今日带来新数字"),
])
def test_a_release_says_only_its_own_history_and_what_is_really_new(tmp_path, note: str, news: str) -> None:  # type: ignore[no-untyped-def]
    brief = _day_brief(tmp_path, f"# jay\n\n{note}", "\n" + _TRACKED)
    [inc] = [i for i in brief.increments if "Quill" in i.title]
    assert inc.status == "integrated"
    assert news in inc.argument and news in inc.relation
    if news != "今日带来新数字":
        assert "今日带来新数字" not in inc.argument + inc.relation
    # The release's own history is the version bullet (§9.1), not every bullet that names the product.
    assert "§9.1" in inc.relation and "§9.2" not in inc.relation.split("。", 1)[1]


_TRAINING = "## §9.1 训练与 checkpoint\n- 异步分布式 checkpoint：DCP async_save 把停顿降到秒级〔v9 · 2026-09-20〕\n"


@pytest.mark.parametrize(("placed", "increment"), [
    ("→ 算 NET-new，§9.1", True),   # the topic's own section, named as the item's place
    ("→ 归 §9.1", True),
    ("→ 算 NET-new，§7.7", False),  # a section this topic's document does not have: no placement here
    ("（见 §9.1 已锚的 DCP）", False),  # a section cited, not proposed
])
def test_a_scouts_section_placement_counts_only_for_a_section_of_this_topic(tmp_path, placed: str,  # type: ignore[no-untyped-def]
                                                                            increment: bool) -> None:
    note = ("# jay\n\n## §3 Quokka：把 checkpoint 塞进流水线空泡（arXiv 2709.00458）⭐⭐⭐\n"
            "- 做法：checkpoint 拷贝拆成小片，排进 1F1B 的空泡里，不额外停训练\n"
            f"- 数字：4,096 卡，每次保存停顿 46 s → 3.1 s {placed}\n")
    brief = _day_brief(tmp_path, note, "\n" + _TRAINING)
    assert any("2709.00458" in inc.arxiv for inc in brief.increments) is increment


def test_a_paper_sharing_the_fields_words_with_anchored_bullets_is_not_anchored_by_them(tmp_path) -> None:  # type: ignore[no-untyped-def]
    living = ("## §9.2 存储与分层内存\n- NVMe KV offload 带宽基线：8×Gen5 NVMe 聚合约 100 GB/s，约为 HBM 的 1/40〔v9 · 2026-09-17〕\n"
              "- CXL 内存池作 KV 溢出层：CXL 2.0 扩展内存延迟介于 DRAM 与 NVMe 之间〔v9 · 2026-09-19〕\n")
    note = ("# jay\n\n## 1. Heronfold —— HBM / CXL / NVMe 三层 KV 放置 ⭐⭐⭐⭐\n- 链接：https://arxiv.org/abs/2709.01187v1\n"
            "- 做法：近的留 HBM、中间的放 CXL 2.0 扩展内存、远的落 NVMe，预取与计算重叠\n"
            "- 数字：8×H200，Llama-3.1-70B，128K 上下文 → decode 吞吐是只用 CPU DRAM offload 基线的 3.1×\n")
    brief = _day_brief(tmp_path, note, "\n" + living)
    [inc] = [i for i in brief.increments if "2709.01187" in i.arxiv]
    assert inc.status == "net_new"


@pytest.mark.parametrize(("line", "handed"), [
    ("## §4 Corvid 多租户实验 ⭐⭐⭐ —— otto 的线，只记新数字", True),   # another agent's lane
    ("## §4 Corvid 多租户实验 ⭐⭐⭐\n- 这篇是 otto 那条线的，数字转 otto", True),
    ("## §4 Corvid 多租户实验 ⭐⭐⭐\n- inference 不重复计 NET-new，数字转 otto", True),  # the topic on the line labels nothing
    ("## §4 Corvid 多租户实验 ⭐⭐⭐\n- 主线：KV 卸载，和调度无关", False),
])
def test_an_item_of_another_agents_lane_is_handed_over(tmp_path, line: str, handed: bool) -> None:  # type: ignore[no-untyped-def]
    note = (f"# jay\n\n{line}\n- https://arxiv.org/abs/2609.48123v2\n"
            "- KV cache 淘汰在 4 个租户下 SLO 违约率 1.4%，vLLM 上测，prefill 与 decode 都测了\n")
    otto = '[[slot]]\nagent = "otto"\nname = "serving-e1prep"\npattern = "{date}-serving-e1prep.md"\ndue = "12:00"\n'
    brief = _day_brief(tmp_path, note, schedule_extra=otto)
    out = [e for e in brief.excluded if "2609.48123" in e.get("arxiv", [])]
    assert bool(out and "转交" in out[0]["reason"]) is handed


def test_a_key_point_whose_figure_another_source_contradicts_says_so(tmp_path) -> None:  # type: ignore[no-untyped-def]
    card = ("---\ncard: 1601\narxiv: \"2609.48816\"\ntitle: \"Quokka: FP4 KV Cache\"\nprimary: inference\n"
            "kind: method\ningested: 2026-09-29T06:24+08:00\nstatus: classified\n---\n## 要点\n"
            "- 结果（70B · 128K 上下文 · B200）：KV 显存相对 FP8 KV 降低 50%；decode 吞吐 +38%\n")
    note = ("# jay\n\n## Quokka（arXiv 2609.48816）⭐⭐⭐⭐\n- 条件：70B · 128K 上下文 · B200\n"
            "- 数字：KV 显存比 FP8 KV 再省 30%\n- decode 吞吐 +38%，KV cache 量化后 prefill 不受影响\n")
    brief = _day_brief(tmp_path, note, files={"organized/paper_cards/1601-2609-48816.md": card})
    [inc] = [i for i in brief.increments if "2609.48816" in i.arxiv]
    [conflict] = [w for w in brief.warnings if w.kind == "number_conflict"]
    marked = [p for p in inc.points if "再省 30%" in p]
    assert marked and f"与他源不一，见 {conflict.id}" in marked[0]
    assert not any("与他源不一" in p for p in inc.points if "+38%" in p and "30%" not in p)  # agreed figures unmarked


@pytest.mark.parametrize(("verdict", "status"), [
    ("→ 我算 NET-new，§9.3", "net_new"),   # the scout compared it with the document
    ("→ 沿用 §9.3 那条", "carried"),        # the scout says it is kept: the shared words stand
])
def test_a_scouts_net_new_outweighs_an_anchoring_by_shared_words_alone(tmp_path, verdict: str, status: str) -> None:  # type: ignore[no-untyped-def]
    living = ("## §9.3 推理调度\n- Heron-Router（arXiv 2609.21354）：工作负载 → 路由器 → 实例池三层抽象，按请求几何分池路由"
              "，H200 141 GB〔v9 · 2026-09-28〕\n")
    note = ("# jay\n\n## 异构 GPU 池：H20 + H200 按上下文长度分池路由 ⭐⭐⭐⭐\n- 来源：https://blog.example.com/hetero-pool\n"
            "- 做法：gateway 按请求几何分池路由到实例池，H200 141 GB 的池接长请求\n"
            "- 数字：单位 token 成本 -34%，P99 TTFT 2.8 s → 1.6 s\n"
            f"- 和活文档：§9.3 的 Heron-Router（2609.21354）按请求几何分池路由，这篇多了按卡型分池的一维 {verdict}\n")
    brief = _day_brief(tmp_path, note, "\n" + living)
    assert _status_of(brief, "异构 GPU 池") == status


@pytest.mark.parametrize(("caveat", "restates"), [
    # The scout's doubt flags the conflict's figures a line below one the conflict cites: that conflict.
    ("Lumen Desk：来源作者自注存疑——inbox/jay/n.md L10：「早上 Lumen Desk 写的 75%，来源不明 ⚠⚠⚬」。", True),
    # The same line the conflict cites.
    ("Corvid：来源作者自注存疑——inbox/mei/m.md L7：「只有这一个数，没写条件 ⚠⚬⚬」。", True),
    # Near misses: far from the cited lines, another file, no shared figure.
    ("Lumen Desk：来源作者自注存疑——inbox/jay/n.md L30：「Lumen Desk 75% 来源不明 ⚠⚠⚬」。", False),
    ("Lumen Desk：来源作者自注存疑——inbox/otto/o.md L10：「75% 来源不明 ⚠⚠⚬」。", False),
    ("Heron：来源作者自注存疑——inbox/jay/n.md L10：「Heron 只测了 8 卡 ⚠⚠⚬」。", False),
])
def test_a_caveat_flagging_a_conflicts_figures_where_it_is_cited_is_that_conflict(caveat: str, restates: bool) -> None:
    from agents.integrator.compose import _restates
    from state.models import BriefWarning

    finding = BriefWarning(id="C6", kind="number_conflict", subject="Corvid ttft p90 降幅",
                           text="Corvid 的 ttft p90 降幅 各源数字不一：57%（inbox/jay/n.md L9：「…」）；75%（inbox/mei/m.md L7：「…」）。")
    said = BriefWarning(id="C9", kind="caveat", subject=caveat.split("：")[0], text=caveat)
    assert _restates(said, finding) is restates


@pytest.mark.parametrize(("heading", "line", "status"), [
    # An anchored thing shipping today, its version after an aside and a "·", the tag said in words.
    ("## §1 Quill（Cache-to-Cache，ICLR 2026）· v0.1.0 —— 承诺只兑现了一半", "- 今天 10:40 官方仓打了 v0.1.0 tag，放出来的：单机实现",
     "integrated"),
    ("## Quill (ICLR 2026) · v0.1.0", "- the repo was tagged v0.1.0 this morning; single-node reference only", "integrated"),
    # Near miss: the same thing talked about, nothing shipped.
    ("## Quill（Cache-to-Cache，ICLR 2026）· 跟踪", "- 仓库还是只有 README，没有代码", "carried"),
])
def test_an_anchored_thing_shipping_a_version_named_after_an_aside_is_an_integration(
        tmp_path, heading: str, line: str, status: str) -> None:  # type: ignore[no-untyped-def]
    living = "## §3.4 跨模型 KV\n- Quill（Cache-to-Cache，ICLR 2026）：模型间直接传 KV cache〔v9 · 2026-09-28〕\n"
    note = f"# jay\n\n{heading} ⭐⭐⭐\n{line}\n- README 的 benchmark 表是论文原数，KV cache 融合 prefill 省一半\n"
    assert _status_of(_day_brief(tmp_path, note, "\n" + living), "Quill") == status


@pytest.mark.parametrize(("verdict", "excluded"), [
    ("- 它是评测集，不涉及 serving → 转 otto evaluation，inference 不收", True),
    ("- 评测集，和推理服务无关 → inference 不收", True),
    ("- KV cache 复用的新评测，prefill 路径都测了，值得跟", False),
])
def test_a_page_reporting_one_paper_carries_its_scouts_verdict_to_the_paper(tmp_path, verdict: str, excluded: bool) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay\n\n## 线索3 Quokka-Bench 解读 —— 评测线\n来源：CSDN「Quokka-Bench 发布：从 128K 到 1M 的长上下文评测」（2026-09-28）\n"
            "- arXiv 2609.40877；新增 1M token 档，文中说 KV cache 推理系统也能拿它压测\n"
            f"{verdict}\n")
    brief = _day_brief(tmp_path, note)
    out = [e for e in brief.excluded if "2609.40877" in e.get("arxiv", [])]
    assert bool(out and "不属本主轴" in out[0]["reason"]) is excluded


def test_a_mark_ending_one_clause_of_a_shared_line_is_not_the_other_items_caveat(tmp_path) -> None:  # type: ignore[no-untyped-def]
    note = ("# tom · HF 当日\n\n## Quokka（arXiv 2609.41872）⭐⭐⭐⭐\n- 8×H200 上 decode 2.9×，KV cache 按专家对齐\n"
            "- 作者给了 batch 1/8/32 三档\n\n## Heron（arXiv 2609.45528）⭐⭐⭐\n- prefill 放 NPU，TTFT 1.9 s → 0.62 s\n"
            "- decode 照旧在 GPU 上\n\n## 与各主轴的关系\n"
            "- inference：#4 Quokka（2609.41872）——摘要 2.9×；#9 Heron（2609.45528）——只有一台工程机的数 ⚠⚬⚬\n")
    brief = _day_brief(tmp_path, note)
    by_paper = {i.arxiv[0]: i for i in brief.increments if i.arxiv}
    caveats = {w.id: w for w in brief.warnings if w.kind == "caveat"}
    assert not [c for c in by_paper["2609.41872"].warnings if c in caveats]  # Quokka carries no one else's doubt
    assert any("工程机" in caveats[c].text for c in by_paper["2609.45528"].warnings if c in caveats)


@pytest.mark.parametrize(("line", "handed"), [
    ("- 安全细节交 otto risk 线深读，性能开销留在 inference 这边", False),  # one aspect handed over, the item stays
    ("- 安全细节交 otto risk 线深读", True),
    ("- 转 otto，不归 inference", True),
])
def test_a_hand_over_of_one_aspect_keeps_the_item_here(tmp_path, line: str, handed: bool) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay\n\n## 4. Quokka 作者线程 ⭐⭐⭐⭐\n- Quokka: Closing the Timing Side Channel（arXiv 2609.43552）：常数时间前缀查找"
            f"，KV cache 命中不变，TTFT p50 +4.1%\n{line}\n")
    otto = '[[slot]]\nagent = "otto"\nname = "risk-e1prep"\npattern = "{date}-risk-e1prep.md"\ndue = "21:00"\n'
    brief = _day_brief(tmp_path, note, schedule_extra=otto)
    out = [e for e in brief.excluded if "2609.43552" in e.get("arxiv", [])]
    assert bool(out) is handed


def test_two_findings_carrying_one_register_number_are_one_warning() -> None:
    from agents.integrator.compose import _one_warning_per_entry
    from state.models import BriefWarning

    def finding(i: int, subject: str, number: str | None, carried: str | None) -> BriefWarning:
        return BriefWarning(id=f"W{i}", kind="number_conflict", subject=subject, register=number, carried_from=carried,
                            text=f"{subject} 各源数字不一。", sources=[f"inbox/jay/n{i}.md"])

    aside: list[dict] = []
    kept = _one_warning_per_entry([finding(1, "Corvid ttft", "D305", "inbox/lin/b.md D305"),
                                   finding(2, "Quill ttft", "D305", "inbox/lin/b.md D305"),
                                   finding(3, "Heron ttft", "D306", None),  # new numbers are each their own
                                   finding(4, "Lumen ttft", "D306", None)], aside)
    assert [w.id for w in kept] == ["W1", "W3", "W4"]
    assert "Quill ttft" in kept[0].text and kept[0].sources == ["inbox/jay/n1.md", "inbox/jay/n2.md"]
    assert aside and "D305" in aside[0]["reason"]


def test_a_sub_heading_about_another_thing_lends_the_item_neither_judgement_nor_warning(tmp_path) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay\n\n## Tier1-E · Quokka vs Corvid（H100）两源对齐 ⭐⭐⭐⭐⭐\n\n### 线索1 并表\n"
            "- Lumen：Quokka TTFT 85ms，Corvid TTFT 380ms，H100\n- Otter：Quokka TTFT 42ms，Corvid TTFT 45ms，H100 FP8\n"
            "- 结论：Quokka 口径接近，Corvid 差得离谱，KV cache 复用没开\n\n"
            "### 线索3 Corvid vs Heron \"24x\" 条件警示 ⚠⚠⚬\n- 24x 混了调度与精度两个变量，prefill 和 decode 都没分开\n"
            "- 结论：不能写成\"Corvid 比 Heron 快 24 倍\" ⚠⚠⚬\n")
    brief = _day_brief(tmp_path, note)
    [inc] = [i for i in brief.increments if "两源对齐" in i.title]
    assert "24 倍" not in inc.argument
    heron = [w.id for w in brief.warnings if "24" in w.text]
    assert not set(heron) & set(inc.warnings)


@pytest.mark.parametrize(("row", "overdue"), [
    # An open entry tracking a promise whose day passed: raised overdue under its own number, with today's word.
    ('| D330 | Quokka Store v1.0 GA "2026-09-28" 承诺 | ⚠⚬ 低 | 2026-09-27 | 待核 | inbox/tom/2026-09-27-inference-e1prep.md |',
     True),
    # Near misses: not yet due; a dated finding that is no promise.
    ('| D331 | Quokka Store v1.0 GA "2026-10-15" 承诺 | ⚠⚬ 低 | 2026-09-27 | 待核 | inbox/tom/2026-09-27-inference-e1prep.md |',
     False),
    ('| D332 | Quokka 2026-09-20 的 KV cache 数字只测一组 | ⚠⚬ 低 | 2026-09-27 | 待核 | inbox/tom/2026-09-27-inference-e1prep.md |',
     False),
])
def test_an_open_entry_tracking_a_promise_past_its_day_is_raised_overdue(tmp_path, row: str, overdue: bool) -> None:  # type: ignore[no-untyped-def]
    from tests.test_integrator_compose import _vault, write_register
    from tests.test_judgement_notes import run_with_store

    root = _vault(tmp_path)
    write_register(root, row)
    (root / "inbox/jay/2026-09-29T1735-jay-evening.md").write_text(
        "# jay\n\n## Quokka Store 跟踪\n- Quokka Store v1.0 还是没有 tag，roadmap 改成 TBD，整体跳票；KV cache 池化照旧\n",
        encoding="utf-8")
    brief = run_with_store(root)
    found = [w for w in brief.warnings if w.kind == "promise_overdue" and w.register == row.split("|")[1].strip()]
    assert bool(found) is overdue
    if overdue:
        assert "跳票" in found[0].text and found[0].carried_from


@pytest.mark.parametrize(("line", "new"), [
    ("- P-EAGLE 默认开启，官方说 2-4× 加速区间不变", False),
    ("- decode 吞吐 1.9×，same as before", False),
    ("- 与 v0.30 持平：TTFT 210 ms", True),  # the clause holding the figure says nothing of change
    ("- 新 proposer 加速 2-4×，和论文不一致", True),
    ("- decode 吞吐提到 2.6×", True),
])
def test_a_figure_its_clause_says_is_unchanged_is_no_news(line: str, new: bool) -> None:
    from agents.integrator.select import said_unchanged

    [figure] = [m for m in extract_mentions("inbox/jay/n.md", line) if m.kind == "figure"]
    assert (not said_unchanged(figure)) is new


def test_an_open_entry_about_a_paper_this_slots_own_brief_carried_is_this_topics(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.test_integrator_compose import _vault, write_register
    from tests.test_judgement_notes import run_with_store

    root = _vault(tmp_path)
    write_register(root, "| D340 | Heronset arXiv 2609.47746 误差 <5% 只在 2 个公开 trace 上验证 | ⚠⚬⚬ 中低 | 2026-09-26 | 待核 | "
                         "inbox/mei/2026-09-26-serving-e1prep.md |",
                   "| D341 | Larch 存储层带宽与官方规格不一致 | ⚠⚬ 低 | 2026-09-26 | 待核 | inbox/mei/2026-09-26-serving-e1prep.md |")
    (root / "inbox/tom/2026-09-28-inference-e1prep.md").write_text(
        "inference · E1 预消化简报(2026-09-28)\n\n二、增量条目\n\n增量 1：arXiv 2609.47746 · Heronset（⭐⭐⭐⭐）\n",
        encoding="utf-8")
    brief = run_with_store(root)
    assert "D340" in {e["d"] for e in brief.register_open}  # the slot's own increment's open question
    assert "D341" not in {e["d"] for e in brief.register_open}  # another topic's, about nothing of ours


_SECTIONS = ("## §7.2 网关编排（Tessera · K8s）\n- Tessera 1.0：K8s 原生推理网关，按 KV 命中路由〔v9 · 2026-09-20〕\n"
             "- Quill v0.30：多 LoRA 批处理〔v9 · 2026-09-20〕\n"
             "## §8.1 Prompt Routing 与 Agentic 工作流（Era 3）\n- 路由按意图分流〔v9 · 2026-09-20〕\n"
             "## §8.3 Agent 观察（Orrery / Heron-Gate）\n- 失败模式三类〔v9 · 2026-09-20〕\n")


@pytest.mark.parametrize(("title", "subject"), [
    ("Tessera · Routing wins you can measure", "Tessera"),       # a page of a system a section lists in its aside
    ("tessera：多集群调度博客", "Tessera"),                       # any case
    ("K8s DRA 调度器接入推理网关", "K8s"),
    ("Heron-Gate 的 1.2 发布说明", "Heron-Gate"),
    ("Orrery · failure taxonomy v2", "Orrery"),
    ("Prompt Routing 决策表（输入:输出 > 10:1）", None),           # the heading's own words are the field's vocabulary
    ("Agentic 工作流的成本账", None),
    ("Era 3 回顾", None),                                          # an aside's "Era 3" names no system
    ("关于 Tessera 的一篇评测", None),                              # named mid-title: not what the page is about
    ("Tesseract OCR 推理加速", None),                              # another name that starts alike
    ("Tessera-RL 强化学习框架", None),                              # a name joined to another is another name
    ("Quill 生产 10 大坑", None),     # a name only a bullet opens with: one aspect of it may well be new
])
def test_a_page_opening_with_a_subject_the_document_keeps_names_that_subject(title: str, subject: str | None) -> None:
    from agents.integrator.scope import section_subjects, subject_anchored

    doc = parse_living_doc("# inference\n\n" + _SECTIONS)
    found = subject_anchored(title, section_subjects(doc.sections))
    assert (found.lower() if found else None) == (subject.lower() if subject else None)


@pytest.mark.parametrize(("note", "status"), [
    # A page about an anchored system, with no paper of its own: it adds to that system's entry.
    ("## Tessera · Routing wins you can measure ⭐⭐⭐⭐\n- https://tessera.dev/blog/routing-wins\n"
     "- 结论：KV 命中感知路由不是可选优化，是生产的必要条件\n- 多实例下不感知前缀，命中率塌掉\n", "integrated"),
    # A page in the field's words of a section heading ("Prompt Routing"): the framework it brings is new.
    ("## Prompt Routing 决策表 ⭐⭐⭐⭐\n- https://blog.example.org/prompt-routing-table\n"
     "- 输入:输出 > 10:1 时先做路由与上下文裁剪，再谈模型级优化\n- 意图分流后 prefix cache 命中率与 KV cache 占用都按成本排序\n",
     "net_new"),
    # A system the aside lists, but no bullet names it: nothing of it is anchored yet.
    ("## Orrery · failure taxonomy v2 ⭐⭐⭐⭐\n- https://orrery.dev/blog/taxonomy-v2\n"
     "- prefix cache 命中塌陷被单列为一类故障\n- KV cache 驱逐风暴是第二类\n", "net_new"),
    # A subject the document does not keep: new.
    ("## Lattice-Gate · 前缀感知网关 ⭐⭐⭐⭐\n- https://lattice-gate.dev/blog/intro\n"
     "- 结论：KV 命中感知路由是生产的必要条件\n- 多实例下不感知前缀，命中率塌掉\n", "net_new"),
])
def test_a_page_about_a_kept_subject_is_an_integration_unless_its_scout_says_new(tmp_path, note: str, status: str) -> None:  # type: ignore[no-untyped-def]
    brief = _day_brief(tmp_path, "# jay\n\n" + note, "\n" + _SECTIONS)
    title = re.search(r"## (.+?) ⭐", note).group(1)  # type: ignore[union-attr]
    assert _status_of(brief, title.split(" · ")[0]) == status


_TREE = "## §6.1 选型\n- Quill vs Heron vs Lumen 决策树：前缀密集 / 多轮对话 → Heron；硬件覆盖优先 → Quill；固定模型追极限吞吐 → Lumen〔v9 · 2026-09-20〕\n"


@pytest.mark.parametrize(("lines", "status"), [
    # The section goes on to say what the anchored bullet does not: news of the entry.
    (["- 前缀密集、多轮对话 → Heron", "- 别拿合成基准排名做迁移决定，先用线上真实流量做 profiling 再动手",
      "- Lumen 的引擎编译一次要两个多小时，CI 里得给编译产物单独做版本管理"], "integrated"),
    (["- Heron for prefix-heavy multi-turn traffic",
      "- never migrate on synthetic benchmark rankings; profile production traffic first, rankings disagree",
      "- Lumen engine builds take over two hours per model; CI must version the compiled artifacts separately"],
     "integrated"),
    # It only restates the tree: nothing new.
    (["- 前缀密集 / 多轮对话 → Heron", "- 硬件覆盖优先 → Quill", "- 固定模型追极限吞吐 → Lumen"], "carried"),
    # One new line is a remark, not news.
    (["- 前缀密集 / 多轮对话 → Heron", "- 硬件覆盖优先 → Quill", "- 作者说 Lumen 的编译流程他们团队踩过不少坑，细节没展开"], "carried"),
])
def test_a_section_anchored_by_its_heading_that_says_more_than_the_bullet_is_an_integration(tmp_path, lines: list[str],  # type: ignore[no-untyped-def]
                                                                                          status: str) -> None:
    note = ("# jay\n\n## §2 Quill / Heron / Lumen 推理引擎选型决策树 ⭐⭐⭐⭐\n来源：某博客（prefill / decode / TTFT 都比了）\n\n"
            + "\n".join(lines) + "\n")
    brief = _day_brief(tmp_path, note, "\n" + _TREE)
    assert _status_of(brief, "选型决策树") == status


@pytest.mark.parametrize(("lines", "in_topic"), [
    # A study of model quality whose source says it measures nothing of the system: out, whatever its set-up words.
    (["- 在 vLLM 上测了 128K–1M 长上下文，指标是答题准确率（EM / F1）", "- 显存、吞吐、延迟这些系统侧数字正文都没报告"], False),
    (["- accuracy on 1M-token contexts drops past 256K (vLLM, prefix caching off)",
      "- no latency, throughput or memory numbers in the paper"], False),
    (["- 测的是 KV cache 复用后的准确率，延迟与显存均未报告"], False),
    # Quality and system figures both, or quality alone with nothing said of the system: the scope rules decide.
    (["- KV cache 复用后准确率降 2 个点，TTFT 降 40%（vLLM，H100）"], True),
    (["- 评测 KV cache 复用技术的准确率，prefill 省了多少另文再测"], True),
    (["- 显存没报告的部分在附录里补了：吞吐 3,200 tok/s，KV cache 占用 -30%"], True),
])
def test_a_study_of_model_quality_that_measures_nothing_of_the_system_is_out_of_scope(lines: list[str],
                                                                                       in_topic: bool) -> None:
    from agents.integrator.cluster import Item, Passage
    from agents.integrator.scope import ScopeRules, judge_scope

    passage = Passage("inbox/lin/2027-03-16-n.md", 1, len(lines) + 1, "## Orrion-Bench ⭐⭐⭐⭐",
                      [(n, line) for n, line in enumerate(lines, start=2)])
    item = Item(key="url:https://orrion.dev", keys={"url:https://orrion.dev"}, sources=[passage.path], passages=[passage])
    rules = ScopeRules(topic="inference", names=frozenset({"inference"}),
                       keywords=("KV cache", "vLLM", "prefill", "TTFT", "吞吐", "长上下文", "prefix caching"))
    assert judge_scope(item, rules).in_topic == in_topic


@pytest.mark.parametrize(("line", "status"), [
    # An earlier brief of the topic that only doubts the paper anchors nothing of it.
    ("三、矛盾/待核：另记疑点 3 条（2703.04417 实验条件 / 会话兼容期）", "net_new"),
    ("D193（⚠⚬⚬）2703.04417「SLO ≤ 1%」为单卡实验，多租户未验证", "net_new"),
    ("- open question: 2703.04417 tenancy not tested", "net_new"),
    # One that carried it as an increment does.
    ("增量 5：arXiv 2703.04417 — 风险约束型 KV 淘汰（⭐⭐⭐⭐）", "carried"),
])
def test_an_earlier_brief_only_doubting_a_paper_does_not_anchor_it(line: str, status: str) -> None:
    from agents.integrator.cluster import Item

    item = Item(key="arxiv:2703.04417", keys={"arxiv:2703.04417"}, arxiv=["2703.04417"],
                sources=["inbox/lin/2027-03-16-n.md"])
    brief = _File("inbox/mei/2027-03-15-serving-e1prep.md", line, text=line)
    assert judge_status(item, [], [brief]).status == status


def test_a_scouts_anchored_mark_of_a_paper_only_another_topics_document_keeps_says_nothing_here(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from tests.test_integrator_compose import _vault
    from tests.test_judgement_notes import _brief

    root = _vault(tmp_path)
    topics = root / "topics.toml"
    topics.write_text(topics.read_text(encoding="utf-8") + '\n[topic.storage]\ntitle = "storage"\n'
                      'living_doc = "organized/knowledge/storage.md"\nexecutor = "tom"\nslot = "storage-e1prep"\n'
                      'window_end = "22:20"\nincrements = [3, 8]\nkeywords = ["NVMe"]\n', encoding="utf-8")
    (root / "organized/knowledge/storage.md").write_text(
        "---\nversion: 12\nupdated: 2026-09-20T10:00+08:00\n---\n# storage\n\n## §1 存储\n"
        "- Tandem（arXiv 2602.21548）：两路加载 KV〔v12 · 2026-09-20〕\n", encoding="utf-8")
    (root / "inbox/jay/2026-09-29T1735-jay-evening.md").write_text(
        "# jay\n\n## Tandem arXiv:2602.21548 ⭐⭐⭐\n- KV cache 从存储加载的 prefill / decode 双路径，已锚，今天又被讨论，沿用\n"
        "- decode 阶段 TTFT 降 30%（H100）\n", encoding="utf-8")
    brief = _brief(root)
    assert _status_of(brief, "Tandem") != "carried"


@pytest.mark.parametrize(("line", "out"), [
    ("与推理 serving 无直接关系；agent / evaluation 线可参考。", True),
    ("跟 KV cache 一点关系都没有，是训练侧的排程", True),
    ("和 prefill 扯不上关系", True),
    ("unrelated to LLM inference serving; an agent benchmark", True),
    ("has nothing to do with KV cache reuse", True),
    # Near misses: another thing unrelated, a relation stated, a negated unrelatedness.
    ("与 D186 无关，别串", False),
    ("与推理 serving 直接相关：KV 池共享", False),
    ("不是与 KV cache 无关，恰恰是 KV 的问题", False),
    ("和 Quokka 那条没关系", False),
])
def test_a_source_saying_the_item_has_no_relation_to_the_topics_matter_keeps_it_out(line: str, out: bool) -> None:
    from agents.integrator.scope import ScopeRules, _unrelated_to_topic

    rules = ScopeRules(topic="inference", names=frozenset({"inference"}), keywords=("KV cache", "prefill", "推理"))
    assert (_unrelated_to_topic(line, rules) is not None) == out


@pytest.mark.parametrize(("line", "forwarded"), [
    ("- #8 2703.04417 Orrion：streaming KV 淘汰的尾延迟，交给 jay 下午细读", False),   # a reading handed over
    ("- 转 mei 明天核对一下数字", False),
    ("- hand to ann to verify the table", False),
    ("- 这条转 flyp（risk 线）", True),                                              # the item handed over
    ("- 交给 stephen，应用层的事", True),
])
def test_a_reading_handed_to_a_scout_is_no_hand_over(line: str, forwarded: bool) -> None:
    from agents.scanner.marks import read_marks

    assert any(m.kind == "forwarded" for m in read_marks([(3, line)])) == forwarded


@pytest.mark.parametrize(("line", "anchored"), [
    ("- 和已锚的关系：活文档 §1.5 有 HookPoint；这个走 eBPF 旁路，此前没锚过", False),
    ("- 活文档之前未锚过这类工具", False),
    ("- 9-27 / 9-28 我们零散锚过 GEAR、KVTC，这张表正好当骨架", True),
])
def test_never_anchored_before_is_no_anchored_mark(line: str, anchored: bool) -> None:
    from agents.scanner.marks import read_marks

    assert any(m.kind == "anchored" for m in read_marks([(3, line)])) == anchored


@pytest.mark.parametrize(("line", "metric"), [
    ("- 我翻了表 2：8B、A100、batch 16，端到端相对不开投机的基线 **2.1×**", "speedup"),
    ("- end-to-end 2.1× over the non-speculative baseline", "speedup"),
    ("- 较基线 1.7 倍", "speedup"),
    ("- 8× H100 的节点", None),                       # a count of cards, no baseline
    ("- 模型大了 2×，显存也翻倍", None),
])
def test_a_multiple_of_a_baseline_is_a_speedup(line: str, metric: str | None) -> None:
    figures = [m for m in extract_mentions("inbox/lin/2027-03-16-n.md", line) if m.kind == "figure"
               and m.detail.get("unit") in ("×", "x", "倍")]
    assert figures and figures[-1].detail.get("metric") == metric


_EARLIER = """inference · E1 预消化简报(2027-03-15)

状态摘要
  • 核心增量：① arXiv 2703.04417 Orrion（NET-new）
  • work-queue：2703.05511 Lumen-RAG（rag 邻接）+ 2703.05512 Tarn-QA（rag 邻接）

一、检查过的来源清单
inbox/mei/2027-03-15-n.md（Heron 2703.06601 + Quokka 2703.06602）

二、增量条目

增量 1：arXiv 2703.04417 · Orrion（★★★★）— NET-new

三、值得警惕的矛盾或待核实说法
⚠️ C1（新增 D301）：2703.07701 数字各源不一

四、涉及的 arXiv 号
2703.04417 Orrion §3.3 ★★★★ NET-new
2703.08801 Vesper §3.4 ★★ 未核对（未入选本轮增量）
仅供核对、不可引用（主轴外、格式错误或疑为笔误的号码）：
2703.09901 Glint 未核对（主轴外：multimodal）
"""


@pytest.mark.parametrize(("number", "carried"), [
    ("2703.04417", True),    # an increment, and in the citable list
    ("2703.05511", False),   # filed as another topic's in the summary
    ("2703.06601", False),   # in the sources list only
    ("2703.07701", False),   # in a warning only
    ("2703.08801", False),   # below that brief's cut
    ("2703.09901", False),   # listed as not citable
])
def test_only_what_an_earlier_brief_anchors_carries_an_item(number: str, carried: bool) -> None:
    from agents.integrator.cluster import Item
    from agents.integrator.select import briefs_naming

    item = Item(key=f"arxiv:{number}", keys={f"arxiv:{number}"}, arxiv=[number], sources=["inbox/lin/2027-03-16-n.md"])
    brief = _File("inbox/tom/2027-03-15-inference-e1prep.md", _EARLIER, text=_EARLIER)
    assert bool(briefs_naming(item, [brief])[0]) == carried


@pytest.mark.parametrize(("remark", "labels"), [
    ("- inference 主轴：无 NET-new；线索3/4 是生产运维清单，和已锚内容重合", {"3", "4"}),
    ("- 线索 1 和 5 转走", {"1", "5"}),
    ("- §2、§3 已锚", {"2", "3"}),
    ("- 今天没有新东西", set()),
    ("- 3/4 的显存给了 KV", set()),      # a fraction, not sections
])
def test_a_remark_names_the_sections_it_speaks_of(remark: str, labels: set[str]) -> None:
    from agents.integrator.scope import remark_labels

    assert remark_labels(remark) == labels


def test_a_summary_naming_some_sections_speaks_for_those_only(tmp_path) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay · 早棒\n\n## 线索1 企业 Agent 网关架构 ⭐⭐⭐⭐\n- 四层：接入 / 编排 / 工具 / 模型层（内网 vLLM 推理集群）\n"
            "- 出口网关做 PII 脱敏与 token 计费，KV cache 不在这一层\n\n"
            "## 线索3 vLLM OOM 根因 ⭐⭐⭐⭐\n- --gpu-memory-utilization 0.95 时 CUDA graph 额外显存没算，压测 OOM\n"
            "- prefix caching 开着但 max-model-len 没收，KV block 池被吃光\n\n"
            "## 今日小结\n- inference 主轴：无 NET-new；线索3 是运维清单，和已锚内容重合\n- 转交：线索1 → stephen（llm-application）\n")
    brief = _day_brief(tmp_path, note)
    gateway = next((e for e in brief.excluded if "企业 Agent 网关" in str(e.get("title"))), None)
    oom = next((e for e in brief.carried if "OOM" in str(e.get("title"))), None)
    assert gateway is not None and "转交" in gateway["reason"]       # handed over, not "anchored"
    assert oom is not None and "重合" in oom["reason"]                 # the summary's word on its own section


@pytest.mark.parametrize(("said", "raised"), [
    ("- 元数据：arXiv 2026-01 提交；9-28 回补入卡——论文本身不是本周新作", False),   # the card says it is old
    ("- an older paper, carded today via OpenAlex back-fill", False),
    ("- 结果：吞吐 +40%（4×A100）", True),                                         # nothing says so: the queue's ranking is questioned
])
def test_an_old_paper_the_card_calls_old_raises_no_date_question(tmp_path, said: str, raised: bool) -> None:  # type: ignore[no-untyped-def]
    card = ("---\ncard: 1600\narxiv: \"2601.06362\"\ntitle: \"PsTile: Pipelined KV Offload\"\nprimary: inference\n"
            "ingested: 2026-09-29T06:10+08:00\n---\n## 摘要\n\nKV cache offload 与 prefill 流水重叠，decode 吞吐提升。\n\n## 要点\n\n"
            f"{said}\n")
    queue = "# work-queue\n\n## 2026-09-29 08:00\n\n| # | arXiv | 标题 | 卡 | 标识 |\n|---|---|---|---|---|\n| 1 | 2601.06362 | PsTile | 1600 | Top 0.5 |\n"
    brief = _day_brief(tmp_path, "# jay\n\n## 杂记\n- 今天没什么\n",
                       files={"organized/paper_cards/1600-2601-06362.md": card, "organized/queue/work-queue.md": queue})
    assert any(w.kind == "date_mismatch" for w in brief.warnings) == raised


@pytest.mark.parametrize(("coordination", "asked"), [
    ("### §三.1 强建议今晚锚入\n\n- **Orrion vs Tarn 多轮 Agent 4.5x TTFT 差距** ⭐⭐⭐⭐⭐（jay 11:50 §一.1）\n", True),
    ("- 请 tom 今晚锚入：Orrion vs Tarn 多轮 Agent TTFT 4.5x\n", True),
    ("### §三.2 矛盾\n\n- Orrion vs Tarn 多轮 Agent 4.5x TTFT 与单轮数字别合表\n", False),   # a warning, no request
    ("### §三.1 强建议今晚锚入\n\n- **Quokka 冷启动** ⭐⭐⭐⭐\n", False),                          # another item asked for
])
def test_a_coordinators_request_to_anchor_tonight_is_found_for_its_item(coordination: str, asked: bool) -> None:
    from agents.integrator.cluster import Item
    from agents.integrator.compose import _asked_for, requested_lines

    note = _File("inbox/stephen/2027-03-16-1245-stephen-coordination-check.md", coordination)
    item = Item(key="note:inbox/jay/2027-03-16T1150-jay.md#L7", sources=["inbox/jay/2027-03-16T1150-jay.md"])
    found = _asked_for(item, "Orrion vs Tarn：多轮 Agent 场景 TTFT 差 4.5×", requested_lines([note]))
    assert bool(found) == asked


@pytest.mark.parametrize(("line", "paper"), [
    ("| Quill-Flash | FP8 | 4×H200 | 8×H100 | KV 压缩后长上下文友好（2703.04417，9-27 已锚） |", True),
    ("- 系列综述，没有新数据；第 9 篇引了 Orrion（2703.04417，13:35 已记）", False),   # the series' word, not the paper's
    ("- Orrion（2703.04417）已锚，沿用", True),
    ("- 这张表沿用 9-27 的，没有新东西", False),
])
def test_a_status_in_the_clause_citing_a_paper_is_that_papers(line: str, paper: bool) -> None:
    from agents.integrator.scope import _marks_a_paper
    from agents.scanner.marks import read_marks

    [mark] = [m for m in read_marks([(3, line)]) if m.kind in ("carried", "anchored")][:1]
    assert _marks_a_paper(mark) == paper


@pytest.mark.parametrize(("screening", "handed"), [
    ("- 部署硬件对照表（11:05 §②）：有用，保留给 engineering 主轴\n", True),
    ("- 部署硬件对照表（11:05 §②）：有用，保留，等后续\n", False),       # kept, not handed on
    ("- 另一张部署表：保留给 engineering 主轴\n", False),                # another section's title
])
def test_another_note_naming_a_section_by_its_title_can_hand_it_on(tmp_path, screening: str, handed: bool) -> None:  # type: ignore[no-untyped-def]
    note = ("# jay · 11:05\n\n## ② 部署 · 部署硬件对照表 ⭐⭐⭐⭐\n| 模型 | 精度 | 最低可跑 |\n|---|---|---|\n"
            "| Quill-70B | FP8 | 8×H200 |\n| Quill-8B | BF16 | 1×H100，prefill 慢但 decode 够用，KV cache 够 32K |\n")
    brief = _day_brief(tmp_path, note, files={"inbox/jay/2026-09-29T1450-jay-screening.md": "# jay · 二筛\n\n## Tier2\n" + screening})
    excluded = [e for e in brief.excluded if "部署硬件对照表" in str(e.get("title"))]
    assert bool(excluded and "转交" in excluded[0]["reason"]) == handed


@pytest.mark.parametrize(("line", "unread"), [
    ("- 同批还有一篇 KV 相关的，只扫了标题：2703.08801（Prefix Cache Replacement），摘要没开", True),
    ("- 2703.08801 还是只看了标题，没来得及开，待核实", True),
    ("- 2703.08801: title only so far, will read tonight", True),
    ("- 2703.08801（Prefix Cache Replacement）：读完了，prefix 命中率 +18%（H100）", False),
    ("- 只扫了标题的那篇是 2703.09901，和 2703.08801 无关；2703.08801 已读完，KV cache 驱逐 -30% 显存", False),
])
def test_a_paper_only_its_title_was_read_is_no_increment_and_no_citable_number(tmp_path, line: str, unread: bool) -> None:  # type: ignore[no-untyped-def]
    brief = _day_brief(tmp_path, f"# jay\n\n## cs.DC 扫描\n{line}\n")
    below = [e for e in brief.below_cut if "2703.08801" in (e.get("arxiv") or [])]
    listed = [a for a in brief.arxiv if a.id == "2703.08801"]
    assert bool(below and "只读了标题" in below[0]["reason"]) == unread
    assert (not listed or listed[0].citable) == (not unread)


@pytest.mark.parametrize(("heading", "status"), [
    ("## Quill 协议 2027-01 规范 —— 无状态化整理 ⭐⭐⭐", "carried"),     # the entry's own name opens the title
    ("## Quill 协议 2027-01 规范：SDK 迁移 ⭐⭐⭐", "carried"),
    ("## Heron 协议 2027-01 规范 —— 无状态化整理 ⭐⭐⭐", "net_new"),     # another protocol's spec
])
def test_a_page_named_like_an_entry_the_document_keeps_is_that_entry(tmp_path, heading: str, status: str) -> None:  # type: ignore[no-untyped-def]
    living = "\n## §5.2 协议\n- Quill 协议 2027-01 规范：无状态化重大版本，KV cache 会话不再跨请求保存〔v9 · 2026-09-20〕\n"
    note = f"# jay\n\n{heading}\n- https://quill.dev/blog/spec\n- 去掉会话状态后 prefill 不再复用上轮 KV cache\n- 迁移指南陆续出来\n"
    assert _status_of(_day_brief(tmp_path, note, living), heading.split()[1]) == status
