"""Real concurrent `baton` processes on SQLite and PostgreSQL: one run per thread, one decision per revision.

Each scenario starts the real CLI in several interpreters at once (or holds one
inside the graph with the ``BATON_PAUSE_AFTER`` hook so that the overlap is
certain) and checks what was recorded against what each process said.
"""

from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.databases import Backend, baton_process
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import generate_demo_vault

TOPIC = "inference"


@pytest.fixture
def demo(tmp_path: Path) -> DemoManifest:
    return generate_demo_vault(tmp_path / "vault")


def _finish(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    out, err = process.communicate(timeout=300)
    return process.returncode, out, err


def _run(backend: Backend, demo: DemoManifest, topic: str = TOPIC, **env: str) -> subprocess.Popen[str]:
    return baton_process(backend, demo.root, "run", "--topic", topic, "--date", demo.end.isoformat(),
                         "--offline", **env)


def _rows(backend: Backend, demo: DemoManifest, sql: str, **params: object) -> list[tuple]:
    db = backend.database(demo.root)
    try:
        with db.engine.connect() as connection:
            return [tuple(row) for row in connection.execute(text(sql), params)]
    finally:
        db.dispose()


def _waiting_thread(backend: Backend, demo: DemoManifest) -> str:
    code, out, err = _finish(_run(backend, demo))
    assert code == 0, err
    thread = f"{TOPIC}:{demo.end.isoformat()}"
    assert f"waiting for approval: baton review {thread}" in out
    return thread


def _wait_for(path: Path) -> None:
    for _ in range(3000):  # a bound, not a timed assertion: the paused run writes this file
        if path.exists():
            return
        time.sleep(0.1)
    raise AssertionError(f"{path} never appeared")


def test_a_second_run_of_a_running_thread_exits_3_and_names_the_holder(backend: Backend, demo: DemoManifest,
                                                                       tmp_path: Path) -> None:
    gate = tmp_path / "gate"
    first = _run(backend, demo, BATON_PAUSE_AFTER=f"scan:{gate}")
    _wait_for(tmp_path / "gate.paused")  # the first run holds the thread, paused after its scan
    code, out, err = _finish(_run(backend, demo))
    thread = f"{TOPIC}:{demo.end.isoformat()}"
    assert code == 3, err
    assert re.search(rf"thread {re.escape(thread)} is running \(pid {first.pid}, host \S+, since \d{{4}}-\d\d-\d\d "
                     r"\d\d:\d\d:\d\d UTC\)", err), err
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    gate.touch()
    code, out, err = _finish(first)
    assert code == 0, err
    assert _rows(backend, demo, "SELECT status FROM runs WHERE thread = :t", t=thread) == [("pending",)]


def test_two_runs_started_together_never_both_run_and_never_duplicate(backend: Backend, demo: DemoManifest) -> None:
    thread = f"{TOPIC}:{demo.end.isoformat()}"
    results = [_finish(p) for p in [_run(backend, demo), _run(backend, demo)]]
    codes = sorted(code for code, _, _ in results)
    assert codes in ([0, 0], [0, 3]), results  # one after the other, or one refused while the other runs
    for code, _, err in results:
        if code == 3:
            assert f"thread {thread} is running (pid" in err
    sources = _rows(backend, demo, "SELECT path, count(*) FROM sources WHERE thread = :t GROUP BY path", t=thread)
    assert sources and all(count == 1 for _, count in sources)
    assert _rows(backend, demo, "SELECT count(*) FROM briefs WHERE thread = :t", t=thread) == [(1,)]
    assert _rows(backend, demo, "SELECT count(*) FROM runs WHERE thread = :t AND status = 'running'", t=thread) \
        == [(0,)]


@pytest.mark.parametrize("second", ["reject", "approve"])
def test_concurrent_decisions_record_exactly_one_and_say_so(backend: Backend, demo: DemoManifest,
                                                            second: str) -> None:
    thread = _waiting_thread(backend, demo)
    extra = ["--reason", "缺少说明"] if second == "reject" else []
    processes = {"alice": baton_process(backend, demo.root, "approve", thread, "--by", "alice"),
                 "bob": baton_process(backend, demo.root, second, thread, "--by", "bob", *extra)}
    results = {name: _finish(p) for name, p in processes.items()}
    decisions = _rows(backend, demo, "SELECT action, by, published FROM decisions WHERE thread = :t", t=thread)
    assert len(decisions) == 1, decisions
    action, winner, published = decisions[0]
    loser = "bob" if winner == "alice" else "alice"
    assert results[winner][0] == 0, results[winner]
    word = "approved" if action == "approve" else "rejected"
    assert results[winner][1].startswith(f"{word} {thread} revision 1")
    code, out, err = results[loser]
    assert code == 1, results[loser]
    assert f"was already {word} by {winner}" in err and "not recorded" in err
    assert len(err.strip().splitlines()) == 1
    briefs = list((demo.root / "inbox").rglob(f"{demo.end.isoformat()}-{TOPIC}-e1prep*.md"))
    published_files = [p for p in briefs if p.relative_to(demo.root).as_posix() == published]
    assert len(published_files) == (1 if action == "approve" else 0)
    if action == "approve":
        assert results[winner][1].count("published:") == 1


def test_different_topics_in_parallel_take_distinct_d_numbers(backend: Backend, demo: DemoManifest,
                                                               webhook) -> None:  # type: ignore[no-untyped-def]
    env = {"BATON_WEBHOOKS": webhook.url, "BATON_TODAY": demo.end.isoformat()}
    processes = [_run(backend, demo, topic, **env) for topic in ("inference", "llm-infra")]
    for code, _, err in map(_finish, processes):
        assert code == 0, err
    entries = _rows(backend, demo, "SELECT number, thread, key FROM register_entries WHERE origin = 'baton'")
    assert entries, "the demo vault raises registered warnings"
    numbers = [number for number, _, _ in entries]
    assert len(numbers) == len(set(numbers))
    assert len({(thread, key) for _, thread, key in entries}) == len(entries)
    assert {thread.split(":")[0] for _, thread, _ in entries} <= {"inference", "llm-infra"}
    for topic in ("inference", "llm-infra"):
        brief = json.loads((demo.root / ".baton/drafts" / f"{demo.end}-{topic}-e1prep.json").read_text("utf-8"))
        mine = {f"D{n}" for n, thread, _ in entries if thread == f"{topic}:{demo.end}"}
        assert {w["register"] for w in brief["warnings"] if w.get("register") in mine} == mine
    keys = [delivery.body.get("text") for delivery in webhook.requests]
    assert keys and len(keys) == len(set(keys))  # every alert delivered once, whichever run sent it
    delivered = _rows(backend, demo, "SELECT outbox_id, count(*) FROM alert_deliveries GROUP BY outbox_id, sink")
    assert all(count == 1 for _, count in delivered)


def test_a_decision_killed_before_publishing_is_pending_and_run_finishes_it(backend: Backend,
                                                                            demo: DemoManifest) -> None:
    thread = _waiting_thread(backend, demo)
    code, _, err = _finish(baton_process(backend, demo.root, "approve", thread, "--by", "al\x1bice"))
    assert code == 2 and "invalid decision: by: " in err  # checked before anything is written
    assert _rows(backend, demo, "SELECT count(*) FROM decisions") == [(0,)]
    code, _, err = _finish(baton_process(backend, demo.root, "approve", thread, "--by", "alice",
                                         BATON_CRASH_AFTER="approve"))
    assert code == 137, err
    code, out, _ = _finish(baton_process(backend, demo.root, "pending"))
    command = f"baton run --topic {TOPIC} --date {demo.end.isoformat()}"
    assert re.search(rf"{thread}\s+revision 1 approved by alice, not published: {command}", out), out
    code, _, err = _finish(baton_process(backend, demo.root, "approve", thread, "--by", "carol"))
    assert code == 1 and "already approved by alice" in err and command in err
    code, out, err = _finish(_run(backend, demo))
    assert code == 0, err
    assert "published: inbox/" in out
    assert _rows(backend, demo, "SELECT by FROM decisions WHERE thread = :t", t=thread) == [("alice",)]
    code, out, _ = _finish(baton_process(backend, demo.root, "pending"))
    assert "no thread is waiting" in out


def test_a_killed_run_is_closed_and_its_lease_taken_over(backend: Backend, demo: DemoManifest) -> None:
    thread = f"{TOPIC}:{demo.end.isoformat()}"
    code, _, err = _finish(_run(backend, demo, BATON_CRASH_AFTER="verify"))
    assert code == 137, err
    assert _rows(backend, demo, "SELECT count(*) FROM thread_leases WHERE name = :t", t=thread) == [(1,)]
    code, _, err = _finish(_run(backend, demo))
    assert code == 0, err  # the holder's process is gone: its lease is taken over at once
    assert sorted(_rows(backend, demo, "SELECT status FROM runs WHERE thread = :t", t=thread)) == \
        [("killed",), ("pending",)]
    assert _rows(backend, demo, "SELECT count(*) FROM thread_leases") == [(0,)]
