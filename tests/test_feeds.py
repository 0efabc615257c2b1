"""`baton feeds fetch` against a loopback HTTP server serving real RSS 2.0 and Atom documents."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from agents.scanner.frontmatter import split_front_matter
from agents.scanner.window import scan_window
from state.settings import settings_from_env
from state.vault_config import load_vault_config
from tests.conftest import SHARED_VAULT
from workflows import api
from workflows.cli import main
from workflows.feeds import FeedClock, fetch_feeds

RSS = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0">
  <channel>
    <title>Serving notes</title>
    <link>http://127.0.0.1/blog</link>
    <description>A small engineering blog</description>
    <item>
      <title>Prefix caching in practice</title>
      <link>http://127.0.0.1/blog/prefix-caching</link>
      <guid isPermaLink="false">blog-1</guid>
      <pubDate>Thu, 01 Oct 2026 02:30:00 GMT</pubDate>
      <description>&lt;p&gt;KV cache reuse across requests: &lt;b&gt;TTFT&lt;/b&gt; down 40%.&lt;/p&gt;</description>
    </item>
    <item>
      <title>推理服务的量化取舍</title>
      <link>http://127.0.0.1/blog/quant</link>
      <guid isPermaLink="false">blog-2</guid>
      <pubDate>Thu, 01 Oct 2026 06:00:00 GMT</pubDate>
      <description>FP8 与 INT4 的吞吐对比。</description>
    </item>
  </channel>
</rss>
"""

ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <id>http://127.0.0.1/atom/cs.DC</id>
  <title>cs.DC updates</title>
  <updated>2026-10-01T04:00:00Z</updated>
  <entry>
    <id>oai:arXiv.org:2609.12345v1</id>
    <title>Disaggregated Decode for Long Context Serving</title>
    <updated>2026-10-01T04:00:00Z</updated>
    <link href="https://arxiv.org/abs/2609.12345v1" rel="alternate" type="text/html"/>
    <summary>arXiv:2609.12345v1 Announce Type: new
Abstract: We split prefill and decode across nodes; throughput 2.1x on H100.</summary>
    <author><name>A. Author</name></author>
    <author><name>B. Author</name></author>
  </entry>
  <entry>
    <id>tag:127.0.0.1,2026:post-7</id>
    <title>Not a paper</title>
    <updated>2026-10-01T05:00:00Z</updated>
    <link href="http://127.0.0.1/post/7" rel="alternate"/>
    <summary>Just a post.</summary>
  </entry>
</feed>
"""

MALFORMED = "<?xml version='1.0'?><rss version='2.0'><channel><title>cut off<item><title>x</ti"


@dataclass
class FeedServer:
    """Feeds on 127.0.0.1: a path → (body, content type); ETag / Last-Modified and 304 like a real server."""

    docs: dict[str, tuple[str, str]] = field(default_factory=dict)
    seen: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    conditional: bool = True

    def __post_init__(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802
                server.seen.append((self.path, {k.lower(): v for k, v in self.headers.items()}))
                if self.path not in server.docs:
                    self.send_response(404)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                body, kind = server.docs[self.path]
                etag = f'"{abs(hash(body)) % 10**8}"'
                modified = "Thu, 01 Oct 2026 06:00:00 GMT"
                if server.conditional and self.headers.get("If-None-Match") == etag:
                    self.send_response(304)
                    self.send_header("ETag", etag)
                    self.end_headers()
                    return
                data = body.encode("utf-8")
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                if server.conditional:
                    self.send_header("ETag", etag)
                    self.send_header("Last-Modified", modified)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: object) -> None:
                return

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server() -> Iterator[FeedServer]:
    feeds = FeedServer({"/blog.rss": (RSS, "application/rss+xml"), "/cs.DC.atom": (ATOM, "application/atom+xml"),
                        "/broken.rss": (MALFORMED, "application/rss+xml")})
    yield feeds
    feeds.close()


@pytest.fixture
def vault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "v"
    assert main(["init", str(root)]) == 0
    capsys.readouterr()
    return root


def _feeds_toml(root: Path, server: FeedServer, *names: str) -> None:
    paths = {"blog": "/blog.rss", "arxiv-dc": "/cs.DC.atom", "broken": "/broken.rss", "gone": "/gone.rss"}
    (root / "feeds.toml").write_text("".join(f'[[feed]]\nname = "{n}"\nurl = "{server.base}{paths[n]}"\n\n'
                                             for n in names), encoding="utf-8")


def _ctx(root: Path, monkeypatch: pytest.MonkeyPatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("BATON_FEED_DELAY", "5")
    return api.open_context(settings_from_env(root, None))


def _notes(root: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((root / "inbox" / "feeds").glob("*.md"))}


class FakeClock(FeedClock):
    def __init__(self) -> None:
        self.t = 100.0
        self.slept: list[float] = []
        super().__init__(monotonic=lambda: self.t, sleep=self._sleep,
                         now=lambda: datetime(2026, 10, 1, 7, 0, tzinfo=UTC))

    def _sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.t += seconds


def test_rss_and_atom_become_notes_once_and_304_is_honoured(vault: Path, server: FeedServer,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _feeds_toml(vault, server, "blog", "arxiv-dc")
    ctx = _ctx(vault, monkeypatch)
    clock = FakeClock()
    results = fetch_feeds(ctx, clock=clock)
    assert [(r.feed, r.status, r.http, len(r.written)) for r in results] == [
        ("blog", "new", 200, 2), ("arxiv-dc", "new", 200, 2)]
    assert clock.slept == [5.0]  # the two feeds share a host: the politeness delay between them
    notes = _notes(vault)
    assert len(notes) == 4
    fronts = {name: split_front_matter(text)[0].data for name, text in notes.items()}
    paper = next(f for f in fronts.values() if f.get("arxiv"))
    assert paper["arxiv"] == "2609.12345" and paper["feed"] == "arxiv-dc"
    assert paper["link"] == "https://arxiv.org/abs/2609.12345v1"
    assert str(paper["time"]).startswith("2026-10-01T12:00:00+08:00")  # 04:00 UTC in the vault's timezone
    post = next(f for f in fronts.values() if f["title"] == "Not a paper")
    assert "arxiv" not in post  # a link that is no arXiv abstract page has no number
    blog = next(text for text in notes.values() if "Prefix caching in practice" in text)
    assert "KV cache reuse across requests: TTFT down 40%." in blog and "<b>" not in blog
    assert any(name.startswith("2026-10-01T1030-blog-prefix-caching-in-practice-") for name in notes)

    # Again: conditional GETs, 304s, no new note.
    again = fetch_feeds(ctx, clock=clock)
    assert [(r.status, r.http) for r in again] == [("not_modified", 304), ("not_modified", 304)]
    conditional = [headers for _, headers in server.seen[2:]]
    assert all("if-none-match" in h and h.get("if-modified-since") == "Thu, 01 Oct 2026 06:00:00 GMT"
               for h in conditional)
    assert _notes(vault) == notes


def test_politeness_delay_between_requests_to_one_host(vault: Path, server: FeedServer,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    _feeds_toml(vault, server, "blog", "arxiv-dc", "broken")
    clock = FakeClock()
    fetch_feeds(_ctx(vault, monkeypatch), clock=clock)
    assert clock.slept == [5.0, 5.0]  # same host: 5 s (BATON_FEED_DELAY) before each later request


def test_no_duplicates_without_conditional_get(vault: Path, server: FeedServer, monkeypatch: pytest.MonkeyPatch) -> None:
    server.conditional = False  # a server without validators answers 200 every time
    _feeds_toml(vault, server, "blog")
    ctx = _ctx(vault, monkeypatch)
    fetch_feeds(ctx, clock=FakeClock())
    first = _notes(vault)
    # Even with the state file lost, the note names are the entries' own: nothing is written twice.
    results = fetch_feeds(ctx, clock=FakeClock())
    assert [(r.status, len(r.written)) for r in results] == [("unchanged", 0)]
    (ctx.settings.state_dir / "feeds.json").unlink()
    fetch_feeds(ctx, clock=FakeClock())
    assert _notes(vault) == first
    # A new entry in the feed is the only new note.
    server.docs["/blog.rss"] = (RSS.replace("<item>", "<item><title>Third</title><guid>blog-3</guid>"
                                            "<pubDate>Thu, 01 Oct 2026 07:00:00 GMT</pubDate></item><item>", 1),
                                "application/rss+xml")
    [result] = fetch_feeds(ctx, clock=FakeClock())
    assert len(result.written) == 1 and "third" in result.written[0]


def test_malformed_and_missing_feeds_are_reported(vault: Path, server: FeedServer,
                                                  capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    _feeds_toml(vault, server, "broken", "gone", "blog")
    monkeypatch.setenv("BATON_FEED_DELAY", "0")
    assert main(["--vault", str(vault), "feeds", "fetch"]) == 3
    captured = capsys.readouterr()
    lines = captured.out.strip().splitlines()
    assert lines[0].startswith("broken: failed (HTTP 200): malformed feed:")
    assert lines[1] == f"gone: failed (HTTP 404): {server.base}/gone.rss answered HTTP 404"
    assert lines[2] == "blog: 2 new note(s) (HTTP 200)"
    err = captured.err.strip().splitlines()
    assert err == ["baton: degraded: 2 feed(s) failed or malformed (broken, gone); the others are in; "
                   "run `baton feeds fetch` again to retry"]
    assert len(_notes(vault)) == 2


def test_a_vault_without_feeds_toml(vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (vault / "feeds.toml").unlink()
    assert main(["--vault", str(vault), "feeds", "fetch"]) == 2
    assert "has no feeds.toml" in capsys.readouterr().err


def test_bad_feeds_toml_is_a_config_error(vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (vault / "feeds.toml").write_text('[[feed]]\nname = "a b"\nurl = "ftp://x"\n', encoding="utf-8")
    assert main(["--vault", str(vault), "feeds", "fetch"]) == 2
    err = capsys.readouterr().err
    assert "feeds.toml" in err and "ftp://x" in err and "Traceback" not in err


def test_the_scanner_reads_feed_notes_like_any_note(vault: Path, server: FeedServer,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    _feeds_toml(vault, server, "arxiv-dc", "blog")
    fetch_feeds(_ctx(vault, monkeypatch), clock=FakeClock())
    scan = scan_window(load_vault_config(vault), "example", date(2026, 10, 1))
    read = {s.path: s for s in scan.sources if s.path.startswith("inbox/feeds/")}
    assert len(read) == 4 and {s.status for s in read.values()} == {"read"}
    assert all(s.in_window and s.time_from == "front_matter" for s in read.values())
    assert "2609.12345" in {m.value for m in scan.mentions if m.kind == "arxiv"}


def test_the_shared_arxiv_snapshot(sample_vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    snapshot = SHARED_VAULT.parent / "feeds" / "arxiv-cs.AI-2025-08-20.atom.xml"
    if not snapshot.is_file():
        pytest.skip("the shared feed snapshot is not present")
    text = snapshot.read_text(encoding="utf-8")
    feeds = FeedServer({"/atom/cs.AI": (text, "application/atom+xml")})
    try:
        (sample_vault / "feeds.toml").write_text(f'[[feed]]\nname = "arxiv-cs-ai"\nurl = "{feeds.base}/atom/cs.AI"\n',
                                                 encoding="utf-8")
        [result] = fetch_feeds(_ctx(sample_vault, monkeypatch), clock=FakeClock())
    finally:
        feeds.close()
    entries = text.count("<entry>")
    assert result.status == "new" and len(result.written) == entries
    fronts = [split_front_matter(p.read_text(encoding="utf-8"))[0].data
              for p in (sample_vault / "inbox" / "feeds").glob("*.md")]
    # Every entry of arXiv's announcement feed links an abstract page: each note has its number.
    assert all(f["arxiv"] and f["link"].endswith(f["arxiv"]) for f in fronts)
    assert all(str(f["entry"]).startswith("oai:arXiv.org:") for f in fronts)
