"""Fault servers on loopback for arXiv: each fault ends in an unverified verdict with a reason (issue 9).

Small raw-socket servers, one per fault, so a fault can be what no HTTP framework would send: an
accepted connection that never answers, a body trickled a byte at a time, Atom cut mid-element,
HTML where Atom belongs. ``tests/test_arxiv_api.py`` already covers refused, 5xx and 503
Retry-After against the Atom fake; these add the faults it cannot make.
The trickle is also run through a whole `baton run` (exit 3, degraded) and against a webhook sink.
Each lookup runs in a thread that is joined with a generous guard: a lookup still running after it
is a hang past the run's budget (the finding), not a slow machine.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path

import pytest

from agents.coordinator.alerts import record_gaps_and_outbox
from agents.verifier.arxiv_api import ArxivApi, ArxivSettings
from state.db import Database
from state.vault_config import load_vault_config
from tests.conftest import ANN_DAILY_SCHEDULE

DAY = date(2026, 9, 29)
BUDGET = 3.0
HANG_GUARD = 20.0  # far beyond BUDGET: only a lookup that ignores its budget gets here

_ATOM_HEAD = (b'<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
              b'xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">\n<opensearch:totalResults>1'
              b'</opensearch:totalResults>\n<entry><id>http://arxiv.org/abs/2511.02230v3</id><title>Contin')


def _reply(status: str, body: bytes, extra: str = "", content_type: str = "application/atom+xml") -> bytes:
    head = f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {len(body)}\r\n{extra}" \
           f"Connection: close\r\n\r\n"
    return head.encode() + body


FAULTS: dict[str, Callable[[socket.socket], None]] = {}


def _fault(name: str):  # type: ignore[no-untyped-def]
    def register(fn: Callable[[socket.socket], None]) -> Callable[[socket.socket], None]:
        FAULTS[name] = fn
        return fn
    return register


@_fault("hang")
def _hang(conn: socket.socket) -> None:
    time.sleep(HANG_GUARD)


@_fault("trickle")
def _trickle(conn: socket.socket) -> None:
    for byte in _reply("200 OK", _ATOM_HEAD * 20):
        conn.sendall(bytes([byte]))
        time.sleep(0.5)


@_fault("429")
def _too_many(conn: socket.socket) -> None:
    conn.sendall(_reply("429 Too Many Requests", b"slow down", "Retry-After: 1\r\n", "text/plain"))


@_fault("500")
def _server_error(conn: socket.socket) -> None:
    conn.sendall(_reply("500 Internal Server Error", b"oops", content_type="text/plain"))


@_fault("truncated")
def _truncated(conn: socket.socket) -> None:
    conn.sendall(_reply("200 OK", _ATOM_HEAD))


@_fault("html")
def _html(conn: socket.socket) -> None:
    conn.sendall(_reply("200 OK", b"<!doctype html><html><body><h1>Maintenance</h1></body></html>",
                        content_type="text/html"))


class FaultServer:
    """A loopback server that reads a request and answers with one fault; ``refused`` closes the port."""

    def __init__(self, fault: str) -> None:
        self.fault = fault
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.accepted = 0
        if fault == "refused":
            self.sock.close()
            return
        self.sock.listen(8)
        threading.Thread(target=self._serve, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/query"

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        try:
            conn.recv(65536)
            FAULTS[self.fault](conn)
        except OSError:
            pass
        finally:
            conn.close()

    def stop(self) -> None:
        self.sock.close()


@pytest.fixture(params=["refused", "hang", "trickle", "429", "500", "truncated",
                        "html"])
def server(request: pytest.FixtureRequest) -> Iterator[FaultServer]:
    fake = FaultServer(request.param)
    yield fake
    fake.stop()


def test_each_arxiv_fault_ends_unverified_with_a_reason_within_the_budget(server: FaultServer) -> None:
    settings = ArxivSettings(url=server.url, min_interval=0.01, backoff=0.05, max_attempts=3, timeout=1.0,
                             budget=BUDGET)
    out: dict[str, object] = {}

    def lookup() -> None:
        with ArxivApi(settings, DAY) as api:
            out["verdict"] = api.lookup(["2511.02230"])["2511.02230"]
            out["requests"] = api.requests_made

    worker = threading.Thread(target=lookup, daemon=True)
    worker.start()
    worker.join(HANG_GUARD)
    assert not worker.is_alive(), f"{server.fault}: the lookup is still running far past its {BUDGET} s budget"
    verdict = out["verdict"]
    assert verdict.status == "unverified", (server.fault, verdict)  # type: ignore[attr-defined]
    assert verdict.note, server.fault  # type: ignore[attr-defined]
    assert 1 <= out["requests"] <= 3  # type: ignore[operator]


def test_a_trickling_arxiv_ends_the_run_degraded_within_its_budget(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The whole run under a trickling arXiv: done (exit 3), the ids unverified with a reason, one degraded line."""
    import json

    from workflows.cli import main
    from workflows.demo_vault import generate_demo_vault

    demo = generate_demo_vault(tmp_path / "vault")
    server = FaultServer("trickle")
    monkeypatch.setenv("BATON_ARXIV_URL", server.url)
    monkeypatch.setenv("BATON_ARXIV_DELAY", "0.01")
    monkeypatch.setenv("BATON_ARXIV_TIMEOUT", "1")
    monkeypatch.setenv("BATON_ARXIV_BUDGET", str(BUDGET))
    day = demo.end.isoformat()
    out: dict[str, int] = {}
    worker = threading.Thread(
        target=lambda: out.update(code=main(["run", "--vault", str(demo.root), "--topic", "inference",
                                             "--date", day])), daemon=True)
    try:
        worker.start()
        worker.join(HANG_GUARD * 3)
        assert not worker.is_alive(), "the run is still held by the trickling server far past its budget"
    finally:
        server.stop()
    assert server.accepted >= 1
    assert out["code"] == 3
    err = capsys.readouterr().err.strip().splitlines()
    degraded = [line for line in err if line.startswith("baton: degraded:")]
    assert len(degraded) == 1 and "arXiv unreachable" in degraded[0] and "still arriving" in degraded[0]
    brief = json.loads((demo.root / ".baton" / "drafts" / f"{day}-inference-e1prep.json").read_text(encoding="utf-8"))
    assert brief["stats"]["arxiv_failure_kind"] in ("timeout", "budget")
    verdicts = {e["verified"] for e in brief["arxiv"]}
    assert "unverified" in verdicts and verdicts <= {"unverified", "malformed"}, verdicts  # nothing believed


# -- webhooks ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fault", ["refused", "hang", "trickle", "500", "429"])
def test_each_webhook_fault_is_a_recorded_failed_delivery_and_the_alert_stays_pending(
        fault: str, tmp_path: Path) -> None:
    from agents.coordinator.alerts import WebhookSink, deliver_pending
    from tests.test_coordinator_alerts import NOON, NOW, _gaps

    root = tmp_path / "vault"
    (root / "inbox" / "ann").mkdir(parents=True)
    (root / "schedule.toml").write_text(ANN_DAILY_SCHEDULE, encoding="utf-8")
    (root / "topics.toml").write_text("", encoding="utf-8")
    (root / "inbox" / "ann" / "2026-05-01-daily.md").write_text(
        "---\ntime: 2026-05-01T11:00:00+08:00\n---\n\nbody text.\n", encoding="utf-8")
    cfg = load_vault_config(root)
    db = Database(f"sqlite:///{tmp_path / 'state.db'}")
    db.upgrade()
    server = FaultServer(fault)
    try:
        sinks = [WebhookSink(("boss",), url=server.url, sleep=lambda _s: None, retries=2, timeout=1.0)]
        record_gaps_and_outbox(db, cfg, _gaps(cfg, NOON), today=date(2026, 5, 2), now=NOW, run_day=NOON.date())
        out: dict[str, object] = {}
        worker = threading.Thread(target=lambda: out.update(report=deliver_pending(db, sinks, now=lambda: NOW)),
                                  daemon=True)
        worker.start()
        worker.join(HANG_GUARD)
        assert not worker.is_alive(), f"{fault}: delivery still running far past the webhook timeout"
        report = out["report"]
        assert report.sent == [] and report.failed, fault  # type: ignore[attr-defined]
        assert all(reason for _, _, reason in report.failed), fault  # type: ignore[attr-defined]  # each with a reason
        # Still in the outbox: the next pass tries it again (collapsed into a digest), it is not dropped.
        again = deliver_pending(db, sinks, now=lambda: NOW)
        assert again.sent == [] and again.failed and all(f[2] for f in again.failed)
    finally:
        server.stop()
        db.dispose()


def test_a_trickling_receiver_spends_the_sinks_run_budget_and_later_alerts_fail_at_once() -> None:
    """Per request and per run: each attempt ends at its deadline, and once the sink's budget is spent
    no further request is sent; every alert fails with a reason naming the budget."""
    from agents.coordinator.alerts import WebhookSink
    from state.errors import DeliveryError

    server = FaultServer("trickle")
    sink = WebhookSink(("boss",), url=server.url, sleep=lambda _s: None, retries=5, backoff=0.0, timeout=0.5,
                       budget=1.2)
    reasons: list[str] = []

    def post_three() -> None:
        for n in range(3):
            try:
                sink.post(f"alert-{n}", {"text": "x"})
            except DeliveryError as exc:
                reasons.append(str(exc))

    worker = threading.Thread(target=post_three, daemon=True)
    try:
        worker.start()
        worker.join(HANG_GUARD)
        assert not worker.is_alive(), "the trickling receiver holds the sink past its budget"
    finally:
        server.stop()
    assert len(reasons) == 3
    assert "DeadlineExceeded" in reasons[0] and "budget of 1.2 s spent" in reasons[0]
    assert all("budget of 1.2 s spent" in reason for reason in reasons[1:])
    # 0.5 s deadlines in a 1.2 s budget: at most three attempts reach the server, of six retries allowed.
    assert 1 <= sink.attempts <= 3 and 1 <= server.accepted <= sink.attempts
