"""The read-only dependencies every node receives as LangGraph's runtime context."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from state.db import Database
from state.settings import Settings
from state.store import Store
from state.vault_config import VaultConfig

__all__ = ["BatonContext"]


@dataclass
class BatonContext:
    """Built once per process by the CLI (or a web app) and passed to ``graph.stream(context=…)``."""

    settings: Settings
    db: Database
    store: Store
    config: VaultConfig
    progress: Callable[[str], None] = lambda message: None
    # Per-process memo of window scans by thread; a resumed process rebuilds it.
    scans: dict[str, Any] = field(default_factory=dict)
    # The chat model (agents.llm.provider.ChatProvider) when BATON_LLM_MODEL is set; None: rules only.
    # Context, not state: never checkpointed.
    llm: Any = None
