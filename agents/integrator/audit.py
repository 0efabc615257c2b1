"""Nothing read is silently dropped: the sections of the window's notes that became no item.

Items are made of identifiers (arXiv numbers, links) and of the rated sections a note digests
(``cluster._note_digest``). A section that names neither and carries no rating — a one-line
"HotInfra：PIM-DIMM 做 KV offload，只有模拟器结果" under a heading, a vendor note flagged ⚠ — would
belong to no list. This module finds those sections that speak of the topic and lists them, with
their relevance and the scout's own flag, so the reader sees them read and set aside, not lost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from agents.integrator.cluster import Item, passages_of
from agents.integrator.increment_text import tidy_title
from agents.integrator.scope import ScopeRules, text_relevance
from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.e1_format import brief_topic, is_brief_path, is_coordination_path
from agents.scanner.excerpt import excerpt

__all__ = ["unplaced_sections"]

_URL = re.compile(r"https?://|www\.", re.IGNORECASE)
_FLAG = re.compile(r"⚠[⚠⚬]*|⭐+|★+")
_RATED = re.compile(r"⭐+|★+")
# A heading that sets its whole section aside: the scout's decision, counted rather than listed.
_SET_ASIDE = re.compile(r"跳过|丢弃|不收|没收|未收|本主题外|主题外|主轴外|\bskip(?:ped)?\b|\bdropped\b|\bdiscard(?:ed)?\b|"
                        r"not kept|out of scope", re.IGNORECASE)
# The parts of an E1 brief that report on the brief itself (its summary, checks, register), not a subject.
_BRIEF_PART = re.compile(r"状态摘要|诚实度|检查过的来源|来源清单|矛盾|待核|可引用|变更摘要|核对|未读|审计|执行体")
# A section that speaks of the note itself (its summary, its sources, its hand-over list), not of a subject.
_NOTE_LEVEL = re.compile(r"^\s{0,3}#{1,6}\s*(?:[一二三四五六七八九十\d]+[、.]\s*)?(?:本轮|今日|本次)?\s*"
                         r"(?:小结|总结|结论|汇总|来源|参考|链接|附录|待办|下一步|转交|交接|备注|summary|wrap[- ]?up|tl;?dr|"
                         r"sources?|references?|links?|next steps?|todo|hand[- ]?over)\b", re.IGNORECASE)


def _spans(items: Sequence[Item]) -> dict[str, list[tuple[int, int]]]:
    """Per source, the line ranges the items' passages hold (a digested section with its subsections)."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for item in items:
        for p in item.passages:
            if p.heading:
                spans.setdefault(p.path, []).append((p.start, p.end))
    return spans


def unplaced_sections(files: Sequence[Any], read: set[str], items: Sequence[Item],
                      rules: ScopeRules) -> tuple[list[dict], list[str]]:
    """The headed sections of the window's read notes that no item holds and that speak of the topic, and the
    paths of the sections the scouts set aside by their headings ("杂项（跳过）", "丢弃清单"), one per section.

    ``files``: the scan's files (path, body or text, body_line); ``read``: the paths read in the window;
    ``items``: every item the window made (whatever list it ends in). Coordination notes relay, and this
    topic's own earlier briefs are the baseline: neither is audited. A section naming an arXiv number or a
    link is an item's by construction; one inside a digest is the digest's.
    """
    spans = _spans(items)
    threshold = max(2, rules.min_relevance)
    found: list[dict] = []
    set_aside: list[str] = []
    for file in files:
        path = str(file.path)
        if path not in read or not path.startswith("inbox/") or is_coordination_path(path):
            continue
        brief = is_brief_path(path)
        if brief and (brief_topic(path) or "").lower() in rules.names:
            continue  # this topic's own earlier brief: the baseline
        text = str(getattr(file, "body", "") or getattr(file, "text", "") or "")
        first = int(getattr(file, "body_line", 1) or 1) if getattr(file, "body", "") else 1
        for passage in passages_of(path, text, first):
            content = [line for _, line in passage.lines if line.strip()]
            if not passage.heading or passage.heading.lstrip().startswith("# ") or not content:
                continue
            if any(start <= passage.start <= end for start, end in spans.get(path, ())) or _NOTE_LEVEL.match(passage.heading):
                continue
            if brief and _BRIEF_PART.search(passage.heading):
                continue
            whole = "\n".join([passage.heading, *content])
            if _URL.search(whole) or any(not ref.malformed for ref in find_arxiv_refs(whole)):
                continue  # an identifier's section: its item holds it
            relevance = text_relevance(whole, rules)
            if relevance < threshold and not (relevance >= 1 and _RATED.search(passage.heading)):
                continue
            if _SET_ASIDE.search(passage.heading):
                set_aside.append(path)
                continue
            flagged = next((line.strip() for line in [passage.heading, *content] if _FLAG.search(line)
                            and not line.lstrip().startswith("|")), None)
            title = tidy_title(passage.heading) or excerpt(content[0], 40)
            reason = f"该段无论文号 / 链接，未成条目；本主轴相关度 {relevance}"
            if flagged and "⚠" in flagged:
                said = re.sub(r"^[-*•#\s]+", "", flagged)
                reason += f"；来源自注：「{excerpt(said, 80)}」"
            found.append({"key": f"section:{path}#L{passage.start}", "title": title, "arxiv": [], "paper_card": None,
                          "sources": [path], "line": passage.start, "relevance": relevance,
                          "reason": f"{reason}（{path} L{passage.start}）"})
    return found, set_aside
