"""Publishing through the graph: baton's own output is never read back as input; register rows once."""

from __future__ import annotations

import json
import re
from pathlib import Path

from workflows.cli import main


def _run(vault: Path) -> dict:
    code = main(["run", "--vault", str(vault), "--topic", "inference", "--date", "2026-09-29", "--offline",
                 "--auto-approve"])
    assert code == 0
    return json.loads((vault / ".baton/drafts/2026-09-29-inference-e1prep.json").read_text(encoding="utf-8"))


def test_approval_appends_new_register_rows_once_and_the_published_brief_is_not_an_input(sample_vault: Path) -> None:
    register = sample_vault / "organized/registry/contradictions.md"
    before = register.read_text(encoding="utf-8")
    # The highest D-number the vault has used anywhere: baton's new numbers come after it.
    highest = max(int(n) for path in sample_vault.rglob("*.md")
                  for n in re.findall(r"\bD(\d{3})\b", path.read_text(encoding="utf-8", errors="replace")))
    first = _run(sample_vault)
    after_first = register.read_text(encoding="utf-8")
    new_rows = [line for line in after_first.splitlines() if line.startswith("| D") and line not in before]
    allocated = sorted({w["register"] for w in first["warnings"] if w["register"] and int(w["register"][1:]) > highest})
    assert allocated and sorted(line.split("|")[1].strip() for line in new_rows) == allocated
    assert all("inbox/tom/2026-09-29-inference-e1prep.baton.md" in line for line in new_rows)
    assert after_first.startswith(before.split("统计：")[0].rstrip("\n").rsplit("\n", 1)[0])  # old rows kept

    second = _run(sample_vault)
    assert register.read_text(encoding="utf-8") == after_first  # nothing appended twice
    assert [(w["kind"], w["register"]) for w in second["warnings"]] == \
        [(w["kind"], w["register"]) for w in first["warnings"]]
    published = {s["path"]: s for s in second["sources"]}["inbox/tom/2026-09-29-inference-e1prep.baton.md"]
    assert published["kind"] == "brief" and published["in_window"] is False
