"""`baton serve` as a process: binds 127.0.0.1, prints a generated token once, the token logs in."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from workflows.cli import main
from workflows.demo_vault import generate_demo_vault


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_serve_prints_a_token_once_and_it_opens_a_session(tmp_path: Path) -> None:
    vault = tmp_path / "vault"
    generate_demo_vault(vault)
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}
    env["PYTHONUNBUFFERED"] = "1"
    process = subprocess.Popen([sys.executable, "-m", "workflows.cli", "serve", "--vault", str(vault),
                                "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=env)
    try:
        first = process.stdout.readline()
        second = process.stdout.readline()
        assert first.startswith(f"baton review page: http://127.0.0.1:{port}/login"), (first, process.stderr)
        token = re.search(r"\(shown once; .*\): (\S+)$", second).group(1)
        for _ in range(500):  # until uvicorn listens (readiness, not a timed assertion)
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.02)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", follow_redirects=True) as client:
            assert client.get("/", follow_redirects=False).status_code == 303
            form = client.get("/login")
            form_token = re.search(r'name="form_token" value="([^"]+)"', form.text).group(1)
            done = client.post("/login", data={"token": token, "form_token": form_token})
            assert done.status_code == 200 and "Briefs" in done.text
    finally:
        process.terminate()
        rest, _ = process.communicate(timeout=30)
    assert token not in first and token not in rest  # shown once


def test_serve_refuses_a_short_token_and_a_bad_port(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    vault = tmp_path / "vault"
    generate_demo_vault(vault)
    monkeypatch.setenv("BATON_REVIEW_TOKEN", "short")
    assert main(["serve", "--vault", str(vault), "--port", "8799"]) == 2
    assert "at least 12 characters" in capsys.readouterr().err
    monkeypatch.setenv("BATON_REVIEW_TOKEN", "a-long-enough-token")
    assert main(["serve", "--vault", str(vault), "--port", "70000"]) == 2
    assert "--port must be between" in capsys.readouterr().err
