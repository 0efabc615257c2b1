"""The ``baton`` command line: a thin layer over ``workflows.api``.

Exit codes: 0 done, 1 a failure (one line, the log has the rest), 2 bad arguments (or a schema behind:
``baton db upgrade``), 3 the thread is busy in another process.
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

from state.errors import BatonError, ConfigError, SchemaError, ThreadBusy, UsageError
from state.settings import Settings, settings_from_env
from workflows import api, coordination
from workflows import review as review_api

__all__ = ["main", "build_parser"]

# Markup off: vault text, topic names and reviewer names are printed as they are ("[/x]" is not a tag).
_err = Console(stderr=True, highlight=False, soft_wrap=True, markup=False)
_out = Console(highlight=False, soft_wrap=True, markup=False)
log = logging.getLogger("baton")
_log_file: Path | None = None


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        _err.print(f"baton: error: {message}  (see `baton --help`)")
        raise SystemExit(2)


def _day(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{value!r} is not a date (YYYY-MM-DD)") from exc


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
    review.add_argument("--diff-only", action="store_true", help="print only the diff")
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

    gaps = commands.add_parser("gaps", help="baton slots × days: met, late, missing, streaks (table, JSON or SVG)")
    _common(gaps)
    _date_option(gaps, "the last day shown")
    gaps.add_argument("--days", type=int, default=7, help="how many days to show (default 7)")
    gaps.add_argument("--json", action="store_true", help='print {"gaps": [...]} instead of the table')
    gaps.add_argument("--svg", type=Path, metavar="FILE", help="also write the heatmap as an SVG file")
    gaps.set_defaults(handler=_cmd_gaps)

    excuse = commands.add_parser("excuse", help="excuse a slot for a day (neither breaks nor extends a streak)")
    _common(excuse)
    excuse.add_argument("slot", help="AGENT/SLOT, e.g. spark/llm-infra-e1prep")
    excuse.add_argument("day", type=_day, nargs="?", metavar="DATE",
                        help="YYYY-MM-DD (the same as --date; kept for earlier scripts)")
    _date_option(excuse, "the day excused")
    excuse.add_argument("--by", default=None, help="who excuses, recorded (default: your user name)")
    excuse.add_argument("--reason", required=True, help="why, e.g. 国庆假期 (recorded)")
    excuse.set_defaults(handler=_cmd_excuse)

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


def _settings(args: argparse.Namespace, **overrides: object) -> Settings:
    return settings_from_env(getattr(args, "vault", None), getattr(args, "state", None), **overrides)


def _date_of(args: argparse.Namespace, settings: Settings) -> date:
    """``--date``, else today in the vault's timezone (``BATON_TODAY`` pins "today" for scripts and tests)."""
    given = getattr(args, "date", None) or getattr(args, "day", None)
    if given is not None:
        return given
    if settings.today is not None:
        return settings.today
    from state.vault_config import load_vault_config

    return datetime.now(load_vault_config(settings.vault).tz).date()


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
    if args.command in ("compare", "demo"):
        return
    try:
        settings = _settings(args)
        if not (settings.vault / "topics.toml").is_file():
            return  # not a vault: the command says so; no .baton/ folder is made in a random directory
        settings.log_path.parent.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError):
        return
    handler = logging.FileHandler(settings.log_path, encoding="utf-8")
    _log_file = settings.log_path
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
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
    return 0


def _cmd_review(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args))
    view = review_api.review(ctx, args.thread)
    if not args.diff_only:
        _out.print(view.markdown, markup=False)
        _out.print(f"\n── warnings ({len(view.warnings)}) ──")
        for line in view.warnings:
            _out.print(line, markup=False)
    _out.print(f"\n── diff against {view.previous or '(no previous brief)'} ──")
    _out.print(view.diff or "(no differences)", markup=False)
    state = "waiting for approval" if view.waiting else "not waiting for approval"
    _out.print(f"\nthread {view.thread} · revision {view.revision} · {state}")
    return 0


def _cmd_approve(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args), _progress)
    decided = review_api.approve(ctx, args.thread, args.by or _user(), edit=args.edit, replace=args.replace,
                                 dismiss=[tuple(pair) for pair in args.dismiss], confirm=args.confirm)
    for note in decided.notes:
        _out.print(note)
    _out.print(f"approved {decided.thread} revision {decided.revision} (sha256 {decided.sha256})")
    if decided.published:
        _out.print(f"published: {decided.published}")
    return 0


def _cmd_reject(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args), _progress)
    decided = review_api.reject(ctx, args.thread, args.by or _user(), args.reason)
    _out.print(f"rejected {decided.thread} revision {decided.revision}; `baton run` revises the draft")
    return 0


def _cmd_pending(args: argparse.Namespace) -> int:
    ctx = api.open_context(_settings(args))
    waiting = review_api.pending(ctx)
    for thread, revision in waiting:
        _out.print(f"{thread}\trevision {revision}")
    unpublished = review_api.unpublished(ctx)
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
    report = coordination.gap_report(ctx, day, args.days)
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
        mark = coordination.STATUS_MARK.get(gap.status, gap.status)
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


def _cmd_excuse(args: argparse.Namespace) -> int:
    if args.day and args.date and args.day != args.date:
        raise UsageError(f"two dates given ({args.day} and --date {args.date}); give one")
    settings = _settings(args)
    day, by = _date_of(args, settings), args.by or _user()
    ctx = api.open_context(settings)
    key = coordination.excuse(ctx, args.slot, day, by, args.reason)
    _out.print(f"excused {key} on {day} (by {by}: {args.reason})")
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
    except (UsageError, ConfigError, SchemaError) as exc:
        _err.print(f"baton: error: {exc}")
        return 2
    except ThreadBusy as exc:
        _err.print(f"baton: {exc}")
        return 3
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
