"""arXiv not reachable in a run: one reason for the whole run, not one per identifier.

When the lookups fail for want of arXiv (connection refused, timeouts, 5xx/429 after the retries,
the time budget spent), every unverified identifier carries the same reason. The brief says it once
(``stats.arxiv_failure`` and its kind), the identifiers' notes keep what is their own, and the
command line exits 3 (done but degraded) with one line saying how to retry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from agents.verifier.arxiv_api import ArxivLookup
from state.models import ArxivEntry

__all__ = ["ArxivOutage", "find_outage", "without_outage"]

_KINDS = (
    ("budget", re.compile(r"time budget of")),
    ("timeout", re.compile(r"no answer from arXiv within")),
    ("http", re.compile(r"arXiv answered HTTP (?:5\d\d|429)")),
    ("connect", re.compile(r"cannot reach arXiv")),
)


@dataclass(frozen=True)
class ArxivOutage:
    """Why arXiv could not be asked this run, how many identifiers it left unverified."""

    reason: str
    kind: str
    unverified: int
    reasons: frozenset[str]


def _kind(reason: str) -> str | None:
    for kind, pattern in _KINDS:
        if pattern.search(reason):
            return kind
    return None


def find_outage(verdicts: Mapping[str, ArxivLookup], notes: Iterable[str]) -> ArxivOutage | None:
    """The outage behind the run's unverified identifiers and failed title searches, if any.

    An offline run (``--offline``) is no outage: it asked for the cache only.
    """
    reasons = [v.note for v in verdicts.values() if v.status == "unverified" and v.note and _kind(v.note)]
    searches = [n for n in notes if "unverified:" in n and _kind(n)]
    if not reasons and not searches:
        return None
    first = (reasons or [n.split("unverified: ", 1)[1] for n in searches])[0]
    # The kind of the first failure; a budget spent after failed tries says what the tries met.
    kind = next((k for k, pattern in _KINDS[1:] if pattern.search(first)), None) or _kind(first) or "other"
    count = sum(1 for v in verdicts.values() if v.status == "unverified" and v.note and _kind(v.note))
    return ArxivOutage(first, kind, count, frozenset(reasons) | frozenset(searches))


def without_outage(entries: list[ArxivEntry], outage: ArxivOutage | None) -> list[ArxivEntry]:
    """The entries with the shared outage reason taken out of their notes (their own parts stay)."""
    if outage is None:
        return entries
    cleaned = []
    for entry in entries:
        if not entry.note:
            cleaned.append(entry)
            continue
        parts = [p for p in entry.note.split("; ") if not any(r in p or p in r for r in outage.reasons)]
        cleaned.append(entry.model_copy(update={"note": "; ".join(parts) or None}))
    return cleaned
