"""Neutralising vault text where it is written into Markdown (the brief, the register's table).

Titles, points, quotes and file names come from people's notes and file
names; written into a brief they must stay text. ``markdown_text`` keeps one
value on one line, so it cannot start a heading, list, quote, table or code
block of its own, and it cannot open HTML or carry a script link. Ordinary
Chinese or English text comes out unchanged: only characters that would
change the Markdown's structure are touched.
"""

from __future__ import annotations

import re

__all__ = ["markdown_text", "markdown_cell"]

# Every line break Python's str.splitlines knows, with the blanks around it.
_BREAKS = re.compile(r"[ \t]*[\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]+[ \t]*")
# A "<" that would open an HTML tag, comment, declaration or an autolink (CommonMark's rule).
_TAG_OPEN = re.compile(r"<(?=[A-Za-z/!?])")
# URL schemes that run code or embed content; whitespace/control characters inside the name count too.
_SCHEME = re.compile(r"(?i)\b(?:j\W*a\W*v\W*a\W*s\W*c\W*r\W*i\W*p\W*t|v\W*b\W*s\W*c\W*r\W*i\W*p\W*t)\s*:"
                     r"|\bdata\s*:\s*(?=[a-z]+/[\w.+-]+[;,])")
# What starts a block at the beginning of a line: ATX heading, quote, list item, fence, table row,
# thematic break or setext underline.
_BLOCK_START = re.compile(r"^(\s*)(#{1,6}(?=\s|$)|>|\||`{3,}|~{3,}|=+(?=\s*$)|[-+*](?=\s|$)|[-*_](?=[\s\-*_]*$))")
# A table's delimiter row (``|---|:--:|``): with it, the line above would become a table header.
_DELIMITER_ROW = re.compile(r"^[\s|:]*-[\s|:\-]*$")
_ORDERED = re.compile(r"^(\s*\d{1,9})([.)])(?=\s|$)")
# A bare URL run into non-ASCII text ("https://x.org/a：正文…"): GFM's autolink would take "：正文…" into the
# link. Written as an autolink ``<https://x.org/a>``, it ends where the URL does.
_BARE_URL = re.compile(r"(?<![<(\w])(https?://[A-Za-z0-9\-._~:/?#\[\]@!$&'*+,;=%]+?)(?=[^\x00-\x7f])")


def markdown_text(value: object) -> object:
    """``value`` made safe to write into Markdown; anything not a string is returned as it is.

    Line breaks become one space; a character that would start a block
    (``#``, ``>``, ``|``, ``-``, fences …) is backslash-escaped, and so are the
    pipes of a value that reads as a table's delimiter row (a ``|`` inside a
    line is text: no table can form without that row); a ``<`` that
    would open a tag becomes ``&lt;``; ``javascript:``/``vbscript:``/``data:``
    schemes are dropped; leading blanks go (four would start a code block); a bare URL followed by
    non-ASCII text becomes an autolink ``<…>`` so that no renderer takes the next words into it.
    """
    if not isinstance(value, str):
        return value
    text = _BREAKS.sub(" ", value)
    while _SCHEME.search(text):  # until none is left ("javajavascript:script:" makes another)
        text = _SCHEME.sub("", text)
    text = _TAG_OPEN.sub("&lt;", text)
    if _DELIMITER_ROW.match(text):
        text = text.replace("|", r"\|")
    if text[:1].isspace():
        text = text.lstrip()
    text = _BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2), text, count=1)
    text = _ORDERED.sub(lambda m: m.group(1) + "\\" + m.group(2), text, count=1)
    return _BARE_URL.sub(lambda m: f"<{m.group(1)}>", text)


def markdown_cell(value: str) -> str:
    """One cell of a Markdown table row: ``markdown_text`` with ``|`` written as the full-width ``｜``."""
    text = markdown_text(value.replace("|", "｜"))
    return " ".join(str(text).split())
