"""Killed at every node (and inside the verifier, with D-numbers taken), on SQLite and PostgreSQL:
the next run writes the very same brief and no record is doubled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from tests.databases import Backend, another_backend, baton_process
from workflows.demo_vault import generate_demo_vault

TOPIC = "inference"
_TABLES = ("sources", "mentions", "briefs", "artifacts", "register_entries", "register_sightings", "promises",
           "gap_states", "alert_outbox", "alert_deliveries", "decisions", "thread_leases")
# Each point a kill can hit: after a node's checkpoint, or inside a node after some of its writes.
CRASH_POINTS = ["scan", "verify:numbered", "verify", "integrate", "coordinate:recorded", "coordinate"]


def _run(backend: Backend, root: Path, day: str, **env: str) -> tuple[int, str]:
    process = baton_process(backend, root, "run", "--topic", TOPIC, "--date", day, "--format", "json",
                            "--offline", **env)
    _, err = process.communicate(timeout=300)
    return process.returncode, err


def _state(backend: Backend, root: Path, day: str) -> tuple[dict, dict[str, int]]:
    brief = json.loads((root / ".baton/drafts" / f"{day}-{TOPIC}-e1prep.json").read_text(encoding="utf-8"))
    brief["stats"].pop("seconds", None)
    db = backend.database(root)
    with db.engine.connect() as connection:
        counts = {t: connection.execute(text(f"SELECT count(*) FROM {t}")).scalar() for t in _TABLES}  # noqa: S608
    db.dispose()
    return brief, counts


_REFERENCE: dict[str, tuple[dict, dict[str, int]]] = {}


def _reference(backend: Backend, request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
               ) -> tuple[dict, dict[str, int]]:
    """An uninterrupted run on a database of its own (once per kind of database)."""
    if backend.name not in _REFERENCE:
        other = another_backend(backend, request)
        manifest = generate_demo_vault(tmp_path_factory.mktemp("reference") / "vault")
        code, err = _run(other, manifest.root, manifest.end.isoformat())
        assert code == 0, err
        _REFERENCE[backend.name] = _state(other, manifest.root, manifest.end.isoformat())
    return _REFERENCE[backend.name]


@pytest.mark.parametrize("point", CRASH_POINTS)
def test_a_run_killed_at_any_point_resumes_to_the_same_brief(backend: Backend, tmp_path: Path, point: str,
                                                             request: pytest.FixtureRequest,
                                                             tmp_path_factory: pytest.TempPathFactory) -> None:
    reference = _reference(backend, request, tmp_path_factory)
    manifest = generate_demo_vault(tmp_path / "vault")
    day = manifest.end.isoformat()
    code, err = _run(backend, manifest.root, day, BATON_CRASH_AFTER=point)
    assert code == 137, err
    code, err = _run(backend, manifest.root, day)
    assert code == 0, err
    brief, counts = _state(backend, manifest.root, day)
    assert counts == reference[1]
    assert brief == reference[0]
