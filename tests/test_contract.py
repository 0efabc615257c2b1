"""The brief's JSON keeps every field of the contract (brief-contract.md): fields are added, never dropped."""

from __future__ import annotations

import json
import re

import pytest

from tests.conftest import SHARED_VAULT
from workflows.cli import main
from workflows.demo_vault import generate_demo_vault

# The contract's fields, as brief-contract.md lists them (kept here so the test runs without ../shared).
CONTRACT = {
    "": {"topic", "date", "thread", "executor", "window", "base_doc", "density", "sources", "increments",
         "warnings", "arxiv", "gaps", "alerts", "stats"},
    "window": {"start", "end"},
    "base_doc": {"path", "version"},
    "sources": {"path", "kind", "agent", "time", "time_from", "bytes", "relevance", "status", "reason",
                "duplicate_of"},
    "increments": {"rank", "title", "status", "arxiv", "urls", "sources", "work_queue", "paper_card", "points",
                   "argument", "credibility", "relation", "section"},
    "warnings": {"id", "register", "kind", "text", "risk", "action", "sources", "carried_from"},
    "arxiv": {"id", "version", "verified", "title", "section", "credibility", "note"},
    "gaps": {"agent", "slot", "date", "status", "streak", "arrived"},
    "alerts": {"key", "to", "sent"},
    "stats": {"sources_read", "sources_skipped", "arxiv_requests", "llm_calls", "llm_tokens", "seconds"},
}
ENUMS = {
    ("sources", "kind"): {"note", "brief", "card", "queue", "living_doc", "register", "feed"},
    ("sources", "status"): {"read", "out_of_window", "duplicate", "empty", "truncated", "undated", "decode_error",
                            "bad_front_matter", "unreadable"},
    ("sources", "time_from"): {"front_matter", "name", "body", "date_only", None},
    ("increments", "status"): {"net_new", "integrated", "carried"},
    ("arxiv", "verified"): {"ok", "mismatch", "not_found", "malformed", "unverified"},
    # The contract's kinds; baton adds the ones after the blank line (fields and values may be added).
    ("warnings", "kind"): {"id_malformed", "id_conflict", "title_mismatch", "date_mismatch", "version_conflict",
                           "number_conflict", "promise_open", "promise_overdue", "single_source",
                           "register_collision", "false_alarm", "instruction_in_source",

                           "gap_unreported", "version_beyond_latest", "streak_mismatch"},
    ("gaps", "status"): {"met", "late", "missing", "excused"},
}
OFFSET = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$")


@pytest.fixture(scope="module")
def brief(tmp_path_factory: pytest.TempPathFactory) -> dict:
    root = tmp_path_factory.mktemp("contract") / "vault"
    manifest = generate_demo_vault(root)
    assert main(["run", "--vault", str(root), "--topic", "inference", "--date", manifest.end.isoformat(),
                 "--offline", "--format", "json"]) == 0
    return json.loads((root / ".baton/drafts" / f"{manifest.end}-inference-e1prep.json").read_text("utf-8"))


def test_every_contract_field_is_present(brief: dict) -> None:
    assert CONTRACT[""] <= set(brief)
    for part, fields in CONTRACT.items():
        if not part:
            continue
        value = brief[part]
        rows = value if isinstance(value, list) else [value]
        assert rows, f"{part} is empty in the demo brief"
        for row in rows:
            assert fields <= set(row), f"{part} lacks {fields - set(row)}"


def test_enumerations_and_times(brief: dict) -> None:
    for (part, field), allowed in ENUMS.items():
        assert {row[field] for row in brief[part]} <= allowed, (part, field)
    assert all(row["status"] == "read" or row["reason"] for row in brief["sources"])
    times = [brief["window"]["start"], brief["window"]["end"]] + [s["time"] for s in brief["sources"] if s["time"]]
    assert all(OFFSET.match(t) for t in times)
    assert brief["thread"] == f"{brief['topic']}:{brief['date']}"


def test_the_contract_file_lists_no_field_we_lack() -> None:
    contract = SHARED_VAULT.parent / "brief-contract.md"
    if not contract.is_file():
        pytest.skip("../shared/brief-contract.md is not present")
    example = json.loads(re.search(r"```json\n(.*?)```", contract.read_text("utf-8"), re.S).group(1)
                         .replace("…", ""))
    assert set(example) <= CONTRACT[""]
    for part, fields in CONTRACT.items():
        if part and isinstance(example[part], (dict, list)):
            rows = example[part] if isinstance(example[part], list) else [example[part]]
            for row in rows:
                assert set(row) <= fields, f"{part}: {set(row) - fields} missing from the test's contract"
