"""The scouts' own doubts, in wordings the sample vault does not use; near misses; and the warning they make."""

from __future__ import annotations

import pytest

from agents.scanner.caveats import find_caveats
from agents.scanner.mentions import extract_mentions
from agents.verifier.caveats import caveat_subject, check_caveats

CAVEATS = [
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
]
NOT_CAVEATS = [
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
