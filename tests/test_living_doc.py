"""The living document parser and "anchored as of" the brief's moment."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

from agents.scanner.living_doc import parse_living_doc

TZ = ZoneInfo("Asia/Shanghai")


def _doc(updated: str) -> str:
    return f"""---
version: 12
updated: {updated}
---
# t

## §1.1 引擎

- Old（arXiv 2609.11111）：早已锚入〔v11 · 2026-09-27〕
- New（arXiv 2609.22222）：当日合入〔v12 · 2026-09-28〕

## 变更记录

- v12 · 合入 2609.33333
"""


def test_sections_bullets_markers_and_ids() -> None:
    doc = parse_living_doc(_doc("2026-09-28T23:50:00+08:00"))
    assert doc.version == "12"
    assert [(s.id, s.title, len(s.bullets)) for s in doc.sections] == [("§1.1", "引擎", 2)]
    first = doc.sections[0].bullets[0]
    assert (first.version, first.day, first.arxiv) == ("11", date(2026, 9, 27), ["2609.11111"])
    assert "2609.33333" not in doc.anchored_ids(date(2026, 10, 1))  # the change log anchors nothing


def test_evening_merge_counts_from_the_next_day() -> None:
    doc = parse_living_doc(_doc("2026-09-28T23:50:00+08:00"))
    brief_time = datetime(2026, 9, 28, 22, 20, tzinfo=TZ)
    assert set(doc.anchored_ids(date(2026, 9, 28), brief_time)) == {"2609.11111"}
    assert set(doc.anchored_ids(date(2026, 9, 29))) == {"2609.11111", "2609.22222"}


def test_morning_merge_counts_for_the_same_day_brief() -> None:
    doc = parse_living_doc(_doc("2026-09-28T05:00:00+08:00"))
    assert set(doc.anchored_ids(date(2026, 9, 28), datetime(2026, 9, 28, 18, 40, tzinfo=TZ))) == \
        {"2609.11111", "2609.22222"}
    assert set(doc.anchored_ids(date(2026, 9, 28))) == {"2609.11111"}  # the moment unknown: D's own not counted


def test_updated_without_offset_is_in_the_vault_timezone() -> None:
    doc = parse_living_doc(_doc("2026-09-28 05:00"), TZ)
    assert doc.updated == datetime(2026, 9, 28, 5, 0, tzinfo=TZ)
    assert set(doc.anchored_ids(date(2026, 9, 28), datetime(2026, 9, 28, 18, 40, tzinfo=TZ))) == \
        {"2609.11111", "2609.22222"}


def test_the_version_as_of_a_moment_follows_the_change_log() -> None:
    from datetime import date, datetime
    from zoneinfo import ZoneInfo

    from agents.scanner.living_doc import parse_living_doc

    tz = ZoneInfo("Asia/Shanghai")
    text = (
        "---\nversion: 41\nupdated: 2026-03-05 21:00\n---\n"
        "## §1 Engines\n- Quokka v2 〔v38 · 2026-03-01〕\n\n"
        "## Change log\n"
        "- v41 · 2026-03-05 21:00 · merge of the 03-05 brief\n"
        "- v40 · 2026-03-05 07:30 · morning wording fixes (no new bullets)\n"
        "- v39 (2026-03-04): register sync\n"
        "- v38 · 2026-03-01 22:00 · merge\n"
    )
    doc = parse_living_doc(text, tz)
    at = datetime(2026, 3, 5, 18, 0, tzinfo=tz)
    # v40 came out that morning without adding a bullet: the bullets alone would say v38.
    assert doc.version_as_of(date(2026, 3, 5), at) == "40"
    assert doc.version_as_of(date(2026, 3, 5), datetime(2026, 3, 5, 7, 0, tzinfo=tz)) == "39"
    assert doc.version_as_of(date(2026, 3, 5), datetime(2026, 3, 5, 22, 0, tzinfo=tz)) == "41"
    # A date-only entry counts from the end of its day.
    assert doc.version_as_of(date(2026, 3, 4), datetime(2026, 3, 4, 12, 0, tzinfo=tz)) == "38"
