"""Where the planted traps of a generated demo vault are: the manifest ``generate_demo_vault`` returns."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import NamedTuple

from pydantic import BaseModel, ConfigDict

__all__ = [
    "DemoManifest",
    "Duplicate",
    "MalformedId",
    "TwoNumbers",
    "MisspelledTitle",
    "VersionConflict",
    "NumberConflict",
    "Promise",
    "Instruction",
    "LateSlot",
    "MissingSlot",
    "FalseAlarm",
]


class Duplicate(NamedTuple):
    """Two byte-identical notes: the earlier one is kept, the later one is the duplicate."""

    kept: str
    copy: str


class MalformedId(NamedTuple):
    """A 4-digit arXiv number in ``path``; the full ``intended`` id is written in ``full_path``."""

    raw: str
    intended: str
    path: str
    full_path: str


class TwoNumbers(NamedTuple):
    """One paper cited under its number in ``correct_path`` and under a transposed one in ``wrong_path``."""

    title: str
    correct: str
    wrong: str
    correct_path: str
    wrong_path: str


class MisspelledTitle(NamedTuple):
    """A card's title and the misspelled form a note gives it."""

    card: str
    title: str
    written: str
    path: str


class VersionConflict(NamedTuple):
    """One product given two versions in two notes of the end window."""

    product: str
    versions: tuple[str, str]
    paths: tuple[str, str]


class NumberConflict(NamedTuple):
    """One metric of one engine given two figures under the same conditions."""

    entity: str
    metric: str
    unit: str
    values: tuple[float, float]
    paths: tuple[str, str]


class Promise(NamedTuple):
    """A dated promise whose month ended before the end day."""

    text: str
    due: date
    path: str


class Instruction(NamedTuple):
    """Text addressed to the model inside a note (it is data, not an instruction)."""

    path: str
    text: str


class LateSlot(NamedTuple):
    """A slot delivered late (at ``arrival``) on each day from ``first`` to ``last``; absent on the end day."""

    slot: str
    streak: int
    arrival: str
    first: date
    last: date


class MissingSlot(NamedTuple):
    """A slot with no note at all on ``day``."""

    slot: str
    day: date


class FalseAlarm(NamedTuple):
    """A coordination note that calls ``slot`` of ``day`` missing although it was delivered on time."""

    path: str
    slot: str
    day: date


class DemoManifest(BaseModel):
    """Where every planted trap of a generated demo vault is, and what it should yield.

    Paths are relative to ``root`` (POSIX). ``net_new_ids`` are the inference topic's NET-new papers on
    ``end`` (``net_new_by_topic`` has both topics); ``anchored_ids`` are papers re-mentioned in the end
    window that the living documents already anchor; ``excluded_cards`` are in-window cards whose primary
    class (multimodal) is outside both topics; ``time_sources`` maps notes to the rule that dates them
    (``VaultFile.time_from``); ``next_d`` is the register's next free number.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    root: Path
    end: date
    days: int
    seed: int
    topics: tuple[str, ...]
    files: int
    gb18030_note: str
    empty_note: str
    truncated_note: str
    undated_note: str
    duplicate: Duplicate
    bad_card: str
    card_in_window: str
    card_out_of_window: str
    card_at_window_start: str
    malformed_id: MalformedId
    two_numbers: TwoNumbers
    misspelled_title: MisspelledTitle
    version_conflict: VersionConflict
    number_conflict: NumberConflict
    promise: Promise
    instruction: Instruction
    late_slot: LateSlot
    missing_slot: MissingSlot
    false_alarm: FalseAlarm
    net_new_ids: tuple[str, ...]
    net_new_by_topic: dict[str, tuple[str, ...]]
    anchored_ids: tuple[str, ...]
    excluded_cards: tuple[str, ...]
    earlier_briefs: dict[str, str]
    time_sources: dict[str, str]
    next_d: str
