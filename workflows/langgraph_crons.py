"""``baton schedule --format langgraph``: the vault's brief jobs as LangGraph server crons.

For a team that runs LangGraph's server (``langgraph.json`` → ``workflows/studio.py:graph``): one
``client.crons.create(...)`` per topic at its ``window_end``. LangGraph crons are UTC, so each time is
converted from the vault's timezone (flagged when the zone has daylight saving time). The input
names only the topic: without a ``day`` the graph takes today in the vault's timezone when the run
starts. Each run keeps its thread (``on_run_completed="keep"``): the brief waits there at the
approval interrupt for Agent Inbox or Studio. The noon check and the feed fetch are not graphs:
they stay with cron or systemd (``baton schedule --format cron``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path

from state.vault_config import VaultConfig
from workflows.schedule import has_dst, schedule_jobs, utc_cron

__all__ = ["GRAPH_ID", "LangGraphCron", "langgraph_crons", "langgraph_script"]

GRAPH_ID = "baton_e1"  # the graph's name in langgraph.json (the assistant id a server gives it)
DEFAULT_SERVER = "http://127.0.0.1:2024"  # `langgraph dev`'s address


@dataclass(frozen=True)
class LangGraphCron:
    """One cron as LangGraph's ``crons.create`` takes it."""

    job: str
    local: str
    schedule: str
    input: dict
    context: dict
    what: str


def langgraph_crons(cfg: VaultConfig, on: date, *, offline: bool = False) -> list[LangGraphCron]:
    """The crons of the vault's brief jobs, in UTC as of the day ``on``."""
    crons = []
    for job in schedule_jobs(cfg):
        if job.args[:2] != ("run", "--topic"):
            continue  # only the brief is a graph
        topic = job.args[2]
        for hhmm in job.times:
            crons.append(LangGraphCron(job=job.name, local=hhmm, schedule=utc_cron(cfg, on, hhmm),
                                       input={"topic": topic},
                                       context={"vault": str(Path(cfg.root)), "offline": offline}, what=job.what))
    return crons


def langgraph_script(cfg: VaultConfig, on: date, *, server: str = DEFAULT_SERVER) -> str:
    """A Python script that creates the crons with the ``langgraph_sdk`` client."""
    tz = cfg.schedule.timezone
    lines = [f"# baton on LangGraph's server: crons for {Path(cfg.root)}; times converted from {tz} to UTC "
             f"as of {on} (LangGraph crons are UTC).",
             "# The input has no day: each run takes today in the vault's timezone when it starts.",
             "# `baton check` and `baton feeds fetch` are not graphs: keep them in cron or systemd "
             "(`baton schedule --format cron`)."]
    if has_dst(cfg, on):
        lines.append("# NOTE: this timezone has daylight saving time; re-run `baton schedule --format langgraph` "
                     "when it changes.")
    lines += ["from langgraph_sdk import get_sync_client", "",
              f"client = get_sync_client(url={server!r})  # your LangGraph server", ""]
    for cron in langgraph_crons(cfg, on):
        lines.append(f"# {cron.local} {tz}: {cron.what}")
        lines.append(f"client.crons.create({GRAPH_ID!r}, schedule={cron.schedule!r}, input={cron.input!r},")
        lines.append(f"                    context={cron.context!r}, on_run_completed='keep')")
    return "\n".join(lines) + "\n"
