"""The arXiv service module against a local Atom server speaking arXiv's dialect."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta

import pytest

from agents.verifier.arxiv_api import ArxivApi, ArxivClock, ArxivSettings
from state.db import Database
from state.errors import ConfigError
from state.settings import Settings
from state.tables.arxiv_cache import ArxivCache
from tests.fakes.arxiv_server import ArxivFake, FakePaper, Reply

DAY = date(2026, 9, 29)
CONTINUUM = FakePaper(
    "2511.02230",
    "Continuum: Efficient and Robust Multi-Turn LLM Agent Scheduling with KV Cache Time-to-Live",
    version=3,
    authors=("Hanchen Li", "Qiuyang Mang"),
    published="2025-11-04T03:12:09Z",
    updated="2026-01-20T10:00:00Z",
    primary="cs.OS",
)
WRP = FakePaper("2603.21354", "Workload-Router-Pool Architecture for LLM Inference", published="2026-03-23T12:00:00Z")


class FakeClock:
    """An ``ArxivClock`` that records its sleeps instead of sleeping.

    Its time moves by the recorded sleeps only; with ``network=True`` it also moves by the real
    time spent waiting on the fake server (timeouts are real socket waits the clock cannot skip).
    """

    def __init__(self, *, network: bool = False) -> None:
        self.sleeps: list[float] = []
        self._slept = 0.0
        self._origin = time.monotonic() if network else None

    def monotonic(self) -> float:
        waited = 0.0 if self._origin is None else time.monotonic() - self._origin
        return self._slept + waited

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self._slept += seconds

    def arxiv_clock(self) -> ArxivClock:
        return ArxivClock(monotonic=self.monotonic, sleep=self.sleep, now=lambda: datetime(2026, 9, 29, tzinfo=UTC))


@pytest.fixture
def arxiv_fake() -> Iterator[ArxivFake]:
    """The fake arXiv on 127.0.0.1, holding two papers."""
    fake = ArxivFake().start()
    fake.add(CONTINUUM, WRP)
    yield fake
    fake.stop()


@pytest.fixture
def cache(tmp_path) -> Iterator[ArxivCache]:  # type: ignore[no-untyped-def]
    """An arXiv cache in a fresh SQLite store."""
    db = Database(f"sqlite:///{tmp_path / 'baton.db'}")
    db.upgrade()
    yield ArxivCache(db)
    db.dispose()


def _settings(fake: ArxivFake, **overrides: object) -> ArxivSettings:
    fast = {"min_interval": 0.05, "timeout": 2.0, "budget": 5.0, "backoff": 0.05, "max_attempts": 3}
    return ArxivSettings(url=fake.url, **{**fast, **overrides})  # type: ignore[arg-type]


def _api(fake: ArxivFake, cache: ArxivCache | None = None, day: date = DAY, *, clock: FakeClock | None = None,
         **overrides: object) -> ArxivApi:
    """An ArxivApi on the fake; its waits go to ``clock`` (a fresh FakeClock by default: no real sleeps)."""
    return ArxivApi(_settings(fake, **overrides), day, cache, clock=(clock or FakeClock()).arxiv_clock())


def test_found_record_carries_arxiv_fields(arxiv_fake: ArxivFake) -> None:
    with _api(arxiv_fake) as api:
        verdict = api.lookup(["arXiv:2511.02230v1"])["arXiv:2511.02230v1"]
    assert verdict.status == "ok" and verdict.id == "2511.02230" and verdict.version == 1
    record = verdict.record
    assert record is not None
    assert record.title == CONTINUUM.title  # the wrapped title comes back whole
    assert record.authors == ("Hanchen Li", "Qiuyang Mang")
    assert record.published == datetime(2025, 11, 4, 3, 12, 9, tzinfo=UTC)
    assert record.updated.date() == date(2026, 1, 20)
    assert record.latest_version == 3 and record.primary_category == "cs.OS"
    # We ask for the bare id so that arXiv answers with the latest version.
    assert arxiv_fake.requests[0].ids == ["2511.02230"]


def test_batch_of_valid_ids_is_one_request(arxiv_fake: ArxivFake) -> None:
    unknown = [f"2609.{n:05d}" for n in range(1, 41)]
    with _api(arxiv_fake) as api:
        verdicts = api.lookup(["2511.02230", "2603.21354v2", *unknown])
        assert api.requests_made == 1
    assert arxiv_fake.request_count == 1
    assert len(arxiv_fake.requests[0].ids) == 42
    assert int(arxiv_fake.requests[0].params["max_results"]) >= 42
    assert verdicts["2603.21354v2"].status == "ok"
    assert {verdicts[i].status for i in unknown} == {"not_found"}


def test_batches_split_at_batch_size(arxiv_fake: ArxivFake) -> None:
    ids = [f"2609.{n:05d}" for n in range(1, 8)]
    with _api(arxiv_fake, batch_size=3) as api:
        api.lookup(ids)
    assert [len(seen.ids) for seen in arxiv_fake.requests] == [3, 3, 1]


def test_malformed_ids_never_reach_the_server(arxiv_fake: ArxivFake) -> None:
    with _api(arxiv_fake) as api:
        verdicts = api.lookup(["2511.0223", "2511.02230", "not-an-id", "2613.01234"])
    sent = [i for seen in arxiv_fake.requests for i in seen.ids]
    assert sent == ["2511.02230"]
    assert verdicts["2511.0223"].status == "malformed"
    assert "5 位数字" in (verdicts["2511.0223"].note or "")
    assert verdicts["not-an-id"].status == "malformed" and verdicts["2613.01234"].status == "malformed"
    assert verdicts["2511.02230"].status == "ok"


def test_only_malformed_ids_make_no_request(arxiv_fake: ArxivFake) -> None:
    with _api(arxiv_fake) as api:
        api.lookup(["2511.0223"])
        assert api.requests_made == 0
    assert arxiv_fake.request_count == 0


def test_503_with_retry_after_is_honoured_then_succeeds(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.script(Reply.unavailable(retry_after=1))
    clock = FakeClock()
    arxiv_fake.clock = clock.monotonic
    with _api(arxiv_fake, clock=clock) as api:
        verdict = api.lookup(["2511.02230"])["2511.02230"]
        assert api.requests_made == 2
    assert clock.sleeps == [1.0]  # the wait Retry-After asked for; backoff alone would be 0.05 s
    assert [seen.at for seen in arxiv_fake.requests] == [0.0, 1.0]
    assert verdict.status == "ok"


def test_retry_after_beyond_budget_gives_up_at_once(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.script(Reply.unavailable(retry_after=120))
    clock = FakeClock()
    with _api(arxiv_fake, clock=clock) as api:
        verdict = api.lookup(["2511.02230"])["2511.02230"]
    assert arxiv_fake.request_count == 1 and clock.sleeps == []
    assert verdict.status == "unverified"
    assert "HTTP 503" in (verdict.note or "") and "Retry-After" in (verdict.note or "")


def test_persistent_5xx_ends_unverified_after_max_attempts(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.always = Reply.http(502)
    clock = FakeClock()
    with _api(arxiv_fake, clock=clock) as api:
        verdict = api.lookup(["2511.02230"])["2511.02230"]
    assert arxiv_fake.request_count == 3
    assert clock.sleeps == [0.05, 0.1]  # the backoff doubles; no wait after the last attempt
    assert verdict.status == "unverified" and "HTTP 502 (3 attempts)" in (verdict.note or "")


def test_4xx_is_not_retried(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.script(Reply.http(400))
    with _api(arxiv_fake) as api:
        verdict = api.lookup(["2511.02230"])["2511.02230"]
    assert arxiv_fake.request_count == 1 and verdict.status == "unverified"


def test_slow_answers_are_retried_then_budget_runs_out(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.always = Reply.slow(1.0)
    clock = FakeClock(network=True)  # the timeouts are real waits and count against the budget
    settings = {"timeout": 0.2, "budget": 0.4, "backoff": 0.05, "min_interval": 0.01, "max_attempts": 10}
    with _api(arxiv_fake, clock=clock, **settings) as api:
        first = api.lookup(["2511.02230"])["2511.02230"]
        later = api.lookup(["2603.21354"])["2603.21354"]
        made = api.requests_made
    # Timeout (0.2 s), backoff (0.05 s), then a retry that may wait only what is left of the budget
    # (< 0.2 s); its next backoff (0.1 s) no longer fits, so the budget ends the lookup at 2 of 10 attempts.
    assert made == 2  # retried after the first timeout
    assert clock.sleeps == [0.05]
    assert first.status == "unverified" and "no answer from arXiv within" in (first.note or "")
    last_wait = re.search(r"no answer from arXiv within ([0-9.]+) s", first.note or "")
    assert last_wait and float(last_wait[1]) < 0.2  # the last try was cut to the budget left
    assert "time budget of 0.4 s spent (next try in 0.1 s" in (first.note or "")
    assert later.status == "unverified" and later.note == "time budget of 0.4 s spent before a batch of 1 identifiers"
    assert made == arxiv_fake.request_count  # the second lookup sent nothing


def test_slow_answer_then_success(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.script(Reply.slow(0.8))
    with _api(arxiv_fake, timeout=0.2) as api:
        verdict = api.lookup(["2511.02230"])["2511.02230"]
        assert api.requests_made == 2
    assert verdict.status == "ok"


def test_broken_xml_is_unverified_not_partial(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.always = Reply.broken()
    with _api(arxiv_fake, cache=None) as api:
        verdicts = api.lookup(["2511.02230", "2603.21354"])
    # The package's recover-mode parser would half-read the cut feed; nothing of it is believed.
    assert {v.status for v in verdicts.values()} == {"unverified"}
    assert "not well-formed XML" in (verdicts["2603.21354"].note or "")
    assert arxiv_fake.request_count == 3


def test_error_entry_is_unverified_not_not_found(arxiv_fake: ArxivFake, cache: ArxivCache) -> None:
    arxiv_fake.script(Reply.error_entry("incorrect id format for 2511.02230"))
    with _api(arxiv_fake, cache) as api:
        verdicts = api.lookup(["2511.02230", "2609.00001"])
    assert arxiv_fake.request_count == 1  # an error entry is arXiv's verdict: no retry
    assert {v.status for v in verdicts.values()} == {"unverified"}
    assert verdicts["2609.00001"].note == "arXiv answered with an error entry: incorrect id format for 2511.02230"
    assert cache.misses(["2511.02230", "2609.00001"], DAY) == {}  # nothing remembered as missing


def test_empty_page_is_not_found(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.script(Reply.empty())
    with _api(arxiv_fake) as api:
        verdicts = api.lookup(["2511.02230", "2609.00001"])
    assert {v.status for v in verdicts.values()} == {"not_found"}
    assert verdicts["2511.02230"].note == "not in arXiv's answer on 2026-09-29"


def test_connection_refused_is_unverified(arxiv_fake: ArxivFake) -> None:
    url = arxiv_fake.url
    arxiv_fake.stop()
    settings = ArxivSettings(url=url, min_interval=0.01, backoff=0.01, max_attempts=2, budget=3.0)
    with ArxivApi(settings, DAY) as api:
        verdict = api.lookup(["2511.02230"])["2511.02230"]
        assert api.requests_made == 2
    assert verdict.status == "unverified" and "cannot reach arXiv" in (verdict.note or "")


def test_requests_keep_the_minimum_interval(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.script(Reply.http(500))
    clock = FakeClock()
    arxiv_fake.clock = clock.monotonic
    with _api(arxiv_fake, clock=clock, min_interval=0.5, backoff=0.125) as api:
        api.lookup(["2511.02230"])
        api.search_title("Workload Router Pool")
        assert api.requests_made == 3
    # After the 500: the backoff, then the rest of the interval; before the search: a whole interval.
    assert clock.sleeps == [0.125, 0.375, 0.5]
    assert [seen.at for seen in arxiv_fake.requests] == [0.0, 0.5, 1.0]


def test_second_lookup_same_day_is_served_from_cache(arxiv_fake: ArxivFake, cache: ArxivCache) -> None:
    ids = ["2511.02230", "2609.00001"]
    with _api(arxiv_fake, cache) as api:
        api.lookup(ids)
    with _api(arxiv_fake, cache) as api:
        again = api.lookup(ids)
        assert api.requests_made == 0
    assert arxiv_fake.request_count == 1
    assert again["2511.02230"].status == "ok" and again["2511.02230"].from_cache
    assert again["2511.02230"].record and again["2511.02230"].record.latest_version == 3
    assert again["2609.00001"].status == "not_found" and again["2609.00001"].from_cache


def test_not_found_expires_the_next_day(arxiv_fake: ArxivFake, cache: ArxivCache) -> None:
    with _api(arxiv_fake, cache) as api:
        api.lookup(["2609.00001", "2511.02230"])
    arxiv_fake.add(FakePaper("2609.00001", "A Paper That Appeared Overnight"))
    with _api(arxiv_fake, cache, day=DAY + timedelta(days=1)) as api:
        verdicts = api.lookup(["2609.00001", "2511.02230"])
    assert arxiv_fake.request_count == 2
    assert arxiv_fake.requests[1].ids == ["2609.00001"]  # the found paper stays cached
    assert verdicts["2609.00001"].status == "ok" and not verdicts["2609.00001"].from_cache
    assert cache.misses(["2609.00001"], DAY) == {}  # found drops the remembered miss


def test_offline_uses_only_the_cache(arxiv_fake: ArxivFake, cache: ArxivCache) -> None:
    with _api(arxiv_fake, cache) as api:
        api.lookup(["2511.02230"])
    with _api(arxiv_fake, cache, offline=True) as api:
        verdicts = api.lookup(["2511.02230", "2603.21354", "2511.0223"])
        hits = api.search_title("Workload Router Pool")
        assert api.requests_made == 0
    assert arxiv_fake.request_count == 1
    assert verdicts["2511.02230"].status == "ok"
    assert verdicts["2603.21354"].status == "unverified" and verdicts["2603.21354"].note == "离线：缓存中没有"
    assert verdicts["2511.0223"].status == "malformed"
    assert hits == [] and "离线" in api.notes[0]


def test_search_title_finds_the_intended_paper(arxiv_fake: ArxivFake, cache: ArxivCache) -> None:
    with _api(arxiv_fake, cache) as api:
        hits = api.search_title("Continnum: multi-turn agent scheduling with KV cache TTL")
    assert hits and hits[0].id == "2511.02230" and hits[0].latest_version == 3
    query = arxiv_fake.requests[0].params["search_query"]
    assert "ti:continnum" in query and "ti:scheduling" in query and "ti:with" not in query
    assert int(arxiv_fake.requests[0].params["max_results"]) == 10
    with _api(arxiv_fake, cache) as api:
        again = api.search_title("Continnum: multi-turn agent scheduling with KV cache TTL")
        assert api.requests_made == 0
    assert [r.id for r in again] == [r.id for r in hits]


def test_search_title_failure_is_noted(arxiv_fake: ArxivFake) -> None:
    arxiv_fake.always = Reply.broken()
    with _api(arxiv_fake, max_attempts=1) as api:
        assert api.search_title("Workload Router Pool") == []
    assert "not well-formed XML" in api.notes[0]


def test_settings_come_from_the_run_settings(tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = Settings(vault=tmp_path, state_dir=tmp_path, database_url="sqlite://", out_dir=tmp_path,
                   offline=True, arxiv_url="http://127.0.0.1:9/api/query", arxiv_delay=0.5, arxiv_budget=7.0)
    arxiv_settings = ArxivSettings.from_settings(run)
    assert arxiv_settings.url == "http://127.0.0.1:9/api/query" and arxiv_settings.offline
    assert (arxiv_settings.min_interval, arxiv_settings.budget) == (0.5, 7.0)
    assert ArxivSettings().url == "https://export.arxiv.org/api/query"


def test_endpoint_must_be_http() -> None:
    with pytest.raises(ConfigError, match="ftp://mirror"):
        ArxivSettings(url="ftp://mirror/api/query")
