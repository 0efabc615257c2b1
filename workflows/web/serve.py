"""``baton serve``: the review page on a local address, with its token printed once."""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Callable

from state.errors import UsageError
from state.runtime import BatonContext
from workflows.web.auth import new_token

__all__ = ["serve", "review_token", "is_loopback_host", "LOOPBACK_NAMES"]

LOOPBACK_NAMES = ["127.0.0.1", "localhost", "::1", "[::1]"]


def review_token() -> tuple[str, bool]:
    """The review token: ``$BATON_REVIEW_TOKEN``, else a fresh one; and whether it was generated."""
    given = os.environ.get("BATON_REVIEW_TOKEN", "").strip()
    if given:
        if len(given) < 12:
            raise UsageError("BATON_REVIEW_TOKEN is too short: use at least 12 characters")
        return given, False
    return new_token(), True


def is_loopback_host(host: str) -> bool:
    """Does ``host`` name this machine only (127.0.0.1, ::1, localhost)?"""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def serve(ctx: BatonContext, host: str, port: int, say: Callable[[str], None]) -> None:
    """Run the review page until interrupted."""
    import uvicorn

    from workflows.web.app import create_app

    if not 0 < port < 65536:
        raise UsageError(f"--port must be between 1 and 65535, not {port}")
    token, generated = review_token()
    loopback = is_loopback_host(host)
    app = create_app(ctx, token, LOOPBACK_NAMES if loopback else None)
    shown = f"[{host}]" if ":" in host else host
    say(f"baton review page: http://{shown}:{port}/login  (vault {ctx.settings.vault})")
    if generated:
        say(f"review token (shown once; set BATON_REVIEW_TOKEN to choose one): {token}")
    if not loopback:
        say(f"warning: listening on {host}, not only this machine; anyone who reaches it needs the token")
    uvicorn.run(app, host=host, port=port, log_level="warning")
