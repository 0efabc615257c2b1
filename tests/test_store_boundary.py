"""The store's boundary on SQLite and PostgreSQL: refused bytes stripped, parameters never shown,
the schema by migrations (checked at start), leases taken over only from the dead."""

from __future__ import annotations

import logging
import os
import socket
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from state.db import Database
from state.errors import SchemaError, StoreError, ThreadBusy
from state.leases import hold
from state.models import SourceEntry
from state.schema import _config, check, head_revision
from state.store import Store
from tests.databases import Backend, baton_process, drop_postgres_database, fresh_postgres_database
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import generate_demo_vault


@pytest.fixture
def demo(tmp_path: Path) -> DemoManifest:
    return generate_demo_vault(tmp_path / "vault")


def _store(backend: Backend, tmp_path: Path) -> Store:
    (tmp_path / ".baton").mkdir(exist_ok=True)
    db = backend.database(tmp_path)
    db.upgrade()
    return Store(db)


def test_nul_bytes_and_lone_surrogates_are_stripped_not_fatal(backend: Backend, tmp_path: Path) -> None:
    store = _store(backend, tmp_path)
    entry = SourceEntry(path="inbox/ann/a\x00.md", kind="note", reason="cut \x00here \udc80")
    store.save_scan("t:2026-09-29", [entry], [], {"0" * 64: "body\x00 with NUL"})
    assert store.sources("t:2026-09-29")[0].reason == "cut here "
    assert store.sources("t:2026-09-29")[0].path == "inbox/ann/a.md"
    assert store.blob("0" * 64) == "body with NUL"


def test_a_note_with_nul_bytes_is_read_and_the_run_succeeds(backend: Backend, demo: DemoManifest) -> None:
    note = next((demo.root / "inbox").rglob(f"{demo.end.isoformat()}-*inference*.md"))
    note.write_bytes(note.read_bytes() + b"\nline with a NUL \x00 byte and arXiv:2609.31415\n")
    process = baton_process(backend, demo.root, "run", "--topic", "inference", "--date", demo.end.isoformat(),
                            "--offline")
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    db = backend.database(demo.root)
    with db.engine.connect() as connection:
        path = note.relative_to(demo.root).as_posix()
        status = connection.execute(text("SELECT status FROM sources WHERE path = :p"), {"p": path}).scalar()
    db.dispose()
    assert status in ("read", "truncated")


def test_a_database_error_is_one_line_naming_the_database_without_parameters(
        backend: Backend, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = _store(backend, tmp_path)
    secret = "note-text-that-must-not-leak"
    store.db.engine.dispose()
    with store.db.engine.begin() as connection:  # a table the write needs is gone
        connection.execute(text("DROP TABLE mentions"))
    with caplog.at_level(logging.ERROR), pytest.raises(StoreError) as raised:
        store.save_scan("t:2026-09-29", [SourceEntry(path=f"{secret}.md", kind="note", reason=secret)], [], {})
    message = str(raised.value)
    assert "\n" not in message and store.db.shown in message
    assert secret not in message and secret not in caplog.text
    assert "mentions" in message


def test_a_schema_behind_is_refused_with_the_command_that_fixes_it(backend: Backend, demo: DemoManifest,
                                                                  request: pytest.FixtureRequest) -> None:
    if backend.name == "postgresql":  # start again from an empty database (the fixture's is at the head)
        drop_postgres_database(backend.url)
        backend.url = fresh_postgres_database(request.getfixturevalue("postgres_server"))
        backend.env = {"BATON_DATABASE_URL": backend.url}
    else:
        (demo.root / ".baton").mkdir(exist_ok=True)
    db = backend.database(demo.root)
    with db.engine.begin() as connection:
        command.upgrade(_config(connection), "0001")
    db.dispose()
    with pytest.raises(SchemaError, match="run `baton db upgrade`"):
        check(db)
    run = ["run", "--topic", "inference", "--date", demo.end.isoformat(), "--offline"]
    process = baton_process(backend, demo.root, *run)
    _, err = process.communicate(timeout=300)
    assert process.returncode == 2 and "is at schema revision 0001" in err and "baton db upgrade" in err
    assert len(err.strip().splitlines()) == 1
    process = baton_process(backend, demo.root, "db", "upgrade")
    out, err = process.communicate(timeout=300)
    assert process.returncode == 0, err
    assert f"applied 0002, 0003, 0004, 0005, 0006; schema at revision {head_revision()}" in out
    process = baton_process(backend, demo.root, "db", "status")
    out, _ = process.communicate(timeout=300)
    assert "up to date" in out
    process = baton_process(backend, demo.root, *run)
    _, err = process.communicate(timeout=300)
    assert process.returncode == 0, err


def test_an_empty_new_sqlite_store_is_made_at_first_run_and_postgres_is_not(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'new.db'}")
    check(db)  # made on the spot
    with db.engine.connect() as connection:
        assert connection.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()


def test_migration_keeps_duplicate_decisions_of_an_older_store(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'old.db'}")
    with db.engine.begin() as connection:
        command.upgrade(_config(connection), "0001")
        for by in ("alice", "carol"):
            connection.execute(text("INSERT INTO decisions (thread, revision, action, by, at, auto, edited) "
                                    "VALUES ('t:2026-09-29', 1, 'approve', :by, '2026-09-29 10:00:00', 0, 0)"),
                               {"by": by})
    assert db.upgrade() == ["0002", "0003", "0004", "0005", "0006"]
    store = Store(db)
    assert [(d.by, d.decided_key) for d in store.decisions("t:2026-09-29")] == \
        [("alice", "t:2026-09-29#1"), ("carol", None)]
    row, created = store.decide("t:2026-09-29", 1, "reject", "bob", reason="late")
    assert not created and row.by == "alice"
    assert db.upgrade() == []


def _plant(store: Store, name: str, host: str, pid: int, expires: datetime) -> None:
    with store.db.engine.begin() as connection:
        connection.execute(text("INSERT INTO thread_leases (name, owner, purpose, pid, host, since, expires) "
                                "VALUES (:n, 'other', 'run', :pid, :host, :since, :expires)"),
                           {"n": name, "pid": pid, "host": host, "since": datetime.now(UTC) - timedelta(hours=1),
                            "expires": expires})


def test_a_live_lease_elsewhere_is_refused_and_an_expired_one_taken_over(backend: Backend, tmp_path: Path) -> None:
    store = _store(backend, tmp_path)
    _plant(store, "a:2026-09-29", "other-host", 4242, datetime.now(UTC) + timedelta(minutes=5))
    with pytest.raises(ThreadBusy, match=r"thread a:2026-09-29 is running \(pid 4242, host other-host, since "):
        with hold(store.db, "a:2026-09-29", "run"):
            pass
    _plant(store, "b:2026-09-29", "other-host", 4242, datetime.now(UTC) - timedelta(seconds=1))
    with hold(store.db, "b:2026-09-29", "run") as lease:
        assert lease.renew()


def test_a_dead_holder_on_this_host_is_taken_over_at_once(backend: Backend, tmp_path: Path) -> None:
    store = _store(backend, tmp_path)
    gone = subprocess.Popen(["true"])
    gone.wait()  # a pid that no longer runs
    _plant(store, "c:2026-09-29", socket.gethostname(), gone.pid, datetime.now(UTC) + timedelta(minutes=5))
    with hold(store.db, "c:2026-09-29", "run"):
        with pytest.raises(ThreadBusy, match=rf"pid {os.getpid()}"):  # and now it is ours: a second holder waits
            with hold(store.db, "c:2026-09-29", "run"):
                pass


def test_the_head_read_from_the_migration_files_is_alembics() -> None:
    from alembic.script import ScriptDirectory

    assert head_revision() == ScriptDirectory.from_config(_config()).get_current_head()
