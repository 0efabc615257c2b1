"""The E1 brief's format, in one place: file names, part headings, increment, warning and D-number lines.

Everything that reads or writes a brief goes through here: the scanner's brief
parser (``agents.scanner.briefs``), the register, ``compare``, the integrator's
clustering and source weighting, and the drafts and publishing (file names).

- A brief is a note whose slug ends in ``-e1prep`` (``2027-03-16-serving-e1prep.md``); baton's
  own published copy sits beside a person's as ``….e1prep.baton.md``.
- Parts are headed ``一、…`` … ``七、…``; increments ``增量 N：…`` (and ``承接…#N``); warnings
  ``⚠️ C3（新增 D214）：…`` or ``D195：…``; a D-number is ``D`` and three or more digits.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from pathlib import PurePosixPath

__all__ = [
    "BRIEF_SLUG", "brief_file_name", "is_brief_name", "is_brief_path", "relayed_only", "PART", "PART_LINE", "INCREMENT_HEAD",
    "INCREMENT_LINE", "WARNING_LINE", "D_NUMBER", "anchoring_lines",
]

BRIEF_SLUG = "e1prep"

# A part heading: "一、检查过的来源清单" (Markdown "#" allowed before it).
PART_LINE = re.compile(r"^\s*(?:#+\s*)?([一二三四五六七八九十]+)、")
PART = re.compile(r"^\s*([一二三四五六七八九十])、(.*)$", re.MULTILINE)
# An increment's first line: "增量 3：…", "承接稳态 #2：…", or a numbered line inside part 二.
INCREMENT_HEAD = re.compile(r"^\s*(?:#+\s*)?(?:增量\s*\d+|承接[^：:]{0,20}#?\d+|\d+\.)\s*[：:．.]?\s*")
INCREMENT_LINE = re.compile(r"^\s*增量\s*\d+\s*[：:]", re.MULTILINE)
# A warning's first line: "⚠️ C3（新增 D214）：…" or "D195：…".
WARNING_LINE = re.compile(r"^\s*(?:⚠️\s*)?(?:C\d+|D\d{3,})\s*[（(：:]", re.MULTILINE)
D_NUMBER = re.compile(r"\bD(\d{3,})\b")


def brief_file_name(day: date, topic: str, *, baton: bool = False) -> str:
    """``<date>-<topic>-e1prep.md`` (``….e1prep.baton.md`` for baton's copy beside a person's)."""
    return f"{day.isoformat()}-{topic}-{BRIEF_SLUG}{'.baton' if baton else ''}.md"


def is_brief_name(name: str) -> bool:
    """Tell whether a file name is a person's E1 brief (slug ending in ``-e1prep``; baton's
    ``.baton.md`` copy is told apart by the window scan)."""
    return name.removesuffix(".md").endswith(f"-{BRIEF_SLUG}")


_BRIEF_TOPIC = re.compile(rf"^\d{{4}}-\d{{2}}-\d{{2}}-(?P<topic>[\w.-]+?)-{BRIEF_SLUG}(?:\.baton)?\.md$")


def brief_topic(path: str) -> str | None:
    """The topic a brief is for, from its file name (``2026-09-29-risk-e1prep.md`` → ``risk``)."""
    match = _BRIEF_TOPIC.match(PurePosixPath(path).name)
    return match.group("topic") if match else None


def is_coordination_path(path: str) -> bool:
    """Tell whether a vault path is a coordination note (``inbox/<lead>/*coordination*``): a relay too."""
    return "coordination" in PurePosixPath(path).name.lower()


def is_brief_path(path: str) -> bool:
    """Tell whether a vault path is an E1 brief (a relay of its sources, not a first-hand note)."""
    return is_brief_name(PurePosixPath(path).name)


def is_relay_path(path: str) -> bool:
    """Tell whether a vault path restates the scouts' notes (a brief or a coordination note): no witness."""
    return is_brief_path(path) or is_coordination_path(path)


def relayed_only(sources: Sequence[str]) -> bool:
    """Whether a finding stands only in briefs of the inbox (another topic's, earlier days'): they relay
    their notes, so the finding has no first-hand source here."""
    return bool(sources) and all(s.startswith("inbox/") and is_brief_path(s) for s in sources)


# What a brief anchors: its status summary's increments, its increments part and its citable arXiv list; not its
# sources list, its warnings or its notes, nor a line filing a paper as another topic's ("（rag 邻接）") or
# listing it as not citable.
_HEADER_ANCHORS = re.compile(r"核心(?:增量|新增)|增量条目|诚实度|NET-new|整合")
_NOT_ANCHORED = re.compile(r"邻接|主轴外|不可引用|仅供核对|排除|丢弃|转交|未入选", re.IGNORECASE)
_ANCHORING_PART = re.compile(r"增量|arXiv", re.IGNORECASE)


def anchoring_lines(text: str) -> list[str]:
    """The lines of an E1 brief that carry items as this topic's (see ``_ANCHORING_PART``); the whole text when it
    has no parts (a short brief)."""
    lines = text.split("\n")
    if not any(PART_LINE.match(line) for line in lines):
        return [line for line in lines if not _NOT_ANCHORED.search(line)]
    kept, part, closed = [], None, False
    for line in lines:
        head = PART.match(line)
        if head:
            part, closed = head.group(2), False
            continue
        if part is not None and re.search(r"仅供核对|不可引用", line) and not line.lstrip().startswith(("增量", "-", "•")):
            closed = True  # "仅供核对、不可引用（…）：" opens the list of what is not this topic's to cite
        if _NOT_ANCHORED.search(line) or closed:
            continue
        if (part is None and _HEADER_ANCHORS.search(line)) or (part is not None and _ANCHORING_PART.search(part)):
            kept.append(line)
    return kept
