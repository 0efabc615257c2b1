"""The ``baton`` command line: a thin layer over ``workflows.api``.

Exit codes: 0 done, 1 a failure (one line, the log has the rest; a full disk is one line naming the file
being written, nothing half-written), 2 bad arguments, configuration or state files (a schema behind:
``baton db upgrade``; a damaged database file), 3 done but degraded (arXiv unreachable, webhooks failing: one line saying what and how
to retry) or the thread is busy in another process.
"""

from __future__ import annotations

import argparse
import getpass
import logging
import sys
from datetime import date, datetime
from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as package_version
from pathlib import Path

from rich.console import Console

from state.errors import BatonError, ConfigError, DamagedFile, NoSpace, SchemaError, ThreadBusy, UsageError
from state.log_file import log_file_handler
from state.run_day import check_run_day
from state.settings import Settings, settings_from_env
from workflows import api

__all__ = ["main", "build_parser"]

# Markup off: vault text, topic names and reviewer names are printed as they are ("[/x]" is not a tag).
_err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)
_out = Console(highlight=False, soft_wrap=True, markup=False)
log = logging.getLogger("baton")
_log_file: Path | None = None


def _coordination():  # type: ignore[no-untyped-def]
    """workflows.coordination, imported when a command needs it (it brings LangGraph)."""
    from workflows import coordination

    return coordination


def _review():  # type: ignore[no-untyped-def]
    """workflows.review, imported when a command needs it (it brings LangGraph)."""
    from workflows import review

    return review


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        _err.print(f"baton: error: {message}  (see `baton --help`)")
        raise SystemExit(2)


def _day(value: str) -> date:
    try:
        day = date.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date (YYYY-MM-DD)") from exc
    try:
        return check_run_day(day)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from exc


def _version() -> str:
    try:
        return package_version("baton")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "unknown"


def _user() -> str:
    """The default reviewer name: the account running baton."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no such account in the password database (containers)
        return "unknown"


def _common(parser: argparse.ArgumentParser) -> None:
    # SUPPRESS: a value given before the subcommand ("baton --vault V run") is not reset to None here.
    parser.add_argument("--vault", type=Path, default=argparse.SUPPRESS,
                        help="the vault folder (default: $BATON_VAULT, else the current folder)")
    parser.add_argument("--state", type=Path, default=argparse.SUPPRESS,
                        help="the state folder (default: <vault>/.baton/)")


def _date_option(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument("--date", type=_day, default=None,
                        help=f"{what}, YYYY-MM-DD (default: today in the vault's timezone)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of every command."""
    parser = _Parser(
        prog="baton",
        description="Write the research team's daily E1 pre-digest brief from a Markdown vault.",
        epilog="State (SQLite store, checkpoints, drafts, logs) lives in <vault>/.baton/ unless --state says "
               "otherwise; BATON_DATABASE_URL points the store elsewhere, BATON_ARXIV_URL the arXiv API. "
               "--vault and --state may come before or after the command.",
    )
    parser.add_argument("--version", action="version", version=f"baton {_version()}")
    parser.add_argument("--vault", type=Path, help="the vault folder (default: $BATON_VAULT, else the current folder)")
    parser.add_argument("--state", type=Path, help="the state folder (default: <vault>/.baton/)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    run = commands.add_parser("run", help="write the brief of one topic and day (resumes an interrupted run)",
                              description="Scan the day's window, verify, integrate and write the draft brief.")
    _common(run)
    run.add_argument("--topic", required=True, help="a topic of topics.toml, e.g. inference")
    _date_option(run, "the brief's date (backfills welcome)")
    run.add_argument("--out", type=Path, help="where drafts go (default: <state>/drafts/)")
    run.add_argument("--format", choices=["md", "json", "both"], default="both", help="draft format (default both)")
    run.add_argument("--offline", action="store_true", help="do not contact arXiv: use the cache only")
    run.add_argument("--auto-approve", action="store_true",
                     help="approve and publish without a person (for demos and tests; recorded as such)")
    run.add_argument("--send-backfill", action="store_true", help="send gap alerts even for a past date")
    run.set_defaults(handler=_cmd_run)

    review = commands.add_parser("review", help="show a waiting draft, its warnings and the diff to yesterday's")
    _common(review)
    review.add_argument("thread", help="TOPIC:YYYY-MM-DD, e.g. inference:2026-09-29")
    review.add_argument("--diff-only", action="store_true",
                        help="print only the item-level change against the previous brief")
    review.add_argument("--kind", action="append", default=[], metavar="KIND",
                        help="show only warnings of this kind (repeatable), e.g. caveat")
    review.add_argument("--new", action="store_true", help="show only warnings raised today (not carried)")
    review.set_defaults(handler=_cmd_review)

    approve = commands.add_parser("approve", help="approve a waiting draft and publish it into the vault")
    _common(approve)
    approve.add_argument("thread", help="TOPIC:YYYY-MM-DD")
    approve.add_argument("--by", default=None, help="the reviewer's name, recorded (default: your user name)")
    approve.add_argument("--edit", type=Path, help="publish this edited Markdown file instead of the draft")
    approve.add_argument("--replace", action="store_true",
                         help="replace a brief already in the vault (the old file is kept as .bak)")
    approve.add_argument("--dismiss", nargs=2, action="append", metavar=("WARNING", "REASON"), default=[],
                         help="dismiss one warning (e.g. C3 'known, settled') so later briefs do not raise it")
    approve.add_argument("--confirm", action="append", metavar="WARNING", default=[], help="confirm one warning")
    approve.set_defaults(handler=_cmd_approve)

    reject = commands.add_parser("reject", help="reject a waiting draft; the next `baton run` revises it")
    _common(reject)
    reject.add_argument("thread", help="TOPIC:YYYY-MM-DD")
    reject.add_argument("--by", default=None, help="the reviewer's name, recorded (default: your user name)")
    reject.add_argument("--reason", required=True, help="why (recorded, shown on the next run)")
    reject.set_defaults(handler=_cmd_reject)

    pending = commands.add_parser("pending", help="list threads waiting for approval")
    _common(pending)
    pending.set_defaults(handler=_cmd_pending)

    _review_commands(commands)

    gaps = commands.add_parser("gaps", help="baton slots × days: met, late, missing, streaks (table, JSON or SVG)")
    _common(gaps)
    _date_option(gaps, "the last day shown")
    gaps.add_argument("--days", type=int, default=7, help="how many days to show (default 7)")
    gaps.add_argument("--json", action="store_true", help='print {"gaps": [...]} instead of the table')
    gaps.add_argument("--svg", type=Path, metavar="FILE", help="also write the heatmap as an SVG file")
    gaps.set_defaults(handler=_cmd_gaps)

    excuse = commands.add_parser("excuse", help="excuse a slot for a day or a range (neither breaks nor extends a "
                                 "streak); --list, --remove")
    _common(excuse)
    excuse.add_argument("slot", nargs="?", help="AGENT/SLOT, e.g. ann/daily (optional with --list)")
    excuse.add_argument("day", type=_day, nargs="?", metavar="DATE",
                        help="deprecated: use --date (kept for earlier scripts)")
    _date_option(excuse, "the day excused")
    excuse.add_argument("--from", dest="first", type=_day, metavar="DATE", help="first day of a range")
    excuse.add_argument("--to", dest="last", type=_day, metavar="DATE", help="last day of a range (included)")
    excuse.add_argument("--by", default=None, help="who excuses, recorded (default: your user name)")
    excuse.add_argument("--reason", help="why, e.g. 国庆假期 (recorded; needed unless --list or --remove)")
    excuse.add_argument("--list", action="store_true", help="list the excuses (of SLOT when given)")
    excuse.add_argument("--remove", action="store_true", help="withdraw the excuses of SLOT on the date or range")
    excuse.set_defaults(handler=_cmd_excuse)

    check = commands.add_parser("check", help="the coordination check at check_at: gap alerts and the digest, "
                                "each sent once")
    _common(check)
    _date_option(check, "the day checked")
    check.add_argument("--dry-run", action="store_true", help="send nothing, record nothing: print what would go out")
    check.add_argument("--send-backfill", action="store_true",
                       help="for a past date, send its alerts (as one digest) instead of only recording them")
    check.set_defaults(handler=_cmd_check)

    schedule = commands.add_parser("schedule", help="print (or --install) the crontab / systemd timers of the "
                                   "vault's times")
    _common(schedule)
    schedule.add_argument("--format", choices=["all", "cron", "systemd", "github", "langgraph"], default="all",
                          help="what to print (default: cron and systemd; github: a GitHub Actions workflow; "
                               "langgraph: LangGraph server crons, as langgraph_sdk calls)")
    schedule.add_argument("--server", default="http://127.0.0.1:2024",
                          help="with --format langgraph: the LangGraph server's URL (default: langgraph dev's)")
    schedule.add_argument("--install", action="store_true",
                          help="write the systemd user units and print the systemctl command that enables them")
    schedule.add_argument("--unit-dir", type=Path, default=None,
                          help="where --install writes units (default: ~/.config/systemd/user)")
    schedule.add_argument("--baton", default=None, help="the baton command the units run (default: this one)")
    schedule.set_defaults(handler=_cmd_schedule)

    feeds = commands.add_parser("feeds", help="the RSS / Atom feeds of feeds.toml")
    feed_commands = feeds.add_subparsers(dest="feeds_command", metavar="ACTION", parser_class=_Parser, required=True)
    fetch = feed_commands.add_parser("fetch", help="fetch every feed; one note per new entry under inbox/feeds/")
    _common(fetch)
    _common(feeds)
    fetch.set_defaults(handler=_cmd_feeds_fetch)

    init = commands.add_parser("init", help="write a new vault's skeleton (schedule.toml, topics.toml, folders)")
    init.add_argument("dir", type=Path, help="the new vault's folder (created; nothing in it is overwritten)")
    init.set_defaults(handler=_cmd_init)

    compare = commands.add_parser("compare", help="compare baton's brief (JSON) with a hand-written one (Markdown)")
    compare.add_argument("ours", type=Path, help="baton's <date>-<topic>-e1prep.json")
    compare.add_argument("theirs", type=Path, help="the hand-written <date>-<topic>-e1prep.md")
    compare.set_defaults(handler=_cmd_compare)

    db = commands.add_parser("db", help="the store's schema: `baton db upgrade` applies the migrations")
    _common(db)
    db.add_argument("action", choices=["upgrade", "status"], help="upgrade: migrate to the newest schema")
    db.set_defaults(handler=_cmd_db)

    demo = commands.add_parser("demo", help="generate a demo vault and run a brief on it (no network, no LLM)")
    demo.add_argument("--dir", type=Path, default=Path("demo-vault"),
                      help="where the demo vault goes (default ./demo-vault; regenerated if it is one)")
    demo.set_defaults(handler=_cmd_demo)
    return parser


def _review_commands(commands) -> None:  # type: ignore[no-untyped-def]
    """``list``, ``show``, ``discard`` and ``serve`` (issue 11)."""
    listing = commands.add_parser("list", help="every thread with a draft: status, decisions, warnings, age")
    _common(listing)
    listing.set_defaults(handler=_cmd_list)
    show = commands.add_parser("show", help="one thread: its draft, runs and decisions")
    _common(show)
    show.add_argument("thread", help="TOPIC:YYYY-MM-DD")
    show.set_defaults(handler=_cmd_show)
    discard = commands.add_parser("discard", help="drop a waiting draft without publishing it (recorded)")
    _common(discard)
    discard.add_argument("thread", help="TOPIC:YYYY-MM-DD")
    discard.add_argument("--by", default=None, help="the reviewer's name, recorded (default: your user name)")
    discard.add_argument("--reason", required=True, help="why (recorded)")
    discard.set_defaults(handler=_cmd_discard)
    serve = commands.add_parser("serve", help="the review page in a browser (token from $BATON_REVIEW_TOKEN)")
    _common(serve)
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8700, help="port (default 8700)")
    serve.set_defaults(handler=_cmd_serve)


def _settings(args: argparse.Namespace, **overrides: object) -> Settings:
    return settings_from_env(getattr(args, "vault", None), getattr(args, "state", None), **overrides)


def _date_of(args: argparse.Namespace, settings: Settings) -> date:
    """``--date``, else today in the vault's timezone (``BATON_TODAY`` pins "today", ``BATON_NOW`` the clock)."""
    given = getattr(args, "date", None) or getattr(args, "day", None)
    if given is not None:
        return given
    if settings.today is not None:
        return settings.today
    from state.vault_config import load_vault_config

    return settings.today_in(load_vault_config(settings.vault).tz)


def _progress(message: str) -> None:
    _err.print(f"baton {message}", style="dim")


def _setup_logging(args: argparse.Namespace) -> None:
    """Log to ``<state>/logs/baton.log``; never to the terminal (the terminal gets one line)."""
    global _log_file
    _log_file = None
    root = logging.getLogger()
    for old in root.handlers:
        old.close()
    root.handlers = [logging.NullHandler()]
    if args.command in ("compare", "demo", "init"):
        return
    try:
        settings = _settings(args)
        if not (settings.vault / "topics.toml").is_file():
            return  # not a vault: the command says so; no .baton/ folder is made in a random directory
        settings.log_path.parent.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError, BatonError):
        return  # a bad setting is reported by the command itself
    handler = log_file_handler(settings.log_path)  # rotating; URLs cut to scheme://host/…
    _log_file = settings.log_path
    root.handlers = [handler]
    root.setLevel(logging.INFO)


def _print_outcome(outcome: api.RunOutcome) -> None:
    for path in outcome.drafts:
        _out.print(path)
    _out.print(f"thread: {outcome.thread}  (revision {outcome.revision}, {outcome.mode})")
    if outcome.pending:
        _out.print(f"waiting for approval: baton review {outcome.thread} · baton approve {outcome.thread} --by NAME")
    if outcome.published:
        _out.print(f"published: {outcome.published}")
    for message in outcome.messages:
        _out.print(message)


def _cmd_run(args: argparse.Namespace) -> int:
    formats = ("md", "json") if args.format == "both" else (args.format,)
    settings = _settings(args, out_dir=args.out, formats=formats, offline=args.offline or None,
                         auto_approve=args.auto_approve or None, send_backfill=args.send_backfill or None)
    day = _date_of(args, settings)
    ctx = api.open_context(settings, _progress)
    outcome = api.run_brief(ctx, args.topic, day)
    _print_outcome(outcome)
    if outcome.degraded:
        # One plain line a scheduler's log shows: what went wrong and how to retry.
        _err.print(f"baton: degraded: {'; '.join(outcome.degraded)}; the draft is written, "
                   f"retry with `baton run --topic {args.topic} --date {day}`")
        return 3
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    from workflows.review_text import page_or_print, review_text

    ctx = api.open_context(_settings(args))
    view = _review().review(ctx, args.thread)
    page_or_print(review_text(view, args.kind, args.new, change_only=args.diff_only))
    return 0


def _cmd_list(args: argparse.Namespace) -> int:
    rows = _review().list_threads(api.open_context(_settings(args)))
    for row in rows:
        decided = "; ".join(f"{d.action} r{d.revision} by {d.by}" for d in row.decisions) or "no decision"
        _out.print(f"{row.thread:<24} {row.status:<9} r{row.revision:<3} {row.warnings:>3} warnings  "
                   f"{row.age():>4}  {decided}")
    if not rows:
        _out.print("no drafts yet: baton run --topic TOPIC --date YYYY-MM-DD")
    return 0


def _cmd_show(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args))
    for line in _review().show_lines(ctx, args.thread):
        _out.print(line, markup=False)
    return 0


def _cmd_discard(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args), _progress)
    decided = _review().discard(ctx, args.thread, args.by or _user(), args.reason)
    _out.print(f"discarded {decided.thread} revision {decided.revision}; nothing was published")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from workflows.web.serve import serve

    serve(api.open_context(_settings(args)), args.host, args.port, lambda line: _out.print(line, markup=False))
    return 0


def _cmd_approve(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args), _progress)
    decided = _review().approve(ctx, args.thread, args.by or _user(), edit=args.edit, replace=args.replace,
                                 dismiss=[tuple(pair) for pair in args.dismiss], confirm=args.confirm)
    for note in decided.notes:
        _out.print(note)
    _out.print(f"approved {decided.thread} revision {decided.revision} (sha256 {decided.sha256})")
    if decided.published:
        _out.print(f"published: {decided.published}")
    return 0


def _cmd_reject(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args), _progress)
    decided = _review().reject(ctx, args.thread, args.by or _user(), args.reason)
    _out.print(f"rejected {decided.thread} revision {decided.revision}; `baton run` revises the draft")
    return 0


def _cmd_pending(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args))
    waiting = _review().pending(ctx)
    for thread, revision in waiting:
        _out.print(f"{thread}\trevision {revision}")
    unpublished = _review().unpublished(ctx)
    for item in unpublished:
        _out.print(f"{item.thread}\trevision {item.revision} approved by {item.by}, not published: {item.command}")
    if not waiting and not unpublished:
        _out.print("no thread is waiting for approval")
    return 0


def _cmd_gaps(args: argparse.Namespace) -> int:
    from rich import box
    from rich.cells import cell_len
    from rich.measure import Measurement
    from rich.table import Table

    from agents.coordinator.slots import short_date

    settings = _settings(args)
    day = _date_of(args, settings)
    ctx = api.open_context(settings)
    report = _coordination().gap_report(ctx, day, args.days)
    if args.svg:
        from state.files import atomic_write_text

        atomic_write_text(args.svg, report.svg())
        _err.print(f"SVG heatmap written to {args.svg}")
    if args.json:
        payload = {"gaps": [g.model_dump(mode="json") for g in report.gaps],
                   "warnings": [w.model_dump(mode="json") for w in report.warnings]}
        _out.print_json(data=payload)
        return 0
    days = sorted({g.date for g in report.gaps})
    slots = list(dict.fromkeys(f"{g.agent}/{g.slot}" for g in report.gaps))
    # Compact enough for 8 days at 80 columns: no outer edge, one space of padding, short day headers.
    table = Table(title=f"baton slots · {days[0] if days else day} … {day}", box=box.MINIMAL_HEAVY_HEAD,
                  padding=(0, 1, 0, 0), show_edge=False)
    table.add_column("slot", no_wrap=True, min_width=max((cell_len(slot) for slot in slots), default=4))
    for day in days:
        table.add_column(short_date(day), justify="center", no_wrap=True, min_width=5)
    cells: dict[tuple[str, str], str] = {}
    for gap in report.gaps:
        mark = _coordination().STATUS_MARK.get(gap.status, gap.status)
        if gap.status in ("late", "missing"):
            mark += f"{gap.streak}"
            if gap.arrived:
                mark += f"\n{gap.arrived:%H:%M}"  # the arrival on its own line, so the column stays narrow
        cells[(f"{gap.agent}/{gap.slot}", gap.date)] = mark
    for slot in slots:
        table.add_row(slot, *[cells.get((slot, day), "·") for day in days])
    out = _out
    if not _out.is_terminal:  # piped or captured: rich would assume 80 columns and cut the day columns
        probe = Console(width=10_000)
        needed = Measurement.get(probe, probe.options, table).maximum
        out = Console(highlight=False, soft_wrap=True, width=max(80, needed), markup=False)
    out.print(table)
    out.print("✓ met · 迟N late (streak N; arrival below) · 缺N missing (streak N) · 免 excused · · no record")
    for warning in report.warnings:
        out.print(f"⚠ [{warning.kind}] {warning.text}", markup=False)
    return 0


def _excuse_days(args: argparse.Namespace, settings: Settings) -> list[date]:
    if args.day is not None:
        if args.date and args.day != args.date:
            raise UsageError(f"two dates given ({args.day} and --date {args.date}); give one")
    if args.first or args.last:
        if args.date or args.day:
            raise UsageError("give either --date or --from/--to, not both")
        first, last = args.first or args.last, args.last or args.first
        return _coordination().day_range(first, last)
    return [_date_of(args, settings)]


def _cmd_excuse(args: argparse.Namespace) -> int:
    settings = _settings(args)
    ctx = api.open_context(settings)
    if args.list:
        excuses = _coordination().list_excuses(ctx, args.slot)
        for item in excuses:
            _out.print(f"{item.slot}\t{item.day}\t{item.by}\t{item.reason}")
        if not excuses:
            _out.print("no excuses recorded")
        return 0
    if not args.slot:
        raise UsageError("name the slot: baton excuse AGENT/SLOT --date DATE --reason TEXT (or --list)")
    days = _excuse_days(args, settings)
    span = f"{days[0]}" if len(days) == 1 else f"{days[0]} … {days[-1]} ({len(days)} days)"
    if args.remove:
        key, removed = _coordination().remove_excuses(ctx, args.slot, days)
        _out.print(f"removed {len(removed)} excuse(s) of {key} on {span}" if removed
                   else f"{key} had no excuse on {span}")
        return 0
    if not args.reason:
        raise UsageError("an excuse needs --reason TEXT (e.g. --reason 国庆假期)")
    by = args.by or _user()
    key = _coordination().excuse_days(ctx, args.slot, days, by, args.reason)
    _out.print(f"excused {key} on {span} (by {by}: {args.reason})")
    if args.day is not None:
        _err.print("baton: note: the positional DATE of `baton excuse` is deprecated; use --date DATE")
    return 0


def _cmd_check(args: argparse.Namespace) -> int:
    settings = _settings(args, send_backfill=args.send_backfill or None)
    day = _date_of(args, settings)
    ctx = api.open_context(settings)
    now = settings.now or datetime.now(ctx.config.tz)
    result = _coordination().run_check(ctx, day, now, dry_run=args.dry_run)
    _out.print(f"check {day} as of {result.as_of:%Y-%m-%d %H:%M} {ctx.config.schedule.timezone}: "
               f"{len(result.open_gaps)} open gap(s)")
    verb = "would send" if result.dry_run else "sent"
    for alert in result.due:
        _out.print(f"{verb}: [{alert.severity}] → {', '.join(alert.to)}: {alert.text}")
    if not result.due:
        _out.print("nothing to send (every alert of these gaps went out already, or none is due)")
    for name in result.unmapped:
        _err.print(f"baton: note: no webhook for recipient {name!r}: alerts to them are only written to "
                   f"{settings.state_dir / 'alerts'} (set BATON_WEBHOOKS={name}=URL)")
    if result.failed:
        reasons = "; ".join(dict.fromkeys(reason for _, _, reason in result.failed))
        _err.print(f"baton: degraded: {len(result.failed)} alert(s) not delivered ({reasons}); they stay in the "
                   "outbox: run `baton check` again to retry")
        return 3
    return 0


def _cmd_schedule(args: argparse.Namespace) -> int:
    import shutil

    from workflows import schedule

    settings = _settings(args)
    ctx = api.open_context(settings)
    baton = args.baton or shutil.which("baton") or str(Path(sys.argv[0]).resolve())
    units = schedule.systemd_units(ctx.config, baton)
    if args.install:
        unit_dir = (args.unit_dir or Path.home() / ".config" / "systemd" / "user").expanduser()
        for path in schedule.install_units(units, unit_dir):
            _out.print(f"wrote {path}")
        timers = " ".join(schedule.timer_names(units))
        _out.print(f"enable them with:\n  systemctl --user daemon-reload && systemctl --user enable --now {timers}")
        _out.print("(and `loginctl enable-linger $USER` so they run while you are logged out)")
        return 0
    if args.format in ("all", "cron"):
        if args.format == "all":
            _out.print("# ── crontab (crontab -e) ──")
        _out.print(schedule.crontab(ctx.config, baton), end="")
    if args.format in ("all", "systemd"):
        for name, text in units.items():
            _out.print(f"# ── ~/.config/systemd/user/{name} ──")
            _out.print(text, end="")
    if args.format == "github":
        _out.print(schedule.github_workflow(ctx.config, _date_of(args, settings)), end="")
    if args.format == "langgraph":
        from workflows.langgraph_crons import langgraph_script

        _out.print(langgraph_script(ctx.config, _date_of(args, settings), server=args.server), end="")
    return 0


def _cmd_feeds_fetch(args: argparse.Namespace) -> int:
    from workflows.feeds import fetch_feeds

    ctx = api.open_context(_settings(args))
    results = fetch_feeds(ctx)
    for result in results:
        _out.print(result.line())
    if not results:
        _out.print("feeds.toml lists no feed ([[feed]] name = …, url = …)")
    failed = [r for r in results if r.status == "failed" or r.problem]
    if failed:
        _err.print(f"baton: degraded: {len(failed)} feed(s) failed or malformed ({', '.join(r.feed for r in failed)}); "
                   "the others are in; run `baton feeds fetch` again to retry")
        return 3
    return 0


def _cmd_init(args: argparse.Namespace) -> int:
    from workflows.init_vault import init_moment, init_vault

    result = init_vault(args.dir, init_moment().isoformat(timespec="seconds"))
    for rel in result.written:
        _out.print(f"wrote {result.root / rel}")
    _out.print(f"next: edit {result.root / 'topics.toml'} and {result.root / 'schedule.toml'}, then "
               f"`baton --vault {result.root} schedule --install`")
    return 0


def _cmd_compare(args: argparse.Namespace) -> int:
    from agents.integrator.compare import compare_briefs
    from state.models import Brief

    try:
        ours = Brief.model_validate_json(args.ours.read_text(encoding="utf-8"))
        theirs = args.theirs.read_text(encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {exc.filename!r}: {exc.strerror}") from exc
    except ValueError as exc:
        raise UsageError(f"{str(args.ours)!r} is not a baton brief JSON: {str(exc).splitlines()[0]}") from exc
    for line in compare_briefs(ours, theirs).lines():
        _out.print(line, markup=False)
    return 0


def _cmd_db(args: argparse.Namespace) -> int:
    from workflows.schema import db_status, db_upgrade

    settings = _settings(args)
    lines = db_upgrade(settings) if args.action == "upgrade" else db_status(settings)
    for line in lines:
        _out.print(line)
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    from workflows.demo import run_demo

    lines = run_demo(args.dir.resolve(), _progress)
    for line in lines:
        _out.print(line)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``baton`` command."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    _setup_logging(args)
    try:
        return args.handler(args)
    except (UsageError, ConfigError, SchemaError, DamagedFile) as exc:
        _err.print(f"baton: error: {exc}")
        return 2
    except ThreadBusy as exc:
        _err.print(f"baton: {exc}")
        return 3
    except NoSpace as exc:
        # The log is on the same full disk: one line, and what to do.
        _err.print(f"baton: failed: {exc}; free some space and run the same command again "
                   f"(a run resumes from its last checkpoint)")
        return 1
    except BatonError as exc:
        log.exception("baton failed")
        _err.print(f"baton: failed: {exc}  ({_log_hint(args)})")
        return 1
    except KeyboardInterrupt:
        _err.print("baton: interrupted; run the same command again to resume from the last checkpoint")
        return 130
    except Exception as exc:  # noqa: BLE001 - the CLI's last line of defence: one line, full log
        log.exception("unexpected failure")
        _err.print(f"baton: failed: {type(exc).__name__}: {exc}  ({_log_hint(args)})")
        return 1


def _log_hint(args: argparse.Namespace) -> str:
    return f"details: {_log_file}" if _log_file else "run again with a --vault to keep a log"


if __name__ == "__main__":
    sys.exit(main())
