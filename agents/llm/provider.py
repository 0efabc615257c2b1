"""The provider: any LangChain chat model behind one small interface, with a run's limits and counts.

``ChatProvider.from_settings`` builds ``langchain_openai.ChatOpenAI`` for any
OpenAI-compatible server (vLLM, SGLang, Ollama, OpenAI); tests pass a fake
chat model. A run opens one ``LlmSession``: it counts calls and tokens, keeps
the prompts (for the common-prefix share), enforces the token budget and the
brief's call cap, and turns every failure of the model or its transport into
``LlmUnavailable`` — the caller then falls back to the rules.

The model's answer is only text handed back to the caller: nothing here acts
on it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from urllib.parse import urlsplit, urlunsplit

from langchain_core.language_models.chat_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from agents.llm.tokens import common_prefix_share, count_tokens
from state.llm_settings import LlmSettings

__all__ = ["ChatProvider", "LlmSession", "LlmUnavailable", "CallRecord"]


class LlmUnavailable(Exception):
    """No answer for this call (budget, call cap, timeout, HTTP error): the rules write this part."""


@dataclass(frozen=True)
class CallRecord:
    """One request to the model: what was asked and what it cost."""

    task: str
    system: str
    user: str
    tokens: int
    ok: bool


class ChatProvider:
    """A chat model and the process-wide concurrency limit of calls to it."""

    def __init__(self, model: BaseChatModel, name: str, *, concurrency: int = 4, token_budget: int = 200_000,
                 endpoint: str | None = None) -> None:
        self.model = model
        self.name = name
        self.endpoint = endpoint
        self.concurrency = concurrency
        self.token_budget = token_budget
        self._slots = threading.BoundedSemaphore(concurrency)

    def __repr__(self) -> str:  # never the key
        return f"ChatProvider(model={self.name!r}, endpoint={self.endpoint!r})"

    @classmethod
    def from_settings(cls, settings: LlmSettings) -> ChatProvider:
        """``ChatOpenAI`` against the configured endpoint; retries (429 with Retry-After, 5xx) are the client's."""
        from langchain_openai import ChatOpenAI

        model = ChatOpenAI(model=settings.model, base_url=settings.base_url, api_key=settings.api_key,
                           timeout=settings.timeout, max_retries=settings.max_retries, temperature=0)
        return cls(model, settings.model, concurrency=settings.concurrency, token_budget=settings.token_budget,
                   endpoint=_public(settings.base_url))

    def session(self) -> LlmSession:
        """The counters and limits of one run."""
        return LlmSession(self)

    def invoke(self, messages: list[BaseMessage]) -> AIMessage:
        with self._slots:
            answer = self.model.invoke(messages)
        if not isinstance(answer, AIMessage):
            raise LlmUnavailable(f"the model returned {type(answer).__name__}, not a message")
        return answer


@dataclass
class LlmSession:
    """One run's use of the provider: calls, tokens, prompt versions, notes and the grounding count."""

    provider: ChatProvider
    cap: int | None = None  # the most calls this brief may make (increments + 2), once known
    calls: int = 0
    tokens: int = 0
    dropped: int = 0
    records: list[CallRecord] = field(default_factory=list)
    versions: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def ask(self, task: str, version: str, system: str, user: str, retry_note: str | None = None) -> str:
        """One call: the stable prefix as the system message, the item's data as the user message.

        ``retry_note`` (why the previous answer was refused) is appended after the data, so that the
        retried prompt keeps the same prefix.
        """
        with self._lock:
            if self.cap is not None and self.calls >= self.cap:
                raise LlmUnavailable(f"已达本简报调用上限 {self.cap} 次")
            if self.tokens >= self.provider.token_budget:
                raise LlmUnavailable(f"已用尽本轮 token 预算（{self.provider.token_budget}）")
            self.calls += 1
            self.versions[task] = version
        messages: list[BaseMessage] = [SystemMessage(system), HumanMessage(user)]
        if retry_note:
            messages.append(HumanMessage(retry_note))
        prompt = system + "\n" + user + ("\n" + retry_note if retry_note else "")
        try:
            answer = self.provider.invoke(messages)
        except LlmUnavailable:
            self._record(task, system, user, count_tokens(prompt), ok=False)
            raise
        except Exception as exc:  # the client's errors: timeouts, refused connections, HTTP statuses
            self._record(task, system, user, count_tokens(prompt), ok=False)
            raise LlmUnavailable(_describe(exc)) from None
        text = answer.content if isinstance(answer.content, str) else "".join(
            part.get("text", "") if isinstance(part, dict) else str(part) for part in answer.content)
        usage = answer.usage_metadata or {}
        tokens = int(usage.get("total_tokens") or 0) or count_tokens(prompt) + count_tokens(text)
        self._record(task, system, user, tokens, ok=True)
        return text

    def _record(self, task: str, system: str, user: str, tokens: int, *, ok: bool) -> None:
        with self._lock:
            self.tokens += tokens if ok else 0
            self.records.append(CallRecord(task=task, system=system, user=user, tokens=tokens, ok=ok))

    def count_dropped(self, sentences: int) -> None:
        """Sentences the grounding check removed."""
        with self._lock:
            self.dropped += sentences

    def note(self, text: str) -> None:
        with self._lock:
            if text not in self.notes:
                self.notes.append(text)

    @property
    def prefix_share(self) -> float:
        """The share of prompt tokens that is a prefix common to every call of the run."""
        return common_prefix_share([r.system + "\n" + r.user for r in self.records])

    def record(self) -> dict:
        """What the run record keeps (no prompt text, no key)."""
        return {"model": self.provider.name, "endpoint": self.provider.endpoint, "calls": self.calls,
                "tokens": self.tokens, "dropped": self.dropped, "prompt_versions": dict(sorted(self.versions.items())),
                "prefix_share": self.prefix_share, "notes": list(self.notes)}


def _public(url: str | None) -> str | None:
    """The endpoint as it may be recorded: no user, password or query (which may carry a key)."""
    if not url:
        return None
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.hostname or "", parts.path, "", "")) if parts.port is None else \
        urlunsplit((parts.scheme, f"{parts.hostname}:{parts.port}", parts.path, "", ""))


def _describe(exc: Exception) -> str:
    """A short reason for the brief's note: the error's class and first line, nothing from the request."""
    name = type(exc).__name__
    status = getattr(exc, "status_code", None)
    if "Timeout" in name:
        return "模型请求超时"
    if status == 429:
        return "模型服务限流（429），重试后仍未成功"
    if status:
        return f"模型服务返回 HTTP {status}"
    if "Connection" in name:
        return "无法连接模型服务"
    return f"模型调用失败（{name}）"
