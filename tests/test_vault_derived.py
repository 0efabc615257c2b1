"""What runs derive from vault files, kept by the vault index (issue 12): an earlier brief's record, a note's
promise mentions, a slot note's arrival, a baseline file's mentions. A changed file is derived anew, an
unchanged one is not even opened, a deleted one is gone from the results; every value is the one made without
the index. On SQLite and on PostgreSQL (the ``backend`` fixture)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import agents.scanner.briefs as briefs
from agents.coordinator.slots import scan_arrivals
from agents.scanner.briefs import list_briefs
from agents.scanner.derived import Derivation, derive_file, derive_many
from agents.scanner.kept_mentions import BODY_MENTIONS
from agents.scanner.notes import read_vault_file_uncached
from agents.scanner.vault_index import VaultIndex
from agents.verifier.promises import _note_promises, note_promises_derivation
from state.db import Database, sqlite_url
from state.schema import upgrade
from state.vault_config import load_vault_config
from tests.databases import Backend
from workflows.demo_vault import DemoManifest, generate_demo_vault

TZ = ZoneInfo("Asia/Shanghai")


@pytest.fixture
def db(backend: Backend, tmp_path: Path) -> Iterator[Database]:
    (tmp_path / "state").mkdir()
    database = Database(backend.url or sqlite_url(tmp_path / "state"))
    upgrade(database)
    yield database
    database.dispose()


@pytest.fixture
def vault(tmp_path: Path) -> DemoManifest:
    return generate_demo_vault(tmp_path / "vault", days=12)


def _brief_paths(root: Path) -> list[Path]:
    return sorted(p for p in (root / "inbox").glob("*/*.md") if briefs.is_brief_name(p.name))


def _counting_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    parsed: list[str] = []
    real = briefs.parse_brief

    def counted(file):  # type: ignore[no-untyped-def]
        parsed.append(file.path)
        return real(file)

    monkeypatch.setattr(briefs, "parse_brief", counted)
    return parsed


def _run(root: Path, db: Database, what):  # type: ignore[no-untyped-def]
    """``what()`` inside one run's active index (a new index: as a new process would see the store)."""
    index = VaultIndex(root, TZ, db)
    with index.active():
        result = what()
    return result, index


def test_an_unchanged_brief_is_not_parsed_again_nor_opened(vault: DemoManifest, db: Database,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    root = vault.root
    expected = list_briefs(root, TZ)  # no index: parsed from the files
    assert len(expected) > 5
    parsed = _counting_parses(monkeypatch)
    first, _ = _run(root, db, lambda: list_briefs(root, TZ))
    assert first == expected and len(parsed) == len(expected)
    parsed.clear()
    second, index = _run(root, db, lambda: list_briefs(root, TZ))
    assert second == expected
    assert parsed == [] and index.opened == 0 and index.parsed == 0
    assert index.derived.hits == len(_brief_paths(root))


def test_a_changed_brief_is_parsed_again_and_a_touched_one_is_not(vault: DemoManifest, db: Database,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    root = vault.root
    _run(root, db, lambda: list_briefs(root, TZ))
    paths = _brief_paths(root)
    changed, touched = paths[2], paths[4]
    changed.write_text(changed.read_text(encoding="utf-8") + "\n- D987：新登记的一条矛盾（⚠⚠⚬）\n", encoding="utf-8")
    stat = touched.stat()
    os.utime(touched, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))  # same bytes, new mtime
    parsed = _counting_parses(monkeypatch)
    records, _ = _run(root, db, lambda: list_briefs(root, TZ))
    assert parsed == [changed.relative_to(root).as_posix()]  # the touched one: hashed, its record stands
    monkeypatch.undo()
    assert records == list_briefs(root, TZ)
    record = next(r for r in records if r.path == changed.relative_to(root).as_posix())
    assert 987 in record.numbers()
    parsed = _counting_parses(monkeypatch)
    again, index = _run(root, db, lambda: list_briefs(root, TZ))
    assert again == records and parsed == [] and index.opened == 0


def test_a_deleted_brief_leaves_nothing_behind(vault: DemoManifest, db: Database) -> None:
    root = vault.root
    _run(root, db, lambda: list_briefs(root, TZ))
    gone = _brief_paths(root)[3]
    rel = gone.relative_to(root).as_posix()
    gone.unlink()
    records, _ = _run(root, db, lambda: list_briefs(root, TZ))
    assert rel not in {r.path for r in records}
    assert records == list_briefs(root, TZ)
    # Written again with other bytes: the kept record of the old ones is not taken for it.
    gone.write_text("---\ntime: 2026-10-01T21:00\n---\n# 简报\n- D991：另一条（⚠⚬⚬）\n", encoding="utf-8")
    records, _ = _run(root, db, lambda: list_briefs(root, TZ))
    assert records == list_briefs(root, TZ)
    assert next(r for r in records if r.path == rel).numbers() == {991}


def test_promise_history_and_arrivals_are_the_same_with_kept_values(vault: DemoManifest, db: Database) -> None:
    root = vault.root
    cfg = load_vault_config(root)
    notes = sorted(p for p in (root / "inbox").glob("*/*.md") if not briefs.is_brief_name(p.name))
    derivation = note_promises_derivation(TZ)
    expected = [_note_promises(read_vault_file_uncached(root, p, TZ)) for p in notes]
    assert any(value and any(m.kind == "promise" for m in value[1]) for value in expected)
    arrivals = scan_arrivals(cfg)
    for _ in range(2):  # computed and kept, then answered from the store
        (values, found), index = _run(root, db, lambda: (derive_many(root, notes, TZ, derivation), scan_arrivals(cfg)))
        assert values == expected and found == arrivals
    assert index.opened == 0 and index.derived.computed == 0
    note = notes[-1]
    note.write_text(note.read_text(encoding="utf-8") + "\n- 某团队计划于 2027-03 发布 FooServe v2。\n", encoding="utf-8")
    (values, found), index = _run(root, db, lambda: (derive_many(root, notes, TZ, derivation), scan_arrivals(cfg)))
    assert values[-1] == _note_promises(read_vault_file_uncached(root, note, TZ))
    assert any("FooServe" in m.context for m in values[-1][1])  # type: ignore[index]
    assert found == scan_arrivals(cfg)
    assert index.derived.computed >= 1


def test_baseline_mentions_follow_the_bytes(vault: DemoManifest, db: Database) -> None:
    root = vault.root
    path = _brief_paths(root)[-1]
    file = read_vault_file_uncached(root, path, TZ)
    expected = BODY_MENTIONS.compute(file)
    assert expected
    for _ in range(2):
        value, index = _run(root, db, lambda: derive_file(root, file, BODY_MENTIONS))
        assert value == expected
    assert index.derived.hits == 1 and index.derived.computed == 0
    path.write_text(path.read_text(encoding="utf-8") + "\n见 arXiv:2701.01234。\n", encoding="utf-8")
    changed = read_vault_file_uncached(root, path, TZ)
    value, index = _run(root, db, lambda: derive_file(root, changed, BODY_MENTIONS))
    assert value == BODY_MENTIONS.compute(changed) and any(m.value == "2701.01234" for m in value)
    assert index.derived.computed == 1


def test_a_value_that_cannot_come_back_exactly_is_never_kept(vault: DemoManifest, db: Database) -> None:
    root = vault.root
    paths = _brief_paths(root)[:3]
    lossy = Derivation("test_lossy", 1, lambda f: (f.path, f.size), lambda v: list(v), lambda raw: raw)  # a tuple
    for _ in range(2):
        values, index = _run(root, db, lambda: derive_many(root, paths, TZ, lossy))
        assert values == [(p.relative_to(root).as_posix(), p.stat().st_size) for p in paths]
        assert index.derived.computed == len(paths) and index.derived.hits == 0


def test_a_new_version_of_a_derivation_is_computed_anew(vault: DemoManifest, db: Database) -> None:
    root = vault.root
    paths = _brief_paths(root)[:3]
    old = Derivation("test_sizes", 1, lambda f: f.size, lambda v: v, lambda raw: raw)
    new = Derivation("test_sizes", 2, lambda f: f.size * 2, lambda v: v, lambda raw: raw)
    _run(root, db, lambda: derive_many(root, paths, TZ, old))
    values, index = _run(root, db, lambda: derive_many(root, paths, TZ, new))
    assert values == [p.stat().st_size * 2 for p in paths] and index.derived.computed == len(paths)


def test_a_brief_is_as_of_its_time_whatever_was_kept(vault: DemoManifest, db: Database) -> None:
    """The record keeps the brief's moment in the vault's timezone: "as of" comparisons stay exact."""
    root = vault.root
    _run(root, db, lambda: list_briefs(root, TZ))
    records, _ = _run(root, db, lambda: list_briefs(root, TZ))
    for record in records:
        assert record.time is None or (record.time.tzinfo is TZ and isinstance(record.time, datetime))
    until = records[len(records) // 2].day
    assert until is not None
    kept, _ = _run(root, db, lambda: list_briefs(root, TZ, until))
    assert kept == list_briefs(root, TZ, until) and all(r.day <= until for r in kept)  # type: ignore[operator]
    assert kept != records and until + timedelta(days=1) > until
