"""A day's run, measured: time on a 30-day and a 365-day generated vault, an unchanged re-run,
files opened per run (total and distinct), peak memory, and baton's import time. Figures only.

Run: ``.venv/bin/python -m tests.benchmarks.bench_run [--days 30 365] [--repeat 3]``

Each run is ``baton run --offline`` (no network) in a fresh process, so the figures include what a
scheduler pays: the imports, opening the store, the graph. Files opened are counted by an audit hook
(the ``open`` event of ``open()`` / ``os.open``) inside that process; peak memory is the process's
maximum resident set size. Medians of ``--repeat`` runs; the machine is printed first.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from workflows.demo_vault import generate_demo_vault

# The child: count every file the run opens (inside the vault, and all), report them and its peak RSS.
_CHILD = r"""
import json, os, resource, sys
vault = os.path.realpath(sys.argv[1])
opened = []
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        opened.append(os.fsdecode(args[0]))
sys.addaudithook(hook)
from workflows.cli import main
code = main(sys.argv[2:])
inside = [p for p in opened if os.path.realpath(p).startswith(vault + os.sep)
          and os.sep + ".baton" + os.sep not in os.path.realpath(p)]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print("BENCH " + json.dumps({"code": code, "opened": len(inside), "distinct": len(set(inside)),
                             "all_opened": len(opened), "peak_kb": peak}), file=sys.stderr)
"""


def _machine() -> str:
    cores = os.cpu_count()
    try:
        load = ", load " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        load = ""
    return f"{platform.node()} · {platform.platform()} · Python {platform.python_version()} · {cores} cores{load}"


def _run(vault: Path, day: str) -> dict:
    command = [sys.executable, "-c", _CHILD, str(vault), "run", "--vault", str(vault), "--topic", "inference",
               "--date", day, "--offline", "--format", "json"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}
    env["BATON_ENV_FILE"] = ""
    started = time.perf_counter()
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - started
    line = next((x for x in done.stderr.splitlines() if x.startswith("BENCH ")), None)
    if line is None:
        raise SystemExit(f"the run failed:\n{done.stderr[-2000:]}")
    figures = json.loads(line[6:])
    figures["seconds"] = seconds
    return figures


def _import_time(repeat: int) -> tuple[float, float]:
    def once(code: str) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - started

    bare = statistics.median(once("pass") for _ in range(repeat))
    full = statistics.median(once("import workflows.cli, workflows.graph, workflows.api") for _ in range(repeat))
    return full, full - bare


def _median(rows: list[dict], key: str) -> float:
    return statistics.median(row[key] for row in rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--days", type=int, nargs="+", default=[30, 365])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"machine: {_machine()}")
    print(f"medians of {args.repeat} runs each; `baton run --offline` in a fresh process\n")
    full, own = _import_time(max(args.repeat, 5))
    print(f"import time: {full * 1000:.0f} ms for workflows.cli + graph + api ({own * 1000:.0f} ms over a bare "
          "interpreter)\n")
    header = f"{'vault':>10} {'first run':>10} {'re-run':>8} {'ratio':>6} {'files opened':>13} {'distinct':>9} " \
             f"{'peak RSS':>9}"
    print(header)
    firsts: dict[int, float] = {}
    for days in args.days:
        first_rows, again_rows = [], []
        for _ in range(args.repeat):
            folder = Path(tempfile.mkdtemp(prefix=f"baton-bench-{days}-"))
            try:
                manifest = generate_demo_vault(folder / "vault", days=days)
                day = manifest.end.isoformat()
                first_rows.append(_run(manifest.root, day))
                again_rows.append(_run(manifest.root, day))  # nothing changed in the vault
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        first, again = _median(first_rows, "seconds"), _median(again_rows, "seconds")
        firsts[days] = first
        print(f"{days:>5} days {first:>9.2f}s {again:>7.2f}s {again / first:>5.2f}× "
              f"{_median(first_rows, 'opened'):>13.0f} {_median(first_rows, 'distinct'):>9.0f} "
              f"{_median(first_rows, 'peak_kb') / 1024:>7.0f}MB")
    if len(firsts) > 1:
        small, large = min(firsts), max(firsts)
        print(f"\n{large}-day vault / {small}-day vault: {firsts[large] / firsts[small]:.2f}× (target ≤ 1.5×); "
              "re-run / first run target ≤ 0.3×")
    print("files opened: vault files a run opens (its state folder not counted); distinct: how many different ones")


if __name__ == "__main__":
    main()
