"""``caveat`` warnings: a claim its own author marked as doubtful, named by what it is about.

The scanner finds the caveat lines (``agents.scanner.caveats``); here each
becomes one warning about its claim: the subject (a paper number on the line,
else a name on it, else its heading's), the claim's figure, what the author
said is missing, the risk from the author's ⚠ marks. The same caveat written
in several sources is one warning with all of them. Only the window's notes
count: briefs restate their sources, the living document and the register
are references.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.caveats import METADATA_CAVEAT, RISK_OF_MARKS, RISK_ORDER
from agents.scanner.e1_format import is_brief_path, is_coordination_path
from agents.scanner.excerpt import excerpt
from agents.scanner.mentions import PLATFORM
from agents.verifier.claims import CLASH, make_warning
from agents.verifier.names import PROPER_NAME
from state.models import BriefWarning, Mention

__all__ = ["check_caveats", "caveat_subject", "is_metadata_caveat"]


def is_metadata_caveat(warning: BriefWarning) -> bool:
    """The caveat doubts a paper's catalogue record (venue, citations), not a claim of the paper."""
    return warning.kind == "caveat" and (warning.key or "").endswith(f":{METADATA_CAVEAT}")

# A name: a Latin token with a capital somewhere ("DSpark", "vLLM", "GLM-5.3-Flash", "PolyKV"), maybe two words.
# A name, with a capitalised second word when it has one ("Apple Silicon", "IETF CATS").
_NAME = re.compile(PROPER_NAME.pattern[:-1] + r"(?:\s+[A-Z][A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)?)")
_TITLE_PHRASE = re.compile(r"[A-Z][\w.-]*(?:\s+(?:(?:the|of|for|a|an|to|in|on|and|with|as|at|by)\s+)*[A-Z][\w.-]*)+")
_OUTLINE = re.compile(r"§\s*[\w.()（）]+|^\s*(?:[A-Z]|\d{1,2})(?:\.\d+)+\s+|^\s*\d{1,2}[.、]\s+")
# A heading that files its subject under a line of work ("Jev 线：SemIf 开源替代", "Mamba 方向：Hydra-2",
# "Agent track: Foo"): the name after the colon is the subject, the one before is the line's.
_LINE_LABEL = re.compile(r"^[^：:\n]{1,30}?(?:线|方向|系列|专题|赛道|板块|\btrack|\bline|\bthread)\s*[：:]\s*(?=\S)",
                         re.IGNORECASE)
_GENERIC = frozenset({
    "The", "This", "That", "These", "It", "We", "Our", "Paper", "Note", "Notes", "CSDN", "HF", "GPU", "GPUs", "KV",
    "TTFT", "ITL", "TPOT", "PPL", "QPS", "OOM", "API", "URL", "README", "HTML", "PDF", "RAG", "LLM", "LLMs", "AI", "PR",
    "P50", "P99", "Top", "Q1", "Q2", "Q3", "Q4", "TODO", "TBC", "FP8", "FP16", "BF16", "INT4", "INT8", "OK",
    "Correction", "Erratum", "Corrigendum", "Yesterday", "Earlier",
})
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*\s*(?:%|×|x\b|倍|ms|s\b|GB|TB|tok/s|层|pt|k\b|K\b)|\d+\s*/\s*\d+", re.IGNORECASE)


_ACRONYM = re.compile(r"[A-Z]{2,6}s?")


def caveat_subject(claim: str, heading: str, paper: str | None = None) -> str:
    """What the caveat is about: the claim's paper number, else its first proper name, else the heading's.

    ``paper`` is the paper the whole source is about (a paper card's): it comes after a number on
    the line and before names, which on a card are the paper's methods, not other subjects.
    """
    # A paper number first (the claim's, else its section's: "只测了一种硬件" under a paper's heading is
    # about the paper, not the hardware), then a name.
    for text in (claim, heading):
        refs = [r.id for r in find_arxiv_refs(text) if not r.malformed]
        if refs:
            return refs[0]
    if paper:
        return paper
    # A line listing several items ("#4 A …；#9 B … ⚠⚬⚬"): the mark qualifies the clause it ends.
    clauses = [c for c in re.split(r"[；;]", claim) if c.strip()]
    marked = next((c for c in clauses if "⚠" in c), None) if len(clauses) > 1 else None
    names = {}
    # ...when that clause names something; else the line's name ("Foo cuts TTFT; conditions not stated ⚠⚬").
    heading = _OUTLINE.sub(" ", re.sub(r"^\s*#+\s*", "", heading))
    heading = _LINE_LABEL.sub("", _OUTLINE.sub(" ", heading).strip()) or heading
    for source, text in (("marked", marked or ""), ("claim", claim), ("heading", heading)):
        # Neither a generic word nor where something was read ("arXiv", "GitHub", "HN"), nor a source named
        # before what it wrote ("The Serving Desk 写的…"): what it is about.
        names[source] = [name for match in _NAME.finditer(text) if (name := match.group(1).strip())
                         and name.split()[0] not in _GENERIC and not PLATFORM.fullmatch(name.split()[0])
                         and len(name) >= 3 and any(c.isupper() for c in name.split()[0])
                         and not _METRIC_NAME.fullmatch(name.split()[0])
                         and not _WROTE.match(re.sub(r"^\s*(?:[A-Z][\w-]*\s+){0,2}", "", text[match.end():]))]
    # An acronym on the claim's line ("跨节点 RDMA 回拉", "GPU 型号未注明") is the technology the claim is about,
    # not the system: the heading's name ("## TierPilot：…") says whose claim it is.
    if marked is not None and names["marked"]:
        # The flagged clause names it: its own name, else the technology it names ("NPU prefill"), never
        # another clause's item.
        own = [n for n in names["marked"] if not _ACRONYM.fullmatch(n.split()[0])]
        return (own or names["marked"])[0]
    own = [n for n in names["claim"] if not _ACRONYM.fullmatch(n.split()[0])]
    if own:
        return own[0]
    if names["heading"]:
        # A title's words whole ("## #1 Beyond the Prefix（官方博客）": Beyond the Prefix, not Beyond).
        first = names["heading"][0]
        at = heading.find(first)
        phrase = _TITLE_PHRASE.match(heading, at) if at >= 0 else None
        return phrase.group(0) if phrase and len(phrase.group(0)) > len(first) else first
    if names["claim"]:
        return names["claim"][0]
    return re.sub(r"[⭐★⚠⚬]+|§[\w.]+|^\s*#+", "", heading).strip()[:40] or "（未具名）"


# A metric is what a claim measures, not whose claim it is ("P90 TTFT 降 75%").
# Nor is a figure or table of a paper ("Fig.4", "Table 2").
_METRIC_NAME = re.compile(r"P\d{2,3}|TTFT|ITL|TPOT|QPS|RPS|MFU|SLO|E2E|(?:Fig|Figure|Tab|Table|Eq|Sec)\.?\s*\d*\w?",
                          re.IGNORECASE)
# A name followed by what it wrote or said is a source: "Serving Desk 写的", "Lumen says".
_WROTE = re.compile(r"\s*(?:写的|写道|报道|转述|称|说|引的|\bsays\b|\bwrites\b|\bwrote\b|\breports?\b|\bquotes?\b)",
                    re.IGNORECASE)
# A scout saying the thing is not safe to run as it stands.
_NOT_DEPLOYABLE = re.compile(r"(?:不然|否则)?(?:不要|别|不能|不可)(?:直接)?(?:部署|上生产|上线)|上生产之?前[^，。；]{0,20}必须|"
                             r"\b(?:do not|don't|must not|should not) (?:be )?(?:deploy|run it in production|ship)|"
                             r"\bnot (?:safe|fit) for production\b", re.IGNORECASE)


def _is_window_note(path: str) -> bool:
    # Notes and paper cards are first-hand (a card's "待读全文" is its cataloguer's caveat); briefs relay.
    return path.startswith(("inbox/", "organized/paper_cards/")) and not is_brief_path(path)


def _said(labels: str) -> str:
    """How the author's note is described: a ⚠ on a heading flags a risk, a cue doubts a claim."""
    if labels == "来源标注风险":
        return "来源作者标注风险"
    if labels.startswith("来源更正"):
        return "来源更正了先前的说法（已写入的笔记、简报或活文档可能需改）"
    return f"来源作者自注存疑（{labels}）"


def _subject(mention: Mention) -> str:
    paper = mention.detail.get("paper")
    return caveat_subject(mention.context, str(mention.detail.get("heading") or ""),
                          str(paper) if paper else None)


def _one_per_claim(grouped: dict[str, list[Mention]]) -> dict[str, list[Mention]]:
    """Doubts on one subject a few lines apart under one heading of one source qualify one claim
    (a table row marked "not comparable" and the remark under it): one warning."""
    merged: dict[str, list[Mention]] = {}
    for key, found in grouped.items():
        subject = _subject(found[0]).lower()
        record = found[0].value == METADATA_CAVEAT  # a doubt about the record never merges with one about a result
        into = next((k for k, other in merged.items() if _subject(other[0]).lower() == subject
                     and (other[0].value == METADATA_CAVEAT) == record and any(
            a.source == b.source and a.detail.get("heading") == b.detail.get("heading") and abs(a.line - b.line) <= 3
            for a in found for b in other)), None)
        if into is None:
            merged[key] = list(found)
        else:
            merged[into].extend(found)
    return merged


def _relayed_clash(mention: Mention) -> str:
    """A coordination note calling other sources' figures a conflict relays a judgement it did not check
    against their conditions (a 4096-card and a 512-card figure "打架"): said as its claim, not adopted."""
    if is_coordination_path(mention.source) and CLASH.search(mention.context or ""):
        return "（协调记录所称矛盾，未核各源条件；数字矛盾以同一条件下的两数为准，见第三节数字类警示）"
    return ""


def check_caveats(mentions: Sequence[Mention]) -> list[BriefWarning]:
    """One ``caveat`` warning per claim its authors qualified, with every source that did."""
    grouped: dict[str, list[Mention]] = {}
    for mention in mentions:
        if mention.kind != "caveat" or not _is_window_note(mention.source):
            continue
        subject = _subject(mention)
        figure = _FIGURE.search(mention.context)
        kind = "correction" if mention.value == "来源更正" else "caveat"  # a correction is a finding of its own
        # A doubt about the paper's record is one per paper, whatever figures (citation counts) it quotes.
        what = mention.value if mention.value == METADATA_CAVEAT or not figure else figure.group(0).replace(" ", "")
        key = f"{kind}:{subject.lower()}:{what}"
        grouped.setdefault(key, []).append(mention)
    warnings = []
    for key, found in _one_per_claim(grouped).items():
        first = found[0]
        subject = _subject(first)
        marks = [m.detail.get("marks") for m in found if m.detail.get("marks")]
        risk = max((RISK_OF_MARKS.get(mark, "低") for mark in marks), key=RISK_ORDER.index,
                   default="低")
        sources = sorted({m.source for m in found})
        # A correction is read whole (what was wrong, what is right); so is a flagged heading with its lines.
        limit = 220 if key.startswith("correction:") or all(m.value == "来源标注风险" for m in found) else 100
        where = "；".join(f"{m.source} L{m.line}：「{excerpt(m.context, limit)}」{_relayed_clash(m)}" for m in found[:3])
        labels = "、".join(dict.fromkeys(m.value for m in found))
        action = "写入活文档时注明作者的保留（条件、测试范围或口径）；核对原文后再作结论"
        if any(_NOT_DEPLOYABLE.search(m.context or m.raw) for m in found):
            # "不然不要部署", "上生产之前必须加 mTLS": the scout says it is unsafe as it stands — a risk, not a doubt.
            risk = max(risk, "中", key=RISK_ORDER.index)
            action = "作为部署前提写入对应条目（未满足前不可上生产），注明来源；核对原文后再作结论"
        if key.startswith("correction:"):
            risk = max(risk, "中", key=RISK_ORDER.index)  # something already written may be wrong
            action = "按更正核对活文档与此前简报中的对应说法，必要时改写并注明更正来源"
        flagged = labels == "来源标注风险"  # the scout flags a finding as a risk: reported as one, not as a doubt
        if flagged:
            action = "作为风险注记写入对应条目（注明来源与适用条件）；核对原文后再作结论"
        warning = make_warning("caveat", f"{subject}：{_said(labels)}——{where}。", risk, action, sources, subject, key)
        warnings.append(warning.model_copy(update={"label": "来源标注风险"}) if flagged else warning)
    return warnings
