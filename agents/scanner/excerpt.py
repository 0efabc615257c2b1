"""Shortening a source's words for a quote: at a word or punctuation boundary, never inside a number or a word."""

from __future__ import annotations

__all__ = ["excerpt"]

_BREAKS = " ，。；、,;）)」"


def excerpt(text: str, limit: int) -> str:
    """``text`` cut to about ``limit`` characters, at a boundary, with "…" when cut."""
    text = text.strip()
    if len(text) <= limit:
        return text
    head = text[:limit]
    cut = max(head.rfind(ch) for ch in _BREAKS)
    if cut >= limit // 2:
        return head[:cut].rstrip() + "…"
    # No boundary near the end (a long CJK run): keep whole words and numbers at the edge.
    while head and head[-1].isascii() and (head[-1].isalnum() or head[-1] in ".,") and len(head) > limit // 2:
        head = head[:-1]
    return head.rstrip() + "…"
