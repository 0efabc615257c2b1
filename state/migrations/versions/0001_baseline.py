"""baseline: the tables of baton 0.1

Revision ID: 0001
Revises: -
Create Date: 2026-12-03

The tables as baton made them before migrations. A store made then (by
``create_all``) is brought here too: only the missing tables are created, and
the register's as-of columns added where an older store lacks them.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


_REGISTER_COLUMNS = {"register_entries": {"raised_at": 32, "closed_at": 32, "closed_from": 500},
                     "register_sightings": {"moment": 32}}


def upgrade() -> None:
    present = set(sa.inspect(op.get_bind()).get_table_names())
    if 'alert_outbox' not in present:
        op.create_table('alert_outbox',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('key', sa.String(length=200), nullable=False),
        sa.Column('slot', sa.String(length=120), nullable=False),
        sa.Column('day', sa.String(length=10), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('severity', sa.String(length=10), nullable=False),
        sa.Column('recipients', sa.JSON(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('backfill', sa.Boolean(), nullable=False),
        sa.Column('sent', sa.DateTime(timezone=True), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('key')
        )
        with op.batch_alter_table('alert_outbox', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_alert_outbox_day'), ['day'], unique=False)

    if 'artifacts' not in present:
        op.create_table('artifacts',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('thread', sa.String(length=100), nullable=False),
        sa.Column('name', sa.String(length=50), nullable=False),
        sa.Column('payload', sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('thread', 'name')
        )
        with op.batch_alter_table('artifacts', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_artifacts_thread'), ['thread'], unique=False)

    if 'arxiv_misses' not in present:
        op.create_table('arxiv_misses',
        sa.Column('id', sa.String(length=40), nullable=False),
        sa.Column('checked_on', sa.Date(), nullable=False),
        sa.Column('fetched_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )

    if 'arxiv_papers' not in present:
        op.create_table('arxiv_papers',
        sa.Column('id', sa.String(length=40), nullable=False),
        sa.Column('title', sa.Text(), nullable=False),
        sa.Column('authors', sa.JSON(), nullable=False),
        sa.Column('published', sa.DateTime(timezone=True), nullable=False),
        sa.Column('updated', sa.DateTime(timezone=True), nullable=False),
        sa.Column('latest_version', sa.Integer(), nullable=False),
        sa.Column('primary_category', sa.String(length=40), nullable=False),
        sa.Column('fetched_on', sa.Date(), nullable=False),
        sa.Column('fetched_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )

    if 'arxiv_searches' not in present:
        op.create_table('arxiv_searches',
        sa.Column('query', sa.String(length=500), nullable=False),
        sa.Column('checked_on', sa.Date(), nullable=False),
        sa.Column('ids', sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint('query', 'checked_on')
        )

    if 'blobs' not in present:
        op.create_table('blobs',
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint('sha256')
        )

    if 'decisions' not in present:
        op.create_table('decisions',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('thread', sa.String(length=100), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('action', sa.String(length=20), nullable=False),
        sa.Column('by', sa.String(length=80), nullable=False),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=True),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.Column('auto', sa.Boolean(), nullable=False),
        sa.Column('edited', sa.Boolean(), nullable=False),
        sa.Column('published', sa.String(length=500), nullable=True),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('decisions', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_decisions_thread'), ['thread'], unique=False)

    if 'excuses' not in present:
        op.create_table('excuses',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('slot', sa.String(length=120), nullable=False),
        sa.Column('day', sa.String(length=10), nullable=False),
        sa.Column('by', sa.String(length=80), nullable=False),
        sa.Column('reason', sa.Text(), nullable=False),
        sa.Column('recorded_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('excuses', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_excuses_slot'), ['slot'], unique=False)

    if 'gap_states' not in present:
        op.create_table('gap_states',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('slot', sa.String(length=120), nullable=False),
        sa.Column('day', sa.String(length=10), nullable=False),
        sa.Column('status', sa.String(length=10), nullable=False),
        sa.Column('streak', sa.Integer(), nullable=False),
        sa.Column('open_at_check', sa.Boolean(), nullable=False),
        sa.Column('entry', sa.JSON(), nullable=False),
        sa.Column('updated_at', sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('slot', 'day')
        )
        with op.batch_alter_table('gap_states', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_gap_states_day'), ['day'], unique=False)

    if 'mentions' not in present:
        op.create_table('mentions',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('thread', sa.String(length=100), nullable=False),
        sa.Column('source', sa.String(length=500), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('value', sa.String(length=500), nullable=False),
        sa.Column('record', sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('mentions', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_mentions_kind'), ['kind'], unique=False)
            batch_op.create_index(batch_op.f('ix_mentions_thread'), ['thread'], unique=False)

    if 'promises' not in present:
        op.create_table('promises',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('key', sa.String(length=500), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('due', sa.String(length=10), nullable=False),
        sa.Column('when', sa.String(length=10), nullable=False),
        sa.Column('first_seen', sa.String(length=10), nullable=False),
        sa.Column('source', sa.String(length=500), nullable=False),
        sa.Column('confirmed_by', sa.String(length=500), nullable=True),
        sa.Column('confirmed_on', sa.String(length=10), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('key')
        )

    if 'register_entries' not in present:
        op.create_table('register_entries',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.Column('risk', sa.String(length=20), nullable=True),
        sa.Column('kind', sa.String(length=40), nullable=True),
        sa.Column('raised', sa.String(length=10), nullable=True),
        sa.Column('raised_at', sa.String(length=32), nullable=True),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('closed', sa.String(length=10), nullable=True),
        sa.Column('closed_at', sa.String(length=32), nullable=True),
        sa.Column('closed_from', sa.String(length=500), nullable=True),
        sa.Column('evidence', sa.Text(), nullable=True),
        sa.Column('source', sa.String(length=500), nullable=True),
        sa.Column('origin', sa.String(length=20), nullable=False),
        sa.Column('thread', sa.String(length=100), nullable=True),
        sa.Column('key', sa.String(length=500), nullable=True),
        sa.Column('subject', sa.String(length=200), nullable=True),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('thread', 'key', name='uq_register_thread_key')
        )
        with op.batch_alter_table('register_entries', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_register_entries_number'), ['number'], unique=True)

    if 'register_sightings' not in present:
        op.create_table('register_sightings',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('number', sa.Integer(), nullable=False),
        sa.Column('source', sa.String(length=500), nullable=False),
        sa.Column('day', sa.String(length=10), nullable=True),
        sa.Column('moment', sa.String(length=32), nullable=True),
        sa.Column('role', sa.String(length=20), nullable=False),
        sa.Column('text', sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('number', 'source', 'role', 'text', name='uq_sighting')
        )
        with op.batch_alter_table('register_sightings', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_register_sightings_number'), ['number'], unique=False)

    if 'runs' not in present:
        op.create_table('runs',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('thread', sa.String(length=100), nullable=False),
        sa.Column('topic', sa.String(length=64), nullable=False),
        sa.Column('day', sa.String(length=10), nullable=False),
        sa.Column('started', sa.DateTime(timezone=True), nullable=False),
        sa.Column('finished', sa.DateTime(timezone=True), nullable=True),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('mode', sa.String(length=20), nullable=False),
        sa.Column('error', sa.Text(), nullable=True),
        sa.Column('seconds', sa.Float(), nullable=True),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('runs', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_runs_thread'), ['thread'], unique=False)

    if 'sources' not in present:
        op.create_table('sources',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('thread', sa.String(length=100), nullable=False),
        sa.Column('path', sa.String(length=500), nullable=False),
        sa.Column('kind', sa.String(length=20), nullable=False),
        sa.Column('agent', sa.String(length=50), nullable=True),
        sa.Column('sha256', sa.String(length=64), nullable=True),
        sa.Column('encoding', sa.String(length=20), nullable=True),
        sa.Column('time', sa.DateTime(timezone=True), nullable=True),
        sa.Column('time_from', sa.String(length=20), nullable=True),
        sa.Column('bytes', sa.Integer(), nullable=False),
        sa.Column('relevance', sa.Integer(), nullable=False),
        sa.Column('status', sa.String(length=20), nullable=False),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.Column('entry', sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('thread', 'path')
        )
        with op.batch_alter_table('sources', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_sources_thread'), ['thread'], unique=False)

    if 'warning_decisions' not in present:
        op.create_table('warning_decisions',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('thread', sa.String(length=100), nullable=False),
        sa.Column('warning_id', sa.String(length=20), nullable=False),
        sa.Column('key', sa.String(length=300), nullable=False),
        sa.Column('action', sa.String(length=20), nullable=False),
        sa.Column('by', sa.String(length=80), nullable=False),
        sa.Column('reason', sa.Text(), nullable=True),
        sa.Column('at', sa.DateTime(timezone=True), nullable=False),
        sa.Column('day', sa.String(length=10), nullable=False),
        sa.PrimaryKeyConstraint('id')
        )
        with op.batch_alter_table('warning_decisions', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_warning_decisions_key'), ['key'], unique=False)
            batch_op.create_index(batch_op.f('ix_warning_decisions_thread'), ['thread'], unique=False)

    if 'alert_deliveries' not in present:
        op.create_table('alert_deliveries',
        sa.Column('id', sa.Integer(), autoincrement=True, nullable=False),
        sa.Column('outbox_id', sa.Integer(), nullable=False),
        sa.Column('sink', sa.String(length=200), nullable=False),
        sa.Column('sent_at', sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(['outbox_id'], ['alert_outbox.id'], ),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('outbox_id', 'sink')
        )
        with op.batch_alter_table('alert_deliveries', schema=None) as batch_op:
            batch_op.create_index(batch_op.f('ix_alert_deliveries_outbox_id'), ['outbox_id'], unique=False)

    if 'briefs' not in present:
        op.create_table('briefs',
        sa.Column('thread', sa.String(length=100), nullable=False),
        sa.Column('run_id', sa.Integer(), nullable=True),
        sa.Column('brief', sa.JSON(), nullable=False),
        sa.Column('markdown', sa.Text(), nullable=False),
        sa.Column('sha256', sa.String(length=64), nullable=False),
        sa.Column('revision', sa.Integer(), nullable=False),
        sa.Column('presented_sha256', sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(['run_id'], ['runs.id'], ),
        sa.PrimaryKeyConstraint('thread')
        )

    inspector = sa.inspect(op.get_bind())
    for table, columns in _REGISTER_COLUMNS.items():
        if table not in present:
            continue
        have = {column["name"] for column in inspector.get_columns(table)}
        for column, width in columns.items():
            if column not in have:
                op.add_column(table, sa.Column(column, sa.String(length=width), nullable=True))
