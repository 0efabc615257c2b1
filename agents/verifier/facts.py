"""What the checks know about a paper: arXiv's verdicts (``PaperFacts``) and the window's cards."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Protocol

from state.vault_config import CARDS_DIR

__all__ = ["CARD_DIR", "CardLike", "PaperFacts", "paper_facts", "known_titles"]

CARD_DIR = f"{CARDS_DIR}/"  # a source path under the cards folder


class CardLike(Protocol):
    """What the checks read from ``agents.scanner.cards.Card``."""

    card: int
    arxiv: str
    title: str
    ingested: datetime
    path: str


@dataclass(frozen=True)
class PaperFacts:
    """What arXiv says about one identifier, whatever shape the caller's result has."""

    status: str
    title: str | None = None
    published: date | None = None
    updated: date | None = None
    latest_version: int | None = None


def _as_date(value: object) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and re.match(r"\d{4}-\d{2}-\d{2}", value):
        return date.fromisoformat(value[:10])
    return None


def paper_facts(results: Mapping[str, object]) -> dict[str, PaperFacts]:
    """Read arXiv verdicts keyed by identifier (a version suffix on the key is dropped).

    A result has ``status`` and either a ``record`` (``ArxivLookup``) or flat
    ``title``/``published``/``updated``/``latest_version`` attributes.
    """
    facts = {}
    for key, result in results.items():
        source = getattr(result, "record", None) or result
        latest = getattr(source, "latest_version", None)
        facts[re.sub(r"v\d+$", "", key)] = PaperFacts(
            status=str(getattr(result, "status", "unverified")),
            title=getattr(source, "title", None),
            published=_as_date(getattr(source, "published", None)),
            updated=_as_date(getattr(source, "updated", None)),
            latest_version=int(latest) if latest else None,
        )
    return facts


def known_titles(facts: Mapping[str, PaperFacts], cards: Sequence[CardLike]) -> dict[str, tuple[str, str]]:
    """id → (title, where it comes from): arXiv first, the card otherwise."""
    titles = {card.arxiv: (card.title, f"卡 {card.card}") for card in cards}
    for identifier, fact in facts.items():
        if fact.status == "ok" and fact.title:
            titles[identifier] = (fact.title, "arXiv")
    return titles
