"""Gap alerts through `baton run` processes: killed between recording and sending, delivered exactly once.

The receiver runs on 127.0.0.1 in the test process; each `baton run` is a
subprocess so that a kill (``BATON_CRASH_AFTER=coordinate:recorded`` exits 137
after the gaps and the outbox are committed, before any send) is a real one.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from collections import Counter
from datetime import timedelta
from pathlib import Path

import pytest

from tests.fakes.webhook import WebhookReceiver
from workflows.demo_manifest import DemoManifest
from workflows.demo_vault import generate_demo_vault

TOPIC = "inference"


@pytest.fixture
def demo(tmp_path: Path) -> DemoManifest:
    return generate_demo_vault(tmp_path / "vault")


def _run(manifest: DemoManifest, today: str, url: str, *extra: str,
         crash: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}
    env.update({"BATON_WEBHOOKS": url, "BATON_TODAY": today})
    if crash:
        env["BATON_CRASH_AFTER"] = crash
    command = [sys.executable, "-m", "workflows.cli", "run", "--vault", str(manifest.root), "--topic", TOPIC,
               "--date", manifest.end.isoformat(), "--format", "json", "--offline", *extra]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)


def _outbox(manifest: DemoManifest) -> list[dict]:
    with sqlite3.connect(manifest.root / ".baton" / "baton.db") as conn:
        conn.row_factory = sqlite3.Row
        return [dict(row) for row in conn.execute("SELECT * FROM alert_outbox ORDER BY id")]


def _webhook_deliveries(manifest: DemoManifest) -> Counter[str]:
    with sqlite3.connect(manifest.root / ".baton" / "baton.db") as conn:
        rows = conn.execute("SELECT o.key FROM alert_deliveries d JOIN alert_outbox o ON o.id = d.outbox_id "
                            "WHERE d.sink LIKE 'webhook%'").fetchall()
    return Counter(key for (key,) in rows)


def _brief(manifest: DemoManifest) -> dict:
    path = manifest.root / ".baton" / "drafts" / f"{manifest.end}-{TOPIC}-e1prep.json"
    return json.loads(path.read_text(encoding="utf-8"))


def _late_slot_open_key(manifest: DemoManifest) -> str:
    return f"{manifest.late_slot.slot}/{manifest.end}/open"


def test_killed_after_recording_then_exactly_one_delivery_per_alert(
    demo: DemoManifest, webhook: WebhookReceiver
) -> None:
    today = demo.end.isoformat()
    crashed = _run(demo, today, webhook.url, crash="coordinate:recorded")
    assert crashed.returncode == 137, crashed.stderr
    assert webhook.requests == []
    recorded = _outbox(demo)
    due = [row for row in recorded if not row["backfill"]]
    assert {row["day"] for row in due} == {today}  # earlier days of the look-back are backfill
    assert all(row["sent"] is None for row in recorded)
    key = _late_slot_open_key(demo)
    assert key in {row["key"] for row in due}

    resumed = _run(demo, today, webhook.url)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming" in resumed.stderr
    texts = {row["key"]: row["text"] for row in due}
    assert sorted(webhook.texts) == sorted(texts.values())
    streak = demo.late_slot.streak + 1  # late every day of the streak, missing on the end day
    assert f"{demo.late_slot.slot} 第 {streak} 日缺口" in texts[key]
    sent = {alert["key"]: alert["sent"] for alert in _brief(demo)["alerts"]}
    assert all(sent[k] is not None for k in texts)

    third = _run(demo, today, webhook.url)
    assert third.returncode == 0, third.stderr
    assert len(webhook.requests) == len(texts)
    assert _webhook_deliveries(demo) == Counter(texts.keys())  # one delivery row per alert key
    assert [row["key"] for row in _outbox(demo)] == [row["key"] for row in recorded]


def test_backfill_alerts_are_recorded_not_sent(demo: DemoManifest, webhook: WebhookReceiver) -> None:
    later = (demo.end + timedelta(days=1)).isoformat()
    ran = _run(demo, later, webhook.url)
    assert ran.returncode == 0, ran.stderr
    assert webhook.requests == []
    alerts = {alert["key"]: alert for alert in _brief(demo)["alerts"]}
    key = _late_slot_open_key(demo)
    assert key in alerts and alerts[key]["sent"] is None
    assert all(alert["sent"] is None for alert in alerts.values())
    assert all(row["backfill"] for row in _outbox(demo))


def test_send_backfill_delivers_a_backfill_once(demo: DemoManifest, webhook: WebhookReceiver) -> None:
    later = (demo.end + timedelta(days=1)).isoformat()
    ran = _run(demo, later, webhook.url, "--send-backfill")
    assert ran.returncode == 0, ran.stderr
    rows = {row["key"]: row for row in _outbox(demo)}
    key = _late_slot_open_key(demo)
    # A backfill's alerts collapse into one digest message, one line per alert.
    [digest] = webhook.texts
    assert digest.startswith("补发历史棒位提醒 ")
    assert f"- {rows[key]['text'].splitlines()[0]}" in digest.splitlines()
    assert all(f"- {row['text'].splitlines()[0]}" in digest.splitlines() for row in rows.values())
    assert all(row["sent"] is not None for row in rows.values())
    again = _run(demo, later, webhook.url, "--send-backfill")
    assert again.returncode == 0, again.stderr
    assert len(webhook.requests) == 1


def test_send_backfill_after_a_plain_backfill_sends_the_recorded_alerts(
    demo: DemoManifest, webhook: WebhookReceiver
) -> None:
    later = (demo.end + timedelta(days=1)).isoformat()
    assert _run(demo, later, webhook.url).returncode == 0
    assert webhook.requests == []
    ran = _run(demo, later, webhook.url, "--send-backfill")
    assert ran.returncode == 0, ran.stderr
    key = _late_slot_open_key(demo)
    [digest] = webhook.texts
    assert f"- {({row['key']: row for row in _outbox(demo)}[key]['text']).splitlines()[0]}" in digest.splitlines()


def test_yesterdays_gap_still_open_is_sent_by_todays_run(demo: DemoManifest, webhook: WebhookReceiver) -> None:
    # flyp's risk brief (due 21:00) never came on the missing day; the next day's inference run sees it.
    missing = demo.missing_slot
    day = missing.day + timedelta(days=1)
    env = {k: v for k, v in os.environ.items() if not k.startswith("BATON_")}
    env.update({"BATON_WEBHOOKS": webhook.url, "BATON_TODAY": day.isoformat()})
    command = [sys.executable, "-m", "workflows.cli", "run", "--vault", str(demo.root), "--topic", TOPIC,
               "--date", day.isoformat(), "--format", "json", "--offline"]
    ran = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0, ran.stderr
    assert _webhook_deliveries(demo)[f"{missing.slot}/{missing.day}/open"] == 1
    older = [key for key in _webhook_deliveries(demo) if key.split("/")[2] < (day - timedelta(days=1)).isoformat()]
    assert older == []  # history before yesterday is recorded, not sent
