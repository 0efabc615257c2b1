"""URLs and keywords as notes write them: pages and patterns that are no page, keywords in their forms."""

from __future__ import annotations

import pytest

from agents.scanner.relevance import keyword_hits
from agents.scanner.urls import find_urls, normalize_url


@pytest.mark.parametrize(("text", "urls"), [
    ("见 https://example.org/blog/kv-cache-wins。", ["https://example.org/blog/kv-cache-wins"]),
    ("两篇：https://a.example/x 和 https://b.example/y", ["https://a.example/x", "https://b.example/y"]),
    ("原文 https://example.org/post<br>下一行", ["https://example.org/post"]),  # an HTML tag ends the URL
    # Patterns, not pages: a placeholder where the article's own part would be.
    ("URL 统一格式 https://blog.example.net/<作者>/article/details/<号>（按号搜）", []),
    ("repos follow https://github.com/<org>/<repo>", []),
    ("feeds at https://example.org/{slug}/rss", []),
])
def test_pages_are_found_and_patterns_are_not(text: str, urls: list[str]) -> None:
    assert [url for url, _, _ in find_urls(text)] == urls


def test_one_page_written_two_ways_is_one_key() -> None:
    assert normalize_url("https://www.Example.org/a/?utm_source=x") == normalize_url("https://example.org/a")


@pytest.mark.parametrize(("text", "keywords", "hits"), [
    ("the Scheduler splits prefill into chunks", ["scheduling", "prefill"], ["scheduling", "prefill"]),
    ("weights quantized to 4 bits", ["quantization"], ["quantization"]),
    ("KV 池按 DynamicCache 注入", ["KV cache"], ["kv cache"]),
    ("多卡调度器", ["调度"], ["调度"]),
    # Near misses: a short word is matched as written; a stem needs a word start.
    ("the served model", ["serving"], []),
    ("reschedule the meeting", ["scheduling"], []),
    ("GPUs", ["HBM"], []),
    # The leading acronym of a several-word keyword, standing alone, means it ("KV 块", "2-bit KV").
    ("跨节点 KV 块传输 46 GB/s", ["KV cache"], ["kv cache"]),
    ('"2-bit KV 近无损"仅在 LongBench 子集测得', ["KV cache"], ["kv cache"]),
    ("KVSET 误差 <5%", ["KV cache"], []),  # inside a name: not the acronym
    ("the KVM hypervisor", ["KV cache"], []),
])
def test_keywords_match_their_forms_not_their_fragments(text: str, keywords: list[str], hits: list[str]) -> None:
    assert keyword_hits(text, keywords) == hits
