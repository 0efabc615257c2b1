"""Texts of the demo vault's ``organized/`` files: paper cards, living documents, the work queue, the register.

Pure functions of their arguments, so the vault is byte-for-byte reproducible.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta

from workflows.demo_texts import BASE_VERSION, EXECUTOR, SECTIONS, Paper, section_of, wall_time

__all__ = ["card", "bullet", "living_doc", "queue_section", "queue_file", "register_row", "register_file"]


def card(paper: Paper, ingested: str, *, broken: bool = False) -> str:
    """A paper card; ``broken`` leaves the title unquoted so its colon breaks the YAML."""
    title = paper.title if broken else f'"{paper.title}"'
    secondary = {"inference": "llm-infra", "llm-infra": "inference", "multimodal": "evaluation"}.get(paper.primary)
    if paper.primary in ("inference", "llm-infra"):
        relation = (f"inference {section_of('inference', paper.section)} 与 llm-infra "
                    f"{section_of('llm-infra', paper.section)} 相关；是否 NET-new 由当日 E1 判断。")
    else:
        relation = f"主分类 {paper.primary}，与 inference / llm-infra 主轴无直接关系。"
    return (
        f"---\ncard: {paper.card}\narxiv: \"{paper.id}\"\ntitle: {title}\nprimary: {paper.primary}\n"
        + (f"secondary: {secondary}\n" if secondary else "")
        + f"kind: {paper.kind}\ningested: {ingested}\n"
        f"source: inbox/tom/_candidates/{ingested[:10]}-hf-daily-candidates.json\n"
        "citations: {s2: 0, openalex: 0, influential: 0}\nvenue: null\nstatus: classified\n---\n"
        f"## 摘要（中文）\n\n{paper.name}（{paper.title}）：{paper.gist}。作者给出开源实现与复现脚本，"
        "评测以单机多卡为主。\n\n## 要点\n\n"
        f"- 方法：{paper.gist}\n- 形态：{paper.kind}\n- 条件：H100 80GB 单节点，跨节点未测\n\n"
        f"## 与活文档关系\n\n{relation}\n"
    )


def bullet(paper: Paper, version: int, day: date) -> str:
    """One anchored bullet of a living document."""
    return f"- {paper.name}（arXiv {paper.id}）：{paper.gist}（paper_card {paper.card}）〔v{version} · {day}〕"


def _seed_bullets(topic: str, version: int, day: date) -> dict[str, list[str]]:
    mark = f"〔v{version} · {day}〕"
    engine = [
        f"- vLLM v0.30.0（{day - timedelta(days=20)}）：Model Runner V2、MXFP8 KV（SM100）；前一版 v0.29.0"
        f"（来源：vllm-project/vllm releases）{mark}",
        f"- SGLang v0.5.20：RadixAttention 前缀树缓存 + 原生 multi-LoRA batching（来源：sgl-project/sglang releases）{mark}",
        f"- TensorRT-LLM v1.2.1：PyTorch 后端成为默认路径（来源：NVIDIA/TensorRT-LLM releases）{mark}",
        f"- TGI 进入 maintenance mode，新部署不再选型（来源：huggingface/text-generation-inference README）{mark}",
    ]
    pd = [f"- vLLM disaggregated prefill（NixlConnector）：prefill 与 decode 实例经 NIXL 传输 KV"
          f"（来源：vLLM docs · Disaggregated Prefilling）{mark}"]
    return {section_of(topic, "engine"): engine, section_of(topic, "pd"): pd}


def living_doc(topic: str, version: int, updated: date, seed_day: date, bullets: dict[str, list[str]]) -> str:
    """The living document of ``topic``: seed bullets, then one bullet per anchored paper."""
    seeds = _seed_bullets(topic, BASE_VERSION[topic], seed_day)
    parts = [f"---\ntopic: {topic}\nversion: {version}\nupdated: {wall_time(updated, '23:50')}\n---\n\n"
             f"# {topic} · 活文档\n\n"
             f"> 维护链路：{EXECUTOR[topic][0]} E1 预消化（每日 {EXECUTOR[topic][1]}）→ E2 当晚合入。"
             "每条 bullet = 一个已锚入条目（论文带 arXiv 号，工程事实带来源），行尾〔锚入版本 · 锚入日期〕。\n"
             "> 矛盾与待核统一登记于 `organized/registry/contradictions.md`（D 编号）；文内只标编号，不展开。\n"]
    for section in SECTIONS[topic].values():
        lines = seeds.get(section, []) + bullets.get(section, [])
        parts.append(f"\n## {section}\n\n" + "".join(f"{line}\n" for line in lines))
    return "".join(parts)


def queue_section(day: date, rows: list[tuple[Paper, str]]) -> str:
    """One work-queue snapshot, taken at 08:00 of ``day``."""
    body = "".join(f"| {rank} | {p.id} | {p.title} | {p.card or '—'} | {flag} |\n"
                   for rank, (p, flag) in enumerate(rows, 1))
    return f"## {day} 08:00\n\n| rank | arXiv | title | card | flag |\n|---|---|---|---|---|\n{body}"


def queue_file(sections: Iterable[str]) -> str:
    """The work-queue file, newest snapshot first."""
    return ("# work-queue\n\n精读队列快照，按时间倒序追加。flag：Top 0.5 = 当日最高优先精读；Top 15 = 待深度解读。\n\n"
            + "\n".join(sections))


def register_row(number: str, paper: Paper, day: date, status: str) -> str:
    """One row of the contradiction register."""
    return (f"| {number} | {paper.name} arXiv {paper.id}「{paper.gist}」仅在单卡 H100 测得，多节点与多租户条件未验证 "
            f"| ⚠⚠⚬ 中 | {day} | {status} | inbox/tom/{day}-inference-e1prep.md |")


def register_file(updated: date, rows: list[str], last: int) -> str:
    """The contradiction register as of ``updated`` 22:30."""
    first = int(rows[0].split("|")[1].strip()[1:]) if rows else last + 1
    return (f"---\nupdated: {wall_time(updated, '22:30')}\nrange: D{first}-D{last}\n---\n\n"
            "# 矛盾与待核登记簿（contradictions register）\n\n"
            f"> 快照 {updated} 22:30（tom {updated} inference-e1prep 22:20 之后、E2 之前）。\n"
            "> 新编号顺延，一个编号只指一件事；状态：`待核` / `沿用` / `已闭合 YYYY-MM-DD`。\n"
            "> 风险标记：⚠⚠⚬ 中 · ⚠⚬⚬ 中低 · ⚠⚬ 低。\n\n"
            "| D | 内容 | 风险 | 首次提出 | 状态 | 来源 |\n|---|---|---|---|---|---|\n"
            + "".join(f"{row}\n" for row in rows)
            + f"\n统计：共 {len(rows)} 件。下一编号：D{last + 1}\n")
