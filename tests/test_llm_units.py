"""LLM mode's parts, with LangChain's fake chat models: settings, prompts, parsing, grounding, the session."""

from __future__ import annotations

import json
from datetime import date
from pathlib import Path

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel, GenericFakeChatModel
from langchain_core.messages import AIMessage

from agents.integrator.compose import integrate
from agents.integrator.llm_text import ModelWriter
from agents.integrator.markdown import render_markdown
from agents.llm.answers import AnswerError, IncrementAnswer, ScopeAnswer, parse_answer
from agents.llm.grounding import claims_a_decision, ground, unsupported
from agents.llm.provider import ChatProvider, LlmUnavailable
from agents.llm.tokens import common_prefix_share
from agents.scanner.window import scan_window
from prompts import PROMPTS_DIR, prompt_version, render_template
from state.errors import TemplateError, UsageError
from state.llm_settings import llm_settings_from_env
from state.vault_config import load_vault_config
from workflows.demo_vault import generate_demo_vault

# settings -------------------------------------------------------------------------------------------


def test_no_model_means_rules_only() -> None:
    assert llm_settings_from_env({}) is None
    assert llm_settings_from_env({"BATON_LLM_API_KEY": "sk-x"}) is None  # a key alone configures nothing


def test_settings_from_env_and_the_key_stays_secret() -> None:
    settings = llm_settings_from_env({"BATON_LLM_BASE_URL": "http://127.0.0.1:8000/v1", "BATON_LLM_MODEL": "qwen",
                                      "BATON_LLM_API_KEY": "sk-very-secret", "BATON_LLM_TIMEOUT": "12.5",
                                      "BATON_LLM_RETRIES": "3", "BATON_LLM_CONCURRENCY": "2",
                                      "BATON_LLM_TOKEN_BUDGET": "5000"})
    assert settings is not None
    assert (settings.model, settings.timeout, settings.max_retries, settings.concurrency, settings.token_budget) == (
        "qwen", 12.5, 3, 2, 5000)
    assert "sk-very-secret" not in repr(settings) and "sk-very-secret" not in str(settings)
    assert settings.api_key.get_secret_value() == "sk-very-secret"
    provider = ChatProvider.from_settings(settings)
    assert "sk-very-secret" not in repr(provider)


@pytest.mark.parametrize(("env", "named"), [
    ({"BATON_LLM_BASE_URL": "http://127.0.0.1:1/v1"}, "BATON_LLM_BASE_URL"),
    ({"BATON_LLM_MODEL": "m", "BATON_LLM_TIMEOUT": "-1"}, "BATON_LLM_TIMEOUT"),
    ({"BATON_LLM_MODEL": "m", "BATON_LLM_CONCURRENCY": "lots"}, "BATON_LLM_CONCURRENCY"),
])
def test_bad_settings_name_the_variable(env: dict[str, str], named: str) -> None:
    with pytest.raises(UsageError, match=named):
        llm_settings_from_env(env)


def test_the_endpoint_is_recorded_without_credentials() -> None:
    settings = llm_settings_from_env({"BATON_LLM_BASE_URL": "http://user:pw@127.0.0.1:8000/v1?key=abc",
                                      "BATON_LLM_MODEL": "m"})
    assert settings is not None
    assert ChatProvider.from_settings(settings).endpoint == "http://127.0.0.1:8000/v1"


# prompts --------------------------------------------------------------------------------------------


def test_every_llm_prompt_states_a_version_and_is_strict() -> None:
    names = sorted(p.name for p in PROMPTS_DIR.glob("llm_*.j2"))
    assert names == ["llm_honesty.j2", "llm_increment.j2", "llm_prefix.j2", "llm_scope.j2"]
    assert {prompt_version(n) for n in names} == {"prefix-2", "increment-1", "honesty-1", "scope-2"}
    with pytest.raises(TemplateError, match="rule_honesty"):
        render_template("llm_honesty.j2", summary=[], increments=[])


# answers and grounding ------------------------------------------------------------------------------


def test_parse_answer_accepts_a_fenced_object_and_ignores_unknown_keys() -> None:
    text = '```json\n{"points": [{"text": "一句话。", "source": "inbox/a.md"}], "argument": "论点如此。", ' \
           '"relation": "并列补充。", "approved": true, "credibility": 5}\n```'
    answer = parse_answer(text, IncrementAnswer)
    assert answer.points[0].source == "inbox/a.md" and not hasattr(answer, "approved")


@pytest.mark.parametrize(("text", "why"), [
    ('{"points": [', "not JSON"), ("[1, 2]", "not an object"), ('{"moves": [{"key": "k", "to": "publish", '
                                                                '"reason": "来源要求"}]}', "moves.0.to"),
])
def test_parse_answer_says_why_it_refuses(text: str, why: str) -> None:
    with pytest.raises(AnswerError, match=why):
        parse_answer(text, ScopeAnswer)


def test_grounding_drops_sentences_with_facts_not_in_the_sources() -> None:
    corpus = "吞吐 3,900 QPS，p99 延迟 380ms，见 https://github.com/org/repo/pull/12 与 arXiv 2610.07174v2（2026-10-14）。"
    assert unsupported("吞吐 3900 QPS。", corpus) == []
    assert unsupported("延迟 38ms。", corpus) == ["38"]  # a part of 380 is not 38
    assert unsupported("见 https://github.com/org/repo/pull/13。", corpus) == ["https://github.com/org/repo/pull/13"]
    result = ground("论文 2610.07174 于 2026-10-14 出现。延迟降到 120ms。方法清楚。", corpus)
    assert (result.text, result.dropped) == ("论文 2610.07174 于 2026-10-14 出现。方法清楚。", 1)


def test_sentences_about_decisions_are_not_the_models() -> None:
    assert claims_a_decision("本条已获批准，可直接发布。")
    assert claims_a_decision("可信度应提高为五星。")
    assert claims_a_decision("登记簿 D195 可以关闭。")
    assert not claims_a_decision("vLLM 0.6 发布了新的调度器。")
    assert not claims_a_decision("与 3D 并行（TP16）组合使用。")


def test_common_prefix_share() -> None:
    prefix = "规则 " * 70  # 140 tokens, then 10 of its own per call: 140 / 150
    assert common_prefix_share([prefix + "甲 " * 10, prefix + "乙 " * 10, prefix + "丙 " * 10]) == pytest.approx(
        140 / 150, abs=0.001)
    assert common_prefix_share(["只有一次"]) == 0.0


# the session, with fake chat models -----------------------------------------------------------------


def test_a_session_counts_calls_and_tokens_and_enforces_the_cap() -> None:
    provider = ChatProvider(FakeListChatModel(responses=["一", "二", "三"]), "fake")
    session = provider.session()
    assert session.ask("t", "t-1", "前缀", "数据") == "一"
    session.cap = 2
    session.ask("t", "t-1", "前缀", "数据")
    with pytest.raises(LlmUnavailable, match="调用上限 2"):
        session.ask("t", "t-1", "前缀", "数据")
    assert session.calls == 2 and session.tokens > 0 and session.versions == {"t": "t-1"}


def test_a_session_stops_at_the_token_budget() -> None:
    session = ChatProvider(FakeListChatModel(responses=["好"] * 3), "fake", token_budget=3).session()
    session.ask("t", "t-1", "前缀很长的一段话", "数据")
    with pytest.raises(LlmUnavailable, match="token 预算"):
        session.ask("t", "t-1", "前缀", "数据")
    assert session.calls == 1


def test_a_failing_model_is_unavailable_not_a_crash() -> None:
    session = ChatProvider(GenericFakeChatModel(messages=iter([])), "fake").session()
    with pytest.raises(LlmUnavailable):
        session.ask("t", "t-1", "前缀", "数据")
    assert [r.ok for r in session.records] == [False]


# the integrator with a fake chat model ---------------------------------------------------------------


@pytest.fixture(scope="module")
def demo_scan(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    manifest = generate_demo_vault(tmp_path_factory.mktemp("llm-units") / "vault")
    config = load_vault_config(Path(manifest.root))
    return scan_window(config, "inference", date.fromisoformat(str(manifest.end)))


def _writer(scan, responses: list[str]) -> ModelWriter:  # type: ignore[no-untyped-def]
    provider = ChatProvider(FakeListChatModel(responses=responses), "fake", concurrency=1)
    return ModelWriter(provider.session(), scan, "inference.md v1")


def test_integrate_with_a_fake_model_keeps_the_rules_decisions(demo_scan) -> None:  # type: ignore[no-untyped-def]
    rules = integrate(demo_scan, [], None, [], "t")
    n = len(rules.increments)
    first = rules.increments[0]

    def words(source: str) -> str:
        return json.dumps({"points": [{"text": "作者提出了一个新方法。", "source": source},
                                      {"text": "这一句引用了不存在的来源。", "source": "inbox/nobody/none.md"}],
                           "argument": "它补上了活文档中的空白。", "relation": "与该节已锚条目并列。"})

    answers = [json.dumps({"moves": []}), words(first.sources[0]), *["不是 JSON"] * 2,
               *[words(inc.sources[0]) for inc in rules.increments[2:]], json.dumps({"honesty": rules.honesty})]
    writer = _writer(demo_scan, answers)
    brief = integrate(demo_scan, [], None, [], "t", writer=writer)
    assert [(i.key, i.credibility, i.status, i.section) for i in brief.increments] == [
        (i.key, i.credibility, i.status, i.section) for i in rules.increments]
    assert brief.increments[0].points == [f"作者提出了一个新方法。（{first.sources[0]}）"]
    assert brief.increments[0].argument == "它补上了活文档中的空白。"
    # The second increment's two invalid answers spent its retry: the rules wrote it, noted.
    assert brief.increments[1].points == rules.increments[1].points
    assert any("两次无效" in note for note in brief.llm_notes)
    # The retry used the call the honesty statement would have had (calls ≤ increments + 2).
    assert brief.stats.llm_calls == n + 2 and brief.honesty == rules.honesty
    assert any("调用上限" in note for note in brief.llm_notes)
    assert brief.stats.llm_dropped == n - 1  # the uncited point of each increment the model worded
    assert brief.llm_model == "fake"


def test_the_writer_prefix_is_the_same_for_every_task(demo_scan) -> None:  # type: ignore[no-untyped-def]
    writer = _writer(demo_scan, [json.dumps({"moves": []}), json.dumps({"honesty": "本轮密度「高」。"})])
    writer.scope_opinion([{"key": "k", "title": "T", "sources": ["inbox/a.md"], "list": "below_cut", "reason": "r"}],
                         (3, 8))
    writer.honesty("本轮密度「高」。", "高", [], [])
    systems = {r.system for r in writer.session.records}
    assert len(systems) == 1 and "活文档章节图" in systems.pop()
    assert writer.session.prefix_share > 0.5


def test_a_fake_message_without_usage_is_counted_by_approximation() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage("回答")]))
    session = ChatProvider(model, "fake").session()
    session.ask("t", "t-1", "前缀", "数据")
    assert session.tokens == 6  # 前 缀 \n 数 据 → 4 + 回 答 → 2


def test_the_second_opinion_shows_quoted_claims_and_coordination_readings_and_changes_nothing(
        demo_scan) -> None:  # type: ignore[no-untyped-def]
    rules = integrate(demo_scan, [], None, [], "t")
    first = rules.increments[0]
    claim = next(f for f in (demo_scan.mentions or []) if f.kind == "figure" and f.source in first.sources)
    coordination = next(f for f in demo_scan.files if "coordination" in f.path)
    coordination_line = next(line.strip() for line in coordination.body.split("\n") if len(line.strip()) > 8)
    answer = json.dumps({
        "moves": [],
        "unconditioned": [
            {"key": first.key, "claim": claim.context[:60], "missing": "没有给出硬件与并发。"},
            {"key": first.key, "claim": "吞吐提升 9 倍，已经独立复现", "missing": "未写条件。"},  # no source says it
            {"key": "arxiv:0000.00000", "claim": claim.context[:60], "missing": "不是候选。"},
        ],
        "coordination": [{"claim": coordination_line, "reading": "该行声称的棒位状态。"},
                         {"claim": "所有棒位均已按时交付，无需告警", "reading": "全部正常。"}],
        "approved": True, "warnings": [],
    })
    writer = _writer(demo_scan, [answer, *["不是 JSON"] * 20])
    brief = integrate(demo_scan, [], None, [], "t", writer=writer)
    shown = [(o["kind"], o["claim"]) for o in brief.llm_opinions]
    assert shown == [("unconditioned", claim.context[:60]), ("coordination", coordination_line)]
    assert brief.stats.llm_dropped >= 3  # the invented claim, the non-candidate and the invented reading
    # Nothing the rules decided moved: increments, warnings, credibility.
    assert [(i.key, i.credibility) for i in brief.increments] == [(i.key, i.credibility) for i in rules.increments]
    assert [w.text for w in brief.warnings] == [w.text for w in rules.warnings]
    markdown = render_markdown(brief)
    assert "条件待补（模型意见，未改动任何结论）" in markdown and "协调记录解读（模型意见" in markdown
