"""A release that keeps only part of what was promised: "只放了一半", "单机 ✅ + serving ❌", "the multi-node
part is deferred", "README 改成 planned for October".

Read per section of a note: the line saying what shipped and the line saying what did not are often apart
(a heading "承诺只兑现了一半", then "没放的：…"), so a section that says either marks every line in it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["HALF", "PARTIAL", "Partial", "partial_in"]

# Said to have delivered a part: half, part, only some of it, one of two ("到了一样"), ✅ beside ❌.
HALF = re.compile(
    r"(?:只|仅)(?:兑现|放|发|交|开源|发布|交付|上线|实现)(?:出|了)?(?:一半|部分|单机|其中|一样)|兑现了?一半|[放交发]了一半|"
    r"(?:一半|部分)(?:兑现|交付|发布|开源|到了)|到了一样|两样(?:东西)?(?:只)?到了一样|"
    r"[✅✔]\s*[^❌✗\n]{0,40}[❌✗]|"
    r"\bpartial(?:ly)?\b|\bonly (?:the |a )?(?:single[- ]node|first|half|part|core|reference)\b|\bhalf of (?:it|the)\b",
    re.IGNORECASE)
# ...or what did not ship, with the release beside it: not released, still missing, deferred.
PARTIAL = re.compile(
    HALF.pattern + r"|"
    r"没(?:有)?放(?:出)?的|(?:没|未)(?:有)?(?:放出|发布|开源|交付|包含|上线)的|还(?:没|未)(?:放|发|开源|上线|交付)|"
    r"仍(?:缺|差|没有|未(?:放|发|开源|上线|交付))|(?:推迟|延期|延后|顺延)(?:到|至)?|[❌✗]\s*(?:未|没)|那半没有|"
    r"\bnot (?:yet )?(?:included|shipped|released|part of (?:the|this) release)\b|\b(?:deferred|postponed|slipped)\b|"
    r"\bpushed (?:back|to)\b|\b(?:moved|changed) to [\"“']?planned for\b|\bstill (?:missing|pending|to come)\b",
    re.IGNORECASE)
# "不是只放了一半", "not partial": said to deny it.
_DENIED = re.compile(r"(?:不是|并非|并不是|没有|\bnot\b|\bisn't\b|\bnor\b)\s*$", re.IGNORECASE)
# What did not ship, said as such: the line to quote as the undelivered part.
_MISSING = re.compile(r"没|未|仍缺|推迟|延期|❌|✗|\bnot\b|deferred|postponed|planned for|pushed|missing", re.IGNORECASE)


@dataclass(frozen=True)
class Partial:
    """A section's word on a partial delivery: the line to quote, and whether it says a part was delivered
    (not only that something is missing or deferred)."""

    line: str
    half: bool


def _said(pattern: re.Pattern[str], line: str) -> bool:
    return any(not _DENIED.search(line[max(0, m.start() - 6):m.start()]) for m in pattern.finditer(line))


def partial_in(lines: list[str]) -> Partial | None:
    """What ``lines`` (a note's section) say of a release keeping only part of a promise, if anything: the line
    saying what did not ship first ("没放的：serving system"), else the first such line ("承诺只兑现了一半")."""
    found = [line.strip()[:200] for line in lines if _said(PARTIAL, line)]
    if not found:
        return None
    body = [line for line in found if not line.startswith("#")]
    line = next((line for line in body if _MISSING.search(line)), None) or next(iter(body or found))
    return Partial(line, any(_said(HALF, line) for line in lines))
