"""`baton schedule` (cron, systemd, GitHub) from the vault's times, and `baton check` with a fake clock."""

from __future__ import annotations

import json
from datetime import date, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from agents.coordinator.alerts import WebhookSink
from state.errors import DeliveryError
from state.models import AlertEntry
from tests.conftest import ANN_DAILY_SCHEDULE
from tests.fakes.webhook import WebhookReceiver
from workflows.cli import main

TZ = ZoneInfo("Asia/Shanghai")


def _out(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> str:
    capsys.readouterr()
    assert main(list(argv)) == code
    return capsys.readouterr().out


# -- baton schedule ------------------------------------------------------------------------------------


def test_schedule_of_the_sample_vault(sample_vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = _out(capsys, "--vault", str(sample_vault), "schedule", "--baton", "/opt/baton")
    vault = str(sample_vault)
    assert "CRON_TZ=Asia/Shanghai" in out.splitlines()
    assert f"20 22 * * * /opt/baton --vault {vault} run --topic inference" in out
    assert f"40 18 * * * /opt/baton --vault {vault} run --topic llm-infra" in out
    assert f"45 12 * * * /opt/baton --vault {vault} check" in out
    assert "feeds fetch" not in out  # the sample vault has no feeds.toml
    assert "OnCalendar=*-*-* 22:20:00 Asia/Shanghai" in out
    assert "OnCalendar=*-*-* 18:40:00 Asia/Shanghai" in out
    assert "OnCalendar=*-*-* 12:45:00 Asia/Shanghai" in out
    for unit in ("baton-run-inference", "baton-run-llm-infra", "baton-check"):
        assert f"/{unit}.service ──" in out and f"/{unit}.timer ──" in out
    # The earliest window first: llm-infra's 18:40 before inference's 22:20.
    assert out.index("--topic llm-infra") < out.index("--topic inference")


def _vault(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    root = tmp_path / "v"
    _out(capsys, "init", str(root))
    return root


def test_feed_fetch_times(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _vault(tmp_path, capsys)
    out = _out(capsys, "--vault", str(root), "schedule", "--format", "cron", "--baton", "b")
    assert f"50 21 * * * b --vault {root} feeds fetch" in out  # 30 minutes before the 22:20 window end
    (root / "feeds.toml").write_text('fetch_at = ["07:05", "21:00"]\n', encoding="utf-8")
    out = _out(capsys, "--vault", str(root), "schedule", "--format", "systemd", "--baton", "b")
    assert "OnCalendar=*-*-* 07:05:00 Asia/Shanghai\nOnCalendar=*-*-* 21:00:00 Asia/Shanghai\n" in out
    assert "CRON_TZ" not in out


def test_install_writes_units_and_says_how_to_enable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _vault(tmp_path, capsys)
    units = tmp_path / "systemd-user"
    out = _out(capsys, "--vault", str(root), "schedule", "--install", "--unit-dir", str(units), "--baton", "/x/baton")
    names = sorted(p.name for p in units.iterdir())
    assert names == sorted(f"baton-{job}.{kind}" for job in ("run-example", "check", "feeds")
                           for kind in ("service", "timer"))
    service = (units / "baton-run-example.service").read_text(encoding="utf-8")
    assert f"ExecStart=/x/baton --vault {root} run --topic example" in service
    assert "systemctl --user enable --now baton-run-example.timer baton-check.timer baton-feeds.timer" in out
    # Installing again rewrites the same units (a changed schedule.toml updates them).
    (root / "schedule.toml").write_text((root / "schedule.toml").read_text(encoding="utf-8")
                                        .replace('"12:45"', '"12:50"'), encoding="utf-8")
    _out(capsys, "--vault", str(root), "schedule", "--install", "--unit-dir", str(units), "--baton", "/x/baton")
    assert "12:50:00 Asia/Shanghai" in (units / "baton-check.timer").read_text(encoding="utf-8")


def test_github_workflow_is_in_utc(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = _vault(tmp_path, capsys)
    out = _out(capsys, "--vault", str(root), "schedule", "--format", "github")
    assert "- cron: '20 14 * * *'  # 22:20 Asia/Shanghai: run-example" in out
    assert "- cron: '45 4 * * *'  # 12:45 Asia/Shanghai: check" in out
    assert "if: github.event.schedule == '45 4 * * *'\n        run: baton --vault . check" in out
    assert "daylight saving" not in out  # Asia/Shanghai has none


# -- baton check (fake clock: BATON_NOW) ---------------------------------------------------------------

SCHEDULE = ANN_DAILY_SCHEDULE + """
[[slot]]
agent = "bob"
name = "weekly"
pattern = "{date}-weekly.md"
due = "09:00"
alert = ["boss", "lead"]

[[slot]]
agent = "cat"
name = "coordination"
pattern = "{date}-coordination.md"
due = "13:15"
alert = ["lead"]
"""


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    root = tmp_path / "vault"
    for agent in ("ann", "bob", "cat"):
        (root / "inbox" / agent).mkdir(parents=True)
    (root / "schedule.toml").write_text(SCHEDULE, encoding="utf-8")
    (root / "topics.toml").write_text("", encoding="utf-8")
    for day in ("2026-05-01", "2026-05-02"):
        for agent, name, hhmm in (("ann", "daily", "11:00"), ("bob", "weekly", "08:00"), ("cat", "coordination", "13:00")):
            (root / "inbox" / agent / f"{day}-{name}.md").write_text(
                f"---\ntime: {day}T{hhmm}:00+08:00\n---\n\nnote.\n", encoding="utf-8")
    # 2026-05-03: ann's note never comes; bob's comes at 08:30 (met).
    (root / "inbox" / "bob" / "2026-05-03-weekly.md").write_text(
        "---\ntime: 2026-05-03T08:30:00+08:00\n---\n\nnote.\n", encoding="utf-8")
    return root


def _check(vault: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], now: str,
           *extra: str, code: int = 0) -> str:
    monkeypatch.setenv("BATON_NOW", now)
    return _out(capsys, "--vault", str(vault), "check", *extra, code=code)


def test_noon_check_sends_each_open_gap_once(vault: Path, webhook: WebhookReceiver, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_WEBHOOKS", f"boss={webhook.url}")
    out = _check(vault, monkeypatch, capsys, "2026-05-03T12:45:00+08:00", "--dry-run")
    assert webhook.requests == []  # a dry run sends nothing
    assert "would send: [warning] → boss: ann/daily 5-3 缺口（截至 12:45 未交，due 12:00）" in out
    assert not (vault / ".baton" / "alerts").exists()  # … and records nothing

    out = _check(vault, monkeypatch, capsys, "2026-05-03T12:45:00+08:00")
    assert "1 open gap(s)" in out
    # boss hears of ann's gap; the digest goes to the coordinator (cat), whom no webhook serves.
    assert webhook.texts == ["ann/daily 5-3 缺口（截至 12:45 未交，due 12:00）"]
    notes = sorted(p.name for p in (vault / ".baton" / "alerts").iterdir())
    assert notes == ["ann_daily_2026-05-03_open.md", "check_2026-05-03_digest.md"]
    digest = (vault / ".baton" / "alerts" / "check_2026-05-03_digest.md").read_text(encoding="utf-8")
    assert "5-3 12:45 棒位核对：缺口 1 项" in digest

    # Checking again (the timer fires twice, a person re-runs it) sends nothing new.
    out = _check(vault, monkeypatch, capsys, "2026-05-03T12:50:00+08:00")
    assert len(webhook.requests) == 1 and "nothing to send" in out
    assert "nothing to send" in _check(vault, monkeypatch, capsys, "2026-05-03T12:55:00+08:00", "--dry-run")


def test_check_before_check_at_sees_the_morning_only(vault: Path, webhook: WebhookReceiver,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_WEBHOOKS", webhook.url)
    out = _check(vault, monkeypatch, capsys, "2026-05-03T10:00:00+08:00", "--dry-run")
    assert "as of 2026-05-03 10:00" in out
    assert "ann/daily" not in out  # due 12:00: not yet late


def test_unmapped_recipient_is_said(vault: Path, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_NOW", "2026-05-03T12:45:00+08:00")
    monkeypatch.setenv("BATON_WEBHOOKS", "boss=http://127.0.0.1:9/x")
    capsys.readouterr()
    assert main(["--vault", str(vault), "check", "--dry-run"]) == 0
    err = capsys.readouterr().err
    assert "no webhook for recipient 'cat'" in err and "no webhook for recipient 'lead'" in err
    assert "'boss'" not in err


def test_failing_webhook_is_degraded_exit_3_and_retried(vault: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    with WebhookReceiver(codes=[400]) as hook:
        monkeypatch.setenv("BATON_WEBHOOKS", f"boss={hook.url}")
        monkeypatch.setenv("BATON_NOW", "2026-05-03T12:45:00+08:00")
        capsys.readouterr()
        assert main(["--vault", str(vault), "check"]) == 3
        err = capsys.readouterr().err.strip().splitlines()
        assert err[-1].startswith("baton: degraded: 1 alert(s) not delivered (")
        assert "HTTP 400" in err[-1] and "run `baton check` again" in err[-1]
        assert hook.texts == []
        assert main(["--vault", str(vault), "check"]) == 0  # the retry delivers it, once
        assert hook.texts == ["ann/daily 5-3 缺口（截至 12:45 未交，due 12:00）"]


def test_backfill_check_collapses_into_one_digest(vault: Path, webhook: WebhookReceiver,
                                                  monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_WEBHOOKS", webhook.url)
    later = "2026-05-09T12:45:00+08:00"
    # A plain backfill records, sends nothing.
    _check(vault, monkeypatch, capsys, later, "--date", "2026-05-06")
    assert webhook.requests == []
    out = _check(vault, monkeypatch, capsys, later, "--date", "2026-05-06", "--send-backfill", "--dry-run")
    assert webhook.requests == [] and out.count("would send:") == 1 and "补发历史棒位提醒" in out
    _check(vault, monkeypatch, capsys, later, "--date", "2026-05-06", "--send-backfill")
    [text] = webhook.texts
    lines = text.splitlines()
    assert lines[0].startswith("补发历史棒位提醒 ") and len(lines) > 3
    assert any("ann/daily 连续第 3 日缺口" in line for line in lines)
    _check(vault, monkeypatch, capsys, later, "--date", "2026-05-06", "--send-backfill")
    assert len(webhook.requests) == 1


# -- Slack's 429 Retry-After ---------------------------------------------------------------------------


def _alert() -> AlertEntry:
    return AlertEntry(key="ann/daily/2026-05-03/open", to=["boss"], kind="open", severity="warning", text="gap")


def test_retry_after_is_honoured() -> None:
    slept: list[float] = []
    with WebhookReceiver(codes=[429, 429], retry_after="7") as hook:
        sink = WebhookSink(("boss",), url=hook.url, sleep=slept.append, retries=3)
        sink.send(_alert())
        assert hook.texts == ["gap"]
    assert slept == [7.0, 7.0]


def test_retry_after_beyond_the_bound_gives_up_at_once() -> None:
    slept: list[float] = []
    with WebhookReceiver(codes=[429], retry_after="3600") as hook:
        sink = WebhookSink(("boss",), url=hook.url, sleep=slept.append, retries=3, max_wait=30)
        with pytest.raises(DeliveryError, match="Retry-After 3600 s"):
            sink.send(_alert())
        assert len(hook.requests) == 1
    assert slept == []


def test_retry_after_as_an_http_date() -> None:
    slept: list[float] = []
    now = datetime(2026, 5, 3, 4, 45, tzinfo=ZoneInfo("UTC"))
    with WebhookReceiver(codes=[429], retry_after="Sun, 03 May 2026 04:45:12 GMT") as hook:
        WebhookSink(("boss",), url=hook.url, sleep=slept.append, now=lambda: now).send(_alert())
    assert slept == [12.0]


# -- excuses -------------------------------------------------------------------------------------------


def test_excuse_a_range_list_it_re_excuse_and_remove(vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    v = ["--vault", str(vault)]
    out = _out(capsys, *v, "excuse", "ann/daily", "--from", "2026-05-03", "--to", "2026-05-05", "--by", "boss",
               "--reason", "劳动节")
    assert "2026-05-03 … 2026-05-05 (3 days)" in out
    _out(capsys, *v, "excuse", "ann/daily", "--date", "2026-05-04", "--by", "boss", "--reason", "调休")
    listed = [line.split() for line in _out(capsys, *v, "excuse", "--list").strip().splitlines()]
    assert listed == [["ann/daily", "2026-05-03", "boss", "劳动节"], ["ann/daily", "2026-05-04", "boss", "调休"],
                      ["ann/daily", "2026-05-05", "boss", "劳动节"]]
    gaps = json.loads(_out(capsys, *v, "gaps", "--date", "2026-05-05", "--days", "3", "--json"))["gaps"]
    assert {g["status"] for g in gaps if g["slot"] == "daily"} == {"excused"}
    out = _out(capsys, *v, "excuse", "ann/daily", "--from", "2026-05-04", "--to", "2026-05-09", "--remove")
    assert "removed 2 excuse(s)" in out
    assert _out(capsys, *v, "excuse", "ann/daily", "--list").split() == ["ann/daily", "2026-05-03", "boss", "劳动节"]
    import sqlite3

    with sqlite3.connect(vault / ".baton" / "baton.db") as conn:
        assert conn.execute("SELECT count(*) FROM excuses").fetchone()[0] == 1


def test_positional_excuse_date_still_works_with_a_note(vault: Path, capsys: pytest.CaptureFixture[str]) -> None:
    capsys.readouterr()
    assert main(["--vault", str(vault), "excuse", "ann/daily", "2026-05-03", "--reason", "x"]) == 0
    captured = capsys.readouterr()
    assert "deprecated" in captured.err and "excused ann/daily on 2026-05-03" in captured.out


@pytest.mark.parametrize("argv, message", [
    (["excuse", "ann/daily", "--date", "2026-05-03"], "--reason"),
    (["excuse", "ann/daily", "--from", "2026-05-05", "--to", "2026-05-03", "--reason", "x"], "before --from"),
    (["excuse", "ann/daily", "--date", "2026-05-03", "--from", "2026-05-03", "--reason", "x"], "not both"),
    (["excuse", "--date", "2026-05-03", "--reason", "x"], "name the slot"),
    (["excuse", "nobody/none", "--date", "2026-05-03", "--reason", "x"], "unknown slot"),
])
def test_excuse_usage_errors(vault: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    capsys.readouterr()
    assert main(["--vault", str(vault), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_check_date_defaults_to_today_of_the_clock(vault: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    out = _check(vault, monkeypatch, capsys, "2026-05-03T05:00:00+00:00", "--dry-run")  # 13:00 in Shanghai
    assert out.startswith(f"check {date(2026, 5, 3)} as of 2026-05-03 12:45")


def test_noon_check_of_the_sample_vault(sample_vault: Path, webhook: WebhookReceiver,
                                        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("BATON_WEBHOOKS", f"stephen={webhook.url}")
    dry = _check(sample_vault, monkeypatch, capsys, "2026-09-29T12:45:00+08:00", "--dry-run")
    assert webhook.requests == [] and dry.count("would send:") >= 2
    _check(sample_vault, monkeypatch, capsys, "2026-09-29T12:45:00+08:00")
    texts = webhook.texts
    [digest] = [t for t in texts if "棒位核对" in t]
    listed = [line[2:] for line in digest.splitlines()[1:]]
    assert listed, "the sample day has open gaps at 12:45"
    # Each gap the digest lists went out once as its own alert, and nothing went out twice.
    assert sorted(t for t in texts if t != digest) == sorted(listed)
    assert len(texts) == len(set(texts))
    _check(sample_vault, monkeypatch, capsys, "2026-09-29T13:10:00+08:00")
    assert webhook.texts == texts
