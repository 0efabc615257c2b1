"""vault_derived: what a run derives from a vault file, kept between runs (issue 12)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03

One row per (vault, path, kind): an earlier brief's record, a note's mentions, a slot note's
arrival, with the sha256 of the bytes it was derived from, the parser and the value as JSON.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vault_derived",
        sa.Column("vault", sa.String(length=500), nullable=False),
        sa.Column("path", sa.String(length=1000), nullable=False),
        sa.Column("kind", sa.String(length=100), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("parser", sa.String(length=200), nullable=False),
        sa.Column("value", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("vault", "path", "kind"),
    )


def downgrade() -> None:
    op.drop_table("vault_derived")
