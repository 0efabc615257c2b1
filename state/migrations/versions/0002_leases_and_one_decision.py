"""thread leases, one decision per revision

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03

``thread_leases``: who runs a thread (or delivers the alert outbox) now, until when.
``decisions.decided_key`` (``<thread>#<revision>``, unique): the first decision on a
revision takes it, so a second one cannot be recorded; an older store's duplicate
decisions keep NULL (they stay in the record), the earliest one of each revision takes the key.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "thread_leases",
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("purpose", sa.String(length=20), nullable=False),
        sa.Column("pid", sa.Integer(), nullable=False),
        sa.Column("host", sa.String(length=200), nullable=False),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("name"),
    )
    with op.batch_alter_table("decisions") as batch:
        batch.add_column(sa.Column("decided_key", sa.String(length=120), nullable=True))
    decisions = sa.table("decisions", sa.column("id", sa.Integer), sa.column("thread", sa.String),
                         sa.column("revision", sa.Integer), sa.column("decided_key", sa.String))
    bind = op.get_bind()
    first = bind.execute(sa.select(sa.func.min(decisions.c.id), decisions.c.thread, decisions.c.revision)
                         .group_by(decisions.c.thread, decisions.c.revision)).all()
    for decision_id, thread, rev in first:
        bind.execute(decisions.update().where(decisions.c.id == decision_id)
                     .values(decided_key=f"{thread}#{rev}"))
    op.create_index("ix_decisions_decided_key", "decisions", ["decided_key"], unique=True)
