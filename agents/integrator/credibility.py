"""Credibility 1-5 of an item, with the reason in the brief's words.

Start at 3 (a claim someone wrote down). Raised for a classified paper card,
an official source (the arXiv page once verified, a project's own blog or
docs, a merged PR or a release page), several independent sources (distinct
agents). Lowered for a single source without any link, an arXiv number the
verifier found mismatched, missing or malformed, and for each open warning.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from agents.integrator.cluster import Item

__all__ = ["Credibility", "OFFICIAL_HOSTS", "score_credibility", "is_official_url"]

# Hosts whose pages are the project's or the paper's own word, not a report about it.
OFFICIAL_HOSTS = frozenset({
    "arxiv.org", "blog.vllm.ai", "docs.vllm.ai", "llm-d.ai", "lmsys.org", "docs.sglang.ai",
    "developer.nvidia.com", "docs.nvidia.com", "nvidia.github.io", "pytorch.org", "huggingface.co",
    "modelcontextprotocol.io", "kubernetes.io", "openreview.net", "usenix.org", "www.usenix.org",
})
_GITHUB_OFFICIAL = re.compile(r"^/[\w.-]+/[\w.-]+/(?:releases|pull/\d+|blob/[^/]+/(?:README|docs))", re.IGNORECASE)
_BAD_VERIFICATION = {"mismatch": "arXiv 号核对不一致", "not_found": "arXiv 查无此号", "malformed": "arXiv 号格式错误"}


@dataclass(frozen=True)
class Credibility:
    """A score and the reasons behind it."""

    score: int
    reasons: list[str] = field(default_factory=list)

    @property
    def reason(self) -> str:
        """The reasons as one line for the brief."""
        return " · ".join(self.reasons)


def is_official_url(url: str) -> bool:
    """Tell whether ``url`` is a project's or paper's own page (not a report about it)."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host == "github.com":
        return bool(_GITHUB_OFFICIAL.match(parts.path))
    return host in OFFICIAL_HOSTS


def _verified(item: Item, results: Mapping[str, Any]) -> tuple[bool, list[str]]:
    ok, bad = False, []
    for arxiv_id in item.arxiv:
        entry = results.get(arxiv_id)
        status = getattr(entry, "verified", None)
        if status == "ok":
            ok = True
        elif status in _BAD_VERIFICATION:
            bad.append(f"{_BAD_VERIFICATION[status]}（{arxiv_id}）")
    for raw in item.malformed:
        bad.append(f"{_BAD_VERIFICATION['malformed']}（{raw}）")
    return ok, bad


def score_credibility(item: Item, results: Mapping[str, Any], warnings: Sequence[Any] = ()) -> Credibility:
    """Score ``item``; ``results`` maps arXiv id → the verifier's ArxivEntry, ``warnings`` are its open ones."""
    score, reasons = 3, []
    card = item.card
    if card is not None and getattr(card, "status", None) == "classified":
        score += 1
        kind = f" · {card.kind}" if getattr(card, "kind", None) else ""
        reasons.append(f"paper_card {card.card} 已分类（主分类 {card.primary}{kind}）")
    elif card is not None:
        reasons.append(f"paper_card {card.card} 待分类（{getattr(card, 'status', '?')}）")
    verified, bad = _verified(item, results)
    official = [u for u in item.urls if is_official_url(u) and "arxiv.org" not in u]
    if verified:
        score += 1
        reasons.append("arXiv 页面核对一致")
    elif official:
        score += 1
        reasons.append(f"官方来源（{urlsplit(official[0]).hostname}）")
    elif item.arxiv and not bad:
        reasons.append("arXiv 号未联网核对")
    agents = sorted(item.agents)
    if len(agents) >= 2:
        score += 1
        reasons.append(f"{len(agents)} 个独立来源（{' / '.join(agents)}）")
    elif len(item.note_sources) <= 1 and not item.urls and not item.arxiv:
        score -= 1
        reasons.append("单一来源且无链接")
    else:
        reasons.append("单一实例来源")
    if bad:
        score -= 2
        reasons.extend(bad)
    if warnings:
        score -= len(warnings)
        reasons.append("警示 " + " / ".join(getattr(w, "id", "?") for w in warnings))
    return Credibility(max(1, min(5, score)), reasons)
