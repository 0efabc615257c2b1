"""Vault text as HTML: Markdown rendered with raw HTML off (so ``<script>`` in a note is text), links to notes."""

from __future__ import annotations

import re
from pathlib import PurePosixPath
from urllib.parse import quote

from markdown_it import MarkdownIt
from markupsafe import Markup

__all__ = ["markdown_html", "link_warnings", "note_url", "bad_vault_path"]

# The brief names its warnings as "警示 C3" or "警示 C4 / C5 / C6" (credibility lines, the summary).
_WARNING_REFS = re.compile(r"警示 (C\d+(?: / C\d+)*)")
_WARNING_ID = re.compile(r"C\d+")

# "commonmark" with html off: a tag in the source is escaped, never passed through; a line break is
# kept (the brief is line-oriented: a line per source, per bullet); links keep
# markdown-it's own check (no javascript:, vbscript:, file: or data: targets).
_MD = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False, "breaks": True}).enable("table")


def markdown_html(text: str) -> Markup:
    """Render Markdown to HTML that is safe to put in a page."""
    return Markup(_MD.render(text))


def link_warnings(html: Markup, known: set[str]) -> Markup:
    """Make each "警示 C3" in the rendered brief a link to that warning beside the brief."""

    def refs(match: re.Match[str]) -> str:
        linked = _WARNING_ID.sub(lambda m: f'<a class="wref" href="#warning-{m.group(0)}">{m.group(0)}</a>'
                                 if m.group(0) in known else m.group(0), match.group(1))
        return f"警示 {linked}"

    return Markup(_WARNING_REFS.sub(refs, str(html)))


def note_url(path: str) -> str:
    """The page's link to a vault file (``inbox/x/a b.md`` → ``/vault/inbox/x/a%20b.md``)."""
    return "/vault/" + "/".join(quote(part, safe="") for part in path.split("/"))


def bad_vault_path(path: str) -> str | None:
    """Why a requested vault path is refused before touching the disk, or None when its shape is fine."""
    if not path or "\\" in path or "\x00" in path or path.startswith("/"):
        return "not a path inside the vault"
    parts = PurePosixPath(path).parts
    if any(part in ("..", ".") for part in path.split("/")):
        return "a path with ../ leads outside the vault"
    if any(part.startswith(".") for part in parts):
        return "hidden folders (such as baton's own state) are not shown"
    return None
