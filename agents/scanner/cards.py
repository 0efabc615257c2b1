"""The one parser of paper cards (``organized/paper_cards/<card>-<yymm>-<nnnnn>.md``)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from agents.scanner.arxiv_ids import parse_arxiv_id
from agents.scanner.notes import VaultFile, in_path_order

__all__ = ["Card", "parse_card"]


class Card(BaseModel):
    """A paper card's front matter (unknown keys are kept out, known ones checked)."""

    # Cards are written by other tools that add keys over time; an unknown key
    # must not make a good card unreadable, so extra keys are ignored here.
    model_config = ConfigDict(extra="ignore")

    path: str
    card: int
    arxiv: str
    title: str
    primary: str
    secondary: str | None = None
    kind: str | None = None
    ingested: datetime
    source: str | None = None
    status: str = "pending"
    venue: str | None = None
    summary: str = ""
    summary_line: int = 1  # the file line the summary starts on

    @field_validator("ingested")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        if value.tzinfo is None:
            raise ValueError("ingested needs a UTC offset, e.g. 2026-09-29T06:10+08:00")
        return value

    @field_validator("arxiv", mode="before")
    @classmethod
    def _identifier(cls, value: object) -> str:
        ref = parse_arxiv_id(str(value))
        if ref.malformed:
            raise ValueError(ref.reason or f"{value!r} is not an arXiv identifier")
        return ref.id

    @field_validator("venue", "secondary", mode="before")
    @classmethod
    def _nullable(cls, value: object) -> object:
        return None if value in ("null", "None", "") else value

    @property
    def classified(self) -> bool:
        """True when the card's classification is final (not pending)."""
        return self.status == "classified"


def parse_card(file: VaultFile) -> Card | str:
    """Return the card of ``file``, or the reason it cannot be read as one."""
    if file.text is None:
        return next((reason for _, reason in file.problems), "unreadable")
    if file.front.error:
        return f"front matter is not valid YAML: {file.front.error}"
    if not file.front.present:
        return "a paper card needs YAML front matter (card, arxiv, title, primary, ingested…)"
    try:
        body = file.body or ""
        lead = body[: len(body) - len(body.lstrip())].count("\n")
        data = {k: v for k, v in file.front.data.items() if k not in ("path", "summary", "summary_line")}
        return Card(path=file.path, summary=body.strip()[:2000], summary_line=file.body_line + lead, **data)
    except (ValidationError, TypeError) as exc:
        if isinstance(exc, ValidationError):
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}" for err in exc.errors()
            )
        else:
            problems = str(exc)
        return f"invalid card front matter: {problems}"


_CARD_FILE = re.compile(r"^(?P<card>\d+)-(?P<yymm>\d{4})-(?P<seq>\d{4,5})\.md$")


def card_file_index(folder: Path, root: Path) -> dict[str, tuple[int, str]]:
    """arXiv id → (card number, vault path) for every card named as the format spec says
    (``<card>-<yymm>-<nnnnn>.md``), read from the names alone: which papers are carded at all."""
    index: dict[str, tuple[int, str]] = {}
    if not folder.is_dir():
        return index
    for path in in_path_order(folder.glob("*.md")):
        match = _CARD_FILE.match(path.name)
        if match:
            index.setdefault(f"{match['yymm']}.{match['seq']}", (int(match["card"]), path.relative_to(root).as_posix()))
    return index
