"""A wall-clock deadline on one blocking HTTP exchange with a peer (arXiv, a webhook receiver).

The timeouts of requests and httpx bound each socket operation, not the exchange: a server that
trickles one byte a second never trips them and holds the caller for as long as it likes. Inside
``deadline(seconds)`` the sockets the exchange uses are registered with it (``WatchedAdapter`` for
a requests session, ``httpx_trace`` for an httpx request); a watchdog thread shuts them down when the
deadline passes, the blocked read fails at once, and the block raises ``DeadlineExceeded``.
"""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from requests.adapters import HTTPAdapter
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool

__all__ = ["DeadlineExceeded", "Exchange", "deadline", "WatchedAdapter", "httpx_trace"]

_SocketGetter = Callable[[], "socket.socket | None"]
_local = threading.local()
_RECHECK = 0.05  # seconds between shutdowns after the deadline: a socket still connecting is caught next time


class DeadlineExceeded(Exception):
    """The exchange did not finish within its wall-clock deadline; its sockets were shut down."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"not finished within the wall-clock deadline of {seconds:.3g} s")
        self.seconds = seconds


class Exchange:
    """The sockets of one exchange, shut down by the watchdog once the deadline has passed."""

    def __init__(self) -> None:
        self._getters: list[_SocketGetter] = []
        self._lock = threading.Lock()
        self.expired = False

    def watch(self, getter: _SocketGetter) -> None:
        """Register a socket by a getter (a connection's socket may not exist yet when it is registered)."""
        with self._lock:
            self._getters.append(getter)

    def shut_down(self) -> None:
        """Shut every registered socket down for reading and writing; a blocked read returns at once."""
        with self._lock:
            getters = list(self._getters)
        for getter in getters:
            sock = getter()
            if sock is None:
                continue
            try:
                # The plain socket's shutdown, also for a TLS socket: it leaves the TLS object alone.
                socket.socket.shutdown(sock, socket.SHUT_RDWR)
            except (OSError, ValueError, TypeError):
                pass


def _current() -> Exchange | None:
    return getattr(_local, "exchange", None)


@contextmanager
def deadline(seconds: float) -> Iterator[Exchange]:
    """Run the block's HTTP exchange under a wall-clock deadline; raise DeadlineExceeded past it.

    Whatever the block raises after the deadline (the shut-down socket's error), and even a block that
    returns after it, ends in DeadlineExceeded: an answer finished by force cannot be trusted whole.
    """
    exchange = Exchange()
    done = threading.Event()

    def watchdog() -> None:
        if done.wait(max(seconds, 0.0)):
            return
        exchange.expired = True
        while not done.is_set():
            exchange.shut_down()
            done.wait(_RECHECK)

    outer = _current()
    _local.exchange = exchange
    guard = threading.Thread(target=watchdog, name="baton-peer-deadline", daemon=True)
    guard.start()
    try:
        yield exchange
    except Exception as exc:
        if exchange.expired:
            raise DeadlineExceeded(seconds) from exc
        raise
    finally:
        done.set()
        guard.join()
        _local.exchange = outer
    if exchange.expired:
        raise DeadlineExceeded(seconds)


def _watched(conn: Any) -> Any:
    exchange = _current()
    if exchange is not None:
        exchange.watch(lambda: getattr(conn, "sock", None))
    return conn


class _WatchedHTTPPool(HTTPConnectionPool):
    def _get_conn(self, timeout: float | None = None) -> Any:
        return _watched(super()._get_conn(timeout))


class _WatchedHTTPSPool(HTTPSConnectionPool):
    def _get_conn(self, timeout: float | None = None) -> Any:
        return _watched(super()._get_conn(timeout))


class WatchedAdapter(HTTPAdapter):
    """A requests adapter whose connections, new or reused, join the current ``deadline`` exchange."""

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {"http": _WatchedHTTPPool, "https": _WatchedHTTPSPool}


def httpx_trace(event: str, info: Mapping[str, Any]) -> None:
    """httpx's ``trace`` extension: a new connection's socket joins the current ``deadline`` exchange.

    Only new connections are seen, so a caller under a deadline uses a client of its own per exchange.
    """
    exchange = _current()
    if exchange is None or event != "connection.connect_tcp.complete":
        return
    stream = info.get("return_value")
    sock = stream.get_extra_info("socket") if stream is not None else None
    if sock is not None:
        exchange.watch(lambda: sock)
