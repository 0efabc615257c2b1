"""Render a brief as the team's Chinese Markdown."""

from __future__ import annotations

from prompts import render_template
from state.models import Brief

__all__ = ["render_markdown", "BRIEF_TEMPLATE"]

BRIEF_TEMPLATE = "brief.md.j2"


def render_markdown(brief: Brief) -> str:
    """Render the brief as the team's Chinese Markdown (``prompts/brief.md.j2``)."""
    return render_template(BRIEF_TEMPLATE, brief=brief)
