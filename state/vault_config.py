"""The vault's own configuration: ``topics.toml`` and ``schedule.toml``, parsed once at the edge."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from state.errors import ConfigError
from state.toml_file import read_toml

__all__ = ["Topic", "Slot", "Schedule", "VaultConfig", "load_vault_config", "parse_hhmm",
           "REGISTER_PATH", "QUEUE_PATH", "CARDS_DIR"]

# Where the vault keeps its organised files (the vault README's layout), relative to its root.
REGISTER_PATH = "organized/registry/contradictions.md"
QUEUE_PATH = "organized/queue/work-queue.md"
CARDS_DIR = "organized/paper_cards"


def parse_hhmm(value: str) -> time:
    """Parse ``"22:20"`` into a time; raise ValueError naming the value otherwise."""
    try:
        hours, minutes = value.split(":")
        return time(int(hours), int(minutes))
    except (ValueError, AttributeError) as exc:
        raise ValueError(f"{value!r} is not a HH:MM time") from exc


class Topic(BaseModel):
    """One topic that gets a daily brief (``[topic.NAME]`` in topics.toml)."""

    model_config = ConfigDict(extra="forbid")

    name: str
    title: str
    living_doc: str
    executor: str
    slot: str
    window_end: str
    increments: tuple[int, int] = (3, 8)
    keywords: list[str] = Field(default_factory=list)
    # Scope (all optional): card categories that count as this topic's evidence (default: every topic of
    # the vault), other names sources use for the topic, and the content evidence an item needs.
    adjacent: list[str] | None = None
    aliases: list[str] = Field(default_factory=list)
    min_relevance: int = Field(default=1, ge=0, le=5)

    @field_validator("window_end")
    @classmethod
    def _check_time(cls, value: str) -> str:
        parse_hhmm(value)
        return value

    def window(self, day: date, tz: ZoneInfo) -> tuple[datetime, datetime]:
        """Return the window ``(D-1 at window_end, D at window_end]`` of ``day``."""
        end = datetime.combine(day, parse_hhmm(self.window_end), tzinfo=tz)
        return end - timedelta(days=1), end


class Slot(BaseModel):
    """One baton slot: who must deliver which note by when."""

    model_config = ConfigDict(extra="forbid")

    agent: str
    name: str
    pattern: str
    due: str
    topic: str | None = None
    alert: list[str] = Field(default_factory=list)
    # The first day the slot is expected (``baton init`` writes the day it made the vault): no gap
    # and no streak day before it. Without it a slot starts at its first note, else at the vault's
    # earliest dated note.
    since: date | None = None

    @field_validator("due")
    @classmethod
    def _check_time(cls, value: str) -> str:
        parse_hhmm(value)
        return value

    @property
    def key(self) -> str:
        """``agent/name``, the slot's name everywhere."""
        return f"{self.agent}/{self.name}"


class Schedule(BaseModel):
    """``schedule.toml``: the slots and the daily check."""

    model_config = ConfigDict(extra="forbid")

    timezone: str = "Asia/Shanghai"
    check_at: str = "12:45"
    slot: list[Slot] = Field(default_factory=list)

    @field_validator("check_at")
    @classmethod
    def _check_time(cls, value: str) -> str:
        parse_hhmm(value)
        return value


class VaultConfig(BaseModel):
    """Both files of a vault, with the timezone resolved."""

    model_config = ConfigDict(extra="forbid", arbitrary_types_allowed=True)

    root: Path
    topics: dict[str, Topic]
    schedule: Schedule

    @property
    def tz(self) -> ZoneInfo:
        """The vault's timezone."""
        return ZoneInfo(self.schedule.timezone)

    def topic(self, name: str) -> Topic:
        """Return topic ``name``; raise ConfigError listing the known ones."""
        if name not in self.topics:
            known = ", ".join(sorted(self.topics)) or "none"
            raise ConfigError(f"unknown topic {name!r}; topics.toml defines: {known}")
        return self.topics[name]

    def slot(self, key: str) -> Slot:
        """Return the slot ``agent/name`` or a slot found by its bare name."""
        for slot in self.schedule.slot:
            if key in (slot.key, slot.name):
                return slot
        known = ", ".join(s.key for s in self.schedule.slot)
        raise ConfigError(f"unknown slot {key!r}; schedule.toml defines: {known}")


def _one_line(exc: Exception) -> str:
    """A validation error as one line: ``field: message; field: message``."""
    if isinstance(exc, ValidationError):
        return "; ".join(f"{'.'.join(str(p) for p in err['loc']) or 'file'}: {err['msg']}" for err in exc.errors())
    return str(exc)


def _kind(value: object) -> str:
    """How TOML calls a value's type, for messages: ``an integer 5``."""
    names = {bool: "a boolean", int: "an integer", float: "a float", str: "a string", list: "an array"}
    return f"{names.get(type(value), 'a ' + type(value).__name__)} {value!r}"[:80]


def load_vault_config(root: Path) -> VaultConfig:
    """Read ``topics.toml`` and ``schedule.toml`` of the vault at ``root``."""
    raw_topics = read_toml(root / "topics.toml").get("topic", {})
    raw_schedule = read_toml(root / "schedule.toml")
    if not isinstance(raw_topics, dict):
        raise ConfigError(f"topics.toml: topic: must be [topic.NAME] tables, not {_kind(raw_topics)}")
    topics: dict[str, Topic] = {}
    for name, body in raw_topics.items():
        if not isinstance(body, dict):
            raise ConfigError(f"topics.toml [topic.{name}]: must be a table of settings, not {_kind(body)}")
        try:
            topics[name] = Topic(name=name, **body)
        except (ValidationError, TypeError) as exc:
            raise ConfigError(f"topics.toml [topic.{name}]: {_one_line(exc)}") from exc
    for name, topic in topics.items():
        if topic.adjacent is None:
            topic.adjacent = sorted(set(topics) - {name})
    try:
        schedule = Schedule(**raw_schedule)
    except (ValidationError, TypeError) as exc:
        raise ConfigError(f"schedule.toml: {_one_line(exc)}") from exc
    try:
        ZoneInfo(schedule.timezone)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ConfigError(f"schedule.toml: unknown timezone {schedule.timezone!r}") from exc
    return VaultConfig(root=root, topics=topics, schedule=schedule)
