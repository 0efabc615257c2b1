"""One thing under two numbers: a version with a moved dot, an arXiv number with swapped digits."""

from __future__ import annotations

import pytest

from agents.integrator.cluster import mistaken_numbers
from agents.scanner.mentions import extract_mentions
from agents.verifier.claims import check_version_conflicts
from state.models import BriefWarning


def _scheme(warnings: list[BriefWarning]) -> list[BriefWarning]:
    return [w for w in warnings if w.key.startswith("version_conflict:scheme:")]


def test_a_moved_dot_is_paired_inside_the_window_before_the_living_document() -> None:
    morning = extract_mentions("inbox/a/morning.md", "- 发布：vLLM v0.31.0，prefix caching 默认开启")
    blog = extract_mentions("inbox/a/blog.md", "- 作者线上从 vLLM 0.3.1 升级后 P99 降低")
    living = extract_mentions("doc.md", "- vLLM v0.30.0（2026-09-22）：Model Runner V2")
    [warning] = _scheme(check_version_conflicts([*morning, *blog], living))
    assert warning.key == "version_conflict:scheme:vLLM:0.3.1,0.31.0"
    assert warning.sources == ["inbox/a/blog.md", "inbox/a/morning.md"]
    assert "小数点" in warning.text and "0.30.0" not in warning.text


def test_the_tenfold_minor_version_still_pairs_with_the_reference() -> None:
    blog = extract_mentions("inbox/a/blog.md", "- 环境：vLLM 0.3.3")
    living = extract_mentions("doc.md", "- vLLM v0.30.0（2026-09-22）")
    [warning] = _scheme(check_version_conflicts(blog, living))
    assert warning.key == "version_conflict:scheme:vLLM:0.3.3,0.30.0" and "数量级" in warning.text


def test_different_digits_are_not_a_second_scheme() -> None:
    notes = extract_mentions("inbox/a/blog.md", "- vLLM 0.3.1 与 vLLM 0.32.0 对比")
    assert _scheme(check_version_conflicts(notes)) == []


def _conflict(text: str, subject: str) -> BriefWarning:
    return BriefWarning(id="C1", register="D9", kind="id_conflict", text=text, risk="中", action="核对",
                        sources=["inbox/a/x.md"], subject=subject, key=f"id_conflict:name:{subject.lower()}")


def test_the_number_whose_title_fits_is_right_and_the_other_is_mistaken() -> None:
    warning = _conflict("同一名称「Multi-Level Draft Verification」对应两个不同的 arXiv 号：2610.17146（inbox/a/x.md） "
                        "与 2610.17164（inbox/a/y.md）。", "Multi-Level Draft Verification")
    found = mistaken_numbers([warning], {"2610.17164": "SpecLadder: Multi-Level Draft Verification for Decoding"})
    assert set(found) == {"2610.17146"}
    assert found["2610.17146"].likely == "2610.17164" and found["2610.17146"].warning == "D9"


def test_without_a_title_the_living_documents_number_is_right() -> None:
    warning = _conflict("同一名称「Workload-Router-Pool」对应两个不同的 arXiv 号：2603.21354（inbox/a/x.md） "
                        "与 2609.21354（doc.md）。", "Workload-Router-Pool")
    assert mistaken_numbers([warning], {}, baseline={"2609.21354"})["2603.21354"].likely == "2609.21354"
    assert mistaken_numbers([warning], {}) == {}  # nothing settles it: both stay


def test_a_number_the_living_document_or_a_card_carries_is_never_called_wrong() -> None:
    warning = _conflict("同一名称「JIT Memory」对应两个不同的 arXiv 号：2609.25853（inbox/a/x.md） "
                        "与 2609.27334（doc.md）。", "JIT Memory")
    assert mistaken_numbers([warning], {"2609.27334": "JIT Memory"}, baseline={"2609.25853"}) == {}
    assert mistaken_numbers([warning], {"2609.27334": "JIT Memory"}, cards={"2609.25853"}) == {}


_TITLES = {"2709.45528": ("Prefill on the Phone NPU, Decode on the GPU: Phase Splitting On Device", "卡 1573"),
           "2709.11111": ("Quokka: Tiered KV Eviction", "卡 1574")}


@pytest.mark.parametrize(("section", "slipped"), [
    # One paper's title written out under another number with no title of its own.
    ("## Tier2 · 端侧 NPU prefill（arXiv 2710.05528）⭐⭐⭐\n- Prefill on the Phone NPU, Decode on the GPU —— HF 也有",
     {"2710.05528"}),
    ("- Prefill on the Phone NPU, Decode on the GPU（arXiv 2709.45582）：TTFT 1.9 s → 0.62 s", {"2709.45582"}),
    ("### 2709.45529 · prefill on the phone npu, decode on the gpu\n- 数字见卡", {"2709.45529"}),
    ("## 端侧（https://arxiv.org/abs/2710.05528）\n- Prefill on the Phone NPU — Decode on the GPU（全文）", {"2710.05528"}),
    # Near misses: the title under its own number; a list's other entry; a number with a title of its own;
    # a title too short to tell; a heading whose next line names another paper's title only in a later bullet.
    ("## 端侧 NPU prefill（arXiv 2709.45528）\n- Prefill on the Phone NPU, Decode on the GPU", set()),
    ("## 与各主轴的关系\n- #11 EOS Tokens（2709.20511）已锚\n- engineering：#5 Prefill on the Phone NPU, Decode on the GPU 已有卡",
     set()),
    ("## Quokka 复读（arXiv 2709.11111）\n- Prefill on the Phone NPU, Decode on the GPU 是另一篇", set()),
    ("## 杂项（arXiv 2710.00001）\n- Quokka 也在榜上", set()),
    ("## 杂项（arXiv 2710.00001）\n- 先读别的\n- Prefill on the Phone NPU, Decode on the GPU 明天读", set()),
    ("- 2710.00002 和 2710.00003 两篇都提到 Prefill on the Phone NPU, Decode on the GPU", set()),
])
def test_a_papers_title_written_under_another_number_is_one_paper_under_two(section: str, slipped: set[str]) -> None:
    from agents.verifier.identifiers import check_titles_under_other_numbers

    found = check_titles_under_other_numbers([("inbox/lin/2027-09-30-n.md", 5, section)], _TITLES)
    assert {w.text.split("却写作 arXiv ")[1][:10] for w in found} == slipped
    assert all(w.kind == "id_conflict" and "2709.45528" in w.text for w in found)


@pytest.mark.parametrize(("line", "repaired"), [
    # A short number whose line names the carded paper holding its digits: repaired with why.
    ('- 三级 KV offload 论文：引的号是 "arXiv 2710.1187"，看内容就是 jay 昨晚记的 Quokka', "2710.01187"),
    ("- Quokka (arXiv 2710.1187) again on HF", "2710.01187"),
    # Near misses: no name on the line; another name; digits that are not the card's with one left out.
    ('- 引的号是 "arXiv 2710.1187"，标题党', None),
    ("- Heron（arXiv 2710.1187）", None),
    ("- Quokka（arXiv 2710.1178）", None),
])
def test_a_short_number_beside_its_carded_papers_name_is_repaired(line: str, repaired: str | None) -> None:
    from types import SimpleNamespace

    from agents.verifier.identifiers import certain_repairs

    card = SimpleNamespace(arxiv="2710.01187", title="Quokka: Bandwidth-Aware KV Placement", card=1580)
    found = certain_repairs(extract_mentions("inbox/spark/2027-10-03-rss.md", line), [card], by_card_name=True)  # type: ignore[list-item]
    assert (found.get(next(iter(found)), (None,))[0] if found else None) == repaired


@pytest.mark.parametrize(("warning", "shown"), [("D219", "（D219）"), ("C5", None), ("W3", None)])
def test_a_mistaken_numbers_entry_names_its_finding_by_register_number_only(warning: str, shown: str | None) -> None:
    from agents.integrator.cluster import MistakenNumber
    from agents.integrator.compose import _mistaken_entry

    entry = _mistaken_entry("2710.05528", MistakenNumber("2709.45528", "Quokka", warning), [], {})
    assert (shown in entry.note) if shown else (f"（{warning}）" not in entry.note)
