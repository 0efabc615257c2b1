"""A release that keeps only part of what was promised: "只放了一半", "单机 ✅ + serving ❌", "the multi-node
part is deferred", "README 改成 planned for October".

Read per section of a note: the line saying what shipped and the line saying what did not are often apart
(a heading "承诺只兑现了一半", then "没放的：…"), so a section that says either marks every line in it.
"""

from __future__ import annotations

import re

__all__ = ["PARTIAL", "partial_line"]

PARTIAL = re.compile(
    # Chinese: half, part, only some of it, what was not released, deferred.
    r"(?:只|仅)(?:兑现|放|发|开源|发布|交付|上线|实现)(?:出|了)?(?:一半|部分|单机|其中)|兑现了?一半|放了一半|(?:一半|部分)(?:兑现|交付|发布|开源)|"
    r"没(?:有)?放(?:出)?的|(?:没|未)(?:有)?(?:放出|发布|开源|交付|包含|上线)的|还(?:没|未)(?:放|发|开源|上线|交付)|"
    r"仍(?:缺|差|没有|未(?:放|发|开源|上线|交付))|(?:推迟|延期|延后|顺延)(?:到|至)?|跳票了?一(?:半|部分)|"
    r"[✅✔]\s*[^❌✗\n]{0,40}[❌✗]|[❌✗]\s*(?:未|没)|"
    # English: partial, only the X, not (yet) included, deferred, pushed to, moved to "planned for".
    r"\bpartial(?:ly)?\b|\bonly (?:the |a )?(?:single[- ]node|first|half|part|core|reference)\b|"
    r"\bnot (?:yet )?(?:included|shipped|released|part of (?:the|this) release)\b|\b(?:deferred|postponed|slipped)\b|"
    r"\bpushed (?:back|to)\b|\b(?:moved|changed) to [\"“']?planned for\b|\bstill (?:missing|pending|to come)\b",
    re.IGNORECASE)
# "不是只放了一半", "not partial": said to deny it.
_DENIED = re.compile(r"(?:不是|并非|并不是|没有|\bnot\b|\bisn't\b|\bnor\b)\s*$", re.IGNORECASE)


# What did not ship, said as such: the line to quote as the undelivered part.
_MISSING = re.compile(r"没|未|仍缺|推迟|延期|❌|✗|\bnot\b|deferred|postponed|planned for|pushed|missing", re.IGNORECASE)


def partial_line(lines: list[str]) -> str | None:
    """The line of ``lines`` (a note's section) saying a release kept only part of a promise, if one does:
    one saying what did not ship first ("没放的：serving system"), else the first ("承诺只兑现了一半")."""
    found = [line.strip()[:200] for line in lines for match in PARTIAL.finditer(line)
             if not _DENIED.search(line[max(0, match.start() - 6):match.start()])]
    body = [line for line in found if not line.startswith("#")]
    return next((line for line in body if _MISSING.search(line)), None) or next(iter(body or found), None)
