"""The databases tests run on: SQLite always, PostgreSQL where a server answers (a pytest plugin).

``backend`` is parametrized over both: on PostgreSQL each test gets a fresh,
uniquely named database on the server of ``BATON_TEST_DATABASE_URL`` (default
``postgresql://postgres@127.0.0.1:5432/test``, the machine's), migrated with
``baton db upgrade``'s code, and dropped afterwards. Without a server the
PostgreSQL half is skipped with the reason. ``BATON_TEST_BACKENDS=sqlite`` or
``=postgresql`` runs one half only; ``BATON_TEST_REQUIRE_POSTGRES=1`` (CI) fails
instead of skipping when the server does not answer.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from state.db import Database, sqlite_url

__all__ = ["Backend", "baton_process", "baton_command", "another_backend"]

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
_RUN_ID = f"baton_t{os.getpid()}_{uuid.uuid4().hex[:6]}"
_created: list[str] = []
_serial = itertools.count()


@dataclass
class Backend:
    """One database a test runs baton on, and the environment that points baton at it."""

    name: str
    url: str | None = None  # None: SQLite in the vault's state folder (baton's default)
    env: dict[str, str] = field(default_factory=dict)

    def database(self, vault: Path) -> Database:
        """The store of ``vault`` on this backend, for inspecting what baton wrote."""
        return Database(self.url or sqlite_url(vault / ".baton"))


def _server() -> str:
    return os.environ.get("BATON_TEST_DATABASE_URL") or DEFAULT_SERVER


def _admin():  # type: ignore[no-untyped-def]
    import psycopg

    from state.checkpoints import libpq_url

    return psycopg.connect(libpq_url(_server()), autocommit=True, connect_timeout=5)


def _reachable() -> str | None:
    """None when the PostgreSQL server answers, else why not."""
    try:
        with _admin() as connection:
            connection.execute("SELECT 1")
    except Exception as exc:  # noqa: BLE001 - any failure means: no server to test on
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return f"PostgreSQL at {make_url(_server()).render_as_string(hide_password=True)} is not reachable: {first}"
    return None


def _backends() -> list[str]:
    chosen = os.environ.get("BATON_TEST_BACKENDS", "sqlite,postgresql")
    return [name for name in ("sqlite", "postgresql") if name in chosen.split(",")]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    """The server URL, skipping the test when it does not answer; drops this session's databases at the end."""
    reason = _reachable()
    if reason and os.environ.get("BATON_TEST_REQUIRE_POSTGRES"):
        pytest.fail(f"{reason} (BATON_TEST_REQUIRE_POSTGRES is set)")
    if reason:
        pytest.skip(reason)
    yield _server()
    with _admin() as connection:
        for name in _created:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fresh_postgres_database(server: str) -> str:
    """Create a uniquely named empty database on ``server``; return its URL."""
    name = f"{_RUN_ID}_{next(_serial)}"
    with _admin() as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    _created.append(name)
    return make_url(server).set(database=name).render_as_string(hide_password=False)


def drop_postgres_database(url: str) -> None:
    name = make_url(url).database
    with _admin() as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    if name in _created:
        _created.remove(name)


@pytest.fixture(params=_backends())
def backend(request: pytest.FixtureRequest) -> Iterator[Backend]:
    """SQLite, then a fresh PostgreSQL database (skipped when no server answers)."""
    if request.param == "sqlite":
        yield Backend("sqlite")
        return
    server = request.getfixturevalue("postgres_server")
    url = fresh_postgres_database(server)
    db = Database(url)
    db.upgrade()
    db.dispose()
    try:
        yield Backend("postgresql", url, {"BATON_DATABASE_URL": url})
    finally:
        drop_postgres_database(url)


def another_backend(backend: Backend, request: pytest.FixtureRequest) -> Backend:
    """A second, independent database of the same kind (SQLite: the vault's own; PostgreSQL: a fresh one,
    dropped at the end of the session)."""
    if backend.name == "sqlite":
        return Backend("sqlite")
    url = fresh_postgres_database(request.getfixturevalue("postgres_server"))
    db = Database(url)
    db.upgrade()
    db.dispose()
    return Backend("postgresql", url, {"BATON_DATABASE_URL": url})


def baton_command(vault: Path, *args: str) -> list[str]:
    """The real CLI in a fresh interpreter."""
    return [sys.executable, "-m", "workflows.cli", *args, "--vault", str(vault)]


def baton_process(backend: Backend, vault: Path, *args: str, **env: str) -> subprocess.Popen[str]:
    """Start ``baton ARGS --vault VAULT`` on the backend (the caller waits)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}
    clean.update(backend.env)
    clean.update(env)
    return subprocess.Popen(baton_command(vault, *args), env=clean, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
