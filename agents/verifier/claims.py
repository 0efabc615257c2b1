"""What the mentions claim, resolved for checking: figures with their entity, metric and conditions; versions.

The name a note gives an arXiv number is resolved in ``agents.verifier.names``.

A figure belongs to the entity nearest before it in its clause, with no other
figure in between (a name is taken by the first figure after it); a chain
``85ms vs 380ms（SGLang vs vLLM）`` pairs figures and names in order; in a
table row, a name in the column header, else the row's first cell. No product
list: an entity is any name token that is not a metric, a unit, hardware, a
precision or a source (a site, or a name in a 来源/source column or before
测得/blog/reports). Failing that, the one arXiv number on its line or cited at
most three lines above. The metric is the metric word nearest the figure with
its qualifiers (p50/p99, prefill/decode, input/output, peak/average), so
``TTFT p50`` and ``TTFT p99`` are two metrics. Before/after pairs joined by an
arrow (``7.85s → 2.56s``) are left out. A relative change in percent with its direction written
(``TTFT -58%``, ``吞吐提升 44%``, ``cuts p99 by 30%``) is a claim of its own metric, ``TTFT 降幅`` or
``throughput 增幅``, with the baseline it names (``vs vLLM``) as a condition; a change whose direction is not
written, and signed changes in other units (``+0.3s``), are left out.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.e1_format import is_brief_path
from agents.scanner.excerpt import excerpt
from agents.scanner.mentions import (
    METRIC_ALIASES,
    METRICS,
    RANK_LABEL,
    SAID_CLOSE,
    SAME_SETUP,
    nearest_metric,
    vouches_same_setup,
)
from agents.scanner.tables import row_sentence
from agents.verifier.names import arxiv_name, name_key
from state.models import BriefWarning, Mention

__all__ = [
    "CLASH",
    "FigureClaim",
    "VersionClaim",
    "figure_claims",
    "version_claims",
    "make_warning",
    "quote",
    "check_version_conflicts",
    "check_number_conflicts",
    "conditions_of",
    "metric_qualifiers",
]

_UNIT_ALIASES = {"x": "×", "倍": "×", "秒": "s", "configs": "个", "config": "个", "configurations": "个",
                 "configuration": "个", "GiB": "GB"}
# Counts of a note's own items, and sizes that are the set-up ("70B" parameters, "128K" context), not results.
_SKIP_UNITS = frozenset({"条", "件", "卡", "B", "K", "M"})
_ARROW = ("→", "->", "➜", "⇒")
_CURRENT = re.compile(r"最新|当前|目前|现行|现为|已发布|刚发布|\bcurrent(?:ly)?\b|\blatest\b|\bnewest\b|\bnow\b",
                      re.IGNORECASE)
_HISTORIC = re.compile(
    r"前一版|上一版|上个版本|旧版|老版本|此前|之前|曾经?|原先|原来|升级自|升级前|迁移自|从|自|起|以来|回退|"
    r"\bsince\b|\bfrom\b|\bprevious(?:ly)?\b|\bprior\b|\bold(?:er)?\b|\bearlier\b|\bwas\b|\blegacy\b|"
    r"\bdeprecated\b|\bupgraded?\b|\bmigrat\w*\b|\bused to\b",
    re.IGNORECASE,
)
_HISTORIC_HEAD = re.compile(r"升级自|迁移自|前一版|上一版|旧版|\bsince\b|\b(?:upgraded|migrated|moved)\s+from\b|"
                            r"\bprevious(?:ly)?\b|\bformerly\b", re.IGNORECASE)
_NAME = re.compile(r"(?<![\w.\-])([A-Za-z][A-Za-z0-9]*(?:[.\-+_][A-Za-z0-9]+)*)(?![\w\-])")
_DOMAIN = re.compile(r"\.(?:com?|ai|io|net|org|tech|dev|cn|blog|app|sh|me)$", re.IGNORECASE)
_SOURCE_AFTER = re.compile(r"^\s*(?:blog|博客|测得|测|实测|报告|报道|那份|那组|这份|这组|文|原文|称|写的|写道|转述|引的|reports?|says|"
                           r"wrote|writes|quotes?|measured|"
                           r"found|'s\s+(?:blog|post|benchmark))", re.IGNORECASE)
_SOURCE_HEADER = re.compile(r"来源|出处|信源|source|ref|reference", re.IGNORECASE)
_NOT_ENTITY_WORDS = frozenset({
    "vs", "and", "or", "with", "without", "on", "at", "in", "of", "for", "the", "a", "an", "to", "by", "per",
    "fp8", "fp16", "bf16", "fp4", "nvfp4", "mxfp4", "int8", "int4", "awq", "gptq", "w4a16", "w8a8",
    "sxm", "pcie", "nvlink", "gpu", "cpu", "prefix", "reuse", "caching", "cache", "kv", "batch", "bs", "agent",
    "prefill", "decode", "input", "output", "peak", "avg", "average", "mean", "median", "max", "min", "p50", "p90",
    "p95", "p99", "p999", "ms", "s", "tok", "tokens", "req", "gb", "mb", "tb", "k", "m", "b", "x", "rps",
    "note", "todo", "ok", "tier1", "top", "baseline", "context", "ctx", "concurrency", "qps", "multi-turn",
    "single-turn", "llm", "ai", "api", "rag", "sota", "arxiv", "doi",
    # memory tiers and links: where the KV sits or what it is compared with ("CPU DRAM offload 基线"), no entity
    "dram", "hbm", "sram", "nvme", "ssd", "hdd", "cxl", "rdma", "roce", "infiniband", "ib", "ethernet", "offload",
})
_METRIC_WORDS = frozenset(m.lower() for m in METRICS)
_QUALIFIERS = (
    ("p50", r"p50|中位数?|median"), ("p90", r"p90"), ("p95", r"p95"), ("p99", r"p99|尾延迟|tail"),
    ("prefill", r"prefill|预填充"), ("decode", r"decode|解码"),
    ("input", r"input|输入"), ("output", r"output|输出"),
    ("peak", r"peak|峰值|最高|max"), ("average", r"average|avg|mean|平均|均值"),
)
_APPROX = re.compile(r"(?:约|大约|近|将近|接近|约为|~|～|≈|about|around|roughly|approx(?:imately)?\.?|nearly)\s*$",
                     re.IGNORECASE)
_AT_LEAST = re.compile(r"(?:超过|高于|不低于|至少|>|≥|over|above|at least|more than)\s*$", re.IGNORECASE)
_AT_MOST = re.compile(r"(?:低于|不超过|至多|<|≤|under|below|at most|less than)\s*$", re.IGNORECASE)
_CHAIN_SEP = re.compile(r"^\s*(?:vs\.?|VS\.?|对比?|比|/|、|和|与|and|versus)\s*$")
_CLAUSE_BREAK = re.compile(r"[。；;，]|,(?!\d{3}(?!\d))")  # not the comma of a grouped number ("1,820")
_TIME_METRICS = frozenset({"ttft", "itl", "tpot", "latency", "p50", "p99"})
# The direction of a relative change written before its percentage ("降低约 41%", "-58%", "cuts TTFT p99 by
# 30%"), in its clause. Words whose direction depends on the metric ("快 30%": less latency but more
# throughput) are not read.
_BETWEEN = r"[^，。；;,、%|：:]{0,18}$"
_DOWN = re.compile(r"(?:(?<![\w.])[-−](?=\s*$)|降低?|下降|减少|缩短|减小|减了|少了|砍掉|(?:节|再|可)?省(?:下|了|掉)?|"
                   r"\bcut[s]?\b|\breduc\w*|\bsav(?:es?|ed|ing)\b|"
                   r"\blower(?:s|ed|ing)?\b|\bdrop(?:s|ped)?\b|\bdecreas\w*|\bshrink\w*|\bshr[ua]nk\b)" + _BETWEEN,
                   re.IGNORECASE)
_UP = re.compile(r"(?:[+＋](?=\s*$)|提升|提高|增加|增长|上升|上涨|涨了|多占|多用|\bimprov\w*|\bincreas\w*|\bboost\w*|"
                 r"\bgain(?:s|ed)?\b|\brais\w*|\bup\b)" + _BETWEEN, re.IGNORECASE)
_BASELINE = re.compile(r"(?:相对于?|相比(?:于)?|相较(?:于)?|比起?|对比|对照组?(?:都|均|全)?(?:是|为)?|基线是?|\bvs\.?|\bversus|\bover|\bthan|\bagainst|"
                       r"\brelative to|\bcompared (?:to|with))\s*([A-Za-z][A-Za-z0-9]*(?:[.\-+_][A-Za-z0-9]+)*)",
                       re.IGNORECASE)


def _direction(head: str) -> int:
    """-1 for a written fall ("降 41%", "-58%"), +1 for a written rise ("+27%", "提升 44%"), 0 when unwritten."""
    down, up = _DOWN.search(head), _UP.search(head)
    if down and (not up or down.start() > up.start()):
        return -1
    return 1 if up else 0


@dataclass(frozen=True)
class FigureClaim:
    """A figure with the entity and metric it is about, and the conditions stated beside it."""

    subject: str
    metric: str
    unit: str
    low: float
    high: float
    mention: Mention
    conditions: dict[str, frozenset[str]] = field(default_factory=dict, compare=False)
    named: str = field(default="", compare=False)  # the name the source gave the paper ``subject`` is the number of
    derived: str = field(default="", compare=False)  # a change worked out from a before → after pair, as said


@dataclass(frozen=True)
class VersionClaim:
    """A product version as a source states it; ``current`` when it is said to be the latest."""

    product: str
    version: str
    parts: tuple[int, ...]
    current: bool
    date: str | None
    mention: Mention


def _subject_by_line(mentions: Sequence[Mention]) -> dict[tuple[str, int], list[str]]:
    ids: dict[tuple[str, int], list[str]] = {}
    for mention in mentions:
        if mention.kind == "arxiv" and not mention.detail.get("malformed"):
            bucket = ids.setdefault((mention.source, mention.line), [])
            if mention.value not in bucket:
                bucket.append(mention.value)
    return ids


def _sources_named(mentions: Sequence[Mention]) -> set[str]:
    """Names used as sources in these notes: the first cells of rows under a 来源/source column."""
    sources = set()
    for mention in mentions:
        table = mention.detail.get("table") if mention.kind == "figure" else None
        if table and _SOURCE_HEADER.search(table.get("first_header", "")) and table["row"]:
            sources.update(m.group(1).lower() for m in _NAME.finditer(table["row"][0]))
    return sources


def _setup_item(text: str, match: re.Match[str], name: str | None = None) -> bool:
    """The name is one item of a "·"-separated set-up list that also gives hardware or a model size."""
    start = max(text.rfind(ch, 0, match.start()) for ch in "，。；;：:→\n") + 1
    ends = [i for ch in "，。；;：:→\n" if (i := text.find(ch, match.end())) >= 0]
    segment = text[start:min(ends) if ends else len(text)]
    parts = [p.strip(" *") for p in re.split(r"\s[·|]\s|\s*·\s*", segment)]
    name = name or match.group(1)
    # Not the list's first item: "Tessel 表 3 · 70B · 4×H100 · batch 64：…" is Tessel's figure.
    return len(parts) >= 3 and any(p == name or p.startswith(name + " ") and len(p) <= len(name) + 8
                                   for p in parts[1:]) and not parts[0].startswith(name) and any(
        _HARDWARE.search(p) or re.search(r"\d+(?:\.\d+)?[BK]\b", p) for p in parts)


_WORKLOAD_AFTER = re.compile(r"\s*(?:[\w-]{0,6}\s*)?(?:改造)?(?:负载|数据集|数据|trace|traces|workload|dataset|prompts?)\b",
                             re.IGNORECASE)
_PLATFORM_BEFORE = re.compile(r"(?:在|于|基于|相对于?|相比|比|较|对比|对照组?是?|基线是?|\bon|\batop|\bover|\bthan|"
                              r"\bagainst|\bbaseline(?: is)?)\s*$",
                              re.IGNORECASE)


def _names(text: str, sources: set[str]) -> list[re.Match[str]]:
    """The entity names in ``text``: name tokens that are not metrics, conditions, hardware or sources."""
    found = []
    for match in _NAME.finditer(text):
        word = match.group(1)
        low = word.lower()
        if low in _NOT_ENTITY_WORDS or low in _METRIC_WORDS or low in sources or _DOMAIN.search(word):
            continue
        if (word.isalpha() and word.islower()) or re.fullmatch(r"[a-z]{4,}(?:-[a-z]{4,})+", word):
            continue  # a plain English word or compound ("prefix-cache"), not a name ("llm-d" is one)
        if _HARDWARE.fullmatch(word) or re.fullmatch(r"\d*[A-Za-z]?\d+[A-Za-z]?", word) or re.fullmatch(r"v\d+", low):
            continue
        if re.fullmatch(r"v?\d+(?:\.\d+)+[\w.-]*", low) or re.fullmatch(r"(?:tp|pp|ep|dp|sp)\d+", low):
            continue  # a version ("v0.5.21", the baseline of a relative figure) or a parallel layout ("TP8")
        if re.search(r"[-_.]\d+(?:\.\d+)?[bmk]$", low):
            continue  # a model of a size ("Llama-3.1-70B", "Qwen3-32B"): the set-up, a condition, not the subject
        if _WORKLOAD_AFTER.match(text[match.end():]):
            continue  # the workload it ran ("ShareGPT 改造负载", "LMSYS trace"): a condition, not the subject
        if _setup_item(text, match):
            continue  # an item of a set-up list ("8×H200 · 70B · ShareGPT · QPS 8 → …"): a condition
        if _PLATFORM_BEFORE.search(text[:match.start()]):
            continue  # where it ran or what it beat ("在 vLLM 上加速 2.1×", "比 SGLang 快", "over vLLM"): not the subject
        # A source, by a name of one or more words ("The Serving Desk 写的", "Lumen blog"), is no subject.
        if re.fullmatch(r"\d+(?:\.\d+)?[BKMGT]", word) or _SOURCE_AFTER.match(
                re.sub(r"^\s*(?:[A-Z][\w-]*\s+){0,2}", "", text[match.end():])):
            continue
        found.append(match)
    return found


def _chain(context: str, figures: list[tuple[int, int]], index: int) -> tuple[int, int, int] | None:
    """The chain ``a vs b vs c`` the figure ``index`` is in: (first index, last index, position in it)."""
    first = last = index
    while first > 0 and _CHAIN_SEP.match(context[figures[first - 1][1]:figures[first][0]]):
        first -= 1
    while last + 1 < len(figures) and _CHAIN_SEP.match(context[figures[last][1]:figures[last + 1][0]]):
        last += 1
    return (first, last, index - first) if last > first else None


def _name_chain(text: str, sources: set[str], size: int) -> list[str] | None:
    """``SGLang vs vLLM`` in ``text`` with ``size`` names, or None."""
    names = _names(text, sources)
    for i in range(len(names) - size + 1):
        group = names[i:i + size]
        if all(_CHAIN_SEP.match(text[a.end():b.start()]) for a, b in zip(group, group[1:], strict=False)):
            return [m.group(1) for m in group]
    return None


def _figure_spans(context: str, mentions_here: list[Mention]) -> list[tuple[int, int]]:
    spans = []
    start = 0
    for mention in mentions_here:
        pos = context.find(mention.raw.strip(), start)
        if pos < 0:
            pos = context.find(mention.raw.strip())
        spans.append((pos, pos + len(mention.raw.strip())))
        start = max(start, pos + 1)
    return spans


def _prose_subject(context: str, spans: list[tuple[int, int]], index: int, sources: set[str]) -> str | None:
    pos, end = spans[index]
    chain = _chain(context, spans, index)
    if chain is not None:
        first, last, at = chain
        size = last - first + 1
        after = re.match(r"\s*[（(]([^）)]*)[）)]", context[spans[last][1]:])
        before = context[:spans[first][0]]
        before = re.split(r"[。；;]", before)[-1]
        paired = (_name_chain(after.group(1), sources, size) if after else None) or _name_chain(before, sources, size)
        if paired:
            return paired[at]
    listed = _list_head(context[:pos], sources)
    if listed is not None:
        return listed
    start = spans[index - 1][1] if index > 0 else 0
    head = context[start:pos]
    head = _CLAUSE_BREAK.split(head)[-1] if index > 0 else head
    # A bracketed aside names what the subject uses or is compared with ("（按 vLLM 上报的 KV 事件…）让 TTFT 降
    # 75%"), not the subject: names outside brackets first, kept at their places.
    outside = _ASIDE.sub(lambda m: " " * len(m.group(0)), head)
    names = _names(outside, sources) or _names(head, sources)
    if names:
        return names[-1].group(1)
    return None


_ASIDE = re.compile(r"[（(][^（()）]*[)）]")


def _heading_names(heading: str, sources: set[str]) -> list[re.Match[str]]:
    """The names a section heading gives, past its outline label and asides ("§C arXiv：MixKV-4 · …": MixKV-4)."""
    text = _ASIDE.sub(" ", re.sub(r"^\s*(?:§\s*[\w.]+|[A-Z]\d?[.、)]|\d{1,2}[.、)])\s*", " ", heading))
    return [m for m in _names(text, sources) if len(m.group(1)) >= 3 and m.group(1).lower() not in ("arxiv", "doi")]


_METRIC_ALT = "|".join(re.escape(m) for m in sorted(METRICS, key=len, reverse=True))
_METRIC_NEAR = re.compile(rf"[^，。；;,]{{0,8}}?(?:{_METRIC_ALT})", re.IGNORECASE)
_LIST_HEAD = re.compile(rf"([A-Za-z][A-Za-z0-9]*(?:[.\-+_][A-Za-z0-9]+)*)\s*[\"“”'「」]?\s*(?:{_METRIC_ALT})"
                        rf"(?:\s*[A-Za-z0-9]+)?\s*[\"“”'「」]?[^，。；;0-9]{{0,12}}[：:]", re.IGNORECASE)


def _list_head(before: str, sources: set[str]) -> str | None:
    """The entity of a list of sources' figures: ``SGLang TTFT 三家给了三个数：bex.co 85ms / PremAI 42ms``."""
    heads = [m for m in _LIST_HEAD.finditer(before) if _names(m.group(1), sources)]
    if not heads or re.search(r"[。；;]", before[heads[-1].end():]):
        return None
    return heads[-1].group(1)


def _table_subject(table: dict, sources: set[str]) -> str | None:
    header_names = _names(table.get("header", ""), sources)
    if header_names:
        return header_names[-1].group(1)
    if _SOURCE_HEADER.search(table.get("first_header", "")) or not table["row"]:
        return None
    first = table["row"][0]
    names = _names(first, sources)
    if names:
        return names[0].group(1)
    # A first cell that only states the set-up ("Llama-3.1-70B FP8 · 4×H100 · batch 64") names no subject.
    return None if not first or _only_conditions(re.sub(r"[\w.-]*\d+(?:\.\d+)?[BbMm]\b|batch\s*\d+|TP\d+|SXM|PCIe|同上|同前|"
                                                        r"ditto|same as above", " ", first)) \
        else first


def _table_metric(mention: Mention, table: dict) -> str | None:
    cells = table["row"]
    column = table["column"]
    cell = cells[column] if 0 <= column < len(cells) else ""
    # The value's cell, its column, the row's label, then any cell of the row (a "指标" column: "输出吞吐").
    for text in (cell, table.get("header", ""), cells[0] if cells else "", *cells[1:]):
        lowered = text.lower()
        found = [(lowered.find(m.lower()), m) for m in METRICS if m.lower() in lowered and m.lower() not in (
            "tok/s", "req/s")]
        if found:
            pos, word = min(found)
            return nearest_metric(text, pos + len(word), pos + len(word)) or word.lower()
    return None


def metric_qualifiers(text: str) -> tuple[str, ...]:
    """The qualifiers of a metric named in ``text``: ``("p99",)`` for ``TTFT p99``, ``("decode",)`` …"""
    lowered = text.lower()
    return tuple(name for name, pattern in _QUALIFIERS if re.search(rf"(?<![a-z0-9])(?:{pattern})(?![a-z0-9])", lowered))


def _qualifier_text(mention: Mention, spans: list[tuple[int, int]], index: int) -> str:
    table = mention.detail.get("table")
    if table:
        cells = table["row"]
        cell = cells[table["column"]] if 0 <= table["column"] < len(cells) else ""
        # The value's cell, its column, and the row's words that are not another value ("输出吞吐" in a 指标 column).
        words = [c for i, c in enumerate(cells) if i != table["column"] and not re.search(r"\d\s*(?:%|×|ms|s\b|tok/s)", c)]
        return f"{table.get('header', '')} {cell} {' '.join(words)}"
    context = mention.context
    pos, end = spans[index]
    start = spans[index - 1][1] if index > 0 else 0
    head = _CLAUSE_BREAK.split(context[start:pos])[-1]
    tail = re.match(r"\s*[（(][^）)]{0,20}[）)]", context[end:])
    if index > 0 and re.search(r"→|->|⇒|=>|⟶", context[start:pos]):
        # The after figure of a before → after pair ("P99 TTFT：1.92 s → 0.74 s") is qualified as the before one.
        return _qualifier_text(mention, spans, index - 1) + " " + head[-30:] + (tail.group(0) if tail else "")
    return head[-30:] + (tail.group(0) if tail else "")


# Hardware named beside a figure: two figures measured on different hardware are two conditions, not a conflict.
_HARDWARE = re.compile(r"(?<![A-Za-z0-9])(A100|A800|H100|H200|H800|H20|B200|B300|GB200|GB300|L4|L40S?|A10G?|T4|"
                       r"MI300X?|MI325X|MI355X|RTX ?\d{4}|M[1-5] (?:Pro|Max|Ultra)|TPU ?v\d+\w?)(?![A-Za-z0-9])")
_CONDITIONS = {
    "hardware": _HARDWARE,
    "precision": re.compile(r"(?<![A-Za-z0-9])(FP8|FP16|BF16|FP4|NVFP4|MXFP4|INT8|INT4|W4A16|W8A8|AWQ|GPTQ)"
                            r"(?![A-Za-z0-9])", re.IGNORECASE),
    "model": re.compile(r"(?<![\w.])(\d+(?:\.\d+)?\s*B)(?![A-Za-z])"),
    "concurrency": re.compile(r"(?:并发|concurrency|batch(?:\s*size)?|bs)\s*[=:：]?\s*(\d+)|(\d+)\s*(?:并发|路并发|concurrent)",
                              re.IGNORECASE),
    "context": re.compile(r"(\d+\s*[Kk])\s*(?:context|ctx|上下文|tokens? context)|(?:context|ctx|上下文)(?:\s*length|长度)?"
                          r"\s*[=:：]?\s*(\d+\s*[Kk]?)", re.IGNORECASE),
    "turns": re.compile(r"(多轮|单轮|multi-turn|single-turn)", re.IGNORECASE),
    # How big the cluster is: "4096 卡", "512 张 H100", "64 GPUs", "16 nodes", "2 节点" (not "8×H200": a box).
    "scale": re.compile(r"(?<![\d.])(\d{1,6})\s*(?:张|块)?\s*(?:卡|GPUs?\b|nodes?\b|节点)", re.IGNORECASE),
    "workload": re.compile(r"(前缀密集|prefix-heavy|prefix-dense|长上下文|long-context|代码|(?<![A-Za-z])code(?![A-Za-z])|聊天|"
                           r"(?<![A-Za-z])chat(?![A-Za-z])|对话|检索|(?<![A-Za-z])RAG(?![A-Za-z])|"
                           r"(?<![A-Za-z])agent(?![A-Za-z])|智能体)", re.IGNORECASE),
}
_TURNS = {"多轮": "multi", "multi-turn": "multi", "单轮": "single", "single-turn": "single", "前缀密集": "prefix",
          "prefix-heavy": "prefix", "prefix-dense": "prefix", "长上下文": "long", "long-context": "long",
          "代码": "code", "聊天": "chat", "对话": "chat", "检索": "rag", "智能体": "agent"}


def conditions_of(text: str, own: str = "") -> dict[str, frozenset[str]]:
    """The conditions ``text`` states, by kind (hardware, precision, model, concurrency, context, turns,
    workload)."""
    found: dict[str, frozenset[str]] = {}
    for kind, pattern in _CONDITIONS.items():
        values = set()
        for match in pattern.finditer(text):
            value = next(g for g in match.groups() if g).replace(" ", "").upper()
            if kind == "model" and own and value == own.replace(" ", "").upper():
                continue  # the figure itself ("70B")
            values.add(_TURNS.get(value.lower(), value.lower()) if kind in ("turns", "workload") else value)
        if values:
            found[kind] = frozenset(values)
    return found


_SCOPE = re.compile(rf"(?:{_METRIC_ALT})(?:\s*[A-Za-z0-9\u4e00-\u9fff]{{0,4}})?\s*[（(]([^）)]{{1,24}})[）)]", re.IGNORECASE)


def _scope(text: str) -> frozenset[str]:
    """The set-up a metric is written with: ``TTFT（多轮 Agent）`` → 多轮agent."""
    return frozenset(m.group(1).replace(" ", "").lower() for m in _SCOPE.finditer(text)
                     if not _only_conditions(m.group(1)) and not metric_qualifiers(m.group(1))
                     and not _BASELINE.search(m.group(1)))  # "（对照 EAGLE-3 固定 k=4）" is the baseline, said as such


def _only_conditions(text: str) -> bool:
    """A bracket that only states the set-up ("8×H100，70B", "H100"): conditions, read as such, not a scope."""
    rest = text
    for pattern in _CONDITIONS.values():
        rest = pattern.sub(" ", rest)
    return not re.sub(r"[\s,，、/·×x*+\d]|卡|节点|nodes?|gpus?", "", rest, flags=re.IGNORECASE)


_BRACKET = re.compile(r"[（(][^（）()]{0,160}[）)]")


def _enclosing_bracket(context: str, pos: int) -> str:
    """The bracketed part of ``context`` holding position ``pos`` ("" when the figure stands outside brackets)."""
    return next((m.group(0) for m in _BRACKET.finditer(context) if m.start() < pos < m.end()), "")


def _claim_conditions(mention: Mention, spans: list[tuple[int, int]], index: int) -> dict[str, frozenset[str]]:
    """The conditions of one figure: those written at the figure (its head since the previous figure, its
    parenthetical) and, for each kind the figure leaves open, the sentence's when the sentence names only one.
    A table figure's are those of its row and its column header; the metric's parenthetical is its scope."""
    own = mention.raw.strip()
    table = mention.detail.get("table")
    if table:
        text = f"{table.get('header', '')} | " + " | ".join(table["row"])
        found = conditions_of(text, own)
        scope = _scope(f"{table.get('header', '')} {table['row'][0] if table['row'] else ''}")
        if scope:
            found["scope"] = scope
        return found
    context = mention.context
    chain = _chain(context, spans, index)
    first = chain[0] if chain else index
    start = spans[first - 1][1] if first > 0 else 0
    pos, end = spans[index]
    tail = re.match(r"\s*[（(][^）)]{0,40}[）)]", context[end:])
    found = conditions_of(context[start:pos] + (tail.group(0) if tail else ""), own)
    # "（Winder 前缀密集单轮口径，TTFT vLLM 103ms vs SGLang 79ms）": a bracket's set-up holds for every figure in it.
    for kind, values in conditions_of(_enclosing_bracket(context, pos), own).items():
        found.setdefault(kind, values)
    for kind, values in conditions_of(context, own).items():
        if kind not in found and len(values) == 1:
            found[kind] = values
    # The section's "条件：…" line holds for its figures where the figure's own words leave a kind open.
    for kind, values in conditions_of(str(mention.detail.get("setup") or ""), own).items():
        found.setdefault(kind, values)
    scope = _scope(context[start:end + (len(tail.group(0)) if tail else 0)])
    if scope:
        found["scope"] = scope
    return found


def _subject(mention: Mention, ids: dict[tuple[str, int], list[str]]) -> str | None:
    for back in range(0, 6):
        found = ids.get((mention.source, mention.line - back))
        if found and len(found) == 1:
            return found[0]
        if found:
            return None
    return None


def _paper_of(name: str, context: str, ids: list[str]) -> str | None:
    """The arXiv number a name stands for when the line cites it right after the name (``Atlas（2609.17863）``)."""
    for paper in ids:
        if re.search(rf"(?<![\w.\-]){re.escape(name)}\s*[（(]?\s*(?:arXiv[:\s]*)?{re.escape(paper)}", context,
                     re.IGNORECASE):
            return paper
    return None


def _unit(unit: str, low: float, high: float) -> tuple[str, float, float]:
    unit = _UNIT_ALIASES.get(unit, unit)
    if unit == "s":
        return "ms", low * 1000, high * 1000
    return unit, low, high


def _bounds(context: str, pos: int, low: float, high: float, exact: str) -> tuple[float, float]:
    """A figure's range: an approximation (约 30%) spans its rounding, a bound (超过 30%) is open on one side."""
    head = context[max(0, pos - 12):pos]
    if _AT_LEAST.search(head):
        return low, float("inf")
    if _AT_MOST.search(head):
        return 0.0, high
    if _APPROX.search(head):
        decimals = len(exact.split(".")[1]) if "." in exact else 0
        step = max(abs(high) * 0.05, 0.5 * 10 ** -decimals if decimals else 0.5)
        return low - step, high + step
    return low, high


def figure_claims(mentions: Sequence[Mention]) -> list[FigureClaim]:
    """Resolve each figure mention to (subject, metric, unit, range, conditions); unresolvable ones are left out."""
    ids = _subject_by_line(mentions)
    named = {(m.source, m.line): given for m in mentions
             if m.kind == "arxiv" and m.detail.get("malformed") and (given := _name_on_line(m))}
    sources = _sources_named(mentions)
    by_context: dict[tuple[str, int, str], list[Mention]] = defaultdict(list)
    for mention in mentions:
        if mention.kind == "figure":
            by_context[(mention.source, mention.line, mention.context)].append(mention)
    claims: list[FigureClaim] = []
    for mention in mentions:
        if mention.kind != "figure" or mention.detail.get("unit") in _SKIP_UNITS:
            continue
        here = by_context[(mention.source, mention.line, mention.context)]
        spans = _figure_spans(mention.context, here)
        index = here.index(mention)
        pos, end = spans[index]
        if pos < 0:
            continue
        context = mention.context
        # "吞吐 1,820 → 2,350 tok/s": the pair says a relative change (+29.1%), compared with one written as such.
        before = _before_of(here, index, context, pos)
        derived = ""
        if context[end:].lstrip().startswith(_ARROW) or (context[:pos].rstrip().endswith(_ARROW) and before is None):
            continue
        clause = context[spans[index - 1][1] if index > 0 else 0:pos]
        change = _direction(clause) if mention.detail.get("unit") == "%" else 0
        # ("+2.1×" is a multiple, signed or not: only a unit of measure's sign makes a change against nothing.)
        if not change and mention.detail.get("unit") not in ("×", "x", "倍") and \
                re.search(r"[+＋±]\s*$|(?<![\w.])-\s*$", context[:pos]):
            continue  # a signed change in a unit of measure ("+0.3s"): against an unstated baseline
        number = float(mention.detail["number"])
        high = mention.detail.get("high")
        unit, low, top = _unit(str(mention.detail.get("unit")), number, float(high) if high is not None else number)
        low, top = _bounds(context, pos, low, top, str(mention.raw.strip()).split()[0] if mention.raw.strip() else "")
        table = mention.detail.get("table")
        if table:
            metric = _table_metric(mention, table)
            subject = _table_subject(table, sources)
        else:
            metric = mention.detail.get("metric")
            previous = claims[-1] if claims and claims[-1].mention.context == context else None
            if metric is None and previous is not None and previous.unit == unit:
                metric = previous.metric.split(" ")[0]  # a list "A 85ms / B 42–80ms / C 42ms" shares its metric
            subject = _prose_subject(context, spans, index, sources)
        if metric is None and unit in ("tok/s", "tokens/s", "req/s"):
            metric = "throughput"
        if before is not None:
            metric = metric or ("throughput" if unit in ("tok/s", "tokens/s", "req/s") else None)
            subject = subject or (None if table else _prose_subject(context, spans, index - 1, sources))
            percent = round((float(mention.detail["number"]) - before) / before * 100, 1)
            if not percent:
                continue
            change, unit = (1 if percent > 0 else -1), "%"
            low = top = abs(percent)
            derived = f"{before:,g} → {mention.value}，折合 {percent:+g}%"
        if subject is not None and not table and (named_at := re.search(
                rf"(?<![\w-]){re.escape(subject)}(?![\w-])", context)) and _setup_item(context, named_at, subject):
            subject = None  # the workload of a set-up list read in a fragment of it: a condition after all
        if subject is None and not table:
            # A clause of a list naming no entity is of the entity the sentence named before it ("Mooncake cache
            # hit 1.7%→92.2%，吞吐 3.8×").
            earlier = [m for m in _names(_ASIDE.sub(lambda m: " " * len(m.group(0)), context[:pos]), sources)
                       if _METRIC_NEAR.match(context, m.end())]  # a name measured in the sentence, not a set-up item
            subject = earlier[-1].group(1) if earlier else None
        if subject is None and not table:
            # Else the line's head before its colon ("Corvid：70B · 4×H100 … → TTFT -61%", "**X 发布**：…").
            head = re.match(r"^[^：:]{2,40}[：:]", context)
            named = _names(_ASIDE.sub(" ", head.group(0)), sources) if head and head.end() <= pos else []
            # Only a head that opens with its name ("Corvid：…", "**X 发布**：…"), not prose ending in a colon.
            lead = named[0] if named and not re.search(r"[\u4e00-\u9fffA-Za-z0-9]", head.group(0)[:named[0].start()]) \
                else None  # type: ignore[union-attr]
            subject = lead.group(1) if lead else None
        if subject is None and not table and mention.detail.get("heading"):
            # A figure whose sentence names no entity is of what its section is about ("## llm-d v0.10：…").
            heading = str(mention.detail["heading"])
            papers = {ref.id for ref in find_arxiv_refs(heading) if not ref.malformed}
            named = _heading_names(heading, sources)
            # One paper is one subject under its number ("## Tessel（arXiv 2709.38214）").
            subject = next(iter(papers)) if len(papers) == 1 else named[0].group(1) if named else None
        line_ids = ids.get((mention.source, mention.line), [])
        if subject is not None:
            subject = _paper_of(subject, context, line_ids) or subject
        lead = re.split(r"[：:]", context, maxsplit=1)[0] if re.search(r"[：:]", context) else ""
        if len(set(line_ids)) == 1 and (line_ids[0] in lead or line_ids[0] in str(mention.detail.get("lead") or "")):
            # "Tessel（arXiv 2610.30001）：…在 Quokka 上加速 2.1×": the line's lead names the paper whose result it is.
            subject = line_ids[0]
        if subject is None:
            subject = _subject(mention, ids)
        if subject is None:
            # Under "## KVFold（arXiv:2610.3391）": a number written short still names its paper by the name beside it.
            subject = next((named[(mention.source, mention.line - back)] for back in range(0, 4)
                            if (mention.source, mention.line - back) in named), None)
        if subject is None and (card := _CARD_FILE.search(mention.source)):
            subject = f"{card.group(1)}.{card.group(2)}"  # a paper card is about its paper
        if metric is None or subject is None:
            continue
        if metric in _TIME_METRICS and unit == "×":
            metric = f"{metric} speedup"  # "P99 TTFT 降 3.1×": a speed-up of the latency, compared as such
        elif metric in _TIME_METRICS and unit != "ms" and not change:
            continue  # "TTFT 46%": a percentage of a latency whose direction is not written
        if unit == "×" and not table:
            pair = _name_chain(context[:pos], sources, 2)
            subject = f"{pair[0]} vs {pair[1]}" if pair else subject
        # A before → after pair's words stand before its first figure ("decode 吞吐 1,820 tok/s → 2,350 tok/s").
        paired = before is not None and index > 0 and context[spans[index - 1][1]:pos].strip() in _ARROW
        qualifier_text = _qualifier_text(mention, spans, index - 1 if paired else index)
        if metric in ("p50", "p99"):
            # "TTFT p99 180ms": the percentile qualifies the metric named before it, else a latency.
            base = [m for m in ("ttft", "itl", "tpot", "latency", "延迟") if m in qualifier_text.lower()]
            metric = "latency" if not base or base[0] == "延迟" else base[0]
        qualifiers = metric_qualifiers(qualifier_text)
        metric = " ".join([metric, *qualifiers, *(("降幅" if change < 0 else "增幅",) if change else ())])
        conditions = _claim_conditions(mention, spans, index)
        if change:
            # "TTFT -58%（vs vLLM）" and "比 SGLang 降 41%" are changes against two baselines.
            stated = " ".join(str(mention.detail.get(k) or "") for k in ("setup", "baseline"))
            baselines = {m.group(1).lower() for m in _BASELINE.finditer(context)} or {
                m.group(1).lower() for m in _BASELINE.finditer(stated)}
            if baselines:
                conditions = {**conditions, "baseline": frozenset(baselines)}
        claims.append(FigureClaim(subject, metric, unit, low, top, mention, conditions, derived=derived))
    return _named_papers(claims, mentions)


_PLAIN_HEADS = frozenset({"table", "figure", "the", "this", "note", "notes", "paper", "update", "tier", "top", "new",
                          "daily", "weekly", "summary", "section", "appendix", "abstract"})
_SITE_WORD = re.compile(r"arxiv|https?|doi", re.IGNORECASE)


def _name_on_line(mention: Mention) -> str | None:
    """The name a line gives the paper it cites: the one the name rule finds, else the line's first proper
    name ("## Tier1-B · KVFold 跨层折叠 KV（arXiv:2610.3391）" → KVFold; a rank label is no name)."""
    given = arxiv_name(mention)
    if given:
        return given[0]
    for match in _NAME.finditer(mention.context or ""):
        word = match.group(1)
        proper = re.search(r"[A-Z].*[A-Z0-9]|[a-z][A-Z]", word) or (word[0].isupper() and len(word) >= 4)
        if proper and not RANK_LABEL.fullmatch(word) and not _SITE_WORD.fullmatch(word) and len(word) >= 3 and word.lower() not in _NOT_ENTITY_WORDS \
                and word.lower() not in _PLAIN_HEADS and not _HARDWARE.fullmatch(word):
            return word
    return None


def _before_of(here: list[Mention], index: int, context: str, pos: int) -> float | None:
    """The value before an arrow to this figure, when the two are one quantity's before and after (one unit, no
    ranges, not percentages or ratios: "1.7% → 92.2%" is a change in points, "2× → 3×" no quantity)."""
    head = context[:pos].rstrip()
    if not head.endswith(_ARROW):
        return None
    after = here[index]
    unit = str(after.detail.get("unit"))
    if unit in ("%", "×", "x", "倍") or after.detail.get("high") is not None:
        return None
    # The number before the arrow, with the unit or without it ("1,820 → 2,350 tok/s" writes it once).
    written = re.search(rf"(?<![\w.,])(\d+(?:,\d{{3}})*(?:\.\d+)?)\s*(?:{re.escape(unit)})?\s*(?:{'|'.join(map(re.escape, _ARROW))})$",
                        head)
    if written is None:
        return None
    number = float(written.group(1).replace(",", ""))
    if unit == "s" and "ms" in head[written.start():]:
        return None
    return number or None


_CARD_FILE = re.compile(r"paper_cards/\d+-(\d{4})-(\d{4,5})\.md$")


def _named_papers(claims: list[FigureClaim], mentions: Sequence[Mention]) -> list[FigureClaim]:
    """One paper, one subject: a name the notes give exactly one well-formed arXiv number ("KVFold" for
    2610.03391) stands for that number, so "KVFold 显存 -35%" and "2610.03391 显存降 52%" are compared."""
    papers: dict[str, set[str]] = defaultdict(set)
    sections: dict[tuple[str, str], set[str]] = defaultdict(set)
    for mention in mentions:
        if mention.kind == "arxiv" and not mention.detail.get("malformed") and mention.detail.get("heading"):
            sections[(mention.source, str(mention.detail["heading"]))].add(mention.value)
        if mention.kind == "arxiv" and not mention.detail.get("malformed") and (named := arxiv_name(mention)):
            lead = re.match(r"[A-Za-z][\w.+-]*[A-Za-z0-9]", named[0])
            for name in {named[0], lead.group(0) if lead else ""} - {""}:
                papers[name_key(name)].add(mention.value)
    # A section led by a name that cites one paper ("## 1. StrataKV —— …" over its arXiv link): the name is it.
    for (_, heading), ids in sections.items():
        # Its name, not its outline label ("§C arXiv：MixKV-4 · …" is MixKV-4's).
        named = _heading_names(heading, set())
        if len(ids) == 1 and named:
            papers[name_key(named[0].group(1))].update(ids)
    out = []
    for claim in claims:
        ids = papers.get(name_key(claim.subject), set())
        out.append(replace(claim, subject=next(iter(ids)), named=claim.subject) if len(ids) == 1 and
                   claim.subject not in ids else claim)
    return out


def _version_current(mention: Mention) -> tuple[bool, bool]:
    """(said to be current, said to be historic) from the words right around the version in its clause."""
    context = mention.context
    pos = context.find(mention.raw)
    product = str(mention.detail.get("product"))
    start = context.rfind(product, 0, max(pos, 0) + 1) if pos >= 0 else -1
    near = context[start if start >= 0 else max(0, pos - 16):max(pos, 0)]
    clause_head = re.split(r"\d+(?:\.\d+)+", _CLAUSE_BREAK.split(context[:max(pos, 0)])[-1])[-1]
    after = _CLAUSE_BREAK.split(context[max(pos, 0) + len(mention.raw):])[0][:24] if pos >= 0 else ""
    historic = bool(_HISTORIC.search(near) or re.match(r"\s*(?:之前|以前|时代|起|以来|升级|迁移)", after)
                    or _HISTORIC_HEAD.search(clause_head[-40:]))
    current = bool(_CURRENT.search(near) or _CURRENT.search(clause_head[-40:])
                   or re.match(r"\s*(?:为|是|is|are)?\s*(?:the\s+)?(?:当前|最新|current|latest)", after, re.IGNORECASE))
    return current and not historic, historic


def version_claims(mentions: Iterable[Mention]) -> list[VersionClaim]:
    """Product versions, without figures the version pattern mistook for one (``Mooncake 92.2%``).

    A version said to be an older one (前一版 v0.29.0, 升级自 0.4, since v1.2) is kept for the
    numbering-scheme check but never counts as a current release.
    """
    claims = []
    for mention in mentions:
        if mention.kind != "version":
            continue
        if re.search(re.escape(mention.raw) + r"\s*[%×xX倍]", mention.context):
            continue
        product = str(mention.detail.get("product"))
        version = str(mention.detail.get("version", "")).lstrip("vV")
        if "rc" in version.lower():
            continue
        parts = tuple(int(p) for p in re.findall(r"\d+", version))
        current, historic = _version_current(mention)
        date = mention.detail.get("date")
        claims.append(VersionClaim(product, version, parts, current or (date is not None and not historic), date,
                                   mention))
    return claims


def make_warning(kind: str, text: str, risk: str, action: str, sources: Sequence[str], subject: str,
             key: str) -> BriefWarning:
    """A warning without its id and D-number (``run_checks`` and the register give those)."""
    return BriefWarning(id="", kind=kind, text=text, risk=risk, action=action,
                        sources=sorted(dict.fromkeys(sources)), subject=subject, key=key)


def quote(mention: Mention, limit: int = 60) -> str:
    """The mention's sentence, cut to ``limit`` characters, without Markdown emphasis or HTML comment marks (a
    quote is words)."""
    return excerpt(re.sub(r"\*\*|__|<!--|-->", "", mention.context).strip(), limit)


def _padded(claim: VersionClaim) -> tuple[str, tuple[int, ...]]:
    """``0.30`` and ``0.30.0`` are one version."""
    return claim.product, claim.parts + (0,) * (3 - len(claim.parts))


def _digits(parts: tuple[int, ...]) -> str:
    """The version's digits without dots or trailing zeros: ``0.3.1`` and ``0.31.0`` both give ``031``."""
    return "".join(str(p) for p in parts).rstrip("0")


def _scheme_rule(pa: tuple[int, ...], pb: tuple[int, ...]) -> str | None:
    """Why two versions of one product look like one number in two schemes, or None.

    ``dot``: the same digits with a dot moved (``0.3.1`` vs ``0.31.0``);
    ``tenfold``: a minor version ten times the other's (``0.3.3`` vs ``0.30.0``).
    """
    if len(pa) >= 2 and len(pb) >= 2 and _digits(pa) == _digits(pb):
        return "dot"
    if len(pa) >= 2 and len(pb) >= 2 and pa[0] == pb[0] and pa[1] and (pb[1] == pa[1] * 10 or pa[1] == pb[1] * 10):
        return "tenfold"
    return None


def _scheme_pairs(versions: dict[str, list[VersionClaim]], window: set[str]) -> list[tuple[str, str, str]]:
    """The scheme conflicts of one product, each version in at most one pair.

    Pairs seen in the window on both sides come first, then one side in the
    window (the other from the living document or an earlier brief); within
    that, a moved dot before a tenfold minor version. A version taken by a
    better pair is not paired again, so ``0.3.1`` next to the window's
    ``0.31.0`` is not also compared with the living document's ``0.30.0``.
    """
    def seen(version: str) -> bool:
        return any(c.mention.source in window for c in versions[version])

    candidates = []
    names = sorted(versions)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            rule = _scheme_rule(versions[a][0].parts, versions[b][0].parts)
            inside = seen(a) + seen(b)
            if rule and inside:
                candidates.append((-inside, rule != "dot", a, b, rule))
    used: set[str] = set()
    pairs = []
    for *_, a, b, rule in sorted(candidates):
        if a in used or b in used:
            continue
        used.update((a, b))
        pairs.append((a, b, rule))
    return pairs


def _where(claims: Sequence[VersionClaim], window: set[str]) -> str:
    """The source to name for a version: a first-hand window note when one states it (a brief relays),
    else a window source, else any; the earliest in path order among equals."""
    return min(claims, key=lambda c: (is_brief_path(c.mention.source), c.mention.source not in window,
                                      c.mention.source)).mention.source


def _successive_releases(distinct: Sequence[str], current: Sequence[VersionClaim],
                         canonical: Mapping[tuple[str, tuple[int, ...]], str]) -> bool:
    """Each "current" version comes with its release date and the dates follow the versions: one source
    wrote before the next release (a paper's "0.29.0（2026-09-09）为当前最新"), nobody disagrees."""
    dates = []
    for version in distinct:
        dated = sorted(str(c.date) for c in current if canonical[_padded(c)] == version and c.date)
        if not dated:
            return False
        dates.append(dated[0])
    return all(a < b for a, b in zip(dates, dates[1:], strict=False))


def check_version_conflicts(mentions: Sequence[Mention], references: Sequence[Mention] = ()) -> list[BriefWarning]:
    """``version_conflict``: different "current" versions of one product, or two numbering schemes."""
    window = {m.source for m in mentions}
    claims = version_claims([*mentions, *references])
    by_product: dict[str, list] = defaultdict(list)
    canonical: dict[tuple[str, tuple[int, ...]], str] = {}
    for claim in claims:
        by_product[claim.product].append(claim)
    warnings = []
    for product, group in sorted(by_product.items()):
        for claim in group:
            canonical.setdefault(_padded(claim), claim.version)
        versions: dict[str, list[VersionClaim]] = defaultdict(list)
        for claim in group:
            versions[canonical[_padded(claim)]].append(claim)
        for a, b, rule in _scheme_pairs(versions, window):
            why = "数字相同、小数点位置不同" if rule == "dot" else "次版本号差一个数量级"
            warnings.append(make_warning(
                "version_conflict",
                f"{product} 版本号两种写法：{a}（{_where(versions[a], window)}）与 {b}（{_where(versions[b], window)}），"
                f"{why}，疑为笔误或两套编号。",
                "中", f"核对 {product} 官方 release 页，统一版本号",
                [c.mention.source for c in [*versions[a], *versions[b]]], product,
                f"version_conflict:scheme:{product}:{a},{b}"))
        current = [c for c in group if c.current]
        distinct = sorted({canonical[_padded(c)] for c in current}, key=lambda v: versions[v][0].parts)
        if len(distinct) >= 2 and any(c.mention.source in window for c in current) \
                and not _successive_releases(distinct, current, canonical):
            parts = []
            for version in distinct:
                claim = next(c for c in current if canonical[_padded(c)] == version)
                dated = f"，{claim.date}" if claim.date else ""
                parts.append(f"{version}（{claim.mention.source}{dated}）")
            warnings.append(make_warning(
                "version_conflict", f"{product}「当前版本」各源不一：" + " vs ".join(parts) + "。",
                "低", f"以 {product} 官方 release 为准注明各源口径与日期", [c.mention.source for c in current], product,
                f"version_conflict:current:{product}:{','.join(distinct)}"))
    return warnings


def _fmt(claim: FigureClaim) -> str:
    return claim.derived or claim.mention.value


def _said(claim: FigureClaim, limit: int = 50) -> str:
    """Where the figure stands, as a reader needs it: its sentence quoted, or its whole table row said as a
    sentence naming every column (so the conditions beside the figure are read with it)."""
    table = claim.mention.detail.get("table") or {}
    headers, cells = table.get("headers") or [], table.get("row") or []
    if not headers or not cells:
        return f"「{quote(claim.mention, limit)}」"
    return f"表中一行「{row_sentence(cells, headers)}」"


def _same_conditions(a: FigureClaim, b: FigureClaim) -> bool:
    """Two figures describe one set-up when they state the same kinds of condition with shared values (both
    "H100", or neither a condition): not when one states what the other leaves open ("多轮 agent" beside a
    bare "H100 FP8": two benchmarks, not one measured twice), nor when both state one kind with no value in
    common (H100 vs A100, FP8 vs BF16, 8K vs 32K context), nor in two columns of one source's tables."""
    return set(_with_scope_said(a, b)) == set(_with_scope_said(b, a)) and _not_disjoint(a, b)


def _with_scope_said(a: FigureClaim, b: FigureClaim) -> dict[str, frozenset[str]]:
    """``a``'s conditions, with the scope ``b`` states in brackets when ``a`` says it in words ("Tidewater 三层
    0.74 s" beside a table's "P99 TTFT（Tidewater 三层）")."""
    if "scope" in a.conditions or "scope" not in b.conditions:
        return a.conditions
    said = re.sub(r"\s+", "", (a.mention.context or a.mention.raw or "")).lower()
    if all(value in said for value in b.conditions["scope"]):
        return {**a.conditions, "scope": b.conditions["scope"]}
    return a.conditions


def _not_disjoint(a: FigureClaim, b: FigureClaim) -> bool:
    """No kind of condition both state with no value in common, and not two columns of one source's tables."""
    for kind in set(a.conditions) & set(b.conditions):
        if a.conditions[kind].isdisjoint(b.conditions[kind]):
            return False
    ta, tb = a.mention.detail.get("table"), b.mention.detail.get("table")
    if ta and tb and a.mention.source == b.mention.source and ta.get("header") != tb.get("header"):
        return False
    return True


def _two_places(a: FigureClaim, b: FigureClaim) -> bool:
    """Two sources, or two rows of a table whose rows are sources; a source restating itself is one place."""
    if a.mention.source != b.mention.source:
        return True
    ta, tb = a.mention.detail.get("table"), b.mention.detail.get("table")
    return bool(ta and tb and a.mention.line != b.mention.line and _SOURCE_HEADER.search(ta.get("first_header", ""))
                and _SOURCE_HEADER.search(tb.get("first_header", "")))


def _apart(a: FigureClaim, b: FigureClaim) -> bool:
    return a.high < b.low * 0.98 or b.high < a.low * 0.98


def _author_parts(a: FigureClaim, b: FigureClaim) -> bool:
    """The author already set the two apart: a line holding both figures says they are not comparable."""
    for claim, other in ((a, b), (b, a)):
        if claim.mention.detail.get("apart") and other.mention.raw.strip() in (claim.mention.context or "") + \
                " " + str(claim.mention.detail.get("line", "")):
            return True
        if claim.mention.detail.get("apart") and claim.mention.source == other.mention.source \
                and claim.mention.line == other.mention.line:
            return True
    return False


# (unit, low, high, lined up against others': a sources table, a "矛盾" line; its line)
_Written = tuple[str, float, float, bool, int]
# A line where the author sets figures against each other as a disagreement, not as two set-ups.
# A line calling figures a contradiction ("三源矛盾", "两个数打架", "these figures conflict").
CLASH = re.compile(r"矛盾|不一致|对不上|离谱|打架|相互冲突|\bconflict|\binconsistent\b|\bdisagree|\bcontradict",
                   re.IGNORECASE)

def _both_written(a: FigureClaim, b: FigureClaim, written: Mapping[str, list[_Written]],
                  about: Collection[str] | None = None, elsewhere: Collection[tuple[str, int]] = ()) -> bool:
    """A first-hand source writes both figures in its own account (a sub-result beside the headline one):
    its author gives two figures for two set-ups, so they do not disagree. A table whose rows are
    sources, or a line calling the figures a contradiction, lines up others' figures: not one account."""
    def matches(entry: _Written, figure: FigureClaim) -> bool:  # the same figure: a range only as that range
        unit, low, high, _, _ = entry
        return _UNIT_ALIASES.get(unit, unit) == figure.unit and figure.low * 0.95 <= low and high <= figure.high * 1.05 \
            and low * 0.95 <= figure.low and figure.high <= high * 1.05

    # ``about``: the sources with a figure of this entity and metric; a source's figure of another subject ("+15%"
    # of another paper) is no sub-result of this one, nor is a figure on a line only about other subjects
    # (``elsewhere``: "权重显存 +50%" of another paper, in the same note).
    for source, entries in written.items():
        if is_brief_path(source) or (about is not None and source not in about):
            continue
        own = [e for e in entries if not e[3] and (source, e[4]) not in elsewhere]
        if any(matches(e, a) for e in own) and any(matches(e, b) for e in own):
            return True
    return False


def _figures_written(mentions: Sequence[Mention]) -> dict[str, list[_Written]]:
    written: dict[str, list[_Written]] = defaultdict(list)
    for mention in mentions:
        number = mention.detail.get("number") if mention.kind == "figure" else None
        if isinstance(number, int | float):
            table = mention.detail.get("table") or {}
            by_source = bool(_SOURCE_HEADER.search(str(table.get("first_header", "")))) if table else False
            said = mention.context or mention.raw
            by_source = by_source or bool(CLASH.search(said)) or vouches_same_setup(said)
            high = mention.detail.get("high")
            top = float(high) if isinstance(high, int | float) else float(number)
            unit, low, top = _unit(str(mention.detail.get("unit") or ""), float(number), top)
            written[mention.source].append((unit, low, top, by_source, mention.line))
    for source, entries in written.items():
        # A figure the source lines up against others (its sources table) is still lined up where the same
        # source repeats it ("三家给了三个数：…85ms / …42ms"): the repeat is no account of its own.
        lined = {(u, lo, hi) for u, lo, hi, by, _ in entries if by}
        written[source] = [(u, lo, hi, by or (u, lo, hi) in lined, at) for u, lo, hi, by, at in entries]
    return written


def _comparable(a: FigureClaim, b: FigureClaim, declared: Collection[str], vouched: bool = False) -> bool:
    """The same stated set-up; for two figures a source lined up as a contradiction, or a group a scout says
    comes from one set-up, no stated difference."""
    if vouched or (a.mention.source in declared and b.mention.source in declared):
        return _not_disjoint(a, b)
    return _same_conditions(a, b)


def _vouched(mentions: Sequence[Mention], subject: str, metric: str, group: Sequence[FigureClaim]) -> bool:
    """A scout's first-hand line names the entity and says its figures come from one set-up, naming the metric
    or one of the figures ("ShardLake 的 +27% 和卡片的 44% 是同一配置")."""
    name = subject.lower()
    words = {metric.split()[0].lower(), *(k.lower() for k, v in METRIC_ALIASES.items() if v == metric.split()[0])}
    figures = {c.mention.raw.strip().lower() for c in group if c.mention.raw.strip()}
    for mention in mentions:
        line = mention.raw or ""
        # The line, or the section it stands in, names the entity ("## llm-d v0.10" over "同一组实验").
        lowered = f"{line} {mention.detail.get('heading', '')}".lower()
        if mention.kind != "setup" or is_brief_path(mention.source) or name not in lowered:
            continue
        rest = SAME_SETUP.sub(" ", lowered)  # "同一配置" names no metric
        if any(w in rest for w in words) or any(f in rest for f in figures):
            return True
    return False


def _clash_lines(mentions: Sequence[Mention]) -> list[tuple[str, str]]:
    """(source, lower-cased line) of every first-hand line calling figures a contradiction ("三源矛盾 ⚠⚠⚬")."""
    # A caveat's context may be the clause its mark ends (or a heading with its first lines): its line too.
    return [(m.source, text) for m in mentions if not is_brief_path(m.source)
            and CLASH.search(text := " ".join(dict.fromkeys(filter(None, (m.context, m.raw)))).lower())]


def _declared_clash(lines: Sequence[tuple[str, str]], subject: str, metric: str) -> set[str]:
    """The sources with such a line naming the entity and the metric (their own figures of it are then
    compared as that source compared them)."""
    name, word = subject.lower(), metric.split()[0].lower()
    return {source for source, text in lines if name in text and word in text}


def _judged_close(mentions: Sequence[Mention], subject: str, sources: Collection[str]) -> str:
    """A source of the figures judging this entity's figures close ("其实 SGLang 这边口径还算接近（85 只比 80 高一点）；
    真正离谱的是 vLLM"), quoted so the reader weighs the conflict as its author did."""
    name = subject.lower()
    for mention in mentions:
        if mention.kind != "close" or mention.source not in sources:
            continue
        clause = next((c for c in re.split(r"[；;。，,]", mention.raw) if name in c.lower() and SAID_CLOSE.search(c)), None)
        if clause is not None:
            return f"来源判断：「{excerpt(mention.raw, 90)}」（{mention.source} L{mention.line}），即 {subject} 各数其作者视为接近。"
    return ""


def _restatements_dropped(group: list[FigureClaim]) -> list[FigureClaim]:
    """A source repeating one of its figures ("三家给了三个数：…85ms / …42ms" under its own table) says the
    same figure again, with the conditions it gave the first time: the bare repeat is not a figure of its own."""
    def fuller(other: FigureClaim, claim: FigureClaim) -> bool:
        return other is not claim and other.mention.source == claim.mention.source and \
            (other.low, other.high) == (claim.low, claim.high) and len(other.conditions) > len(claim.conditions) and \
            all(other.conditions.get(kind) == values for kind, values in claim.conditions.items())
    return [claim for claim in group if not any(fuller(other, claim) for other in group)]


def check_number_conflicts(mentions: Sequence[Mention]) -> list[BriefWarning]:
    """``number_conflict``: one metric of one entity, comparable conditions, figures that do not overlap,
    from two places."""
    window = {m.source for m in mentions}
    written = _figures_written(mentions)
    clash_lines = _clash_lines(mentions)
    groups: dict[tuple[str, str, str], list[FigureClaim]] = defaultdict(list)
    subjects_at: dict[tuple[str, int], set[str]] = defaultdict(set)  # the subjects each line's figures are of
    # Only the window's figures: the living document's older figures describe other set-ups too often.
    for claim in figure_claims(mentions):
        groups[(claim.subject.lower(), claim.metric, claim.unit)].append(claim)
        subjects_at[(claim.mention.source, claim.mention.line)].add(claim.subject.lower())
    warnings = []
    for (_, metric, unit), group in sorted(groups.items()):
        if not any(c.mention.source in window for c in group):
            continue
        group = _restatements_dropped(group)
        paper = group[0].subject
        # Said by the name the notes use ("KVFold"), the number in the key: one paper however it is named.
        subject = next((c.named for c in group if c.named), paper)
        # A scout who calls the figures a contradiction ("SGLang TTFT 三源矛盾 ⚠⚠⚬") has compared the set-ups:
        # then only conditions stated different keep two figures apart.
        declared = _declared_clash(clash_lines, subject, metric)
        vouched = _vouched(mentions, subject, metric, group)
        about = {c.mention.source for c in group}
        elsewhere = {at for at, names in subjects_at.items() if paper.lower() not in names}
        clash = [(a, b) for i, a in enumerate(group) for b in group[i + 1:]
                 if _two_places(a, b) and _apart(a, b) and _comparable(a, b, declared, vouched) and not _author_parts(a, b)
                 and not _both_written(a, b, written, about, elsewhere)]
        if not clash:
            continue
        # The figures that disagree are listed (a figure its author set apart from them is not one of them).
        values: dict[tuple[float, float], FigureClaim] = {}
        for claim in (c for pair in clash for c in pair):
            values.setdefault((claim.low, claim.high), claim)
        listed = "；".join(f"{_fmt(c)}（{c.mention.source} L{c.mention.line}：{_said(c)}）"
                          for _, c in sorted(values.items()))
        # The same conditions stated on both sides: one measurement written two ways (a slip in copying), not two
        # set-ups to list side by side.
        same = all(a.conditions and a.conditions == b.conditions for a, b in clash)
        action = ("两处写明的条件相同，疑为抄录之误：回到原始出处（论文表格 / 原博客）核对哪一个数正确，核对前两数都不引用"
                  if same else "并列各源数字并注明条件（硬件、精度、prefix 复用、并发），不混用")
        # Lined up as a contradiction by a scout though the sources state other set-ups (多轮 agent beside H100 FP8):
        # said as figures that cannot be compared as they stand, not as one measurement contradicted.
        differ = any(not _same_conditions(a, b) for a, b in clash)
        said = "各源数字不一，但各源写明的条件不尽相同、不可直接比较" if differ else "各源数字不一"
        warnings.append(make_warning(
            "number_conflict", f"{subject}{f'（{paper}）' if subject != paper else ''} 的 {metric} {said}：{listed}。"
            + _judged_close(mentions, subject, {c.mention.source for c in values.values()}), "中",
            action,
            sorted({c.mention.source for c in values.values()}),
            f"{subject} {metric}", f"number_conflict:{paper}:{metric}:{unit}"))
    return warnings
