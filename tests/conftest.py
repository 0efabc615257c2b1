"""Shared fixtures: the sample vault (skipped when absent), a loopback-only network guard."""

from __future__ import annotations

import ipaddress
import shutil
import socket
from pathlib import Path

import pytest

SHARED_VAULT = Path(__file__).resolve().parents[2] / "shared" / "vault"


def _is_loopback(address: object) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    if isinstance(host, bytes):
        host = host.decode()
    if not isinstance(host, str):
        return True  # AF_UNIX paths and the like
    if host in ("localhost", ""):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


@pytest.fixture(autouse=True)
def _loopback_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail any test that tries to reach an address other than loopback."""
    real_connect = socket.socket.connect
    real_connect_ex = socket.socket.connect_ex

    def guarded(self: socket.socket, address: object):  # type: ignore[no-untyped-def]
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise ConnectionRefusedError(f"tests may only reach loopback, not {address!r}")
        return real_connect(self, address)

    def guarded_ex(self: socket.socket, address: object):  # type: ignore[no-untyped-def]
        if self.family in (socket.AF_INET, socket.AF_INET6) and not _is_loopback(address):
            raise ConnectionRefusedError(f"tests may only reach loopback, not {address!r}")
        return real_connect_ex(self, address)

    monkeypatch.setattr(socket.socket, "connect", guarded)
    monkeypatch.setattr(socket.socket, "connect_ex", guarded_ex)


@pytest.fixture(autouse=True)
def _no_user_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the user's baton settings out of tests."""
    for name in ("BATON_VAULT", "BATON_DATABASE_URL", "BATON_ARXIV_URL", "BATON_STATE"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def sample_vault(tmp_path: Path) -> Path:
    """A writable copy of ``../shared/vault``; the test is skipped when it is absent."""
    if not (SHARED_VAULT / "topics.toml").is_file():
        pytest.skip("the sample vault ../shared/vault is not present")
    target = tmp_path / "vault"
    shutil.copytree(SHARED_VAULT, target)
    return target
