"""Every table of the store, one module per concern; importing this registers them all."""

from state.tables import approval, arxiv_cache, coordination, core, leases, llm, register, vault_index  # noqa: F401
