"""The name a note gives an arXiv number, for comparing it with other names and with titles.

Name rule, in the order tried:

1. a table row: the text of the identifier's own cell, else the cell before
   it, else the cell after it (``| 3 | Workload-Router-Pool | arXiv 2603.21354 |``);
2. the run of Latin-script words right before the identifier or before the
   bracket that holds it (``Workload-Router-Pool（arXiv 2603.21354）``,
   ``Continnum 2511.0223（VLDB 2026）``, ``### §5 Continnum arXiv 2511.02230v7``);
3. otherwise the run right after it or inside the bracket that follows
   (``arXiv 2609.17863 · The Inference Engineering Pareto Atlas``,
   ``2511.02230v7（Continnum）``).

Rules 1 and 2 give *strong* names (the note labels the number); rule 3 gives
*weak* ones (often a description). A name needs one Latin word of at least
three letters outside a stop list (venues, "arXiv", "card", "Top"…), so
metadata such as ``（VLDB 2026）`` or ``（卡 154）`` is never taken for a name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from state.models import Mention

__all__ = [
    "ArxivName",
    "PROPER_NAME",
    "leading_system",
    "arxiv_name",
    "arxiv_names",
    "name_key",
    "name_words",
]

# A proper name in running text: a Latin token, dots and hyphens inside ("GLM-5.3-Flash", "llama.cpp").
PROPER_NAME = re.compile(r"(?<![\w.-])([A-Za-z][A-Za-z0-9]*(?:[-.][A-Za-z0-9]+)*)")
# A system's own name: a token with an inner capital, a digit or a hyphen, or an acronym of four letters or
# more ("DSpark", "llm-d", "KVSET"); plain words ("Jarvislabs" aside) and short acronyms ("KV") are not.
_SYSTEM_NAME = re.compile(r"\s*(?:[-*•]\s*)?(?:\*\*)?([A-Za-z][a-z0-9]*(?:[A-Z0-9-][A-Za-z0-9.]*)+|[A-Z]{4,})")


def leading_system(text: str, generic: Iterable[str] = ()) -> str | None:
    """The system name ``text`` leads with ("DSpark 85% 加速…", "KVSET：…"), unless it is one of ``generic``
    (the topic's own terms: "vLLM" names a field, not an item)."""
    match = _SYSTEM_NAME.match(text)
    if match is None or len(match.group(1)) < 4 or match.group(1).lower() in {g.lower() for g in generic}:
        return None
    return match.group(1)


_RUN_BEFORE = re.compile(r"[A-Za-z][A-Za-z0-9\-_.+×' ]*$")
_RUN_AFTER = re.compile(r"^[A-Za-z][A-Za-z0-9\-_.+×:' ]*")
_SECTION_TOKEN = re.compile(r"^(?:[A-Za-z]?\d+(?:\.\d+)*|[A-Za-z](?:\.\d+)+)\s+")
_STOP = frozenset(
    "arxiv url html abs pdf doi top new net card paper paper_card queue work work-queue vldb iclr osdi neurips "
    "icml sosp nsdi mlsys eurosys sep hf daily the and of for via vs with from to in on at by cs dc lg cl "
    "inbox md e1prep see ref github link code note tier".split()
)


@dataclass(frozen=True)
class ArxivName:
    """The name a note gives an arXiv number at one place."""

    id: str
    name: str
    strong: bool
    mention: Mention


def name_words(name: str) -> list[str]:
    """Lower-case Latin words and numbers of a name, hyphens and dots split."""
    return [w for w in re.split(r"[^a-z0-9]+", name.lower()) if w]


def name_key(name: str) -> str:
    """The key two spellings of one name share (case, hyphens and spaces ignored)."""
    return "".join(name_words(name))


def _is_name(text: str) -> bool:
    """A paper's or system's name: a word of 3+ letters that is not a stop word; a lone lower-case word
    (an author's handle before a date) is not one; "QuillServe", "KV-Tier" or "prefix caching" are."""
    words = [w for w in re.split(r"[^A-Za-z]+", text) if w]
    named = [w for w in words if len(w) >= 3 and w.lower() not in _STOP]
    if len(words) == 1 and named and named[0].islower() and not re.search(r"\d", text):
        return False
    return bool(named)


def _tidy(name: str) -> str:
    # A run may reach back over "A + 2609.31415 +": keep only what follows the last "+" or number.
    name = re.split(r"\+|\d{4}\.\d{4,5}", name)[-1] if re.search(r"\+|\d{4}\.\d{4,5}", name) else name
    name = _SECTION_TOKEN.sub("", name.strip(" .-_:'"))
    if re.fullmatch(r"[A-Za-z]+(?:\.\d+)+", name.strip()):
        return ""  # a section label such as "Backend.2"
    name = re.sub(r"\s+", " ", name).strip(" .-_:'")
    return name if _is_name(name) else ""


def _from_cells(context: str, raw: str) -> tuple[str, bool] | None:
    cells = context.strip().strip("|").split("|")
    index = next((i for i, cell in enumerate(cells) if raw in cell), None)
    if index is None:
        return None
    own = re.sub(r"arXiv\s*[:：]?\s*$", "", cells[index].replace(raw, " "), flags=re.IGNORECASE)
    for text in (own, cells[index - 1] if index > 0 else "", cells[index + 1] if index + 1 < len(cells) else ""):
        if ".md" in text or "/" in text:
            continue  # a path or a list of numbers, not a name
        head = re.split(r"[（(]", text.strip())[0]
        run = _RUN_AFTER.match(head.strip())
        name = _tidy(run.group(0)) if run else ""
        if name:
            return name, True
    return None


_ID = r"(?:arXiv\s*[:：]?\s*)?\d{4}\.\d{4,5}(?:v\d+)?"
_SLASH_LIST = re.compile(r"(?P<ids>" + _ID + r"(?:\s*/\s*" + _ID + r")+)\s*[（(](?P<names>[^）)]*)[）)]", re.IGNORECASE)


def _from_slash_list(context: str, pos: int, raw: str) -> tuple[str, bool] | str | None:
    """``2609.27334 / 2609.25853（JIT Memory / MemoryAthena）`` names each number by its place in the list.

    Returns the pair for ``raw``, ``""`` when the number is in such a list whose names do not pair up
    (no name can be given safely), or None when it is in no such list.
    """
    for match in _SLASH_LIST.finditer(context):
        if not match.start("ids") <= pos < match.end("ids"):
            continue
        ids = [i.strip() for i in match.group("ids").split("/")]
        names = [n.strip() for n in re.split(r"\s*/\s*", re.split(r"[，,；;]", match.group("names"))[0])]
        index = next((k for k, i in enumerate(ids) if raw in i), None)
        if index is None or len(names) != len(ids):
            return ""
        name = _tidy(names[index])
        return (name, False) if name else ""
    return None


def arxiv_name(mention: Mention) -> tuple[str, bool] | None:
    """Return ``(name, strong)`` for an arXiv mention, or None when its line gives no name."""
    context, raw = mention.context, mention.raw
    pos = context.find(raw)
    if pos < 0 or mention.detail.get("in_url"):
        return None
    if context.lstrip().startswith("|"):
        return _from_cells(context, raw)
    paired = _from_slash_list(context, pos, raw)
    if paired is not None:
        return paired or None
    head = context[:pos].rstrip()
    if head.endswith(("（", "(")):
        head = head[:-1].rstrip()
    # "Quillstream · arXiv 2609.30017", "Quillstream — arXiv:2609.30017": the name before the separator.
    head = re.sub(r"(?:\s*[·—–:：]\s*)?arXiv\s*[:：]?$", "", head, flags=re.IGNORECASE).rstrip()
    head = re.sub(r"\s+[·—–]$", "", head)
    run = _RUN_BEFORE.search(head)
    if run:
        name = _tidy(run.group(0))
        if name:
            return name, True
    tail = context[pos + len(raw):].lstrip(" ·—–-:：")
    if tail.startswith(("（", "(")):
        tail = re.split(r"[，,·、;；）)]", tail[1:])[0]
    run = _RUN_AFTER.match(tail.strip())
    if run:
        name = _tidy(run.group(0))
        if name:
            return name, False
    return None


def arxiv_names(mentions: Iterable[Mention]) -> list[ArxivName]:
    """Every name the mentions give a well-formed or malformed arXiv number."""
    found = []
    for mention in mentions:
        if mention.kind != "arxiv":
            continue
        named = arxiv_name(mention)
        if named:
            found.append(ArxivName(mention.value, named[0], named[1], mention))
    return found
