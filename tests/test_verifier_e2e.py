"""Issue 3 (verifier), "Done when", end to end through ``baton run`` with arXiv faked on 127.0.0.1.

The sample-vault tests need ``../shared/vault`` (skipped without it); the fault tests run on the
project's own demo vault (``workflows.demo_vault``) and always run.
"""

from __future__ import annotations

import json
import os
import re
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import func, select

from state.db import Database, sqlite_url
from state.tables.register import RegisterEntryRow
from tests.fakes.arxiv_server import ArxivFake, FakePaper, Reply
from workflows.cli import main
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import generate_demo_vault

CONTINUUM_TITLE = "Continuum: Efficient and Robust Multi-Turn LLM Agent Scheduling with KV Cache Time-to-Live"
LEFT_OUT = "2609.22157"  # PAGE: the notes only read its title; the fake does not know it

# The well-formed identifiers the 2026-09-29 inference window mentions (LEFT_OUT aside), with
# titles: from the paper cards where one exists, else invented in the spirit of the notes.
WINDOW_PAPERS: dict[str, str] = {
    "2509.15000": "SWE-Serve: Serving Software-Engineering Agents at Scale",
    "2511.02230": CONTINUUM_TITLE,
    "2602.14516": "AMPD: Adaptive Multi-Phase Disaggregation for LLM Serving",
    "2604.03143": "TokenDance: Synchronized KV Cache Sharing Across Agent Rounds",
    "2604.24971": "PolyKV: Asymmetric Compressed KV Pools for Multi-Agent Serving",
    "2605.17613": "VeriCache: Lossy KV Caching with Speculative Verification",
    "2607.20468": "InferenceBench: Can Coding Agents Optimize LLM Inference Deployments?",
    "2608.01526": "Internet for the KV Cache",
    "2608.09444": "Continuous Depth Batching for Looped Language Models",
    "2609.06674": "Detokenization Leaks: Prefix-Cache Side Channels in Multi-Tenant LLM Serving",
    "2609.17863": "The Inference Engineering Pareto Atlas",
    "2609.18805": "ProgramDistill: Distilling Programs from Agent Trajectories",
    "2609.19969": "DeepSeek-V4.1-Flash: Pushing the Limits of KV Cache Compression",
    "2609.23130": "From Inference Engine to Inference Control Plane",
    "2609.26333": "Disaggregated Quantization: Specializing LLM Prefill and Decode",
    "2609.26914": "Out of Sight, Still in Mind: Probing Object Permanence in Video World Models",
    "2609.27746": "KVSET: Online Working-Set Estimation for KV Caches",
    "2609.28870": "Cache Replacement for LLM Prefix Reuse",
    "2609.29421": "Rufus-Air: Training a 3B Generalist Agent with Sparse Rewards on a Single Node",
    "2609.29845": "Linear Superposition of Latent Skills Enables Compositional Fine-Tuning",
    "2609.30222": "TrackEverything: Long Horizon Dense Tracking via De-Duplicating 3D Scene Representations",
    "2609.30904": "QReason: Query-Aware Reasoning for Multi-Hop Retrieval",
    "2609.31397": "Intent2Tc: LLM-Driven Translation of Network Intents into Traffic Control Policies",
    "2609.31415": "Evaluating the Accuracy of KV Cache Reuse Techniques",
    "2609.31590": "AgentWorld: Benchmarking Long-Horizon Collaboration of Multi-agent LLMs",
    "2609.32049": "EngramRAG: Engram-Style Memory Traces for Retrieval-Augmented Generation",
    "2609.34771": "PhysGround: Physically Grounded Video Generation with World-Model Feedback",
    "2609.34902": "On the Residual Transferability of Visual Representations",
    "2609.35067": "WideSWE: Benchmarking Coding Agents on Wide, Cross-Repository Software Tasks",
    "2609.35204": "Learning Native Reflection in Multimodal Reasoning Models",
    "2609.35518": "GeoVerse: A Planet-Scale Benchmark for Geospatial Reasoning in Vision-Language Models",
    "2609.35743": "InfiniHand: Scaling Egocentric Hand-Object Interaction Data for Dexterous Manipulation",
}
VERSIONS = {"2511.02230": 3, "2609.31415": 1, "2609.17863": 1}


def _paper(arxiv_id: str, title: str) -> FakePaper:
    """A paper published in the month its identifier names (no date trap of our own making)."""
    yy, mm = arxiv_id[:2], arxiv_id[2:4]
    day = "23" if arxiv_id.startswith("2609.") else "10"
    stamp = f"20{yy}-{mm}-{day}T12:00:00Z"
    return FakePaper(arxiv_id, title, version=VERSIONS.get(arxiv_id, 1), published=stamp, updated=stamp)


@pytest.fixture
def arxiv_fake() -> Iterator[ArxivFake]:
    """The fake arXiv on 127.0.0.1, empty; each test adds the papers it needs."""
    fake = ArxivFake().start()
    yield fake
    fake.stop()


@pytest.fixture
def online(arxiv_fake: ArxivFake, monkeypatch: pytest.MonkeyPatch) -> ArxivFake:
    """``baton run`` pointed at the fake, with a short interval between requests."""
    monkeypatch.setenv("BATON_ARXIV_URL", arxiv_fake.url)
    monkeypatch.setenv("BATON_ARXIV_DELAY", "0.01")
    return arxiv_fake


def _run(vault: Path, topic: str, day: str, *extra: str, code: int = 0) -> dict:
    assert main(["run", "--vault", str(vault), "--topic", topic, "--date", day, "--format", "json", *extra]) == code
    return json.loads((vault / ".baton" / "drafts" / f"{day}-{topic}-e1prep.json").read_text(encoding="utf-8"))


def _arxiv(brief: dict) -> dict[str, dict]:
    return {entry["id"]: entry for entry in brief["arxiv"]}


def _kinds(brief: dict, kind: str) -> list[dict]:
    return [w for w in brief["warnings"] if w["kind"] == kind]


def _one(brief: dict, kind: str, *needles: str) -> dict:
    """The single warning of ``kind`` whose text holds every needle (a regex each)."""
    hits = [w for w in _kinds(brief, kind) if all(re.search(n, w["text"]) for n in needles)]
    texts = [w["text"][:120] for w in _kinds(brief, kind)]
    assert len(hits) == 1, f"{kind} with {needles}: {len(hits)} hits among {texts}"
    return hits[0]


def _registers(brief: dict) -> dict[str, str | None]:
    return {f"{w['kind']}:{w['text']}": w["register"] for w in brief["warnings"]}


# ── the sample vault: 2026-09-29 inference, then 2026-10-01 ──────────────────────────────


@pytest.fixture
def window_fake(online: ArxivFake) -> ArxivFake:
    online.add(*(_paper(arxiv_id, title) for arxiv_id, title in WINDOW_PAPERS.items()))
    return online


def test_inference_0929_verifies_against_arxiv_and_rerun_is_free(sample_vault: Path, window_fake: ArxivFake) -> None:
    brief = _run(sample_vault, "inference", "2026-09-29")
    entries = _arxiv(brief)

    # arXiv's verdicts: served ids ok (with arXiv's title), the left-out one not found, the cut one malformed.
    for arxiv_id in ("2609.31415", "2609.26333", "2609.23130", "2609.17863", "2511.02230", "2609.31397"):
        assert entries[arxiv_id]["verified"] == "ok", entries[arxiv_id]
    assert entries["2609.31415"]["published"] == "2026-09-23"
    assert entries[LEFT_OUT]["verified"] == "not_found"
    assert entries[LEFT_OUT]["note"] and "2026-09-29" in entries[LEFT_OUT]["note"]
    # "Continnum 2511.0223" beside "Continnum 2511.02230v7": counted under the full number and listed as repaired.
    assert "2511.0223" not in entries
    assert {r["written"]: r["id"] for r in brief["repaired_ids"]} == {"2511.0223": "2511.02230"}
    assert {e["verified"] for e in entries.values()} == {"ok", "not_found"}
    assert not [w for w in brief["warnings"] if w["kind"] == "id_malformed"]

    # The warnings of the issue, each once.
    misspelt = _one(brief, "title_mismatch", "Continnum")
    assert "2511.02230" in misspelt["text"] and CONTINUUM_TITLE in misspelt["text"]
    # A survey's "0.29.0（2026-09-09）为当前最新" and v0.30.0 of 2026-09-22: two releases, no conflict.
    assert not [w for w in _kinds(brief, "version_conflict") if "0.29.0" in w["text"]]
    ttft = _one(brief, "number_conflict", "^SGLang 的", "(?i)ttft")
    assert "85" in ttft["text"] and "42–80" in ttft["text"]
    anchors = _one(brief, "number_conflict", r"2609\.17863|Pareto")
    assert "54" in anchors["text"] and "48" in anchors["text"]
    promise = _one(brief, "promise_open", "C2C")
    assert promise["register"] and promise["register"].startswith("D")
    for warning in brief["warnings"]:  # every D-numbered warning names its sources
        if warning["kind"] in ("id_malformed", "number_conflict", "version_conflict", "promise_open"):
            assert warning["sources"], warning

    # Batched: one request holds every unknown well-formed id; the rest are title searches for the
    # identifiers arXiv could not confirm, nothing per id. 2511.0223 is not searched: the window
    # itself writes the full 2511.02230, and a title search is the last resort.
    id_requests = [seen for seen in window_fake.requests if seen.ids]
    assert len(id_requests) == 1
    sent = id_requests[0].ids
    assert sorted(sent) == sorted([*WINDOW_PAPERS, LEFT_OUT])
    assert "2511.0223" not in sent and int(id_requests[0].params["max_results"]) >= len(sent)
    searches = [seen for seen in window_fake.requests if not seen.ids]
    assert len(searches) <= 1 and not any("continnum" in s.params["search_query"] for s in searches)
    first_count = window_fake.request_count
    assert brief["stats"]["arxiv_requests"] == first_count <= 3
    assert brief["stats"].get("offline") is False

    # The same day again, nothing changed: the waiting draft is the answer (issue 12), no request.
    allocated = _register_rows(sample_vault)
    assert _run(sample_vault, "inference", "2026-09-29") == brief
    assert window_fake.request_count == first_count
    # A note touched (same bytes, new mtime): the graph runs again, everything from the store, no
    # request, no new D-number.
    note = next(p for p in sorted((sample_vault / "inbox").glob("*/2026-09-29*.md")) if "e1prep" not in p.name)
    stat = note.stat()
    os.utime(note, ns=(stat.st_atime_ns, stat.st_mtime_ns + 3_000_000_000))
    again = _run(sample_vault, "inference", "2026-09-29")
    assert window_fake.request_count == first_count
    assert again["stats"]["arxiv_requests"] == 0  # this run's verify, not the first run's count
    assert {k: v["verified"] for k, v in _arxiv(again).items()} == {k: v["verified"] for k, v in entries.items()}
    assert _registers(again) == _registers(brief)
    assert _register_rows(sample_vault) == allocated


def _register_rows(vault: Path) -> tuple[int, int]:
    """How many register rows the store holds, and the highest D-number."""
    db = Database(sqlite_url(vault / ".baton"))
    with db.session() as session:
        rows = (session.scalar(select(func.count()).select_from(RegisterEntryRow)) or 0,
                session.scalar(select(func.max(RegisterEntryRow.number))) or 0)
    db.dispose()
    return rows


def test_an_initialism_of_the_title_is_no_title_mismatch(sample_vault: Path, window_fake: ArxivFake) -> None:
    brief = _run(sample_vault, "inference", "2026-09-29")
    cdb = [w for w in _kinds(brief, "title_mismatch") if "2608.09444" in w["text"]]
    assert cdb == []
    assert not [w for w in brief["warnings"] if w["register"] == "D207" and w["kind"] == "title_mismatch"]


def test_a_bracketed_short_name_in_the_title_is_no_title_mismatch(sample_vault: Path, window_fake: ArxivFake) -> None:
    brief = _run(sample_vault, "inference", "2026-09-29")
    assert [w["text"] for w in _kinds(brief, "title_mismatch") if "2609.23130" in w["text"]] == []


def test_promise_of_0929_is_overdue_on_1001_with_its_d_number(sample_vault: Path, window_fake: ArxivFake) -> None:
    first = _run(sample_vault, "inference", "2026-09-29")
    d_number = _one(first, "promise_open", "C2C")["register"]
    assert d_number
    later = _run(sample_vault, "inference", "2026-10-01")
    overdue = _one(later, "promise_overdue", "C2C")
    assert overdue["register"] == d_number
    assert "2026-09" in overdue["text"]
    assert not [w for w in _kinds(later, "promise_open") if "C2C" in w["text"]]


def test_llm_infra_0928_reports_two_numbers_and_the_d195_collision(sample_vault: Path) -> None:
    brief = _run(sample_vault, "llm-infra", "2026-09-28", "--offline")
    conflicts = [w for w in brief["warnings"] if w["kind"] in ("id_conflict", "number_conflict")
                 and "2603.21354" in w["text"] and "2609.21354" in w["text"]]
    assert len(conflicts) == 1, [w["text"][:120] for w in brief["warnings"]]
    assert re.search(r"(?i)workload.?router.?pool|WRP", conflicts[0]["text"])
    # The slot's own brief of the day is not an input: its reuse of D195 is not this brief's collision.
    assert not [w for w in brief["warnings"] if w["kind"] == "register_collision"
                and "inbox/spark/2026-09-28-llm-infra-e1prep.md" in w["sources"]]
    assert brief["stats"]["offline"] is True and brief["stats"]["arxiv_requests"] == 0


# ── faults, on the project's demo vault ───────────────────────────────────────────────────


@pytest.fixture
def demo(tmp_path: Path) -> DemoManifest:
    return generate_demo_vault(tmp_path / "demo")


def _demo_papers(manifest: DemoManifest) -> list[FakePaper]:
    """Papers for the demo window's well-formed identifiers, at their cards' titles where known."""
    card_id = Path(manifest.misspelled_title.card).stem.split("-", 1)[1].replace("-", ".")
    titles = {card_id: manifest.misspelled_title.title, manifest.two_numbers.correct: manifest.two_numbers.title}
    ids = {*manifest.net_new_ids, *manifest.anchored_ids, manifest.malformed_id.intended}
    return [_paper(i, titles.get(i, f"Demo Paper {i}")) for i in sorted(ids)]


def _demo_run(manifest: DemoManifest, *extra: str, code: int = 0) -> tuple[dict, float]:
    started = time.monotonic()
    brief = _run(manifest.root, "inference", manifest.end.isoformat(), *extra, code=code)
    return brief, time.monotonic() - started


def _served(brief: dict, manifest: DemoManifest) -> dict[str, dict]:
    entries = _arxiv(brief)
    served = {p.id for p in _demo_papers(manifest)}
    assert served <= set(entries), sorted(served - set(entries))
    return {i: entries[i] for i in served}


def test_fault_503_with_retry_after_then_success(demo: DemoManifest, online: ArxivFake,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # The default backoff (2 s) does not fit a 1 s budget: the batch is retried only when the wait
    # Retry-After asks for (0 s) replaces it, so the verdicts show that the header was honoured.
    monkeypatch.setenv("BATON_ARXIV_BUDGET", "1")
    online.add(*_demo_papers(demo))
    online.script(Reply.unavailable(retry_after=0))
    brief, _ = _demo_run(demo)
    assert {e["verified"] for e in _served(brief, demo).values()} == {"ok"}
    assert online.requests[0].ids and online.requests[1].ids == online.requests[0].ids
    assert [seen.ids for seen in online.requests if seen.ids] == [online.requests[0].ids] * 2  # one retry
    assert brief["stats"]["arxiv_requests"] == online.request_count


def test_fault_broken_xml_leaves_everything_unverified(demo: DemoManifest, online: ArxivFake,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATON_ARXIV_BUDGET", "3")
    online.add(*_demo_papers(demo))
    online.always = Reply.broken()
    brief, _ = _demo_run(demo, code=3)  # done but degraded
    assert (demo.root / ".baton" / "drafts" / f"{demo.end}-inference-e1prep.json").is_file()
    entries = _arxiv(brief)
    assert entries[demo.malformed_id.raw]["verified"] == "malformed"
    well_formed = [e for i, e in entries.items() if i != demo.malformed_id.raw]
    assert well_formed and {e["verified"] for e in well_formed} == {"unverified"}
    # The reason is said once for the run, not in every identifier's note.
    failure = brief["stats"]["arxiv_failure"]
    assert "not well-formed XML" in failure and brief["stats"]["arxiv_failure_kind"] == "budget"
    assert not any("not well-formed XML" in (e["note"] or "") for e in well_formed)
    # Retried once after the 2 s backoff; the next one (4 s) does not fit the 3 s budget: the run stops there.
    assert "time budget of 3 s spent (next try in 4 s" in failure
    batch = online.requests[0].ids
    assert batch and [seen.ids for seen in online.requests] == [batch, batch]  # no title search either


def test_fault_slow_answers_spend_the_budget_quickly(demo: DemoManifest, online: ArxivFake,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BATON_ARXIV_BUDGET", "0.5")
    online.add(*_demo_papers(demo))
    online.always = Reply.slow(6)
    brief, _ = _demo_run(demo, code=3)
    well_formed = [e for i, e in _arxiv(brief).items() if i != demo.malformed_id.raw]
    assert well_formed and {e["verified"] for e in well_formed} == {"unverified"}
    failure = brief["stats"]["arxiv_failure"]
    assert "no answer from arXiv within" in failure and "time budget of 0.5 s" in failure
    assert brief["stats"]["arxiv_failure_kind"] == "timeout"
    waited = re.search(r"no answer from arXiv within ([0-9.]+) s", failure)
    assert waited and float(waited[1]) <= 0.5  # the request waited the budget, not the 20 s timeout
    assert online.request_count == 1  # the budget was spent on the batch; the title search was not sent


def test_fault_error_entry_is_unverified_not_a_crash(demo: DemoManifest, online: ArxivFake) -> None:
    online.add(*_demo_papers(demo))
    online.script(Reply.error_entry("incorrect id format for 2610.99999"))
    brief, _ = _demo_run(demo)
    served = _served(brief, demo)
    assert {e["verified"] for e in served.values()} == {"unverified"}
    assert all("error entry" in (e["note"] or "") for e in served.values())
    assert sum(1 for seen in online.requests if seen.ids) == 1  # arXiv's verdict: not retried


def test_fault_empty_feed_is_not_found(demo: DemoManifest, online: ArxivFake) -> None:
    online.add(*_demo_papers(demo))
    online.script(Reply.empty())
    brief, _ = _demo_run(demo)
    served = _served(brief, demo)
    assert {e["verified"] for e in served.values()} == {"not_found"}


def test_offline_on_a_fresh_store_makes_no_request(demo: DemoManifest, online: ArxivFake) -> None:
    online.add(*_demo_papers(demo))
    brief, _ = _demo_run(demo, "--offline")
    assert online.request_count == 0
    assert brief["stats"]["offline"] is True and brief["stats"]["arxiv_requests"] == 0
    entries = _arxiv(brief)
    assert entries[demo.malformed_id.raw]["verified"] == "malformed"
    well_formed = [e for i, e in entries.items() if i != demo.malformed_id.raw]
    assert well_formed and all(e["verified"] == "unverified" and "离线" in (e["note"] or "")
                               for e in well_formed)


def test_a_d_number_of_another_matter_is_not_carried(demo: DemoManifest) -> None:
    brief_path = demo.root / "inbox" / "tom" / f"{demo.end - timedelta(days=1)}-inference-e1prep.md"
    text = brief_path.read_text(encoding="utf-8")
    anchor = "三、值得警惕的矛盾或待核实说法\n"
    assert anchor in text and demo.next_d == "D188"
    other = "\nD188：vLLM 0.30.0 升级后 prefix caching 命中率回归（issue 8242）待核（⚠⚬）\n"
    brief_path.write_text(text.replace(anchor, anchor + other), encoding="utf-8")
    brief, _ = _demo_run(demo, "--offline")
    version = _one(brief, "version_conflict", "vLLM", r"0\.3\.1")
    assert version["register"] != "D188", version["carried_from"]
    assert "D188" not in (version["carried_from"] or "")


# ── "as of" the brief's moment (issue 3): nothing written after the window end, never the own brief ──

_VAULT_PATH = re.compile(r"inbox/[^\s（）()，,、；;：:「」\"']+?\.md")


def _cited_paths(brief: dict) -> set[str]:
    """Every vault path a brief's warnings and register lists cite (sources, carried_from, text, evidence)."""
    cited: set[str] = set()
    for warning in brief["warnings"]:
        cited |= set(warning["sources"])
        cited |= set(_VAULT_PATH.findall(f"{warning['text']} {warning.get('carried_from') or ''}"))
    for entry in [*brief["register_open"], *brief["register_closed"]]:
        cited |= set(_VAULT_PATH.findall(json.dumps(entry, ensure_ascii=False)))
    return cited


def _brief_times(vault: Path) -> dict:
    from agents.scanner.briefs import list_briefs
    from state.vault_config import load_vault_config

    return {b.path: b.time for b in list_briefs(vault, load_vault_config(vault).tz)}


@pytest.mark.sample_vault
def test_llm_infra_0928_cites_no_later_brief_and_reports_the_d195_collision(sample_vault: Path) -> None:
    brief = _run(sample_vault, "llm-infra", "2026-09-28", "--offline")
    own = "inbox/spark/2026-09-28-llm-infra-e1prep.md"
    times = _brief_times(sample_vault)
    end = times[own]  # the own brief is stamped 18:40, the window end
    assert end.hour == 18 and end.minute == 40
    cited = _cited_paths(brief)
    later = sorted(p for p in cited if p in times and times[p] > end)
    assert later == []
    assert "inbox/tom/2026-09-28-inference-e1prep.md" not in cited  # D195 again, written 22:20
    # What was known by then is still used: D195 of the 9-27 inference brief carries the vLLM versions,
    # and nothing is carried from the slot's own brief of the day (the output being written).
    version = _one(brief, "version_conflict", "vLLM")
    assert version["register"] == "D195" and "inbox/tom/2026-09-27-inference-e1prep.md" in version["carried_from"]
    assert all(own not in (w["carried_from"] or "") for w in brief["warnings"])
    # The person's 9-28 llm-infra brief reused D195 of the 9-27 inference brief, but that brief is the
    # output being written, not an input (issue 8): no collision quotes it.
    assert not [w for w in brief["warnings"] if w["kind"] == "register_collision" and own in w["sources"]]


@pytest.mark.sample_vault
def test_d195_collision_grows_as_later_briefs_reuse_the_number(sample_vault: Path) -> None:
    brief = _run(sample_vault, "inference", "2026-09-28", "--offline")
    collision = _one(brief, "register_collision", r"\bD195\b")
    assert "inbox/tom/2026-09-27-inference-e1prep.md" in collision["sources"]
    later = _run(sample_vault, "llm-infra", "2026-09-29", "--offline")
    assert "inbox/tom/2026-09-28-inference-e1prep.md" in _one(later, "register_collision", r"\bD195\b")["sources"]


@pytest.mark.sample_vault
def test_fresh_store_raises_the_c2c_promise_overdue_on_1001(sample_vault: Path) -> None:
    assert not (sample_vault / ".baton").exists()
    brief = _run(sample_vault, "inference", "2026-10-01", "--offline")
    overdue = _one(brief, "promise_overdue", "C2C")
    assert "2026-09" in overdue["text"] and overdue["register"]
    assert overdue["sources"] == ["inbox/jay/2026-09-28T1700-jay-arxiv-hf-agentic-rag-evening-briefing.md"]
    assert not [w for w in _kinds(brief, "promise_open") if "C2C" in w["text"]]


@pytest.mark.sample_vault
def test_a_backfill_numbers_as_the_register_stood_and_takes_no_other_briefs_number(sample_vault: Path) -> None:
    from agents.scanner.briefs import list_briefs
    from state.vault_config import load_vault_config

    briefs = list_briefs(sample_vault, load_vault_config(sample_vault).tz)
    own = next(b for b in briefs if b.path == "inbox/tom/2026-09-27-inference-e1prep.md")
    used = {n for b in briefs for n in b.numbers()}
    brief = _run(sample_vault, "inference", "2026-09-27", "--offline")  # before D195–D211 were written
    new = [int(w["register"][1:]) for w in brief["warnings"]
           if w["register"] and w["kind"] != "register_collision" and not w["carried_from"]]
    # The register ended at D194 at the window's end: numbering follows it (issue 8), in order, not
    # after D211 of later briefs, and not the slot's own brief's numbers (the output, never an input).
    assert new and sorted(new) == list(range(195, 195 + len(new)))
    assert max(used) > max(new)  # later briefs did use higher numbers: they were not read
    own_items = {i.number: i.text for i in own.items if i.role == "raised"}
    texts = {int(w["register"][1:]): w["text"] for w in brief["warnings"] if w["register"]}
    copied = {n for n in new if n in own_items and own_items[n][:6] in texts[n]}
    assert copied != set(new)  # not the own brief's numbering of its own matters
