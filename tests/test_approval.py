"""Human approval across process restarts: run → pending → approve → published; reject → revision."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SHARED_VAULT
from tests.databases import Backend


def _baton(vault: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATON_") or k == "BATON_DATABASE_URL"}
    return subprocess.run([sys.executable, "-m", "workflows.cli", *args, "--vault", str(vault)],
                          capture_output=True, text=True, timeout=180, env=env)


@pytest.fixture
def vault(sample_vault: Path, backend: Backend, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the sample vault, its store on SQLite or on a fresh PostgreSQL database."""
    for name, value in backend.env.items():
        monkeypatch.setenv(name, value)
    return sample_vault


def test_run_pending_approve_publish_with_restarts(vault: Path) -> None:
    thread = "inference:2026-09-29"
    ran = _baton(vault, "run", "--topic", "inference", "--date", "2026-09-29", "--offline")
    assert ran.returncode == 0, ran.stderr
    assert "waiting for approval" in ran.stdout
    listed = _baton(vault, "pending")
    assert thread in listed.stdout
    reviewed = _baton(vault, "review", thread)
    assert reviewed.returncode == 0 and "waiting for approval" in reviewed.stdout
    approved = _baton(vault, "approve", thread, "--by", "alice")
    assert approved.returncode == 0, approved.stderr
    # a person's brief is already there: baton writes beside it, never over it
    human = vault / "inbox/tom/2026-09-29-inference-e1prep.md"
    assert human.read_bytes() == (SHARED_VAULT / "inbox/tom/2026-09-29-inference-e1prep.md").read_bytes()
    beside = vault / "inbox/tom/2026-09-29-inference-e1prep.baton.md"
    assert beside.is_file() and "published: inbox/tom/2026-09-29-inference-e1prep.baton.md" in approved.stdout
    again = _baton(vault, "approve", thread, "--by", "bob")
    assert again.returncode == 1
    assert "already approved by alice" in again.stderr and len(again.stderr.strip().splitlines()) == 1
    assert "no thread is waiting" in _baton(vault, "pending").stdout


def test_reject_then_run_revises_the_draft(vault: Path) -> None:
    thread = "inference:2026-09-29"
    assert _baton(vault, "run", "--topic", "inference", "--date", "2026-09-29", "--offline").returncode == 0
    rejected = _baton(vault, "reject", thread, "--by", "carol", "--reason", "缺少 C2C 跳票说明")
    assert rejected.returncode == 0, rejected.stderr
    assert "no thread is waiting" in _baton(vault, "pending").stdout
    rerun = _baton(vault, "run", "--topic", "inference", "--date", "2026-09-29", "--offline")
    assert rerun.returncode == 0, rerun.stderr
    assert "revision 2" in rerun.stdout
    draft = (vault / ".baton/drafts/2026-09-29-inference-e1prep.md").read_text(encoding="utf-8")
    assert "缺少 C2C 跳票说明" in draft
    edited = vault.parent / "edited.md"
    edited.write_text("# edited by hand\n", encoding="utf-8")
    approved = _baton(vault, "approve", thread, "--by", "dave", "--edit", str(edited), "--replace")
    assert approved.returncode == 0, approved.stderr
    published = vault / "inbox/tom/2026-09-29-inference-e1prep.md"
    text = published.read_text(encoding="utf-8")
    assert text.endswith("---\n\n# edited by hand\n")  # the person's text, under the team's front matter
    from agents.scanner.frontmatter import split_front_matter

    front = split_front_matter(text)[0].data
    assert (front["agent"], front["slot"], front["approval"], front["approved_by"]) == (
        "tom", "inference-e1prep", "edited", "dave")
    assert front["time"] == "2026-09-29T22:20:00+08:00" and str(front["revision"]) == "2"
    assert (vault / "inbox/tom/2026-09-29-inference-e1prep.md.bak").is_file() or \
        any(p.name.endswith(".bak") for p in (vault / "inbox/tom").iterdir())
