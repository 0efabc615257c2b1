"""The generated demo vault: reproducible, complete, and every planted trap where its manifest says."""

from __future__ import annotations

import calendar
import hashlib
from datetime import date, datetime, timedelta
from fnmatch import fnmatch
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from rapidfuzz import fuzz

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.cards import Card, parse_card
from agents.scanner.living_doc import parse_living_doc
from agents.scanner.notes import VaultFile, parse_note_name, read_vault_file
from agents.scanner.queue import parse_queue
from agents.scanner.register import parse_register
from state.errors import UsageError
from state.vault_config import load_vault_config
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import MARKER, generate_demo_vault

TZ = ZoneInfo("Asia/Shanghai")


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoManifest:
    return generate_demo_vault(tmp_path_factory.mktemp("demo") / "vault")


def _read(manifest: DemoManifest, rel: str) -> VaultFile:
    return read_vault_file(manifest.root, manifest.root / rel, TZ)


def _card(manifest: DemoManifest, rel: str) -> Card:
    card = parse_card(_read(manifest, rel))
    assert isinstance(card, Card), card
    return card


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _ids(text: str) -> list[str]:
    return [ref.id for ref in find_arxiv_refs(text) if not ref.malformed]


def _inbox(manifest: DemoManifest) -> list[Path]:
    return sorted((manifest.root / "inbox").rglob("*.md"))


def test_same_seed_writes_the_same_bytes_and_another_seed_does_not(tmp_path: Path) -> None:
    first = generate_demo_vault(tmp_path / "a")
    second = generate_demo_vault(tmp_path / "b")
    other = generate_demo_vault(tmp_path / "c", seed=8)
    assert _tree(first.root) == _tree(second.root)
    assert first.model_dump(exclude={"root"}) == second.model_dump(exclude={"root"})
    assert _tree(first.root) != _tree(other.root)
    assert first.files == len(_tree(first.root))


def test_topics_and_schedule_load_like_the_sample(demo: DemoManifest) -> None:
    cfg = load_vault_config(demo.root)
    assert sorted(cfg.topics) == sorted(demo.topics) == ["inference", "llm-infra"]
    assert (cfg.topic("inference").executor, cfg.topic("inference").window_end) == ("tom", "22:20")
    assert (cfg.topic("llm-infra").executor, cfg.topic("llm-infra").window_end) == ("spark", "18:40")
    assert [s.key for s in cfg.schedule.slot] == [
        "tom/inference-e1prep", "tom/hf-daily", "spark/llm-infra-e1prep", "spark/agent-e1prep",
        "flyp/risk-e1prep", "stephen/coordination"]
    assert cfg.slot("spark/llm-infra-e1prep").due == "12:00"
    assert cfg.schedule.check_at == "12:45"


def test_every_inbox_note_but_the_undated_one_has_a_parsable_date(demo: DemoManifest) -> None:
    first = demo.end - timedelta(days=demo.days - 1)
    for path in _inbox(demo):
        rel = path.relative_to(demo.root).as_posix()
        day = parse_note_name(path.name).day
        if rel == demo.undated_note:
            assert day is None
        else:
            assert day is not None and first <= day <= demo.end, rel
    assert _read(demo, demo.undated_note).time is None


def test_each_time_rule_dates_its_note(demo: DemoManifest) -> None:
    assert set(demo.time_sources.values()) == {"name", "front_matter", "body", "date_only"}
    for rel, rule in demo.time_sources.items():
        file = _read(demo, rel)
        assert file.time_from == rule, rel
        assert file.time is not None and file.time.date() == demo.end


def test_gb18030_note_is_not_utf8_and_decodes(demo: DemoManifest) -> None:
    raw = (demo.root / demo.gb18030_note).read_bytes()
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    file = _read(demo, demo.gb18030_note)
    assert file.encoding == "gb18030" and not file.problems
    assert "风险" in file.text and "KV cache" in file.text


def test_defects_are_flagged_exactly_where_planted(demo: DemoManifest) -> None:
    found: dict[str, set[str]] = {}
    for path in sorted(demo.root.rglob("*.md")):
        file = read_vault_file(demo.root, path, TZ)
        for kind, _reason in file.problems:
            found.setdefault(kind, set()).add(file.path)
    assert found == {
        "empty": {demo.empty_note},
        "truncated": {demo.truncated_note},
        "bad_front_matter": {demo.bad_card},
    }
    assert not (demo.root / demo.truncated_note).read_bytes().endswith(b"\n")
    assert (demo.root / demo.empty_note).stat().st_size == 0


def test_duplicate_is_byte_identical_and_later(demo: DemoManifest) -> None:
    kept, copy = _read(demo, demo.duplicate.kept), _read(demo, demo.duplicate.copy)
    assert kept.sha256 == copy.sha256
    assert kept.sha256 == hashlib.sha256((demo.root / demo.duplicate.copy).read_bytes()).hexdigest()
    assert kept.time < copy.time
    hashes = [read_vault_file(demo.root, p, TZ).sha256 for p in _inbox(demo)]
    assert hashes.count(kept.sha256) == 2 and len(set(hashes)) == len(hashes) - 1


def test_bad_card_names_the_yaml_error(demo: DemoManifest) -> None:
    file = _read(demo, demo.bad_card)
    assert file.front.error and "mapping values" in file.front.error
    assert isinstance(parse_card(file), str)


def test_boundary_cards_sit_on_the_inference_window_edges(demo: DemoManifest) -> None:
    start, end = load_vault_config(demo.root).topic("inference").window(demo.end, TZ)
    inside = _card(demo, demo.card_in_window).ingested
    outside = _card(demo, demo.card_out_of_window).ingested
    at_start = _card(demo, demo.card_at_window_start).ingested
    assert inside == end and start < inside <= end
    assert outside == end + timedelta(minutes=1) and not outside <= end
    assert at_start == start and not start < at_start


def test_malformed_id_is_kept_and_the_full_id_is_elsewhere_in_the_window(demo: DemoManifest) -> None:
    raw, intended, path, full_path = demo.malformed_id
    refs = find_arxiv_refs(_read(demo, path).text)
    bad = [ref for ref in refs if ref.malformed]
    assert [ref.id for ref in bad] == [raw] and "4" in bad[0].reason
    assert intended == raw + "0" and len(intended.split(".")[1]) == 5
    assert intended in _ids(_read(demo, full_path).text)
    assert intended not in _ids(_read(demo, path).text)


def test_one_paper_under_two_numbers(demo: DemoManifest) -> None:
    title, correct, wrong, correct_path, wrong_path = demo.two_numbers
    assert correct != wrong and sorted(correct) == sorted(wrong)
    correct_text, wrong_text = _read(demo, correct_path).text, _read(demo, wrong_path).text
    assert correct in _ids(correct_text) and wrong in _ids(wrong_text)
    assert title in correct_text and title in wrong_text
    cards = [parse_card(read_vault_file(demo.root, p, TZ)) for p in (demo.root / "organized/paper_cards").iterdir()]
    card_ids = {c.arxiv for c in cards if isinstance(c, Card)}
    assert correct in card_ids and wrong not in card_ids


def test_misspelled_title_is_close_to_the_card_title(demo: DemoManifest) -> None:
    card_path, title, written, path = demo.misspelled_title
    assert _card(demo, card_path).title == title
    text = _read(demo, path).text
    assert written in text and title not in text
    assert written != title and fuzz.ratio(written, title) >= 90


def test_version_and_number_conflicts_are_in_their_notes(demo: DemoManifest) -> None:
    product, (first, second), (path_a, path_b) = demo.version_conflict
    assert f"{product} {first}" in _read(demo, path_a).text
    assert f"{product} {second}" in _read(demo, path_b).text
    conflict = demo.number_conflict
    low, high = conflict.values
    assert low != high
    for value, rel in zip(conflict.values, conflict.paths, strict=True):
        line = next(line for line in _read(demo, rel).text.split("\n") if f"{value:g}{conflict.unit}" in line)
        assert conflict.entity in line and conflict.metric in line and "H100" in _read(demo, rel).text


def test_promise_month_ended_before_the_end_day(demo: DemoManifest) -> None:
    text, due, path = demo.promise
    assert text in _read(demo, path).text
    month = date.fromisoformat(text.split()[1] + "-01")
    assert due == month.replace(day=calendar.monthrange(month.year, month.month)[1]) and due < demo.end


def test_instruction_to_the_model_is_quoted_text_in_a_note(demo: DemoManifest) -> None:
    path, text = demo.instruction
    assert "the model" in text and text in _read(demo, path).text


def test_late_streak_then_an_open_gap_on_the_end_day(demo: DemoManifest) -> None:
    cfg = load_vault_config(demo.root)
    agent, name = demo.late_slot.slot.split("/")
    slot = cfg.slot(demo.late_slot.slot)
    due = datetime.strptime(slot.due, "%H:%M").time()

    def brief(day: date) -> VaultFile | None:
        path = demo.root / "inbox" / agent / slot.pattern.format(date=day.isoformat())
        return read_vault_file(demo.root, path, TZ) if path.exists() else None

    day = demo.late_slot.first
    while day <= demo.late_slot.last:
        file = brief(day)
        assert file is not None and file.time.strftime("%H:%M") == demo.late_slot.arrival and file.time.time() > due
        day += timedelta(days=1)
    assert (demo.late_slot.last - demo.late_slot.first).days + 1 == demo.late_slot.streak
    before = brief(demo.late_slot.first - timedelta(days=1))
    assert before is not None and before.time.time() <= due
    assert brief(demo.end) is None


def test_missing_slot_day_has_no_note(demo: DemoManifest) -> None:
    slot = load_vault_config(demo.root).slot(demo.missing_slot.slot)
    folder = demo.root / "inbox" / slot.agent

    def delivered(day: date) -> bool:
        return any(fnmatch(p.name, slot.pattern.format(date=day.isoformat())) for p in folder.iterdir())

    assert not delivered(demo.missing_slot.day)
    assert delivered(demo.missing_slot.day - timedelta(days=1)) and delivered(demo.missing_slot.day + timedelta(days=1))


def test_coordination_false_alarm_claims_a_brief_that_exists_on_time(demo: DemoManifest) -> None:
    path, key, day = demo.false_alarm
    slot = load_vault_config(demo.root).slot(key)
    assert fnmatch(Path(path).name, f"{demo.end}-1245-stephen-coordination-*.md")
    claim = _read(demo, path).text
    assert f"{slot.agent} {day} {slot.name}" in claim and "未见" in claim
    brief = read_vault_file(demo.root, demo.root / "inbox" / slot.agent / slot.pattern.format(date=day), TZ)
    assert brief.time is not None and brief.time.strftime("%H:%M") <= slot.due
    assert demo.earlier_briefs["inference"] == brief.path


def test_net_new_and_anchored_papers_against_the_living_documents(demo: DemoManifest) -> None:
    living = parse_living_doc((demo.root / "organized/knowledge/inference.md").read_text(encoding="utf-8"))
    anchored = living.anchored_ids(demo.end)
    everywhere = {i for section in living.sections for bullet in section.bullets for i in bullet.arxiv}
    assert set(demo.anchored_ids) <= set(anchored)
    assert all(anchored[i][1].day < demo.end for i in demo.anchored_ids)
    assert not set(demo.net_new_ids) & everywhere
    queue = parse_queue((demo.root / "organized/queue/work-queue.md").read_text(encoding="utf-8"), TZ)
    today = max(queue, key=lambda snapshot: snapshot.taken)
    assert today.taken.date() == demo.end
    assert [today.flag_of(i) for i in demo.net_new_ids[:3]] == ["Top 0.5", "Top 15", "Top 15"]
    window_text = "".join(_read(demo, rel).text for rel in demo.time_sources)
    for identifier in demo.anchored_ids:
        assert identifier in _ids(window_text)


def test_excluded_cards_are_multimodal_and_in_the_window(demo: DemoManifest) -> None:
    start, end = load_vault_config(demo.root).topic("inference").window(demo.end, TZ)
    for rel in demo.excluded_cards:
        card = _card(demo, rel)
        assert card.primary == "multimodal" and start < card.ingested <= end


def test_register_numbers_are_unique_and_continue_at_next_d(demo: DemoManifest) -> None:
    entries = parse_register((demo.root / "organized/registry/contradictions.md").read_text(encoding="utf-8"))
    numbers = [entry.number for entry in entries]
    assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
    assert demo.next_d == f"D{numbers[-1] + 1}"
    assert all(entry.raised is not None and entry.raised < demo.end for entry in entries)


def test_refuses_a_foreign_non_empty_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(UsageError, match=str(tmp_path)):
        generate_demo_vault(tmp_path)
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]
    with pytest.raises(UsageError, match="days"):
        generate_demo_vault(tmp_path / "new", days=3)


def test_regenerating_a_demo_vault_replaces_it_and_keeps_foreign_state(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    generate_demo_vault(root, seed=1)
    (root / ".baton").mkdir()
    (root / ".baton" / "baton.db").write_bytes(b"state")
    manifest = generate_demo_vault(root, seed=2)
    fresh = generate_demo_vault(tmp_path / "fresh", seed=2)
    tree = _tree(root)
    assert tree.pop(".baton/baton.db") == b"state"
    assert tree == _tree(fresh.root) and (root / MARKER).is_file()
    assert manifest.seed == 2


def test_a_long_vault_crosses_months_and_keeps_its_traps(tmp_path: Path) -> None:
    manifest = generate_demo_vault(tmp_path / "v", end=date(2027, 3, 1), days=75, seed=3)
    assert manifest.promise.due == date(2027, 2, 28)
    assert manifest.late_slot.first == date(2027, 2, 24)
    assert all(i.startswith("2703.") for i in manifest.net_new_ids)
    months = {p.name.split("-")[1] for p in (manifest.root / "organized/paper_cards").iterdir()}
    assert {"2612", "2701", "2702", "2703"} <= months
    assert _read(manifest, manifest.truncated_note).problems[0][0] == "truncated"
