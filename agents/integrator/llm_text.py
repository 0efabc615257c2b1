"""The integrator's use of a model: an increment's words, the honesty statement, a second opinion on scope.

Every call begins with the same stable prefix (``prompts/llm_prefix.j2``: the
rules and the topic's section map), then the task's data, so that prefix
caches reuse it. Each answer is parsed (``agents.llm.answers``), retried once
when invalid, then given up for the rules' text, noted; every sentence is
grounded against the data the call was shown (``agents.llm.grounding``).
The writer returns text only: selection, credibility, warnings and numbers
stay the rules'.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from agents.integrator.cluster import Item
from agents.integrator.select import Judgement
from agents.llm.answers import (
    AnswerError,
    ConditionNote,
    CoordinationNote,
    HonestyAnswer,
    IncrementAnswer,
    ScopeAnswer,
    ScopeMove,
    parse_answer,
)
from agents.llm.grounding import ground, sentences
from agents.llm.provider import LlmSession, LlmUnavailable
from prompts import prompt_version, render_template

if TYPE_CHECKING:
    from pydantic import BaseModel

    from agents.scanner.window import WindowScan

__all__ = ["ModelWriter", "IncrementJob", "IncrementWords", "SecondOpinion"]

_BULLET_CHARS = 160
_QUOTE_LINES = 30
_QUOTE_CHARS = 300
_QUOTES = 4
_STATUS = {"net_new": "NET-new（活文档与往期简报均未锚入）", "integrated": "整合（已锚入，今日有新数字或新组合）",
           "carried": "沿用"}
A = TypeVar("A", bound="BaseModel")


@dataclass(frozen=True)
class IncrementJob:
    """What the rules decided about one increment, and the text they wrote for it."""

    rank: int
    item: Item
    judgement: Judgement
    title: str
    section: str | None
    points: list[str]
    argument: str
    relation: str


@dataclass(frozen=True)
class SecondOpinion:
    """The model's second opinion over a brief: moves between the rules' lists, claims the scouts left
    without conditions, and what the coordination notes claim. Only the moves have an effect; the rest is
    shown for the reviewer, each claim quoted as the sources word it."""

    moves: list[ScopeMove]
    unconditioned: list[ConditionNote]
    coordination: list[CoordinationNote]


def _plain(text: str) -> str:
    return "".join(text.split())


@dataclass(frozen=True)
class IncrementWords:
    points: list[str]
    argument: str
    relation: str


def _data(text: str) -> str:
    """Source text as data: it cannot close its own delimiter."""
    return text.replace("</source", "<\\/source").replace("<source", "<\\source")


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def _sentence(text: str) -> str:
    text = text.strip()
    return text if text[-1:] in "。！？.!?" else text + "。"


class ModelWriter:
    """One brief's calls to the model, all through one ``LlmSession``."""

    def __init__(self, session: LlmSession, scan: WindowScan, doc: str) -> None:
        self.session = session
        topic = scan.topic
        anchored = scan.living.anchored_as_of(scan.day, scan.end)
        sections = [{"id": s.id, "title": s.title,
                     "bullets": [_cut(" ".join(b.text.split()), _BULLET_CHARS) for sec, b in anchored if sec.id == s.id]}
                    for s in scan.living.sections]
        self.prefix = render_template("llm_prefix.j2", topic=topic.name, topic_title=topic.title,
                                      keywords=list(topic.keywords), doc=doc, as_of=f"{scan.end:%Y-%m-%d %H:%M}",
                                      sections=sections)
        self.versions = {"prefix": prompt_version("llm_prefix.j2")}

    # one call, parsed, retried once ---------------------------------------------------------------
    def _ask(self, task: str, template: str, label: str, model: type[A], notes: list[str] | None = None,
             **variables: object) -> tuple[A, str] | None:
        """Render, call, parse; retry once with the reason. None (and a note) when the rules must write it."""
        note = notes.append if notes is not None else self.session.note
        user = render_template(template, **variables)
        version = f"{self.versions['prefix']}+{prompt_version(template)}"
        retry: str | None = None
        for attempt in (1, 2):
            try:
                text = self.session.ask(task, version, self.prefix, user, retry)
            except LlmUnavailable as exc:
                note(f"{label}：{exc}，由规则撰写")
                return None
            try:
                return parse_answer(text, model), user
            except AnswerError as exc:
                if attempt == 2:
                    note(f"{label}：模型回答两次无效（{exc}），由规则撰写")
                    return None
                retry = f"上一个回答无效：{exc}。请只回答任务要求的一个 JSON 对象。"
        return None

    def _grounded(self, text: str, corpus: str) -> str:
        result = ground(text, corpus)
        self.session.count_dropped(result.dropped)
        return result.text

    # tasks ----------------------------------------------------------------------------------------
    def scope_opinion(self, candidates: Sequence[dict], limits: tuple[int, int]) -> list[ScopeMove]:
        """Moves between the lists the rules have; only keys of the candidates count, each with a reason."""
        return self.second_opinion(candidates, limits).moves

    def second_opinion(self, candidates: Sequence[dict], limits: tuple[int, int],
                       coordination: Sequence[dict] = ()) -> SecondOpinion:
        """One call over the candidates (with the claims the increments pass on) and the coordination notes.

        A move must name a candidate and another of the rules' lists; a claim must be quoted as a source
        words it (else it is dropped and counted); every reason passes the grounding check.
        """
        empty = SecondOpinion([], [], [])
        if not candidates:
            return empty
        quoted_notes = [{**note, "text": _data(note["text"])} for note in coordination]
        asked = self._ask("scope", "llm_scope.j2", "范围复核", ScopeAnswer, candidates=list(candidates),
                          limits=limits, coordination=quoted_notes)
        if asked is None:
            return empty
        answer, user = asked
        corpus = self.prefix + user
        known = {c["key"]: c["list"] for c in candidates}
        moves, seen = [], set()
        for move in answer.moves:
            reason = self._grounded(_sentence(move.reason), corpus)
            if move.key in known and known[move.key] != move.to and move.key not in seen and reason:
                seen.add(move.key)
                moves.append(move.model_copy(update={"reason": reason}))
        quoted = _plain(user)
        unconditioned = []
        for note in answer.unconditioned:
            missing = self._grounded(_sentence(note.missing), corpus)
            if note.key in known and _plain(note.claim) in quoted and missing:
                unconditioned.append(note.model_copy(update={"missing": missing}))
            else:
                self.session.count_dropped(1)  # a claim no source words so, or a reason with invented facts
        readings = []
        for note in answer.coordination:
            reading = self._grounded(_sentence(note.reading), corpus)
            if coordination and _plain(note.claim) in quoted and reading:
                readings.append(note.model_copy(update={"reading": reading}))
            else:
                self.session.count_dropped(1)
        return SecondOpinion(moves, unconditioned, readings)

    def increments(self, jobs: Sequence[IncrementJob]) -> list[IncrementWords]:
        """Each increment's words (the rules' where the model gave none), in the order of ``jobs``."""
        workers = max(1, min(self.session.provider.concurrency, len(jobs)))
        with ThreadPoolExecutor(max_workers=workers) as pool:
            done = list(pool.map(self._increment, jobs))
        for _, notes in done:  # the notes in rank order, however the calls interleaved
            for text in notes:
                self.session.note(text)
        return [words for words, _ in done]

    def _increment(self, job: IncrementJob) -> tuple[IncrementWords, list[str]]:
        rules = IncrementWords(job.points, job.argument, job.relation)
        item = job.item
        quotes = []
        for passage in item.passages[:_QUOTES]:
            lines = passage.lines[:_QUOTE_LINES]
            text = "\n".join(f"L{n}: {_cut(line, _QUOTE_CHARS)}" for n, line in lines)
            if passage.heading:
                text = f"L{passage.start}: {_cut(passage.heading, _QUOTE_CHARS)}\n{text}"
            quotes.append({"path": passage.path, "lines": f"{passage.start}-{passage.end}", "text": _data(text)})
        quoted = {(q["path"]) for q in quotes}
        for figure in item.figures:
            if figure.source not in quoted:
                quotes.append({"path": figure.source, "lines": str(figure.line),
                               "text": _data(f"L{figure.line}: {_cut(figure.context, _QUOTE_CHARS)}")})
        if item.card is not None:
            quotes.append({"path": str(item.card.path), "lines": "",
                           "text": _data(f"{item.card.title}\n{getattr(item.card, 'summary', '') or ''}")})
        label = f"增量 {job.rank}「{job.title}」"
        notes: list[str] = []
        asked = self._ask("increment", "llm_increment.j2", label, IncrementAnswer, notes, title=job.title,
                          status=_STATUS.get(job.judgement.status, job.judgement.status), arxiv=item.arxiv,
                          urls=item.urls, section=job.section, rule_argument=job.argument,
                          rule_relation=job.relation, sources=item.sources, quotes=quotes)
        if asked is None:
            return rules, notes
        answer, user = asked
        corpus = self.prefix + user
        allowed = set(item.sources) | ({str(item.card.path)} if item.card is not None else set())
        points = []
        for point in answer.points:
            if point.source not in allowed:
                self.session.count_dropped(len(sentences(point.text)))
                continue
            text = self._grounded(_sentence(point.text), corpus)
            if text:
                points.append(f"{text}（{point.source}）")
        argument = self._grounded(_sentence(answer.argument), corpus)
        relation = self._grounded(_sentence(answer.relation), corpus)
        if not points:
            notes.append(f"{label}：模型要点均未通过来源核对，要点由规则撰写")
        return IncrementWords(points or rules.points, argument or rules.argument, relation or rules.relation), notes

    def honesty(self, rule_honesty: str, density: str, summary: Sequence[str], increments: Sequence[str]) -> str:
        """The honesty statement in the model's words; the rules' when it loses the density or a fact."""
        asked = self._ask("honesty", "llm_honesty.j2", "诚实度声明", HonestyAnswer, rule_honesty=rule_honesty,
                          summary=list(summary), increments=list(increments))
        if asked is None:
            return rule_honesty
        answer, user = asked
        text = self._grounded(_sentence(answer.honesty), self.prefix + user)
        if f"「{density}」" not in text:
            self.session.note("诚实度声明：模型文本未保留增量密度或含来源外事实，由规则撰写")
            return rule_honesty
        return text
