"""register_entries.number no longer unique: a backfill numbers as the register stood (issue 8)

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04

A brief numbers its new entries after the highest number known at its window's end. A backfill
of an earlier day may so take a number that a brief written later gave to something else (the
team's own briefs do this too; the collision is reported where both are visible). baton never
gives one number to two of its own entries; the index stays, without the uniqueness.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _number_indexes() -> list[dict]:
    return [index for index in sa.inspect(op.get_bind()).get_indexes("register_entries")
            if index.get("column_names") == ["number"]]


def upgrade() -> None:
    # A store made by an early baton may have the uniqueness as an unnamed constraint or under another name.
    with op.batch_alter_table("register_entries", schema=None, recreate="always") as batch_op:
        for index in _number_indexes():
            batch_op.drop_index(index["name"])
        batch_op.create_index("ix_register_entries_number", ["number"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("register_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_register_entries_number")
        batch_op.create_index("ix_register_entries_number", ["number"], unique=True)
