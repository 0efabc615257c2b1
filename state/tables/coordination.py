"""Coordination tables: excuses, the recorded gap state of each slot-day, the alert outbox.

The outbox holds one row per alert key (``slot/date/kind``); a row is written
in the same transaction as the gap state that caused it, and each sink's
delivery is recorded separately, so a crash between deciding and sending
re-sends on the next run while a completed send never repeats.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Integer, String, Text, UniqueConstraint, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Mapped, Session, mapped_column

from state.db import Base, Database
from state.models import GapEntry

__all__ = [
    "ExcuseRow",
    "GapStateRow",
    "OutboxRow",
    "DeliveryRow",
    "Excuse",
    "record_excuse",
    "remove_excuses",
    "load_excuses",
    "upsert_gap_states",
    "insert_outbox_rows",
    "to_utc",
    "as_aware",
]


def to_utc(when: datetime) -> datetime:
    """The moment in UTC, as stored (SQLite keeps no offset)."""
    return when.astimezone(UTC) if when.tzinfo else when.replace(tzinfo=UTC)


def as_aware(when: datetime | None) -> datetime | None:
    """A stored moment read back with its UTC offset."""
    if when is None or when.tzinfo is not None:
        return when
    return when.replace(tzinfo=UTC)


class ExcuseRow(Base):
    """A person's excuse of one slot for one day; every decision is kept, the latest counts."""

    __tablename__ = "excuses"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    slot: Mapped[str] = mapped_column(String(120), index=True)
    day: Mapped[str] = mapped_column(String(10))
    by: Mapped[str] = mapped_column(String(80))
    reason: Mapped[str] = mapped_column(Text)
    recorded_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GapStateRow(Base):
    """The last recorded state of one slot-day (what the alerts were decided from)."""

    __tablename__ = "gap_states"
    __table_args__ = (UniqueConstraint("slot", "day"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    slot: Mapped[str] = mapped_column(String(120))
    day: Mapped[str] = mapped_column(String(10), index=True)
    status: Mapped[str] = mapped_column(String(10))
    streak: Mapped[int] = mapped_column(Integer, default=0)
    open_at_check: Mapped[bool] = mapped_column(Boolean, default=False)
    entry: Mapped[dict] = mapped_column(JSON)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class OutboxRow(Base):
    """One alert decided once per key; ``sent`` is set when every sink that serves it delivered."""

    __tablename__ = "alert_outbox"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    key: Mapped[str] = mapped_column(String(200), unique=True)
    slot: Mapped[str] = mapped_column(String(120))
    day: Mapped[str] = mapped_column(String(10), index=True)
    kind: Mapped[str] = mapped_column(String(20))
    severity: Mapped[str] = mapped_column(String(10))
    recipients: Mapped[list] = mapped_column(JSON)
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    backfill: Mapped[bool] = mapped_column(Boolean, default=False)
    sent: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)


class DeliveryRow(Base):
    """One completed send of one outbox row to one sink."""

    __tablename__ = "alert_deliveries"
    __table_args__ = (UniqueConstraint("outbox_id", "sink"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    outbox_id: Mapped[int] = mapped_column(ForeignKey("alert_outbox.id"), index=True)
    sink: Mapped[str] = mapped_column(String(200))
    sent_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class Excuse:
    """Who excused a slot-day and why."""

    slot: str
    day: date
    by: str
    reason: str
    recorded_at: datetime

    def __str__(self) -> str:
        return f"{self.by}：{self.reason}"


def record_excuse(db: Database, slot: str, day: date, by: str, reason: str, recorded_at: datetime) -> Excuse:
    """Record that ``by`` excused ``slot`` (``agent/name``) on ``day``; excusing again updates the one row."""
    with db.session() as session:
        rows = session.scalars(select(ExcuseRow).where(ExcuseRow.slot == slot, ExcuseRow.day == day.isoformat())
                               .order_by(ExcuseRow.id)).all()
        if rows:
            row = rows[0]
            for extra in rows[1:]:  # rows an earlier version added for the same slot-day
                session.delete(extra)
        else:
            row = ExcuseRow(slot=slot, day=day.isoformat())
            session.add(row)
        row.by, row.reason, row.recorded_at = by, reason, to_utc(recorded_at)
    return Excuse(slot, day, by, reason, recorded_at)


def remove_excuses(db: Database, slot: str, days: list[date]) -> list[date]:
    """Withdraw the excuses of ``slot`` on ``days``; return the days that had one."""
    wanted = [d.isoformat() for d in days]
    with db.session() as session:
        rows = session.scalars(select(ExcuseRow).where(ExcuseRow.slot == slot, ExcuseRow.day.in_(wanted))).all()
        removed = sorted({date.fromisoformat(r.day) for r in rows})
        for row in rows:
            session.delete(row)
    return removed


def load_excuses(db: Database) -> dict[tuple[str, date], Excuse]:
    """Every excused slot-day, the latest decision winning; pass it to ``compute_gaps``."""
    with db.session() as session:
        rows = session.scalars(select(ExcuseRow).order_by(ExcuseRow.recorded_at, ExcuseRow.id)).all()
    excuses: dict[tuple[str, date], Excuse] = {}
    for row in rows:
        day = date.fromisoformat(row.day)
        excuses[(row.slot, day)] = Excuse(row.slot, day, row.by, row.reason, as_aware(row.recorded_at))
    return excuses


def upsert_gap_states(session: Session, gaps: list[GapEntry], now: datetime) -> None:
    """Record the state of each slot-day in ``session`` (inside the caller's transaction), one upsert each."""
    keys = {(f"{g.agent}/{g.slot}", g.date): g for g in gaps}
    dialect = session.get_bind().dialect.name
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    for (slot, day), gap in sorted(keys.items()):
        statement = insert(GapStateRow).values(slot=slot, day=day, status=gap.status, streak=gap.streak,
                                               open_at_check=gap.open_at_check, entry=gap.model_dump(mode="json"),
                                               updated_at=to_utc(now))
        session.execute(statement.on_conflict_do_update(index_elements=["slot", "day"], set_={
            name: statement.excluded[name] for name in ("status", "streak", "open_at_check", "entry", "updated_at")}))


def insert_outbox_rows(session: Session, rows: list[dict]) -> None:
    """Insert outbox rows whose key is new; a key already there is left as it is."""
    if not rows:
        return
    dialect = session.get_bind().dialect.name
    if dialect in ("sqlite", "postgresql"):
        insert = sqlite.insert if dialect == "sqlite" else postgresql.insert
        session.execute(insert(OutboxRow).values(rows).on_conflict_do_nothing(index_elements=["key"]))
        return
    known = set(session.scalars(select(OutboxRow.key).where(OutboxRow.key.in_([r["key"] for r in rows]))))
    session.add_all(OutboxRow(**r) for r in rows if r["key"] not in known)
