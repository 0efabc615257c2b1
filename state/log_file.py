"""baton's log file: rotating, and never holding a secret a URL carries.

A Slack webhook's URL is its credential (the token is the path), and other
peers' URLs may carry keys in their query. Every line written to the log
passes ``redact_urls``: a URL is cut to ``scheme://host/…``. httpx and
httpcore log each request's full URL at INFO; they log at WARNING here.
"""

from __future__ import annotations

import logging
import logging.handlers
import re
from pathlib import Path

__all__ = ["LOG_MAX_BYTES", "LOG_BACKUPS", "redact_url", "redact_urls", "RedactingFormatter", "log_file_handler"]

LOG_MAX_BYTES = 1_000_000
LOG_BACKUPS = 3
_QUIET = ("httpx", "httpcore")
_URL = re.compile(r"\b([a-zA-Z][a-zA-Z0-9+.-]*)://(?:[^\s/@'\"<>]*@)?([^\s/?#'\"<>]+)([^\s'\"<>]*)")


def redact_url(url: str) -> str:
    """``https://hooks.example.com/services/T0/B0/secret`` → ``https://hooks.example.com/…`` (user info dropped)."""
    return redact_urls(url)


def redact_urls(text: str) -> str:
    """Every URL in ``text`` cut to its scheme and host."""
    return _URL.sub(_cut, text)


def _cut(match: re.Match[str]) -> str:
    scheme, host, rest = match.groups()
    return f"{scheme}://{host}/…" if rest.strip("/") else f"{scheme}://{host}{rest}"


class RedactingFormatter(logging.Formatter):
    """A formatter whose every line (message, arguments, traceback) has its URLs cut to scheme and host."""

    def format(self, record: logging.LogRecord) -> str:
        return redact_urls(super().format(record))


class _QuietRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A log line that cannot be written (a full disk) is dropped: no traceback on the terminal for it."""

    def handleError(self, record: logging.LogRecord) -> None:
        pass


def log_file_handler(path: Path, *, max_bytes: int = LOG_MAX_BYTES, backups: int = LOG_BACKUPS) -> logging.Handler:
    """A handler writing ``path`` (rotated at ``max_bytes``, ``backups`` old files kept), URLs redacted.

    Also sets httpx/httpcore to WARNING, so their per-request INFO lines are not written at all.
    """
    for name in _QUIET:
        logging.getLogger(name).setLevel(logging.WARNING)
    handler = _QuietRotatingFileHandler(path, maxBytes=max_bytes, backupCount=backups, encoding="utf-8")
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    return handler
