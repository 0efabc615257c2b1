"""The review page over HTTP, without a browser: login, CSRF, decisions (409), vault links, escaping."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from state.errors import ApprovalError
from tests.review_vault import (
    END,
    HOSTILE_NOTE,
    PREVIOUS,
    THREAD,
    TOKEN,
    build_review_vault,
    context,
    copy_vault,
    login,
)
from workflows import review
from workflows.changes import change_since_previous
from workflows.cli import main
from workflows.web.app import create_app


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_review_vault(tmp_path_factory.mktemp("review") / "vault")


@pytest.fixture
def vault(pristine: Path, tmp_path: Path) -> Path:
    return copy_vault(pristine, tmp_path / "vault")


@pytest.fixture
def client(vault: Path) -> Iterator[TestClient]:
    with TestClient(create_app(context(vault), TOKEN), base_url="http://127.0.0.1") as client:
        yield client


def _waiting(vault: Path, thread: str = THREAD) -> bool:
    return review.review(context(vault), thread).waiting


@pytest.mark.parametrize("path", ["/", f"/brief/{THREAD}", f"/brief/{THREAD}/heatmap.svg",
                                  f"/vault/{HOSTILE_NOTE}", "/vault/topics.toml", "/anything"])
def test_every_page_without_a_session_redirects_to_the_login(client: TestClient, path: str) -> None:
    response = client.get(path, follow_redirects=False)
    assert response.status_code == 303
    assert response.headers["location"].startswith("/login?next=")
    assert "baton review" not in response.text


def test_a_post_without_a_session_changes_nothing(client: TestClient, vault: Path) -> None:
    response = client.post(f"/brief/{THREAD}/approve", data={"by": "mallory", "csrf": "x"},
                           follow_redirects=False)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    assert _waiting(vault)


def test_login_sets_a_strict_http_only_session_cookie_and_a_wrong_token_gets_none(client: TestClient) -> None:
    form = client.get("/login")
    form_token = re.search(r'name="form_token" value="([^"]+)"', form.text).group(1)
    wrong = client.post("/login", data={"token": "not-the-token", "form_token": form_token},
                        follow_redirects=False)
    assert wrong.status_code == 403 and "baton_session" not in wrong.headers.get("set-cookie", "")
    assert client.get("/", follow_redirects=False).status_code == 303
    form = client.get("/login")
    form_token = re.search(r'name="form_token" value="([^"]+)"', form.text).group(1)
    right = client.post("/login", data={"token": TOKEN, "form_token": form_token, "next": f"/brief/{THREAD}"},
                        follow_redirects=False)
    assert right.status_code == 303 and right.headers["location"] == f"/brief/{THREAD}"
    cookie = [c for c in right.headers.get_list("set-cookie") if c.startswith("baton_session=")][0]
    assert "HttpOnly" in cookie and "samesite=strict" in cookie.lower()
    assert client.get("/").status_code == 200


def test_login_refuses_a_form_it_did_not_issue_and_an_outside_next(client: TestClient) -> None:
    forged = client.post("/login", data={"token": TOKEN, "form_token": "made-up"}, follow_redirects=False)
    assert forged.status_code == 403 and "baton_session" not in forged.headers.get("set-cookie", "")
    form = client.get("/login", params={"next": "//evil.example/x"})
    assert 'name="next" value="/"' in form.text


def test_a_post_without_the_csrf_token_is_refused(client: TestClient, vault: Path) -> None:
    csrf = login(client)
    for data in ({"by": "alice"}, {"by": "alice", "csrf": csrf[:-1] + ("A" if csrf[-1] != "A" else "B")}):
        response = client.post(f"/brief/{THREAD}/approve", data=data, follow_redirects=False)
        assert response.status_code == 403 and "CSRF" in response.text
    assert client.post("/logout", data={}, follow_redirects=False).status_code == 403
    assert _waiting(vault)


def test_approve_with_an_edit_publishes_it_and_a_second_decision_answers_409(client: TestClient,
                                                                              vault: Path) -> None:
    csrf = login(client)
    draft = review.review(context(vault), THREAD).markdown
    edited = draft.replace("状态摘要", "状态摘要（已人工核对）", 1).replace("\n", "\r\n")  # as a browser sends it
    done = client.post(f"/brief/{THREAD}/approve", data={"by": "alice", "markdown": edited, "csrf": csrf},
                       follow_redirects=False)
    assert done.status_code == 303, done.text
    page = client.get(done.headers["location"])
    published = re.search(r'id="published" href="([^"]+)"', page.text).group(1)
    assert published == "/vault/inbox/tom/2026-10-14-inference-e1prep.md"  # no person's brief that day
    text = (vault / "inbox/tom/2026-10-14-inference-e1prep.md").read_text(encoding="utf-8")
    assert "状态摘要（已人工核对）" in text and "\r" not in text
    assert "已人工核对" in client.get(published).text
    again = client.post(f"/brief/{THREAD}/reject", data={"by": "bob", "reason": "晚了", "csrf": csrf})
    assert again.status_code == 409
    assert re.search(r"approve</strong> of revision 1\s+by alice", again.text)
    # the CLI sees the same decision
    assert main(["approve", THREAD, "--vault", str(vault), "--by", "carol"]) == 1
    assert [d.by for d in context(vault).store.decisions(THREAD)] == ["alice"]


def test_cli_and_page_mix_a_cli_reject_is_the_decision_that_stands(client: TestClient, vault: Path) -> None:
    csrf = login(client)
    assert main(["reject", THREAD, "--vault", str(vault), "--by", "carol", "--reason", "缺少来源"]) == 0
    response = client.post(f"/brief/{THREAD}/approve", data={"by": "alice", "csrf": csrf})
    assert response.status_code == 409
    assert "reject</strong>" in response.text and "缺少来源" in response.text
    assert not (vault / "inbox/tom/2026-10-14-inference-e1prep.md").exists()


def test_reject_needs_a_reason_and_then_resumes_the_thread(client: TestClient, vault: Path) -> None:
    csrf = login(client)
    empty = client.post(f"/brief/{THREAD}/reject", data={"by": "alice", "reason": "  ", "csrf": csrf})
    assert empty.status_code == 400 and "reason" in empty.text
    assert _waiting(vault)
    done = client.post(f"/brief/{THREAD}/reject", data={"by": "alice", "reason": "请补 C2 的出处", "csrf": csrf},
                       follow_redirects=False)
    assert done.status_code == 303
    decisions = context(vault).store.decisions(THREAD)
    assert [(d.action, d.by, d.reason) for d in decisions] == [("reject", "alice", "请补 C2 的出处")]
    assert not _waiting(vault)
    listing = client.get("/").text
    assert re.search(r'status-rejected">rejected<', listing)


def test_discard_and_dismiss_are_recorded(client: TestClient, vault: Path) -> None:
    csrf = login(client)
    warning = review.review(context(vault), PREVIOUS).brief.warnings[0].id
    done = client.post(f"/brief/{PREVIOUS}/dismiss",
                       data={"by": "alice", "warning": warning, "reason": "已知", "csrf": csrf}, follow_redirects=False)
    assert done.status_code == 303
    assert client.post(f"/brief/{PREVIOUS}/dismiss", data={"by": "alice", "warning": "C999", "reason": "x",
                                                           "csrf": csrf}).status_code == 400
    gone = client.post(f"/brief/{PREVIOUS}/discard", data={"by": "alice", "reason": "重复", "csrf": csrf},
                       follow_redirects=False)
    assert gone.status_code == 303
    assert [d.action for d in context(vault).store.decisions(PREVIOUS)] == ["discard"]
    assert not _waiting(vault, PREVIOUS)
    assert client.post(f"/brief/{PREVIOUS}/approve", data={"by": "alice", "csrf": csrf}).status_code == 409


@pytest.mark.parametrize("path", ["/vault/%2e%2e/topics.toml", "/vault/inbox/..%2F..%2Fetc%2Fpasswd",
                                  "/vault/inbox/%2e%2e/%2e%2e/x.md", "/vault/.baton/baton.db"])
def test_a_vault_link_leading_outside_or_into_state_is_refused(client: TestClient, path: str) -> None:
    login(client)
    response = client.get(path)
    assert response.status_code in (403, 404)
    assert "root:" not in response.text and "SQLite" not in response.text


def test_a_symlink_out_of_the_vault_is_refused(client: TestClient, vault: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.md"
    secret.write_text("top secret outside the vault", encoding="utf-8")
    (vault / "inbox/jay/link.md").symlink_to(secret)
    login(client)
    response = client.get("/vault/inbox/jay/link.md")
    assert response.status_code == 403 and "top secret" not in response.text


def test_vault_text_is_escaped_on_every_page(client: TestClient) -> None:
    login(client)
    note = client.get(f"/vault/{HOSTILE_NOTE}")
    assert note.status_code == 200
    assert "&lt;script&gt;" in note.text and "<script" not in note.text and "<img src=x" not in note.text
    brief = client.get(f"/brief/{THREAD}")
    assert brief.status_code == 200
    assert "<script" not in brief.text and "onerror=\"document" not in brief.text
    assert HOSTILE_NOTE in brief.text  # listed among the sources, as a link
    assert f'href="/vault/{HOSTILE_NOTE}"' in brief.text
    # and no page may run a script at all
    assert "default-src 'none'" in brief.headers["content-security-policy"]
    assert "script-src" not in brief.headers["content-security-policy"]


def test_the_brief_page_shows_warnings_change_heatmap_and_sources(client: TestClient, vault: Path) -> None:
    login(client)
    view = review.review(context(vault), THREAD)
    page = client.get(f"/brief/{THREAD}").text
    assert f"Warnings ({len(view.brief.warnings)})" in page
    for warning in view.brief.warnings:
        assert f'id="warning-{warning.id}"' in page
    change = change_since_previous(context(vault), view.brief)
    assert change.basis == "json" and change.previous == PREVIOUS
    assert f"{len(change.added)} added, {len(change.dropped)} dropped, {len(change.changed)} with changed figures" \
        in page
    assert f'src="/brief/{THREAD}/heatmap.svg"' in page
    svg = client.get(f"/brief/{THREAD}/heatmap.svg")
    assert svg.headers["content-type"].startswith("image/svg+xml") and svg.text.lstrip().startswith("<svg")
    listing = client.get("/").text
    assert THREAD in listing and PREVIOUS in listing and END in listing
    assert f"<td>{len(view.brief.warnings)}</td>" in listing


def test_a_thread_that_is_not_one_is_a_clear_answer(client: TestClient) -> None:
    login(client)
    assert client.get("/brief/not-a-thread").status_code == 400
    assert client.get("/brief/inference:2026-01-01").status_code == 404


def test_review_functions_raise_already_decided_with_the_standing_decision(vault: Path) -> None:
    ctx = context(vault)
    review.approve(ctx, THREAD, "alice")
    with pytest.raises(review.AlreadyDecided) as caught:
        review.reject(ctx, THREAD, "bob", "too late")
    assert isinstance(caught.value, ApprovalError)
    assert caught.value.decision is not None and caught.value.decision.by == "alice"


def test_the_brief_links_each_warning_it_names_to_the_warning_beside_it(client: TestClient, vault: Path) -> None:
    login(client)
    page = client.get(f"/brief/{THREAD}").text
    brief_html = page.split('id="brief">', 1)[1].split('id="warnings"', 1)[0]
    linked = set(re.findall(r'href="#warning-(C\d+)"', brief_html))
    known = {w.id for w in review.review(context(vault), THREAD).brief.warnings}
    assert linked and linked <= known
    assert all(f'id="warning-{w}"' in page for w in linked)


def test_bound_to_loopback_a_request_naming_another_host_is_refused(vault: Path) -> None:
    from workflows.web.serve import LOOPBACK_NAMES

    app = create_app(context(vault), TOKEN, LOOPBACK_NAMES)
    with TestClient(app, base_url="http://rebound.example") as client:
        assert client.get("/login").status_code == 400
    with TestClient(app, base_url="http://127.0.0.1:8700") as client:
        assert client.get("/login").status_code == 200
