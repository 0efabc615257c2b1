"""The demo vault's vocabulary and its top-level files: papers, sections, name parts, topics.toml, schedule.toml.

What goes into ``inbox/`` is written by ``demo_inbox``, what goes into
``organized/`` by ``demo_organized``; ``demo_vault`` puts them in place. Pure
values and functions, so the vault is byte-for-byte reproducible. Content is
invented; engine names are real for keyword relevance.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

__all__ = [
    "Paper", "SECTIONS", "BASE_VERSION", "EXECUTOR", "PAPER_TEMPLATES", "NAME_HEADS", "NAME_TAILS", "ADJECTIVES",
    "SLUGS", "COORD_VARIANTS", "TOPICS_TOML", "SCHEDULE_TOML", "README", "section_of", "wall_time",
]


@dataclass
class Paper:
    """A fictional paper and, once carded, its card number and path."""

    id: str
    name: str
    title: str
    primary: str
    kind: str
    section: str
    gist: str
    card: int = 0
    path: str = ""


SECTIONS: dict[str, dict[str, str]] = {
    "inference": {"engine": "§1.1 推理引擎格局", "quant": "§1.4 量化与 FP8 KV 生产化", "sched": "§2.2 调度理论",
                  "pd": "§2.3 Prefill-Decode Disaggregation", "kv": "§3.3 Cache Compression", "spec": "§4.1 投机解码"},
    "llm-infra": {"engine": "§1.1 推理引擎", "sched": "§1.2 推理调度", "kv": "§1.3 KV Cache", "quant": "§1.4 量化",
                  "pd": "§1.5 分离式部署", "cluster": "§2.1 集群与容量"},
}
BASE_VERSION = {"inference": 300, "llm-infra": 120}
EXECUTOR = {"inference": ("Tom", "22:20"), "llm-infra": ("spark", "18:40")}

PAPER_TEMPLATES: dict[str, list[tuple[str, str, str, str]]] = {
    "inference": [
        ("{n}: {adj} KV Cache Eviction for Long-Context LLM Serving", "kv", "method",
         "{adj_zh} KV 淘汰策略，长上下文下按注意力贡献保留 block，KV 显存降低 {x}%"),
        ("{n}: Speculative Decoding with {adj} Draft Trees", "spec", "method",
         "草稿树按接受率{adj_zh}扩展，EAGLE 类草稿在 vLLM 上端到端加速 {y}×"),
        ("{n}: Prefix-Aware Batching for Multi-Turn LLM Inference", "sched", "system",
         "多轮对话按共享前缀分批，prefix caching 命中率提升，TTFT p99 降低 {x}%"),
        ("{n}: FP8 Attention Kernels for Disaggregated Prefill", "pd", "system",
         "FP8 attention kernel 用于分离式 prefill，prefill 吞吐提升 {y}×，decode 侧不变"),
        ("{n}: Calibration-Free FP8 Quantization of the KV Cache", "quant", "method",
         "免校准 FP8 KV 量化，H100 上精度损失 {z}%"),
    ],
    "llm-infra": [
        ("{n}: Tiered KV Cache Offload to NVMe over RDMA", "kv", "system",
         "GPU→CPU→NVMe 三级 KV 卸载，RDMA 直通，长上下文 TTFT 降低 {x}%"),
        ("{n}: {adj} Capacity Planning for LLM Serving Clusters", "cluster", "method",
         "按请求几何{adj_zh}估算集群 GPU 容量，预测误差 {z}%"),
        ("{n}: Topology-Aware Placement of Serving Replicas", "sched", "system",
         "按 NVLink / RDMA 拓扑放置推理副本，跨节点 KV 传输减少 {x}%"),
        ("{n}: Elastic HBM Pooling for Long-Context Serving", "cluster", "system",
         "跨卡 HBM 弹性池化，长上下文请求不再受单卡显存限制，goodput 提升 {x}%"),
    ],
    "multimodal": [
        ("{n}: Grounding Video Tokens in Hour-Long Scenes", "engine", "benchmark", "小时级视频的 region 级 grounding 基准"),
        ("{n}: {adj} Region-Level Visual Reasoning with Sparse Tokens", "engine", "method", "稀疏视觉 token 的区域级推理"),
    ],
    "agent": [
        ("{n}: Auditing Tool-Call Trajectories of Coding Agents", "engine", "benchmark", "coding agent 工具调用轨迹审计基准"),
        ("{n}: {adj} Memory Routing for Long-Horizon Agents", "engine", "method", "长程 agent 的{adj_zh}记忆路由"),
    ],
}
NAME_HEADS = ("Radix", "Tidal", "Helix", "Orbit", "Strata", "Mosaic", "Lattice", "Ember", "Cinder", "Quill",
              "Vesper", "Aster", "Nimbus", "Prism", "Kestrel", "Marlin", "Cobalt", "Juniper", "Sable", "Tundra")
NAME_TAILS = ("KV", "Serve", "Spec", "Cache", "Route", "Shard", "Fuse", "Quant", "Flow", "Pipe", "Batch", "Page")
ADJECTIVES = (("Adaptive", "自适应"), ("Learned", "学习式"), ("Budgeted", "预算约束"), ("Hierarchical", "分层"),
              ("Online", "在线"))
SLUGS = ("inference-kv-cache", "serving-sched", "specdec-fp8", "pd-disagg", "kv-offload", "engine-release")
COORD_VARIANTS = ("check-noon", "noon", "morning", "noon-baton")
TOPICS_TOML = """\
# Topics that get a daily E1 brief (generated demo vault).

[topic.inference]
title = "inference"
living_doc = "organized/knowledge/inference.md"
executor = "tom"
slot = "inference-e1prep"
window_end = "22:20"        # the brief covers the 24 hours before this time
increments = [3, 8]
keywords = ["vLLM", "SGLang", "TensorRT-LLM", "TRT-LLM", "llama.cpp", "Ollama", "TGI",
            "KV cache", "KV Cache", "prefix caching", "RadixAttention", "PagedAttention",
            "prefill", "decode", "TTFT", "ITL", "throughput", "speculative", "EAGLE",
            "FlashInfer", "FP8", "quantization", "量化", "推理", "投机解码", "Disaggregat",
            "Mooncake", "llm-d", "Dynamo", "LMCache", "MLA", "attention"]

[topic.llm-infra]
title = "llm-infra"
living_doc = "organized/knowledge/llm-infra.md"
executor = "spark"
slot = "llm-infra-e1prep"
window_end = "18:40"
increments = [3, 8]
keywords = ["KV cache", "KV Cache", "GPU", "HBM", "cluster", "集群", "调度", "scheduling",
            "serving", "推理", "量化", "quantization", "offload", "NVMe", "RDMA", "NIXL",
            "Mooncake", "llm-d", "Dynamo", "vLLM", "SGLang", "training", "训练", "并行",
            "capacity", "容量", "long context", "长上下文", "sparse attention"]
"""

SCHEDULE_TOML = """\
# Baton slots of the research team (generated demo vault). Times are local to `timezone`.

timezone = "Asia/Shanghai"
check_at = "12:45"          # the daily coordination check
""" + "".join(
    f'\n[[slot]]\nagent = "{agent}"\nname = "{name}"\npattern = "{pattern}"\ndue = "{due}"\n'
    + (f'topic = "{topic}"\n' if topic else "") + f'alert = ["{alert}"]\n'
    for agent, name, pattern, due, topic, alert in (
        ("tom", "inference-e1prep", "{date}-inference-e1prep.md", "22:30", "inference", "stephen"),
        ("tom", "hf-daily", "{date}-0900-hf-daily-*.md", "09:30", None, "stephen"),
        ("spark", "llm-infra-e1prep", "{date}-llm-infra-e1prep.md", "12:00", "llm-infra", "stephen"),
        ("spark", "agent-e1prep", "{date}-agent-e1prep.md", "12:00", None, "stephen"),
        ("flyp", "risk-e1prep", "{date}-risk-e1prep.md", "21:00", None, "stephen"),
        ("stephen", "coordination", "{date}-1245-stephen-coordination-*.md", "13:15", None, "lead"),
    )
)

README = """\
# Demo vault (generated)

A synthetic vault written by `baton` (workflows/demo_vault.py) for `make demo` and the tests. It follows the
vault format of the team's research vault; all papers, numbers and notes are invented. Every defect in it
is planted on purpose and listed in `.baton-demo.json`. Regenerate it rather than editing it.
"""


def section_of(topic: str, key: str) -> str:
    """The living-document section of ``topic`` that a paper of section kind ``key`` belongs in."""
    return SECTIONS[topic].get(key) or SECTIONS[topic]["sched"]


def wall_time(day: date, hhmm: str) -> str:
    """``day`` at ``hhmm`` as the vault writes times (ISO, Asia/Shanghai offset)."""
    return f"{day.isoformat()}T{hhmm}:00+08:00"
