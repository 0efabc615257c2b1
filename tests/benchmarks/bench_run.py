"""A day's run, measured: time on a 30-day and a 365-day generated vault, an unchanged re-run,
files opened per run (total and distinct), peak memory, and baton's import time. Figures only.

Run: ``.venv/bin/python -m tests.benchmarks.bench_run [--days 30 365] [--repeat 3]``

Each run is ``baton run --offline`` (no network) in a fresh process, started and ended as the ``baton``
command is (``workflows.entry``), so the figures include what a scheduler pays: the imports, opening
the store, the graph, the exit. Files opened are counted by an audit hook
(the ``open`` event of ``open()`` / ``os.open``) inside that process; peak memory is the process's
maximum resident set size. Medians of ``--repeat`` runs; the machine is printed first.

Per vault, three runs as a schedule makes them:

- **cold**: the day before the vault's last day, on an empty store (the vault index is empty: every
  file the roles need is read and parsed, then kept);
- **day**: the vault's last day, the next scheduled run (a new thread; the index kept by the run
  before answers every file that did not change);
- **re-run**: the same day again, nothing changed (the thread waits at the approval step with the
  same inputs: answered from the store, the graph not even imported).
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
from datetime import timedelta
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
from workflows.entry import finish, run  # what the `baton` command runs: its imports, its exit
code = run(sys.argv[2:])
inside = [p for p in opened if os.path.realpath(p).startswith(vault + os.sep)
          and os.sep + ".baton" + os.sep not in os.path.realpath(p)]
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print("BENCH " + json.dumps({"code": code, "opened": len(inside), "distinct": len(set(inside)),
                             "all_opened": len(opened), "peak_kb": peak}), file=sys.stderr)
finish(code)
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


def _import_time(repeat: int, code: str = "import workflows.cli, workflows.graph, workflows.api") -> tuple[float, float]:
    def once(code: str) -> float:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - started

    bare = statistics.median(once("pass") for _ in range(repeat))
    full = statistics.median(once(code) for _ in range(repeat))
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
    command, command_own = _import_time(max(args.repeat, 5), "import workflows.cli")
    print(f"import time: {command * 1000:.0f} ms for the command (workflows.cli, {command_own * 1000:.0f} ms over a "
          f"bare interpreter); {full * 1000:.0f} ms with the graph (workflows.cli + graph + api, "
          f"{own * 1000:.0f} ms over a bare interpreter)\n")
    print(f"{'vault':>10} {'run':>8} {'seconds':>8} {'files opened':>13} {'distinct':>9} {'peak RSS':>9}")
    days_seconds: dict[int, float] = {}
    colds: dict[int, float] = {}
    for days in args.days:
        rows: dict[str, list[dict]] = {"cold": [], "day": [], "re-run": []}
        for _ in range(args.repeat):
            folder = Path(tempfile.mkdtemp(prefix=f"baton-bench-{days}-"))
            try:
                manifest = generate_demo_vault(folder / "vault", days=days)
                day = manifest.end
                rows["cold"].append(_run(manifest.root, (day - timedelta(days=1)).isoformat()))
                rows["day"].append(_run(manifest.root, day.isoformat()))
                rows["re-run"].append(_run(manifest.root, day.isoformat()))  # nothing changed in the vault
            finally:
                shutil.rmtree(folder, ignore_errors=True)
        for name, measured in rows.items():
            print(f"{days:>5} days {name:>8} {_median(measured, 'seconds'):>7.2f}s {_median(measured, 'opened'):>13.0f} "
                  f"{_median(measured, 'distinct'):>9.0f} {_median(measured, 'peak_kb') / 1024:>7.0f}MB")
        days_seconds[days] = _median(rows["day"], "seconds")
        colds[days] = _median(rows["cold"], "seconds")
        again = _median(rows["re-run"], "seconds")
        print(f"{'':>10} re-run / day's run: {again / days_seconds[days]:.2f}× (target ≤ 0.3×)")
    if len(days_seconds) > 1:
        small, large = min(days_seconds), max(days_seconds)
        print(f"\n{large}-day vault / {small}-day vault, a day's run: {days_seconds[large] / days_seconds[small]:.2f}× "
              f"(target ≤ 1.5×); cold runs: {colds[large] / colds[small]:.2f}×")
    print("files opened: vault files a run opens (its state folder not counted); distinct: how many different ones")


if __name__ == "__main__":
    main()
