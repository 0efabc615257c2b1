"""What the model may answer, as pydantic models, and the one parser of its text into them.

Only text fields exist: there is no field for an approval, a credibility, a
warning or a D-number, so no answer can carry one. Unknown keys are ignored
(a model that adds ``"approved": true`` changes nothing).
"""

from __future__ import annotations

import json
import re
from typing import Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

__all__ = ["Point", "IncrementAnswer", "HonestyAnswer", "ScopeMove", "ConditionNote", "CoordinationNote", "ScopeAnswer",
           "AnswerError", "parse_answer"]


class _Answer(BaseModel):
    model_config = ConfigDict(extra="ignore")


class Point(_Answer):
    text: str = Field(min_length=4, max_length=400)
    source: str = Field(min_length=1)


class IncrementAnswer(_Answer):
    points: list[Point] = Field(min_length=1, max_length=5)
    argument: str = Field(min_length=4, max_length=600)
    relation: str = Field(min_length=4, max_length=600)


class HonestyAnswer(_Answer):
    honesty: str = Field(min_length=4, max_length=800)


class ScopeMove(_Answer):
    key: str
    to: Literal["increments", "below_cut", "excluded"]
    reason: str = Field(min_length=2, max_length=300)


class ConditionNote(_Answer):
    """A claim the scouts pass on without its conditions: the claim as the source words it, what is missing."""

    key: str
    claim: str = Field(min_length=4, max_length=300)
    missing: str = Field(min_length=2, max_length=200)


class CoordinationNote(_Answer):
    """What a coordination note claims about a slot, as the model reads it."""

    claim: str = Field(min_length=4, max_length=300)
    reading: str = Field(min_length=2, max_length=300)


class ScopeAnswer(_Answer):
    moves: list[ScopeMove] = Field(default_factory=list, max_length=10)
    unconditioned: list[ConditionNote] = Field(default_factory=list, max_length=10)
    coordination: list[CoordinationNote] = Field(default_factory=list, max_length=10)


class AnswerError(ValueError):
    """The answer is not the JSON object asked for; the message says why (it goes into the retry)."""


_FENCE = re.compile(r"^```(?:json)?\s*(.*?)\s*```$", re.S)
A = TypeVar("A", bound=_Answer)


def parse_answer(text: str, model: type[A]) -> A:
    """The model's text as ``model``: one JSON object, optionally in a ```json fence."""
    body = text.strip()
    fenced = _FENCE.match(body)
    if fenced:
        body = fenced.group(1)
    try:
        data = json.loads(body)
    except json.JSONDecodeError as exc:
        raise AnswerError(f"not JSON ({exc.msg} at char {exc.pos})") from None
    if not isinstance(data, dict):
        raise AnswerError(f"a JSON {type(data).__name__}, not an object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(p) for p in error["loc"])
        raise AnswerError(f"field {where or '(root)'}: {error['msg']}") from None
