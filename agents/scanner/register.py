"""The one parser of the contradiction register (``organized/registry/contradictions.md``)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

__all__ = ["RegisterEntry", "Renumbered", "parse_register", "D_NUMBER", "closures_in", "raises_in", "RAISES"]

D_NUMBER = re.compile(r"\bD(\d{2,5})\b")
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")


@dataclass
class RegisterEntry:
    """One numbered row: a contradiction or a claim awaiting verification."""

    d: str
    number: int
    text: str
    risk: str
    raised: date | None
    status: str
    source: str

    @property
    def closed(self) -> bool:
        """True when the status says the entry was settled."""
        return self.status.startswith("已闭合")

    def renumbered(self) -> list[Renumbered]:
        """The numbers another brief gave this entry, as its text records them (a lead settling numbers two
        briefs both took): "（原 tom 9-27 自编"D195"）", "（并入 tom 9-28 自编"D196"）", "tom 9-29 记作"沿用 D195 修订"，
        以本号为准", "(was spark 10-02 D230)"."""
        found = []
        for match in _RENUMBERED.finditer(self.text):
            if not (match.group("pre") or match.group("mid")):
                continue  # "2026-09-28 D195" is a date beside a number, not a renumbering
            year = self.raised.year if self.raised else None
            found.append(Renumbered(match.group("agent"), int(match.group("m")), int(match.group("d")), year,
                                    int(match.group("n"))))
        return found


@dataclass(frozen=True)
class Renumbered:
    """A number a brief of ``agent`` on month/day gave what the register files under another number."""

    agent: str | None
    month: int
    day: int
    year: int | None
    number: int


_RENUMBERED = re.compile(
    r"(?P<pre>原|并入|合并自|改登自|\bwas\b|\bmerged from\b|\bformerly\b)?\s*(?P<agent>[A-Za-z][\w-]{1,20})?\s*"
    r"(?<![\d-])(?P<m>\d{1,2})[-/.月](?P<d>\d{1,2})日?\s*(?:的)?\s*(?:[\w-]*\s*简报)?\s*(?P<mid>自编|记作|记为|编号|\bnumbered\b)?\s*"
    r"[“\"「『]?\s*(?:沿用\s*)?D(?P<n>\d{2,5})\b", re.IGNORECASE)


def parse_register(text: str) -> list[RegisterEntry]:
    """Every table row whose first cell is a D-number."""
    entries = []
    for line in text.split("\n"):
        if not line.strip().startswith("|"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) < 6:
            continue
        match = re.fullmatch(r"D(\d+)", cells[0])
        if not match:
            continue
        raised_match = _DATE.search(cells[3])
        raised = date.fromisoformat(raised_match.group(0)) if raised_match else None
        entries.append(RegisterEntry(cells[0], int(match.group(1)), cells[1], cells[2], raised, cells[4], cells[5]))
    return entries


# A scout settling an open entry in a note: "D181：vLLM v0.31.0 已落地，晚上闭合", "D208 这下有数了 → 建议闭合",
# "D190 can be closed: the spec now gives a date". Not "暂不闭合", "别闭合", "D184 没提，沿用", "not closed yet".
_CLOSE_WORD = re.compile(r"(?<![不未没别])(?:可以|建议|可|应|该|准备|晚上|今晚|本轮|今天|today)?\s*(?:闭合|关闭|结案|销号)|"
                         r"(?<![没未])(?:修掉了|修复了|修好了|已修复|已解决|解决了)|\b(?:fixed|resolved) (?:in|by)\b|"
                         r"(?:可以|能|可)关(?:了|掉)?(?![\u4e00-\u9fff])|"
                         r"\b(?:can be |should be |to be |now )?(?:closed|settled|resolved)\b|\bclose (?:it|this|D\d+)\b",
                         re.IGNORECASE)
_NOT_CLOSED = re.compile(r"(?:不|未|没|别|暂不|先不|不能|无法|还不能|尚未)\s*(?:能\s*)?(?:闭合|关闭|结案)|"
                         r"(?:没|未|还没|尚未|并未)\s*(?:修|解决)|修复版|(?:不|别|不能|不可以?|先不|还不能)\s*关|"
                         r"\bnot (?:yet )?(?:be )?(?:closed|settled|resolved)\b|\b(?:can't|cannot|don't) close\b|"
                         r"已闭合的|闭合条件|闭合前", re.IGNORECASE)


def closures_in(text: str, first_line: int = 1) -> list[tuple[int, int, str]]:
    """(D-number, line, line text) for each entry a line says is settled: one D-number in the clause, a word
    that closes it, no word that keeps it open. A clause naming several numbers ("D205-D211 沿用") closes none."""
    found = []
    for number, line in enumerate(text.split("\n"), start=first_line):
        if "D" not in line:
            continue
        for clause in re.split(r"[；;。]", line):
            numbers = D_NUMBER.findall(clause)
            if len(set(numbers)) != 1 or re.search(r"D\d+\s*[-–~]\s*D?\d+", clause):
                continue
            if _CLOSE_WORD.search(clause) and not _NOT_CLOSED.search(clause):
                found.append((int(numbers[0]), number, line.strip()))
    return found


# A note raising an entry under a number: "新挂 **D196**", "登记为 D212", "opened D231 for it" (not "挂到 D179
# 下": filed under an entry that exists).
RAISES = re.compile(r"(?:新挂|新开|新登记|登记为|新记为|编为)\s*\*{0,2}D(\d{2,5})\b|\b(?:raised?|opened?|filed?)\s+(?:as\s+)?D(\d{2,5})\b",
                    re.IGNORECASE)


def raises_in(text: str, first_line: int = 1) -> list[tuple[int, int, str]]:
    """(D-number, line, line text) for each entry a note raises under a number of its own choosing."""
    return [(int(m.group(1) or m.group(2)), number, line.strip())
            for number, line in enumerate(text.split("\n"), start=first_line) for m in RAISES.finditer(line)]

