"""Number and version conflicts on phrasings written here (none from the sample vault): positives and near misses."""

from __future__ import annotations

import pytest

from agents.scanner.mentions import extract_mentions
from agents.verifier.claims import check_number_conflicts, check_version_conflicts, figure_claims

TABLE_P50_P99 = "| 引擎 | TTFT(p50) | TTFT(p99) |\n|---|---|---|\n| QuillServe | 120ms | 410ms |\n| Corvid | 90ms | 300ms |"


def _mentions(*notes: str):  # type: ignore[no-untyped-def]
    found = []
    for i, text in enumerate(notes):
        found.extend(extract_mentions(f"inbox/x/n{i}.md", text))
    return found


@pytest.mark.parametrize(("notes", "expected"), [
    # Positives: one entity, one metric, comparable conditions, two sources.
    (("QuillServe TTFT 120ms on H100", "QuillServe TTFT 310ms on H100"), {"QuillServe ttft"}),
    (("Corvid 吞吐 4,200 tok/s（A100）", "Corvid 吞吐 9,800 tok/s（A100）"), {"Corvid throughput"}),
    (("TTFT 64ms vs 290ms（Corvid vs QuillServe）", "QuillServe TTFT 295ms", "Corvid TTFT 150ms"), {"Corvid ttft"}),
    ((TABLE_P50_P99, "QuillServe TTFT p99 180ms"), {"QuillServe ttft p99"}),
    (("QuillServe TTFT：benchhub.io 120ms / Lumen blog 125ms", "QuillServe TTFT 300ms"), {"QuillServe ttft"}),
    (("| 来源 | Corvid TTFT | 条件 |\n|---|---|---|\n| Lumen | 85ms | A100 BF16 |\n| benchhub | 240ms | A100 BF16 |",),
     {"Corvid ttft"}),
    (("Corvid 命中率 31%", "Corvid 命中率 64%"), {"Corvid hit"}),
    # Near misses: two columns of one row, p50 vs p99, prefill vs decode, input vs output, peak vs average.
    (("| QuillServe | TTFT p50 120ms | TTFT p99 410ms |",), set()),
    ((TABLE_P50_P99,), set()),
    (("QuillServe TTFT p50 120ms", "QuillServe TTFT p99 410ms"), set()),
    (("Corvid prefill 吞吐 12,000 tok/s", "Corvid decode 吞吐 2,400 tok/s"), set()),
    (("Corvid output throughput 1,800 tok/s", "Corvid input throughput 9,000 tok/s"), set()),
    (("QuillServe 峰值显存 71GB", "QuillServe 平均显存 52GB"), set()),
    # Near misses: stated-different conditions.
    (("QuillServe TTFT 120ms（A100）", "QuillServe TTFT 60ms（H200）"), set()),
    (("Corvid 吞吐 5,000 tok/s，FP8", "Corvid 吞吐 3,000 tok/s，BF16"), set()),
    (("QuillServe TTFT 95ms at concurrency 8", "QuillServe TTFT 640ms at concurrency 128"), set()),
    (("Corvid TTFT 200ms with 8K context", "Corvid TTFT 1,900ms with 128K context"), set()),
    (("QuillServe 吞吐 8,000 tok/s（8B 模型）", "QuillServe 吞吐 1,100 tok/s（70B 模型）"), set()),
    (("QuillServe TTFT（单轮）150ms", "QuillServe TTFT（多轮）520ms"), set()),
    # A scout who calls the figures a contradiction compared the set-ups: only stated differences part them,
    # and only the figures that scout lined up (another source's figure still needs the same conditions).
    (("| 来源 | Corvid TTFT | 条件 |\n|---|---|---|\n| Lumen | 85ms | H100，多轮 agent |\n| benchhub | 40ms | H100 FP8 |"
      "\n\n### Corvid TTFT 两源矛盾 ⚠⚠⚬",), {"Corvid ttft"}),
    (("| source | Corvid TTFT | setup |\n|---|---|---|\n| Lumen | 85ms | H100, multi-turn |\n| benchhub | 40ms | H100 FP8 |"
      "\n\n- these Corvid TTFT figures are inconsistent ⚠⚬⚬",), {"Corvid ttft"}),
    (("| 来源 | Corvid TTFT | 条件 |\n|---|---|---|\n| Lumen | 85ms | A100 |\n| benchhub | 40ms | H100 |"
      "\n\n### Corvid TTFT 两源矛盾",), set()),  # stated different hardware: the contradiction is the scout's guess
    # The section's "条件：…" / "Setup:" line is the set-up of the figures under it, not beyond its section.
    (("## A\n- 条件：单卡 H100 · BF16\n- QuillServe TTFT 120ms", "QuillServe TTFT 300ms（H100，BF16）"), {"QuillServe ttft"}),
    (("## A\n- Setup: A100, BF16\n- QuillServe TTFT 120ms", "QuillServe TTFT 300ms (H100, BF16)"), set()),
    (("## A\n- 条件：H100\n\n## B\n- QuillServe TTFT 120ms", "QuillServe TTFT 300ms（H100）"), set()),
    # Near misses: one states a condition the other leaves open: two benchmarks, not one figure twice.
    (("QuillServe TTFT 120ms（H100，多轮 agent）", "QuillServe TTFT 300ms（H100）"), set()),
    (("Corvid TTFT 90ms with FP8", "Corvid TTFT 200ms"), set()),
    (("| 来源 | QuillServe TTFT | 条件 |\n|---|---|---|\n| Lumen | 85ms | H100，多轮 agent |\n"
      "| benchhub | 40ms | H100 FP8 |",), set()),
    # Near misses: a figure and its approximation or range; a source restating itself.
    (("Corvid 命中率约 30%", "Corvid 命中率 29%"), set()),
    (("QuillServe TTFT 42–80ms", "QuillServe TTFT 42ms"), set()),
    (("QuillServe TTFT 120ms\n\n回顾：QuillServe TTFT 300ms（上周）",), set()),
    (("Corvid latency roughly 2s", "Corvid latency 1.9s"), set()),
    # Near misses: the figure belongs to the entity nearest it, not to one named earlier.
    (("Corvid TTFT 85ms，QuillServe 380ms", "Corvid TTFT 86ms"), set()),
    (("（单轮口径，TTFT Corvid 103ms vs QuillServe 79ms）和多轮的 85ms vs 380ms", "QuillServe TTFT 80ms"), set()),
    (("QuillServe 比 Corvid 吞吐 +29%", "QuillServe 吞吐 +89%"), set()),
    # Near misses: each source writes both figures (a sub-result beside the headline).
    (("Corvid 吞吐 3.1×；其中跨节点共享那组 Corvid 吞吐 1.9×", "Corvid 吞吐 1.9×（跨节点）。已记过：Corvid 吞吐 3.1×"), set()),
    (("Lumen throughput 4.0x overall; the shared-cache run Lumen throughput 2.2x",
      "Lumen throughput 2.2x in the shared run, Lumen throughput 4.0x headline"), set()),
    # ...but one of them writing a single figure still disagrees with the other.
    (("Corvid 吞吐 3.1×；其中跨节点共享那组 Corvid 吞吐 1.9×", "Corvid 吞吐 5.6×"), {"Corvid throughput"}),
    # ...and an author who writes both figures to call them a contradiction is not giving two set-ups.
    (("QuillServe TTFT 矛盾：Lumen 测 QuillServe TTFT 380ms，其他来源 QuillServe TTFT 45–150ms",
      "QuillServe TTFT 380ms"), {"QuillServe ttft"}),
])
def test_number_conflicts(notes: tuple[str, ...], expected: set[str]) -> None:
    assert {w.subject for w in check_number_conflicts(_mentions(*notes))} == expected


@pytest.mark.parametrize(("notes", "expected"), [
    # Positives: one source states the workload, the other does not, and a scout vouches for one set-up.
    (("Corvid TTFT 120ms（H100，多轮 agent）", "Corvid TTFT 300ms（H100）\n- 两个 Corvid TTFT 其实是同一配置下跑的"),
     {"Corvid ttft"}),
    (("Corvid 吞吐 +27%（H100，长上下文混合负载）", "Corvid 吞吐提升 44%\n- 注：Corvid 这两个吞吐数字来自同一组实验"),
     {"Corvid throughput 增幅"}),
    (("QuillServe TTFT 95ms with FP8", "QuillServe TTFT 240ms\n- QuillServe: the TTFT numbers come from the same benchmark run"),
     {"QuillServe ttft"}),
    (("QuillServe TTFT 95ms with FP8", "QuillServe TTFT 240ms\n- this is apples-to-apples for QuillServe 240ms vs 95ms"),
     {"QuillServe ttft"}),
    (("Corvid 命中率 31%（trace A）", "Corvid 命中率 64%\n- Corvid 64% 和上面 31% 配置完全一样"), {"Corvid hit"}),
    (("Corvid TTFT 120ms（H100，多轮）", "Corvid TTFT 300ms\n- Corvid TTFT 在同样的环境下复测"), {"Corvid ttft"}),
    # Near misses: the vouch is denied, names another entity, names neither metric nor figure, or the
    # set-ups are stated different (a vouch does not overrule A100 against H100).
    (("Corvid TTFT 120ms（H100，多轮 agent）", "Corvid TTFT 300ms（H100）\n- 这两个 Corvid TTFT 不是同一配置"), set()),
    (("Corvid TTFT 120ms（H100，多轮 agent）", "Corvid TTFT 300ms（H100）\n- Corvid TTFT: not the same setup, don't merge"),
     set()),
    (("Corvid TTFT 120ms（H100，多轮 agent）", "Corvid TTFT 300ms（H100）\n- QuillServe 的 TTFT 是同一配置下测的"), set()),
    (("Corvid TTFT 120ms（H100，多轮 agent）", "Corvid TTFT 300ms（H100）\n- Corvid 的部署是同一套环境"), set()),
    (("Corvid TTFT 120ms（A100）", "Corvid TTFT 300ms（H100）\n- Corvid TTFT 两个数同一组实验"), set()),
    (("Corvid 吞吐 +27%（batch 8）", "Corvid 吞吐 +44%（batch 64）\n- Corvid 吞吐 same workload, different batch"), set()),
])
def test_a_scouts_same_setup_vouch_compares_figures_one_source_leaves_open(notes: tuple[str, ...],
                                                                          expected: set[str]) -> None:
    assert {w.subject for w in check_number_conflicts(_mentions(*notes))} == expected


@pytest.mark.parametrize(("notes", "expected"), [
    # Positives: a relative change with its direction written, one set-up, two sources.
    (("Corvid 平均 TTFT -58%", "Corvid 平均 TTFT 降低 41%"), {"Corvid ttft average 降幅"}),
    (("QuillServe cuts TTFT p99 by 30%", "QuillServe TTFT p99 reduced by roughly 62%"), {"QuillServe ttft p99 降幅"}),
    (("Corvid 吞吐 +27%（H100）", "Corvid 吞吐提升 44%（H100）"), {"Corvid throughput 增幅"}),
    (("QuillServe throughput up 18% vs Corvid", "QuillServe 吞吐相比 Corvid 提升 55%"), {"QuillServe throughput 增幅"}),
    # Near misses: one direction each, a change and a level, a change with its direction unwritten.
    (("Corvid TTFT -40%", "Corvid TTFT +40%"), set()),
    (("Corvid 命中率提升 20%", "Corvid 命中率 64%"), set()),
    (("QuillServe TTFT 46%", "QuillServe TTFT 降 12%"), set()),
    (("Corvid 快 35%", "Corvid 快 70%"), set()),
    # Near misses: two baselines, a baseline against none, two set-ups, p50 against p99, a rounding.
    (("Corvid TTFT 比 QuillServe 降 41%", "Corvid TTFT vs Lumen -63%"), set()),
    (("Corvid TTFT vs QuillServe -41%", "Corvid TTFT -63%"), set()),
    (("Corvid 吞吐 +25%（batch 16，A100）", "Corvid 吞吐 +60%（batch 16，H100）"), set()),
    (("QuillServe TTFT p50 -20%", "QuillServe TTFT p99 -55%"), set()),
    (("Corvid 吞吐提升约 30%", "Corvid 吞吐 +29%"), set()),
    (("QuillServe TTFT -0.3s", "QuillServe TTFT -1.2s"), set()),
])
def test_relative_change_conflicts(notes: tuple[str, ...], expected: set[str]) -> None:
    found = {w.subject for w in check_number_conflicts(_mentions(*notes))}
    assert found == expected


@pytest.mark.parametrize(("notes", "expected"), [
    # A paper is one subject under its name, its number, a number written short, or its card.
    (("## Tessel 跨层共享（arXiv:2711.0339）\n- 数字：Quokka-3-70B · 128K · H100 上 KV 显存 -35%",
      "增量 2：arXiv 2711.03391 · Tessel: Cross-Layer Sharing\n- Quokka-3-70B · 128K · H100 下 KV 显存降 52%"),
     {"Tessel 显存 降幅"}),
    (("- Tessel（arXiv 2711.03391）KV 显存 -35%（H100，70B）", "- Tessel 的 KV 显存降 52%（H100，70B）"),
     {"Tessel 显存 降幅"}),
    # Near misses: a model of a size is the set-up, not whose figure it is; two papers of one model.
    (("- Quokka-3-70B 上 KV 显存 -35%（H100）", "- Quokka-3-70B 上 KV 显存 -52%（A100）"), set()),
    (("- Tessel（arXiv 2711.03391）KV 显存 -35%（H100，70B）", "- Heron（arXiv 2711.05555）KV 显存降 52%（H100，70B）"),
     set()),
])
def test_one_paper_is_one_subject_however_it_is_named(notes: tuple[str, ...], expected: set[str]) -> None:
    assert {w.subject for w in check_number_conflicts(_mentions(*notes))} == expected


@pytest.mark.parametrize(("notes", "expected"), [
    # A before → after pair is a relative change, compared with one written as such.
    (("- Tessel 吞吐 +41%（8×H100，70B）", "- Tessel 吞吐 1,820 → 2,350 tok/s（8×H100，70B）"), {"Tessel throughput 增幅"}),
    (("- Tessel TTFT 降 20%（H100）", "- Tessel TTFT 800 ms → 400 ms（H100）"), {"Tessel ttft 降幅"}),
    # Near misses: the pair agrees once rounded; points of a percentage; another set-up; model sizes.
    (("- Tessel 吞吐 +29%（8×H100，70B）", "- Tessel 吞吐 1,820 → 2,350 tok/s（8×H100，70B）"), set()),
    (("- Tessel 命中率 +40%", "- Tessel 命中率 1.7% → 92.2%"), set()),
    (("- Tessel 吞吐 +41%（16×H100，70B）", "- Tessel 吞吐 1,820 → 2,350 tok/s（8×H100，8B）"), set()),
    (("- Tessel 吞吐（70B）很稳", "- Tessel 吞吐（8B）很稳"), set()),
    # The pair's words stand before its first figure; a baseline named "对照组是 X" is not whose figure it is.
    (("## Tessel（arXiv 2709.38214）\n- 8×H200、70B，对照组是 Quill CPU offload 基线——decode 吞吐 +41%",
      "- Tessel（arXiv 2709.38214）：8×H200、70B，对比 Quill 基线，decode 吞吐 1,820 tok/s → 2,350 tok/s"),
     {"2709.38214 throughput decode 增幅"}),
])
def test_a_before_after_pair_is_compared_as_its_change(notes: tuple[str, ...], expected: set[str]) -> None:
    found = check_number_conflicts(_mentions(*notes))
    assert {w.subject for w in found} == expected
    if expected:
        assert "→" in found[0].text and "折合" in found[0].text


def test_a_cards_figures_are_its_papers() -> None:
    card = extract_mentions("organized/paper_cards/1572-2711-03391.md", "- 表 2（H100，70B）：KV 显存 -52%")
    note = extract_mentions("inbox/x/n.md", "- Tessel（arXiv 2711.03391）KV 显存 -35%（H100，70B）")
    assert {c.subject for c in figure_claims(card)} == {"2711.03391"}
    assert {w.subject for w in check_number_conflicts([*card, *note])} == {"2711.03391 显存 降幅"}


def test_a_chain_pairs_figures_and_names_in_order() -> None:
    claims = {(c.subject, c.mention.value) for c in figure_claims(_mentions("TTFT 85ms vs 380ms（Corvid vs QuillServe）"))}
    assert claims == {("Corvid", "85ms"), ("QuillServe", "380ms")}


def test_a_table_figure_takes_its_row_entity_and_its_column_metric() -> None:
    claims = {(c.subject, c.metric, c.mention.value) for c in figure_claims(_mentions(TABLE_P50_P99))}
    assert claims == {("QuillServe", "ttft p50", "120ms"), ("QuillServe", "ttft p99", "410ms"),
                      ("Corvid", "ttft p50", "90ms"), ("Corvid", "ttft p99", "300ms")}


@pytest.mark.parametrize(("notes", "expected"), [
    # Positives: two current versions of one product; one number in two schemes.
    (("QuillServe 最新版本 v2.4.0", "QuillServe 当前 v2.6.1"), {("current", "QuillServe")}),
    (("Corvid latest release: v1.8.2 (2026-02-03)", "Corvid v1.9.0 is the current version"), {("current", "Corvid")}),
    (("Corvid is now at 1.9.0", "current Corvid release 1.7.4"), {("current", "Corvid")}),
    (("- Corvid 0.4.2 上线", "- Corvid 0.42.0 上线"), {("scheme", "Corvid")}),
    (("环境：QuillServe 0.3.3", "QuillServe v0.30.0"), {("scheme", "QuillServe")}),
    # Near misses: an older version said historically.
    (("QuillServe 最新 v2.6.1", "QuillServe 前一版 v2.4.0（2026-01-10）"), set()),
    (("Corvid 1.2.0 为当前版本", "Corvid 1.2.0 已发布，升级自 Corvid 0.9.1（2025-11-02）"), set()),
    (("supported since QuillServe v1.2.0 (2025-06-01)", "QuillServe v2.0.0 (2026-01-15)"), set()),
    (("the team upgraded from Corvid 1.1.0 (2025-08-08)", "Corvid 最新 1.4.0"), set()),
    # Near misses: versions of different products on one line are paired with their own names.
    (("QuillServe v2.4.0 与 Corvid v1.8.0（2026-03-02）同日发布", "Corvid 最新 v1.8.0"), set()),
    (("QuillServe 2.4.0 and Corvid 1.9.0 are the latest", "Corvid latest is 1.9.0"), set()),
    # Near misses: figures, release candidates and arXiv numbers are not versions.
    (("QuillServe 92.5% 命中率；QuillServe 9.25% 当前",), set()),
    (("QuillServe v2.7.0-rc1 当前预览", "QuillServe 最新 v2.6.1"), set()),
    (("PaperX arXiv 2603.12345 最新", "PaperX 2603.12346 当前"), set()),
    # Near misses: each "current" version with its release date, in order: written before the next release.
    (("论文写 QuillServe 最新 release 是 v2.4.0（2026-03-01）", "QuillServe v2.6.1（2026-05-10）当前"), set()),
    (("Corvid latest: 1.8.2 (2026-02-03)", "Corvid 1.9.0 (2026-04-20) is the current release"), set()),
    (("Top 0.5 · QuillServe 最新", "Top 0.15 当前"), set()),
])
def test_version_conflicts(notes: tuple[str, ...], expected: set[tuple[str, str]]) -> None:
    found = {tuple(w.key.split(":")[1:3]) for w in check_version_conflicts(_mentions(*notes))}
    assert found == expected


def test_different_digits_of_one_product_are_not_a_scheme_conflict() -> None:
    assert check_version_conflicts(_mentions("Corvid 0.4.1 与 Corvid 0.52.0 对比")) == []


def test_only_the_figures_that_disagree_are_listed_and_a_set_apart_one_is_not() -> None:
    table = ("| 来源 | Corvid TTFT | 条件 |\n|---|---|---|\n| Lumen | 85ms | H100，多轮 agent |\n| benchhub | 40ms | H100 FP8 |"
             "\n\n### Corvid TTFT 两源矛盾 ⚠⚠⚬")
    other = "- （Winder 单轮口径，Corvid TTFT 61ms）和多轮 agent 的 85ms 不是一个口径"
    [warning] = check_number_conflicts(_mentions(table, other))
    assert "85ms" in warning.text and "40ms" in warning.text and "61ms" not in warning.text
    assert warning.sources == ["inbox/x/n0.md"]


def test_a_table_figure_in_a_conflict_is_said_as_a_sentence_naming_its_columns() -> None:
    table = ("| Source | QuillServe TTFT | Setup |\n|---|---|---|\n| Lumen blog | 310ms | A100, 多轮对话, 并发 32 |\n"
             "| benchhub.io | 120ms | A100, 多轮对话, 并发 32 |")
    [warning] = check_number_conflicts(_mentions(table, "QuillServe TTFT 125ms on A100, 多轮对话, 并发 32"))
    assert "表中一行「Lumen blog：QuillServe TTFT 310ms，Setup A100, 多轮对话, 并发 32」" in warning.text
    assert "| 310ms |" not in warning.text  # no raw table fragment
    assert "「QuillServe TTFT 125ms on A100, 多轮对话, 并发 32」" in warning.text  # prose is quoted as written


def test_a_relative_figure_against_a_version_is_about_the_release_not_the_version() -> None:
    """"decode 吞吐相对 v1.2 提升 1.6×" and "…提升 1.25×（相对 v1.2）" under one stated set-up disagree; the
    baseline version and the parallel layout ("TP8") name no entity; a different set-up is no conflict."""
    release = "- Quokka v1.3 release note：Llama-70B，8×H200，TP8，batch 64，decode 吞吐相对 v1.2 提升 1.6×"
    blog = "- Quokka 官方博客：Llama-70B，8×H200，TP8，batch 64，decode 吞吐提升 1.25×（相对 v1.2）"
    other = "- 社区实测：Llama-70B，4×H20，TP4，batch 16，decode 吞吐相对 v1.2 高 1.1×"
    conflicts = check_number_conflicts(_mentions(release, blog))
    assert len(conflicts) == 1 and "1.6" in conflicts[0].text and "1.25" in conflicts[0].text
    assert not any(w in (conflicts[0].subject or "") for w in ("v1.2", "TP8"))
    assert check_number_conflicts(_mentions(release, other)) == []
    # "decode" is no "code" workload: the figures' conditions do not differ by it.
    assert "workload" not in figure_claims(_mentions(blog))[0].conditions


def test_where_a_figure_ran_is_not_whose_figure_it_is() -> None:
    """Two papers each "在 Quokka 上加速 2.1× / 2.3×" are two papers' results, not Quokka's figure twice."""
    a = "- Tessel（arXiv 2610.30001）：草稿树分层扩展，EAGLE 类草稿在 Quokka 上端到端加速 2.1×"
    b = "- Lattice（arXiv 2610.30002）：多级草稿验证，EAGLE 类草稿在 Quokka 上端到端加速 2.3×"
    assert check_number_conflicts(_mentions(a, b)) == []
    assert {c.subject for c in figure_claims(_mentions(a, b))} == {"2610.30001", "2610.30002"}
    # One paper, two sources, one set-up: still a conflict.
    again = "- Tessel（arXiv 2610.30001）：复测，EAGLE 类草稿在 Quokka 上端到端加速 3.4×"
    assert len(check_number_conflicts(_mentions(a, again))) == 1


def test_a_table_row_takes_its_metric_from_a_metric_column_and_a_same_as_above_cell_names_nothing() -> None:
    table = ("| 条件 | 指标 | Tessel vs 固定 k=4 |\n|---|---|---|\n"
             "| Quokka-70B FP8 · 4×H100 · batch 64 | 输出吞吐 | **+18%** |\n| 同上 · batch 256 | 输出吞吐 | +31% |\n")
    claims = [c for c in figure_claims(_mentions(table)) if c.unit == "%"]
    assert {c.subject for c in claims} == {"Tessel"}
    assert {c.metric for c in claims} == {"throughput output 增幅"}


def test_a_baseline_line_over_a_table_is_its_figures_baseline() -> None:
    table = ("- 我从正文表 3 抄的数（对照组都是 Quill 固定 k=4）：\n\n| 条件 | 指标 | Tessel vs 固定 k=4 |\n|---|---|---|\n"
             "| Corvid-70B FP8 · 4×H100 · batch 64 | 输出吞吐 | **+18%** |\n")
    other = "- Tessel 表 3 · Corvid-70B FP8 · 4×H100 · batch 64：输出吞吐 2,950 → 3,410 tok/s（对照 Quill 固定 k=4）"
    [conflict] = check_number_conflicts(_mentions(table, other))
    assert conflict.subject == "Tessel throughput output 增幅" and "+15.6%" in conflict.text


def test_a_figure_of_another_subject_is_no_sub_result_of_this_one() -> None:
    notes = ("- Tessel 吞吐 +18%（H100，70B）", "- Tessel 吞吐 2,950 → 3,410 tok/s（H100，70B）",
             "- 上午我写的 Tessel +18% 是表里的百分比；Heron 调大阈值后开销能降到 +15%")
    assert {w.subject for w in check_number_conflicts(_mentions(*notes))} == {"Tessel throughput 增幅"}


@pytest.mark.parametrize(("text", "subject"), [
    # A bracketed aside names what the subject uses or beats, not the subject.
    ("- **Corvid 0.4 发布**：新的路由（按 Quill 上报的 KV 事件选实例）让 P90 TTFT 降 61%", "Corvid"),
    ("- Corvid (built on Quill's block events) cuts P90 TTFT by 61%", "Corvid"),
    # A source named in words before what it wrote is no subject.
    ("## Corvid 0.4\n- 早上 The Serving Desk 写的\"P90 TTFT 降 61%\"", "Corvid"),
    ("## Corvid 0.4\n- Lumen Weekly writes P90 TTFT -61%", "Corvid"),
    # A sentence naming no entity takes its section's subject; a section of one paper, the paper's number.
    ("## Corvid 0.4：精确前缀路由\n- 对照是 0.3 的近似路由 → P90 TTFT -61%", "Corvid"),
    ("## Heron（arXiv 2709.41234）\n- 对照是 0.3 的近似路由 → P90 TTFT -61%", "2709.41234"),
    # A list's later clause is of the entity measured before it, not of the section's paper; a set-up item is none.
    ("## Heron（arXiv 2709.41234）\n- Corvid 命中率 1.7%→92.2%，TTFT -61%", "Corvid"),
    ("## Corvid 0.4\n- ShareGPT 改造负载，恒定 600 QPS，对照 0.3 → P90 TTFT -61%", "Corvid"),
    # An item of a "·" set-up list is a condition (the workload), the list's first item may be the entity.
    ("## Corvid（arXiv 2709.41234）\n- 线程：8×H200 · 70B target + 1B draft · ShareGPT · QPS 8 → TTFT -61%", "2709.41234"),
    ("- Corvid：70B FP8 · 4×H100 · ShareGPT · batch 64 → TTFT -61%", "Corvid"),
    # A line of prose ending in a colon names no entity by it: the section's.
    ("## Corvid 0.4\n- 博客 Fig.4 的实验设置写得很全：16 × H100，对照 0.3 → P90 TTFT -61%", "Corvid"),
    # Near misses: a plain compound is no name; the sentence's own entity wins over its section's.
    ("## Corvid 0.4\n- precise prefix-cache routing 让 P90 TTFT 降 61%", "Corvid"),
    ("## Corvid 0.4\n- Quill 的 P90 TTFT 降 61%", "Quill"),
    ("- 在 Quill 上，Corvid 的 P90 TTFT 降 61%", "Corvid"),
    ("- Corvid TTFT 降 61%（Quill 对照）", "Corvid"),
])
def test_a_figure_belongs_to_its_sentences_entity_else_its_sections(text: str, subject: str) -> None:
    [claim] = [c for c in figure_claims(_mentions(text)) if "ttft" in c.metric]
    assert claim.subject == subject


def test_a_scouts_vouch_under_a_heading_naming_the_entity_compares_its_figures() -> None:
    notes = ("## Corvid 0.4\n- 16 × H100，Qwen3-32B，对照 0.3 → P90 TTFT -57%\n"
             "- Lumen Weekly 写的 -75% 引的就是这张图——同一组实验（same benchmark run）",
             "- **Corvid 0.4 发布**：P90 TTFT 降 75%，没写条件")
    assert {w.subject for w in check_number_conflicts(_mentions(*notes))} == {"Corvid ttft p90 降幅"}
    # Without the vouch, a figure with its set-up and one without are two benchmarks.
    plain = (notes[0].rsplit("\n", 1)[0], notes[1])
    assert check_number_conflicts(_mentions(*plain)) == []


CARD_1599 = ("---\ncard: 1599\narxiv: \"2710.01187\"\ntitle: \"Corvid: Tiered KV Placement\"\nprimary: llm-infra\n---\n"
             "作者在单节点 8×H200 上评测：70B、128K 上下文、64 路并发时，decode 吞吐为仅使用 CPU DRAM offload 基线的 2.3×。\n"
             "- 结果（70B · 128K 上下文 · H200 · 64 路并发）：KV 显存相对 FP8 KV 降低 50%\n")


@pytest.mark.parametrize(("note", "expected"), [
    # A scout's figure that the paper's card contradicts, for one metric and set-up, the paper named by its
    # section (a heading name over one arXiv link), the change said as "省", the ratio as a multiple of a baseline.
    ("## 1. Corvid —— 三层 KV 放置 ⭐⭐⭐⭐\n- 链接：https://arxiv.org/abs/2710.01187v1\n"
     "- 8×H200 单节点，70B，128K 上下文，64 路并发 → decode 吞吐是\"只用 CPU DRAM 做 offload\"基线的 3.1×",
     {"Corvid throughput"}),
    ("## Corvid（arXiv 2710.01187）\n- 条件：70B · 128K 上下文 · H200 · 64 路并发\n- KV 显存比 FP8 KV 再省 30%",
     {"2710.01187 显存 降幅"}),
    ("## Corvid\n- https://arxiv.org/abs/2710.01187\n- 70B, 128K context, H200, 64 路并发: KV memory saves 30% vs FP8 KV",
     {"Corvid 显存 降幅"}),
    # Near misses: the figure agrees; another set-up; another paper's figure in the same note is no sub-result.
    ("## Corvid\n- https://arxiv.org/abs/2710.01187\n- 8×H200，70B，128K，64 路并发：decode 吞吐是基线的 2.3×", set()),
    ("## Corvid\n- https://arxiv.org/abs/2710.01187\n- 8×H100，70B，128K，64 路并发：decode 吞吐是基线的 3.1×", set()),
    ("## Corvid（arXiv 2710.01187）\n- 条件：70B · 128K 上下文 · H200 · 64 路并发\n- KV 显存比 FP8 KV 再省 50%\n\n"
     "## Heron（arXiv 2710.05555）\n- 权重显存多占 30%", set()),
])
def test_a_notes_figure_the_papers_card_contradicts_is_a_conflict(note: str, expected: set[str]) -> None:
    mentions = [*extract_mentions("inbox/x/n.md", note),
                *extract_mentions("organized/paper_cards/1599-2710-01187.md", CARD_1599)]
    assert {w.subject for w in check_number_conflicts(mentions)} == expected


def test_a_figure_of_another_paper_in_the_same_note_is_no_sub_result() -> None:
    note = ("## Corvid（arXiv 2710.01187）\n- 条件：70B · 128K 上下文 · H200 · 64 路并发\n- KV 显存比 FP8 KV 再省 30%\n\n"
            "## Heron（arXiv 2710.05555）\n- 权重显存 +50%，冷启动 +35%")
    mentions = [*extract_mentions("inbox/x/n.md", note),
                *extract_mentions("organized/paper_cards/1599-2710-01187.md", CARD_1599)]
    [warning] = check_number_conflicts(mentions)
    assert "30%" in warning.text and "50%" in warning.text and "2710.05555" not in warning.text


@pytest.mark.parametrize(("notes", "expected"), [
    # A multiple written with a sign is still a multiple; an outline label is no name.
    (("## §C arXiv：Corvid-4 · 每个 head 选精度\n- https://arxiv.org/abs/2710.11874v1\n"
      "- B200 · 70B · 128K 上下文 · batch 32：decode 吞吐 +2.1×（对照全 FP8 KV）",
      "增量 1：Corvid-4（arXiv 2710.11874）\n- B200 · 70B · 128K 上下文 · batch 32：decode 吞吐 +1.7×（对照全 FP8 KV）"),
     {"Corvid-4 throughput decode"}),
    # Near misses: another context length; a change in a unit of measure against nothing.
    (("## §C Corvid-4\n- https://arxiv.org/abs/2710.11874v1\n- B200 · 70B · 32K 上下文 · batch 32：decode 吞吐 +1.3×",
      "增量 1：Corvid-4（arXiv 2710.11874）\n- B200 · 70B · 128K 上下文 · batch 32：decode 吞吐 +1.7×"), set()),
    (("Corvid TTFT +0.3s", "Corvid TTFT +1.2s"), set()),
])
def test_a_signed_multiple_under_an_outline_label_is_compared(notes: tuple[str, ...], expected: set[str]) -> None:
    assert {w.subject for w in check_number_conflicts(_mentions(*notes))} == expected


@pytest.mark.parametrize(("notes", "expected"), [
    # A baseline measured under the item's own set-up ("vLLM 同配置 5,020 tok/s") vouches for nothing: figures of
    # two stated set-ups stay apart, and a relay that states none is not compared with either.
    (("Orrion decode 吞吐 6,150 tok/s（H100，batch 64；vLLM 同配置 5,020 tok/s）",
      "Orrion decode 吞吐 14,800 tok/s（B200，batch 256）",
      "- Orrion decode 吞吐两处对不上：一处写 14,800 tok/s，一处写 6,150 tok/s"), set()),
    (("Orrion throughput 6,150 tok/s on H100 at batch 64 (same setup: vLLM 5,020 tok/s)",
      "Orrion throughput 14,800 tok/s on B200 at batch 256"), set()),
    (("Orrion decode 吞吐 6,150 tok/s（H100，batch 64，同条件下 vLLM 约 5,020）", "Orrion decode 吞吐 14,800 tok/s"), set()),
    # A vouch that closes its clause still vouches.
    (("Orrion decode 吞吐 6,150 tok/s（H100）", "Orrion decode 吞吐 14,800 tok/s\n- Orrion 这两个吞吐是同一配置，不该差这么多"),
     {"Orrion throughput decode"}),
])
def test_a_baseline_under_the_same_setup_is_no_vouch(notes: tuple[str, ...], expected: set[str]) -> None:
    assert {w.subject for w in check_number_conflicts(_mentions(*notes))} == expected


@pytest.mark.parametrize(("notes", "coordination", "kinds"), [
    # The lead calls two figures a contradiction; their own sources state other set-ups: a false alarm, no D-number.
    (("## Orrion\n- Orrion decode 吞吐 6,150 tok/s（H100，batch 64）",
      "## Orrion 博客\n- Orrion decode 吞吐 14,800 tok/s（B200，batch 256）"),
     "## 口径\n1. Orrion decode 吞吐两处对不上：一处 14,800 tok/s，一处 6,150 tok/s，请登记为矛盾 ⚠⚠⚬", {"false_alarm"}),
    (("## Orrion\n- Orrion throughput 6,150 tok/s on H100 at batch 64",
      "## Orrion blog\n- Orrion throughput 14,800 tok/s on B200 at batch 256"),
     "## Checks\n- Orrion throughput figures conflict: 14,800 tok/s vs 6,150 tok/s, please register ⚠⚠⚬", {"false_alarm"}),
    # Set-ups stated alike (or not at all): the lead's doubt stands, and the figures conflict.
    (("## Orrion\n- Orrion decode 吞吐 6,150 tok/s（H100，batch 64）",
      "## Orrion 博客\n- Orrion decode 吞吐 14,800 tok/s（H100，batch 64）"),
     "## 口径\n1. Orrion decode 吞吐两处对不上：一处 14,800 tok/s，一处 6,150 tok/s ⚠⚠⚬", {"number_conflict", "caveat"}),
    (("## Orrion\n- Orrion decode 吞吐 6,150 tok/s", "## Orrion 博客\n- Orrion decode 吞吐 14,800 tok/s"),
     "## 口径\n1. Orrion decode 吞吐两处对不上：一处 14,800 tok/s，一处 6,150 tok/s ⚠⚠⚬", {"number_conflict", "caveat"}),
])
def test_a_leads_call_of_a_contradiction_the_sources_set_ups_do_not_bear_out_is_a_false_alarm(
        notes: tuple[str, ...], coordination: str, kinds: set[str]) -> None:
    from datetime import date

    from agents.scanner.mentions import extract_mentions
    from agents.verifier.checks import arxiv_checks

    mentions = _mentions(*notes) + extract_mentions("inbox/lead/2027-03-16-1245-lead-coordination-check.md", coordination)
    found = {w.kind for w in arxiv_checks(mentions, [], {}, date(2027, 3, 16))
             if w.kind in ("false_alarm", "number_conflict", "caveat")}
    assert found == kinds


_ROW = "## Orrion README\n\n| 条件 / 指标 | 值 |\n|---|---|\n| 硬件 | 8×H200 |\n| P99 TTFT（Orrion 三层） | {value} |\n"


@pytest.mark.parametrize(("notes", "expected"), [
    # The after figure of a before → after pair measures what the before one does, and a scope said in words is
    # the scope a table says in brackets.
    (("## Orrion v0.4\n- P99 TTFT：基线 1.92 s → Orrion 三层 0.74 s", _ROW.format(value="0.47 s")), {"Orrion ttft p99"}),
    (("## Orrion v0.4\n- p99 TTFT: baseline 1.92 s -> Orrion 三层 0.74 s", _ROW.format(value="0.47 s")), {"Orrion ttft p99"}),
    (("## Orrion v0.4\n- P99 TTFT：基线 1920 ms ⇒ Orrion 三层 740 ms", _ROW.format(value="470 ms")), {"Orrion ttft p99"}),
    # The same figure twice; another scope in the brackets; the after figure of another metric.
    (("## Orrion v0.4\n- P99 TTFT：基线 1.92 s → Orrion 三层 0.47 s", _ROW.format(value="0.47 s")), set()),
    (("## Orrion v0.4\n- P99 TTFT：基线 1.92 s → Orrion 两层 0.74 s", _ROW.format(value="0.47 s")), set()),
    (("## Orrion v0.4\n- P99 TTFT 1.92 s → 吞吐 3,000 tok/s", _ROW.format(value="0.47 s")), set()),
])
def test_a_before_after_pair_and_a_scope_said_in_words_are_compared(notes: tuple[str, ...], expected: set[str]) -> None:
    assert {w.subject for w in check_number_conflicts(_mentions(*notes))} == expected


@pytest.mark.parametrize(("notes", "same"), [
    (("Orrion TTFT 0.74 s（H200，64 并发）", "Orrion TTFT 0.47 s（H200，64 并发）"), True),
    (("Orrion TTFT 0.74 s", "Orrion TTFT 0.47 s"), False),   # nothing stated: the set-ups are open, list them apart
])
def test_a_conflict_under_the_same_stated_conditions_asks_for_the_original(notes: tuple[str, ...], same: bool) -> None:
    [warning] = check_number_conflicts(_mentions(*notes))
    assert ("抄录之误" in warning.action) == same


@pytest.mark.parametrize(("judgement", "said"), [
    ("- 其实 Orrion 这边口径还算接近（85 只比 80 高一点）；真正离谱的是 Tarn", True),
    ("- Orrion numbers are close enough; Tarn is the outlier", True),
    ("- Tarn 的两个数基本一致，Orrion 才是问题", False),      # another entity judged close
    ("- Orrion 的数差得离谱", False),
])
def test_a_scout_judging_an_entitys_figures_close_is_quoted_with_the_conflict(judgement: str, said: bool) -> None:
    first = "## Orrion 实测\n- Orrion TTFT 85ms（H100）\n"
    second = "## Orrion 复测\n- Orrion TTFT 42–80ms（H100）\n" + judgement + "\n"
    warnings = [w for w in check_number_conflicts(_mentions(first, second)) if w.subject.lower().startswith("orrion")]
    assert warnings and ("来源判断" in warnings[0].text) == said


@pytest.mark.parametrize(("notes", "differ"), [
    # A scout lines up figures of other set-ups as a contradiction: said as not comparable as they stand.
    (("Orrion TTFT 85ms（H100，多轮 agent）\n- Orrion TTFT 两源矛盾 ⚠⚠⚬",
      "Orrion TTFT 42ms（H100 FP8）\n- Orrion TTFT 和上午那条对不上 ⚠⚠⚬"), True),
    # One set-up stated alike on both sides: a contradiction of one measurement.
    (("Orrion TTFT 85ms（H100）", "Orrion TTFT 42ms（H100）"), False),
])
def test_a_conflict_across_stated_set_ups_says_they_are_not_comparable(notes: tuple[str, ...], differ: bool) -> None:
    [warning] = check_number_conflicts(_mentions(*notes))
    assert ("不可直接比较" in warning.text) == differ
