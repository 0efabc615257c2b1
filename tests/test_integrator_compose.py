"""``integrate`` end to end on a tiny hand-made vault (always runs, no sample vault needed)."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from agents.integrator.compose import integrate
from agents.integrator.markdown import render_markdown
from agents.integrator.summary import today_counts
from agents.scanner.window import scan_window
from state.models import BriefWarning
from state.vault_config import load_vault_config

TOPICS = """[topic.inference]
title = "inference"
living_doc = "organized/knowledge/inference.md"
executor = "tom"
slot = "inference-e1prep"
window_end = "22:20"
increments = [3, 8]
keywords = ["KV cache", "vLLM", "prefill", "decode", "TTFT", "推理"]
"""
SCHEDULE = """timezone = "Asia/Shanghai"
[[slot]]
agent = "tom"
name = "inference-e1prep"
pattern = "{date}-inference-e1prep.md"
due = "22:30"
topic = "inference"
"""
LIVING = """---
version: 10
updated: 2026-09-28T23:50:00+08:00
---
## §1.1 推理引擎格局
- vLLM v0.30.0：Model Runner V2〔v9 · 2026-09-22〕
## §3.3 Cache Compression
- Mooncake（arXiv 2609.23130）：KV cache hit 92.2%〔v9 · 2026-09-27〕
"""
NOTE = """# jay
## arXiv 2609.31415 · KV cache reuse evaluation
https://arxiv.org/abs/2609.31415v1
- RAG 场景 KV cache 复用的精度损失被低估，prefill 节省 40%

## arXiv:2609.23130 · Control Plane 全文
- P2P KV 共享：TTFT 7.85 s → 2.56 s，vLLM 推理
- 已记过：KV cache hit 92.2%

## 多模态
- arXiv 2609.35743 InfiniHand 手部数据集
"""
CARD = """---
card: 1558
arxiv: "2609.35743"
title: "InfiniHand"
primary: multimodal
kind: benchmark
ingested: 2026-09-29T07:05+08:00
status: classified
---
摘要
"""


def _vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    (root / "inbox/jay").mkdir(parents=True)
    (root / "inbox/tom").mkdir(parents=True)
    (root / "organized/knowledge").mkdir(parents=True)
    (root / "organized/paper_cards").mkdir(parents=True)
    (root / "topics.toml").write_text(TOPICS, encoding="utf-8")
    (root / "schedule.toml").write_text(SCHEDULE, encoding="utf-8")
    (root / "organized/knowledge/inference.md").write_text(LIVING, encoding="utf-8")
    (root / "organized/paper_cards/1558-2609-35743.md").write_text(CARD, encoding="utf-8")
    (root / "inbox/jay/2026-09-29T1505-jay-evening.md").write_text(NOTE, encoding="utf-8")
    return root


def write_register(root: Path, *rows: str) -> None:
    """The vault's contradiction register with these rows ("| D279 | text | risk | raised | status | source |")."""
    (root / "organized/registry").mkdir(parents=True, exist_ok=True)
    (root / "organized/registry/contradictions.md").write_text(
        "| D | 内容 | 风险 | 首次提出 | 状态 | 来源 |\n|---|---|---|---|---|---|\n" + "".join(f"{r}\n" for r in rows),
        encoding="utf-8")


def test_integrate_thin_day_is_not_padded(tmp_path: Path):
    cfg = load_vault_config(_vault(tmp_path))
    scan = scan_window(cfg, "inference", date(2026, 9, 29))
    warning = BriefWarning(id="C1", kind="single_source", text="arXiv 2609.31415 只有 jay 一个来源")
    history = [{"jay": 1, "tom": 0}] * 14
    brief = integrate(scan, [warning], None, history, scan.thread)
    by_id = {i: inc for inc in brief.increments for i in inc.arxiv}
    assert set(by_id) == {"2609.31415", "2609.23130"}  # two real increments, no padding to three
    assert by_id["2609.31415"].status == "net_new" and by_id["2609.31415"].warnings == ["C1"]
    assert by_id["2609.23130"].status == "integrated" and "7.85 s" in by_id["2609.23130"].argument
    assert by_id["2609.23130"].section == "§3.3"
    assert any(x["paper_card"] == 1558 for x in brief.excluded)
    assert "偏薄" in brief.honesty and "真实情况" in brief.honesty
    assert today_counts(scan) == {"jay": 1}
    markdown = render_markdown(brief)
    assert "InfiniHand" in markdown and "增量 3" not in markdown


def test_integrate_names_a_silent_inbox(tmp_path: Path):
    cfg = load_vault_config(_vault(tmp_path))
    scan = scan_window(cfg, "inference", date(2026, 9, 29))
    brief = integrate(scan, [], None, [{"jay": 1, "tom": 3}] * 14, scan.thread)
    assert "tom" in brief.honesty and "静默" in brief.honesty
