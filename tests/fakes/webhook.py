"""A Slack-compatible webhook receiver on 127.0.0.1 for tests, scriptable per request.

It records every POST (JSON body, path) and answers with the scripted status
codes in ``codes`` first, then 200. It runs in a thread of the test process, so
a ``baton`` subprocess can deliver to it through ``BATON_WEBHOOKS``::

    with WebhookReceiver() as hook:
        run_baton(env={"BATON_WEBHOOKS": hook.url})
        assert [body["text"] for body in hook.bodies] == [...]
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

__all__ = ["Delivery", "WebhookReceiver"]


@dataclass(frozen=True)
class Delivery:
    """One POST the receiver answered: its path, JSON body and the status it got back."""

    path: str
    body: dict
    status: int


@dataclass
class WebhookReceiver:
    """An HTTP endpoint on 127.0.0.1; ``bodies`` are the JSON bodies of the accepted (2xx) requests."""

    codes: list[int] = field(default_factory=list)
    retry_after: str | None = None  # the Retry-After header sent with each 429
    requests: list[Delivery] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __post_init__(self) -> None:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                with receiver._lock:
                    code = receiver.codes.pop(0) if receiver.codes else 200
                    receiver.requests.append(Delivery(self.path, body, code))
                self.send_response(code)
                if code == 429 and receiver.retry_after is not None:
                    self.send_header("Retry-After", receiver.retry_after)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        self._thread = threading.Thread(target=self.server.serve_forever, kwargs={"poll_interval": 0.05},
                                        daemon=True)

    @property
    def bodies(self) -> list[dict]:
        """The JSON bodies of the requests answered with a 2xx status, in arrival order."""
        with self._lock:
            return [d.body for d in self.requests if d.status < 300]

    @property
    def texts(self) -> list[str]:
        """The ``text`` of each accepted body (Slack's message field)."""
        return [str(body.get("text")) for body in self.bodies]

    def start(self) -> WebhookReceiver:
        """Serve in a daemon thread."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving and close the socket."""
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self) -> WebhookReceiver:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()
