"""What the mentions claim, resolved for checking: figures with their subject, versions.

The name a note gives an arXiv number is resolved in ``agents.verifier.names``.

A figure's subject is the product named closest before it in its sentence,
else the one arXiv number on its line, else the arXiv number cited at most
three lines above it in the same source (a section heading or its link).
Its metric is the metric word closest to it (before it within 20 characters,
or right after it). Before/after pairs joined by an arrow (``7.85s → 2.56s``)
are changes, not competing claims, and are left out.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from agents.scanner.mentions import PRODUCTS
from state.models import BriefWarning, Mention

__all__ = [
    "FigureClaim",
    "VersionClaim",
    "figure_claims",
    "version_claims",
    "make_warning",
    "quote",
    "check_version_conflicts",
    "check_number_conflicts",
]

_UNIT_ALIASES = {"x": "×", "倍": "×", "秒": "s", "configs": "个", "config": "个", "configurations": "个",
                 "configuration": "个", "GiB": "GB"}
_SKIP_UNITS = frozenset({"条", "件", "卡"})  # counts of a note's own items, not measurements
_ARROW = ("→", "->", "➜", "⇒")
_CURRENT = re.compile(r"最新|当前|目前|现行|current|latest", re.IGNORECASE)
_PRODUCT_RE = re.compile(
    r"(?<![\w-])(" + "|".join(re.escape(p) for p in sorted(PRODUCTS, key=len, reverse=True)) + r")(?![\w])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FigureClaim:
    """A figure with the entity and metric it is about."""

    subject: str
    metric: str
    unit: str
    low: float
    high: float
    mention: Mention


@dataclass(frozen=True)
class VersionClaim:
    """A product version as a source states it; ``current`` when it is said to be the latest."""

    product: str
    version: str
    parts: tuple[int, ...]
    current: bool
    date: str | None
    mention: Mention


def _subject_by_line(mentions: Sequence[Mention]) -> dict[tuple[str, int], list[str]]:
    ids: dict[tuple[str, int], list[str]] = {}
    for mention in mentions:
        if mention.kind == "arxiv" and not mention.detail.get("malformed"):
            bucket = ids.setdefault((mention.source, mention.line), [])
            if mention.value not in bucket:
                bucket.append(mention.value)
    return ids


def _subject(mention: Mention, pos: int, ids: dict[tuple[str, int], list[str]]) -> str | None:
    products = [m for m in _PRODUCT_RE.finditer(mention.context) if m.end() <= pos and pos - m.end() <= 60]
    if products:
        word = products[-1].group(1)
        return next(p for p in PRODUCTS if p.lower() == word.lower())
    for back in range(0, 4):
        found = ids.get((mention.source, mention.line - back))
        if found and len(found) == 1:
            return found[0]
        if found:
            return None
    return None


def _unit(unit: str, low: float, high: float) -> tuple[str, float, float]:
    unit = _UNIT_ALIASES.get(unit, unit)
    if unit == "s":
        return "ms", low * 1000, high * 1000
    return unit, low, high


def figure_claims(mentions: Sequence[Mention]) -> list[FigureClaim]:
    """Resolve each figure mention to (subject, metric, unit, range); unresolvable ones are left out."""
    ids = _subject_by_line(mentions)
    claims: list[FigureClaim] = []
    for mention in mentions:
        if mention.kind != "figure" or mention.detail.get("unit") in _SKIP_UNITS:
            continue
        pos = mention.context.find(mention.raw)
        if pos < 0:
            continue
        end = pos + len(mention.raw)
        if mention.context[end:].lstrip().startswith(_ARROW) or mention.context[:pos].rstrip().endswith(_ARROW):
            continue
        number = float(mention.detail["number"])
        high = mention.detail.get("high")
        unit, low, top = _unit(str(mention.detail.get("unit")), number, float(high) if high is not None else number)
        metric = mention.detail.get("metric")
        if metric is None and claims and claims[-1].mention.context == mention.context and claims[-1].unit == unit:
            metric = claims[-1].metric  # a list "A 85ms / B 42–80ms / C 42ms" shares its metric
        if metric is None and unit in ("tok/s", "tokens/s", "req/s"):
            metric = "throughput"
        subject = _subject(mention, pos, ids)
        if metric is None or subject is None:
            continue
        claims.append(FigureClaim(subject, metric, unit, low, top, mention))
    return claims


def version_claims(mentions: Iterable[Mention]) -> list[VersionClaim]:
    """Product versions, without figures the version pattern mistook for one (``Mooncake 92.2%``)."""
    claims = []
    for mention in mentions:
        if mention.kind != "version":
            continue
        if re.search(re.escape(mention.raw) + r"\s*[%×xX倍]", mention.context):
            continue
        product = str(mention.detail.get("product"))
        version = str(mention.detail.get("version", "")).lstrip("vV")
        if "rc" in version.lower():
            continue
        parts = tuple(int(p) for p in re.findall(r"\d+", version))
        claims.append(VersionClaim(product, version, parts, bool(_CURRENT.search(mention.context))
                                   or mention.detail.get("date") is not None, mention.detail.get("date"), mention))
    return claims


def make_warning(kind: str, text: str, risk: str, action: str, sources: Sequence[str], subject: str,
             key: str) -> BriefWarning:
    """A warning without its id and D-number (``run_checks`` and the register give those)."""
    return BriefWarning(id="", kind=kind, text=text, risk=risk, action=action,
                        sources=sorted(dict.fromkeys(sources)), subject=subject, key=key)


def quote(mention: Mention, limit: int = 60) -> str:
    """The mention's sentence, cut to ``limit`` characters."""
    text = mention.context.strip()
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _padded(claim: VersionClaim) -> tuple[str, tuple[int, ...]]:
    """``0.30`` and ``0.30.0`` are one version."""
    return claim.product, claim.parts + (0,) * (3 - len(claim.parts))


def _digits(parts: tuple[int, ...]) -> str:
    """The version's digits without dots or trailing zeros: ``0.3.1`` and ``0.31.0`` both give ``031``."""
    return "".join(str(p) for p in parts).rstrip("0")


def _scheme_rule(pa: tuple[int, ...], pb: tuple[int, ...]) -> str | None:
    """Why two versions of one product look like one number in two schemes, or None.

    ``dot``: the same digits with a dot moved (``0.3.1`` vs ``0.31.0``);
    ``tenfold``: a minor version ten times the other's (``0.3.3`` vs ``0.30.0``).
    """
    if len(pa) >= 2 and len(pb) >= 2 and _digits(pa) == _digits(pb):
        return "dot"
    if len(pa) >= 2 and len(pb) >= 2 and pa[0] == pb[0] and pa[1] and (pb[1] == pa[1] * 10 or pa[1] == pb[1] * 10):
        return "tenfold"
    return None


def _scheme_pairs(versions: dict[str, list[VersionClaim]], window: set[str]) -> list[tuple[str, str, str]]:
    """The scheme conflicts of one product, each version in at most one pair.

    Pairs seen in the window on both sides come first, then one side in the
    window (the other from the living document or an earlier brief); within
    that, a moved dot before a tenfold minor version. A version taken by a
    better pair is not paired again, so ``0.3.1`` next to the window's
    ``0.31.0`` is not also compared with the living document's ``0.30.0``.
    """
    def seen(version: str) -> bool:
        return any(c.mention.source in window for c in versions[version])

    candidates = []
    names = sorted(versions)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            rule = _scheme_rule(versions[a][0].parts, versions[b][0].parts)
            inside = seen(a) + seen(b)
            if rule and inside:
                candidates.append((-inside, rule != "dot", a, b, rule))
    used: set[str] = set()
    pairs = []
    for *_, a, b, rule in sorted(candidates):
        if a in used or b in used:
            continue
        used.update((a, b))
        pairs.append((a, b, rule))
    return pairs


def _where(claims: Sequence[VersionClaim], window: set[str]) -> str:
    """The source to name for a version: a window note when one states it."""
    return min(claims, key=lambda c: c.mention.source not in window).mention.source


def check_version_conflicts(mentions: Sequence[Mention], references: Sequence[Mention] = ()) -> list[BriefWarning]:
    """``version_conflict``: different "current" versions of one product, or two numbering schemes."""
    window = {m.source for m in mentions}
    claims = version_claims([*mentions, *references])
    by_product: dict[str, list] = defaultdict(list)
    canonical: dict[tuple[str, tuple[int, ...]], str] = {}
    for claim in claims:
        by_product[claim.product].append(claim)
    warnings = []
    for product, group in sorted(by_product.items()):
        for claim in group:
            canonical.setdefault(_padded(claim), claim.version)
        versions: dict[str, list[VersionClaim]] = defaultdict(list)
        for claim in group:
            versions[canonical[_padded(claim)]].append(claim)
        for a, b, rule in _scheme_pairs(versions, window):
            why = "数字相同、小数点位置不同" if rule == "dot" else "次版本号差一个数量级"
            warnings.append(make_warning(
                "version_conflict",
                f"{product} 版本号两种写法：{a}（{_where(versions[a], window)}）与 {b}（{_where(versions[b], window)}），"
                f"{why}，疑为笔误或两套编号。",
                "中", f"核对 {product} 官方 release 页，统一版本号",
                [c.mention.source for c in [*versions[a], *versions[b]]], product,
                f"version_conflict:scheme:{product}:{a},{b}"))
        current = [c for c in group if c.current]
        distinct = sorted({canonical[_padded(c)] for c in current}, key=lambda v: versions[v][0].parts)
        if len(distinct) >= 2 and any(c.mention.source in window for c in current):
            parts = []
            for version in distinct:
                claim = next(c for c in current if canonical[_padded(c)] == version)
                dated = f"，{claim.date}" if claim.date else ""
                parts.append(f"{version}（{claim.mention.source}{dated}）")
            warnings.append(make_warning(
                "version_conflict", f"{product}「当前版本」各源不一：" + " vs ".join(parts) + "。",
                "低", f"以 {product} 官方 release 为准注明各源口径与日期", [c.mention.source for c in current], product,
                f"version_conflict:current:{product}:{','.join(distinct)}"))
    return warnings


def _fmt(claim: FigureClaim) -> str:
    return claim.mention.value


# Hardware named beside a figure: two figures measured on different hardware are two conditions, not a conflict.
_HARDWARE = re.compile(r"(?<![A-Za-z0-9])(A100|A800|H100|H200|H800|H20|B200|B300|GB200|GB300|L4|L40S?|A10G?|T4|"
                       r"MI300X?|MI325X|MI355X|RTX ?\d{4}|M[1-5] (?:Pro|Max|Ultra)|TPU ?v\d+\w?)(?![A-Za-z0-9])")


def _hardware(claim: FigureClaim) -> set[str]:
    return {name.replace(" ", "") for name in _HARDWARE.findall(claim.mention.context)}


def _same_conditions(a: FigureClaim, b: FigureClaim) -> bool:
    """Unless both name their hardware and share none, the two figures may describe one set-up."""
    ha, hb = _hardware(a), _hardware(b)
    return not (ha and hb and ha.isdisjoint(hb))


def check_number_conflicts(mentions: Sequence[Mention]) -> list[BriefWarning]:
    """``number_conflict``: one metric of one entity with figures that do not overlap, from two places."""
    window = {m.source for m in mentions}
    groups: dict[tuple[str, str, str], list[FigureClaim]] = defaultdict(list)
    # Only the window's figures: the living document's older figures describe other set-ups too often.
    for claim in figure_claims(mentions):
        groups[(claim.subject, claim.metric, claim.unit)].append(claim)
    warnings = []
    for (subject, metric, unit), group in sorted(groups.items()):
        if not any(c.mention.source in window for c in group):
            continue
        clash = [
            (a, b) for i, a in enumerate(group) for b in group[i + 1:]
            if (a.mention.source, a.mention.line) != (b.mention.source, b.mention.line)
            and (a.high < b.low * 0.98 or b.high < a.low * 0.98)
            and _same_conditions(a, b)
        ]
        if not clash:
            continue
        values: dict[tuple[float, float], FigureClaim] = {}
        for claim in group:
            values.setdefault((claim.low, claim.high), claim)
        listed = "；".join(f"{_fmt(c)}（{c.mention.source}：「{quote(c.mention, 50)}」）"
                          for _, c in sorted(values.items()))
        warnings.append(make_warning(
            "number_conflict", f"{subject} 的 {metric} 各源数字不一：{listed}。", "中",
            "并列各源数字并注明条件（硬件、精度、prefix 复用、并发），不混用", [c.mention.source for c in group],
            f"{subject} {metric}", f"number_conflict:{subject}:{metric}:{unit}"))
    return warnings
