"""Relevance of a text to a topic, 0-5, from the topic's keywords in ``topics.toml``; one matching rule."""

from __future__ import annotations

import functools
import re

__all__ = ["relevance", "keyword_hits"]

# Distinct keywords found -> score. Distinct keywords, not occurrences: a note
# that repeats "vLLM" forty times is not more on-topic than one that covers
# vLLM, KV cache and TTFT once each.
_STEPS = ((8, 5), (5, 4), (3, 3), (2, 2), (1, 1))


@functools.lru_cache(maxsize=4096)
def _pattern(keyword: str) -> re.Pattern[str] | None:
    """A single Latin word of seven letters or more matches its forms ("scheduling" → "scheduler",
    "quantization" → "quantized"); anything else (names, CJK terms, short words) matches as written."""
    word = keyword.lower()
    if not re.fullmatch(r"[a-z]{7,}", word):
        return None
    stem = re.sub(r"(?:ization|isation|ation|ing|ers|er|ed|es|s)$", "", word)
    return re.compile(rf"(?<![a-z]){re.escape(stem)}[a-z]*") if len(stem) >= 5 and stem != word else None


def keyword_hits(text: str, keywords: list[str] | tuple[str, ...]) -> list[str]:
    """The distinct keywords ``text`` holds (case-insensitive): a keyword of several words when each word is
    there ("KV cache" in "KV 池 … DynamicCache") or its leading acronym stands alone ("KV 块"), a long Latin
    word in any of its forms, else as written."""
    lowered = text.lower()
    hits = []
    spellings: dict[str, str] = {}
    for k in keywords:
        spellings.setdefault(k.lower(), k)  # one per keyword, as first written
    for written in spellings.values():
        keyword = written.lower()
        pattern = _pattern(keyword)
        if pattern is not None:
            found = bool(pattern.search(lowered))
        elif " " in keyword:
            head = written.split()[0]
            # "KV cache" is also meant by "KV" standing alone ("KV 块", "2-bit KV", "KV 传输层"): the acronym as a
            # word of its own, not inside a longer name ("KVSET").
            found = all(word in lowered for word in keyword.split()) or (
                re.fullmatch(r"[A-Z]{2,4}", head) is not None
                and re.search(rf"(?<![a-z0-9]){head.lower()}(?![a-z0-9])", lowered) is not None)
        else:
            found = keyword in lowered
        if found:
            hits.append(keyword)
    return hits


def relevance(text: str, keywords: list[str]) -> int:
    """Score ``text`` against ``keywords`` (distinct hits, ``keyword_hits``' rule)."""
    hits = len(keyword_hits(text, keywords))
    return next((score for threshold, score in _STEPS if hits >= threshold), 0)
