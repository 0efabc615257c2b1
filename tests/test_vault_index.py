"""The vault index (issue 12): a file parsed once per run, kept between runs, re-parsed when it changes;
an unchanged re-run answers from the store, and the brief is byte for byte the one made without the index."""

from __future__ import annotations

import json
import os
from contextlib import nullcontext
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

import agents.scanner.vault_index as vault_index
from agents.scanner.notes import read_vault_file, read_vault_file_uncached
from agents.scanner.vault_index import VaultIndex, decode_file, encode_file
from state.db import Database, sqlite_url
from state.schema import upgrade
from state.vault_config import load_vault_config
from workflows import api
from workflows.cli import main
from workflows.demo_vault import generate_demo_vault

TZ = ZoneInfo("Asia/Shanghai")
TOPIC = "inference"


@pytest.fixture
def db(tmp_path: Path) -> Database:
    database = Database(sqlite_url(tmp_path))
    upgrade(database)
    return database


def _vault_files(root: Path) -> list[Path]:
    return sorted(p for p in (root / "inbox").glob("*/*.md"))


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every parse the index makes, by path."""
    parsed: list[str] = []
    real = vault_index.parse_vault_bytes

    def counted(root, path, tz, raw, size):  # type: ignore[no-untyped-def]
        parsed.append(path.relative_to(root).as_posix())
        return real(root, path, tz, raw, size)

    monkeypatch.setattr(vault_index, "parse_vault_bytes", counted)
    return parsed


def test_encoding_round_trips_every_demo_file(tmp_path: Path) -> None:
    manifest = generate_demo_vault(tmp_path / "vault", days=10)
    files = [p for p in manifest.root.rglob("*.md") if ".baton" not in p.parts]
    assert len(files) > 50
    kept = 0
    for path in files:
        file = read_vault_file_uncached(manifest.root, path, TZ)
        encoded = encode_file(file, TZ)
        if encoded is None:
            continue
        kept += 1
        assert decode_file(encoded, TZ) == file, path
    assert kept >= len(files) - 2  # only what JSON cannot carry exactly is left out


def test_a_file_is_parsed_once_per_run_and_not_opened_in_the_next(tmp_path: Path, db: Database,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = generate_demo_vault(tmp_path / "vault", days=8)
    paths = _vault_files(manifest.root)
    parsed = _counting(monkeypatch)
    first = VaultIndex(manifest.root, TZ, db)
    with first.active():
        once = [read_vault_file(manifest.root, p, TZ) for p in paths]
        twice = [read_vault_file(manifest.root, p, TZ) for p in paths]
    assert once == twice == [read_vault_file_uncached(manifest.root, p, TZ) for p in paths]
    assert sorted(parsed) == sorted(p.relative_to(manifest.root).as_posix() for p in paths)  # once each
    parsed.clear()
    second = VaultIndex(manifest.root, TZ, db)  # the next run: a new process would see only the store
    with second.active():
        again = [read_vault_file(manifest.root, p, TZ) for p in paths]
    assert again == once
    assert parsed == [] and second.opened == 0 and second.from_store == len(paths)


def test_a_changed_file_is_read_and_parsed_again(tmp_path: Path, db: Database,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    manifest = generate_demo_vault(tmp_path / "vault", days=8)
    paths = _vault_files(manifest.root)
    with VaultIndex(manifest.root, TZ, db).active():
        for path in paths:
            read_vault_file(manifest.root, path, TZ)
    changed, touched = paths[3], paths[5]
    changed.write_text(changed.read_text(encoding="utf-8") + "\n追加一行：新的内容。\n", encoding="utf-8")
    stat = touched.stat()
    os.utime(touched, ns=(stat.st_atime_ns, stat.st_mtime_ns + 5_000_000_000))  # same bytes, new mtime
    parsed = _counting(monkeypatch)
    index = VaultIndex(manifest.root, TZ, db)
    with index.active():
        files = {p: read_vault_file(manifest.root, p, TZ) for p in paths}
    assert parsed == [changed.relative_to(manifest.root).as_posix()]  # the touched one: hash equal, not parsed
    assert index.opened == 2 and index.from_store == len(paths) - 1
    assert files[changed] == read_vault_file_uncached(manifest.root, changed, TZ)
    assert "追加一行" in (files[changed].text or "")
    assert files[touched] == read_vault_file_uncached(manifest.root, touched, TZ)
    # and the next run knows the new mtimes: nothing is opened
    third = VaultIndex(manifest.root, TZ, db)
    with third.active():
        for path in paths:
            read_vault_file(manifest.root, path, TZ)
    assert third.opened == 0


def test_a_caller_changing_its_file_changes_no_one_elses(tmp_path: Path) -> None:
    manifest = generate_demo_vault(tmp_path / "vault", days=8)
    path = _vault_files(manifest.root)[0]
    with VaultIndex(manifest.root, TZ).active():
        mine = read_vault_file(manifest.root, path, TZ)
        mine.problems.append(("x", "y"))
        mine.front.data["time"] = "changed"
        theirs = read_vault_file(manifest.root, path, TZ)
    assert ("x", "y") not in theirs.problems and theirs.front.data.get("time") != "changed"


def test_a_link_out_of_the_vault_is_never_indexed(tmp_path: Path, db: Database) -> None:
    manifest = generate_demo_vault(tmp_path / "vault", days=8)
    outside = tmp_path / "secret.md"
    outside.write_text("---\ntime: 2026-10-01T10:00\n---\nsecret\n", encoding="utf-8")
    link = manifest.root / "inbox" / "flyp" / "2026-10-01-link.md"
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside)
    for _ in range(2):
        index = VaultIndex(manifest.root, TZ, db)
        with index.active():
            file = read_vault_file(manifest.root, link, TZ)
        assert file.text is None and file.problems[0][0] == "unreadable"
        assert index.from_store == 0


def _run(root: Path, day: str, fmt: str = "both") -> int:
    return main(["run", "--vault", str(root), "--topic", TOPIC, "--date", day, "--format", fmt, "--offline"])


def _drafts(root: Path, day: str) -> tuple[str, dict]:
    folder = root / ".baton" / "drafts"
    brief = json.loads((folder / f"{day}-{TOPIC}-e1prep.json").read_text(encoding="utf-8"))
    brief["stats"].pop("seconds", None)
    return (folder / f"{day}-{TOPIC}-e1prep.md").read_text(encoding="utf-8"), brief


def test_the_brief_is_the_same_with_and_without_the_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    with_index = generate_demo_vault(tmp_path / "a", days=20)
    without = generate_demo_vault(tmp_path / "b", days=20)
    day = with_index.end.isoformat()
    # Without: no index at all (every role reads the vault itself, as before issue 12).
    with monkeypatch.context() as mp:
        mp.setattr(VaultIndex, "active", lambda self: nullcontext(self))
        assert _run(without.root, day) == 0
    plain = _drafts(without.root, day)

    parsed = _counting(monkeypatch)
    assert _run(with_index.root, day) == 0
    first_parses = len(parsed)
    assert first_parses > 0 and len(parsed) == len(set(parsed))  # each file parsed once in the run
    assert _drafts(with_index.root, day) == plain

    # The same day again, nothing changed: answered from the store, no file parsed.
    parsed.clear()
    capsys.readouterr()
    assert _run(with_index.root, day) == 0
    assert ", unchanged)" in capsys.readouterr().out
    assert parsed == []
    assert _drafts(with_index.root, day) == plain

    # A touched note (same bytes, new mtime): the graph runs again, every file comes from the index.
    note = _vault_files(with_index.root)[-1]
    stat = note.stat()
    os.utime(note, ns=(stat.st_atime_ns, stat.st_mtime_ns + 7_000_000_000))
    assert _run(with_index.root, day) == 0
    assert ", unchanged)" not in capsys.readouterr().out
    assert parsed == []
    assert _drafts(with_index.root, day) == plain


def test_a_decision_or_a_changed_file_is_not_answered_from_the_store(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    manifest = generate_demo_vault(tmp_path / "vault", days=12)
    day = manifest.end.isoformat()
    assert _run(manifest.root, day, "md") == 0
    assert _run(manifest.root, day, "md") == 0
    assert "(revision 1, unchanged)" in capsys.readouterr().out
    # An excuse is a store change a brief may show: the graph runs.
    slot = load_vault_config(manifest.root).schedule.slot[0].key
    assert main(["excuse", "--vault", str(manifest.root), slot, "--from", day, "--to", day,
                 "--reason", "test"]) == 0
    capsys.readouterr()
    assert _run(manifest.root, day, "md") == 0
    assert ", unchanged)" not in capsys.readouterr().out
    # A new note in the window: the graph runs, and the next run is answered again.
    note = manifest.root / "inbox" / "flyp" / f"{day}-extra.md"
    note.write_text(f"# {day} 10:00 补充\n\n一条新笔记，提到 arXiv:2609.99999。\n", encoding="utf-8")
    assert _run(manifest.root, day, "md") == 0
    assert ", unchanged)" not in capsys.readouterr().out
    assert _run(manifest.root, day, "md") == 0
    assert ", unchanged)" in capsys.readouterr().out


def test_an_unchanged_answer_needs_the_draft_on_disk(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    manifest = generate_demo_vault(tmp_path / "vault", days=10)
    day = manifest.end.isoformat()
    assert _run(manifest.root, day, "md") == 0
    draft = manifest.root / ".baton" / "drafts" / f"{day}-{TOPIC}-e1prep.md"
    text = draft.read_text(encoding="utf-8")
    draft.unlink()
    capsys.readouterr()
    assert _run(manifest.root, day, "md") == 0
    assert ", unchanged)" not in capsys.readouterr().out
    assert draft.read_text(encoding="utf-8") == text


def test_run_brief_reports_unchanged_mode(tmp_path: Path) -> None:
    from state.settings import settings_from_env

    manifest = generate_demo_vault(tmp_path / "vault", days=10)
    settings = settings_from_env(manifest.root, None, offline=True, formats=("md",))
    ctx = api.open_context(settings)
    first = api.run_brief(ctx, TOPIC, manifest.end)
    second = api.run_brief(api.open_context(settings), TOPIC, manifest.end)
    assert first.mode == "fresh" and second.mode == "unchanged"
    assert second.pending and second.brief_sha256 == first.brief_sha256 and second.drafts == first.drafts


def test_front_matter_with_yaml_aliases_is_not_indexed_nor_expanded(tmp_path: Path, db: Database) -> None:
    manifest = generate_demo_vault(tmp_path / "vault", days=8)
    bomb = "---\n" + "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
    ) + "title: bomb\n---\n# bomb\n"
    path = manifest.root / "inbox" / "flyp" / f"{manifest.end}T1007-bomb.md"
    path.write_text(bomb, encoding="utf-8")
    plain = read_vault_file_uncached(manifest.root, path, TZ)
    assert encode_file(plain, TZ) is None  # 9**9 leaves behind a few lines: never walked in full
    for _ in range(2):
        index = VaultIndex(manifest.root, TZ, db)
        with index.active():
            first = read_vault_file(manifest.root, path, TZ)
            again = read_vault_file(manifest.root, path, TZ)
        assert first.front.data["title"] == again.front.data["title"] == "bomb"
        assert index.from_store == 0 and index.opened == 1


def test_a_cards_head_is_answered_from_the_index_in_the_next_run(tmp_path: Path, db: Database) -> None:
    from agents.scanner.notes import read_vault_head

    manifest = generate_demo_vault(tmp_path / "vault", days=8)
    cards = sorted((manifest.root / "organized").rglob("*.md"))
    assert cards
    first = VaultIndex(manifest.root, TZ, db)
    with first.active():
        heads = [read_vault_head(manifest.root, card, 2048) for card in cards]
    assert heads == [card.read_bytes()[:2048] for card in cards]
    second = VaultIndex(manifest.root, TZ, db)
    with second.active():
        again = [read_vault_head(manifest.root, card, 2048) for card in cards]
    assert again == heads and second.opened == 0
