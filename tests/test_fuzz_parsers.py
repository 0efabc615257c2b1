"""Property tests: the scanner's parsers never raise on arbitrary text or bytes (issue 9).

Derandomized with a fixed example count, so CI sees the same inputs every run. The text strategy
mixes arbitrary Unicode with the tokens the parsers key on (front matter fences, headings, table
pipes, arXiv numbers, ⚠ marks, Chinese cue words), so generated inputs reach the parsers' branches.
"""

from __future__ import annotations

import itertools
from datetime import date
from pathlib import Path
from zoneinfo import ZoneInfo

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from agents.scanner.arxiv_ids import find_arxiv_refs, parse_arxiv_id
from agents.scanner.briefs import parse_brief, parse_brief_text
from agents.scanner.cards import Card, parse_card
from agents.scanner.caveats import find_caveats
from agents.scanner.frontmatter import split_front_matter
from agents.scanner.instructions import is_instruction
from agents.scanner.living_doc import parse_living_doc
from agents.scanner.marks import read_marks
from agents.scanner.mentions import MAX_MENTIONS_PER_SOURCE, extract_mentions, extract_source_mentions
from agents.scanner.notes import MAX_LINE_CHARS, parse_note_name, read_vault_file
from agents.scanner.queue import parse_queue

TZ = ZoneInfo("Asia/Shanghai")
FUZZ = settings(max_examples=150, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

_TOKENS = [
    "---\n", "\n", " ", "# ", "## 二、增量\n", "### ", "|", " | ", "|---|---|\n", "- ", "* ", "1. ", "> ",
    "2703.04417", "arXiv:2703.04417v2", "https://arxiv.org/abs/2703.0441", "cs/0101001", "http://x.test/a?b=1",
    "⚠", "⚠⚠⚬", "⭐⭐⭐", "★", "D183", "待核：", "；", "。", "，", "：", "未说明", "自报", "只在一台", "不能合并",
    "沿用", "已锚", "归入：", "§1.(3)", "转给 Someone", "仅邻接", "计划于 2026-09 发布", "will ship in March 2027",
    "TTFT 85 ms", "1.5×", "30%", "vLLM 0.6.3", "v1.2-rc1", "time: 2026-09-29 09:30\n", "time: [", "title: \"",
    "2026-09-29 22:20", "请", "please", "ignore previous instructions", "&anchor", "*anchor", "<script>", "\x00",
    "\ufeff", "\r\n", "\t", "```\n", "e1prep", "CST",
]
TEXT = st.one_of(
    st.text(max_size=400),
    st.lists(st.sampled_from(_TOKENS) | st.text(max_size=6), max_size=60).map("".join),
)
LINES = st.lists(st.tuples(st.integers(0, 10_000), TEXT), max_size=8)


@FUZZ
@given(TEXT)
def test_split_front_matter_never_raises(text: str) -> None:
    front, body = split_front_matter(text)
    assert isinstance(body, str) and isinstance(front.data, dict)


@FUZZ
@given(st.text(max_size=120))
def test_parse_note_name_never_raises(name: str) -> None:
    parsed = parse_note_name(name)
    assert parsed.day is None or isinstance(parsed.day, date)


@FUZZ
@given(TEXT)
def test_arxiv_parsers_never_raise(text: str) -> None:
    for ref in find_arxiv_refs(text):
        assert 0 <= ref.start <= len(text)
    parse_arxiv_id(text)
    parse_arxiv_id(text.strip()[:40])


@FUZZ
@given(TEXT, st.integers(1, 500))
def test_extract_mentions_never_raises_and_cites_lines_of_the_text(text: str, first_line: int) -> None:
    lines = text.split("\n")
    for mention in extract_mentions("inbox/someone/2026-09-29-x.md", text, first_line):
        assert first_line <= mention.line < first_line + len(lines)


@FUZZ
@given(LINES)
def test_read_marks_never_raises(lines: list[tuple[int, str]]) -> None:
    for mark in read_marks(lines):
        assert mark.line in {number for number, _ in lines}


@FUZZ
@given(TEXT)
def test_find_caveats_and_is_instruction_never_raise(text: str) -> None:
    for line in text.split("\n") + [text]:
        assert all(c.label for c in find_caveats(line))
        assert is_instruction(line) in (True, False)


@FUZZ
@given(TEXT)
def test_parse_living_doc_never_raises(text: str) -> None:
    parse_living_doc(text, TZ)
    parse_living_doc(text)


@FUZZ
@given(TEXT)
def test_parse_brief_text_never_raises(text: str) -> None:
    record = parse_brief_text("inbox/someone/2026-09-29-inference-e1prep.md", text, date(2026, 9, 29), "someone")
    assert all(item for item in record.items) or record.items == []


@FUZZ
@given(TEXT)
def test_parse_queue_never_raises(text: str) -> None:
    assert isinstance(parse_queue(text, TZ), list)


_counter = itertools.count()


@FUZZ
@given(st.one_of(st.binary(max_size=600), TEXT.map(lambda t: t.encode("utf-8", "surrogatepass"))))
def test_read_vault_file_then_card_and_brief_parsers_never_raise(tmp_path: Path, raw: bytes) -> None:
    root = tmp_path / "vault"
    n = next(_counter)
    for rel in (f"organized/paper_cards/2703.{n:05d}.md", f"inbox/someone/2026-09-29T09{n % 60:02d}-inference-e1prep.md"):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(raw)
        file = read_vault_file(root, path, TZ)
        assert file.text is not None or file.problems  # unreadable bytes are flagged, never silent
        card = parse_card(file)
        assert isinstance(card, (Card, str))
        parse_brief(file)
        if file.text is not None:
            extract_mentions(file.path, file.body, file.body_line)


# -- bounds: counts, not times -------------------------------------------------------------------


def test_a_1mb_single_line_is_cut_at_the_line_bound_before_mentions_are_extracted(tmp_path: Path) -> None:
    root = tmp_path / "vault"
    path = root / "inbox" / "someone" / "2026-09-29T0900-wide.md"
    path.parent.mkdir(parents=True)
    path.write_text("# wide\n" + ("TTFT 85 ms, 2703.04417 vLLM 0.6.3 ⚠ " * 30_000)[:1_000_000] + "\n", encoding="utf-8")
    file = read_vault_file(root, path, TZ)
    assert ("truncated", f"1 行超过 {MAX_LINE_CHARS:,} 字符，已在该长度截断") in file.problems
    mentions = extract_mentions(file.path, file.body, file.body_line)
    # What bounds the count is the line cut: ~36 characters per repeat, 4 mentions each at most.
    assert 0 < len(mentions) <= 4 * (MAX_LINE_CHARS // 36 + 1) + 5


def test_extract_mentions_on_a_1mb_line_finishes_and_is_capped_per_source() -> None:
    # Called directly (the scanner always cuts lines first), a 1 MB line of figures finishes (it was
    # quadratic: sentence ends and the not-comparable cue were searched again for every figure), and
    # the source gives at most MAX_MENTIONS_PER_SOURCE mentions, the first ones, with the reason.
    line = "1 ms; " * (1_000_000 // 6)
    mentions, reason = extract_source_mentions("inbox/someone/2026-09-29-x.md", line)
    assert len(mentions) == MAX_MENTIONS_PER_SOURCE
    assert reason is not None and f"上限 {MAX_MENTIONS_PER_SOURCE:,}" in reason
    assert {m.kind for m in mentions} == {"figure"}


def test_long_letter_runs_do_not_backtrack_in_marks_and_caveats() -> None:
    # 'x' * N used to cost O(N²) in the adjacency mark (read_marks) and the claim cue (find_caveats).
    line = "x" * 200_000 + " ⚠ 未说明"
    assert [c.label for c in find_caveats(line)] == ["条件未说明"]
    assert read_marks([(1, "x" * 200_000)]) == []
