"""`baton review` for a terminal: the draft, the item-level change and the warnings, fitted to 80 columns."""

from __future__ import annotations

import os
import subprocess
import sys
import unicodedata

from state.errors import UsageError
from state.models import WARNING_KINDS
from workflows.review import ReviewView, warning_line

__all__ = ["WIDTH", "fit", "review_text", "page_or_print"]

WIDTH = 80


def _cells(ch: str) -> int:
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 0 if unicodedata.combining(ch) else 1


def fit(line: str, width: int = WIDTH, indent: str = "  ") -> list[str]:
    """Break ``line`` into pieces of at most ``width`` display cells (CJK is two), at spaces when possible."""
    out: list[str] = []
    current, used, last_space = "", 0, -1
    for ch in line.rstrip():
        size = _cells(ch)
        if used + size > width and current.strip():
            if last_space > max(len(indent), len(current) // 2) and not ch.isspace():
                head, tail = current[:last_space], current[last_space + 1:]
            else:
                head, tail = current, ""
            out.append(head.rstrip())
            current = indent + tail.lstrip()
            used, last_space = sum(_cells(c) for c in current), -1
            if ch == " ":
                continue
        if ch == " ":
            last_space = len(current)
        current += ch
        used += size
    out.append(current.rstrip())
    return out


def review_text(view: ReviewView, kinds: list[str] | None = None, new_only: bool = False,
                change_only: bool = False, width: int = WIDTH) -> str:
    """The whole review as text no wider than ``width`` cells."""
    unknown = [k for k in kinds or [] if k not in WARNING_KINDS]
    if unknown:
        raise UsageError(f"unknown warning kind {', '.join(unknown)}; known: {', '.join(WARNING_KINDS)}")
    lines: list[str] = []
    if not change_only:
        lines += view.markdown.splitlines()
    lines += ["", "── since the previous brief ──"]
    lines += view.change.lines()
    if not change_only:
        all_warnings = view.brief.warnings
        carried = sum(1 for w in all_warnings if w.carried_from)
        shown = view.select_warnings(kinds, new_only)
        what = [f"kind {', '.join(kinds)}"] if kinds else []
        what += ["new only"] if new_only else []
        filtered = f"; showing {len(shown)} ({', '.join(what)})" if what else ""
        lines += ["", f"── warnings: {len(all_warnings)} (沿用 {carried} / 新增 {len(all_warnings) - carried})"
                      f"{filtered} ──"]
        lines += [warning_line(w) for w in shown]
    state = "waiting for approval" if view.waiting else "not waiting for approval"
    lines += ["", f"thread {view.thread} · revision {view.revision} · {state}"]
    return "\n".join(piece for line in lines for piece in fit(line, width)) + "\n"


def page_or_print(text: str) -> None:
    """Through ``$PAGER`` (default ``less -R``) when stdout is a terminal, else straight to stdout."""
    if sys.stdout.isatty():
        pager = os.environ.get("PAGER", "less -R").strip()
        if pager and pager != "cat":
            # A shell command, as git and man read $PAGER ("less -R", "less | cat"); 127: not found.
            done = subprocess.run(pager, shell=True, input=text.encode("utf-8"), check=False)  # noqa: S602
            if done.returncode != 127:
                return
    sys.stdout.write(text)
    sys.stdout.flush()
