"""llm_runs: LLM mode's run record (issue 10)

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03

One row per run that used a model: model, endpoint (without credentials), prompt versions,
calls, tokens, grounding drops, the common-prefix share. No prompt text and no key.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "llm_runs",
        sa.Column("run_id", sa.Integer(), nullable=False),
        sa.Column("thread", sa.String(length=100), nullable=False),
        sa.Column("model", sa.String(length=200), nullable=False),
        sa.Column("endpoint", sa.String(length=500), nullable=True),
        sa.Column("calls", sa.Integer(), nullable=False),
        sa.Column("tokens", sa.Integer(), nullable=False),
        sa.Column("dropped", sa.Integer(), nullable=False),
        sa.Column("prefix_share", sa.Float(), nullable=False),
        sa.Column("prompt_versions", sa.JSON(), nullable=False),
        sa.Column("notes", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["run_id"], ["runs.id"]),
        sa.PrimaryKeyConstraint("run_id"),
    )
    op.create_index("ix_llm_runs_thread", "llm_runs", ["thread"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_llm_runs_thread", table_name="llm_runs")
    op.drop_table("llm_runs")
