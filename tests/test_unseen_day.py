"""Judgement on a day and vault no rule was written against (``tests/unseen_vault.py``), offline, end to end."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from agents.integrator.cluster import cluster_items
from agents.scanner.window import scan_window
from state.models import Brief
from state.settings import settings_from_env
from state.vault_config import load_vault_config
from tests.unseen_vault import DAY, write_unseen_vault
from workflows import api


@pytest.fixture(scope="module")
def unseen(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Brief]:
    root = write_unseen_vault(tmp_path_factory.mktemp("unseen") / "vault")
    settings = settings_from_env(root, root / ".baton", offline=True, formats=("json", "md"))
    ctx = api.open_context(settings)
    outcome = api.run_brief(ctx, "serving", date.fromisoformat(DAY))
    path = next(Path(d) for d in outcome.drafts if d.endswith(".json"))
    ctx.db.dispose()
    return root, Brief.model_validate_json(path.read_text(encoding="utf-8"))


def _where(brief: Brief, arxiv_id: str) -> tuple[str, dict | None]:
    if any(arxiv_id in inc.arxiv for inc in brief.increments):
        return "increment", None
    for name in ("carried", "below_cut", "excluded"):
        for entry in getattr(brief, name):
            if arxiv_id in entry.get("arxiv", []):
                return name, entry
    return "nowhere", None


def test_the_core_item_is_an_increment(unseen) -> None:
    assert _where(unseen[1], "2703.04417")[0] == "increment"


def test_content_beats_the_card_category(unseen) -> None:
    place, _ = _where(unseen[1], "2703.05121")  # carded "training", about KV offload
    assert place in ("increment", "below_cut")
    place, entry = _where(unseen[1], "2703.08456")  # carded "serving", about grading essays
    assert place == "excluded" and "3102" in entry["reason"]


def test_a_living_document_section_counts_without_a_keyword(unseen) -> None:
    assert _where(unseen[1], "2703.06230")[0] in ("increment", "below_cut")


@pytest.mark.parametrize(("arxiv_id", "words"), [
    ("2703.07342", ("training", "归入")),  # placed by its scout in another topic
    ("2703.09561", ("丢弃",)),  # discarded by its scout
    ("2703.01999", ("转交", "training")),  # forwarded to another topic
])
def test_the_scouts_marks_exclude_with_their_evidence(unseen, arxiv_id: str, words: tuple[str, ...]) -> None:
    place, entry = _where(unseen[1], arxiv_id)
    assert place == "excluded", place
    assert all(w in entry["reason"] for w in words), entry["reason"]
    assert "inbox/" in entry["reason"]  # the evidence names where the mark stands


def test_a_carried_item_is_listed_not_sold_as_new(unseen) -> None:
    place, entry = _where(unseen[1], "2701.11873")
    assert place == "carried" and entry["reason"]


def test_a_rated_section_without_a_link_is_an_item(unseen) -> None:
    brief = unseen[1]
    digests = [inc for inc in brief.increments if inc.key and inc.key.startswith("note:")]
    digests += [x for x in brief.below_cut if x["key"].startswith("note:")]
    assert digests, "the admission-queue section is in no list"


def test_every_cluster_ends_in_exactly_one_place(unseen) -> None:
    root, brief = unseen
    scan = scan_window(load_vault_config(root), "serving", date.fromisoformat(DAY))
    keys = [i.key for i in brief.increments] + [x["key"] for name in ("carried", "below_cut", "excluded")
                                                for x in getattr(brief, name)]
    assert len(keys) == len(set(keys))
    for item in cluster_items(scan.mentions, scan.files, scan.cards, scan.queue.rows if scan.queue else []):
        assert item.key in keys, item.key


def test_the_base_is_the_living_document_as_of_the_window_end(unseen) -> None:
    base = unseen[1].base_doc
    assert (base.version, base.current_version) == ("7", "8")
    # The §4 bullet merged on the day itself is not yet anchored; the one of the day before is.
    relations = " ".join(inc.relation or "" for inc in unseen[1].increments)
    assert "Weighted fair queueing" not in relations


def test_no_rule_knows_this_vaults_names() -> None:
    """No string in the judgement code names an agent, topic or product of a vault (docstrings aside)."""
    import ast
    import re

    names = {"serving", "otto", "mei", "prefixmesh", "inference", "llm-infra", "jay", "tom", "spark", "flyp",
             "stephen", "vllm", "sglang", "mooncake"}
    root = Path(__file__).parent.parent / "agents"
    found = []
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef)) and n.body
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
                words = set(re.findall(r"[a-z][a-z.-]*[a-z]", node.value.lower()))
                found.extend(f"{path.relative_to(root)}: {w}" for w in words & names)
    assert not found, found


def test_instructions_in_any_wording_are_reported_and_a_quoted_one_is_not(unseen) -> None:
    found = [w for w in unseen[1].warnings if w.kind == "instruction_in_source"]
    assert len(found) == 2
    assert any("Assistant" in w.text for w in found) and any("摘要工具" in w.text for w in found)
    assert not any("攻击者" in w.text for w in found)


def test_an_overdue_promise_names_who_promised(unseen) -> None:
    [late] = [w for w in unseen[1].warnings if w.kind == "promise_overdue"]
    assert late.subject == "Lattice-KV" and "Lattice-KV" in late.text and "2027-02" in late.text


def test_a_scouts_caveat_on_an_increment_is_a_numbered_warning(unseen) -> None:
    brief = unseen[1]
    [caveat] = [w for w in brief.warnings if w.kind == "caveat" and "2703.04417" in (w.subject or "") + w.text]
    assert caveat.register and caveat.register.startswith("D")
    # The register ended at D10 before the window: the day's new numbers follow it, without a gap.
    new = sorted(int(w.register[1:]) for w in brief.warnings if w.register and not w.carried_from)
    assert new == list(range(11, 11 + len(new))) and int(caveat.register[1:]) in new
    [increment] = [inc for inc in brief.increments if "2703.04417" in inc.arxiv]
    assert caveat.id in increment.warnings


def test_a_note_that_says_it_holds_nothing_for_the_topic_gives_no_digest(tmp_path: Path) -> None:
    root = write_unseen_vault(tmp_path / "vault")
    (root / "inbox" / "lin" / f"{DAY}T0930-lin-ops.md").parent.mkdir(parents=True, exist_ok=True)
    (root / "inbox" / "lin" / f"{DAY}T0930-lin-ops.md").write_text(
        "# lin · ops radar\n> 本轮 serving 相关度低，主要给 training 线\n\n## 线索1 数据加载器 ⭐⭐⭐⭐\n"
        "- serving 集群复用了同一套 prefix 缓存配置\n- shard 预取线程 8 → 16，吞吐 +20%\n", encoding="utf-8")
    settings = settings_from_env(root, root / ".baton", offline=True, formats=("json",))
    ctx = api.open_context(settings)
    outcome = api.run_brief(ctx, "serving", date.fromisoformat(DAY))
    ctx.db.dispose()
    brief = Brief.model_validate_json(Path(outcome.drafts[0]).read_text(encoding="utf-8"))
    [entry] = [x for x in brief.excluded if x["key"].endswith("lin-ops.md")]
    assert "相关度低" in entry["reason"]
    assert not any(inc.key and inc.key.endswith("lin-ops.md") for inc in brief.increments)


def test_a_doubt_about_a_cards_record_is_said_on_the_item_not_registered(unseen) -> None:
    brief = unseen[1]
    assert not any("2703.05121" in (w.subject or "") and "出处" in w.text for w in brief.warnings)
    [aside] = [a for a in brief.set_aside if "尚待核对" in a["text"]]
    assert "元数据" in aside["reason"]
    [increment] = [inc for inc in brief.increments if "2703.05121" in inc.arxiv]
    assert "元数据待核" in increment.credibility_reason and "FAST" in increment.credibility_reason


def test_a_caveat_naming_a_highly_rated_item_below_the_cut_is_kept_and_a_low_rated_ones_is_set_aside(
        tmp_path: Path) -> None:
    root = write_unseen_vault(tmp_path / "vault")
    topics = root / "topics.toml"
    topics.write_text(topics.read_text(encoding="utf-8").replace("increments = [2, 6]", "increments = [1, 1]"),
                      encoding="utf-8")
    (root / "inbox" / "vera").mkdir(parents=True, exist_ok=True)
    (root / "inbox" / "vera" / f"{DAY}T1400-vera-radar.md").write_text(
        "# vera · radar\n\n## 1. Quokka-R：prefix 缓存分层 ⭐⭐⭐⭐\n"
        "- 官方博客：TTFT 降 38%，serving 侧 prefix 命中率 70%\n- 厂商数字，独立复测还没看到\n\n"
        "## 2. 线索汇总\n- **Quokka-R**（Acme）：定价页 https://acme.dev/models/quokka-r ⭐⭐⭐⭐\n"
        "- **Lumen-2**（Beta）：https://beta.dev/lumen-2 ⭐⭐\n"
        "- Lumen-2 的 prefix 复用 +15%，未复现\n", encoding="utf-8")
    settings = settings_from_env(root, root / ".baton", offline=True, formats=("json",))
    ctx = api.open_context(settings)
    outcome = api.run_brief(ctx, "serving", date.fromisoformat(DAY))
    ctx.db.dispose()
    brief = Brief.model_validate_json(Path(outcome.drafts[0]).read_text(encoding="utf-8"))
    # The rated section and the link line naming Quokka-R are one item, whichever list it ends in.
    places = [inc.key for inc in brief.increments] + [x["key"] for x in brief.below_cut]
    assert places.count("url:https://acme.dev/models/quokka-r") == 1
    assert not any(key.endswith("vera-radar.md") for key in places)  # no digest left holding its section
    # PrefixMesh (⭐⭐⭐⭐) is below the cut of one: its scout's caveat is still reported.
    assert not any("2703.04417" in inc.arxiv for inc in brief.increments)
    assert any(w.kind == "caveat" and w.subject == "2703.04417" for w in brief.warnings)
    # Lumen-2 (⭐⭐) below the cut: its caveat is set aside, listed with the reason.
    assert not any(w.kind == "caveat" and w.subject == "Lumen-2" for w in brief.warnings)
    assert any(a["subject"] == "Lumen-2" and "未入选" in a["reason"] for a in brief.set_aside)


def test_the_source_count_is_the_rows_of_the_source_table_a_truncated_note_included(tmp_path: Path) -> None:
    import re

    root = write_unseen_vault(tmp_path / "vault")
    (root / "inbox" / "vera").mkdir(parents=True, exist_ok=True)
    # Cut off mid-sentence (no final newline): read as far as it goes, and said so.
    (root / "inbox" / "vera" / f"{DAY}T1500-vera-serving.md").write_bytes(
        "# vera\n\n## prefix 复用\n- serving 侧 prefix 命中率 70%，TTFT 降到 90 ms，抄完表格后补上各".encode())
    settings = settings_from_env(root, root / ".baton", offline=True, formats=("md",))
    ctx = api.open_context(settings)
    outcome = api.run_brief(ctx, "serving", date.fromisoformat(DAY))
    ctx.db.dispose()
    text = Path(outcome.drafts[0]).read_text(encoding="utf-8")
    said = int(re.search(r"来源：读入 (\d+) 份", text).group(1))
    table = text.split("一、检查过的来源清单", 1)[1].split("未读入的文件", 1)[0]
    rows = [line for line in table.splitlines() if re.match(r"^(?:inbox|organized)/", line)]
    assert said == len(rows)
    [row] = [line for line in rows if "vera-serving" in line]
    assert "截断" in row
    unread = text.split("未读入的文件", 1)[1].split("\n\n", 1)[0]
    assert "vera-serving" not in unread
