"""Gap alerts: decided on transitions, recorded with the gap state, delivered exactly once."""

from __future__ import annotations

import io
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import func, select

from agents.coordinator.alerts import (
    FolderSink,
    StdoutSink,
    WebhookSink,
    decide_alerts,
    deliver_pending,
    load_alerts,
    record_gaps_and_outbox,
)
from agents.coordinator.slots import compute_gaps
from state.db import Database
from state.tables.coordination import DeliveryRow, GapStateRow
from state.vault_config import VaultConfig, load_vault_config
from tests.conftest import ANN_DAILY_SCHEDULE
from tests.fakes.webhook import WebhookReceiver

TZ = ZoneInfo("Asia/Shanghai")
NOW = datetime(2026, 5, 2, 12, 46, tzinfo=TZ)
@pytest.fixture
def cfg(tmp_path: Path) -> VaultConfig:
    root = tmp_path / "vault"
    (root / "inbox" / "ann").mkdir(parents=True)
    (root / "schedule.toml").write_text(ANN_DAILY_SCHEDULE, encoding="utf-8")
    (root / "topics.toml").write_text("", encoding="utf-8")
    (root / "inbox" / "ann" / "2026-05-01-daily.md").write_text(
        "---\ntime: 2026-05-01T11:00:00+08:00\n---\n\nbody text.\n", encoding="utf-8")
    return load_vault_config(root)


@pytest.fixture
def db(tmp_path: Path) -> Database:
    database = Database(f"sqlite:///{tmp_path / 'state.db'}")
    database.upgrade()
    return database


def _gaps(cfg: VaultConfig, as_of: datetime, day: date = date(2026, 5, 2)):
    return compute_gaps(cfg, day, 1, as_of=as_of)


def _sinks(url: str, out: io.StringIO) -> list:
    return [WebhookSink(("boss",), url=url, sleep=lambda _s: None, retries=2),
            StdoutSink(("lead",), stream=out)]


def _run(db: Database, cfg: VaultConfig, sinks: list, as_of: datetime, deliver: bool = True):
    record_gaps_and_outbox(db, cfg, _gaps(cfg, as_of), today=date(2026, 5, 2), now=NOW, run_day=as_of.date())
    if deliver:
        return deliver_pending(db, sinks, now=lambda: NOW)
    return None


NOON = datetime(2026, 5, 2, 12, 45, tzinfo=TZ)


def test_one_delivery_across_two_runs(db: Database, cfg: VaultConfig, webhook: WebhookReceiver) -> None:
    out = io.StringIO()
    first = _run(db, cfg, _sinks(webhook.url, out), NOON)
    second = _run(db, cfg, _sinks(webhook.url, out), NOON)
    assert [b["text"] for b in webhook.bodies] == ["ann/daily 5-2 缺口（截至 12:45 未交，due 12:00）"]
    assert {e.key for e in first.sent} == {"ann/daily/2026-05-02/open", "check/2026-05-02/digest"}
    assert second.sent == [] and second.failed == []
    assert out.getvalue().count("5-2 12:45 棒位核对：缺口 1 项") == 1  # the digest goes to the coordinator
    alerts = {a.key: a for a in load_alerts(db, date(2026, 5, 2))}
    assert alerts["ann/daily/2026-05-02/open"].to == ["boss"] and alerts["ann/daily/2026-05-02/open"].sent == NOW


def test_crash_between_recording_and_sending_sends_once(
    db: Database, cfg: VaultConfig, webhook: WebhookReceiver
) -> None:
    out = io.StringIO()
    _run(db, cfg, _sinks(webhook.url, out), NOON, deliver=False)  # the process dies here
    assert len(webhook.requests) == 0
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(GapStateRow)) == 1
    _run(db, cfg, _sinks(webhook.url, out), NOON)
    _run(db, cfg, _sinks(webhook.url, out), NOON)
    assert len(webhook.requests) == 1 and len(webhook.bodies) == 1


def test_webhook_500_then_success_is_retried_and_counted_once(
    db: Database, cfg: VaultConfig, webhook: WebhookReceiver
) -> None:
    webhook.codes = [500]
    report = _run(db, cfg, _sinks(webhook.url, io.StringIO()), NOON)
    assert len(webhook.requests) == 2 and len(webhook.bodies) == 1
    assert "ann/daily/2026-05-02/open" in {e.key for e in report.sent}
    with db.session() as session:
        assert session.scalar(select(func.count()).select_from(DeliveryRow).where(
            DeliveryRow.sink.like("webhook:%"))) == 1


def test_failed_send_stays_pending_and_other_sinks_are_not_repeated(
    db: Database, cfg: VaultConfig, webhook: WebhookReceiver, tmp_path: Path
) -> None:
    webhook.codes = [404]
    folder = FolderSink(("boss",), folder=tmp_path / "alerts")
    sinks = [folder, *_sinks(webhook.url, io.StringIO())]
    report = _run(db, cfg, sinks, NOON)
    assert len(webhook.requests) == 1  # a 4xx is not retried
    assert [f[0] for f in report.failed] == ["ann/daily/2026-05-02/open"] and "HTTP 404" in report.failed[0][2]
    note = tmp_path / "alerts" / "ann_daily_2026-05-02_open.md"
    assert "截至 12:45 未交" in note.read_text(encoding="utf-8")
    note.unlink()
    report = deliver_pending(db, sinks, now=lambda: NOW)
    assert [e.key for e in report.sent] == ["ann/daily/2026-05-02/open"]
    assert not note.exists()  # the folder had delivered already: not written twice


def test_transitions_fire_once_each(db: Database, cfg: VaultConfig, webhook: WebhookReceiver) -> None:
    out = io.StringIO()
    _run(db, cfg, _sinks(webhook.url, out), NOON)
    (cfg.root / "inbox" / "ann" / "2026-05-02-daily.md").write_text(
        "---\ntime: 2026-05-02T15:00:00+08:00\n---\n\nbody text.\n", encoding="utf-8")
    evening = datetime(2026, 5, 2, 20, 0, tzinfo=TZ)
    _run(db, cfg, _sinks(webhook.url, out), evening)
    _run(db, cfg, _sinks(webhook.url, out), evening)
    assert [b["text"] for b in webhook.bodies] == [
        "ann/daily 5-2 缺口（截至 12:45 未交，due 12:00）",
        "ann/daily 5-2 缺口闭合（15:00 迟交，due 12:00；连续第 1 日）",
    ]
    with db.session() as session:
        state = session.scalars(select(GapStateRow)).one()
        assert state.status == "late" and state.entry["arrived"].startswith("2026-05-02T15:00")


def test_streak_thresholds_and_severity(cfg: VaultConfig) -> None:
    gaps = compute_gaps(cfg, date(2026, 5, 8), 7)  # 5-2 … 5-8 missing: streaks 1 … 7
    alerts = {a.key: a for a in decide_alerts(cfg, gaps)}
    assert alerts["ann/daily/2026-05-04/streak-3"].severity == "high"
    assert alerts["ann/daily/2026-05-08/streak-7"].severity == "critical"
    assert "ann/daily/2026-05-05/streak-3" not in alerts
    assert alerts["ann/daily/2026-05-08/open"].text == "ann/daily 第 7 日缺口（截至 12:45 未交，due 12:00）"
    assert sum(1 for a in alerts.values() if a.kind == "digest") == 7


def test_backfill_is_recorded_not_sent_unless_asked(
    db: Database, cfg: VaultConfig, webhook: WebhookReceiver, tmp_path: Path
) -> None:
    gaps = compute_gaps(cfg, date(2026, 5, 4), 3)
    record_gaps_and_outbox(db, cfg, gaps, today=date(2026, 5, 5), now=NOW, run_day=date(2026, 5, 4))
    report = deliver_pending(db, _sinks(webhook.url, io.StringIO()), now=lambda: NOW)
    assert report.sent == [] and len(webhook.requests) == 0
    assert [a.sent for a in load_alerts(db, date(2026, 5, 3))] != [] and all(
        a.sent is None for a in load_alerts(db, date(2026, 5, 3)))
    other = Database(f"sqlite:///{tmp_path / 'other.db'}")
    other.upgrade()
    record_gaps_and_outbox(other, cfg, gaps, today=date(2026, 5, 5), now=NOW, send_backfill=True,
                           run_day=date(2026, 5, 4))
    report = deliver_pending(other, _sinks(webhook.url, io.StringIO()), now=lambda: NOW)
    assert len(webhook.requests) == 4  # open 5-2, 5-3, 5-4 and streak-3 on 5-4


def test_a_run_for_today_sends_yesterdays_late_slot_and_holds_older_history() -> None:
    from datetime import date

    from agents.coordinator.alerts import is_held as _held

    today = date(2026, 9, 29)
    assert not _held(date(2026, 9, 28), today, today, True)  # tom's 22:30 slot of yesterday, still missing
    assert _held(date(2026, 9, 28), today, today, False)  # yesterday's gap closed: old news
    assert not _held(today, today, today, False)
    assert _held(date(2026, 9, 25), today, today, True)  # history a first run catches up on
    assert _held(today, today, date(2026, 9, 30), True)  # a backfill sends nothing
