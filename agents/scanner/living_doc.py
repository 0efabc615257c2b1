"""The one parser of a topic's living document: sections, bullets, anchoring markers."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, time, tzinfo

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.frontmatter import parse_front_time, split_front_matter

__all__ = ["Bullet", "Section", "LivingDoc", "parse_living_doc"]

_SECTION = re.compile(r"^##\s+(?P<id>§\s*[\w.()（）]+)\s*(?P<title>.*)$")
_MARKER = re.compile(r"〔\s*v(?P<version>[\d.]+)\s*·\s*(?P<day>\d{4}-\d{2}-\d{2})\s*〕\s*$")


@dataclass
class Bullet:
    """One anchored item: a bullet and its 〔vNNN · YYYY-MM-DD〕 marker."""

    text: str
    line: int
    version: str | None = None
    day: date | None = None
    arxiv: list[str] = field(default_factory=list)


@dataclass
class Section:
    """A ``## §N.N title`` section and its bullets."""

    id: str
    title: str
    line: int
    bullets: list[Bullet] = field(default_factory=list)


@dataclass
class LivingDoc:
    """A living document: version, update time and its sections."""

    version: str | None = None
    updated: datetime | None = None
    sections: list[Section] = field(default_factory=list)
    # The change log's entries ("- v264 · 2026-09-27 12:50 · …"): (version, when; None for a date-only entry's
    # time, which is read as the end of its day).
    changes: list[tuple[str, datetime]] = field(default_factory=list)

    def _anchored(self, bullet: Bullet, day: date, at: datetime | None) -> bool:
        if bullet.day is None or bullet.day < day:
            return True
        # A merge on the brief's own day counts only when this document version was already out
        # when the brief was written (llm-infra's 05:00 morning merge before its 18:40 brief);
        # inference's evening merge of D lands after D's 22:20 brief and does not.
        return (bullet.day == day and at is not None and self.updated is not None
                and bullet.version == self.version and self.updated <= at)

    def anchored_as_of(self, day: date, at: datetime | None = None) -> list[tuple[Section, Bullet]]:
        """Bullets anchored when the brief of ``day`` was written (at ``at``, its window end, when known).

        A marker dated before ``day`` counts: the evening merge of D-1 lands after D-1's brief.
        """
        return [
            (section, bullet)
            for section in self.sections
            for bullet in section.bullets
            if self._anchored(bullet, day, at)
        ]

    def anchored_ids(self, day: date, at: datetime | None = None) -> dict[str, tuple[Section, Bullet]]:
        """The arXiv ids anchored as of ``day`` (and ``at``), each with its first section and bullet."""
        anchored: dict[str, tuple[Section, Bullet]] = {}
        for section, bullet in self.anchored_as_of(day, at):
            for identifier in bullet.arxiv:
                anchored.setdefault(identifier, (section, bullet))
        return anchored

    def version_as_of(self, day: date, at: datetime | None = None) -> str | None:
        """The document's version when the brief of ``day`` was written: the file's own when it was not
        changed since, else the newest version among the bullets anchored by then (None when unknown)."""
        if self.updated is None or at is None or self.updated <= at:
            return self.version
        if self.changes:  # the change log says when each version came out
            out = [version for version, when in self.changes if (when if when.tzinfo else when.replace(
                tzinfo=at.tzinfo)) <= at]
            if out:
                return max(out, key=_version_key)
        versions = [b.version for _, b in self.anchored_as_of(day, at) if b.version]

        return max(versions, key=_version_key) if versions else None

    def section(self, section_id: str) -> Section | None:
        """Return the section ``section_id`` (e.g. ``§3.3``)."""
        return next((s for s in self.sections if s.id == section_id), None)


def _version_key(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version))


# A change-log line: "- v264 · 2026-09-27 12:50 · …", "- v3.45 (2026-09-28 05:00): …", "* 1.2 — 2026-09-27".
_CHANGE = re.compile(r"^\s*[-*]\s+v?(?P<version>\d+(?:\.\d+)*)\s*[·|(（:：—-]\s*(?P<day>\d{4}-\d{2}-\d{2})"
                     r"(?:[ T](?P<time>\d{1,2}:\d{2}))?")


def _change(line: str, tz: tzinfo | None) -> tuple[str, datetime] | None:
    match = _CHANGE.match(line)
    if not match:
        return None
    try:
        day = date.fromisoformat(match.group("day"))
        clock = datetime.strptime(match.group("time"), "%H:%M").time() if match.group("time") else time(23, 59, 59)
    except ValueError:
        return None
    return match.group("version"), datetime.combine(day, clock, tzinfo=tz)


def parse_living_doc(text: str, tz: tzinfo | None = None) -> LivingDoc:
    """Parse ``text``; the change log (a section without a § number) is not anchored content.

    ``tz`` is the vault's timezone, for an ``updated:`` written without a UTC offset.
    """
    front, body = split_front_matter(text)
    doc = LivingDoc(version=str(front.data["version"]) if front.data.get("version") is not None else None)
    doc.updated = parse_front_time(front.data.get("updated"), tz)
    current: Section | None = None
    offset = front.body_start_line
    for number, line in enumerate(body.split("\n"), start=offset + 1):
        if line.startswith("## "):
            match = _SECTION.match(line)
            current = Section(re.sub(r"\s+", "", match.group("id")), match.group("title").strip(), number) \
                if match else None
            if current is not None:
                doc.sections.append(current)
            continue
        if current is None:
            change = _change(line, tz)
            if change is not None:
                doc.changes.append(change)
            continue
        if not line.lstrip().startswith(("- ", "* ")):
            continue
        content = line.lstrip()[2:].strip()
        marker = _MARKER.search(content)
        bullet = Bullet(text=_MARKER.sub("", content).strip(), line=number)
        if marker:
            bullet.version = marker.group("version")
            try:
                bullet.day = date.fromisoformat(marker.group("day"))
            except ValueError:
                bullet.day = None
        bullet.arxiv = list(dict.fromkeys(ref.id for ref in find_arxiv_refs(content) if not ref.malformed))
        current.bullets.append(bullet)
    return doc
