"""Scanning one topic's window of the vault: every source, its status, and its mentions."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fnmatch import fnmatch
from pathlib import Path

from agents.scanner.cards import Card, card_file_index, parse_card
from agents.scanner.frontmatter import parse_front_time
from agents.scanner.living_doc import LivingDoc, parse_living_doc
from agents.scanner.mentions import extract_source_mentions
from agents.scanner.notes import VaultFile, in_path_order, parse_note_name, read_vault_file, read_vault_head
from agents.scanner.queue import QueueSnapshot, latest_snapshot, parse_queue
from agents.scanner.register import RegisterEntry, parse_register
from agents.scanner.relevance import relevance
from state.errors import ConfigError, VaultError
from state.models import Mention, SourceEntry
from state.vault_config import CARDS_DIR, QUEUE_PATH, REGISTER_PATH, Topic, VaultConfig

__all__ = ["WindowScan", "scan_window", "is_slot_brief", "BASELINE_DAYS"]

BASELINE_DAYS = 2  # earlier briefs of the slot read as the baseline (the examples read D-2 and D-1)
# After days without a brief (a holiday), the slot's last two briefs are the baseline, up to this far back.
BASELINE_REACH = 31
# Which defect names a file's status when several apply: the first in this order.
# Where a file's time was read from, as the brief says it.
_TIME_FROM = {"name": "文件名", "front_matter": "front matter", "body": "正文", "date_only": "文件名仅有日期"}
_PRECEDENCE = ("unreadable", "undated", "decode_error", "bad_front_matter", "out_of_window", "duplicate",
               "empty", "truncated")


@dataclass
class WindowScan:
    """Everything the scanner found for one topic and day."""

    topic: Topic
    day: date
    start: datetime
    end: datetime
    sources: list[SourceEntry] = field(default_factory=list)
    files: list[VaultFile] = field(default_factory=list)
    mentions: list[Mention] = field(default_factory=list)
    cards: list[Card] = field(default_factory=list)
    queue: QueueSnapshot | None = None
    living: LivingDoc = field(default_factory=LivingDoc)
    register: list[RegisterEntry] = field(default_factory=list)
    earlier_briefs: list[VaultFile] = field(default_factory=list)
    living_file: VaultFile | None = None  # the living document as read (its mentions are the verifier's baseline)
    blobs: dict[str, str] = field(default_factory=dict)
    card_files: dict[str, tuple[int, str]] = field(default_factory=dict)  # arXiv id → (card, path), every card
    # arXiv id → title of the cards outside the window of papers the window names: the paper's own name.
    card_titles: dict[str, str] = field(default_factory=dict)

    def source_hashes(self) -> list[str]:
        """The sha256 of every in-window source: what a checkpoint compares to tell a changed vault."""
        return sorted(s.sha256 for s in self.sources if s.sha256 and s.in_window)

    @property
    def read_count(self) -> int:
        """Sources of the window that were read (a truncated note is read, and flagged)."""
        return sum(1 for s in self.sources if s.in_window and s.status in ("read", "truncated"))

    @property
    def thread(self) -> str:
        """The thread id of this topic and day."""
        return f"{self.topic.name}:{self.day.isoformat()}"


def _entry(file: VaultFile, kind: str, flags: list[str], reasons: dict[str, str], in_window: bool,
           score: int, duplicate_of: str | None = None) -> SourceEntry:
    status = next((flag for flag in _PRECEDENCE if flag in flags), "read")
    return SourceEntry(
        path=file.path, kind=kind, agent=file.agent, time=file.time, time_from=file.time_from, bytes=file.size,
        relevance=score, status=status, reason=reasons.get(status), duplicate_of=duplicate_of,
        encoding=file.encoding, sha256=file.sha256 or None, in_window=in_window, flags=flags,
    )


def _mark_capped(entry: SourceEntry, reason: str | None) -> None:
    """A source whose mentions were capped is listed as cut, with the cap's reason beside any other."""
    if reason is None:
        return
    entry.flags.append("truncated")
    if entry.status == "read":
        entry.status, entry.reason = "truncated", reason
    else:
        entry.reason = f"{entry.reason}; {reason}" if entry.reason else reason


def _own_brief_name(topic: Topic, cfg: VaultConfig) -> tuple[str, str] | None:
    try:
        slot = cfg.slot(topic.slot)
    except ConfigError:
        return None  # a topic without a slot in schedule.toml simply has no baseline briefs
    return slot.agent, slot.pattern


def scan_window(cfg: VaultConfig, topic_name: str, day: date) -> WindowScan:
    """Read the window ``(D-1 at window_end, D at window_end]`` of ``topic_name``."""
    root = cfg.root
    topic = cfg.topic(topic_name)
    start, end = topic.window(day, cfg.tz)
    scan = WindowScan(topic=topic, day=day, start=start, end=end)
    inbox = root / "inbox"
    if not inbox.is_dir():
        raise VaultError(f"{str(root)!r} has no inbox/ folder: is this a vault?")
    slot = _own_brief_name(topic, cfg)
    _scan_inbox(cfg, scan, slot)
    _scan_cards(cfg, scan)
    scan.card_files = card_file_index(root / CARDS_DIR, root)
    _card_titles(cfg, scan)
    _scan_organized(cfg, scan)
    return scan


_CARD_TITLE_READS = 64  # cards outside the window read for their titles, at most, per scan


def _card_titles(cfg: VaultConfig, scan: WindowScan) -> None:
    """The titles of the cards outside the window of the papers the window names (a few files, bounded)."""
    carded = {str(card.arxiv) for card in scan.cards}
    wanted = sorted({m.value for m in scan.mentions if m.kind == "arxiv" and m.value in scan.card_files} - carded)
    for identifier in wanted[:_CARD_TITLE_READS]:
        card = parse_card(read_vault_file(cfg.root, cfg.root / scan.card_files[identifier][1], cfg.tz))
        if not isinstance(card, str) and card.title:
            scan.card_titles[identifier] = str(card.title)


def is_slot_brief(name: str, pattern: str) -> bool:
    """A brief of the slot: a person's (``<date>-<topic>-e1prep.md``) or baton's published one beside it."""
    glob = pattern.replace("{date}", "*")
    return fnmatch(name, glob) or (glob.endswith(".md") and fnmatch(name, glob[:-3] + ".baton.md"))


def _near(name_day: date, scan: WindowScan) -> bool:
    return scan.start.date() - timedelta(days=1) <= name_day <= scan.end.date()


def _baseline_days(cfg: VaultConfig, scan: WindowScan, slot: tuple[str, str] | None) -> set[date]:
    """The days of the slot's briefs read as the baseline: its last ``BASELINE_DAYS`` briefs before the day
    (D-1 and D-2 on working days; across a holiday, the last two the slot wrote), within ``BASELINE_REACH`` days."""
    if slot is None or not (cfg.root / "inbox" / slot[0]).is_dir():
        return set()
    days = {name.day for path in (cfg.root / "inbox" / slot[0]).glob("*.md")
            if is_slot_brief(path.name, slot[1]) and (name := parse_note_name(path.name)).day is not None
            and scan.day - timedelta(days=BASELINE_REACH) <= name.day < scan.day}
    return set(sorted(days)[-BASELINE_DAYS:])


def _scan_inbox(cfg: VaultConfig, scan: WindowScan, slot: tuple[str, str] | None) -> None:
    tz = cfg.tz
    candidates: list[VaultFile] = []
    baseline = _baseline_days(cfg, scan, slot)
    for agent_dir in sorted(p for p in (cfg.root / "inbox").iterdir() if p.is_dir()):
        for path in in_path_order(agent_dir.glob("*.md")):
            name = parse_note_name(path.name)
            if name.day is None:
                candidates.append(read_vault_file(cfg.root, path, tz))
                continue
            own = slot is not None and agent_dir.name == slot[0] and is_slot_brief(path.name, slot[1])
            if own and name.day in baseline:
                brief = read_vault_file(cfg.root, path, tz)
                scan.earlier_briefs.append(brief)
                scan.sources.append(_entry(brief, "brief", [k for k, _ in brief.problems],
                                           dict(brief.problems), True, 0))
                continue
            if own and name.day == scan.day:
                file = read_vault_file(cfg.root, path, tz)
                scan.sources.append(_entry(
                    file, "brief", ["out_of_window"],
                    {"out_of_window": "本棒位当日的简报：正是要写的输出，不作输入"},
                    False, 0))
                continue
            if _near(name.day, scan):
                candidates.append(read_vault_file(cfg.root, path, tz))
    kept: dict[str, VaultFile] = {}
    order = sorted(candidates, key=lambda f: (f.time or scan.end, len(f.path), f.path))
    for file in order:
        flags = [kind for kind, _ in file.problems]
        reasons = dict(file.problems)
        if file.time is None:
            flags.append("undated")
            reasons["undated"] = "文件名中没有日期（YYYY-MM-DD…）：不是带日期的笔记，无法归入窗口"
        in_window = file.time is not None and scan.start < file.time <= scan.end
        if file.time is not None and not in_window:
            flags.append("out_of_window")
            side = "早于窗口开始" if file.time <= scan.start else "晚于窗口结束"
            origin = _TIME_FROM.get(file.time_from or "", file.time_from or "")
            reasons["out_of_window"] = (f"{file.time:%Y-%m-%d %H:%M}（{origin}）{side}"
                                        f"（{scan.start:%Y-%m-%d %H:%M} – {scan.end:%Y-%m-%d %H:%M}]）")
        duplicate_of = None
        if file.sha256 and file.size and in_window:
            if file.sha256 in kept:
                duplicate_of = kept[file.sha256].path
                flags.append("duplicate")
                reasons["duplicate"] = f"与 {duplicate_of} 逐字节相同（sha256 {file.sha256[:12]}…），保留较早的一份"
            else:
                kept[file.sha256] = file
        text = file.text or ""
        score = relevance(text, scan.topic.keywords) if text else 0
        entry = _entry(file, "note", flags, reasons, in_window, score, duplicate_of)
        scan.sources.append(entry)
        if entry.status in ("read", "truncated") and in_window:
            scan.files.append(file)
            scan.blobs[file.sha256] = text
            found, capped = extract_source_mentions(file.path, file.body, file.body_line)
            _mark_capped(entry, capped)
            scan.mentions.extend(found)


_INGESTED = re.compile(rb"^ingested:[ \t]*['\"]?([0-9T:+\- ]+?)['\"]?[ \t]*$", re.MULTILINE)


def _far_from_window(path: Path, cfg: VaultConfig, scan: WindowScan) -> bool:
    """A card whose ``ingested:`` line is plainly far from the window is not worth a full parse.

    A year of cards is parsed in full only when it matters: a card whose line is missing or
    unreadable is parsed (and, when broken, listed with the parser's reason) as before.
    """
    head = read_vault_head(cfg.root, path, 2048)
    if head is None:
        return False  # not opened here (refused or unreadable): the full read lists it with the reason
    match = _INGESTED.search(head)
    when = parse_front_time(match.group(1).decode().strip(), cfg.tz) if match else None
    return when is not None and not _near(when.astimezone(cfg.tz).date(), scan)


def _scan_cards(cfg: VaultConfig, scan: WindowScan) -> None:
    folder = cfg.root / CARDS_DIR
    if not folder.is_dir():
        return
    for path in in_path_order(folder.glob("*.md")):
        if _far_from_window(path, cfg, scan):
            continue
        file = read_vault_file(cfg.root, path, cfg.tz)
        card = parse_card(file)
        if isinstance(card, str):
            status = (file.problems[0][0] if file.problems else "decode_error") if file.text is None \
                else "bad_front_matter"
            scan.sources.append(SourceEntry(path=file.path, kind="card", bytes=file.size, status=status,
                                            reason=card, encoding=file.encoding, sha256=file.sha256 or None,
                                            in_window=False, flags=[status]))
            continue
        when = card.ingested.astimezone(cfg.tz)
        in_window = scan.start < when <= scan.end
        if not in_window and not _near(when.date(), scan):
            continue
        text = f"{card.title}\n{file.body}"
        entry = SourceEntry(path=file.path, kind="card", time=when, time_from="front_matter", bytes=file.size,
                            relevance=relevance(text, scan.topic.keywords), encoding=file.encoding,
                            sha256=file.sha256, in_window=in_window, title=card.title)
        if not in_window:
            entry.status, entry.flags = "out_of_window", ["out_of_window"]
            entry.reason = (f"入卡时间 {when:%Y-%m-%d %H:%M} 在窗口之外"
                            f"（{scan.start:%Y-%m-%d %H:%M} – {scan.end:%Y-%m-%d %H:%M}]）")
        scan.sources.append(entry)
        if in_window:
            scan.cards.append(card)
            scan.blobs[file.sha256] = file.text or ""
            # The card's number and title lead the text (a line of their own before the body).
            found, capped = extract_source_mentions(file.path, f"arXiv:{card.arxiv} {card.title}\n{file.body}",
                                                    file.body_line - 1)
            _mark_capped(entry, capped)
            for mention in found:  # a card's lines are about its paper unless they name another
                if mention.kind == "caveat":
                    mention.detail["paper"] = card.arxiv
            scan.mentions.extend(found)


def _read_organized(cfg: VaultConfig, relative: str, kind: str, scan: WindowScan) -> VaultFile | None:
    path = cfg.root / relative
    if not path.is_file():
        scan.sources.append(SourceEntry(path=relative, kind=kind, status="unreadable", in_window=False,
                                        reason=f"库中没有 {relative}", flags=["unreadable"]))
        return None
    file = read_vault_file(cfg.root, path, cfg.tz)
    if file.text is None:
        scan.sources.append(_entry(file, kind, [k for k, _ in file.problems], dict(file.problems), False, 0))
        return None
    scan.blobs[file.sha256] = file.text
    return file


def _scan_organized(cfg: VaultConfig, scan: WindowScan) -> None:
    living = _read_organized(cfg, scan.topic.living_doc, "living_doc", scan)
    if living is not None:
        scan.living_file = living
        scan.living = parse_living_doc(living.text or "", cfg.tz)
        scan.sources.append(SourceEntry(
            path=living.path, kind="living_doc", time=scan.living.updated, bytes=living.size,
            relevance=5, sha256=living.sha256, encoding=living.encoding, title=f"v{scan.living.version}"))
    queue = _read_organized(cfg, QUEUE_PATH, "queue", scan)
    if queue is not None:
        scan.queue = latest_snapshot(parse_queue(queue.text or "", cfg.tz), scan.end)
        entry = SourceEntry(path=queue.path, kind="queue", bytes=queue.size, sha256=queue.sha256,
                            encoding=queue.encoding, relevance=3)
        if scan.queue is None:
            entry.status, entry.in_window, entry.flags = "out_of_window", False, ["out_of_window"]
            entry.reason = f"{scan.end:%Y-%m-%d %H:%M} 及之前没有队列快照"
        else:
            entry.time, entry.time_from = scan.queue.taken, "body"
            entry.title = f"snapshot {scan.queue.taken:%Y-%m-%d %H:%M} · {len(scan.queue.rows)} rows"
        scan.sources.append(entry)
    register = _read_organized(cfg, REGISTER_PATH, "register", scan)
    if register is not None:
        scan.register = parse_register(register.text or "")
        when = parse_front_time(register.front.data.get("updated"), cfg.tz)
        scan.sources.append(SourceEntry(path=register.path, kind="register", time=when, bytes=register.size,
                                        sha256=register.sha256, encoding=register.encoding, relevance=3,
                                        title=f"{len(scan.register)} entries"))

