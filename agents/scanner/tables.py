"""Markdown table rows: their cells, and a row said as a sentence naming its columns.

One place for the team's pipe tables (``| 来源 | TTFT | 条件 |``): the scanner reads figures and
caveats out of rows, and the brief quotes a row as a reader needs it, "bex.co：TTFT 85ms，条件 H100"
rather than ``| bex.co | 85ms | H100 |``.
"""

from __future__ import annotations

import re

__all__ = ["is_table_row", "is_rule_row", "row_cells", "row_sentence"]

_RULE = re.compile(r"\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?")
_RANK_HEADER = re.compile(r"^(?:#|no\.?|rank|排名|序号|名次)$", re.IGNORECASE)
_EMPTY = {"", "—", "-", "–", "/", "n/a", "N/A"}


def is_rule_row(line: str) -> bool:
    """The ``|---|---|`` line under a header."""
    return bool(_RULE.fullmatch(line.strip()))


def is_table_row(line: str) -> bool:
    return line.strip().startswith("|") and not is_rule_row(line)


def row_cells(line: str) -> list[str]:
    return [cell.strip().replace("**", "") for cell in line.strip().strip("|").split("|")]


def row_sentence(cells: list[str], header: list[str]) -> str:
    """A table row as a sentence naming its columns: "Milvus：版本 2.6，QPS 3,900，p99 延迟 14 ms";
    a ranked row is named by what it ranks: "Corvid + Lumen（第 1）：speedup 9.8×". Empty cells are left out."""
    if len(header) != len(cells) or len(cells) < 2:
        return "；".join(c for c in cells if c not in _EMPTY)
    if len(cells) >= 3 and _RANK_HEADER.match(header[0]) and cells[0].strip().lstrip("#").isdigit():
        pairs = [f"{h} {c}" if h else c for h, c in zip(header[2:], cells[2:], strict=True) if c not in _EMPTY]
        return f"{cells[1]}（第 {cells[0].strip().lstrip('#')}）：{'，'.join(pairs)}"
    pairs = [f"{h} {c}" if h else c for h, c in zip(header[1:], cells[1:], strict=True) if c not in _EMPTY]
    return f"{cells[0]}：{'，'.join(pairs)}"
