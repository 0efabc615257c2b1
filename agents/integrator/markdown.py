"""Render a brief as the team's Chinese Markdown."""

from __future__ import annotations

from agents.integrator.escape import markdown_text
from prompts import render_template
from state.models import Brief

__all__ = ["render_markdown", "BRIEF_TEMPLATE"]

BRIEF_TEMPLATE = "brief.md.j2"


def render_markdown(brief: Brief) -> str:
    """Render the brief as the team's Chinese Markdown (``prompts/brief.md.j2``).

    Every value written into it passes ``markdown_text``: vault text stays text (no heading, table row,
    HTML or script link of its own).
    """
    return render_template(BRIEF_TEMPLATE, finalize=markdown_text, brief=brief)
