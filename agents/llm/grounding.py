"""The grounding check: every figure, version, arXiv number, URL and date the model writes must be in the sources.

A sentence that carries one the sources do not hold is dropped (and counted),
whatever else it says: the model may word things, never supply a fact.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Grounded", "ground", "sentences", "unsupported", "claims_a_decision"]

_URL = re.compile(r"https?://[^\s<>\"'（）()，。；、]+")
# Numbers with their inner separators: 2409.01234, 0.6.3, 3,900, 2026-09-27, 14:30, 1/3.
_NUMBER = re.compile(r"\d+(?:[.,:/-]\d+)*")
# What only code decides: approval, credibility, warnings, D-numbers. A model sentence about them is not the
# model's to write (an obeyed instruction in a source reads like this), so it is dropped like an invented fact.
_DECISION = re.compile(r"批准|审批|获准|免审|人工审核|可信度|星级|五星|警示|(?<![A-Za-z])D-?\d{2,}(?!\d)|approv|credib", re.I)
_SENTENCE_END = re.compile(r"(?<=[。！？；!?])|(?<=[.;])\s+")


@dataclass(frozen=True)
class Grounded:
    text: str
    dropped: int


def sentences(text: str) -> list[str]:
    """The text's sentences (a dot inside a number is not an end)."""
    return [s for s in (part.strip() for part in _SENTENCE_END.split(text)) if s]


def _normal(text: str) -> str:
    return re.sub(r"(?<=\d),(?=\d{3})", "", text)


def unsupported(sentence: str, corpus: str) -> list[str]:
    """The facts of ``sentence`` (URLs, numbers) that ``corpus`` does not contain."""
    missing = []
    for url in _URL.findall(sentence):
        url = url.rstrip(".,;:!?")
        if url not in corpus:
            missing.append(url)
    plain = _normal(_URL.sub(" ", sentence))
    source = _normal(corpus)
    for number in _NUMBER.findall(plain):
        number = number.rstrip(".,:/-")
        if not re.search(rf"(?<![\d.]){re.escape(number)}(?!\d|[.,]\d)", source):
            missing.append(number)
    return missing


def claims_a_decision(sentence: str) -> bool:
    """Whether the sentence speaks of what only code decides (approval, credibility, warnings, D-numbers)."""
    return bool(_DECISION.search(sentence))


def ground(text: str, corpus: str) -> Grounded:
    """``text`` without the sentences that carry a fact ``corpus`` does not hold or claim a decision."""
    kept, dropped = [], 0
    for sentence in sentences(text):
        if unsupported(sentence, corpus) or claims_a_decision(sentence):
            dropped += 1
        else:
            kept.append(sentence)
    return Grounded(text="".join(_joined(kept)), dropped=dropped)


def _joined(parts: list[str]) -> list[str]:
    out = []
    for part in parts:
        if out and not re.search(r"[。！？；!?]$", out[-1]):
            out[-1] += " "
        out.append(part)
    return out
