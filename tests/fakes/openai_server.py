"""A local OpenAI-compatible chat server (``POST /v1/chat/completions``) with scripted answers.

``fake.script(Answer.json({...}, match="条目：X"), Answer.rate_limited(1), …)``
queues answers: each request takes the first queued answer whose ``match``
occurs in its messages (or that has no ``match``). With nothing queued for a
request, ``fake.default(request)`` answers — by default :func:`echo_answer`, a
"model" that words each task from the request's own data (so its answers are
grounded), as a well-behaved local model would. Every request is recorded
(body, messages, the Authorization header). ``usage`` counts tokens the way
``agents.llm.tokens`` does.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from agents.llm.tokens import count_tokens

__all__ = ["Answer", "SeenChat", "OpenAIFake", "echo_answer"]


@dataclass(frozen=True)
class Answer:
    """One scripted reply: the assistant's text, or an HTTP error, after ``delay`` seconds."""

    content: str = ""
    status: int = 200
    retry_after: str | None = None
    delay: float = 0.0
    match: str | None = None

    @classmethod
    def json(cls, payload: object, match: str | None = None) -> Answer:
        return cls(content=json.dumps(payload, ensure_ascii=False), match=match)

    @classmethod
    def text(cls, content: str, match: str | None = None) -> Answer:
        return cls(content=content, match=match)

    @classmethod
    def rate_limited(cls, retry_after: float, match: str | None = None) -> Answer:
        """HTTP 429 with ``Retry-After`` in seconds."""
        return cls(status=429, retry_after=f"{retry_after:g}", match=match)

    @classmethod
    def slow(cls, seconds: float, match: str | None = None) -> Answer:
        """The default answer, after ``seconds`` (longer than the client's timeout: a timeout)."""
        return cls(delay=seconds, match=match, content="\0default")


@dataclass
class SeenChat:
    body: dict
    authorization: str | None

    @property
    def messages(self) -> list[dict]:
        return list(self.body.get("messages", []))

    @property
    def text(self) -> str:
        return "\n".join(str(m.get("content", "")) for m in self.messages)

    @property
    def task(self) -> str:
        found = re.search(r"^任务：(\w+)", self.text, re.M)
        return found.group(1) if found else "?"


def _line(text: str, label: str) -> str:
    found = re.search(rf"^{re.escape(label)}(.*)$", text, re.M)
    return found.group(1).strip() if found else ""


def echo_answer(request: SeenChat) -> Answer:
    """A well-behaved model: words each task from the data it was given, adding nothing."""
    user = str(request.messages[1].get("content", "")) if len(request.messages) > 1 else ""
    if request.task == "increment":
        points = []
        for path, body in re.findall(r'<source path="([^"]+)"[^>]*>\n(.*?)\n</source>', user, re.S):
            for line in body.splitlines()[1:] or body.splitlines():
                said = re.sub(r"^L\d+:\s*", "", line).strip(" -*•|")
                if len(said) >= 8 and "<\\" not in said and not said.startswith("#"):
                    points.append({"text": said.rstrip("。") + "。", "source": path})
                    break
            if len(points) >= 3:
                break
        title = _line(user, "条目：")
        if not points:
            points = [{"text": f"{title} 见来源。", "source": _line(user, "来源：").split("、")[0]}]
        return Answer.json({"points": points, "argument": _line(user, "程序写的核心论点（事实以此为准）："),
                            "relation": _line(user, "程序写的脉络关系（事实以此为准）：")})
    if request.task == "honesty":
        return Answer.json({"honesty": _line(user, "程序写的诚实度声明（事实与数字以此为准）：")})
    if request.task == "scope":
        return Answer.json({"moves": []})
    return Answer.text("{}")


class OpenAIFake:
    """The server; use as a context manager. ``base_url`` is what ``BATON_LLM_BASE_URL`` takes."""

    def __init__(self, default: Callable[[SeenChat], Answer] = echo_answer, model: str = "fake-model") -> None:
        self.default = default
        self.model = model
        self.requests: list[SeenChat] = []
        self._queue: list[Answer] = []
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    def script(self, *answers: Answer) -> None:
        with self._lock:
            self._queue.extend(answers)

    @property
    def base_url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def tasks(self) -> list[str]:
        return [r.task for r in self.requests]

    def __enter__(self) -> OpenAIFake:
        fake = self

        class Handler(_Handler):
            owner = fake

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()

    def _next(self, seen: SeenChat) -> Answer:
        with self._lock:
            self.requests.append(seen)
            for index, answer in enumerate(self._queue):
                if answer.match is None or answer.match in seen.text:
                    return self._queue.pop(index)
        return self.default(seen)

    def reply(self, seen: SeenChat) -> tuple[int, dict[str, str], bytes]:
        answer = self._next(seen)
        if answer.delay:
            time.sleep(answer.delay)
        if answer.content == "\0default":
            answer = self.default(seen)
        if answer.status != 200:
            headers = {"Retry-After": answer.retry_after} if answer.retry_after else {}
            body = {"error": {"message": "rate limited" if answer.status == 429 else "error", "type": "fake"}}
            return answer.status, headers, json.dumps(body).encode()
        prompt = sum(count_tokens(str(m.get("content", ""))) for m in seen.messages)
        completion = count_tokens(answer.content)
        body = {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion", "created": 0,
            "model": seen.body.get("model", self.model),
            "choices": [{"index": 0, "finish_reason": "stop",
                         "message": {"role": "assistant", "content": answer.content}}],
            "usage": {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion},
        }
        return 200, {}, json.dumps(body, ensure_ascii=False).encode()


class _Handler(BaseHTTPRequestHandler):
    owner: OpenAIFake

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        return

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self.send_error(404)
            return
        try:
            body = json.loads(raw)
        except ValueError:
            self.send_error(400)
            return
        status, headers, payload = self.owner.reply(SeenChat(body=body, authorization=self.headers.get("Authorization")))
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            for name, value in headers.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
            pass
