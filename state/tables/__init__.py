"""Every table of the store, one module per concern; importing this registers them all."""

from state.tables import (  # noqa: F401
    approval,
    arxiv_cache,
    coordination,
    core,
    leases,
    llm,
    register,
    vault_derived,
    vault_index,
)
