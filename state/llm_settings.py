"""How to reach a chat model, from the BATON_LLM_BASE_URL / _MODEL / _API_KEY… variables (kept apart from ``state.settings``).

No ``BATON_LLM_MODEL`` → no model: the rules write the whole brief, as without
this module. The API key is a ``SecretStr``: it never shows in a repr, a log
line, a checkpoint or the store (nothing here is ever serialised).
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

from state.errors import UsageError

__all__ = ["LlmSettings", "llm_settings_from_env", "LLM_ENV"]

# Every variable this module reads, and what it means (the README lists the same).
LLM_ENV = {
    "BATON_LLM_BASE_URL": "OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1 (vLLM)",
    "BATON_LLM_MODEL": "model name as the server knows it; unset means rules only",
    "BATON_LLM_API_KEY": "API key (local servers accept any value)",
    "BATON_LLM_TIMEOUT": "seconds per request (default 60)",
    "BATON_LLM_RETRIES": "retries per request on 429 / 5xx / timeouts (default 2)",
    "BATON_LLM_CONCURRENCY": "requests in flight at once (default 4)",
    "BATON_LLM_TOKEN_BUDGET": "tokens per run; the rest falls back to the rules (default 200000)",
}


class LlmSettings(BaseModel):
    """One chat model endpoint and the limits of a run."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    base_url: str | None = None
    model: str
    api_key: SecretStr = SecretStr("not-needed")
    timeout: float = Field(60.0, gt=0)
    max_retries: int = Field(2, ge=0, le=10)
    concurrency: int = Field(4, ge=1, le=64)
    token_budget: int = Field(200_000, ge=0)


_FIELDS = {"BATON_LLM_BASE_URL": "base_url", "BATON_LLM_MODEL": "model", "BATON_LLM_API_KEY": "api_key",
           "BATON_LLM_TIMEOUT": "timeout", "BATON_LLM_RETRIES": "max_retries",
           "BATON_LLM_CONCURRENCY": "concurrency", "BATON_LLM_TOKEN_BUDGET": "token_budget"}


def llm_settings_from_env(env: Mapping[str, str] | None = None) -> LlmSettings | None:
    """The model settings from the environment, or None when no model is configured.

    A bad value raises UsageError naming the variable (never its value when it is the key).
    """
    env = os.environ if env is None else env
    values = {field: env[name].strip() for name, field in _FIELDS.items() if env.get(name, "").strip()}
    if "model" not in values:
        extra = sorted(name for name, field in _FIELDS.items() if field in values and field != "api_key")
        if extra:
            raise UsageError(f"{', '.join(extra)} set but BATON_LLM_MODEL is not: set the model name or unset them")
        return None
    try:
        return LlmSettings(**values)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0])
        name = next(n for n, f in _FIELDS.items() if f == field)
        shown = "" if field == "api_key" else f" {values.get(field)!r}"
        raise UsageError(f"{name}{shown}: {error['msg']}") from None
