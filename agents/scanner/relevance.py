"""Relevance of a text to a topic, 0-5, from the topic's keywords in ``topics.toml``."""

from __future__ import annotations

__all__ = ["relevance"]

# Distinct keywords found -> score. Distinct keywords, not occurrences: a note
# that repeats "vLLM" forty times is not more on-topic than one that covers
# vLLM, KV cache and TTFT once each.
_STEPS = ((8, 5), (5, 4), (3, 3), (2, 2), (1, 1))


def relevance(text: str, keywords: list[str]) -> int:
    """Score ``text`` against ``keywords`` (case-insensitive, distinct hits)."""
    lowered = text.lower()
    hits = len({keyword.lower() for keyword in keywords if keyword.lower() in lowered})
    return next((score for threshold, score in _STEPS if hits >= threshold), 0)
