"""Generate the demo vault: a synthetic, deterministic vault with every trap of the vault README planted.

The layout follows the vault format spec (the sample vault's README); the content is invented (fictional papers in the
``YYMM.NNNNN`` range of each day, real engine names for keyword relevance). Every trap sits at a
place fixed relative to ``end`` and is recorded in the returned ``DemoManifest``
(``workflows.demo_manifest``), so tests and the ``make demo`` run can assert on it without
hard-coding paths or ids. The texts come from ``demo_inbox`` (notes) and ``demo_organized``
(cards, living documents, queue, register).
"""

from __future__ import annotations

import calendar
import json
import random
import shutil
from collections.abc import Iterator
from datetime import date, timedelta
from pathlib import Path

from state.errors import UsageError
from workflows import demo_inbox as inbox
from workflows import demo_organized as organized
from workflows import demo_texts as tx
from workflows.demo_manifest import (
    DemoManifest,
    Duplicate,
    FalseAlarm,
    Instruction,
    LateSlot,
    MalformedId,
    MissingSlot,
    MisspelledTitle,
    NumberConflict,
    Promise,
    TwoNumbers,
    VersionConflict,
)

__all__ = ["MARKER", "generate_demo_vault"]

MARKER = ".baton-demo.json"
_OWNED = ("inbox", "organized", "topics.toml", "schedule.toml", "README.md", MARKER)
_MIN_DAYS, _MAX_DAYS, _STREAK = 8, 3660, 5
_MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")


def _swap_last(ident: str) -> str:
    return ident[:-2] + ident[-1] + ident[-2]


def _month_end(day: date) -> date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


class _Builder:
    """Writes the vault day by day; keeps only what the closing files (doc, queue, register) need."""

    def __init__(self, root: Path, end: date, days: int, seed: int) -> None:
        self.root, self.end, self.days, self.seed = root, end, days, seed
        self.rng = random.Random(seed)
        self.start = end - timedelta(days=days - 1)
        self.streak_days = [end - timedelta(days=k) for k in range(_STREAK, 0, -1)]
        self.missing_day = end - timedelta(days=3)
        self.card_no = 1600
        self.d_no = 180
        self.files = 0
        self.used_ids: set[str] = set()
        self.used_names: set[str] = set()
        self.history: dict[date, list[tx.Paper]] = {}
        self.bullets: dict[str, dict[str, list[str]]] = {t: {} for t in tx.SECTIONS}
        self.queue: list[str] = []
        self.register: list[str] = []

    # -- low level -------------------------------------------------------------------------------

    def write(self, rel: str, data: str | bytes) -> str:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
        self.files += 1
        return rel

    def new_id(self, day: date, *, last_zero: bool = False) -> str:
        while True:
            seq = self.rng.randrange(1, 39999)
            if last_zero:
                seq = seq // 10 * 10 or 10
            ident = f"{day:%y%m}.{seq:05d}"
            if ident not in self.used_ids:
                self.used_ids.add(ident)
                return ident

    def swappable_id(self, day: date) -> str:
        """An id whose last two digits differ, with the swapped spelling reserved too."""
        while True:
            ident = self.new_id(day)
            if ident[-1] != ident[-2] and _swap_last(ident) not in self.used_ids:
                self.used_ids.add(_swap_last(ident))
                return ident

    def new_paper(self, day: date, primary: str) -> tx.Paper:
        title_t, section, kind, gist_t = self.rng.choice(tx.PAPER_TEMPLATES[primary])
        base = self.rng.choice(tx.NAME_HEADS) + self.rng.choice(tx.NAME_TAILS)
        name, again = base, 1
        while name in self.used_names:
            again += 1
            name = f"{base}-{again}"
        self.used_names.add(name)
        adj, adj_zh = self.rng.choice(tx.ADJECTIVES)
        values = {"n": name, "adj": adj, "adj_zh": adj_zh, "x": self.rng.randrange(18, 64),
                  "y": round(self.rng.uniform(1.3, 3.4), 1), "z": round(self.rng.uniform(0.3, 4.5), 1)}
        return tx.Paper(self.new_id(day), name, title_t.format(**values), primary, kind, section,
                      gist_t.format(**values))

    def card(self, paper: tx.Paper, ingested: str, *, broken: bool = False) -> str:
        self.card_no += 1
        paper.card = self.card_no
        yymm, seq = paper.id.split(".")
        rel = f"organized/paper_cards/{paper.card}-{yymm}-{seq}.md"
        paper.path = self.write(rel, organized.card(paper, ingested, broken=broken))
        return rel

    # -- history ---------------------------------------------------------------------------------

    def history_day(self, day: date, index: int) -> None:
        rng = self.rng
        papers = [self.new_paper(day, "inference"), self.new_paper(day, "llm-infra"),
                  self.new_paper(day, rng.choice(("multimodal", "agent", "inference")))]
        for paper in papers:
            self.card(paper, f"{day.isoformat()}T06:10+08:00")
        self.history[day] = papers
        flags = ["Top 0.5", "Top 15", rng.choice(("Top 15", ""))]
        self.queue.append(organized.queue_section(day, [(p, f) for p, f in zip(papers, flags, strict=True)]))
        core = [p for p in papers if p.primary in ("inference", "llm-infra")]
        notes = list(self.history_notes(day, index, papers))  # (path, HH:MM), in time order
        raised = None
        if index % 2 == 0:
            self.d_no += 1
            raised = f"D{self.d_no}"
            age = (self.end - day).days
            status = "待核" if age <= 6 else ("沿用" if index % 4 == 0 else f"已闭合 {day + timedelta(days=3)}（作者补充附录）")
            self.register.append(organized.register_row(raised, core[0], day, status))
        for topic, agent, hhmm in (("inference", "tom", "22:20"),
                                   ("llm-infra", "spark", "18:40" if day in self.streak_days else "11:30")):
            version = tx.BASE_VERSION[topic] + index + 1
            sources = [path for path, at in notes if at <= hhmm]
            self.write(f"inbox/{agent}/{day}-{topic}-e1prep.md",
                       inbox.brief(topic, agent, day, hhmm, version - 1, core, sources,
                                raised if topic == "inference" else None, self.gap_of(day) if agent == "spark" else 0))
            for paper in core:
                section = tx.section_of(topic, paper.section)
                self.bullets[topic].setdefault(section, []).append(organized.bullet(paper, version, day))

    def history_notes(self, day: date, index: int, papers: list[tx.Paper]) -> Iterator[tuple[str, str]]:
        rng = self.rng
        yield self.write(f"inbox/tom/{day}-0900-hf-daily-{day}.md", inbox.hf_daily(day, papers, rng)), "09:00"
        yield self.write(f"inbox/jay/{day}T0935-jay-morning-briefing-{rng.choice(tx.SLUGS)}.md",
                         inbox.jay_morning(day, papers, rng)), "09:35"
        if index % 3 == 0:
            yield self.write(f"inbox/jay/{day}_jay-scratch-{rng.choice(tx.SLUGS)}.md",
                             inbox.jay_scratch(day, papers[1])), "11:05"
        yield self.write(f"inbox/spark/{day}-agent-e1prep.md", inbox.agent_brief(day)), "11:40"
        yield self.write(f"inbox/stephen/{day}-1245-stephen-coordination-{tx.COORD_VARIANTS[index % 4]}.md",
                         inbox.coordination(day, self.gap_of(day), day - timedelta(days=1) == self.missing_day,
                                         None)), "12:45"
        yield self.write(f"inbox/jay/{day}-1620-csdn-inference-engineering-{_MONTHS[day.month - 1]}{day:%d}.md",
                         inbox.jay_csdn(day, papers[:2], rng)), "16:20"
        if index % 4 == 1:
            yield self.write(f"inbox/jay/{day}-jay-research-briefing-{rng.choice(tx.SLUGS)}.md",
                             inbox.jay_research(day, papers[0], rng)), "17:35"
        if day != self.missing_day:
            yield self.write(f"inbox/flyp/{day}-risk-e1prep.md", inbox.risk(day, papers[0])), "20:35"

    def gap_of(self, day: date) -> int:
        return self.streak_days.index(day) + 1 if day in self.streak_days else (
            _STREAK + 1 if day == self.end else 0)

    # -- the end day -----------------------------------------------------------------------------

    def end_day(self) -> dict:
        end, rng = self.end, self.rng
        eve = end - timedelta(days=1)
        stamp = f"{end.isoformat()}T06:10+08:00"
        a = tx.Paper(self.new_id(end), "PrefixWeaver", "PrefixWeaver: Cross-Request Prefix Sharing for Agentic LLM Serving",
                   "inference", "system", "sched", "跨请求共享前缀的 agentic serving 方案，多轮 agent 负载下 prefill token 减少 41%")
        b = tx.Paper(self.new_id(end, last_zero=True), "TierFlow",
                   "TierFlow: Budgeted KV Cache Offload to NVMe for Long-Context Serving", "llm-infra", "system", "kv",
                   "GPU→CPU→NVMe 三级 KV 卸载，RDMA 直通，128K 上下文 TTFT 降低 37%")
        c = tx.Paper(self.swappable_id(end), "SpecLadder", "SpecLadder: Multi-Level Draft Verification for Speculative Decoding",
                   "inference", "method", "spec", "多级草稿验证，EAGLE 类草稿在 vLLM 上端到端加速 2.3×")
        m1 = tx.Paper(self.new_id(end), "OmniScene", "OmniScene: Region-Level Grounding Benchmark for Hour-Long Video",
                    "multimodal", "benchmark", "engine", "小时级视频 region 级 grounding 基准")
        m2 = tx.Paper(self.new_id(end), "SketchVLA", "SketchVLA: Sketch-Conditioned Vision-Language-Action Policies",
                    "multimodal", "method", "engine", "草图条件的 VLA 策略")
        bad = tx.Paper(self.new_id(end), "TileServe", "TileServe: Tile-Level KV Paging for Multi-Tenant Serving",
                     "inference", "system", "kv", "tile 级 KV 分页，多租户 serving")
        for paper in (a, b, c, m1, m2):
            self.card(paper, stamp)
        self.card(bad, stamp, broken=True)
        inside = tx.Paper(self.new_id(end), "NightShift", "NightShift: Off-Peak KV Prefetch for Diurnal LLM Serving",
                        "inference", "system", "kv", "按昼夜负载在低峰期预取 KV，峰时 TTFT p99 降低 29%")
        outside = tx.Paper(self.new_id(end), "LateBind", "LateBind: Deferred KV Binding for Bursty Decode",
                         "inference", "method", "sched", "突发 decode 负载下延迟绑定 KV block")
        edge = tx.Paper(self.new_id(eve), "DuskCache", "DuskCache: Time-of-Day Aware Prefix Caching",
                      "inference", "method", "kv", "按时段调整 prefix caching 保留策略")
        self.card(inside, f"{end.isoformat()}T22:20+08:00")
        self.card(outside, f"{end.isoformat()}T22:21+08:00")
        self.card(edge, f"{eve.isoformat()}T22:20+08:00")
        anchored = [self.history[end - timedelta(days=2)][0], self.history[end - timedelta(days=4)][1]]
        self.queue.append(organized.queue_section(end, [(a, "Top 0.5"), (b, "Top 15"), (c, "Top 15"), (m1, "Top 15"),
                                                 (m2, "Top 15"), (anchored[0], "")]))
        wrong = _swap_last(c.id)
        raw_b = b.id[:-1]
        ttft = (rng.randrange(62, 92), rng.randrange(140, 190))
        promise_month = (end.replace(day=1) - timedelta(days=1)).strftime("%Y-%m")
        n = {
            "morning": f"inbox/jay/{end}T0935-jay-morning-briefing-inference-engines.md",
            "csdn": f"inbox/jay/{end}-1620-csdn-inference-engineering-vllm-sglang.md",
            "offload": f"inbox/jay/{end}_jay-kv-offload-notes.md",
            "afternoon": f"inbox/jay/{end}-jay-afternoon-briefing-specdec-roadmap.md",
            "roundup": f"inbox/jay/{end}-csdn-rag-vllm-agent-roundup.md",
            "empty": f"inbox/jay/{end}-ai-engineering-rag-agents.md",
            "truncated": f"inbox/jay/{end}T1450-jay-engineering-filtering-kv-reuse.md",
            "kept": f"inbox/jay/{end}T1120-jay-engineering-e1prep.md",
            "copy": f"inbox/jay/{end}T1530-jay-engineering-e1prep-copy.md",
            "undated": "inbox/jay/scratch-links.md",
            "hf": f"inbox/tom/{end}-0900-hf-daily-{end}.md",
            "rss": f"inbox/spark/{end}-1001-rss-gradient-notes.md",
            "agent": f"inbox/spark/{end}-agent-e1prep.md",
            "risk": f"inbox/flyp/{end}-risk-e1prep.md",
            "coord": f"inbox/stephen/{end}-1245-stephen-coordination-check-noon.md",
        }
        self.write(n["morning"], inbox.end_morning(end, a, anchored, ttft[0]))
        self.write(n["csdn"], inbox.end_csdn(end, raw_b, ttft[1]))
        self.write(n["offload"], inbox.end_offload(end, b, c))
        self.write(n["afternoon"], inbox.end_afternoon(end, c, wrong, promise_month))
        self.write(n["roundup"], inbox.end_roundup(end, a))
        self.write(n["empty"], b"")
        self.write(n["truncated"], inbox.end_truncated(end, anchored[1]))
        self.write(n["kept"], inbox.end_engineering(end, anchored[0]))
        self.write(n["copy"], inbox.end_engineering(end, anchored[0]))
        self.write(n["undated"], inbox.scratch_links(b, anchored[0]))
        self.write(n["hf"], inbox.hf_daily(end, [a, c, m1, m2, anchored[0]], rng))
        self.write(n["rss"], inbox.spark_rss(end))
        self.write(n["agent"], inbox.agent_brief(end))
        self.write(n["risk"], inbox.end_risk(end, anchored[1]).encode("gb18030"))
        self.write(n["coord"], inbox.coordination(end, _STREAK + 1, False, eve))
        return {
            "gb18030_note": n["risk"], "empty_note": n["empty"], "truncated_note": n["truncated"],
            "undated_note": n["undated"], "duplicate": Duplicate(n["kept"], n["copy"]), "bad_card": bad.path,
            "card_in_window": inside.path, "card_out_of_window": outside.path, "card_at_window_start": edge.path,
            "malformed_id": MalformedId(raw_b, b.id, n["csdn"], n["offload"]),
            "two_numbers": TwoNumbers(c.title, c.id, wrong, n["offload"], n["afternoon"]),
            "misspelled_title": MisspelledTitle(a.path, a.title, inbox.misspell(a.title), n["roundup"]),
            "version_conflict": VersionConflict("vLLM", ("v0.31.0", "0.3.1"), (n["morning"], n["csdn"])),
            "number_conflict": NumberConflict("SGLang", "TTFT", "ms", (float(ttft[0]), float(ttft[1])),
                                              (n["morning"], n["csdn"])),
            "promise": Promise(f"计划于 {promise_month} 发布", _month_end(end.replace(day=1) - timedelta(days=1)),
                               n["afternoon"]),
            "instruction": Instruction(n["roundup"], inbox.INSTRUCTION),
            "late_slot": LateSlot("spark/llm-infra-e1prep", _STREAK, "18:40", self.streak_days[0],
                                  self.streak_days[-1]),
            "missing_slot": MissingSlot("flyp/risk-e1prep", self.missing_day),
            "false_alarm": FalseAlarm(n["coord"], "tom/inference-e1prep", eve),
            "net_new_ids": (a.id, b.id, c.id, inside.id),
            "net_new_by_topic": {"inference": (a.id, b.id, c.id, inside.id), "llm-infra": (a.id, b.id, c.id, edge.id)},
            "anchored_ids": tuple(p.id for p in anchored),
            "excluded_cards": (m1.path, m2.path),
            "earlier_briefs": {"inference": f"inbox/tom/{eve}-inference-e1prep.md",
                               "llm-infra": f"inbox/spark/{eve}-llm-infra-e1prep.md"},
            "time_sources": {n["morning"]: "name", n["csdn"]: "name", n["offload"]: "front_matter",
                             n["afternoon"]: "body", n["roundup"]: "date_only", n["risk"]: "body",
                             n["empty"]: "date_only"},
        }

    def close(self) -> None:
        eve = self.end - timedelta(days=1)
        for topic in tx.SECTIONS:
            version = tx.BASE_VERSION[topic] + self.days - 1
            self.write(f"organized/knowledge/{topic}.md",
                       organized.living_doc(topic, version, eve, self.start - timedelta(days=1), self.bullets[topic]))
        self.write("organized/queue/work-queue.md", organized.queue_file(reversed(self.queue)))
        self.write("organized/registry/contradictions.md", organized.register_file(eve, self.register, self.d_no))
        self.write("topics.toml", tx.TOPICS_TOML)
        self.write("schedule.toml", tx.SCHEDULE_TOML)
        self.write("README.md", tx.README)


def _prepare(root: Path) -> None:
    if root.exists() and not root.is_dir():
        raise UsageError(f"{str(root)!r} is a file, not a folder for the demo vault")
    if root.is_dir() and any(root.iterdir()):
        if not (root / MARKER).is_file():
            raise UsageError(f"{str(root)!r} is not empty and is not a demo vault; choose an empty or new folder")
        for name in _OWNED:
            target = root / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
    root.mkdir(parents=True, exist_ok=True)


def generate_demo_vault(root: Path, *, end: date = date(2026, 10, 14), days: int = 14, seed: int = 7) -> DemoManifest:
    """Write a complete synthetic vault at ``root`` ending on ``end`` and return where its traps are.

    Raises:
        UsageError: ``root`` is a non-empty folder that is not an earlier demo vault, or ``days`` is out of range.
    """
    if not _MIN_DAYS <= days <= _MAX_DAYS:
        raise UsageError(f"days={days!r}: the demo vault needs between {_MIN_DAYS} and {_MAX_DAYS} days")
    root = Path(root)
    _prepare(root)
    builder = _Builder(root, end, days, seed)
    for index in range(days - 1):
        builder.history_day(builder.start + timedelta(days=index), index)
    traps = builder.end_day()
    builder.close()
    next_d = f"D{builder.d_no + 1}"
    manifest = DemoManifest(root=root, end=end, days=days, seed=seed, topics=tuple(tx.SECTIONS),
                            files=builder.files + 1, next_d=next_d, **traps)
    marker = manifest.model_dump(mode="json", exclude={"root"})
    (root / MARKER).write_text(json.dumps(marker, ensure_ascii=False, indent=1, sort_keys=True) + "\n",
                               encoding="utf-8")
    return manifest
