"""``baton feeds fetch``: the RSS / Atom feeds of ``feeds.toml`` as notes under ``inbox/feeds/``.

Each feed is fetched with httpx (a timeout, a conditional GET with the ETag / Last-Modified of the
previous answer, a politeness delay between two requests to the same host), parsed with feedparser,
and each entry not seen before becomes one Markdown note with front matter (``time``, ``feed``,
``link``, ``arxiv`` when the link is an arXiv abstract page, ``title``). The scanner reads these notes
like any other inbox note. An entry is written once: its key is remembered in ``<state>/feeds.json``
and its note name is a function of the entry, so a crash between the two writes no second note.
"""

from __future__ import annotations

import hashlib
import html
import io
import json
import re
import time as _time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo

import feedparser
import httpx
import yaml

from agents.scanner.arxiv_ids import parse_arxiv_id
from state.errors import UsageError
from state.feeds_config import FEEDS_FOLDER, Feed, load_feeds_config
from state.files import atomic_write_text
from state.runtime import BatonContext

__all__ = ["FeedResult", "FeedClock", "fetch_feeds", "fetch_feed", "entry_note", "FEED_STATE_FILE"]

FEED_STATE_FILE = "feeds.json"
_SEEN_KEPT = 5000  # entry keys remembered per feed (a feed shows its latest few hundred at most)
_ARXIV_ABS = re.compile(r"^https?://(?:www\.|export\.)?arxiv\.org/abs/([^?#]+?)/?$", re.IGNORECASE)
_TAG = re.compile(r"<[^>]+>")
_SLUG = re.compile(r"[^a-z0-9]+")
_USER_AGENT = "baton-feeds/1 (conditional GET; one request per host at a time)"


@dataclass
class FeedClock:
    """Time sources, replaceable in tests: the politeness delay's clock and sleep, and "now"."""

    monotonic: Callable[[], float] = _time.monotonic
    sleep: Callable[[float], None] = _time.sleep
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))


@dataclass
class FeedResult:
    """What fetching one feed did."""

    feed: str
    status: str  # "new", "not_modified", "unchanged", "failed"
    http: int | None = None
    written: list[str] = field(default_factory=list)
    problem: str | None = None  # why it failed, or what was wrong with a feed that still parsed

    def line(self) -> str:
        """One line for the terminal."""
        code = f" (HTTP {self.http})" if self.http else ""
        if self.status == "failed":
            return f"{self.feed}: failed{code}: {self.problem}"
        if self.status == "not_modified":
            return f"{self.feed}: not modified{code}"
        head = f"{self.feed}: {len(self.written)} new note(s){code}"
        return head + (f"; note: {self.problem}" if self.problem else "")


def _load_state(path: Path) -> dict:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except ValueError:
        return {}  # a broken state file only costs conditional GETs; notes are never written twice


def _entry_key(entry: dict) -> str:
    key = entry.get("id") or entry.get("link") or f"{entry.get('title', '')}|{entry.get('published', '')}"
    return str(key).strip()


def _entry_time(entry: dict, fallback: datetime, tz: ZoneInfo) -> datetime:
    parsed = entry.get("published_parsed") or entry.get("updated_parsed")
    if parsed:
        return datetime(*parsed[:6], tzinfo=UTC).astimezone(tz)
    return fallback.astimezone(tz)


def _arxiv_of(link: str) -> str | None:
    match = _ARXIV_ABS.match(link.strip())
    if not match:
        return None
    ref = parse_arxiv_id(match.group(1))
    return None if ref.malformed else ref.id


def _text(value: str) -> str:
    """Feed HTML (already sanitised by feedparser) as plain text, paragraphs kept."""
    value = re.sub(r"(?i)<br\s*/?>|</p>", "\n", value)
    lines = [html.unescape(_TAG.sub("", line)).strip() for line in value.splitlines()]
    return "\n".join(line for line in lines if line).strip()


def entry_note(feed: Feed, entry: dict, fetched: datetime, tz: ZoneInfo) -> tuple[str, str]:
    """The note of one entry: its file name under ``inbox/feeds/`` and its text."""
    key = _entry_key(entry)
    when = _entry_time(entry, fetched, tz)
    title = " ".join(_text(str(entry.get("title") or "")).split()) or "(untitled)"
    link = str(entry.get("link") or "")
    arxiv = _arxiv_of(link) if link else None
    slug = "-".join(_SLUG.sub("-", title.lower()).strip("-").split("-")[:8]) or "entry"
    digest = hashlib.sha256(f"{feed.name}\n{key}".encode()).hexdigest()[:8]
    name = f"{when:%Y-%m-%dT%H%M}-{feed.name}-{slug[:60].rstrip('-')}-{digest}.md"
    front = {"time": when.isoformat(timespec="seconds"), "feed": feed.name, "link": link or None,
             "arxiv": arxiv, "title": title, "entry": key, "fetched": fetched.astimezone(tz).isoformat(timespec="seconds")}
    authors = ", ".join(a.get("name", "") for a in entry.get("authors", []) if a.get("name"))
    summary = _text(str(entry.get("summary") or ""))
    body = [f"# {title}", ""]
    if authors:
        body += [f"作者：{authors}", ""]
    if link:
        body += [f"链接：{link}", ""]
    if summary:
        body += [summary, ""]
    head = yaml.safe_dump({k: v for k, v in front.items() if v is not None}, allow_unicode=True, sort_keys=False)
    return name, f"---\n{head}---\n\n" + "\n".join(body)


class _Polite:
    """At most one request per host every ``delay`` seconds."""

    def __init__(self, delay: float, clock: FeedClock) -> None:
        self.delay, self.clock = delay, clock
        self.last: dict[str, float] = {}

    def wait(self, url: str) -> None:
        """Sleep until ``delay`` seconds have passed since the last answer from this URL's host."""
        host = urlsplit(url).netloc.lower()
        if host in self.last:
            pause = self.last[host] + self.delay - self.clock.monotonic()
            if pause > 0:
                self.clock.sleep(pause)

    def done(self, url: str) -> None:
        """Note that this URL's host just answered."""
        self.last[urlsplit(url).netloc.lower()] = self.clock.monotonic()


def fetch_feed(client: httpx.Client, feed: Feed, memory: dict, folder: Path, tz: ZoneInfo,
               clock: FeedClock) -> FeedResult:
    """Fetch one feed and write its new entries; ``memory`` (this feed's state) is updated in place."""
    headers = {"User-Agent": _USER_AGENT}
    if memory.get("url") == feed.url:  # a feed pointed elsewhere starts over
        if memory.get("etag"):
            headers["If-None-Match"] = memory["etag"]
        if memory.get("last_modified"):
            headers["If-Modified-Since"] = memory["last_modified"]
    else:
        memory.clear()
        memory["url"] = feed.url
    try:
        response = client.get(feed.url, headers=headers)
    except httpx.TimeoutException:
        return FeedResult(feed.name, "failed", problem=f"no answer within {client.timeout.read:g} s; "
                          "`baton feeds fetch` again later")
    except httpx.HTTPError as exc:
        return FeedResult(feed.name, "failed", problem=f"cannot fetch {feed.url}: {type(exc).__name__}: {exc}")
    if response.status_code == 304:
        return FeedResult(feed.name, "not_modified", http=304)
    if response.status_code >= 300:
        return FeedResult(feed.name, "failed", http=response.status_code,
                          problem=f"{feed.url} answered HTTP {response.status_code}")
    parsed = feedparser.parse(io.BytesIO(response.content),
                              response_headers={k.lower(): v for k, v in response.headers.items()})
    problem = None
    if parsed.get("bozo") and not isinstance(parsed.get("bozo_exception"), feedparser.CharacterEncodingOverride):
        problem = f"malformed feed: {parsed.get('bozo_exception')}"
        if not parsed.entries or not parsed.get("version"):
            return FeedResult(feed.name, "failed", http=response.status_code, problem=problem)
    seen = list(memory.get("seen", []))
    known = set(seen)
    fetched = clock.now()
    result = FeedResult(feed.name, "new", http=response.status_code, problem=problem)
    for entry in parsed.entries:
        key = _entry_key(entry)
        if not key or key in known:
            continue
        name, text = entry_note(feed, entry, fetched, tz)
        path = folder / name
        if not path.exists():
            atomic_write_text(path, text)
            result.written.append(name)
        known.add(key)
        seen.append(key)
    memory["seen"] = seen[-_SEEN_KEPT:]
    # Validators are kept only once the entries they cover are written.
    memory["etag"] = response.headers.get("ETag")
    memory["last_modified"] = response.headers.get("Last-Modified")
    if not result.written:
        result.status = "unchanged"
    return result


def fetch_feeds(ctx: BatonContext, *, clock: FeedClock | None = None,
                transport: httpx.BaseTransport | None = None) -> list[FeedResult]:
    """Fetch every feed of ``feeds.toml``; the state file is saved after each feed."""
    config = load_feeds_config(ctx.settings.vault)
    if config is None:
        raise UsageError(f"{str(ctx.settings.vault)!r} has no feeds.toml (see `baton init` for one)")
    clock = clock or FeedClock()
    state_path = ctx.settings.state_dir / FEED_STATE_FILE
    state = _load_state(state_path)
    folder = ctx.settings.vault / FEEDS_FOLDER
    polite = _Polite(ctx.settings.feed_delay, clock)
    results = []
    timeout = httpx.Timeout(ctx.settings.feed_timeout)
    with httpx.Client(timeout=timeout, follow_redirects=True, transport=transport) as client:
        for feed in config.feed:
            polite.wait(feed.url)
            memory = state.setdefault(feed.name, {})
            results.append(fetch_feed(client, feed, memory, folder, ctx.config.tz, clock))
            polite.done(feed.url)
            atomic_write_text(state_path, json.dumps(state, ensure_ascii=False, indent=1))
    return results
