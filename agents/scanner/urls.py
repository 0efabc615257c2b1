"""The one URL finder and normaliser.

Normalising lets two spellings of one page cluster together: arXiv
``abs``/``html``/``pdf`` pages and version suffixes collapse to the abstract
page, tracking parameters and fragments go, hosts are lower-cased.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from agents.scanner.arxiv_ids import find_arxiv_refs

__all__ = ["find_urls", "normalize_url"]

# Stops at whitespace, CJK punctuation and the brackets notes wrap links in.
# What follows a URL pattern's known part: "<作者>", "<id>", "{slug}" (not an HTML tag such as "<br>").
_PLACEHOLDER = re.compile(r"<[^\x00-\x7f]|<(?:id|name|user|author|num|number|slug|org|repo)>|\{", re.IGNORECASE)
_URL = re.compile(r"https?://[^\s<>\"'`，。；、（）()【】「」\[\]|]+", re.IGNORECASE)
_TRACKING = re.compile(r"^(utm_\w+|ref|ref_src|source|spm|fbclid|gclid|from|share_token|si)$", re.IGNORECASE)


def find_urls(text: str) -> list[tuple[str, int, int]]:
    """Return ``(url, start, end)`` for every http(s) URL in ``text``."""
    found = []
    for match in _URL.finditer(text):
        url = match.group(0).rstrip(".,;:!?*_~")
        if _PLACEHOLDER.match(text, match.end()) or "{" in url:
            continue  # a pattern, not a page: "https://blog.csdn.net/<作者>/article/details/<号>"
        found.append((url, match.start(), match.start() + len(url)))
    return found


def normalize_url(url: str) -> str:
    """Return the canonical form of ``url`` used to match one page across sources."""
    parts = urlsplit(url.strip())
    host = parts.netloc.lower().removeprefix("www.")
    if host in {"arxiv.org", "export.arxiv.org"} or host.endswith("doi.org"):
        refs = [ref for ref in find_arxiv_refs(url) if not ref.malformed]
        if refs:
            return f"https://arxiv.org/abs/{refs[0].id}"
    query = urlencode([(k, v) for k, v in parse_qsl(parts.query) if not _TRACKING.match(k)])
    path = parts.path.rstrip("/") or ""
    return urlunsplit(("https", host, path, query, ""))
