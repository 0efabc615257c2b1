"""One brief, one truth, nothing dropped: checked on every sample day (skipped without ../shared/vault).

No figures of the sample are written here: each test walks what the run produced and checks that the
brief's parts agree with each other and with the window's clusters.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest

from agents.integrator.cluster import cluster_items, section_key
from agents.integrator.compose import sequels_joined
from agents.scanner.window import scan_window
from agents.verifier.identifiers import certain_repairs, repaired_mentions
from state.models import Brief
from state.settings import settings_from_env
from state.vault_config import load_vault_config
from tests.conftest import SHARED_VAULT
from workflows import api
from workflows.quality import example_days

# The days the team wrote briefs for, read from the examples folder beside the sample vault.
DAYS = example_days(SHARED_VAULT.parent / "examples")


@pytest.fixture
def briefs(sample_vault: Path) -> dict[tuple[str, str], Brief]:
    assert DAYS, "the examples folder beside the sample vault holds no <day>-<topic>-e1prep.md"
    settings = settings_from_env(sample_vault, sample_vault / ".baton", offline=True, formats=("json", "md"))
    ctx = api.open_context(settings)
    found = {}
    for topic, day in DAYS:
        outcome = api.run_brief(ctx, topic, date.fromisoformat(day))
        path = next(Path(d) for d in outcome.drafts if d.endswith(".json"))
        found[(topic, day)] = Brief.model_validate_json(path.read_text(encoding="utf-8"))
    ctx.db.dispose()
    return found


def test_every_cluster_of_every_day_ends_in_exactly_one_place(sample_vault: Path, briefs) -> None:
    cfg = load_vault_config(sample_vault)
    for (topic, day), brief in briefs.items():
        scan = scan_window(cfg, topic, date.fromisoformat(day))
        # A number missing a digit under the same name is counted under its full number, and listed as repaired.
        repairs = certain_repairs(scan.mentions, scan.cards)
        assert {r["written"]: r["id"] for r in brief.repaired_ids} == {k: v[0] for k, v in repairs.items()}
        # A sequel's section joins the item of its first part (one subject, one item).
        items = sequels_joined(cluster_items(repaired_mentions(scan.mentions, repairs), scan.files, scan.cards,
                                             scan.queue.rows if scan.queue else []))
        places: dict[str, list[str]] = {}
        for name, keys in (("increment", [i.key for i in brief.increments]),
                           ("carried", [x["key"] for x in brief.carried]),
                           ("below_cut", [x["key"] for x in brief.below_cut]),
                           ("excluded", [x["key"] for x in brief.excluded])):
            for key in keys:
                places.setdefault(key, []).append(name)
        doubled = {k: v for k, v in places.items() if len(v) > 1}
        assert not doubled, f"{topic} {day}: listed twice: {doubled}"
        # A cluster whose every number is a mistake for another paper is listed in the arXiv list instead.
        mistaken = {a.id for a in brief.arxiv if a.likely and a.verified != "ok"}
        # A note digest is placed whole, or section by section: then each section is in a list, by its line.
        missing = [item.key for item in items
                   if item.key not in places and not (item.arxiv and set(item.arxiv) <= mistaken)
                   and not (item.key.startswith("note:")
                            and all(section_key(p) in places for p in item.passages))]
        assert not missing, f"{topic} {day}: {len(missing)} clusters in no list, e.g. {missing[:5]}"
        for entry in [*brief.carried, *brief.below_cut, *brief.excluded]:
            assert entry.get("reason"), f"{topic} {day}: {entry['key']} listed without a reason"


def test_every_count_in_the_summary_is_the_length_of_its_list(briefs) -> None:
    for (topic, day), brief in briefs.items():
        text = "\n".join(brief.summary)
        assert f"增量条数：{len(brief.increments)} 条" in text, (topic, day)
        carried = sum(1 for w in brief.warnings if w.carried_from)
        assert f"警示：{len(brief.warnings)} 条（沿用 {carried} / 新增 {len(brief.warnings) - carried}）" in text
        assert f"主轴外条目排除 {len(brief.excluded)} 件" in text
        new = [a for a in brief.arxiv if a.status == "net_new"]
        assert f"NET-new {len(new)} 个" in text
        citable = [a for a in brief.arxiv if a.citable]
        assert f"可引用列表共 {len(citable)} 个" in text
        if len(citable) < len(brief.arxiv):
            assert f"另列 {len(brief.arxiv) - len(citable)} 个仅供核对、不可引用" in text
        assert not [a for a in citable if a.verified == "malformed" or a.likely or (a.note or "").startswith("主轴外")]
        if brief.unplaced:
            assert f"未成条目的段落 {len(brief.unplaced)} 段" in text
        core = re.search(r"核心增量：(.*)", text)
        assert core is None or len(re.findall(r"[①-⑳]", core.group(1))) == min(len(brief.increments), 20)


def test_no_item_is_both_new_and_said_to_be_old_or_mismatched(briefs) -> None:
    """A status and a warning about the same item cannot contradict each other."""
    for (topic, day), brief in briefs.items():
        by_id = {w.id: w for w in brief.warnings}
        for inc in brief.increments:
            for wid in inc.warnings:
                warning = by_id.get(wid)
                if warning is None:
                    continue
                if inc.status == "net_new":
                    assert "不计入当日 NET-new" not in warning.text + (warning.action or ""), (topic, day, inc.title)
            reason = inc.credibility_reason or ""
            if any(by_id.get(w) and by_id[w].kind == "title_mismatch" for w in inc.warnings):
                assert "核对一致" not in reason, (topic, day, inc.title)
        # The arXiv list calls NET-new or integrated only what the increments carry.
        increment_ids = {i for inc in brief.increments for i in inc.arxiv}
        called = {a.id for a in brief.arxiv if a.status in ("net_new", "integrated")}
        assert called <= increment_ids, (topic, day, sorted(called - increment_ids))
