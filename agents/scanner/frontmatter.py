"""The one front-matter parser: YAML between ``---`` lines at the top of a Markdown file."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, tzinfo

import yaml

__all__ = ["FrontMatter", "split_front_matter", "parse_front_time"]


class _Loader(yaml.SafeLoader):
    """SafeLoader that keeps numbers and timestamps as written.

    ``arxiv: 2609.30220`` must stay the string "2609.30220" (a float would drop
    the trailing zero) and ``ingested: 2026-09-29T06:10+08:00`` is not a YAML
    timestamp at all (no seconds), so every such scalar stays a string and the
    models at the edge parse it.
    """


_Loader.yaml_implicit_resolvers = {
    key: [(tag, regexp) for tag, regexp in resolvers if tag not in {
        "tag:yaml.org,2002:float", "tag:yaml.org,2002:int", "tag:yaml.org,2002:timestamp"}]
    for key, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}

# libyaml's parser (when PyYAML has it) with the same resolvers: the same data, several times faster.
# Only for heads the pure-Python reader accepts as they are; any error is reported by the pure-Python
# loader, so a broken head gets the same reason either way.
_CLoader: type | None = None
if getattr(yaml, "__with_libyaml__", False):
    class _CLoader(yaml.CSafeLoader):  # type: ignore[no-redef]
        """CSafeLoader with ``_Loader``'s resolvers."""

    _CLoader.yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers


def _load_head(head: str) -> object:
    if _CLoader is not None and not yaml.reader.Reader.NON_PRINTABLE.search(head):
        try:
            return yaml.load(head, Loader=_CLoader)  # noqa: S506 - CSafeLoader subclass
        except yaml.YAMLError:
            pass  # the pure-Python loader says why, in its own words
    return yaml.load(head, Loader=_Loader)  # noqa: S506 - SafeLoader subclass


@dataclass
class FrontMatter:
    """The parsed head of a file; ``error`` says why YAML failed, with ``data`` then empty."""

    data: dict = field(default_factory=dict)
    present: bool = False
    error: str | None = None
    body_start_line: int = 0


def split_front_matter(text: str) -> tuple[FrontMatter, str]:
    """Split ``text`` into its front matter and its body."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return FrontMatter(), text
    for index in range(1, len(lines)):
        if lines[index].strip() == "---":
            head = "\n".join(lines[1:index])
            body = "\n".join(lines[index + 1:])
            try:
                data = _load_head(head)
            except yaml.YAMLError as exc:
                reason = " ".join(str(exc).split())
                return FrontMatter(present=True, error=reason, body_start_line=index + 1), body
            if data is None:
                data = {}
            if not isinstance(data, dict):
                return (
                    FrontMatter(present=True, error=f"front matter is a {type(data).__name__}, not a mapping",
                                body_start_line=index + 1),
                    body,
                )
            return FrontMatter(data=data, present=True, body_start_line=index + 1), body
    return FrontMatter(present=True, error="front matter opened with '---' is never closed"), text


def parse_front_time(value: object, tz: tzinfo | None) -> datetime | None:
    """A front-matter time (ISO 8601); one without a UTC offset is in the vault's timezone ``tz``."""
    if value is None or value == "":
        return None
    try:
        parsed = datetime.fromisoformat(str(value).strip())
    except ValueError:
        return None
    if parsed.tzinfo is None and tz is not None:
        parsed = parsed.replace(tzinfo=tz)
    return parsed
