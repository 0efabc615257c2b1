"""Shared fixtures and test data: the sample vault (skipped when absent), a loopback-only network guard,
a webhook receiver, the brief's Markdown headings, a one-slot schedule."""

from __future__ import annotations

import ipaddress
import shutil
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from state.llm_settings import LLM_ENV
from tests.fakes.webhook import WebhookReceiver

# The `backend` fixture: SQLite, and PostgreSQL where a server answers (tests/databases.py).
pytest_plugins = ["tests.databases"]

SHARED_VAULT = Path(__file__).resolve().parents[2] / "shared" / "vault"
# The brief's Markdown: its section headings in order, and the fields of each increment in order.
BRIEF_HEADINGS = [
    "状态摘要",
    "一、检查过的来源清单",
    "二、增量条目",
    "三、值得警惕的矛盾或待核实说法",
    "四、可引用的 arXiv 号列表",
    "五、检查过的来源汇总（可审计）",
    "六、本次变更摘要",
    "七、建议今晚 E2 活文档更新优先级",
]
INCREMENT_FIELDS = ["来源：", "URL：", "arXiv 号：", "work-queue 标识：", "paper_card 状态：", "要点：", "核心论点：",
                    "可信度：", "与活文档现有脉络的关系：", "建议归入章节："]
# A schedule.toml with one slot, ann's daily note due 12:00 that alerts boss; coordinator tests add slots.
ANN_DAILY_SCHEDULE = """
timezone = "Asia/Shanghai"
check_at = "12:45"

[[slot]]
agent = "ann"
name = "daily"
pattern = "{date}-daily.md"
due = "12:00"
alert = ["boss"]
"""


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
    for name in ("BATON_VAULT", "BATON_DATABASE_URL", "BATON_ARXIV_URL", "BATON_STATE", *LLM_ENV):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("BATON_ENV_FILE", "")  # no .env file of the working folder either


@pytest.fixture
def sample_vault(tmp_path: Path) -> Path:
    """A writable copy of ``../shared/vault``; the test is skipped when it is absent."""
    if not (SHARED_VAULT / "topics.toml").is_file():
        pytest.skip("the sample vault ../shared/vault is not present")
    target = tmp_path / "vault"
    shutil.copytree(SHARED_VAULT, target)
    return target


@pytest.fixture
def webhook() -> Iterator[WebhookReceiver]:
    """A webhook endpoint on 127.0.0.1 (``tests/fakes/webhook.py``), served for the test's duration."""
    with WebhookReceiver() as receiver:
        yield receiver
