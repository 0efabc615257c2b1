"""The review page (``baton serve``): list, brief, note; approve, reject, discard, dismiss — the CLI's functions.

Every page needs a session (a token exchanged at /login for an HttpOnly, SameSite=Strict cookie);
every POST carries the session's CSRF token; every piece of vault text goes through Jinja's
autoescape or Markdown with raw HTML off; no page runs a script (the CSP says ``script-src 'none'``).
"""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from urllib.parse import quote

from fastapi import FastAPI, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware

from agents.scanner.notes import read_vault_file, refusal
from state.errors import ApprovalError, BatonError, ConfigError, UsageError
from state.models import WARNING_LABELS
from state.runtime import BatonContext
from workflows import coordination, review
from workflows.web.auth import LOGIN_COOKIE, SESSION_COOKIE, Sessions, new_token, safe_next
from workflows.web.render import bad_vault_path, link_warnings, markdown_html, note_url

__all__ = ["create_app", "HEATMAP_DAYS"]

log = logging.getLogger("baton.web")
HEATMAP_DAYS = 14
_TEMPLATES = Path(__file__).parent / "templates"
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; "
                               "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def _thread_url(thread: str) -> str:
    return "/brief/" + quote(thread, safe=":")


def create_app(ctx: BatonContext, token: str, allowed_hosts: list[str] | None = None) -> FastAPI:
    """The review app over one vault's context; ``token`` is what /login accepts.

    ``allowed_hosts`` (e.g. the loopback names when bound to 127.0.0.1) refuses requests naming any
    other Host, so a page whose name is rebound to this machine reaches nothing.
    """
    app = FastAPI(title="baton review", docs_url=None, redoc_url=None, openapi_url=None)
    templates = Jinja2Templates(directory=str(_TEMPLATES))  # autoescape on for .html
    templates.env.globals.update(note_url=note_url, thread_url=_thread_url, labels=WARNING_LABELS)
    sessions = Sessions(token)
    decide_lock = threading.Lock()  # one decision at a time: the second sees the first's result (409)
    app.state.sessions = sessions

    @app.middleware("http")
    async def guard(request: Request, call_next):  # type: ignore[no-untyped-def]
        path = request.url.path
        if path == "/favicon.ico":
            response: Response = Response(status_code=404)
        elif path != "/login" and sessions.csrf(request.cookies.get(SESSION_COOKIE)) is None:
            target = path + (f"?{request.url.query}" if request.url.query else "")
            response = RedirectResponse(f"/login?next={quote(target, safe='')}", status_code=303)
        else:
            response = await call_next(request)
        for name, value in _HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    def page(request: Request, name: str, status: int = 200, **values: object) -> HTMLResponse:
        sid = request.cookies.get(SESSION_COOKIE)
        return templates.TemplateResponse(request, name, {"csrf": sessions.csrf(sid), **values},
                                          status_code=status)

    def problem(request: Request, status: int, title: str, message: str, **values: object) -> HTMLResponse:
        return page(request, "problem.html", status, title=title, message=message, **values)

    def check_csrf(request: Request, given: str) -> HTMLResponse | None:
        if not sessions.check_csrf(request.cookies.get(SESSION_COOKIE), given):
            return problem(request, 403, "Refused", "The form's CSRF token is missing or wrong: reload the page "
                                                    "and try again.")
        return None

    @app.exception_handler(StarletteHTTPException)
    def http_error(request: Request, exc: StarletteHTTPException) -> HTMLResponse:
        return problem(request, exc.status_code, "Not found" if exc.status_code == 404 else "Refused",
                       f"{request.url.path}: {exc.detail}")

    # login -------------------------------------------------------------------------------------------------
    @app.get("/login", response_class=HTMLResponse)
    def login_form(request: Request, next: str = "/") -> HTMLResponse:  # noqa: A002 - the query's name
        # Reuse the form token a browser already holds: a second tab (or a favicon fetch) must not void the first.
        form_token = request.cookies.get(LOGIN_COOKIE) or new_token()
        response = page(request, "login.html", form_token=form_token, next=safe_next(next), error=None)
        response.set_cookie(LOGIN_COOKIE, form_token, httponly=True, samesite="strict", path="/login")
        return response

    @app.post("/login")
    def login(request: Request, token: str = Form(""), form_token: str = Form(""),
              next: str = Form("/")) -> Response:  # noqa: A002
        cookie = request.cookies.get(LOGIN_COOKIE) or ""
        if not cookie or not form_token or cookie != form_token:
            return problem(request, 403, "Refused", "The login form expired or came from elsewhere: open /login "
                                                    "again.")
        if not sessions.check_token(token.strip()):
            again = new_token()
            response = page(request, "login.html", 403, form_token=again, next=safe_next(next),
                            error="That is not the review token.")
            response.set_cookie(LOGIN_COOKIE, again, httponly=True, samesite="strict", path="/login")
            return response
        sessions.close(request.cookies.get(SESSION_COOKIE))
        response = RedirectResponse(safe_next(next), status_code=303)
        response.set_cookie(SESSION_COOKIE, sessions.open(), httponly=True, samesite="strict", path="/")
        response.delete_cookie(LOGIN_COOKIE, path="/login")
        return response

    @app.post("/logout")
    def logout(request: Request, csrf: str = Form("")) -> Response:
        if (refused := check_csrf(request, csrf)) is not None:
            return refused
        sessions.close(request.cookies.get(SESSION_COOKIE))
        response = RedirectResponse("/login", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/")
        return response

    # pages -------------------------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse)
    def index(request: Request) -> HTMLResponse:
        rows = review.list_threads(ctx)
        return page(request, "list.html", rows=rows, vault=str(ctx.settings.vault))

    @app.get("/brief/{thread}", response_class=HTMLResponse)
    def brief_page(request: Request, thread: str, done: str | None = None) -> HTMLResponse:
        try:
            view = review.review(ctx, thread)
        except UsageError as exc:
            return problem(request, 400, "Not a thread", str(exc))
        except ApprovalError as exc:
            return problem(request, 404, "No such draft", str(exc))
        by_increment = {w: inc for inc in view.brief.increments for w in inc.warnings}
        return page(request, "brief.html", view=view, brief=view.brief, html=link_warnings(markdown_html(view.markdown), {w.id for w in view.brief.warnings}),
                    change=view.change, by_increment=by_increment, done=done,
                    last=view.decisions[-1] if view.decisions else None)

    @app.get("/brief/{thread}/heatmap.svg")
    def heatmap(request: Request, thread: str) -> Response:
        try:
            _, day = review.parse_thread(thread)
            report = coordination.gap_report(ctx, day, HEATMAP_DAYS)
        except (UsageError, ConfigError) as exc:
            return Response(str(exc), status_code=404, media_type="text/plain")
        return Response(report.svg(), media_type="image/svg+xml")

    @app.get("/vault/{path:path}", response_class=HTMLResponse)
    def note(request: Request, path: str) -> HTMLResponse:
        why = bad_vault_path(path)
        if why:
            return problem(request, 404, "Not shown", f"{path!r}: {why}")
        root = ctx.settings.vault
        target = root / path
        if not target.exists() and not target.is_symlink():
            return problem(request, 404, "Not found", f"{path!r} is not in the vault")
        refused = refusal(root, target)
        if refused:
            return problem(request, 403, "Refused", f"{path!r}: {refused}")
        file = read_vault_file(root, target, ctx.config.tz)
        text = file.text or ""
        rendered = markdown_html(text) if target.suffix.lower() in (".md", ".markdown") else None
        return page(request, "note.html", path=path, text=text, rendered=rendered, problems=file.problems)

    # decisions ---------------------------------------------------------------------------------------------
    def decide(request: Request, thread: str, action, csrf: str) -> Response:  # type: ignore[no-untyped-def]
        if (refused := check_csrf(request, csrf)) is not None:
            return refused
        try:
            with decide_lock:
                done = action()
        except review.AlreadyDecided as exc:
            return problem(request, 409, "Already decided", str(exc), decision=exc.decision, thread=thread)
        except UsageError as exc:
            return problem(request, 400, "Cannot do that", str(exc), thread=thread)
        except ApprovalError as exc:
            return problem(request, 409, "Not waiting", str(exc), thread=thread)
        except BatonError as exc:
            log.exception("decision on %s failed", thread)
            return problem(request, 500, "Failed", str(exc), thread=thread)
        return RedirectResponse(f"{_thread_url(thread)}?done={quote(done)}", status_code=303)

    @app.post("/brief/{thread}/approve")
    def approve(request: Request, thread: str, csrf: str = Form(""), by: str = Form(""),
                markdown: str = Form(""), replace: str = Form("")) -> Response:
        def action() -> str:
            stored = ctx.store.brief(thread)
            text = markdown.replace("\r\n", "\n") if markdown.strip() else None
            if stored is not None and text is not None and text == stored[1]:
                text = None  # the draft as it is
            decided = review.approve(ctx, thread, by, text=text, replace=bool(replace))
            return "approved" if not decided.published else f"approved, published to {decided.published}"
        return decide(request, thread, action, csrf)

    @app.post("/brief/{thread}/reject")
    def reject(request: Request, thread: str, csrf: str = Form(""), by: str = Form(""),
               reason: str = Form("")) -> Response:
        return decide(request, thread, lambda: (review.reject(ctx, thread, by, reason), "rejected")[1], csrf)

    @app.post("/brief/{thread}/discard")
    def discard(request: Request, thread: str, csrf: str = Form(""), by: str = Form(""),
                reason: str = Form("")) -> Response:
        return decide(request, thread, lambda: (review.discard(ctx, thread, by, reason), "discarded")[1], csrf)

    @app.post("/brief/{thread}/dismiss")
    def dismiss(request: Request, thread: str, csrf: str = Form(""), by: str = Form(""),
                warning: str = Form(""), reason: str = Form("")) -> Response:
        def action() -> str:
            review.dismiss_warning(ctx, thread, warning, by, reason)
            return f"warning {warning} dismissed"
        return decide(request, thread, action, csrf)

    if allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    return app

