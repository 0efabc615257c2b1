"""baton.log never holds a webhook's secret URL, says why a delivery failed, and rotates (issue 9)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from pathlib import Path

from state.log_file import log_file_handler, redact_url, redact_urls
from tests.fakes.webhook import WebhookReceiver
from workflows.demo_vault import generate_demo_vault

SECRET = "T0123ABCD/B0456EFGH/xoxbSecretToken0123456789"


def _run(vault: Path, day: str, url: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}
    env.update({"BATON_WEBHOOKS": url, "BATON_TODAY": day})
    command = [sys.executable, "-m", "workflows.cli", "run", "--vault", str(vault), "--topic", "inference",
               "--date", day, "--format", "json", "--offline"]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=180)


def test_a_failed_and_a_successful_delivery_log_no_secret_and_the_failure_reason(tmp_path: Path) -> None:
    demo = generate_demo_vault(tmp_path / "vault")
    day = demo.end.isoformat()
    with WebhookReceiver(codes=[404]) as hook:  # the first POST is refused (a 4xx is not retried), the rest pass
        url = hook.url.removesuffix("/hook") + "/services/" + SECRET
        ran = _run(demo.root, day, url)
        assert ran.returncode == 3, ran.stderr  # degraded: one alert not delivered
    statuses = [d.status for d in hook.requests]
    assert 404 in statuses and 200 in statuses  # one refused, at least one delivered
    assert all(d.path == "/services/" + SECRET for d in hook.requests)
    log = (demo.root / ".baton" / "logs" / "baton.log").read_text(encoding="utf-8")
    assert "xoxbSecretToken" not in log and SECRET not in log
    assert "HTTP 404" in log and "not delivered" in log  # the reason of the failure
    assert "delivered" in log and "http://127.0.0.1:" in log  # the redacted URL names the host
    assert "xoxbSecretToken" not in ran.stdout + ran.stderr


def test_urls_are_cut_to_scheme_and_host() -> None:
    assert redact_url("https://hooks.slack.com/services/" + SECRET) == "https://hooks.slack.com/…"
    assert redact_url("https://user:pw@example.com:8443/x?key=1") == "https://example.com:8443/…"
    assert redact_url("http://127.0.0.1:9000") == "http://127.0.0.1:9000"
    assert redact_urls("POST https://h.example/a/b failed; see http://x.example/?token=s") == (
        "POST https://h.example/… failed; see http://x.example/…")


def test_the_log_rotates_and_redacts_tracebacks(tmp_path: Path) -> None:
    path = tmp_path / "baton.log"
    handler = log_file_handler(path, max_bytes=2_000, backups=2)
    logger = logging.getLogger("baton.test_rotation")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    try:
        for n in range(100):
            logger.info("line %d to https://hooks.example/%s", n, SECRET)
        try:
            raise RuntimeError("POST https://hooks.example/" + SECRET)
        except RuntimeError:
            logger.exception("failed")
    finally:
        logger.removeHandler(handler)
        handler.close()
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["baton.log", "baton.log.1", "baton.log.2"]
    for name in files:
        text = (tmp_path / name).read_text(encoding="utf-8")
        assert SECRET not in text and "https://hooks.example/…" in text
        assert path.stat().st_size <= 2_000 or name != "baton.log"
    assert "RuntimeError" in path.read_text(encoding="utf-8")
    assert logging.getLogger("httpx").level == logging.WARNING
