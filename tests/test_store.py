"""The store: a thread's records are replaced on re-save, never duplicated; blobs by hash."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from state.db import Database, sqlite_url
from state.models import Mention, SourceEntry
from state.store import Store, sha256_text
from tests.databases import Backend


@pytest.fixture
def store(backend: Backend, tmp_path: Path) -> Iterator[Store]:
    """A migrated store on SQLite or on a fresh PostgreSQL database."""
    db = Database(backend.url or sqlite_url(tmp_path))
    db.upgrade()
    yield Store(db)
    db.dispose()


def test_a_thread_saved_twice_keeps_the_second_scan_only(store: Store) -> None:
    first = [SourceEntry(path="inbox/jay/a.md", kind="note"), SourceEntry(path="inbox/jay/b.md", kind="note")]
    second = [SourceEntry(path="inbox/jay/b.md", kind="note", status="truncated", reason="cut")]
    mention = Mention(source="inbox/jay/b.md", kind="arxiv", value="2609.31415", raw="arXiv:2609.31415", line=3)
    store.save_scan("inference:2026-09-29", first, [mention, mention], {sha256_text("a"): "a"})
    store.save_scan("inference:2026-09-29", second, [mention], {sha256_text("a"): "a"})
    store.save_scan("llm-infra:2026-09-29", first, [], {})
    assert store.sources("inference:2026-09-29") == second
    assert store.mentions("inference:2026-09-29") == [mention]
    assert [s.path for s in store.sources("llm-infra:2026-09-29")] == ["inbox/jay/a.md", "inbox/jay/b.md"]
    assert store.blob(sha256_text("a")) == "a" and store.blob("0" * 64) is None


def test_pending_threads_come_from_the_runs_table(store: Store) -> None:
    done = store.start_run("inference:2026-09-28", "inference", "2026-09-28", "fresh")
    waiting = store.start_run("inference:2026-09-29", "inference", "2026-09-29", "fresh")
    store.finish_run(done, "done", 1.0)
    store.finish_run(waiting, "pending", 1.0)
    assert store.threads_with_pending_runs() == ["inference:2026-09-29"]
