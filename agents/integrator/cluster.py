"""Mentions → items: one item per paper, URL or named thing, however many sources cite it.

Identity rules (issue 4): the same arXiv number in any spelling or version
(the mention's value is already the id without version), the same URL after
``normalize_url`` (arXiv abs/html/pdf links fold into the paper), or the same
named thing: a GitHub PR written ``owner/repo#123`` or as its URL.

A note discusses one subject per passage: a Markdown heading, or an
``增量 N：`` line in a brief, starts a passage, and the anchors on that line
(or on the link line right under it) are the passage's subject. Those anchors
are one item even when they differ (a heading naming the paper, a line under
it giving a blog URL), and the passage's figures and sentences belong to it.
Anchors merely listed inside someone else's passage stay separate items.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, NamedTuple

from rapidfuzz import fuzz

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.e1_format import is_brief_path
from agents.scanner.marks import NO_NEW_DATA
from agents.verifier.identifiers import digits_within
from agents.verifier.names import arxiv_name, name_words
from state.models import BriefWarning, Mention

if TYPE_CHECKING:
    from agents.scanner.notes import VaultFile

__all__ = ["NOTHING_FOR", "Passage", "Item", "MistakenNumber", "cluster_items", "item_keys", "lead_name", "mistaken_numbers",
           "section_key", "item_text", "release_named", "heading_name", "GITHUB_REPO",
           "passages_of", "PR_REF"]

# owner/repo#123 as the team writes PRs; the URL form is folded in by _url_key.
PR_REF = re.compile(r"(?<![\w/.-])([A-Za-z0-9][\w.-]*/[A-Za-z0-9][\w.-]*)#(\d+)\b")
GITHUB_REPO = re.compile(r"https?://(?:www\.)?github\.com/[\w.-]+/([\w.-]+?)(?:\.git)?(?:[/?#]|$)", re.IGNORECASE)
_PR_URL = re.compile(r"github\.com/([\w.-]+/[\w.-]+)/(?:pull|issues)/(\d+)", re.IGNORECASE)
_HEADING = re.compile(r"^\s{0,3}(?:#{1,6}\s|(?:增量|承接[^：:]{0,20}#)\s*\d*\s*[：:])")
# A link line under a heading: the URL bare or after a short label ("URL：", "来源：", "Source: ", "原文：").
# "- 官方博客（2026-10-02）：https://…": a label may carry a bracketed date or note.
_LINK_LINE = re.compile(r"^\s*(?:[-*•>]\s*)?(?:[\w\u4e00-\u9fff ]{1,12}(?:[（(][^）)\n]{1,16}[）)])?\s*[:：]\s*)?<?https?://",
                        re.IGNORECASE)
_ANCHOR_KINDS = ("arxiv", "url")
# A line that names the passage's source before its link: "来源：CSDN《…》https://…", "Source: … https://…".
_SOURCE_LINE = re.compile(r"^\s*(?:[-*•>]\s*)?(?:原文|来源|出处|原帖|链接|原链接|source|via)\s*[:：]", re.IGNORECASE)


@dataclass
class Passage:
    """A heading-delimited stretch of one source: where one subject is discussed."""

    path: str
    start: int  # 1-based line of the heading (0 for text before the first heading)
    end: int  # last line, inclusive
    heading: str
    lines: list[tuple[int, str]] = field(default_factory=list)
    subject: set[str] = field(default_factory=set)
    by_heading: bool = False  # the subject is named on the heading line itself
    # Lines elsewhere in the note that name this section by its label ("转交：§3 / §6 → stephen").
    references: list[tuple[int, str]] = field(default_factory=list)
    adopted: bool = False  # joined to the item by the name its heading leads with (a sequel, a translation)
    off_topic: bool = False  # adopted, and nothing of the topic in it: about the item, not the topic's matter
    # (path, line, text) of lines in other notes naming this section by its title ("- X（11:05 §②）：保留给 engineering")
    elsewhere: list[tuple[str, int, str]] = field(default_factory=list)


@dataclass
class Item:
    """One paper, URL or named thing with everything the window says about it."""

    key: str
    keys: set[str] = field(default_factory=set)
    arxiv: list[str] = field(default_factory=list)
    versions: dict[str, set[int]] = field(default_factory=dict)
    malformed: list[str] = field(default_factory=list)
    urls: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)
    sources: list[str] = field(default_factory=list)
    anchors: list[Mention] = field(default_factory=list)
    figures: list[Mention] = field(default_factory=list)
    passages: list[Passage] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)  # headings of the passages that list it
    card: Any = None  # agents.scanner.cards.Card
    queue_flag: str | None = None
    queue_card: int | None = None
    vault_card: tuple[int, str] | None = None  # a card of the paper outside the window: (card, path)
    queue_title: str | None = None
    title: str | None = None  # a note digest's title (the note's own heading)
    remarks: list[str] = field(default_factory=list)  # a note digest's lines about what the note holds per topic
    # A note digest's summary lines that route its sections by topic: "inference 相关：§1 …" then
    # "其余 … 转 tom（rag）": (line, text), read by ``scope.passage_verdicts``.
    routing: list[tuple[int, str]] = field(default_factory=list)
    requested: str = ""  # a coordination note's line asking to anchor it tonight ("强建议今晚锚入"), where it asks
    title_only: str = ""  # a scout's line saying only its title was read ("只扫了标题，摘要没开"), quoted

    @property
    def agents(self) -> set[str]:
        """The inbox agents among the sources (independence of evidence)."""
        return {p.split("/")[1] for p in self.sources if p.startswith("inbox/") and p.count("/") >= 2}

    @property
    def note_sources(self) -> list[str]:
        """Sources that are notes (not the paper card)."""
        return [p for p in self.sources if p.startswith("inbox/")]


_REPO_FILE = re.compile(r"https://github\.com/([\w.-]+/[\w.-]+)/(?:blob|tree|raw)/", re.IGNORECASE)


def _url_key(url: str) -> str:
    """Key of a normalised URL: arXiv links are the paper, GitHub PR links the PR."""
    refs = [r for r in find_arxiv_refs(url) if r.marked and not r.malformed]
    if refs:
        return f"arxiv:{refs[0].id}"
    pr = _PR_URL.search(url)
    if pr:
        return f"pr:{pr.group(1).lower()}#{pr.group(2)}"
    # A file or folder of a repository (its README, a doc) is that repository: "…/tidewater/blob/v0.4.0/README.md"
    # and "…/tidewater" are one project.
    repo = _REPO_FILE.match(url)
    if repo:
        return f"url:https://github.com/{repo.group(1)}"
    return f"url:{url}"


def item_keys(mention: Mention) -> list[str]:
    """The identity keys an anchor mention (arxiv or url) stands for."""
    if mention.kind == "arxiv":
        return [f"arxiv:{mention.value}"]
    if mention.kind == "url":
        return [_url_key(mention.value)]
    return []


def _named_keys(text: str) -> list[str]:
    return [f"pr:{m.group(1).lower()}#{m.group(2)}" for m in PR_REF.finditer(text)]


# A list entry the scout rates as an entry of its own ("1. **V1 EngineCore 主循环**（#165012238）⭐⭐⭐⭐"): a
# top-level item, bold-named, with two stars or more; its indented lines discuss it.
_RATED_ENTRY = re.compile(r"^(?:\d{1,3}[.)、]|[-*•])\s+\*\*[^*\n]{2,80}\*\*.*(?:⭐|★){2,}")


def passages_of(path: str, text: str, first_line: int = 1) -> list[Passage]:
    """Split one source into passages at headings, ``增量 N：`` lines and rated list entries (numbered from
    ``first_line``)."""
    passages: list[Passage] = [Passage(path, 0, 0, "")]
    for number, line in enumerate(text.split("\n"), start=first_line):
        if _HEADING.match(line) or _RATED_ENTRY.match(line):
            passages.append(Passage(path, number, number, line.strip()))
        else:
            passages[-1].lines.append((number, line))
        passages[-1].end = number
    return [p for p in passages if p.heading or any(line.strip() for _, line in p.lines)]


class _Union:
    def __init__(self) -> None:
        self.parent: dict[str, str] = {}

    def find(self, key: str) -> str:
        self.parent.setdefault(key, key)
        while self.parent[key] != key:
            self.parent[key] = self.parent[self.parent[key]]
            key = self.parent[key]
        return key

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # The arXiv key wins as the root so an item is named by its paper.
            if rb.startswith("arxiv:") and not ra.startswith("arxiv:"):
                ra, rb = rb, ra
            self.parent[rb] = ra


def _line_offset(file_text: str, mentions: Sequence[Mention], first_line: int = 1) -> int:
    """Lines between the mention numbering and the text's (which starts on file line ``first_line``)."""
    lines = file_text.split("\n")
    for mention in mentions:
        if not mention.raw:
            continue
        index = mention.line - first_line
        if 0 <= index < len(lines) and mention.raw in lines[index]:
            return 0
        for shift in range(1, 40):
            if 0 <= index + shift < len(lines) and mention.raw in lines[index + shift]:
                return shift
    return 0


_WORDS = re.compile(r"[A-Za-z][A-Za-z0-9-]{2,}|[\u4e00-\u9fff]{2,}")
_COMMON = frozenset({"arxiv", "paper", "the", "and", "for", "with", "论文", "笔记", "来源", "原文"})


def _shares_words(line: str, heading: str) -> bool:
    """The line names what the heading names: a word of three letters or more, or two Chinese
    characters, in both (besides "arXiv" and the like)."""
    words = {w.lower() for w in _WORDS.findall(heading)} - _COMMON
    return bool(words & ({w.lower() for w in _WORDS.findall(line)} - _COMMON))


# A line under a heading that opens with the paper's number: the section's paper ("- arXiv 2609.36871 · HF 当日页 #5").
# A line saying the section renders another page: "译文，原文是 …（https://…）", "转载自 …", "a translation of …".
_TRANSLATION = re.compile(r"译文|译自|转载|转述|全文翻译|原文(?:就)?(?:是|为|在|见)|中文版|\btranslat(?:ion|ed) (?:of|from)\b|\brepost(?:ed)? (?:of|from)\b",
                          re.IGNORECASE)
_LEADS_WITH_ID = re.compile(r"\s*(?:[-*•]\s*)?(?:\*\*)?(?:arXiv\s*[:：]?\s*\d{4}\.\d{4,5}|https?://(?:www\.)?arxiv\.org/)",
                            re.IGNORECASE)


# A line saying what the section's subject is: "就是…那篇", "即", "也就是", "this is the paper", "same as".
_SAME_AS = re.compile(r"就是|即是?|也就是|正是|\bthis is (?:the|that) (?:paper|work)\b|\bsame (?:paper|work) as\b",
                      re.IGNORECASE)


def _only_identifiers(line: str) -> bool:
    """The line gives identifiers and marks only: numbers, links, ratings, separators, no words of its own."""
    rest = re.sub(r"https?://\S+|(?:arXiv|doi)\s*[:：]?\s*|\d{4}\.\d{4,5}(?:v\d+)?|[⭐★☆⚠⚬·|/,，;；()（）\[\]<>\-*•>\s]",
                  "", line, flags=re.IGNORECASE)
    return len(rest) <= 2


def _subject_keys(passage: Passage, anchors_by_line: dict[int, list[str]], heading_text: str) -> set[str]:
    keys = set(anchors_by_line.get(passage.start, [])) | set(_named_keys(heading_text))
    if keys and passage.heading:
        # "## X 代码开源（github.com/x/x）" over "- 就是 10-11 简报那篇（arXiv 2610.09921）…": the repository and
        # the paper it says it is are one subject.
        for number, line in [(n, text) for n, text in passage.lines if text.strip()][:2]:
            ids = {key for key in anchors_by_line.get(number, []) if key.startswith("arxiv:")}
            if len(ids) == 1 and _SAME_AS.search(line):
                return keys | ids
    if keys or not passage.heading:
        return keys
    named_source = False
    # A section that renders another page or paper ("全文翻译，原文就是 2609.31415", "译文，原文是 …（https://…）")
    # is that paper's or page's, with the link it was read at.
    opening = [(n, line) for n, line in passage.lines[:6] if line.strip()][:4]
    rendered = {key for n, line in opening if _TRANSLATION.search(line)
                for key in anchors_by_line.get(n, []) if key.startswith(("arxiv:", "url:"))}
    if rendered:
        return rendered | {key for n, line in opening if _LINK_LINE.match(line)
                           for key in anchors_by_line.get(n, []) if key.startswith("url:")}
    for index, (number, line) in enumerate(passage.lines[:4]):
        if not line.strip():
            continue
        if _LINK_LINE.match(line):
            # The link lines right under the heading, together ("- 官方博客：https://…" then "- release：https://…").
            found = set(anchors_by_line.get(number, [])) | set(_named_keys(line))
            for more, text in passage.lines[index + 1:index + 4]:
                if not _LINK_LINE.match(text):
                    break
                found |= set(anchors_by_line.get(more, [])) | set(_named_keys(text))
            return found
        ids = [key for key in anchors_by_line.get(number, []) if key.startswith("arxiv:")]
        # (Under a source named without its link, a line leading with the paper's number: the page reports it.)
        if len(set(ids)) == 1 and (_LEADS_WITH_ID.match(line) or not named_source and (
                _shares_words(line, heading_text) or _only_identifiers(line) or _SAME_AS.search(line))):
            # "### KV Cache 管理综述（Dell）" over "- Dell KV Cache 综述 arXiv 2603.20397": the heading's paper;
            # so is a line under the heading that only gives the paper ("arXiv 2610.01274 · https://… · ⭐⭐⭐⭐").
            return set(ids)
        if _SOURCE_LINE.match(line) and not named_source:  # "来源：CSDN《…》https://…": the passage digests that page
            urls = {key for key in anchors_by_line.get(number, []) if key.startswith("url:")}
            if urls:
                return urls
            named_source = True  # "- 原文：<site>「<title>」" with its link on the next line
            continue
        break
    # A section whose one paper is given by a link line further down ("- 链接：https://arxiv.org/abs/…" as its
    # third line), citing no other paper or page: that paper's section.
    cited = {key for number, _ in passage.lines for key in anchors_by_line.get(number, [])
             if key.startswith(("arxiv:", "url:"))}
    papers = {key for key in cited if key.startswith("arxiv:")}
    linked = {key for number, line in passage.lines if _LINK_LINE.match(line) or _only_identifiers(line)
              for key in anchors_by_line.get(number, []) if key.startswith("arxiv:")}
    if not named_source and len(papers) == 1 and papers == linked and cited <= papers | _urls_of(papers, passage,
                                                                                                   anchors_by_line):
        return papers
    return keys


def _urls_of(papers: set[str], passage: Passage, anchors_by_line: dict[int, list[str]]) -> set[str]:
    """The URL keys on the lines that give ``papers`` (an arXiv link is the paper's page)."""
    return {key for number, _ in passage.lines if set(anchors_by_line.get(number, [])) & papers
            for key in anchors_by_line.get(number, []) if key.startswith("url:")}


def cluster_items(
    mentions: Iterable[Mention],
    files: Sequence[VaultFile],
    cards: Sequence[Any] = (),
    queue_rows: Sequence[Any] = (),
) -> list[Item]:
    """Group the window's mentions (and its cards) into items, in first-seen order."""
    by_source: dict[str, list[Mention]] = {}
    for mention in mentions:
        by_source.setdefault(mention.source, []).append(mention)
    # The scanner numbers mention lines within the body (front matter removed).
    texts = {f.path: (f.body or f.text or "") for f in files}
    starts = {f.path: (getattr(f, "body_line", 1) if f.body else 1) for f in files}
    fronts = {f.path: getattr(getattr(f, "front", None), "data", None) or {} for f in files}
    union = _Union()
    order: list[str] = []
    anchors: list[tuple[str, Mention]] = []
    listed_under: list[tuple[str, str]] = []
    placed_figures: list[tuple[str, Mention]] = []
    passages: dict[str, list[Passage]] = {}
    digests: list[Item] = []
    shifts: dict[str, int] = {}  # source → offset from its mentions' line numbers to its file lines
    led_by: dict[str, set[str]] = {}  # anchor key → names leading a line that gives it ("**Ember-1**（…）… https://…")

    def seen(key: str) -> None:
        union.find(key)
        if key not in order:
            order.append(key)

    # Every file, also one with no mention at all (a critical read naming its paper only in front matter).
    for source in [*by_source, *(f.path for f in files if f.path not in by_source)]:
        found = by_source.get(source, [])
        text = texts.get(source, "")
        first = starts.get(source, 1)
        shift = _line_offset(text, [m for m in found if m.kind in _ANCHOR_KINDS], first) if text else 0
        anchors_by_line: dict[int, list[str]] = {}
        file_lines = text.split("\n")
        for mention in found:
            for key in item_keys(mention):
                seen(key)
                anchors.append((key, mention))
                anchors_by_line.setdefault(mention.line + shift, []).append(key)
                at = mention.line + shift - first
                if 0 <= at < len(file_lines) and (name := lead_name(file_lines[at])):
                    led_by.setdefault(key, set()).add(name.lower())
            if mention.kind in _ANCHOR_KINDS or mention.kind == "figure":
                for key in _named_keys(mention.context):
                    seen(key)
        source_passages = passages_of(source, text, first) if text else []
        for passage in source_passages:
            for number, line in passage.lines:
                for key in _named_keys(line):
                    seen(key)
                    anchors_by_line.setdefault(number, []).append(key)
            passage.subject = _subject_keys(passage, anchors_by_line, passage.heading)
            passage.by_heading = bool(set(anchors_by_line.get(passage.start, [])) | set(_named_keys(passage.heading)))
            subject = sorted(passage.subject)
            for other in subject[1:]:
                union.union(subject[0], other)
            if passage.by_heading and subject and any(k.startswith("arxiv:") for k in subject):
                # Under "### TokenDance arXiv:2604.03143": a link on a line naming no other paper is the
                # paper's (its HTML page, its demo), not an item of its own.
                for number, _ in passage.lines:
                    keys = anchors_by_line.get(number, [])
                    if not any(k.startswith("arxiv:") and k not in passage.subject for k in keys):
                        for key in keys:
                            if key.startswith("url:"):
                                union.union(subject[0], key)
        sole = _sole_paper(source, source_passages, anchors_by_line, fronts.get(source))
        if sole is not None:
            seen(sole)
            for passage in source_passages:
                if passage.heading and not passage.subject:
                    passage.subject = {sole}  # "## 实验设置" in a critical read of one paper: that paper's
        _referenced(source_passages, source_passages)  # "转交：§3 / §6 → stephen" marks the sections it names
        passages[source] = source_passages
        for number, keys in anchors_by_line.items():
            passage = next((p for p in source_passages if p.start <= number <= p.end), None)
            if passage is not None and passage.heading:
                listed_under.extend((key, passage.heading) for key in keys)
        for mention in found:
            if mention.kind != "figure":
                continue
            line = mention.line + shift
            on_line = set(anchors_by_line.get(line, []))
            passage = next((p for p in source_passages if p.start <= line <= p.end), None)
            if len(on_line) == 1:
                placed_figures.append((next(iter(on_line)), mention))
            elif passage is not None and passage.subject:
                placed_figures.append((sorted(passage.subject)[0], mention))

        digests.extend(_note_digest(source, text, source_passages, anchors_by_line, found, shift, first))
        shifts[source] = shift

    cards_by_id = {str(card.arxiv): card for card in cards}
    for arxiv_id in cards_by_id:
        seen(f"arxiv:{arxiv_id}")
    rows_by_id = {str(row.arxiv): row for row in queue_rows}

    items: dict[str, Item] = {}

    def item_for(key: str) -> Item:
        root = union.find(key)
        if root not in items:
            items[root] = Item(key=root)
        item = items[root]
        item.keys.add(key)
        return item

    for key in order:
        item_for(key)
    for key, mention in anchors:
        item = item_for(key)
        item.anchors.append(mention)
        if mention.source not in item.sources:
            item.sources.append(mention.source)
        if mention.kind == "arxiv":
            if mention.detail.get("malformed"):
                if mention.value not in item.malformed:
                    item.malformed.append(mention.value)
            else:
                version = mention.detail.get("version")
                item.versions.setdefault(mention.value, set())
                if version:
                    item.versions[mention.value].add(int(version))
        elif mention.kind == "url" and mention.value not in item.urls:
            item.urls.append(mention.value)
    for key, mention in placed_figures:
        item = item_for(key)
        if all((f.source, f.line, f.raw) != (mention.source, mention.line, mention.raw) for f in item.figures):
            item.figures.append(mention)
    for key, heading in listed_under:
        item = item_for(key)
        if heading not in item.headings:
            item.headings.append(heading)
    for source_passages in passages.values():
        for passage in source_passages:
            if passage.subject:
                item = item_for(sorted(passage.subject)[0])
                item.passages.append(passage)
                if passage.path not in item.sources:
                    item.sources.append(passage.path)

    for item in items.values():
        for key in sorted(item.keys):
            kind, _, value = key.partition(":")
            if kind == "arxiv" and value not in item.arxiv and value not in item.malformed:
                item.arxiv.append(value)
            elif kind == "pr" and value not in item.names:
                item.names.append(value)
            elif kind == "url" and (repo := GITHUB_REPO.match(value)) and len(repo.group(1)) >= 4 \
                    and repo.group(1).lower() not in item.names:
                item.names.append(repo.group(1).lower())  # github.com/ai-dynamo/dynamo/… is Dynamo's page
        for arxiv_id in item.arxiv:
            if arxiv_id in cards_by_id and item.card is None:
                item.card = cards_by_id[arxiv_id]
                path = str(getattr(item.card, "path", "") or "")
                if path and path not in item.sources:
                    item.sources.append(path)
            row = rows_by_id.get(arxiv_id)
            if row is not None and item.queue_flag is None:
                item.queue_flag = (getattr(row, "flag", None) or None)
                item.queue_card = getattr(row, "card", None)
                item.queue_title = getattr(row, "title", None)
    named: dict[str, set[str]] = {}
    for item in items.values():
        for key in item.keys:
            for name in led_by.get(key, ()):
                named.setdefault(name, set()).add(item.key)
            if key.startswith("url:") and (repo := GITHUB_REPO.match(key[4:])) and len(repo.group(1)) >= 4:
                named.setdefault(repo.group(1).lower(), set()).add(item.key)  # github.com/kvwatch-dev/kvwatch
        title = getattr(item.card, "title", None)
        if title and (name := lead_name(str(title))):
            named.setdefault(name.lower(), set()).add(item.key)
        for passage in item.passages:  # "## KVRail · 开源的 GPU 间 KV 搬运库" over the item's link
            if passage.subject and (name := lead_name(passage.heading)):
                named.setdefault(name.lower(), set()).add(item.key)
            if passage.subject and (release := release_named(passage.heading)):  # "## NVIDIA Dynamo v1.1.0"
                named.setdefault(_release_key(release), set()).add(item.key)
    _adopt_named_passages(passages, items, named, by_source, shifts)
    digests = [d for d in (_adopt_named_sections(d, items, named, shifts.get(d.sources[0], 0)) for d in digests)
               if d.passages]
    _referenced_elsewhere(digests, passages)
    _adopt_inline_links(digests, items, shifts)
    _join_misnumbered(items, named)
    return [*items.values(), *digests]


def _referenced_elsewhere(digests: Sequence[Item], passages: Mapping[str, Sequence[Passage]]) -> None:
    """A line of another note that names a digested section by its title ("- DeepSeek 部署硬件对照（11:05 §②）：有用，保留给
    engineering 主轴" in the afternoon's screening) speaks of that section, as its own note's hand-over lines do."""
    for digest in digests:
        for passage in digest.passages:
            # The heading's name: after a label and a "·" ("## ② 部署硬件 · DeepSeek 部署硬件对照 ⭐⭐⭐⭐").
            title = re.sub(r"(?:⭐|★|⚠|⚬)+", "", _HEAD_MARKS.sub(" ", passage.heading)).split("·")[-1].strip()
            if len(title) < 6:
                continue
            named = re.compile(rf"^\s*(?:[-*•]|\d+[.)、])?\s*(?:\*\*)?{re.escape(title)}(?:\*\*)?\s*[（(：:]")
            for path, others in passages.items():
                if path == passage.path:
                    continue
                for other in others:
                    for number, line in other.lines:
                        if named.match(line) and (path, number, line) not in passage.elsewhere:
                            passage.elsewhere.append((path, number, line))


def _adopt_inline_links(digests: Sequence[Item], items: dict[str, Item], shifts: Mapping[str, int]) -> None:
    """A link a digested section gives inside its own prose ("晚上确认一下页面（https://docs…/pd_disaggregation.html）")
    is that section's link, not an item of its own: when the page is cited nowhere else, the section takes it."""
    for digest in digests:
        if len(digest.passages) != 1:
            continue
        passage = digest.passages[0]
        shift = shifts.get(passage.path, 0)
        for key, item in list(items.items()):
            if not key.startswith("url:") or item.passages or item.arxiv or set(item.sources) != {passage.path}:
                continue
            if not all(passage.start <= m.line + shift <= passage.end for m in item.anchors):
                continue
            digest.urls.extend(u for u in item.urls if u not in digest.urls)
            digest.anchors.extend(item.anchors)
            digest.keys |= item.keys
            del items[key]


_PAPER_KEYS = ("arxiv", "arxiv_id", "paper", "papers", "source", "url")


def _sole_paper(source: str, passages: Sequence[Passage], anchors_by_line: Mapping[int, list[str]],
                front: Mapping[str, Any] | None) -> str | None:
    """The one paper a note reads from end to end: its front matter's ``arxiv:`` or its title (the H1, or the
    lines before its first section) gives it, and the note cites no other paper. Its sections that name
    nothing ("## 实验设置", "## 我的疑问") are that paper's, not sections of their own."""
    if not source.startswith("inbox/") or is_brief_path(source):
        return None
    cited = {key for keys in anchors_by_line.values() for key in keys if key.startswith("arxiv:")}
    given = {f"arxiv:{ref.id}" for name in _PAPER_KEYS if front and name in front
             for ref in find_arxiv_refs(str(front[name]))}
    lead = next((p for p in passages if not p.heading or _H1.match(p.heading)), None)
    if not given and lead is not None:
        given = {key for key in lead.subject if key.startswith("arxiv:")}
    if len(given) != 1 or not cited <= given:
        return None
    return next(iter(given))


def _first_name(mention: Mention) -> str | None:
    """The proper name a line gives a number ("Loomfold" of "Loomfold: Activation Offload…（2703.0441）")."""
    given = arxiv_name(mention)
    first = re.match(r"[A-Za-z][\w.+-]*[A-Za-z0-9]", given[0]) if given else None
    return first.group(0) if first and re.search(r"[A-Z0-9]", first.group(0)) and len(first.group(0)) >= 3 else None


def _join_misnumbered(items: dict[str, Item], named: Mapping[str, set[str]]) -> None:
    """A section under a malformed number ("## ChunkWise：…" over "arXiv 2610.0318"), or a line giving one under a
    name ("ShardLake: Elastic KV …，2610.4417"), is about the paper that heading or name names, when exactly one item carries that name and a full number holding the short one's digits
    (the card "ChunkWise: …" for 2610.00318): one paper, one item. The number's own warning stays."""
    for key, item in list(items.items()):
        if item.arxiv or not item.malformed:
            continue
        full = {k: other for k, other in items.items() if k != key and other.arxiv
                and any(digits_within(m, a) for m in item.malformed for a in other.arxiv)}
        said = {k: item_text(other).lower() for k, other in full.items()}
        if not item.passages:
            # Only lines give the number ("| 5 | ShardLake: Elastic KV … | 2610.4417 |"): the name they give it.
            leads = {lead.lower() for m in item.anchors for lead in (_first_name(m), lead_name(m.context)) if lead}
            owners = {o for w in leads for o in named.get(w, ()) if o in full} or {
                k for k, text in said.items() if any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text) for w in leads)}
            if len(owners) == 1:
                target = full[next(iter(owners))]
                target.anchors.extend(item.anchors)
                target.sources.extend(s for s in item.sources if s not in target.sources)
                target.figures.extend(f for f in item.figures if f not in target.figures)
                target.malformed.extend(m for m in item.malformed if m not in target.malformed)
                del items[key]
            continue
        keep = []
        for passage in item.passages:
            words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z0-9-]{3,}", passage.heading)}
            owners = {o for w in words for o in named.get(w, ()) if o in full}
            if not owners:  # else the paper whose own lines name it so ("- **PipeFold** · arXiv:2610.02931")
                owners = {k for k, text in said.items() if any(w in text for w in words)}
            if len(owners) != 1:
                keep.append(passage)
                continue
            target = full[next(iter(owners))]
            target.passages.append(passage)
            if passage.path not in target.sources:
                target.sources.append(passage.path)
            target.figures.extend(f for f in item.figures if f.source == passage.path and f not in target.figures)
            target.malformed.extend(m for m in item.malformed if m not in target.malformed)
        if not keep:
            del items[key]
        else:
            item.passages = keep


def item_text(item: Item) -> str:
    """Everything the sources say about the item, as one text (for relevance and similarity)."""
    parts = [m.context for m in item.anchors] + [m.context for m in item.figures] + item.headings
    for passage in item.passages:
        parts.append(passage.heading)
        parts.extend(line for _, line in passage.lines)
    if item.card is not None:
        parts.append(str(getattr(item.card, "title", "")))
    if item.queue_title:
        parts.append(item.queue_title)
    return "\n".join(p for p in parts if p)


# The name an entry leads with, as its label: "## 1. Ember-1：基于 …", "- **QuokkaServe**（…）", "SpillWay: …".
# A name followed by a plain space starts a sentence ("vLLM 的坑"), not a label: no name.
_LEAD = re.compile(r"^\s*(?:#{1,6}\s*)?(?:§?\s*\d{1,2}(?:\.\d+)*[.、)]?\s+|[A-Z][.、)]\s+|§[A-Za-z]+(?:\.\d+)+\s+)?(?:[-*•>]\s*)?(?:\*\*)?[《「“]?"
                   r"([A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*)(?:\*\*)?\s*[：:（(—–·]")
_NOT_NAMES = frozenset({"arxiv", "github", "csdn", "hn", "hf", "url", "note", "notes", "source", "via", "the", "update",
                        "todo", "news", "paper", "blog", "link", "tl", "tldr", "re", "fyi", "pr"})


def lead_name(line: str) -> str | None:
    """The proper name a line or heading leads with as its label, when it has one."""
    match = _LEAD.match(line)
    if match is None:
        return None
    name = match.group(1)
    if len(name) < 3 or name.lower() in _NOT_NAMES or not re.search(r"[A-Z0-9]", name):
        return None
    return name


# A heading that leads with a name and then says in words what it adds: "## 3. DraftShare 补一句".
_HEADING_LEAD = re.compile(r"^\s{0,3}#{1,6}\s*(?:§?\s*\d{1,2}(?:\.\d+)*[.、)]?\s+|§[A-Za-z]+(?:\.\d+)+\s+)?(?:\*\*)?"
                           r"([A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*)(?:\*\*)?(?=\s+[\u4e00-\u9fff]|\s*$)")


def heading_name(heading: str) -> str | None:
    """The name a section heading leads with: as a label ("## 3. Ember-1：…") or before its words ("## C2C 仓库…")."""
    lead = _HEADING_LEAD.match(heading)
    return lead_name(heading) or (lead.group(1) if lead else None)


def _adopt_named_passages(passages: Mapping[str, Sequence[Passage]], items: Mapping[str, Item],
                          named: Mapping[str, set[str]], by_source: Mapping[str, Sequence[Mention]],
                          shifts: Mapping[str, int]) -> None:
    """An unrated section that names no paper or link but leads with an item's name ("## 3. DraftShare 补一句")
    says more of that item: it joins it, with its figures (a rated one is digested, then adopted the same way)."""
    for source, own in passages.items():
        if not source.startswith("inbox/") or is_brief_path(source):
            continue
        for passage in own:
            if passage.subject or not passage.heading or _STAR_MARK.search(passage.heading) or _H1.match(passage.heading):
                continue
            name = heading_name(passage.heading)
            owners = named.get(name.lower(), set()) if name else set()
            if len(owners) != 1:
                continue
            item = items[next(iter(owners))]
            passage.by_heading = passage.adopted = True
            passage.subject = {item.key}
            item.passages.append(passage)
            if source not in item.sources:
                item.sources.append(source)
            shift = shifts.get(source, 0)
            item.figures.extend(m for m in by_source.get(source, ()) if m.kind == "figure"
                                and passage.start <= m.line + shift <= passage.end and m not in item.figures)


def _adopt_named_sections(digest: Item, items: Mapping[str, Item], named: Mapping[str, set[str]], shift: int) -> Item:
    """A digested section whose heading leads with a name ("## 1. Ember-1：…") is about the one item a
    line of another note gives with a link under that name ("**Ember-1**（…）… https://…"): the section
    joins that item, so one subject is one item. A name two items lead with joins neither."""
    keep = []
    for passage in digest.passages:
        name = lead_name(passage.heading)
        owners = named.get(name.lower(), set()) if name else set()
        release = release_named(passage.heading)
        if len(owners) != 1 and release is not None:
            # "## Dynamo v1.1.0 —— 补另一档并发" beside another note's "## NVIDIA Dynamo v1.1.0" and its link: one release.
            owners = named.get(_release_key(release), set())
        if len(owners) != 1 and not _LATIN_WORD.search(_HEAD_MARKS.sub(" ", passage.heading)):
            # "## 我的评估" in "# flyP · 安全面速读 · kvwatch（…）": a section of a note about one thing, named by a
            # label only, is about the thing the note's title names (the one item of this note that name leads).
            owners = {key for name, keys in named.items() if not name.startswith("release:")
                      and re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", digest.title or "", re.IGNORECASE)
                      for key in keys if passage.path in items[key].sources}
        if len(owners) != 1:
            keep.append(passage)
            continue
        item = items[next(iter(owners))]
        passage.by_heading = passage.adopted = True  # its heading names the item
        item.passages.append(passage)
        if passage.path not in item.sources:
            item.sources.append(passage.path)
        for figure in digest.figures:
            if passage.start <= figure.line + shift <= passage.end and figure not in item.figures:
                item.figures.append(figure)
        if name and name not in item.names:
            item.names.append(name)
    if len(keep) == len(digest.passages):
        return digest
    figures = [f for f in digest.figures if any(p.start <= f.line + shift <= p.end for p in keep)]
    return replace(digest, passages=keep, figures=figures)


# "serving 主轴：无 NET-new", "training：无增量", "nothing new for serving": the author's word per topic.
NOTHING_FOR = re.compile(r"(?:主轴|主题)?\s*[：:]\s*无\s*(?:NET-new|增量|新增|净增量)|(?:主轴|主题)?\s*相关度(?:很|较)?低|"
                          r"(?:NET-new|净增量)\s*[：:]\s*(?:无|0(?!\d)|none\b)|"
                          r"nothing new for|no increments? for|low relevance for", re.IGNORECASE)
_SITE = re.compile(r"\b[a-z0-9][a-z0-9-]*\.(?:tech|ai|io|com|org|dev|net|co)\b", re.IGNORECASE)
_STAR_MARK = re.compile(r"(?:⭐|★){1,5}")
_NOTE_STAMP = re.compile(r"^\d{4}-\d{2}-\d{2}(?:[T_-]?\d{4})?[-_]?")
_H1 = re.compile(r"^\s{0,3}#\s+(.+)$", re.MULTILINE)
# A heading's marks around its words: "## 3. ", "§2.1 ", ratings, "【转载】".
_HEAD_MARKS = re.compile(r"^\s{0,3}#{1,6}\s*(?:§?\s*\d{1,2}(?:\.\d+)*[.、)]?\s+)?|(?:⭐|★|⚠|⚬)+|【[^】]{0,8}】")


def _level(heading: str) -> int:
    match = re.match(r"\s*(#+)", heading)
    return len(match.group(1)) if match else 7


def _with_subsections(passages: Sequence[Passage]) -> list[Passage]:
    """Each Markdown section with the sections nested under it (a rated "## §5" and its "### …" parts)."""
    merged = []
    for index, passage in enumerate(passages):
        level = _level(passage.heading)
        whole = Passage(passage.path, passage.start, passage.end, passage.heading, list(passage.lines),
                        set(passage.subject), passage.by_heading, list(passage.references))
        for deeper in passages[index + 1:]:
            if not deeper.heading or _level(deeper.heading) <= level:
                break
            if deeper.subject:
                whole.subject |= deeper.subject  # a part that names a paper: the whole is not link-less
            whole.lines.append((deeper.start, deeper.heading))
            whole.lines.extend(deeper.lines)
            whole.end = deeper.end
        merged.append(whole)
    return merged


_LABEL = re.compile(r"^\s{0,3}#{1,6}\s*(?:(§)\s*(\d+(?:\.\d+)*)(?![\d.])|(\d{1,2})[.、](?!\d)|(?:线索|条目)\s*(\d{1,2})(?!\d))")
# A hand-over line: "转交：3、8 → tom；4、5 → flyp", "§3 / §6 → stephen", "Forward: §2 -> flyp".
_HANDOVER = re.compile(r"转交|转给|移交|交给|→|->|⇒|=>|\bforward|\bhand(?:ed)?[- ]over", re.IGNORECASE)


def _referenced(own: Sequence[Passage], passages: Sequence[Passage]) -> None:
    """Give each labelled section ("## §6 …", "## 4. …") the note's lines outside it that name it:
    "§3 / §6 / §7 → stephen" anywhere; a bare number only on a hand-over line ("4、5 → flyp")."""
    for passage in own:
        label = _LABEL.match(passage.heading)
        if label is None:
            continue
        section, number = label.group(1), label.group(2) or label.group(3) or label.group(4)
        named = re.compile(rf"§\s*{re.escape(number)}(?![\d.])" if section else
                           rf"(?<![\d.#§A-Za-z]){re.escape(number)}(?![\d.%A-Za-z×x倍])")
        passage.references = [(n, _clause(line, named)) for other in passages if other.start != passage.start
                              for n, line in [(other.start, other.heading), *other.lines]
                              if not passage.start <= n <= passage.end and _names_own(line, named)
                              and (section or _HANDOVER.search(line))]


# A section number after a document's name is that document's section: "已锚（inference §2.2）",
# "活文档 §3.1", "llm-infra.md §1.(3)", "living doc §4" — not the note's own "## §2.2".
_OTHER_DOCUMENT = re.compile(r"(?:[A-Za-z][\w.-]*|活文档|文档|底本|living[- ]doc(?:ument)?)\s*$", re.IGNORECASE)


def _names_own(line: str, named: re.Pattern[str]) -> bool:
    """The line names the note's own section (not another document's section of the same number)."""
    return any(not _OTHER_DOCUMENT.search(line[:m.start()]) for m in named.finditer(line))


def _clause(line: str, named: re.Pattern[str]) -> str:
    """The part of a hand-over line about one section: "转交：3、8 → tom；4、5 → flyp" for §4 is
    "转交：4、5 → flyp" (the line's lead-in kept, the other clauses dropped)."""
    clauses = re.split(r"[；;]", line)
    if len(clauses) < 2:
        return line
    lead = re.match(r"^\s*(?:[-*•]\s*)?[^：:→]{0,12}[：:]", clauses[0])
    mine = next((c for c in clauses if named.search(c)), line)
    head = lead.group(0) if lead else ""
    return mine if mine.startswith(head) else head + mine.strip()


def section_key(passage: Passage) -> str:
    """The key of one section of a note: its path and first line."""
    return f"note:{passage.path}#L{passage.start}"


# A product and its release: "SGLang v0.5.22", "Megatron-Core 0.16", "vLLM-v0.31.0"; not a model ("Llama-3.1-8B",
# "Qwen3.5": no separator, or a size after the number).
_RELEASE = re.compile(r"(?<![\w.-])([A-Za-z][A-Za-z0-9]*(?:[-_.+][A-Za-z0-9]+)*?)(?:\s*[- ]\s*v?|\s*v)"
                      r"(\d+\.\d+(?:\.\d+)*)(?![\w.]|-\w)", re.IGNORECASE)


_LATIN_WORD = re.compile(r"[A-Za-z]{3,}")


def _release_key(release: tuple[str, str]) -> str:
    return f"release:{release[0]}:{release[1].removeprefix('v')}"


def release_named(heading: str) -> tuple[str, str] | None:
    """The one release a section heading names (``SGLang v0.5.22`` → ("sglang", "0.5.22")), if it names one."""
    # A bracketed aside and a "·" between the name and its version ("C2C（Cache-to-Cache）· v0.1.0") part nothing.
    text = re.sub(r"\s*[（(][^（()）]*[)）]\s*", " ", _HEAD_MARKS.sub(" ", heading))
    text = re.sub(r"(?<=[A-Za-z0-9])\s*·\s*(?=v?\d)", " ", text)
    found = {(m.group(1).lower(), m.group(2)) for m in _RELEASE.finditer(text)
             if not re.fullmatch(r"v?\d+|[a-z]", m.group(1), re.IGNORECASE)}
    return next(iter(found)) if len(found) == 1 else None


_SOURCE_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?(?:来源|出处|source)(?:\*\*)?\s*[：:]", re.IGNORECASE)


def _named_sites(passage: Passage) -> str:
    """The text that names what a section digests: its heading and its own "来源：…" line ("来源：Winder.ai H100
    三引擎横评（9-28 已记）" under "### vLLM vs SGLang vs LMDeploy benchmark")."""
    said = next((line for _, line in passage.lines[:3] if _SOURCE_LINE.match(line)), "")
    return f"{passage.heading}\n{said}"


def _note_digest(source: str, text: str, source_passages: Sequence[Passage], anchors_by_line: Mapping[int, list[str]],
                 found: Sequence[Mention], shift: int, first: int = 1) -> list[Item]:
    """One item for what a note discusses under its own rated headings without citing a paper or a link.

    Scouts rate sections they think matter (``## §4 vLLM 生产 10 大坑 ⭐⭐⭐⭐``); a section with no arXiv
    number and no URL would otherwise belong to no item and be dropped unseen. The note's sections of
    that kind become one item, named by the note's title. A brief restates its sources: not digested.
    """
    if not source.startswith("inbox/") or is_brief_path(source):
        return []
    own = []
    for passage in _with_subsections(source_passages):
        if not passage.heading or passage.subject or not (_STAR_MARK.search(passage.heading)
                                                          or release_named(passage.heading)):
            continue  # a section the scout rates, or one about a release ("## 【转载】SGLang 0.5.22 正式发布")
        # A rated list entry may say its piece in one line under it; a rated heading, in two.
        if sum(1 for _, line in passage.lines if line.strip()) < (1 if _RATED_ENTRY.match(passage.heading) else 2):
            continue
        own.append(passage)
    if not own:
        return []
    agent = source.split("/")[1] if source.count("/") >= 2 else ""
    heading = _H1.search(text)
    title = heading.group(1).strip() if heading else own[0].heading.lstrip("# ").strip()
    parts = [p.strip() for p in re.split(r"\s+[·|]\s+", title)]
    if len(parts) > 1 and parts[0].lower() == agent.lower():
        title = " · ".join(parts[1:])
    slug = _NOTE_STAMP.sub("", PurePosixPath(source).stem)
    ranges = [(p.start, p.end) for p in own]
    figures = [m for m in found if m.kind == "figure" and any(a <= m.line + shift <= b for a, b in ranges)]
    # A site named in a section's heading ("benchhub.io 决策框架") names what the section
    # digests: a living-document bullet citing that site anchors it.
    sites = sorted({m.lower() for p in own for m in _SITE.findall(_named_sites(p))})
    names = ([slug.lower()] if len(slug) >= 8 else []) + sites
    remarks = [line.strip() for line in text.split("\n") if NOTHING_FOR.search(line)]
    # What the note says of itself before its first section ("没有新数据；价值在于…导航") holds for its digest.
    lead = []
    for passage in source_passages:
        if passage.heading and not _H1.match(passage.heading):
            break
        lead.extend(passage.lines)
    remarks += [line.strip() for _, line in lead if NO_NEW_DATA.search(line)]
    routing = _routing_lines(text, own, first)
    if len(own) == 1:
        return [Item(key=f"note:{source}", keys={f"note:{source}"}, names=names, remarks=remarks,
                     sources=[source], figures=figures, passages=own, title=title, routing=routing)]
    # Sections on different subjects are different items: each is judged, placed and ranked on its own.
    split = []
    for passage in own:
        key = section_key(passage)
        mine = [m for m in figures if passage.start <= m.line + shift <= passage.end]
        # A site one section's heading names is that section's, not its neighbours' ("inferenceengineering.tech
        # 决策框架" names §4 only).
        own_names = [n for n in names if n not in sites] + sorted({m.lower() for m in _SITE.findall(_named_sites(passage))})
        split.append(Item(key=key, keys={key}, names=own_names, remarks=list(remarks), sources=[source],
                          figures=mine, passages=[passage], title=title, routing=routing))
    return split


# "其余是 RAG / VecDB，转 tom", "其他部分交给 stephen", "the rest goes to flyp", "everything else → ann".
_THE_REST = re.compile(r"(?:其余|其他(?:部分|几条|各段)?|剩下的?|the rest|everything else|all others|remaining sections)"
                       r"[^\n]{0,40}?(?:转|交给|移交|→|->|⇒|\bforward|\bhand|\bgoes to\b|\bto\b\s+[A-Za-z])",
                       re.IGNORECASE)


def _routing_lines(text: str, own: Sequence[Passage], first: int) -> list[tuple[int, str]]:
    """The lines outside the digested sections that route "the rest" elsewhere, with the line before
    each that says which sections are kept ("inference 相关：§1 …")."""
    inside = {n for p in own for n in range(p.start, p.end + 1)}
    lines = text.split("\n")
    found: list[tuple[int, str]] = []
    for index, line in enumerate(lines):
        number = index + first
        if number in inside or not _THE_REST.search(line):
            continue
        if index > 0 and (number - 1) not in inside and lines[index - 1].strip():
            found.append((number - 1, lines[index - 1]))
        found.append((number, line))
    return found


class MistakenNumber(NamedTuple):
    """A number a note wrote for a paper whose number is ``likely`` (from an ``id_conflict`` warning)."""

    likely: str
    name: str  # the name the notes give the paper
    warning: str  # the warning's register number, else its id


def _title_fits(name: str, title: str) -> bool:
    return fuzz.partial_ratio(" ".join(name_words(name)), " ".join(name_words(title))) >= 90


def mistaken_numbers(warnings: Sequence[BriefWarning], titles: Mapping[str, str],
                     baseline: Iterable[str] = (), cards: Iterable[str] = ()) -> dict[str, MistakenNumber]:
    """Numbers of "one name under two numbers" conflicts that are the wrong ones, with the likely right one.

    The right number is the one whose known title (arXiv, else the paper
    card) fits the name; without a fitting title, the only one the living
    document carries (``baseline``). A number stays undecided when neither
    settles it, and is never called wrong when the living document carries
    it or a paper card has it: those are papers of their own.
    """
    baseline, cards = set(baseline), set(cards)
    found: dict[str, MistakenNumber] = {}
    for warning in warnings:
        if warning.kind != "id_conflict" or not warning.key.startswith("id_conflict:name:"):
            continue
        ids = list(dict.fromkeys(r.id for r in find_arxiv_refs(warning.text) if not r.malformed))
        name = warning.subject or ""
        right = [i for i in ids if i in titles and _title_fits(name, titles[i])]
        if not right:
            right = [i for i in ids if i in baseline]
        if len(ids) < 2 or len(right) != 1:
            continue
        for identifier in ids:
            if identifier != right[0] and identifier not in baseline and identifier not in cards:
                found.setdefault(identifier, MistakenNumber(right[0], name, warning.register or warning.id))
    return found
