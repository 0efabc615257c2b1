"""Nothing read is silently dropped: sections of the day's notes that became no item are listed."""

from __future__ import annotations

from dataclasses import dataclass

from agents.integrator.audit import unplaced_sections
from agents.integrator.cluster import Item, Passage
from agents.integrator.scope import ScopeRules

RULES = ScopeRules(topic="serving", names=frozenset({"serving"}), keywords=("KV cache", "GPU", "TTFT", "调度", "offload"))

NOTE = """# mei · 晚间扫描

## Quokka-KV 新版 ⭐⭐⭐
- KV cache 分层 offload 到 NVMe，TTFT 降 30%，只有模拟器结果，先记。

## Lumen：HBM 内存侧算 attention ⭐⭐
- 冷 KV cache 放到内存侧，workshop 短文。

## Otter 调度器 ⚠⚬⚬
- 调度策略改成 SLO 感知，TTFT 数字没写条件。
- GPU 型号未注明。

## 向量库选型
- Milvus 与 PGVector 对比，RAG 用。

## Raven 开源了
- https://github.com/example/raven ，KV cache 调度，GPU 上测了。

## 杂项（跳过）
- 一张 KV cache TTFT 截图，无来源，GPU 不明。

## 小结
- 今天 serving 相关：Quokka-KV、Otter；GPU 价格不记。
"""


@dataclass
class _File:
    path: str
    body: str
    text: str
    body_line: int = 1


def _sections(items: list[Item], files: list[_File] | None = None) -> dict[str, dict]:
    files = files or [_File("inbox/mei/2026-03-11T2010-mei-evening-scan.md", NOTE, NOTE)]
    read = {f.path for f in files}
    found, set_aside = unplaced_sections(files, read, items, RULES)
    return {entry["title"]: entry for entry in found} | {"set aside": {"sources": set_aside}}


def test_sections_no_item_holds_are_listed_with_relevance_and_the_scouts_flag() -> None:
    found = _sections([])
    assert "Quokka-KV 新版" in found and found["Quokka-KV 新版"]["relevance"] >= 2
    assert "Lumen：HBM 内存侧算 attention" in found  # one term, but the scout rated it: listed
    assert "⚠⚬⚬" in found["Otter 调度器"]["reason"]  # the scout's own flag travels with it
    assert "L9）" in found["Otter 调度器"]["reason"]
    assert "向量库选型" not in found  # nothing of the topic
    assert "Raven 开源了" not in found  # a link's section is its item's
    assert "小结" not in found  # the note speaking of itself
    assert found["set aside"]["sources"] == ["inbox/mei/2026-03-11T2010-mei-evening-scan.md"]  # "杂项（跳过）"


def test_a_section_an_item_holds_is_not_listed_nor_its_subsections() -> None:
    path = "inbox/mei/2026-03-11T2010-mei-evening-scan.md"
    digest = Item(key=f"note:{path}", passages=[Passage(path, 3, 8, "## Quokka-KV 新版 ⭐⭐⭐")])
    found = _sections([digest])
    assert "Quokka-KV 新版" not in found and "Lumen：HBM 内存侧算 attention" not in found
    assert "Otter 调度器" in found


def test_coordination_notes_and_the_topics_own_briefs_are_not_audited() -> None:
    files = [_File("inbox/otto/2026-03-11-1245-otto-coordination-noon.md", NOTE, NOTE),
             _File("inbox/otto/2026-03-10-serving-e1prep.md", NOTE, NOTE)]
    assert _sections([], files) == {"set aside": {"sources": []}}
