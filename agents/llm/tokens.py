"""Approximate prompt tokens and the share of them that is a prefix common to a run's calls.

Servers count tokens with their own tokenizer; this count is the same for
every model (a CJK character, a word or a punctuation mark is one token), so
that figures of two runs compare. vLLM's and SGLang's prefix caches reuse a
prompt's leading tokens: the common-prefix share says how much of a run's
prompt text they can reuse.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = ["approx_tokens", "count_tokens", "common_prefix_share"]

_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[A-Za-z]+|\d+|[^\sA-Za-z\d]")


def approx_tokens(text: str) -> list[str]:
    """The text as approximate tokens."""
    return _TOKEN.findall(text)


def count_tokens(text: str) -> int:
    return len(approx_tokens(text))


def common_prefix_share(prompts: Sequence[str]) -> float:
    """Of all prompt tokens of the calls, the share that is the prefix every call begins with.

    One call (or none) shares nothing with another: 0.0.
    """
    if len(prompts) < 2:
        return 0.0
    tokenized = [approx_tokens(p) for p in prompts]
    total = sum(len(t) for t in tokenized)
    first = tokenized[0]
    common = min(len(t) for t in tokenized)
    for other in tokenized[1:]:
        n = 0
        while n < common and other[n] == first[n]:
            n += 1
        common = n
    return round(common * len(tokenized) / total, 3) if total else 0.0
