"""`make demo`: generate a demo vault, run one brief on it end to end, say where everything is."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from state.settings import settings_from_env
from workflows import api
from workflows.demo_vault import generate_demo_vault

__all__ = ["run_demo"]


def run_demo(folder: Path, progress: Callable[[str], None]) -> list[str]:
    """Generate (or regenerate) the demo vault in ``folder`` and write its inference brief, offline."""
    manifest = generate_demo_vault(folder)
    progress(f"demo vault generated in {folder} ({manifest.files} files, ending {manifest.end})")
    settings = settings_from_env(folder, folder / ".baton", offline=True)
    ctx = api.open_context(settings, progress)
    outcome = api.run_brief(ctx, "inference", manifest.end)
    lines = [f"brief: {path}" for path in outcome.drafts]
    lines += [
        f"thread: {outcome.thread} (revision {outcome.revision}, waiting for approval)",
        f"next:   baton review {outcome.thread} --vault {folder}",
        f"        baton approve {outcome.thread} --vault {folder} --by YOUR-NAME",
        f"        baton gaps --vault {folder} --date {manifest.end} --svg gaps.svg",
    ]
    return lines
