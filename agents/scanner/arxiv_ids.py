"""The one parser of arXiv identifiers, in every spelling the team writes.

arXiv's identifier scheme (https://info.arxiv.org/help/arxiv_identifier.html):
new style ``YYMM.NNNN`` from 0704 to 1412, ``YYMM.NNNNN`` from 1501 on; old
style ``archive(.SC)/YYMMNNN``; an optional ``vN`` version suffix.
Identifiers that look like arXiv numbers but break the scheme (``2511.0223``:
a 4-digit number after 2015) are kept as malformed, never dropped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ArxivRef", "find_arxiv_refs", "parse_arxiv_id", "split_version"]

_OLD_ARCHIVES = (
    "acc-phys|adap-org|alg-geom|ao-sci|astro-ph|atom-ph|bayes-an|chao-dyn|chem-ph|cmp-lg|comp-gas|"
    "cond-mat|cs|dg-ga|funct-an|gr-qc|hep-ex|hep-lat|hep-ph|hep-th|math|math-ph|mtrl-th|nlin|"
    "nucl-ex|nucl-th|patt-sol|physics|plasm-ph|q-alg|q-bio|quant-ph|solv-int|supr-con"
)

# A marker that says "this number is an arXiv identifier" even when it is malformed.
_MARKER = r"(?:arxiv\.org/(?:abs|html|pdf)/|arXiv\s*[:：]?\s*|10\.48550/arXiv\.)"
_NEW = re.compile(
    rf"(?:(?P<marker>{_MARKER})|(?<![\w.\-]))(?P<id>\d{{4}}\.\d{{4,6}})(?P<ver>v\d+)?(?![\w]|\.\d)",
    re.IGNORECASE,
)
_OLD = re.compile(
    rf"(?:(?P<marker>{_MARKER})|(?<![\w.\-]))(?P<id>(?:{_OLD_ARCHIVES})(?:\.[A-Z]{{2}})?/\d{{7}})(?P<ver>v\d+)?(?!\w)",
)


@dataclass(frozen=True)
class ArxivRef:
    """One arXiv reference as written in a text."""

    raw: str
    id: str
    version: int | None
    malformed: bool
    reason: str | None = None
    start: int = 0
    end: int = 0
    marked: bool = False

    @property
    def versioned(self) -> str:
        """The identifier with its version suffix, as arXiv spells it."""
        return f"{self.id}v{self.version}" if self.version else self.id


def _check_new_style(number: str) -> str | None:
    """Return why a new-style number breaks the scheme, or None when it is well-formed."""
    yymm, seq = number.split(".")
    month = int(yymm[2:])
    if not 1 <= month <= 12:
        return f"{number} 中的月份 {yymm[2:]} 不在 01–12"
    if int(yymm) < 704:
        return f"{number}：新式编号从 0704 开始"
    if int(yymm) <= 1412 and len(seq) != 4:
        return f"{number}：2015 年以前 YYMM 之后为 4 位数字"
    if int(yymm) >= 1501 and len(seq) != 5:
        return f"{number}：2015 年起 YYMM 之后应为 5 位数字，此处为 {len(seq)} 位"
    return None


def _plausible_yymm(number: str) -> bool:
    month = int(number[2:4])
    return 1 <= month <= 12 and int(number[:4]) >= 704


def find_arxiv_refs(text: str) -> list[ArxivRef]:
    """Find every arXiv reference in ``text``, malformed ones included, in order."""
    found: list[ArxivRef] = []
    for match in _NEW.finditer(text):
        number = match.group("id")
        marked = bool(match.group("marker"))
        if not marked and not _plausible_yymm(number):
            continue  # a decimal number, not an identifier
        reason = _check_new_style(number)
        version = int(match.group("ver")[1:]) if match.group("ver") else None
        found.append(
            ArxivRef(
                raw=match.group(0),
                id=number,
                version=version,
                malformed=reason is not None,
                reason=reason,
                start=match.start("id"),
                end=match.end(),
                marked=marked,
            )
        )
    for match in _OLD.finditer(text):
        version = int(match.group("ver")[1:]) if match.group("ver") else None
        found.append(
            ArxivRef(
                raw=match.group(0),
                id=match.group("id"),
                version=version,
                malformed=False,
                start=match.start("id"),
                end=match.end(),
                marked=bool(match.group("marker")),
            )
        )
    found.sort(key=lambda ref: ref.start)
    return found


def split_version(identifier: str) -> tuple[str, int | None]:
    """Split ``2609.31415v2`` into ``("2609.31415", 2)``."""
    match = re.fullmatch(r"(.+?)v(\d+)", identifier.strip())
    if match:
        return match.group(1), int(match.group(2))
    return identifier.strip(), None


def parse_arxiv_id(identifier: str) -> ArxivRef:
    """Validate one identifier (any spelling); the result says whether it is malformed and why."""
    text = identifier.strip()
    refs = find_arxiv_refs(text)
    if len(refs) == 1 and refs[0].start <= 20 and refs[0].end == len(text):
        return refs[0]
    return ArxivRef(
        raw=text,
        id=text,
        version=None,
        malformed=True,
        reason=f"{text!r} 不是 arXiv 编号（应为 YYMM.NNNNN、YYMM.NNNN 或 archive/YYMMNNN，可带 vN）",
        end=len(text),
    )
