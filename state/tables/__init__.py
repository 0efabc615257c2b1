"""Every table of the store, one module per concern; importing this registers them all."""

from state.tables import core  # noqa: F401
