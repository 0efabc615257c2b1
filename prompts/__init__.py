"""The one template loader: Jinja2 files in this folder, strict about what the caller passes.

A template and its caller must agree on the variables: rendering fails with
``TemplateError`` naming the missing ones (checked before rendering from the
template's own source, and again for attributes reached at render time,
since ``StrictUndefined`` raises on any undefined use). The approach follows
simonw/llm's ``templates.py``, which refuses to run a template whose
variables were not all supplied.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from jinja2 import (
    Environment,
    FileSystemLoader,
    StrictUndefined,
    TemplateNotFound,
    TemplateSyntaxError,
    UndefinedError,
    meta,
)

from state.errors import TemplateError
from state.models import WARNING_LABELS

__all__ = ["PROMPTS_DIR", "template_variables", "render_template", "prompt_version"]

PROMPTS_DIR = Path(__file__).resolve().parent


def _stars(value: int | None) -> str:
    """Credibility 1-5 as the team writes it (★★★★☆ is not their style: only filled stars)."""
    if not value:
        return "—"
    return "★" * max(1, min(5, int(value)))


def _hhmm(value: datetime | None) -> str:
    return value.strftime("%H:%M") if value else "—"


def _stamp(value: datetime | None) -> str:
    return value.strftime("%Y-%m-%d %H:%M") if value else "—"


def _size(value: int | None) -> str:
    if not value:
        return "0B"
    if value < 1024:
        return f"{value}B"
    return f"{value / 1024:.1f}KB"


def _environment() -> Environment:
    env = Environment(
        loader=FileSystemLoader(str(PROMPTS_DIR)),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # Markdown, not HTML
    )
    env.filters.update(stars=_stars, hhmm=_hhmm, stamp=_stamp, size=_size,
                       kind_label=lambda kind: WARNING_LABELS.get(kind, kind))
    return env


_ENV = _environment()
_FINALIZED: dict[Callable[[object], object], Environment] = {}


def _environment_for(finalize: Callable[[object], object] | None) -> Environment:
    """The shared environment, or an overlay that passes every ``{{ … }}`` value through ``finalize``."""
    if finalize is None:
        return _ENV
    if finalize not in _FINALIZED:
        # Own cache: a template compiled without ``finalize`` must not be reused with it.
        _FINALIZED[finalize] = _ENV.overlay(finalize=finalize, cache_size=50)
    return _FINALIZED[finalize]


def template_variables(name: str) -> set[str]:
    """Return the top-level variables template ``name`` reads."""
    try:
        source, _, _ = _ENV.loader.get_source(_ENV, name)  # type: ignore[union-attr]
        return set(meta.find_undeclared_variables(_ENV.parse(source)))
    except TemplateNotFound as exc:
        raise TemplateError(f"template {name!r} not found in {str(PROMPTS_DIR)!r}") from exc
    except TemplateSyntaxError as exc:
        raise TemplateError(f"template {name!r} line {exc.lineno}: {exc.message}") from exc


def render_template(name: str, *, finalize: Callable[[object], object] | None = None, **variables: object) -> str:
    """Render template ``name``; raise TemplateError naming what the caller did not supply.

    ``finalize`` (optional) is applied to every value the template writes out, e.g. Markdown escaping.
    """
    missing = sorted(template_variables(name) - set(variables))
    if missing:
        raise TemplateError(f"template {name!r} needs variables the caller did not pass: {', '.join(missing)}")
    try:
        return _environment_for(finalize).get_template(name).render(**variables)
    except UndefinedError as exc:
        raise TemplateError(f"template {name!r} reads something the caller did not supply: {exc.message}") from exc


_VERSION = re.compile(r"version:\s*([\w.-]+)")


def prompt_version(name: str) -> str:
    """The version a prompt template states in its first comment (``{#- version: increment-1 … -#}``)."""
    try:
        source, _, _ = _ENV.loader.get_source(_ENV, name)  # type: ignore[union-attr]
    except TemplateNotFound as exc:
        raise TemplateError(f"template {name!r} not found in {str(PROMPTS_DIR)!r}") from exc
    found = _VERSION.search(source.split("\n", 1)[0])
    if found is None:
        raise TemplateError(f"template {name!r} states no version on its first line")
    return found.group(1)
