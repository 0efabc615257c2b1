"""``baton init DIR``: a new vault's skeleton, the layout of the vault format, never over a file.

The files are a starting point a team edits: one topic, its executor's brief slot, the noon check,
an empty feed list. Everything is written only when none of the files exists yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

from state.errors import ConfigError, UsageError
from state.files import atomic_write_text
from state.settings import read_env
from state.vault_config import CARDS_DIR, QUEUE_PATH, REGISTER_PATH

__all__ = ["InitResult", "init_vault", "init_moment", "SKELETON", "SKELETON_TIMEZONE"]

SKELETON_TIMEZONE = "Asia/Shanghai"  # the timezone schedule.toml is written with (the team edits it)

_SCHEDULE = """\
# Baton slots: who must deliver which note, by when. Times are local to `timezone`.
# A slot is met on a day when inbox/<agent>/ holds a note of that date whose name matches
# `pattern` ({date} = YYYY-MM-DD; * and ? as in globs) and whose time is at or before `due`.
# `alert` names who hears about a gap; map each name to a webhook with BATON_WEBHOOKS=NAME=URL.
# `since` is the first day a slot is expected: no gap and no streak is counted before it.

timezone = "{timezone}"
check_at = "12:45"          # the daily coordination check (`baton check`)

[[slot]]
agent = "lead"
name = "example-e1prep"
pattern = "{date}-example-e1prep.md"
due = "22:30"
topic = "example"
alert = ["lead"]
since = {since}           # the day `baton init` made this vault
"""

_TOPICS = """\
# Topics that get a daily E1 brief (`baton run --topic NAME`). `baton schedule` runs each one at
# its `window_end`: the brief covers the 24 hours before that time.

[topic.example]
title = "example"
living_doc = "organized/knowledge/example.md"
executor = "lead"           # the brief is published into inbox/<executor>/
slot = "example-e1prep"     # the slot of schedule.toml the brief fills
window_end = "22:20"
increments = [3, 8]         # target range; fewer is fine when the day is thin
keywords = ["inference", "KV cache", "推理"]
"""

_FEEDS = """\
# RSS / Atom feeds fetched by `baton feeds fetch` into inbox/feeds/ (one note per new entry).
# `fetch_at` lists the local times `baton schedule` fetches at (default: 30 minutes before each
# topic's window end).

# fetch_at = ["08:00", "21:50"]

# [[feed]]
# name = "arxiv-cs-ai"
# url = "https://rss.arxiv.org/atom/cs.AI"
"""

_LIVING_DOC = """\
---
topic: example
version: 1
updated: {updated}
---

# example · 活文档

## §1 概览

"""

_QUEUE = "# work-queue\n\n精读队列快照，按时间倒序追加（`## YYYY-MM-DD HH:MM`，表格 rank | arXiv | title | card | flag）。\n"

_REGISTER = """\
---
updated: {updated}
---

# 矛盾与待核登记簿（contradictions register）

| D | 内容 | 风险 | 首次提出 | 状态 | 来源 |
|---|---|---|---|---|---|
"""

# Relative path → text; folders end in "/" (kept with a .gitkeep so a git-synced vault keeps them).
SKELETON: dict[str, str] = {
    "schedule.toml": _SCHEDULE,
    "topics.toml": _TOPICS,
    "feeds.toml": _FEEDS,
    "organized/knowledge/example.md": _LIVING_DOC,
    QUEUE_PATH: _QUEUE,
    REGISTER_PATH: _REGISTER,
    f"{CARDS_DIR}/.gitkeep": "",
    "inbox/lead/.gitkeep": "",
    "inbox/feeds/.gitkeep": "",
    # baton's state (SQLite store, checkpoints, drafts) is local: a git-synced vault must not commit it.
    ".baton/.gitignore": "# baton's local state: never commit it\n*\n",
}


def init_moment() -> datetime:
    """Now in the skeleton's timezone; ``BATON_NOW`` / ``BATON_TODAY`` pin it (a bad setting is ignored here:
    init writes files, the commands that read the settings say what is wrong)."""
    tz = ZoneInfo(SKELETON_TIMEZONE)
    try:
        env = read_env()
    except ConfigError:
        return datetime.now(tz)
    if env.now is not None:
        return env.now.astimezone(tz)
    now = datetime.now(tz)
    return datetime.combine(env.today, now.time(), tzinfo=tz) if env.today is not None else now


@dataclass(frozen=True)
class InitResult:
    """The vault folder and the files written, relative to it."""

    root: Path
    written: list[str]


def init_vault(root: Path, updated: str) -> InitResult:
    """Write the skeleton into ``root`` (created if needed); refuse when any of its files exists.

    ``updated`` is the moment (ISO 8601 with offset, in the vault's timezone) written into the living
    document and register; its date is each slot's ``since`` (the first day the slot is expected).
    """
    root = root.expanduser().resolve()
    if root.exists() and not root.is_dir():
        raise UsageError(f"{str(root)!r} exists and is not a folder")
    existing = [rel for rel in SKELETON if (root / rel).exists()]
    if existing:
        raise UsageError(f"{str(root)!r} already has {', '.join(existing)}: baton init never overwrites a file "
                         "(edit them, or init an empty folder)")
    for rel, text in SKELETON.items():
        # The vault-local date of the moment, and the timezone it is in.
        text = text.replace("{since}", updated[:10]).replace("{timezone}", SKELETON_TIMEZONE)
        atomic_write_text(root / rel, text.format(updated=updated) if "{updated}" in text else text)
    return InitResult(root, list(SKELETON))
