"""The review page in real headless Chromium (Debian's /usr/bin/chromium) driven by Playwright.

Skipped, with the reason, when /usr/bin/chromium or Playwright is missing (`.ci/run` installs both).
"""

from __future__ import annotations

import re
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

import pytest

from state.runtime import BatonContext
from tests.review_vault import HOSTILE_NOTE, THREAD, TOKEN, build_review_vault, context
from workflows import api
from workflows.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

if not CHROMIUM.exists():
    pytest.skip("browser tests need Debian's chromium at /usr/bin/chromium (apt-get install -y chromium)",
                allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api", reason="browser tests need Playwright (pip install playwright)")


@contextmanager
def _server(ctx: BatonContext) -> Iterator[str]:
    """The review app served by uvicorn on a free loopback port, in a thread, for the block's duration."""
    import uvicorn

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(ctx, TOKEN), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:  # waits for readiness (not a timed assertion)
        if not thread.is_alive():
            raise RuntimeError("the review server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser) -> Iterator[object]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.dialogs = dialogs  # type: ignore[attr-defined]
    yield page
    context.close()


def _log_in(page, base: str, target: str) -> None:  # type: ignore[no-untyped-def]
    page.goto(base + target)
    assert "/login" in page.url  # no session: the login page
    page.fill("#token", TOKEN)
    page.click("#login")
    page.wait_for_load_state()
    assert "/login" not in page.url, page.content()


def _edit_approve_and_see_published(page, base: str, thread: str, name: str) -> str:  # type: ignore[no-untyped-def]
    """Log in to the draft, change one line in the editor, approve, follow the link to the published file."""
    if "/login" in page.goto(base + f"/brief/{thread}").url:
        _log_in(page, base, f"/brief/{thread}")
    assert page.locator("#state").inner_text().startswith("waiting for approval")
    page.click("#approve-form summary")
    original = page.input_value("#markdown")
    line = next(ln for ln in original.split("\n") if ln.startswith("# "))
    edited = original.replace(line, line + "（已人工审阅）", 1)
    page.fill("#markdown", edited)
    page.fill("#approve-form input[name=by]", name)
    page.click("#approve")
    page.wait_for_load_state()
    assert "approved" in page.locator("#flash").inner_text()
    page.click("#published")
    page.wait_for_load_state()
    body = page.locator("#note-body").inner_text()
    assert line.lstrip("# ") + "（已人工审阅）" in body
    return page.url


def test_log_in_edit_a_line_approve_and_see_the_published_file(page, tmp_path: Path,  # type: ignore[no-untyped-def]
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    vault = build_review_vault(tmp_path / "vault")
    with _server(context(vault)) as base:
        _log_in(page, base, f"/brief/{THREAD}")
        shot = tmp_path / "brief-page-1280x800.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000
        with capsys.disabled():
            print(f"\nscreenshot of the brief page (1280x800): {shot}")
        url = _edit_approve_and_see_published(page, base, THREAD, "alice")
    assert url.endswith("/vault/inbox/tom/2026-10-14-inference-e1prep.md")
    published = (vault / "inbox/tom/2026-10-14-inference-e1prep.md").read_text(encoding="utf-8")
    assert "（已人工审阅）" in published
    assert [(d.action, d.by, d.edited) for d in context(vault).store.decisions(THREAD)] == [("approve", "alice", True)]


def test_without_the_token_every_page_redirects_to_the_login(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    vault = build_review_vault(tmp_path / "vault")
    with _server(context(vault)) as base:
        for target in ("/", f"/brief/{THREAD}", f"/vault/{HOSTILE_NOTE}"):
            page.goto(base + target)
            assert re.search(r"/login\?next=", page.url), target
            assert page.locator("#token").count() == 1
        page.fill("#token", "wrong-token-000000")
        page.click("#login")
        assert "not the review token" in page.content()
        page.goto(base + "/")
        assert "/login" in page.url


def test_a_reject_round_trip(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    vault = build_review_vault(tmp_path / "vault")
    ctx = context(vault)
    with _server(ctx) as base:
        _log_in(page, base, f"/brief/{THREAD}")
        page.fill("#reject-form input[name=by]", "carol")
        page.fill("#reject-form input[name=reason]", "请补上 C2 的原始出处")
        page.click("#reject")
        page.wait_for_load_state()
        assert page.locator("#flash").inner_text() == "rejected"
        assert "reject by carol" in page.locator("#state").inner_text()
        assert page.locator("#approve").count() == 0
        # the next run revises the draft with the reason; the page shows revision 2 waiting again
        outcome = api.run_brief(ctx, "inference", date(2026, 10, 14))
        assert outcome.pending and outcome.revision == 2
        page.reload()
        assert page.locator("#state").inner_text().startswith("waiting for approval")
        assert "revision 2" in page.locator("#title").inner_text()
        assert "请补上 C2 的原始出处" in page.locator("#brief").inner_text()
        page.fill("#approve-form input[name=by]", "dave")
        page.click("#approve")
        page.wait_for_load_state()
        assert "approved" in page.locator("#flash").inner_text()
    assert [(d.action, d.revision) for d in ctx.store.decisions(THREAD)] == [("reject", 1), ("approve", 2)]


def test_a_script_in_a_note_renders_inert_and_a_dotdot_link_is_refused(page, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    vault = build_review_vault(tmp_path / "vault")
    with _server(context(vault)) as base:
        _log_in(page, base, f"/brief/{THREAD}")
        title = page.title()
        assert "<script>document.title='owned'</script>" in page.locator("#warnings").inner_text()
        assert page.locator("#brief script, #warnings script, #warnings img").count() == 0
        page.click(f'#sources a[href="/vault/{HOSTILE_NOTE}"]')
        page.wait_for_load_state()
        assert "<img src=x onerror=" in page.locator("#note-body").inner_text()
        assert page.locator("#note-body script, #note-body img").count() == 0
        assert page.title() != "owned" and title != "owned" and page.dialogs == []
        # Chromium resolves "%2e%2e" itself (to /topics.toml, not a page); "..%2F" reaches the server as ../
        response = page.goto(base + "/vault/%2e%2e/topics.toml")
        assert response.status == 404 and "[topic." not in page.content()
        response = page.goto(base + "/vault/inbox/..%2F..%2Ftopics.toml")
        assert response.status == 404 and "../" in page.locator("#problem").inner_text()
        assert "[topic." not in page.content()


@pytest.mark.sample_vault
def test_the_sample_vaults_inference_draft_edit_approve_publish(page, sample_vault: Path) -> None:  # type: ignore[no-untyped-def]
    ctx = context(sample_vault)
    outcome = api.run_brief(ctx, "inference", date(2026, 9, 29))
    assert outcome.pending
    with _server(ctx) as base:
        url = _edit_approve_and_see_published(page, base, "inference:2026-09-29", "alice")
    # a person's brief is there already: baton publishes beside it
    assert url.endswith("/vault/inbox/tom/2026-09-29-inference-e1prep.baton.md")
    text = (sample_vault / "inbox/tom/2026-09-29-inference-e1prep.baton.md").read_text(encoding="utf-8")
    assert "（已人工审阅）" in text
