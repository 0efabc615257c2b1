"""``baton schedule``: the vault's own times as crontab lines, systemd user timers or a GitHub workflow.

Jobs: each topic's brief at its ``window_end`` (``baton run --topic T`` for today), the noon
coordination check at ``check_at`` (``baton check``), and the feed fetch (``baton feeds fetch``) at
``feeds.toml``'s ``fetch_at`` (default: 30 minutes before each window end). Every time is the vault's
timezone: systemd ``OnCalendar=… Asia/Shanghai``, cron ``CRON_TZ=``; GitHub's cron is UTC only, so
its times are converted (and flagged when the zone has daylight saving time). No daemon of our own.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from state.feeds_config import load_feeds_config
from state.files import atomic_write_text
from state.vault_config import VaultConfig, parse_hhmm

__all__ = ["Job", "schedule_jobs", "crontab", "systemd_units", "timer_names", "github_workflow", "install_units",
           "utc_cron", "has_dst"]

_UNIT_SAFE = re.compile(r"[^A-Za-z0-9_-]+")


@dataclass(frozen=True)
class Job:
    """One scheduled command: a unit-safe name, its local times, its baton arguments, what it is."""

    name: str
    times: tuple[str, ...]
    args: tuple[str, ...]
    what: str


def _minus(hhmm: str, minutes: int) -> str:
    moment = datetime.combine(date(2000, 1, 2), parse_hhmm(hhmm)) - timedelta(minutes=minutes)
    return moment.strftime("%H:%M")


def schedule_jobs(cfg: VaultConfig) -> list[Job]:
    """The jobs of the vault, in a stable order: briefs by window end, the check, the feed fetch."""
    jobs = [
        Job(f"run-{_UNIT_SAFE.sub('-', name)}", (topic.window_end,), ("run", "--topic", name),
            f"the {name} brief of the day (window ends {topic.window_end})")
        for name, topic in sorted(cfg.topics.items(), key=lambda kv: (parse_hhmm(kv[1].window_end), kv[0]))
    ]
    jobs.append(Job("check", (cfg.schedule.check_at,), ("check",),
                    f"the coordination check at {cfg.schedule.check_at}: gap alerts and the digest"))
    feeds = load_feeds_config(cfg.root)
    if feeds is not None:
        times = feeds.fetch_at or [_minus(t.window_end, 30) for t in cfg.topics.values()]
        ordered = tuple(sorted(set(times), key=parse_hhmm))
        if ordered:
            jobs.append(Job("feeds", ordered, ("feeds", "fetch"), "fetch feeds.toml's feeds into inbox/feeds/"))
    return jobs


def _command(baton: str, vault: Path, job: Job) -> str:
    return " ".join(shlex.quote(part) for part in (baton, "--vault", str(vault), *job.args))


def crontab(cfg: VaultConfig, baton: str) -> str:
    """Crontab lines (``crontab -e``) in the vault's timezone; output goes to ``.baton/logs/cron.log``."""
    vault = Path(cfg.root)
    log = shlex.quote(str(vault / ".baton" / "logs" / "cron.log"))
    lines = [f"# baton · {vault} · times in {cfg.schedule.timezone}", f"CRON_TZ={cfg.schedule.timezone}"]
    for job in schedule_jobs(cfg):
        lines.append(f"# {job.what}")
        for hhmm in job.times:
            at = parse_hhmm(hhmm)
            lines.append(f"{at.minute} {at.hour} * * * {_command(baton, vault, job)} >> {log} 2>&1")
    return "\n".join(lines) + "\n"


def systemd_units(cfg: VaultConfig, baton: str, prefix: str = "baton") -> dict[str, str]:
    """User units by file name: one ``.service`` (oneshot) and one ``.timer`` per job."""
    vault = Path(cfg.root)
    units: dict[str, str] = {}
    for job in schedule_jobs(cfg):
        name = f"{prefix}-{job.name}"
        units[f"{name}.service"] = (
            f"[Unit]\nDescription=baton: {job.what}\n\n"
            f"[Service]\nType=oneshot\nWorkingDirectory={vault}\nExecStart={_command(baton, vault, job)}\n"
            # exit 3 = done but degraded (arXiv unreachable, webhooks failing): logged, not a failure.
            "SuccessExitStatus=3\n"
        )
        calendars = "".join(f"OnCalendar=*-*-* {hhmm}:00 {cfg.schedule.timezone}\n" for hhmm in job.times)
        units[f"{name}.timer"] = (
            f"[Unit]\nDescription=baton: {job.what} (timer)\n\n"
            f"[Timer]\n{calendars}Persistent=true\n\n[Install]\nWantedBy=timers.target\n"
        )
    return units


def timer_names(units: dict[str, str]) -> list[str]:
    """The timers among ``units``, for ``systemctl --user enable --now``."""
    return [name for name in units if name.endswith(".timer")]


def install_units(units: dict[str, str], unit_dir: Path) -> list[Path]:
    """Write the units into ``unit_dir`` (``~/.config/systemd/user``); rewriting a unit updates it."""
    written = []
    for name, text in units.items():
        path = unit_dir / name
        atomic_write_text(path, text)
        written.append(path)
    return written


def utc_cron(cfg: VaultConfig, on: date, hhmm: str) -> str:
    """The UTC cron expression (``M H * * *``) of the vault-local time ``hhmm`` as of the day ``on``."""
    utc = datetime.combine(on, parse_hhmm(hhmm), tzinfo=cfg.tz).astimezone(UTC)
    return f"{utc.minute} {utc.hour} * * *"


def has_dst(cfg: VaultConfig, on: date) -> bool:
    """Whether the vault's UTC offset differs within the half year from ``on`` (UTC crons then drift)."""
    offsets = {cfg.tz.utcoffset(datetime.combine(on + timedelta(days=d), parse_hhmm("12:00"))) for d in (0, 182)}
    return len(offsets) > 1


def github_workflow(cfg: VaultConfig, on: date) -> str:
    """A GitHub Actions workflow running the jobs on their UTC times (GitHub's cron knows no timezone)."""
    lines = ["# baton on GitHub Actions: the vault is this repository; times converted from "
             f"{cfg.schedule.timezone} to UTC as of {on}."]
    if has_dst(cfg, on):
        lines.append("# NOTE: this timezone has daylight saving time; re-run `baton schedule --format github` "
                     "when it changes.")
    lines += ["name: baton", "on:", "  schedule:"]
    steps: list[str] = []
    for job in schedule_jobs(cfg):
        for hhmm in job.times:
            cron = utc_cron(cfg, on, hhmm)
            lines.append(f"    - cron: '{cron}'  # {hhmm} {cfg.schedule.timezone}: {job.name}")
            args = " ".join(shlex.quote(a) for a in job.args)
            steps.append(f"      - if: github.event.schedule == '{cron}'\n        run: baton --vault . {args}")
    lines += ["jobs:", "  baton:", "    runs-on: ubuntu-latest", "    steps:", "      - uses: actions/checkout@v4",
              "      - uses: actions/setup-python@v5\n        with: {python-version: '3.11'}",
              "      # .baton/ (store, checkpoints, pending drafts) is not in git: keep it between runs.",
              "      - uses: actions/cache@v4\n        with:\n          path: .baton\n"
              "          key: baton-state-${{ github.run_id }}\n          restore-keys: baton-state-",
              "      - run: pip install baton  # or: pip install git+https://…/baton",
              *steps,
              "      - run: |\n          git add inbox && git commit -m 'baton' && git push || true"]
    return "\n".join(lines) + "\n"
