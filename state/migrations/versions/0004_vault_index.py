"""vault_files: the vault index kept between runs (issue 12)

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03

One row per vault file a run read: (vault, path) → size, mtime (ns), sha256, the parser it was
parsed with (index format and timezone) and the parsed file as ASCII JSON.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "vault_files",
        sa.Column("vault", sa.String(length=500), nullable=False),
        sa.Column("path", sa.String(length=1000), nullable=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("mtime_ns", sa.BigInteger(), nullable=False),
        sa.Column("sha256", sa.String(length=64), nullable=False),
        sa.Column("parser", sa.String(length=100), nullable=False),
        sa.Column("parsed", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("vault", "path"),
    )


def downgrade() -> None:
    op.drop_table("vault_files")
