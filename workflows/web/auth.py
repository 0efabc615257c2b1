"""Who may use the review page: one token exchanged for a session cookie, and a CSRF token per session."""

from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass

__all__ = ["SESSION_COOKIE", "LOGIN_COOKIE", "Sessions", "new_token", "safe_next"]

SESSION_COOKIE = "baton_session"
LOGIN_COOKIE = "baton_login"  # the login form's own CSRF token (double submit), before there is a session


def new_token() -> str:
    """A fresh random token (for the review token, sessions and CSRF)."""
    return secrets.token_urlsafe(24)


def safe_next(target: str | None) -> str:
    """Where to go after logging in: a path of this site only (no ``//host`` or ``scheme:``)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/"
    return target


@dataclass
class Sessions:
    """Sessions in memory: a restart logs everyone out (the token is needed again)."""

    token: str

    def __post_init__(self) -> None:
        self._csrf: dict[str, str] = {}
        self._lock = threading.Lock()

    def check_token(self, given: str) -> bool:
        """Is ``given`` the review token (compared in constant time)?"""
        return hmac.compare_digest(given.encode(), self.token.encode())

    def open(self) -> str:
        """Start a session and return its id."""
        sid = new_token()
        with self._lock:
            self._csrf[sid] = new_token()
        return sid

    def close(self, sid: str | None) -> None:
        """End a session."""
        with self._lock:
            self._csrf.pop(sid or "", None)

    def csrf(self, sid: str | None) -> str | None:
        """The CSRF token of a session, or None when ``sid`` is not a session."""
        with self._lock:
            return self._csrf.get(sid or "")

    def check_csrf(self, sid: str | None, given: str | None) -> bool:
        """Does the form's CSRF token match the session's?"""
        expected = self.csrf(sid)
        return bool(expected and given) and hmac.compare_digest(expected.encode(), str(given).encode())
