"""`make quality`: baton's briefs against the team's hand-written ones, as figures (not test thresholds).

Usage: ``python -m workflows.quality --vault VAULT --examples DIR``. The vault
is copied to a temporary folder first (it is never written), each example day
is run offline, and ``compare`` prints recall/precision per day.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
import tempfile
from datetime import date
from pathlib import Path

from agents.integrator.compare import compare_briefs
from state.models import Brief
from state.settings import settings_from_env
from workflows import api

__all__ = ["main", "example_days"]

_EXAMPLE = re.compile(r"^(\d{4}-\d{2}-\d{2})-(.+)-e1prep\.md$")


def example_days(examples: Path) -> list[tuple[str, str]]:
    """(topic, day) of every hand-written brief ``<day>-<topic>-e1prep.md`` in ``examples``, in date order."""
    found = [_EXAMPLE.match(p.name) for p in examples.glob("*-e1prep.md")]
    return sorted(((m.group(2), m.group(1)) for m in found if m), key=lambda td: (td[1], td[0]))


def main(argv: list[str] | None = None) -> int:
    """Run the example days and print the comparison figures."""
    parser = argparse.ArgumentParser(prog="python -m workflows.quality", description=__doc__.splitlines()[0])
    parser.add_argument("--vault", type=Path, required=True, help="the sample vault (read-only; copied first)")
    parser.add_argument("--examples", type=Path, required=True, help="folder of hand-written example briefs")
    parser.add_argument("--out", type=Path, help="also copy each day's brief (Markdown and JSON) into this folder")
    args = parser.parse_args(argv)
    if not (args.vault / "topics.toml").is_file():
        print(f"quality: {str(args.vault)!r} is not a vault (no topics.toml); nothing to compare", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="baton-quality-") as temp:
        vault = Path(temp) / "vault"
        shutil.copytree(args.vault, vault)
        settings = settings_from_env(vault, vault / ".baton", offline=True, formats=("json", "md"))
        ctx = api.open_context(settings)
        for topic, day in example_days(args.examples):
            theirs = args.examples / f"{day}-{topic}-e1prep.md"
            outcome = api.run_brief(ctx, topic, date.fromisoformat(day))
            drafts = [Path(d) for d in outcome.drafts]
            ours = Brief.model_validate_json(next(d for d in drafts if d.suffix == ".json").read_text(encoding="utf-8"))
            if args.out:
                args.out.mkdir(parents=True, exist_ok=True)
                for draft in drafts:
                    shutil.copy2(draft, args.out / f"{day}-{topic}{draft.suffix}")
            print(f"== {topic} {day} · baton: {len(ours.increments)} increments, {len(ours.warnings)} warnings, "
                  f"{len(ours.arxiv)} arXiv numbers")
            result = compare_briefs(ours, theirs.read_text(encoding="utf-8"))
            for line in result.lines():
                print(f"   {line}")
            for name, score in (("increments", result.increments), ("warnings", result.warnings)):
                if score.missing:
                    print(f"   {name} only theirs: {', '.join(score.missing)}")
                if score.extra:
                    print(f"   {name} only ours: {', '.join(score.extra)}")
        ctx.db.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
