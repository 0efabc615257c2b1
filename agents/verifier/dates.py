"""Checks against arXiv's dates and versions: claimed dates, old papers carded now, versions beyond the latest.

Every "as of" is the brief's date; nothing here reads the clock.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from datetime import date

from agents.verifier.claims import make_warning
from agents.verifier.facts import CardLike, PaperFacts
from state.models import BriefWarning, Mention

__all__ = ["check_dates", "check_versions_beyond_latest"]


def _yymm(identifier: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"(\d{2})(\d{2})\.\d{4,5}", identifier)
    return (2000 + int(match.group(1)), int(match.group(2))) if match else None


_CLAIMED_DATE = re.compile(r"^\s*[（(]\s*(?:v\d+\s*)?(\d{4})-(\d{2})(?:-(\d{2}))?")


def check_dates(mentions: Sequence[Mention], cards: Sequence[CardLike], facts: Mapping[str, PaperFacts],
                day: date) -> list[BriefWarning]:
    """``date_mismatch``: a date claimed beside a number against its YYMM or arXiv's date; old papers carded now."""
    warnings = []
    for card in cards:
        fact = facts.get(card.arxiv)
        paper = fact.published if fact and fact.published else None
        yymm = (paper.year, paper.month) if paper else _yymm(card.arxiv)
        ingested = card.ingested.date()
        if yymm is None or ingested > day:
            continue
        months = (ingested.year * 12 + ingested.month) - (yymm[0] * 12 + yymm[1])
        if months >= 2:
            when = paper.isoformat() if paper else f"{yymm[0]}-{yymm[1]:02d}"
            warnings.append(make_warning(
                "date_mismatch",
                f"卡 {card.card}「{card.title}」（arXiv {card.arxiv}）于 {ingested.isoformat()} 入卡，"
                f"但论文日期是 {when}，约 {months} 个月前：旧论文今日才入卡，不是当月新发表。",
                "低", "对活文档是否 NET-new 照常判断；写入时注明论文原始日期，不作为当月新进展", [card.path], card.arxiv,
                f"date_mismatch:card:{card.card}"))
    seen = set()
    for mention in mentions:
        if mention.kind != "arxiv" or mention.detail.get("malformed"):
            continue
        pos = mention.context.find(mention.raw)
        claim = _CLAIMED_DATE.match(mention.context[pos + len(mention.raw):]) if pos >= 0 else None
        yymm = _yymm(mention.value)
        if not claim or not yymm or (mention.value, claim.group(0)) in seen:
            continue
        seen.add((mention.value, claim.group(0)))
        claimed = (int(claim.group(1)), int(claim.group(2)))
        fact = facts.get(mention.value)
        known = {(d.year, d.month) for d in (fact.published, fact.updated) if d} if fact else set()
        if claimed < yymm:
            reason = f"号码前缀 {mention.value[:4]} 表示 {yymm[0]}-{yymm[1]:02d} 提交，不可能更早"
        elif known and claimed not in known:
            reason = "arXiv 记录的发布/更新日期为 " + "、".join(
                d.isoformat() for d in (fact.published, fact.updated) if d)  # type: ignore[union-attr]
        else:
            continue
        warnings.append(make_warning(
            "date_mismatch", f"{mention.source} 称 arXiv {mention.value} 的日期为 {claim.group(0).strip(' （(')}：{reason}。",
            "低", "核对 arXiv 页面上的日期", [mention.source], mention.value,
            f"date_mismatch:{mention.value}:{claimed[0]}-{claimed[1]:02d}"))
    return warnings


def check_versions_beyond_latest(mentions: Sequence[Mention], facts: Mapping[str, PaperFacts]) -> list[BriefWarning]:
    """``version_beyond_latest``: ``2511.02230v7`` when arXiv's latest version is v3."""
    worst: dict[str, list[Mention]] = defaultdict(list)
    for mention in mentions:
        version = mention.detail.get("version") if mention.kind == "arxiv" else None
        fact = facts.get(mention.value)
        if version and fact and fact.latest_version and version > fact.latest_version:
            worst[mention.value].append(mention)
    warnings = []
    for identifier, found in sorted(worst.items()):
        versions = sorted({m.detail["version"] for m in found})
        latest = facts[identifier].latest_version
        warnings.append(make_warning(
            "version_beyond_latest",
            f"笔记引用 arXiv {identifier}" + "/".join(f"v{v}" for v in versions) + f"，但 arXiv 最新版本只到 v{latest}。",
            "中", f"改为 {identifier}v{latest} 或不带版本号引用", [m.source for m in found], identifier,
            f"version_beyond_latest:{identifier}"))
    return warnings
