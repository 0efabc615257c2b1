"""Alembic's environment for baton's store, configured from code (``state.schema``), no alembic.ini.

``state.schema`` passes the open connection in ``config.attributes["connection"]``;
migrations run in the caller's transaction (which holds the schema lock).
"""

from __future__ import annotations

from alembic import context

import state.tables  # noqa: F401  (registers every table on Base, for autogenerate)
from state.db import Base

connection = context.config.attributes["connection"]
context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
context.run_migrations()
