"""Per-agent note counts of a topic's earlier windows, read from the vault itself.

A first run on an old vault knows the past: the counts come from the inbox,
not from earlier runs. They tell a thin day from a broken input.
"""

from __future__ import annotations

from datetime import date, timedelta

from agents.scanner.notes import parse_note_name, read_vault_file
from agents.scanner.window import is_slot_brief
from state.errors import ConfigError
from state.vault_config import VaultConfig

__all__ = ["window_counts_history", "HISTORY_WINDOWS"]

HISTORY_WINDOWS = 14


def window_counts_history(cfg: VaultConfig, topic_name: str, day: date,
                          windows: int = HISTORY_WINDOWS) -> list[dict[str, int]]:
    """Read notes per agent in each of the ``windows`` windows before ``day``, oldest first."""
    topic = cfg.topic(topic_name)
    try:
        slot = cfg.slot(topic.slot)
    except ConfigError:
        slot = None
    bounds = [topic.window(day - timedelta(days=k), cfg.tz) for k in range(windows, 0, -1)]
    first, last = bounds[0][0].date(), bounds[-1][1].date()
    counts: list[dict[str, int]] = [{} for _ in bounds]
    seen: list[set[str]] = [set() for _ in bounds]  # a byte-identical copy counts once, as in the window scan
    inbox = cfg.root / "inbox"
    if not inbox.is_dir():
        return counts
    for agent_dir in sorted(p for p in inbox.iterdir() if p.is_dir()):
        for path in agent_dir.glob("*.md"):
            name = parse_note_name(path.name)
            if name.day is None or not first - timedelta(days=1) <= name.day <= last:
                continue
            if slot is not None and agent_dir.name == slot.agent and is_slot_brief(path.name, slot.pattern):
                continue  # the topic's own briefs are output (or baseline), not notes
            file = read_vault_file(cfg.root, path, cfg.tz)
            # Counted as the window scan counts today's notes: read, or read though truncated.
            if file.time is None or any(kind != "truncated" for kind, _ in file.problems):
                continue
            for index, (start, end) in enumerate(bounds):
                if start < file.time <= end:
                    if file.sha256 not in seen[index]:
                        seen[index].add(file.sha256)
                        counts[index][agent_dir.name] = counts[index].get(agent_dir.name, 0) + 1
                    break
    return counts
