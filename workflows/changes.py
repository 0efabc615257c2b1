"""What changed since the previous day's brief of a slot, item by item (the review page and `baton review`).

Both briefs are compared as records, never as text: two days' Markdown differ on nearly every line,
so a text diff says nothing. The previous brief is baton's own JSON (the store's draft of the
thread ``<topic>:<day-1>``) when there is one; otherwise the brief in the vault is parsed
(``agents/scanner/briefs.py``), which gives its papers and D-numbers but no figures.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Literal

from agents.integrator.compare import FIGURE_TOKEN
from agents.scanner.briefs import BriefRecord, parse_brief
from agents.scanner.notes import read_vault_file
from state.models import Brief, Increment
from state.runtime import BatonContext

__all__ = ["ItemView", "FigureChange", "RegisterChange", "BriefChange", "compare_briefs_json",
           "compare_with_record", "change_since_previous", "previous_brief_path"]

# A citation of a source line inside a point ("（inbox/x/2026-10-14-note.md L14）") and arXiv ids carry
# digits that are not figures of the claim.
_CITATION = re.compile(r"[（(]?[\w./-]+\.md(?:\s*L\d+)?[）)]?")
_ARXIV = re.compile(r"\d{4}\.\d{4,5}(?:v\d+)?")


@dataclass(frozen=True)
class ItemView:
    """One item of a brief as the comparison sees it."""

    key: str
    title: str
    figures: tuple[str, ...] = ()


@dataclass(frozen=True)
class FigureChange:
    """An item in both briefs whose figures differ."""

    key: str
    title: str
    before: tuple[str, ...]
    after: tuple[str, ...]


@dataclass(frozen=True)
class RegisterChange:
    """A D-register entry that opened, closed or changed its text between the two briefs."""

    d: str
    change: Literal["opened", "closed", "changed"]
    text: str


@dataclass
class BriefChange:
    """Items added, dropped, kept with other figures; register entries opened, closed or changed."""

    previous: str | None  # the previous brief: a thread (baton's JSON) or a vault path (parsed Markdown)
    basis: Literal["json", "markdown", "none"]
    added: list[ItemView] = field(default_factory=list)
    dropped: list[ItemView] = field(default_factory=list)
    changed: list[FigureChange] = field(default_factory=list)
    kept: int = 0
    register: list[RegisterChange] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        """True when nothing changed (or there is nothing to compare with)."""
        return not (self.added or self.dropped or self.changed or self.register)

    def lines(self) -> list[str]:
        """The change as plain lines (the terminal's view; the page renders the same record)."""
        if self.basis == "none":
            return ["(no previous brief of this slot to compare with)"]
        basis = "" if self.basis == "json" else " (its Markdown: papers and D-numbers only, no figures)"
        out = [f"against {self.previous}{basis}: {len(self.added)} added, {len(self.dropped)} dropped, "
               f"{len(self.changed)} with changed figures, {self.kept} kept; {len(self.register)} register changes"]
        out += [f"+ {item.title} [{item.key}]" for item in self.added]
        out += [f"- {item.title} [{item.key}]" for item in self.dropped]
        for item in self.changed:
            out.append(f"~ {item.title}: {' '.join(item.before) or '—'} → {' '.join(item.after) or '—'}")
        out += [f"{change.d} {change.change}: {change.text}" for change in self.register]
        return out


def _figures(increment: Increment) -> tuple[str, ...]:
    text = " ".join([*increment.points, increment.argument])
    text = _ARXIV.sub(" ", _CITATION.sub(" ", text))
    return tuple(sorted(set(FIGURE_TOKEN.findall(text)), key=lambda t: (len(t), t)))


def _key(increment: Increment) -> str:
    if increment.key:
        return increment.key
    if increment.arxiv:
        return f"arxiv:{increment.arxiv[0]}"
    return f"title:{increment.title}"


def _items(brief: Brief) -> dict[str, ItemView]:
    return {_key(inc): ItemView(_key(inc), inc.title, _figures(inc)) for inc in brief.increments}


def _register(brief: Brief) -> tuple[dict[str, str], set[str]]:
    """Open entries (D → text) and closed numbers of a brief: its open register and the D-numbers it raises."""
    # An open entry raised before this brief's day that the previous brief did not name is not news.
    opened = {entry["d"]: str(entry.get("text") or "") for entry in brief.register_open if entry.get("d")}
    fresh = {entry["d"] for entry in brief.register_open if str(entry.get("raised") or brief.date) >= brief.date}
    for warning in brief.warnings:
        if warning.register:
            opened.setdefault(warning.register, warning.text)
    closed = {entry["d"] for entry in brief.register_closed if entry.get("d")}
    fresh |= {w.register for w in brief.warnings if w.register and not w.carried_from}
    return {d: text for d, text in opened.items() if d not in closed}, closed, fresh


def _register_changes(old_open: dict[str, str], old_closed: set[str], new_open: dict[str, str],
                      new_closed: set[str], fresh: set[str]) -> list[RegisterChange]:
    changes = []
    for d, text in new_open.items():
        if d not in old_open:
            if d not in fresh:
                continue
            changes.append(RegisterChange(d, "opened", text))
        elif old_open[d] and text and old_open[d] != text:
            changes.append(RegisterChange(d, "changed", text))
    for d in sorted(new_closed - old_closed):
        changes.append(RegisterChange(d, "closed", old_open.get(d, "")))
    return sorted(changes, key=lambda c: (int(c.d[1:]) if c.d[1:].isdigit() else 0, c.change))


def compare_briefs_json(previous: Brief, current: Brief) -> BriefChange:
    """The item-level change from ``previous`` to ``current`` (both baton briefs)."""
    old, new = _items(previous), _items(current)
    change = BriefChange(previous=previous.thread, basis="json")
    change.added = [item for key, item in new.items() if key not in old]
    change.dropped = [item for key, item in old.items() if key not in new]
    for key in new.keys() & old.keys():
        if new[key].figures != old[key].figures:
            change.changed.append(FigureChange(key, new[key].title, old[key].figures, new[key].figures))
        else:
            change.kept += 1
    change.changed.sort(key=lambda c: c.title)
    old_open, old_closed, _ = _register(previous)
    change.register = _register_changes(old_open, old_closed, *_register(current))
    return change


def compare_with_record(record: BriefRecord, current: Brief) -> BriefChange:
    """The change from a brief known only as Markdown (a person's) to ``current``: papers and D-numbers."""
    old = {f"arxiv:{paper.arxiv}": ItemView(f"arxiv:{paper.arxiv}", paper.title or paper.arxiv)
           for paper in record.increments}
    change = BriefChange(previous=record.path, basis="markdown")
    seen: set[str] = set()
    for inc in current.increments:
        ids = {f"arxiv:{a}" for a in inc.arxiv} | {_key(inc)}
        if ids & old.keys():
            change.kept += 1
            seen |= ids
        else:
            change.added.append(ItemView(_key(inc), inc.title, _figures(inc)))
    change.dropped = [item for key, item in old.items() if key not in seen]
    # Every number the Markdown names counts as known (its wording is not comparable, so no "changed").
    old_closed = {item.d for item in record.items if item.role == "closed"}
    old_open = {item.d: "" for item in record.items if item.d not in old_closed}
    change.register = _register_changes(old_open, old_closed, *_register(current))
    return change


def previous_brief_path(ctx: BatonContext, topic: str, day: date) -> Path | None:
    """The previous day's brief of the slot in the vault (baton's published one first, else a person's)."""
    executor = ctx.config.topic(topic).executor
    stem = f"{(day - timedelta(days=1)).isoformat()}-{topic}-e1prep"
    for name in (f"{stem}.baton.md", f"{stem}.md"):
        path = ctx.settings.vault / "inbox" / executor / name
        if path.is_file():
            return path
    return None


def change_since_previous(ctx: BatonContext, current: Brief) -> BriefChange:
    """Compare ``current`` with the previous day's brief of its slot: baton's JSON, else the vault's Markdown."""
    day = date.fromisoformat(current.date)
    previous_thread = f"{current.topic}:{(day - timedelta(days=1)).isoformat()}"
    stored = ctx.store.brief(previous_thread)
    if stored is not None:
        return compare_briefs_json(stored[0], current)
    path = previous_brief_path(ctx, current.topic, day)
    if path is None:
        return BriefChange(previous=None, basis="none")
    record = parse_brief(read_vault_file(ctx.settings.vault, path, ctx.config.tz))
    return compare_with_record(record, current)
