"""The mentions of a baseline file (the living document, an earlier brief), kept by the run's vault index.

The verifier compares the window against them every run; they change only when the file does.
"""

from __future__ import annotations

from agents.scanner.derived import Derivation, decode_mentions, encode_mentions
from agents.scanner.mentions import MENTIONS_FORMAT, extract_mentions
from agents.scanner.notes import VaultFile
from state.models import Mention

__all__ = ["TEXT_MENTIONS", "BODY_MENTIONS"]


def _of_text(file: VaultFile) -> list[Mention]:
    return extract_mentions(file.path, file.text or "")


def _of_body(file: VaultFile) -> list[Mention]:
    return extract_mentions(file.path, file.body, file.body_line)


# Their version is the extraction's own (``MENTIONS_FORMAT``): a change to mentions.py cannot leave them stale.
TEXT_MENTIONS: Derivation[list[Mention]] = Derivation("text_mentions", MENTIONS_FORMAT, _of_text, encode_mentions,
                                                      decode_mentions)
BODY_MENTIONS: Derivation[list[Mention]] = Derivation("body_mentions", MENTIONS_FORMAT, _of_body, encode_mentions,
                                                      decode_mentions)
