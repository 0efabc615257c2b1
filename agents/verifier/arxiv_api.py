"""The one module that talks to arXiv: batched identifier lookups and title searches.

Built on the ``arxiv`` package's ``Client`` with its own retries off: this
module owns the rate limit, the retries (5xx, 429, timeouts, connection
errors, broken answers; ``Retry-After`` honoured), the time budget of a run and
the cache. arXiv asks for one request every three seconds
(https://info.arxiv.org/help/api/tou.html).

Every identifier goes through ``parse_arxiv_id`` first: a malformed one in an
``id_list`` turns arXiv's whole answer into an error entry, so it never joins a
batch. Every answer is checked before its entries are believed
(``agents.verifier.arxiv_feed``).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Literal
from urllib.parse import urlsplit

import arxiv
import requests

from agents.peer_deadline import DeadlineExceeded
from agents.scanner.arxiv_ids import parse_arxiv_id, split_version
from agents.verifier.arxiv_feed import ArxivSession, BadAnswer, retry_after
from state.errors import ConfigError
from state.settings import DEFAULT_ARXIV_URL, Settings
from state.tables.arxiv_cache import ArxivCache, ArxivRecord

__all__ = [
    "ArxivStatus",
    "ArxivRecord",
    "ArxivLookup",
    "ArxivSettings",
    "ArxivClock",
    "ArxivApi",
]

ArxivStatus = Literal["ok", "not_found", "malformed", "unverified"]

_STOPWORDS = frozenset("a an and are as at by for from in into is of on or the to via with".split())


@dataclass(frozen=True)
class ArxivSettings:
    """How to reach arXiv: ``from_settings`` once per run, or directly in tests and benchmarks.

    ``batch_size`` 100: a window rarely holds more than a few dozen unknown
    identifiers, so that is one request; 100 new-style ids keep the URL near
    1.2 KB (old-style ones near 2 KB), far below common URL limits and arXiv's
    2000-per-page cap; and one failed batch costs at most 100 verdicts.
    """

    url: str = DEFAULT_ARXIV_URL
    offline: bool = False
    min_interval: float = 3.0
    timeout: float = 15.0
    budget: float = 60.0
    max_attempts: int = 4
    backoff: float = 2.0
    batch_size: int = 100
    search_results: int = 10

    def __post_init__(self) -> None:
        parts = urlsplit(self.url)
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ConfigError(f"arXiv endpoint {self.url!r} is not an http(s) URL")
        if self.batch_size < 1 or self.max_attempts < 1:
            raise ConfigError(
                f"arXiv batch_size and max_attempts must be ≥ 1, not {self.batch_size}, {self.max_attempts}"
            )

    @classmethod
    def from_settings(cls, settings: Settings) -> ArxivSettings:
        """The arXiv part of a run's settings (``BATON_ARXIV_URL``, ``--offline``, delay, budget, timeout)."""
        return cls(
            url=settings.arxiv_url,
            offline=settings.offline,
            min_interval=settings.arxiv_delay,
            budget=settings.arxiv_budget,
            timeout=settings.arxiv_timeout,
        )


@dataclass(frozen=True)
class ArxivLookup:
    """The verdict on one identifier as given."""

    query: str
    id: str
    version: int | None
    status: ArxivStatus
    record: ArxivRecord | None = None
    note: str | None = None
    from_cache: bool = False


class _Failure(Exception):
    """A request that did not give a usable answer; ``retry`` says whether another try may help."""

    def __init__(self, reason: str, *, retry: bool, wait: float | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.retry = retry
        self.wait = wait


@dataclass
class ArxivClock:
    """Time sources, replaceable in tests: intervals, sleeping, and the moment stored as fetch time."""

    monotonic: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    now: Callable[[], datetime] = field(default=lambda: datetime.now(UTC))


class ArxivApi:
    """arXiv lookups for one run: one client, one rate limit, one time budget, the cache.

    ``as_of`` is the brief's date: it decides which cached misses still hold.
    """

    def __init__(
        self,
        settings: ArxivSettings,
        as_of: date,
        cache: ArxivCache | None = None,
        *,
        clock: ArxivClock | None = None,
    ) -> None:
        self.settings = settings
        self.as_of = as_of
        self.notes: list[str] = []
        self._cache = cache
        self._clock = clock or ArxivClock()
        self._session = ArxivSession()
        # The interval and the retries live in _run, where their waits count against the budget.
        self._client = arxiv.Client(page_size=settings.batch_size, delay_seconds=0.0, num_retries=0)
        # arxiv 4.x has no hook for its requests session: replacing the attribute is the way in.
        self._client._session = self._session
        self._client.query_url_format = settings.url + "?{}"
        self._deadline: float | None = None
        self._last_end: float | None = None

    @property
    def requests_made(self) -> int:
        """HTTP requests sent so far, retries included (the brief's ``arxiv_requests``)."""
        return self._session.count

    def close(self) -> None:
        """Release the HTTP connections."""
        self._session.close()

    def __enter__(self) -> ArxivApi:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def lookup(self, identifiers: Iterable[str]) -> dict[str, ArxivLookup]:
        """Verify identifiers (any spelling, with or without vN); keyed by the identifier as given."""
        verdicts: dict[str, ArxivLookup] = {}
        wanted: dict[str, list[tuple[str, int | None]]] = {}
        for query in dict.fromkeys(raw.strip() for raw in identifiers):
            ref = parse_arxiv_id(query)
            if ref.malformed:
                verdicts[query] = ArxivLookup(query, ref.id, ref.version, "malformed", note=ref.reason)
            else:
                wanted.setdefault(ref.id, []).append((query, ref.version))

        found: dict[str, tuple[ArxivRecord, bool]] = {}
        missing: dict[str, tuple[str, bool]] = {}
        failed: dict[str, str] = {}
        unknown = list(wanted)
        if self._cache is not None:
            for arxiv_id, record in self._cache.records(unknown, self.as_of).items():
                found[arxiv_id] = (record, True)
            for arxiv_id, checked in self._cache.misses([i for i in unknown if i not in found], self.as_of).items():
                missing[arxiv_id] = (f"{checked.isoformat()} 查询时 arXiv 无此号（缓存）", True)
            unknown = [i for i in unknown if i not in found and i not in missing]
        if self.settings.offline:
            failed = dict.fromkeys(unknown, "离线：缓存中没有")
        else:
            size = self.settings.batch_size
            for start in range(0, len(unknown), size):
                self._fetch_batch(unknown[start : start + size], found, missing, failed)

        for arxiv_id, spellings in wanted.items():
            for query, version in spellings:
                if arxiv_id in found:
                    record, cached = found[arxiv_id]
                    verdict = ArxivLookup(query, arxiv_id, version, "ok", record, from_cache=cached)
                elif arxiv_id in missing:
                    note, cached = missing[arxiv_id]
                    verdict = ArxivLookup(query, arxiv_id, version, "not_found", note=note, from_cache=cached)
                else:
                    verdict = ArxivLookup(query, arxiv_id, version, "unverified", note=failed[arxiv_id])
                verdicts[query] = verdict
        return verdicts

    def search_title(self, title: str) -> list[ArxivRecord]:
        """Papers whose title shares words with ``title``, best first; [] when none or not reachable.

        Words are OR-ed so that one misspelt word does not hide the paper; the
        caller ranks the candidates. Failures are added to ``notes``.
        """
        query = _title_query(title)
        if not query:
            return []
        if self._cache is not None:
            ids = self._cache.search(query, self.as_of)
            if ids is not None:
                records = self._cache.records(ids, self.as_of)
                if len(records) == len(ids):
                    return [records[i] for i in ids]
        if self.settings.offline:
            self.notes.append(f"arXiv 标题检索 {title!r} 未做：离线，缓存中没有")
            return []
        size = self.settings.search_results
        search = arxiv.Search(query=query, max_results=size)
        try:
            results = self._run(search, size, f"the title search {title!r}")
        except _Failure as failure:
            self.notes.append(f"arXiv title search {title!r} unverified: {failure.reason}")
            return []
        records = [record for record in map(self._record, results) if record is not None]
        if self._cache is not None:
            self._cache.save_records(records, self._clock.now())
            self._cache.save_search(query, self.as_of, [record.id for record in records])
        return records

    def _fetch_batch(
        self,
        batch: list[str],
        found: dict[str, tuple[ArxivRecord, bool]],
        missing: dict[str, tuple[str, bool]],
        failed: dict[str, str],
    ) -> None:
        search = arxiv.Search(id_list=batch, max_results=len(batch))
        try:
            results = self._run(search, len(batch), f"a batch of {len(batch)} identifiers")
        except _Failure as failure:
            failed.update({arxiv_id: failure.reason for arxiv_id in batch})
            return
        keys = {_match_key(arxiv_id): arxiv_id for arxiv_id in batch}
        fresh: list[ArxivRecord] = []
        for result in results:
            record = self._record(result)
            if record is not None and _match_key(record.id) in keys:
                record = _with_id(record, keys[_match_key(record.id)])
                found[record.id] = (record, False)
                fresh.append(record)
        absent = [arxiv_id for arxiv_id in batch if arxiv_id not in found]
        for arxiv_id in absent:
            missing[arxiv_id] = (f"not in arXiv's answer on {self.as_of.isoformat()}", False)
        if self._cache is not None:
            now = self._clock.now()
            self._cache.save_records(fresh, now)
            self._cache.save_misses(absent, self.as_of, now)

    def _run(self, search: arxiv.Search, page_size: int, what: str) -> list[arxiv.Result]:
        """One search under the rate limit, retries and budget; raise _Failure when it gives up."""
        budget = self.settings.budget
        if self._deadline is None:
            self._deadline = self._clock.monotonic() + budget
        attempt = 0
        while True:
            now = self._clock.monotonic()
            wait = 0.0 if self._last_end is None else max(0.0, self._last_end + self.settings.min_interval - now)
            remaining = self._deadline - now - wait
            if remaining <= 0:
                raise _Failure(f"time budget of {budget:g} s spent before {what}", retry=False)
            if wait:
                self._clock.sleep(wait)
            attempt += 1
            try:
                results = self._attempt(search, page_size, min(self.settings.timeout, remaining))
            except _Failure as failure:
                self._last_end = self._clock.monotonic()
                if not failure.retry:
                    raise
                if attempt >= self.settings.max_attempts:
                    raise _Failure(f"{failure.reason} ({attempt} attempts)", retry=False) from failure
                pause = failure.wait if failure.wait is not None else self.settings.backoff * 2 ** (attempt - 1)
                left = self._deadline - self._last_end
                if pause >= left:
                    asked = " as Retry-After asks" if failure.wait is not None else ""
                    raise _Failure(
                        f"{failure.reason}; time budget of {budget:g} s spent "
                        f"(next try in {pause:g} s{asked}, {max(left, 0):.1f} s left)",
                        retry=False,
                    ) from failure
                self._clock.sleep(pause)
                continue
            self._last_end = self._clock.monotonic()
            return results

    def _attempt(self, search: arxiv.Search, page_size: int, timeout: float) -> list[arxiv.Result]:
        self._session.timeout = timeout
        self._client.page_size = page_size
        try:
            results = list(self._client.results(search))
        except arxiv.HTTPError as exc:
            retry = exc.status >= 500 or exc.status == 429
            headers = self._session.headers_seen or {}
            wait = retry_after(headers.get("Retry-After"), self._clock.now())
            raise _Failure(f"arXiv answered HTTP {exc.status}", retry=retry, wait=wait) from exc
        except BadAnswer as exc:
            # A cut-off feed is usually transient; an error entry is arXiv's verdict on the query.
            raise _Failure(exc.reason, retry=exc.kind == "broken") from exc
        except requests.Timeout as exc:
            raise _Failure(f"no answer from arXiv within {timeout:.3g} s", retry=True) from exc
        except DeadlineExceeded as exc:
            # A trickling server: bytes keep coming, so no read times out, but the answer is not done.
            raise _Failure(f"no answer from arXiv within {timeout:.3g} s (still arriving at the deadline)",
                           retry=True) from exc
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
            raise _Failure(f"cannot reach arXiv at {self.settings.url!r}: {type(exc).__name__}", retry=True) from exc
        except arxiv.UnexpectedEmptyPageError as exc:
            raise _Failure("arXiv returned an unexpectedly empty page", retry=True) from exc
        return results

    def _record(self, result: arxiv.Result) -> ArxivRecord | None:
        arxiv_id, version = split_version(result.get_short_id())
        if version is None:
            self.notes.append(f"arXiv entry {result.entry_id!r} has no version suffix; ignored")
            return None
        return ArxivRecord(
            id=arxiv_id,
            title=result.title.strip(),
            authors=tuple(author.name for author in result.authors),
            published=result.published.astimezone(UTC),
            updated=result.updated.astimezone(UTC),
            latest_version=version,
            primary_category=result.primary_category,
            fetched_on=self.as_of,
        )


def _title_query(title: str) -> str:
    words = [w for w in re.findall(r"[A-Za-z0-9]+", title.lower()) if len(w) > 2 and w not in _STOPWORDS]
    return " OR ".join(f"ti:{word}" for word in dict.fromkeys(words[:12]))


def _match_key(arxiv_id: str) -> str:
    # arXiv answers old-style ids without the subject class: math.GT/0309136 → math/0309136.
    return re.sub(r"^([a-z\-]+)\.[A-Z]{2}/", r"\1/", arxiv_id)


def _with_id(record: ArxivRecord, arxiv_id: str) -> ArxivRecord:
    return record if record.id == arxiv_id else replace(record, id=arxiv_id)
