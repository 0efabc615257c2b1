"""Credibility 1-5 of an item, from what it is and who says it, with the reason in the brief's words.

Start at 3 (a claim someone wrote down). Raised for a classified paper card, an
official source (a project's own blog, docs, release page or merged PR),
independent first-hand sources (distinct scouts' notes: a brief restating them
is a relay, not another witness), and a scout's high rating. Lowered for a
single source without any link, a page that is itself a digest or roundup of others
(its "来源：" line says so), a low rating, the author's own caveats, open
warnings about the item, and an arXiv number arXiv itself contradicts.

An arXiv lookup that did not happen is said ("未联网核对"), never punished, and
a lookup that did is said, never rewarded: the same vault gives the same
credibility offline and online, unless arXiv contradicts the number.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from agents.integrator.cluster import Item
from agents.scanner.e1_format import is_relay_path

__all__ = ["Credibility", "OFFICIAL_HOSTS", "score_credibility", "is_official_url", "witness_notes"]

# Hosts whose pages are the project's or the paper's own word, not a report about it.
OFFICIAL_HOSTS = frozenset({
    "arxiv.org", "blog.vllm.ai", "docs.vllm.ai", "llm-d.ai", "lmsys.org", "docs.sglang.ai",
    "developer.nvidia.com", "docs.nvidia.com", "nvidia.github.io", "pytorch.org", "huggingface.co",
    "modelcontextprotocol.io", "kubernetes.io", "openreview.net", "usenix.org", "www.usenix.org",
})
_GITHUB_OFFICIAL = re.compile(r"^/[\w.-]+/[\w.-]+/(?:releases|pull/\d+|blob/[^/]+/(?:README|docs))", re.IGNORECASE)
# A passage's own source line that says its page relays others: a digest, a roundup, a tracker's feed.
_SOURCE_LINE = re.compile(r"^\s*(?:[-*•>]\s*)?(?:原文|来源|出处|source|via)\s*[:：]", re.IGNORECASE)
_RELAY_KIND = re.compile(r"自动(?:追踪|抓取|汇总|生成)|汇总帖|转述|\bdigest\b|\bnewsletter\b|\broundup\b|\baggregat\w*|"
                         r"\bauto-?generated\b", re.IGNORECASE)
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
    if not item.arxiv:
        # Only a malformed number names the paper: it cannot be checked. A slip in one note beside the paper's
        # well-formed number ("2610.4417" in a daily list) is that note's error, warned of on its own.
        for raw in item.malformed:
            bad.append(f"{_BAD_VERIFICATION['malformed']}（{raw}）")
    return ok, bad


_NOT_A_WITNESS = re.compile(r"不另算|不单算|不重复计|不算独立(?:来源)?|别当(?:成)?独立(?:来源)?|只是(?:记一下)?传播面|"
                            # a copy of the same page another scout copied ("同一张表我补抄一行", "表头注明"同发布博客"")
                            r"同一张表[^，。；\n]{0,6}?(?:补抄|再抄|抄)|同(?:一)?(?:篇|份)?发布博客|同一(?:篇|份)(?:博客|原文|报道)|"
                            r"\bsame (?:table|post|blog post) as\b|\bcopied from the same\b|"
                            r"\bnot (?:an )?independent (?:source|witness)\b|\bdon't count (?:it|this) (?:again|separately)\b",
                            re.IGNORECASE)


def witness_notes(item: Item) -> list[str]:
    """The scouts' own notes that are witnesses of the item: they discuss it (a passage of its own, a
    figure of it), or, when none does, they name it. Briefs and coordination notes relay; they are none."""
    # A source that says it only relays ("只是记一下传播面，不另算", "别当独立来源") is no witness of its own.
    relaying = {p.path for p in item.passages if any(_NOT_A_WITNESS.search(line) for _, line in p.lines)}
    firsthand = [p for p in item.sources if p.startswith("inbox/") and p.count("/") >= 2 and not is_relay_path(p)
                 and p not in relaying]
    discussing = {p.path for p in item.passages} | {f.source for f in item.figures}
    if any(p in discussing for p in firsthand):
        firsthand = [p for p in firsthand if p in discussing]
    return firsthand


def score_credibility(item: Item, results: Mapping[str, Any], warnings: Sequence[Any] = (),
                      stars: int = 0) -> Credibility:
    """Score ``item``; ``results`` maps arXiv id → the verifier's ArxivEntry, ``warnings`` are its open ones,
    ``stars`` the scouts' own rating of it (0 when none)."""
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
    if official:
        score += 1
        reasons.append(f"官方来源（{urlsplit(official[0]).hostname}）")
    if verified:
        reasons.append("arXiv 页面核对一致")
    elif item.arxiv and not bad:
        reasons.append("arXiv 号未联网核对")
    firsthand = witness_notes(item)
    witnesses = sorted({p.split("/")[1] for p in firsthand})
    relays = sorted({p for p in item.sources if p.startswith("inbox/") and is_relay_path(p)})
    if len(witnesses) >= 2:
        score += 1
        reasons.append(f"{len(witnesses)} 个独立一手来源（{' / '.join(witnesses)}）")
    elif len(item.note_sources) <= 1 and not item.urls and not item.arxiv:
        score -= 1
        reasons.append("单一来源且无链接")
    elif witnesses:
        reasons.append("单一一手来源")
    else:
        score -= 1  # only a card or relays: nobody of the team has read it first-hand
        reasons.append("无一手笔记来源")
    if relays:
        reasons.append(f"另有 {len(relays)} 份简报 / 协调记录转述（不计为独立来源）")
    relayed_page = next((line for p in item.passages for _, line in p.lines[:4]
                         if _SOURCE_LINE.match(line) and _RELAY_KIND.search(line)), None)
    if relayed_page is not None and not official:
        score -= 1
        reasons.append("来源页本身是汇总 / 转述，非一手材料")
    if stars >= 4:
        score += 1
        reasons.append(f"来源评级 {'⭐' * stars}")
    elif 0 < stars <= 2:
        score -= 1
        reasons.append(f"来源评级仅 {'⭐' * stars}")
    if bad:
        score -= 2
        reasons.extend(bad)
    caveats = [w for w in warnings if getattr(w, "kind", None) == "caveat"]
    others = [w for w in warnings if getattr(w, "kind", None) != "caveat"]
    if caveats:
        score -= 1
        reasons.append("作者自注存疑 " + " / ".join(getattr(w, "id", "?") for w in caveats))
    if others:
        score -= 1
        reasons.append("警示 " + " / ".join(getattr(w, "id", "?") for w in others))
    if 0 < stars < score:
        # The scouts read it and rated it: the brief does not rate it above them.
        score = stars
        reasons.append(f"不高于来源评级（{'⭐' * stars}）")
    return Credibility(max(1, min(5, score)), reasons)
