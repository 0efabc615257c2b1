"""A local stand-in for arXiv's query API (Atom), scriptable per test.

It answers ``id_list`` and ``search_query=ti:...`` requests from the papers it
holds, in the shape of export.arxiv.org's output (entry ids
``http://arxiv.org/abs/<id>v<N>``, opensearch counts, ``arxiv:primary_category``),
close enough that the real ``arxiv`` client parses it. Faults are scripted:
``fake.script(Reply.unavailable(retry_after=1), ...)`` queues one reply per
request; ``fake.always = Reply.slow(2)`` applies to every request after the queue.
Each request is logged with its arrival time on ``fake.clock`` (a test's fake clock
when set), so tests can check the spacing of requests without measuring time.

Manual: https://info.arxiv.org/help/api/user-manual.html
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Literal
from urllib.parse import parse_qs, urlencode, urlsplit
from xml.sax.saxutils import escape, quoteattr

__all__ = ["FakePaper", "Reply", "SeenRequest", "ArxivFake"]

# arXiv's own acceptance test, kept apart from baton's parser on purpose: the
# fake must judge identifiers the way the server does, not the way we do.
_SERVER_ID = re.compile(r"(\d{4}\.\d{4,5}|[a-z\-]+(\.[A-Z]{2})?/\d{7})(v\d+)?")


@dataclass
class FakePaper:
    """A paper the fake knows, at its latest version."""

    id: str
    title: str
    version: int = 1
    authors: tuple[str, ...] = ("Ada Lovelace",)
    published: str = "2026-09-01T17:59:46Z"
    updated: str = "2026-09-01T17:59:46Z"
    primary: str = "cs.LG"
    summary: str = "An abstract."


@dataclass(frozen=True)
class Reply:
    """One scripted answer; ``normal`` answers from the papers held."""

    kind: Literal["normal", "unavailable", "broken", "error_entry", "empty", "status"] = "normal"
    delay: float = 0.0
    status: int = 200
    retry_after: str | None = None
    message: str = "incorrect id format"

    @classmethod
    def unavailable(cls, retry_after: float | None = None) -> Reply:
        """HTTP 503, with a Retry-After header in seconds when given."""
        return cls("unavailable", status=503, retry_after=None if retry_after is None else f"{retry_after:g}")

    @classmethod
    def slow(cls, seconds: float) -> Reply:
        """The normal answer, after ``seconds``."""
        return cls("normal", delay=seconds)

    @classmethod
    def broken(cls) -> Reply:
        """A 200 whose Atom is cut off mid-entry."""
        return cls("broken")

    @classmethod
    def error_entry(cls, message: str = "incorrect id format") -> Reply:
        """A 200 whose feed holds only arXiv's error entry."""
        return cls("error_entry", message=message)

    @classmethod
    def empty(cls) -> Reply:
        """A 200 with a feed of no entries (totalResults 0)."""
        return cls("empty")

    @classmethod
    def http(cls, status: int) -> Reply:
        """A bare HTTP status with an empty body."""
        return cls("status", status=status)


@dataclass(frozen=True)
class SeenRequest:
    """One request the fake received, and when it arrived on the fake's clock."""

    path: str
    params: dict[str, str]
    at: float = 0.0

    @property
    def ids(self) -> list[str]:
        """The identifiers of its id_list."""
        raw = self.params.get("id_list", "")
        return [part for part in raw.split(",") if part]


@dataclass
class ArxivFake:
    """The server's state: papers, the script, every request seen, and the clock that stamps them."""

    papers: dict[str, FakePaper] = field(default_factory=dict)
    always: Reply | None = None
    requests: list[SeenRequest] = field(default_factory=list)
    clock: Callable[[], float] = time.monotonic
    url: str = ""
    _queue: deque[Reply] = field(default_factory=deque)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    def add(self, *papers: FakePaper) -> None:
        """Make papers known."""
        for paper in papers:
            self.papers[paper.id] = paper

    def script(self, *replies: Reply) -> None:
        """Queue replies, one per coming request, before ``always`` or the normal answer."""
        self._queue.extend(replies)

    @property
    def request_count(self) -> int:
        """How many requests arrived."""
        with self._lock:
            return len(self.requests)

    def start(self) -> ArxivFake:
        """Serve on 127.0.0.1 on a free port, in a daemon thread."""
        fake = self

        class Handler(_Handler):
            state = fake

        self._server = _Server(("127.0.0.1", 0), Handler)
        host, port = self._server.server_address[:2]
        self.url = f"http://{host}:{port}/api/query"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and release the port."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def _next_reply(self, seen: SeenRequest) -> Reply:
        with self._lock:
            self.requests.append(seen)
            if self._queue:
                return self._queue.popleft()
            return self.always or Reply()

    def answer(self, params: dict[str, str]) -> bytes:
        """The normal Atom answer to a query."""
        ids = [part for part in params.get("id_list", "").split(",") if part]
        bad = [part for part in ids if not _SERVER_ID.fullmatch(part)]
        if bad:
            return _feed(params, [], total=1, error=f"incorrect id format for {bad[0]}")
        if ids:
            found = [self.papers[_base(part)] for part in ids if _base(part) in self.papers]
        else:
            found = _title_search(self.papers.values(), params.get("search_query", ""))
        start = int(params.get("start", "0"))
        size = int(params.get("max_results", "10"))
        return _feed(params, found[start : start + size], total=len(found))


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:  # type: ignore[no-untyped-def]
        # A client that gave up on a slow answer breaks the pipe: expected, not news.
        return None


class _Handler(BaseHTTPRequestHandler):
    state: ArxivFake

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return None

    def do_GET(self) -> None:  # noqa: N802
        parts = urlsplit(self.path)
        params = {key: values[0] for key, values in parse_qs(parts.query, keep_blank_values=True).items()}
        reply = self.state._next_reply(SeenRequest(parts.path, params, self.state.clock()))
        if reply.delay:
            time.sleep(reply.delay)
        if reply.kind in ("unavailable", "status"):
            self.send_response(reply.status)
            if reply.retry_after is not None:
                self.send_header("Retry-After", reply.retry_after)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if reply.kind == "error_entry":
            body = _feed(params, [], total=1, error=reply.message)
        elif reply.kind == "empty":
            body = _feed(params, [], total=0)
        elif reply.kind == "broken":
            whole = self.state.answer(params)
            body = whole[: max(len(whole) * 2 // 3, 1)]
        else:
            body = self.state.answer(params)
        self.send_response(200)
        self.send_header("Content-Type", "application/atom+xml; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def _base(identifier: str) -> str:
    return re.sub(r"v\d+$", "", identifier)


def _title_search(papers: object, query: str) -> list[FakePaper]:
    """Rank by the number of ``ti:`` terms in the title (OR), or require them all (AND)."""
    terms = [term.strip('"').lower() for term in re.findall(r"ti:(\"[^\"]+\"|\S+)", query)]
    need_all = " AND " in query
    scored = []
    for paper in papers:  # type: ignore[attr-defined]
        words = set(re.findall(r"[a-z0-9]+", paper.title.lower()))
        hits = sum(1 for term in terms if set(re.findall(r"[a-z0-9]+", term)) <= words)
        if hits and (not need_all or hits == len(terms)):
            scored.append((-hits, paper.id, paper))
    return [paper for _, _, paper in sorted(scored)]


def _wrap(title: str) -> str:
    # arXiv breaks long titles over lines with two-space indents; the client collapses them.
    if len(title) <= 60:
        return title
    cut = title.rfind(" ", 0, 60)
    return title if cut < 0 else f"{title[:cut]}\n  {title[cut + 1 :]}"


def _entry(paper: FakePaper) -> str:
    versioned = f"{paper.id}v{paper.version}"
    authors = "".join(f"\n    <author>\n      <name>{escape(name)}</name>\n    </author>" for name in paper.authors)
    return f"""
  <entry>
    <id>http://arxiv.org/abs/{versioned}</id>
    <updated>{paper.updated}</updated>
    <published>{paper.published}</published>
    <title>{escape(_wrap(paper.title))}</title>
    <summary>  {escape(paper.summary)}
</summary>{authors}
    <link href="http://arxiv.org/abs/{versioned}" rel="alternate" type="text/html"/>
    <link title="pdf" href="http://arxiv.org/pdf/{versioned}" rel="related" type="application/pdf"/>
    <arxiv:primary_category xmlns:arxiv="http://arxiv.org/schemas/atom" term={quoteattr(paper.primary)} scheme="http://arxiv.org/schemas/atom"/>
    <category term={quoteattr(paper.primary)} scheme="http://arxiv.org/schemas/atom"/>
  </entry>"""


def _error_entry(message: str) -> str:
    # arXiv's error entry has no <published>; the client's parser skips it silently.
    anchor = escape(message.replace(" ", "_"))
    return f"""
  <entry>
    <id>http://arxiv.org/api/errors#{anchor}</id>
    <title>Error</title>
    <summary>{escape(message)}</summary>
    <updated>2026-09-29T00:00:00-04:00</updated>
    <link href="http://arxiv.org/api/errors#{anchor}" rel="alternate" type="text/html"/>
    <author>
      <name>arXiv api core</name>
    </author>
  </entry>"""


def _feed(params: dict[str, str], papers: list[FakePaper], *, total: int, error: str | None = None) -> bytes:
    query = urlencode(params)
    entries = _error_entry(error) if error else "".join(_entry(paper) for paper in papers)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <link href="http://arxiv.org/api/query?{escape(query)}" rel="self" type="application/atom+xml"/>
  <title type="html">ArXiv Query: {escape(query)}</title>
  <id>http://arxiv.org/api/fake</id>
  <updated>2026-09-29T00:00:00-04:00</updated>
  <opensearch:totalResults xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{total}</opensearch:totalResults>
  <opensearch:startIndex xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{params.get("start", "0")}</opensearch:startIndex>
  <opensearch:itemsPerPage xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">{params.get("max_results", "10")}</opensearch:itemsPerPage>{entries}
</feed>
""".encode()
