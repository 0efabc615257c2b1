"""The item-level change between two days' briefs, from their JSON (and from a person's Markdown)."""

from __future__ import annotations

from agents.scanner.briefs import parse_brief_text
from state.models import BaseDoc, Brief, BriefWarning, Increment, Window
from workflows.changes import compare_briefs_json, compare_with_record


def _brief(day: str, increments: list[Increment], *, warnings: list[BriefWarning] | None = None,
           open_: list[dict] | None = None, closed: list[dict] | None = None) -> Brief:
    return Brief(topic="serving", date=day, thread=f"serving:{day}", executor="ann",
                 window=Window(start=f"{day}T00:00:00+08:00", end=f"{day}T22:00:00+08:00"),
                 base_doc=BaseDoc(path="organized/knowledge/serving.md"), increments=increments,
                 warnings=warnings or [], register_open=open_ or [], register_closed=closed or [])


def _inc(rank: int, title: str, arxiv: str, points: list[str]) -> Increment:
    return Increment(rank=rank, title=title, status="net_new", arxiv=[arxiv], points=points)


def test_added_dropped_changed_figures_and_register_changes() -> None:
    before = _brief("2027-01-04", [
        _inc(1, "Kestrel", "2701.01234", ["吞吐提升 37%（inbox/ann/2027-01-04-note.md L12）", "延迟 120ms"]),
        _inc(2, "Osprey", "2701.05555", ["显存节省 2.5 倍"]),
        _inc(3, "Wren", "2701.07777", ["首 token 延迟 80ms"]),
    ], open_=[{"d": "D301", "text": "Kestrel 数字待核", "raised": "2027-01-04"},
              {"d": "D302", "text": "Osprey 单卡", "raised": "2027-01-03"}])
    after = _brief("2027-01-05", [
        _inc(1, "Kestrel", "2701.01234", ["吞吐提升 41%（inbox/ann/2027-01-05-note.md L3）", "延迟 120ms"]),
        _inc(2, "Wren", "2701.07777", ["首 token 延迟 80ms（inbox/bo/2027-01-05-x.md L9）"]),
        _inc(3, "Heron", "2701.09999", ["批量 64"]),
    ], warnings=[BriefWarning(id="C1", register="D303", kind="caveat", text="Heron 只测了一次")],
        open_=[{"d": "D301", "text": "Kestrel 数字仍待核（新数字 41%）", "raised": "2027-01-04"},
               {"d": "D299", "text": "旧条目", "raised": "2026-12-20"}],
        closed=[{"d": "D302", "text": "Osprey 单卡"}])
    change = compare_briefs_json(before, after)
    assert change.basis == "json" and change.previous == "serving:2027-01-04"
    assert [i.title for i in change.added] == ["Heron"]
    assert [i.title for i in change.dropped] == ["Osprey"]
    # the figures of the claim, not the dates and line numbers of its citations
    assert [(c.title, c.before, c.after) for c in change.changed] == [("Kestrel", ("37", "120"), ("41", "120"))]
    assert change.kept == 1  # Wren: only its citation changed
    assert [(r.d, r.change) for r in change.register] == [("D301", "changed"), ("D302", "closed"),
                                                          ("D303", "opened")]
    lines = change.lines()
    assert lines[0].startswith("against serving:2027-01-04: 1 added, 1 dropped, 1 with changed figures, 1 kept")
    assert "+ Heron [arxiv:2701.09999]" in lines and "~ Kestrel: 37 120 → 41 120" in lines


def test_against_a_persons_markdown_brief_papers_and_numbers_count() -> None:
    text = ("# serving · E1 预消化简报\n\n二、增量条目\n\n增量 1：arXiv 2701.01234 Kestrel\n"
            "增量 2：arXiv 2701.05555 Osprey\n\n三、值得警惕的矛盾\n\nD302：Osprey 单卡（⚠⚠⚬）\n")
    record = parse_brief_text("inbox/ann/2027-01-04-serving-e1prep.md", text)
    after = _brief("2027-01-05", [_inc(1, "Kestrel", "2701.01234", ["41%"]), _inc(2, "Heron", "2701.09999", [])],
                   warnings=[BriefWarning(id="C1", register="D303", kind="caveat", text="Heron 只测了一次")],
                   open_=[{"d": "D302", "text": "Osprey 单卡，换了说法", "raised": "2027-01-04"}])
    change = compare_with_record(record, after)
    assert change.basis == "markdown" and change.previous.endswith("2027-01-04-serving-e1prep.md")
    assert [i.title for i in change.added] == ["Heron"] and [i.key for i in change.dropped] == ["arxiv:2701.05555"]
    assert change.kept == 1 and change.changed == []
    assert [(r.d, r.change) for r in change.register] == [("D303", "opened")]  # no wording diff from Markdown
