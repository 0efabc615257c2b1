"""arXiv's answers on the wire: the HTTP session under ``arxiv.Client`` and the checks on a 200's body.

Every answer is checked before its entries are believed, because the
``arxiv`` package's parser runs in recover mode: it half-parses a truncated
feed and silently drops arXiv's error entries (they have no ``<published>``),
which would otherwise read as "not found".
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Literal

import requests

from agents.peer_deadline import WatchedAdapter, deadline

__all__ = ["BadAnswer", "ArxivSession", "answer_problem", "retry_after"]

_ATOM = "{http://www.w3.org/2005/Atom}"


class BadAnswer(Exception):
    """An HTTP 200 whose body cannot be believed; raised before the client parses or pages on."""

    def __init__(self, kind: Literal["broken", "error"], reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


class ArxivSession(requests.Session):
    """A requests session with a timeout, a request counter, the last headers, and answer checks.

    ``arxiv.Client`` sets no timeout and hides the response; and it would page on
    after a half-parsed broken feed, so a 200 is checked here, before it sees it.
    ``timeout`` is also each request's wall-clock deadline, headers and body together
    (``agents.peer_deadline``): requests' own timeout bounds one socket read, which a server
    trickling a byte at a time never trips. Past it the request raises ``DeadlineExceeded``.
    """

    def __init__(self) -> None:
        super().__init__()
        self.timeout: float = 15.0
        self.count = 0
        self.headers_seen: requests.structures.CaseInsensitiveDict[str] | None = None
        self.mount("http://", WatchedAdapter())
        self.mount("https://", WatchedAdapter())

    def request(self, method, url, *args, **kwargs):  # type: ignore[no-untyped-def, override]
        kwargs.setdefault("timeout", self.timeout)
        self.count += 1
        self.headers_seen = None
        with deadline(self.timeout):
            response = super().request(method, url, *args, **kwargs)
            self.headers_seen = response.headers
            response.content  # noqa: B018 - read the whole body under the deadline
        if response.status_code == requests.codes.ok:
            problem = answer_problem(response.content)
            if problem is not None:
                raise BadAnswer(*problem)
        return response


def answer_problem(content: bytes) -> tuple[Literal["broken", "error"], str] | None:
    """Why an HTTP 200 answer cannot be believed: not well-formed Atom, or arXiv's error entry."""
    try:
        root = ET.fromstring(content)
    except ET.ParseError as exc:
        return "broken", f"arXiv's answer is not well-formed XML ({exc})"
    if root.tag != f"{_ATOM}feed":
        return "broken", f"arXiv's answer is not an Atom feed (root <{root.tag}>)"
    for entry in root.iter(f"{_ATOM}entry"):
        if "/api/errors" in (entry.findtext(f"{_ATOM}id") or ""):
            summary = (entry.findtext(f"{_ATOM}summary") or "no reason given").strip()
            return "error", f"arXiv answered with an error entry: {summary}"
    return None


def retry_after(value: str | None, now: datetime) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or an HTTP date), None when absent or unreadable."""
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max(0.0, (when - now).total_seconds())
