"""Batched arXiv lookup against one ``arxiv.Search`` per identifier, both on the local fake.

Run: ``.venv/bin/python -m tests.benchmarks.bench_arxiv [--n 10 30 120] [--interval 0.2] [--latency 0.05]``

The per-identifier side follows the package's README example
(``next(client.results(arxiv.Search(id_list=[id])))``) with one shared
``arxiv.Client`` whose delay is the same interval ours keeps. Real arXiv asks
for 3 s between requests, so the last column scales both to that.
"""

from __future__ import annotations

import argparse
import time
from datetime import date

import arxiv

from agents.verifier.arxiv_api import ArxivApi, ArxivSettings
from tests.fakes.arxiv_server import ArxivFake, FakePaper, Reply

_ARXIV_INTERVAL = 3.0


def _identifiers(n: int) -> list[str]:
    return [f"2609.{index:05d}" for index in range(1, n + 1)]


def _batched(fake: ArxivFake, ids: list[str], interval: float) -> tuple[int, float, int]:
    settings = ArxivSettings(url=fake.url, min_interval=interval, timeout=10.0, budget=600.0)
    started = time.perf_counter()
    with ArxivApi(settings, date(2026, 9, 29)) as api:
        verdicts = api.lookup(ids)
        made = api.requests_made
    found = sum(1 for verdict in verdicts.values() if verdict.status == "ok")
    return made, time.perf_counter() - started, found


def _one_by_one(fake: ArxivFake, ids: list[str], interval: float) -> tuple[int, float, int]:
    client = arxiv.Client(delay_seconds=interval)
    client.query_url_format = fake.url + "?{}"
    before = fake.request_count
    found = 0
    started = time.perf_counter()
    for arxiv_id in ids:
        paper = next(client.results(arxiv.Search(id_list=[arxiv_id])), None)
        found += paper is not None
    return fake.request_count - before, time.perf_counter() - started, found


def main() -> None:
    """Print requests and seconds for each N, batched against one search per identifier."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[10, 30, 120])
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between requests (arXiv: 3)")
    parser.add_argument("--latency", type=float, default=0.05, help="the fake's answer time per request")
    args = parser.parse_args()

    fake = ArxivFake().start()
    fake.always = Reply.slow(args.latency)
    try:
        header = f"{'N':>5} {'method':<22} {'requests':>8} {'found':>5} {'seconds':>8} {'at 3 s/request':>15}"
        print(f"fake arXiv at {fake.url}; interval {args.interval:g} s, latency {args.latency:g} s per answer")
        print(header)
        print("-" * len(header))
        for n in args.n:
            ids = _identifiers(n)
            fake.papers.clear()
            fake.add(*(FakePaper(i, f"Paper {i}") for i in ids[::2]))  # half of them exist
            for name, run in (("batched (ArxivApi)", _batched), ("arxiv.Search per id", _one_by_one)):
                made, seconds, found = run(fake, ids, args.interval)
                projected = (made - 1) * _ARXIV_INTERVAL + made * args.latency
                print(f"{n:>5} {name:<22} {made:>8} {found:>5} {seconds:>8.2f} {projected:>14.1f}s")
    finally:
        fake.stop()


if __name__ == "__main__":
    main()
