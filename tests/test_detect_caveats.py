"""The scouts' own doubts, in wordings the sample vault does not use; near misses; and the warning they make."""

from __future__ import annotations

import re

import pytest

from agents.scanner.caveats import find_caveats
from agents.scanner.excerpt import excerpt
from agents.scanner.mentions import extract_mentions
from agents.verifier.caveats import caveat_subject, check_caveats

CAVEATS = [
    # One reproduction, not a general result.
    ("- 注意条件：只有一个复现者、一个模型、一个卡型；\"64K 为界\"别写成通用结论", "单一测试条件"),
    ("- only a single reproducer so far, not a general conclusion", "单一测试条件"),
    # The scout cannot trace a figure, or it does not match the paper.
    ("- 我把表 4 翻出来对：同样条件表里是 2.4×，jay 的 3.1× 数字对不上", "出处存疑"),
    ("- 3.1× 在全文里没找到出处，请 mei 确认来源", "出处存疑"),
    ("- I can't find the source of the 40% figure; it doesn't match the paper's table", "出处存疑"),
    ("- QuillServe 的 3.1× 提速：博客没说明 batch size 和上下文长度", "条件未说明"),
    ("- The 42% gain comes from one workload only ⚠⚬⚬", "单一测试条件"),
    ("- 只测了一台 MI355X，跨节点没跑", "单一测试条件"),
    ("- Numbers are self-reported by the vendor, not independently reproduced", "作者自报"),
    ("- 吞吐 +60% 是厂商博客口径，第三方没有复测", "作者自报"),
    ("- 2703.11111 的 p99 结论待核实，附录表格缺列", "待核实"),
    ("- Latency figures need checking against the paper's table 4", "待核实"),
    ("- conditions not stated for the 7× claim", "条件未说明"),
    ("- Lattice-KV 压缩率 12× ⚠⚠⚬", "来源标注可信度打折"),
    ("- 论文里只给了 1 组模型的结果", "单一测试条件"),
    ("- unverified: the 30% memory saving", "待核实"),
    ("- Orrery-Attn 的压缩比摘要里没有数，待读全文", "待核实"),
    ("- only read the abstract so far; the 5× speedup is theirs", "待核实"),
    ("- 仅摘要级信息，TTFT 数字来自作者", "待核实"),
    ("- Brisk-MoE 的 2× 只看了摘要，全文没读完", "待核实"),
    ("- Quokka 那组用了 4 倍预算，和别家不能直接比", "口径不可合并"),
    ("## B. 漏洞情报 ⭐⭐⭐（未核 advisory ⚠⚬⚬）", "待核实"),
    ("- the 9× figure is not directly comparable with last week's run", "口径不可合并"),
    ("- haven't read the full paper yet; the 18% gain is abstract-only", "待核实"),
    # The conditions a result holds under, stated as such.
    ("- 局限：前缀不共享时 Lumen 的收益只剩 5%", "适用条件有限"),
    ("  - 前提：所有请求同一个 system prompt", "适用条件有限"),
    ("- Limitations: evaluated on synthetic traces only", "适用条件有限"),
    ("- the gains drop when batches are mixed-length", "适用条件有限"),
    ("- Quokka 的 2.3× 我们可以自己跑一下再说", "待核实"),
    ("- we can reproduce this on the lab cluster next week", "待核实"),
    # The maker's own evaluation, nobody else's yet.
    ("- Quokka-R 的 2.4× 是官方跑分，社区复测还没出来", "作者自报"),
    ("- 指标（官方）：首 token 延迟降 38%", "作者自报"),
    ("- the official numbers only: 1.7× on H200", "作者自报"),
    ("- vendor-run evaluation; treat the 25% as a claim", "作者自报"),
    ("- Lumen-2 压缩 3×，尚无第三方复现", "待核实"),
    ("- 第三方评测目前还没看到", "待核实"),
    ("- no independent benchmark yet for the 60% figure", "待核实"),
    ("- Nobody else has replicated the 4× speedup", "待核实"),
    ("- 论文说在 TRT-LLM 上同样适用，但没做实测", "待核实"),
    ("- claims it carries over to SGLang; untested there", "待核实"),
    ("- the batching engines were not measured, only argued", "待核实"),
    # Not yet read closely: the claim stands on a skim.
    ("- 评测协议那节明天细读（数据集公开吗？）", "待核实"),
    ("- 附录还没细读，表 3 的 40% 先照抄", "待核实"),
    ("- 回头读 PDF 再确认 2.1×", "待核实"),
    ("- will read the protocol in full tomorrow; the 30% is from the abstract", "待核实"),
    ("- I'll read the appendix later, the 2x is unchecked", "待核实"),
]
NOT_CAVEATS = [
    "- 只有一个坑要注意：默认端口改了",  # one of something, said of no result
    "- 找到出处了：表 4 第三行，2.4×，和摘要一致",  # found, not missing
    "- 数字对得上：和论文表 2 一致",
    "> 评级：⭐ = 价值；⚠ = 可信度打折",
    "风险标记：⚠⚠⚬ 中 · ⚠⚬⚬ 中低",
    "- QuillServe 3.1× 提速已核实：和论文表 2 核对一致",
    "- The 42% figure was verified against the release notes",
    "- 截图里的 10× 没有条件，不收",
    "- 背景材料，只作背景，不进活文档正文 ⚠⚬⚬",
    "- 待核项见 D212（沿用）",
    "- Orca 吞吐 2.1×，8×H100，batch 64，输入 2K",
    "## §3 Lattice-KV ⚠⚬",
    "- 作者团队来自三家公司，代码已开源",
    "- Corvid 的 40% 是作者自己算的，结论 3-02 已锚，沿用",
    "- 全文已读完，摘要与正文一致",
    "- 未核心路径的改动不影响 TTFT",
    "- 2704.22222 今天把全文读完（上周只看了摘要），数字与表 3 对得上",
    "- Read the full paper tonight (last week: abstract only); numbers match table 2",
    "- 局限性一节写得很好，值得读",  # praise of a section, no condition stated
    "- 限制条件很宽松，几乎任何部署都满足",
    "- we reproduced it: the 2.3× holds on our cluster",
    "- 来源：Quokka 官方文档 v2.1 的部署章节",
    "- 在官方数据集 ShareGPT 上跑，8×H100，batch 32",
    "- 第三方复测已出，数字与官方一致，已核实",
    "- an official evaluation harness ships with the repo",
    "- 影响面 3000 万次/月：这个数官方口径和第三方统计能对上",
    "- 实测环境：8×H100，vLLM 0.30，batch 64",
    "- tested on 4 GPUs and 2 models; results in table 3",
    "- 前提条件都已满足，数字和表 2 核对一致",
    "- 明天细读的那篇已经读完了，数字对得上",
    "- 细读了全文，结论成立",
    "- I read it closely; numbers match table 2",
    "- 明天再发一版简报",
    "- read later: nothing here",
]


@pytest.mark.parametrize(("line", "label"), CAVEATS)
def test_a_scouts_doubt_is_a_caveat_of_its_kind(line: str, label: str) -> None:
    found = find_caveats(line)
    assert found and found[0].label == label, found


@pytest.mark.parametrize("line", NOT_CAVEATS)
def test_legends_settled_set_aside_and_plain_facts_are_not(line: str) -> None:
    assert find_caveats(line) == []


def test_a_to_verify_list_gives_one_caveat_per_item() -> None:
    found = find_caveats("- 待核：Orca 的 2.1× 条件；Lattice-KV 12× 只在一个模型上")
    assert [c.claim for c in found] == ["Orca 的 2.1× 条件", "Lattice-KV 12× 只在一个模型上"]


def test_the_subject_is_the_paper_or_the_name_not_the_outline_number() -> None:
    assert caveat_subject("- 只测了一组", "§二.1 Lattice-KV arXiv 2703.12345 ⭐⭐⭐") == "2703.12345"
    assert caveat_subject("- QuillServe 的提速没写 batch", "") == "QuillServe"
    assert caveat_subject("- 没写条件", "§Backend.2 vLLM 对比") == "vLLM"


def test_one_warning_per_claim_with_every_source_and_the_marks_risk() -> None:
    note_a = "## Orca serving\n- Orca 吞吐 2.1×：只测了一台机器 ⚠⚠⚬\n"
    note_b = "# b\n- Orca 吞吐 2.1× 也只测了一台机器\n"
    mentions = [*extract_mentions("inbox/mei/2027-03-16-a.md", note_a), *extract_mentions("inbox/lin/2027-03-16-b.md", note_b),
                *extract_mentions("inbox/mei/2027-03-16-serving-e1prep.md", note_a)]  # a brief: a relay
    [warning] = check_caveats(mentions)
    assert warning.kind == "caveat" and warning.subject == "Orca" and warning.risk == "中"
    assert warning.sources == ["inbox/lin/2027-03-16-b.md", "inbox/mei/2027-03-16-a.md"]
    assert "单一测试条件" in warning.text


# A second table, written independently by another engineer: (note body, subject, risk); near misses.
SECOND = [
    ('- QuokkaServe 吞吐 3.2× 于基线，测试条件未说明 ⚠⚬⚬', 'QuokkaServe', '中低'),
    ('- HeronKV 显存省 61%；仅在 1×L40S 上测得', 'HeronKV', '低'),
    ('- TernLM 首 token 120ms（厂商自报）⚠⚠⚬', 'TernLM', '中'),
    ('- PipitRouter goodput +42%，未复现 ⚠', 'PipitRouter', '低'),
    ('- 待核：WrenCache 命中率 88%；EgretDB 写放大 3×', 'WrenCache', '低'),
    ('- FinchAttn speeds up decode by 2.4x on long prompts (self-reported by the vendor).', 'FinchAttn', '低'),
    ('- KestrelQ cuts TTFT to 45ms; conditions not stated ⚠⚬', 'KestrelQ', '低'),
    ('- PloverMoE reaches 71% on the long-context suite, only one setting was reported.', 'PloverMoE', '低'),
    ('- AvocetLM claims 9.5K tok/s, not independently reproduced ⚠⚠⚬', 'AvocetLM', '中'),
    ('- GrebeKV 压缩 12× 但只给了一个 batch size 的数', 'GrebeKV', '低'),
    ('### §3 CootServe arXiv 2701.04567 ⭐⭐⭐\n- 数字（8B，单卡）：吞吐 1.9×\n- 论文里只有这一组配置。', 'CootServe', '低'),
    ('### 线索4 DunlinRT 混合精度陷阱 ⚠⚠⚬\n- DunlinRT 40 层里 12 层回退 BF16', 'DunlinRT', '中'),
    ('## 待核清单\n- SnipeKV 延迟 -35%\n', 'SnipeKV', '低'),
    ('- 据说 RuffServe 比对手快 5 倍，needs checking', 'RuffServe', '低'),
]
SECOND_NEAR = [
    '- QuokkaServe 吞吐 3.2×，已核实（官方 benchmark 页）',
    '- HeronKV 61% 与论文表 3 核对一致',
    '- TernLM 120ms ⚠ 已闭合（作者补了条件）',
    '> 风险标记：⚠⚠⚬ 中 · ⚠⚬⚬ 中低 · ⚠⚬ 低',
    '> 口径：星级为主观可读价值，⚠ 为待核。',
    '## 待核清单\n\n## 明日计划\n- 读 PipitRouter 全文',
    '- 状态：待核 / 已闭合 / 沿用',
    '- WrenCache 命中率 88% 待核（D231）',
    "- KestrelQ TTFT 45ms, verified against the vendor's public dashboard.",
    '- PloverMoE numbers were reproduced by two independent teams (71%).',
    '- 一张 AvocetLM 比别家快 4 倍的截图 ⚠⚬⚬，不收',
    '- 今天心情不好 ⚠',
    '- 连续第 4 天缺交 ⚠⚬⚬⚬⚬',
    '- GrebeKV conditions: 8×H100, FP8, batch 64, prefix reuse on.',
]


@pytest.mark.parametrize(("body", "subject", "risk"), SECOND)
def test_second_table_caveats(body: str, subject: str, risk: str) -> None:
    warnings = check_caveats(extract_mentions("inbox/x/2027-02-03-radar.md", body))
    # The subject is the claim's name, or the paper number its heading gives.
    names = {subject, *re.findall(r"\d{4}\.\d{4,5}", body)}
    assert any(w.subject in names and w.risk == risk for w in warnings), [(w.subject, w.risk) for w in warnings]


@pytest.mark.parametrize("body", SECOND_NEAR)
def test_second_table_near_misses(body: str) -> None:
    assert check_caveats(extract_mentions("inbox/x/2027-02-03-radar.md", body)) == []


def test_a_table_row_and_the_remark_under_it_are_one_caveat() -> None:
    body = ("## Lumen-Bench 2705.33333\n"
            "| 参考 | Quokka 搜索 | 6.2× | 4× 预算，页面注明 not comparable |\n"
            "\n"
            "- ⚠ Quokka 那行用了 4 倍预算，不可直接比，别拿来下结论\n"
            "\n\n\n\n\n"
            "- ⚠ Lumen-Bench 的任务数没写明，待核\n")
    warnings = check_caveats(extract_mentions("inbox/x/n.md", body))
    assert len(warnings) == 2
    assert sorted(len(w.sources) for w in warnings) == [1, 1]
    assert sum("Quokka" in w.text for w in warnings) == 1


def test_a_caveat_in_a_table_row_is_quoted_as_the_row_in_words() -> None:
    text = ("| 系统 | 提速 | 说明 |\n|---|---|---|\n| Quokka | 6.2× | 作者自测，只跑了一个 batch size ⚠⚬⚬ |\n"
            "| Lumen | 3.4× | |\n")
    [warning] = check_caveats(extract_mentions("inbox/x/2026-09-29-n.md", text))
    assert "Quokka：提速 6.2×，说明 作者自测" in warning.text
    assert "| 6.2× |" not in warning.text


@pytest.mark.parametrize(("text", "limit", "expected"), [
    ("leaderboard 自己标了 not comparable，别直接比", 30, "leaderboard 自己标了 not…"),
    ("leaderboard 自己标了 not comparable，别直接比", 34, "leaderboard 自己标了 not comparable…"),
    ("吞吐 16,200 tok/s 对 12,500 tok/s", 12, "吞吐 16,200…"),
    ("短句", 10, "短句"),
    ("abcdefghij klmnopqrstuvwxyz0123456789", 20, "abcdefghij…"),
])
def test_excerpts_end_at_a_boundary_never_inside_a_word_or_number(text: str, limit: int, expected: str) -> None:
    assert excerpt(text, limit) == expected


@pytest.mark.parametrize("line", [
    "- 更正 9-27：QuillServe 的 3.1× 是 batch 64 下的数，不是 batch 1",
    "- 勘误：上午写的 Corvid v2.4 应为 v2.6",
    "- **订正**：Lattice-KV 压缩率 12× 是论文附录里的峰值",
    "- 纠正（昨天的简报）：Orrery 不是 MIT 的工作，是 CMU",
    "- 之前写错了，Brisk-MoE 的 2× 是 prefill 阶段的",
    "- 昨天转述错了：Quokka 测的是 A100 不是 H100",
    "- Correction: the 42% figure was for the 8B model, not 70B",
    "- Erratum (9/27): Corvid's TTFT is p99, not p50",
    "- Yesterday's note was wrong about the Lumen context length; it is 32K",
    "- The table should read 310 ms for QuillServe, not 130 ms",
    "- ⚠ 更正：Corvid 的 92% 命中率来自厂商博客，此前记错为论文",
])
def test_a_scouts_correction_is_a_correction(line: str) -> None:
    assert [c.label for c in find_caveats(line)] == ["来源更正"]


@pytest.mark.parametrize("line", [
    "- QuillServe 加了纠错码，decode 更稳",
    "- error correction for KV cache bit flips (Lattice-KV)",
    "- 修正因子 0.93 乘到吞吐上",
    "- 输入法自动更正功能把 vLLM 写成了 vllm，无所谓",
    "- corrections to the reward model are out of scope",
])
def test_words_about_correcting_something_else_are_no_correction(line: str) -> None:
    assert all(c.label != "来源更正" for c in find_caveats(line))


def test_a_correction_is_raised_with_its_whole_line_and_at_least_medium_risk() -> None:
    text = "## Corvid\n- 更正 9-27：Corvid 的 TTFT 380ms 是开了 speculative decoding 的数，昨天写成了基线；基线是 520ms，条件 H100 FP8\n"
    [warning] = check_caveats(extract_mentions("inbox/x/2026-09-28-n.md", text))
    assert warning.key.startswith("correction:") and warning.risk in ("中", "高")
    assert "来源更正" in warning.text and "条件 H100 FP8" in warning.text


def test_a_flagged_heading_is_quoted_with_the_lines_under_it() -> None:
    body = ("## 线索4 Quokka × Lumen-9：滑窗 snapshot 陷阱 ⚠⚠⚬\n"
            "- 来源：一篇事后复盘，单一来源\n"
            "- 45 层里 34 层是滑窗注意力，一个超长 prompt 生成 51 个 snapshot\n"
            "- 结论：prefix caching 收益可能远低于预期\n"
            "- 第四行不引\n")
    [warning] = check_caveats(extract_mentions("inbox/mei/2026-10-02-notes.md", body))
    assert "滑窗 snapshot 陷阱" in warning.text and "34 层是滑窗注意力" in warning.text
    assert "第四行不引" not in warning.text and warning.risk == "中"


# A doubt about a paper's catalogue record (where it appeared, how often it is cited) is said on the item;
# it is not a doubt about what the paper claims. Wordings the sample vault does not use; near misses.
RECORD_DOUBTS = [
    "- 元数据：会议名 Crossref 写 MLSys，作者主页写 OSDI，待核",
    "- **Metadata**: venue differs between DBLP and the PDF footer, to be confirmed",
    "- 出处 / 被引：Semantic Scholar 120 次、Google Scholar 15 次，差距太大，待核实",
    "- venue: listed as NeurIPS workshop by the crawler, unverified",
    "- 书目信息：作者列表和 arXiv v2 不一致，需核对",
    "- Citations: 0 on OpenAlex vs 48 on S2, needs checking",
    "- 发表信息：期刊卷号缺失，待确认",
    "* 被引数：两家索引差一个数量级，未核实",
    "- bibliographic record: the year says 2024, the id says 2026 — not yet verified",
    "- 元信息：DOI 指向另一篇论文，待核",
]
NOT_RECORD_DOUBTS = [
    # A record line that doubts nothing is no caveat at all.
    ("- 元数据：Crossref 回补入卡，venue 与 PDF 一致", None),
    ("- Metadata: venue and year match the PDF", None),
    ("- 被引：S2 52 次", None),
    # A doubt about a result that merely names the venue is a caveat about the result.
    ("- 论文投了 OSDI，但 3.1× 的提速只测了一种硬件", "单一测试条件"),
    ("- The venue version reports 2× but conditions not stated", "条件未说明"),
    ("- 结果：JCT 改善的数字待核实（出处是作者博客）", "待核实"),
    ("- 局限：元数据之外，正文只跑了 Llama-3.1 8B 一个模型", "单一测试条件"),
    ("- 数据集出处未说明，压缩率 12× 的条件也没写", "条件未说明"),
    ("- QuillServe 的引用数很高，但 40% 的数字没人复现", "待核实"),
    ("- venue talk claims 5×; vendor numbers, not reproduced", "作者自报"),
]


@pytest.mark.parametrize("line", RECORD_DOUBTS)
def test_a_doubt_about_the_papers_record_is_a_metadata_caveat(line: str) -> None:
    from agents.scanner.caveats import METADATA_CAVEAT

    found = find_caveats(line)
    assert [c.label for c in found] == [METADATA_CAVEAT], found


@pytest.mark.parametrize(("line", "label"), NOT_RECORD_DOUBTS)
def test_record_lines_without_doubt_and_result_doubts_naming_a_venue_are_not(line: str, label: str | None) -> None:
    found = find_caveats(line)
    assert [c.label for c in found][:1] == ([label] if label else []), found


def test_a_record_doubt_is_one_warning_per_paper_and_known_as_such() -> None:
    from agents.verifier.caveats import is_metadata_caveat

    card = ("---\ncard: 7\narxiv: \"2703.04417\"\n---\n## 要点\n- 结果：吞吐 1.8×，只测了一种硬件\n"
            "- 元数据：venue 两处不一致，待核；被引 3 与 40 差距大，待核\n")
    warnings = check_caveats(extract_mentions("organized/paper_cards/7-2703-04417.md", card))
    record = [w for w in warnings if is_metadata_caveat(w)]
    result = [w for w in warnings if not is_metadata_caveat(w)]
    assert len(record) == 1 and len(result) == 1
    assert "单一测试条件" in result[0].text and "元数据待核" in record[0].text


def test_a_flagged_heading_is_reported_as_the_scouts_risk_not_as_a_doubt() -> None:
    body = ("## 线索3 HeronKV × Lumen-9B：滑窗层 snapshot 陷阱 ⚠⚠⚬\n- Lumen-9B 40 层里 30 层是滑窗注意力\n"
            "- HeronKV 的前缀缓存对滑窗层要存快照，长 prompt 显存翻倍\n\n## 线索4 QuillServe\n- 吞吐 2.1×，厂商自测 ⚠⚬\n")
    warnings = {w.subject: w for w in check_caveats(extract_mentions("inbox/x/2027-03-16-radar.md", body))}
    risk = next(w for s, w in warnings.items() if s and "HeronKV" in s)
    assert risk.label == "来源标注风险" and "风险注记" in risk.action and risk.risk == "中"
    doubt = next(w for s, w in warnings.items() if s and "QuillServe" in s)
    assert doubt.label is None and "作者自报" in doubt.text


@pytest.mark.parametrize(("claim", "heading", "subject"), [
    ("只在单节点 8 卡上跑过，跨节点 RDMA 回拉只有微基准 ⚠⚠⚬", "## Quillmap：分层 KV 卸载 ⭐⭐⭐", "Quillmap"),
    ("GPU 型号未注明，TTFT 口径不清", "### Tern-Serve 0.4 发布", "Tern-Serve"),
    ("Lumen-KV 的数字是厂商自测", "## 杂项", "Lumen-KV"),  # a system named on the line is the subject
    ("只给了一个 batch size 的 TTFT", "## 杂项", "杂项"),  # no system anywhere: the section's own words
])
def test_a_caveat_is_about_the_system_its_section_names_not_the_technology_on_its_line(
        claim: str, heading: str, subject: str) -> None:
    from agents.verifier.caveats import caveat_subject

    assert caveat_subject(claim, heading) == subject


def test_a_coordination_note_calling_figures_a_conflict_is_quoted_as_its_claim_not_adopted() -> None:
    line = "- Lumen 两个数打架：tom 写 -41%，jay 写 -17%，请 spark 登记矛盾 ⚠⚠⚬"
    own = [m for m in extract_mentions("inbox/otto/2026-10-02-1245-otto-coordination-noon.md", line) if m.kind == "caveat"]
    note = [m for m in extract_mentions("inbox/jay/2026-10-02T1400-jay-scan.md", line) if m.kind == "caveat"]
    [relayed] = check_caveats(own)
    [first_hand] = check_caveats(note)
    assert "协调记录所称矛盾，未核各源条件" in relayed.text
    assert "协调记录所称矛盾" not in first_hand.text


@pytest.mark.parametrize(("line", "risk"), [
    ("- ⚠ 要带上的结论：Quill 上生产之前，控制面必须只绑内网地址 + 加 mTLS，不然不要部署", "中"),
    ("- ⚠ Quill's control plane has no auth: do not deploy it on a shared network", "中"),
    ("- ⚠ 只测了一组配置", "低"),  # a doubt, not a hazard
])
def test_a_scout_saying_it_is_unsafe_to_deploy_raises_the_risk(line: str, risk: str) -> None:
    from agents.verifier.caveats import check_caveats
    mentions = extract_mentions("inbox/flyp/2027-03-16-1530-flyp-read.md", f"## Quill 安全\n{line}\n")
    [warning] = [w for w in check_caveats(mentions) if w.kind == "caveat"]
    assert warning.risk == risk



@pytest.mark.parametrize(("claim", "heading", "subject"), [
    # A line listing several items: the mark qualifies the clause it ends.
    ("- #4 Quokka（卡 1571）——摘要 2.9×；#9 Heron 端侧 prefill——只有一台工程机的数 ⚠⚬⚬", "与各主轴的关系", "Heron"),
    ("- #4 Quokka：2.9×；#9 NPU prefill / GPU decode——只有一台工程机 ⚠⚬⚬", "榜单", "NPU"),
    ("- Quokka 2.9×; Heron only on one phone ⚠⚬", "", "Heron"),
    # A source named before what it wrote, a metric and a figure reference are not the subject: the section's is.
    ("- 早上 The Serving Desk 写的\"P90 TTFT 降 75%\"，引的就是 Fig.4 ⚠⚠⚬", "§1 Corvid 0.4 路由", "Corvid"),
    ("- Lumen Weekly says P90 TTFT -75%, source unknown ⚠⚬", "Corvid 0.4", "Corvid"),
    # Near misses: a one-clause line keeps its own name; an unmarked list keeps the first name.
    ("- KestrelQ cuts TTFT to 45ms; conditions not stated ⚠⚬", "", "KestrelQ"),
    ("- Quokka 没写 batch；Heron 也没写", "", "Quokka"),
])
def test_a_caveat_is_about_the_clause_its_mark_ends_and_never_a_source_or_metric(claim: str, heading: str,
                                                                                subject: str) -> None:
    assert caveat_subject(claim, heading).startswith(subject)


@pytest.mark.parametrize(("line", "caveat"), [
    # Items told apart, no figure doubted: no caveat.
    ("- 和 §1.4 已锚的 Quokka（权重格式）不是一回事：那条是权重，这篇是 KV；我认为算 NET-new", False),
    ("- Heron is not the same thing as the anchored Heron-W (weights vs KV)", False),
    # Figures set apart, or a flagged distinction: a caveat.
    ("- Quokka 380ms 和 Heron 103ms 口径不同，不能合并", True),
    ("- 两个数不是一回事，不能合并 ⚠⚬⚬", True),
    ("- Heron 2.1× vs 1.7×: not directly comparable", True),
])
def test_telling_two_items_apart_is_no_caveat_but_setting_figures_apart_is(line: str, caveat: bool) -> None:
    assert bool(find_caveats(line)) is caveat


@pytest.mark.parametrize(("heading", "subject"), [
    ("## 7. Orrery 线：Quokka-S 开源替代 0.9s vs 4.1s ⭐⭐⭐⭐", "Quokka-S"),   # filed under a line of work
    ("## Mamba 方向：Hydra-2 推理", "Hydra-2"),
    ("### Agent track: Foo-Serve beats the baseline", "Foo-Serve"),
    ("## 3、Lumen 系列：LumenKV v2", "LumenKV"),
    ("## Speculative thread: Tandem-Draft", "Tandem-Draft"),
    ("## TierPilot：分层 KV 卸载", "TierPilot"),                          # the name before a colon is the subject
    ("## 线索2 Heron × Quill-7B：线性注意力快照陷阱", "Heron"),            # a clue number is no line label
    ("## Orrery 路线图：下季度计划", "Orrery"),                             # 路线图 is the subject's roadmap
])
def test_a_caveat_under_a_heading_filed_by_line_of_work_is_about_the_named_subject(heading: str, subject: str) -> None:
    assert caveat_subject("- 硬件没写 ⚠⚬⚬", heading) == subject


@pytest.mark.parametrize(("line", "caveat"), [
    ("- 愿景文，没有系统实现。", True),
    ("- 目前只有论文和报道，代码仓 README 写 coming soon", True),
    ("- 立场论文，没有可运行的实现", True),
    ("- 代码库到今天还没放，只有 PPT", True),
    ("- position paper, no code yet", True),
    ("- vision paper only; not yet open-sourced", True),
    # Near misses: code is out, or the line speaks of what the implementation does.
    ("- 已开源实现，README 很全", False),
    ("- 实现细节见附录 B：两级哈希", False),
    ("- the implementation overlaps prefill with weight loading", False),
    ("- 代码已放出，loader 部分能跑", False),
])
def test_a_scout_saying_nothing_runs_yet_is_a_caveat(line: str, caveat: bool) -> None:
    assert bool([c for c in find_caveats(line) if c.label == "尚无实现"]) == caveat


@pytest.mark.parametrize(("line", "label"), [
    ("- 论文只测了 8B，70B 以上的多卡配置没有", "单一测试条件"),
    ("- only evaluated 7B; nothing at 70B — 只跑了 7B", "单一测试条件"),
    ("## 文章主张（全部是团队自述，我逐条记）", "作者自报"),
    ("- 全篇没有一个数字，只能当方向性表态看", "无数字支撑"),
    ("- a blog post without a single number", "无数字支撑"),
    ("- 第 3 条要小心：这句不能拿来抵消那篇评测的提醒", "来源提醒慎用"),
    ("- take this with a grain of salt, the baseline is theirs", "来源提醒慎用"),
    # Near misses: several sizes tested, a plain warning about the system, numbers given.
    ("- 测了 8B、70B 两档", None),
    ("- 小心显存不够时会 OOM，要调 max-num-seqs", None),
    ("- 数字：吞吐 +27%，TTFT -31%", None),
])
def test_scouts_doubts_in_more_words_are_caveats(line: str, label: str | None) -> None:
    labels = [c.label for c in find_caveats(line)]
    assert (label in labels) if label else not labels


@pytest.mark.parametrize(("heading", "subject"), [
    ("## #1 Beyond the Prefix（官方博客，团队署名）⭐⭐⭐", "Beyond the Prefix"),
    ("## Attention Sinks Are Not Free ⭐⭐⭐", "Attention Sinks Are Not Free"),
    ("## Tern-Serve 0.4 发布", "Tern-Serve"),          # a version is no word of the title
    ("## Quokka 对比", "Quokka"),
])
def test_a_caveat_under_a_titled_heading_is_about_the_whole_title(heading: str, subject: str) -> None:
    assert caveat_subject("- 全篇没有一个数字", heading) == subject


@pytest.mark.parametrize("line", [
    "| Ollama | v0.34.4-rc1 | 🔴 RC（含 breaking changes） | 升级前需谨慎 |",   # a caution about the system
    "- 部署时要小心显存碎片",
])
def test_a_caution_about_running_the_system_is_no_doubt_of_a_claim(line: str) -> None:
    assert "来源提醒慎用" not in [c.label for c in find_caveats(line)]


@pytest.mark.parametrize("line", ["- 结果（摘要）：吞吐提升约 1.4×（4×A100，单一配置）", "- 单一数据集上测的，+9%"])
def test_a_single_configuration_is_a_caveat(line: str) -> None:
    assert "单一测试条件" in [c.label for c in find_caveats(line)]
