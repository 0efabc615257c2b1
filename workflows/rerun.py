"""An unchanged re-run answers from what is stored (issue 12: "a day's cost follows the day").

A run that stopped at the approval step records what it ran on: the vault's listing (every file's
path, size and mtime), the settings and baton's version, "today", and the store's watermark (row
counts and newest ids: a decision, an excuse, another thread's run or a ``baton check`` changes it).
The next ``baton run`` of the thread computes the same fingerprint first; when it is equal, the
draft still waiting for approval is the answer, and the graph is not even imported. Anything else
— a touched file, a decision, a degraded first run (arXiv unreachable, alerts not delivered), a
draft file gone — runs the graph as before.
"""

from __future__ import annotations

import hashlib
import json
import os
from datetime import date
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from state.runtime import BatonContext
from state.watermark import store_watermark

__all__ = ["RunInputs", "vault_listing", "run_inputs", "stored_answer", "remember_answer", "ANSWER_ARTIFACT"]

ANSWER_ARTIFACT = "unchanged_answer"


class RunInputs(BaseModel):
    """What a run's result depends on, as digests (the listing and the rest apart: the listing is re-checked)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    listing: str
    other: str


class StoredAnswer(BaseModel):
    """What the last run of a thread stopped with, and on what."""

    model_config = ConfigDict(extra="forbid")

    inputs: RunInputs
    watermark: str
    run_id: int
    brief_sha256: str
    revision: int
    drafts: list[str]


def vault_listing(root: Path, skip: list[Path]) -> str:
    """A digest of every file under ``root`` (path, size, mtime in ns), ``skip`` folders and ``.git`` left out."""
    skipped = {os.path.realpath(p) for p in skip}
    digest = hashlib.sha256()
    stack = [str(root)]
    rows: list[str] = []
    while stack:
        folder = stack.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as exc:
            rows.append(f"{folder}\0unlistable {exc.errno}")
            continue
        for entry in entries:
            rel = os.path.relpath(entry.path, root)
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != ".git" and os.path.realpath(entry.path) not in skipped:
                        stack.append(entry.path)
                    continue
                st = entry.stat(follow_symlinks=False)
                target = os.readlink(entry.path) if entry.is_symlink() else ""
            except OSError as exc:
                rows.append(f"{rel}\0unreadable {exc.errno}")
                continue
            rows.append(f"{rel}\0{st.st_mode}\0{st.st_size}\0{st.st_mtime_ns}\0{target}")
    for row in sorted(rows):
        digest.update(row.encode("utf-8", "surrogateescape") + b"\n")
    return digest.hexdigest()


def _baton_version() -> str:
    try:
        return version("baton")
    except PackageNotFoundError:
        return "unknown"


def run_inputs(ctx: BatonContext, topic: str, day: date) -> RunInputs:
    """The fingerprint of a run of ``topic`` on ``day`` as things stand now."""
    settings = ctx.settings
    listing = vault_listing(settings.vault, [settings.state_dir])
    today = settings.today_in(ctx.config.tz)
    llm = [getattr(ctx.llm, k, None) for k in ("name", "model", "endpoint")] if ctx.llm is not None else None
    other = {"topic": topic, "day": day.isoformat(), "today": today.isoformat(), "version": _baton_version(),
             "settings": settings.model_dump(mode="json"), "llm": llm}
    return RunInputs(listing=listing,
                     other=hashlib.sha256(json.dumps(other, sort_keys=True, default=str).encode()).hexdigest())


def _usable(ctx: BatonContext) -> bool:
    # The test hooks stop or pause a run at a node: such a run always goes through the graph.
    return not (ctx.settings.crash_after or ctx.settings.pause_after or ctx.settings.auto_approve)


_SQLITE_HEADER = b"SQLite format 3\x00"


def _checkpoints_sound(ctx: BatonContext) -> bool:
    """The thread's checkpoints can still be resumed: a SQLite checkpoint file that is not one any more
    (garbage over it) sends the run through the graph, which names the file and what to do."""
    path = ctx.settings.checkpoint_path
    if ctx.settings.database_url.startswith("postgresql") or not path.exists():
        return True
    try:
        with path.open("rb") as handle:
            return handle.read(len(_SQLITE_HEADER)) in (_SQLITE_HEADER, b"")
    except OSError:
        return False


def stored_answer(ctx: BatonContext, thread: str, inputs: RunInputs) -> StoredAnswer | None:
    """The stored answer of ``thread`` when nothing it depends on changed since; else None."""
    if not _usable(ctx) or not _checkpoints_sound(ctx):
        return None
    raw = ctx.store.artifact(thread, ANSWER_ARTIFACT)
    if raw is None:
        return None
    try:
        answer = StoredAnswer.model_validate(raw)
    except ValidationError:
        return None
    if answer.inputs != inputs or answer.watermark != store_watermark(ctx.db):
        return None
    stored = ctx.store.brief(thread)
    if stored is None or stored[2] != answer.revision or answer.brief_sha256 != _sha(stored[1]):
        return None
    for draft in answer.drafts:
        path = Path(draft)
        if not path.is_file():
            return None
        if path.suffix == ".md" and _sha(path.read_text(encoding="utf-8")) != answer.brief_sha256:
            return None
    return answer


def remember_answer(ctx: BatonContext, thread: str, inputs: RunInputs, *, run_id: int, brief_sha256: str,
                    revision: int, drafts: list[str]) -> None:
    """Record what the thread stopped with (call after the run's record is finished: the watermark is taken now)."""
    if not _usable(ctx):
        return
    answer = StoredAnswer(inputs=inputs, watermark=store_watermark(ctx.db), run_id=run_id,
                          brief_sha256=brief_sha256, revision=revision, drafts=drafts)
    ctx.store.save_artifact(thread, ANSWER_ARTIFACT, answer.model_dump(mode="json"))


def forget_answer(ctx: BatonContext, thread: str) -> None:
    """Drop the thread's stored answer (a run that did not end waiting with the same inputs)."""
    if ctx.store.artifact(thread, ANSWER_ARTIFACT) is not None:
        ctx.store.save_artifact(thread, ANSWER_ARTIFACT, {})


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
