"""The one extractor of mentions: what a source says that a brief must check or cite."""

from __future__ import annotations

import bisect
import calendar
import functools
import re
from datetime import date

from agents.scanner.arxiv_ids import find_arxiv_refs
from agents.scanner.caveats import LIST_HEADING, NOT_COMPARABLE, find_caveats
from agents.scanner.delivery import PARTIAL, partial_in
from agents.scanner.instructions import is_instruction
from agents.scanner.notes import heading_spans
from agents.scanner.tables import is_rule_row, is_table_row, row_cells, row_sentence
from agents.scanner.urls import find_urls, normalize_url
from state.models import Mention

__all__ = ["PLATFORM", "RANK_LABEL", "extract_mentions", "extract_source_mentions", "MAX_MENTIONS_PER_SOURCE", "MENTIONS_FORMAT", "METRICS", "METRIC_ALIASES", "SAME_SETUP", "SAID_CLOSE", "vouches_same_setup", "sentence_at", "nearest_metric", "version_product"]

# Bump when what ``extract_mentions`` gives for a text may change: every kept derivation of mentions
# (agents.scanner.kept_mentions, the promise history) is then recomputed.
MENTIONS_FORMAT = 18

# A product is any name token right before its version: no list of names (issue 8).
_NAME_TOKEN = r"[A-Za-z][A-Za-z0-9]*(?:[.\-+_][A-Za-z0-9]+)*"
_VERSION = re.compile(
    r"(?<![\w.\-/])(?P<ver>v?\d+(?:\.\d+)+(?:-?rc\d+)?)(?![\w.]*\d)"
    r"(?!\s*(?:%|×|倍|ms|s\b|秒|GB|GiB|MB|TB|x\b|[KMB]\b|tok|个|pt|分|\.\d))"
    r"(?:\s*[（(]?\s*(?P<date>\d{4}-\d{2}-\d{2}))?",
    re.IGNORECASE,
)
_NAME_BEFORE = re.compile(rf"(?<![\w.\-])({_NAME_TOKEN})(?![\w.\-])")
# Words that head a number without being a product (ranks, scores, outline parts, identifiers).
_NOT_PRODUCT = frozenset({"top", "tier", "step", "stage", "phase", "level", "round", "table", "figure", "fig", "section",
                          "page", "score", "f1", "bleu", "rouge", "auc", "em", "arxiv", "doi", "version", "release",
                          "v", "vs", "and", "or", "the", "sec", "part", "chapter", "since", "from", "to"})
_VERSION_GAP = 24  # at most this many characters between a product name and its version


def _is_product(name: str) -> bool:
    """A name token that can be a product: not a stop word, and cased, numbered or dotted (``vLLM``, ``llm-d``)."""
    if name.lower() in _NOT_PRODUCT or name.lower() in {m.lower() for m in METRICS}:
        return False
    return not name.isalpha() or not name.islower()


def version_product(line: str, start: int) -> str | None:
    """The product a version at ``line[start:]`` belongs to: the nearest name token before it, in its clause."""
    head = line[max(0, start - 60):start]
    head = re.split(r"[。；;，,|]|\d+(?:\.\d+)+", head)[-1]
    names = [m for m in _NAME_BEFORE.finditer(head) if _is_product(m.group(1))]
    if not names or len(head) - names[-1].end() > _VERSION_GAP:
        return None
    return names[-1].group(1)


METRICS = (
    "TTFT", "ITL", "TPOT", "P50", "P99", "吞吐", "throughput", "goodput", "延迟", "latency", "加速", "speedup",
    "命中率", "hit", "压缩", "显存", "内存", "memory", "accuracy", "精度", "锚点", "配置", "QPS", "tok/s", "req/s",
)
_UNITS = r"ms|s|秒|×|x|倍|%|GB|GiB|TB|MB|tok/s|tokens/s|req/s|K|M|B|pt|个|configs?|configurations?"
_FIGURE = re.compile(
    rf"(?<![\w.])(?<![A-Za-z0-9]-)(?P<num>\d+(?:,\d{{3}})*(?:\.\d+)?)(?:\s*(?:[-–~～]|to)\s*(?P<high>\d+(?:\.\d+)?))?\s*(?P<unit>{_UNITS})(?![A-Za-z])"
)
# A hardware part's own size ("H100 SXM 80GB", "A100 80GB PCIe", "MI300X 192GB"): a spec, not a result.
_SPEC_BEFORE = re.compile(r"(?<![\w.])[A-Z]{1,4}\d{2,4}[A-Z]?(?:\s+(?:SXM\d?|PCIe|NVL|HBM\d?e?))?\s*$")
_CAPACITY = frozenset({"GB", "GiB", "TB", "MB"})
_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_EN_WHEN = (r"\d{4}-\d{2}(?:-\d{2})?|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{4}"
            r"|Q[1-4]\s+\d{4}|\d{4}\s*Q[1-4]"
            # without a year, counted from the note's date: "by 10-04", "before Oct 4", "on October 12"
            r"|(?<![\d-])\d{1,2}-\d{1,2}(?![\d-])|(?<![\d/.])\d{1,2}/\d{1,2}(?![\d/])"
            r"|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?![\d,])")
_PROMISE = re.compile(
    r"(?P<lead>计划(?!书)|预计|将于|将在|会在|会于|要在|承诺|拟于|拟在|预定|说是|宣布将|表示将|表示会|准备(?:在|于)?|打算(?:在|于)?"
    r"|争取(?:在|于)?|有望(?:在|于)?|预告)[^。；\n]{0,12}?"
    r"(?P<when>\d{4}-\d{2}(?:-\d{2})?|\d{4}\s*年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?|\d{4}\s*年?\s*Q[1-4]"
    r"|\d{4}\s*年\s*[上下]半年|(?<![\dA-Za-z])Q[1-4](?![\d])|(?<!\d)\d{1,2}\s*月(?:\s*\d{1,2}\s*[日号])?(?:[上中下]旬|底|中|初)?)"
    r"[^。；\n]{0,40}?(?<!没有)(?<!未)(?<!不)(?P<what>发布|上线|开源|release|推出|落地|公开|GA|交付|放出|释出|公布|上传|推到|放到|发)"
    # The date first, as a deadline: "「这个月底前」推到 GitHub", "九月内放出来", "10 月底前开源".
    r"|(?P<when_d>(?:这个|本|下个?)月(?:底|内|中旬|上旬|下旬)|[一二三四五六七八九十]{1,3}月(?:底|内|中旬|上旬|下旬)?|"
    r"(?<!\d)\d{1,2}\s*月(?:底|内)|"
    # a day is a deadline only with 前 ("10-04 前给 benchmark"); "9-25 公布 6 起事件" happened that day
    r"(?:(?<![\d-])\d{1,2}-\d{1,2}(?![\d-])|(?<!\d)\d{1,2}\s*月\s*\d{1,2}\s*[日号])(?=\s*前))"
    r"\s*前?[」\"”']?\s*(?:就|会|要)?\s*(?P<what_d>推到|放到|发布|开源|上线|放出|释出|公开|公布|给出?(?=\s*(?:benchmark|数字|数据|结果|代码|权重|numbers|results|code|weights)))"
    # Passive: "weights are expected to be released in Q1 2027".
    r"|\b(?P<lead_p>(?:is|are) (?:expected|scheduled|planned|due) to be)\s+(?P<what_p>released|shipped|published|"
    r"open[- ]sourced|launched)\b[^.;\n]{0,30}?\b(?:in|by|on|for)\s+(?P<when_p>" + _EN_WHEN + r")"
    # English: "plans to release … in March 2027", "will ship by 2027-03", "targeting a Q2 2027 release".
    r"|\b(?P<lead_en>plans? to|will|expects? to|aims? to|is scheduled to|are scheduled to|promis(?:es|ed) to)\s+"
    r"(?:\w+\s+){0,3}?(?P<what_en>ship|release|open[- ]source|launch|publish|be out|be available|post|share|open|land|"
    r"merge|upload|put out)\w*\b[^.;\n]{0,40}?\b(?:in|by|on|for|before)\s+"
    r"(?P<when_en>" + _EN_WHEN + r")"
    # The thing first, then its date: "RC planned for 2026-10-02", "artifact release scheduled for Oct 20".
    r"|\b(?P<what_n>RC|release|GA|launch|code|weights|artifacts?(?: release)?|(?:benchmark )?numbers|results|PR)\s+"
    r"(?:is\s+|are\s+)?(?P<lead_n>planned|scheduled|slated|due|expected|targeted)\s+(?:for|by|on|in|before)\s+"
    r"(?P<when_n>" + _EN_WHEN + r")"
    r"|\btarget(?:s|ing|ed)?\s+(?:an?\s+|the\s+)?(?P<when_t>" + _EN_WHEN + r")\s+(?P<what_t>release|launch|ship date)"
    # "targeting upstream merge by 2026-09-25": what is targeted, then its date
    r"|\btarget(?:s|ing|ed)?\s+(?:\w+\s+){0,2}?(?P<what_t3>merge|release|launch|GA|ship|availability)\w*\s+"
    r"(?:by|in|on|for|before)\s+(?P<when_t3>" + _EN_WHEN + r")"
    # "the fix will land in v0.6.3, targeting 9/26": a target date after what is promised
    r"|\b(?P<what_t2>fix|release|patch|version|v\d[\w.]*)\b[^.;\n]{0,40}?\btarget(?:s|ing|ed)?\s+(?P<when_t2>" + _EN_WHEN + r")",
    re.IGNORECASE,
)
# The author says the figures on this line are not to be compared ("不是一回事，不能合并").
# A line stating the set-up of a section's measurements: "- 条件：单卡 H100 80GB · BF16 · 并发 32", "Setup: …".
_SETUP_LINE = re.compile(r"^\s*(?:[-*•]\s*)?(?:\*\*)?(?:条件|测试条件|实验条件|环境|测试环境|配置|setup|conditions?|"
                         r"environment|testbed|hardware)(?:\*\*)?\s*[：:]", re.IGNORECASE)
_BASELINE_LINE = re.compile(r"对照组?(?:都|均|全)?(?:是|为)\s*[A-Za-z]|\b(?:all )?against (?:the )?[A-Z][\w.-]+ baseline\b|"
                            r"\bbaselines? (?:is|are)\s+[A-Z]", re.IGNORECASE)
_CREDIBILITY = re.compile(r"(★{1,5}|⭐{1,5}|⚠[⚠⚬]*)")
_SENTENCE_END = re.compile(r"[。！？；;]|(?<=[a-z0-9])\.\s")


@functools.lru_cache(maxsize=8)
def _sentence_ends(line: str) -> tuple[list[int], list[int]]:
    """(starts, ends) of the sentence ends in ``line``, found once per line (issue 9: per figure was quadratic)."""
    spans = [match.span() for match in _SENTENCE_END.finditer(line)]
    return [s for s, _ in spans], [e for _, e in spans]


def sentence_at(line: str, start: int, end: int) -> str:
    """Return the sentence of ``line`` that holds ``line[start:end]``, trimmed to 300 characters."""
    starts, ends = _sentence_ends(line)
    before = bisect.bisect_right(ends, start)  # the last sentence end that closes at or before ``start``
    begin = ends[before - 1] if before else 0
    after = bisect.bisect_left(starts, end)  # the first sentence end that opens at or after ``end``
    stop = ends[after] if after < len(ends) else len(line)
    sentence = line[begin:stop].strip(" -•*|\t")
    return sentence if len(sentence) <= 300 else sentence[:297] + "…"


def _note_day(source: str) -> date | None:
    """The date in a note's file name (``2026-11-03-…``), for dates written without a year."""
    match = re.match(r"(\d{4}-\d{2}-\d{2})", source.rsplit("/", 1)[-1])
    try:
        return date.fromisoformat(match.group(1)) if match else None
    except ValueError:
        return None


_CN_MONTH = re.compile(r"([一二三四五六七八九十]{1,3})月")


def _cn_number(text: str) -> int:
    """一 … 十二 as a number ("九" 9, "十一" 11)."""
    digits = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
    if text.startswith("十"):
        return 10 + digits.get(text[1:], 0)
    return digits.get(text[0], 0) * (10 if text.endswith("十") and len(text) > 1 else 1) + (
        digits.get(text[2:], 0) if "十" in text[1:2] else 0)


def _year_of(month: int, written: date) -> int:
    """The year of a month named without one: the next such month after the note was written, unless it
    ended less than three months before (a deadline just gone, overdue this year)."""
    return written.year + (1 if month < written.month - 2 else 0)


def _due_of(when: str, written: date | None = None) -> tuple[str, str] | None:
    """(as written, last day due) of a promise's date; a date without a year is the next one after
    the note was written (``written``, from its file name) unless its month ended less than three months
    before (a deadline just gone: overdue this year), else not a date at all."""
    compact = when.lower().replace(" ", "")
    lowered = when.lower()
    half = re.fullmatch(r"(\d{4})年([上下])半年", compact)
    if half:
        return f"{half.group(1)}-H{1 if half.group(2) == '上' else 2}", \
            f"{half.group(1)}-{'06-30' if half.group(2) == '上' else '12-31'}"
    compact = _CN_MONTH.sub(lambda m: f"{_cn_number(m.group(1))}月", compact)
    relative = re.fullmatch(r"(这个|本|下个?)月(底|内|中旬|上旬|下旬)?", compact)
    if relative and written is not None:  # "这个月底": the note's month; "下个月": the next one (its year below)
        month = written.month + (0 if relative.group(1) in ("这个", "本") else 1)
        compact = f"{(month - 1) % 12 + 1}月{relative.group(2) or ''}"
    compact = compact.replace("月内", "月底")
    # "10-04", "oct4", "october12": a day written without its year
    dashed = re.fullmatch(r"(\d{1,2})[-/](\d{1,2})", compact)
    named_day = re.fullmatch(r"([a-z]{3})[a-z]*\.?(\d{1,2})", compact)
    if dashed:
        compact = f"{int(dashed.group(1))}月{int(dashed.group(2))}日"
    elif named_day and named_day.group(1) in _MONTH_NAMES:
        compact = f"{_MONTH_NAMES.index(named_day.group(1)) + 1}月{int(named_day.group(2))}日"
    day_of_month = re.fullmatch(r"(\d{1,2})月(\d{1,2})[日号]", compact)
    if day_of_month and written is not None:  # "10 月 20 日": that day
        month, dom = int(day_of_month.group(1)), int(day_of_month.group(2))
        year = _year_of(month, written)
        try:
            when = date(year, month, dom).isoformat()
        except ValueError:
            return None
        return when, when
    yearless = re.fullmatch(r"q([1-4])|(\d{1,2})月([上中下]旬|底|中|初)?", compact)
    if yearless:
        if written is None:
            return None
        month = int(yearless.group(1)) * 3 if yearless.group(1) else int(yearless.group(2))
        if not 1 <= month <= 12:
            return None
        year = _year_of(month, written)
        # "10 月中旬" is due by the 20th, "上旬" / "月初" by the 10th; "下旬" / "月底" by the month's end.
        part = {"上旬": 10, "初": 10, "中旬": 20, "中": 20}.get(yearless.group(3) or "")
        if part is not None:
            when = date(year, month, part).isoformat()
            return f"{year}-{month:02d}{yearless.group(3)}", when
        when = f"{year}-Q{yearless.group(1)}" if yearless.group(1) else f"{year}-{month:02d}"
        lowered = when.lower()
    quarter = re.search(r"q([1-4])", lowered)
    year = re.search(r"\d{4}", lowered)
    if quarter and year:  # a quarter is due at its last month's end
        month = int(quarter.group(1)) * 3
        last = calendar.monthrange(int(year.group(0)), month)[1]
        return f"{year.group(0)}-Q{quarter.group(1)}", f"{year.group(0)}-{month:02d}-{last:02d}"
    named = next((i for i, m in enumerate(_MONTH_NAMES, start=1) if re.match(m, lowered)), None)
    if named and year:
        when = f"{year.group(0)}-{named:02d}"
    digits = [int(part) for part in re.findall(r"\d+", when)]
    if len(digits) < 2 or not 1 <= digits[1] <= 12:
        return None
    year, month = digits[0], digits[1]
    if len(digits) >= 3:
        return f"{year:04d}-{month:02d}-{digits[2]:02d}", f"{year:04d}-{month:02d}-{digits[2]:02d}"
    last = calendar.monthrange(year, month)[1]
    return f"{year:04d}-{month:02d}", f"{year:04d}-{month:02d}-{last:02d}"


# The thing a section heading is about: its first name with a capital, a digit or a hyphen inside ("TierPilot").
_HEADING_NAME = re.compile(r"(?<![\w-])[A-Za-z][a-z0-9]*(?:[A-Z0-9-][\w.+-]*)+|(?<![\w-])[A-Z][a-z]{3,}(?![\w-])")
# Where something is said, not what it is about: a promise "in a GitHub issue" is not GitHub's.
PLATFORM = re.compile(r"GitHub|GitLab|HF|HuggingFace|Hugging|Face|arXiv|Twitter|Reddit|Discord|Slack|README|CSDN|Zhihu|"
                      r"HN|Hacker|News|Medium|Substack|YouTube|LinkedIn|Weibo|WeChat|Blog|Issue|PR|TODO|FYI|TBD|WIP|NOTE|DONE",
                      re.IGNORECASE)
METRIC_ALIASES = {"吞吐": "throughput", "tok/s": "throughput", "req/s": "throughput", "延迟": "latency", "加速": "speedup", "命中率": "hit", "配置": "锚点", "memory": "显存"}

# A line where a scout vouches that figures come from one set-up ("同一配置下", "同一组实验", "same benchmark run",
# "apples to apples"): the scout compared the conditions, so a condition only one source states does not part them.
SAME_SETUP = re.compile(
    r"同一(?:个|套|组|次|轮|份)?\s*(?:配置|设置|实验|测试|环境|条件|口径|负载|benchmark|bench|run|setup|跑分|测法)|"
    r"同(?:配置|口径|条件|环境|负载)下?|(?:配置|设置|条件|环境|口径)(?:完全|都|也)?(?:一样|相同|一致)|"
    r"同样的(?:配置|设置|条件|环境|负载)|"
    r"\b(?:same|identical)\s+(?:benchmark\s+)?(?:setup|set-up|config(?:uration)?|run|conditions|workload|harness|testbed)\b|"
    r"\bapples[- ]to[- ]apples\b", re.IGNORECASE)
# "不是同一配置", "并非同一组实验", "not the same setup", "配置不一样": the opposite of a vouch.
_SAME_SETUP_DENIED = re.compile(r"(?:不是|并非|非|不|没有?|未必|不一定|not|n't|never|nor)\s*(?:the\s+|an?\s+)?$", re.IGNORECASE)


# "vLLM 同配置 5,020 tok/s", "same setup: vLLM 12,100": a baseline measured under the item's own set-up, said with
# its figure; it compares the item with a baseline, it does not vouch that two sources measured one set-up.
_BASELINE_AFTER = re.compile(r"\s*(?:下|时|中|里)?\s*[:：,，]?\s*(?:(?!(?:for|between|of|with|on|in)\b)[A-Za-z][\w.-]*\s*){0,2}"
                             r"[~≈约]?\s*\d", re.IGNORECASE)


# A scout saying figures agree closely: "口径还算接近", "基本一致", "85 只比 80 高一点", "close enough".
SAID_CLOSE = re.compile(r"还算接近|比较接近|基本一致|相差不大|只比[^，。；;\n]{0,12}?(?:高|低|多|少)一点|"
                        r"\bclose enough\b|\broughly (?:the same|agree)\b|\bonly slightly (?:higher|lower)\b", re.IGNORECASE)


def vouches_same_setup(line: str) -> bool:
    """The line says two figures come from one set-up, and does not deny it, nor give a baseline's figure."""
    return any(not _SAME_SETUP_DENIED.search(line[max(0, m.start() - 8):m.start()])
               and not _BASELINE_AFTER.match(line, m.end())
               for m in SAME_SETUP.finditer(line))


_AS_MULTIPLE = re.compile(
    r"(" + "|".join(re.escape(m) for m in sorted(METRICS, key=len, reverse=True)) + r")\s*(?:是|为|达到?|提升到|变为|is|was|reaches)\s*"
    r"[^，。；;,]{0,48}?(?:基线|基准|对照组?|原来|之前|旧版|baseline|the baseline)[^，。；;,]{0,6}?(?:的|'s)?\s*$",
    re.IGNORECASE)


_ARROW_BEFORE = re.compile(r"(\d[\d.,]*\s*(?:[A-Za-z%×]+|秒|毫秒)?)\s*(?:→|->|⇒|=>|⟶)\s*[^\d→\n]{0,24}$")


_LINE_HEAD = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)、])?\s*([^：:\n]{2,60}?)[：:]")
_OVER_BASELINE = re.compile(r"(?:相对|相比|对比|较)(?:于)?[^，。；;]{0,30}?(?:基线|基准|baseline|对照)[^，。；;\d]{0,8}$", re.IGNORECASE)
_OVER_BASELINE_AFTER = re.compile(r"\s*(?:over|vs\.?|versus|relative to|compared (?:to|with))\s+(?:the\s+)?[\w -]{0,30}?"
                                  r"baseline", re.IGNORECASE)


def nearest_metric(context: str, pos: int, end: int) -> str | None:
    """The metric a figure at ``context[pos:end]`` measures: the nearest metric word just before it, or one
    written right after it ("85ms TTFT"); names are normalised (吞吐 → throughput)."""
    best: tuple[float, str] | None = None
    lowered = context.lower()
    for metric in METRICS:
        for match in re.finditer(re.escape(metric.lower()), lowered):
            if pos <= match.start() < end:
                continue  # the unit itself ("tok/s")
            if match.end() <= pos and pos - match.end() <= 20:
                distance = float(pos - match.end())
            elif match.start() >= end and match.start() - end <= 3 and not context[end:match.start()].strip():
                distance = match.start() - end + 0.5  # a metric written after its figure ("85ms TTFT")
            else:
                continue
            if best is None or distance < best[0]:
                best = (distance, metric)
    if best is None:
        # "P99 TTFT：HBM-only 1.92 s → Tidewater 三层 0.74 s": the after figure of a before → after pair measures
        # what the before figure does.
        before = _ARROW_BEFORE.search(context, 0, pos)
        if before is not None:
            return nearest_metric(context, before.start(1), before.end(1))
        # "decode 吞吐是"只用 CPU DRAM 做 offload"基线的 3.1×": a metric said to be a multiple of its baseline.
        ratio = _AS_MULTIPLE.search(context[:pos])
        if ratio is None:
            return None
        best = (0.0, ratio.group(1))
    return METRIC_ALIASES.get(best[1], best[1].lower())


def _number(text: str) -> float:
    return float(text.replace(",", ""))


# A source with more mentions than this is no note a person wrote for the team: a pasted log, a dump,
# a hostile file. Its first mentions are kept and the source is listed as cut with the reason (issue 9).
# Nearly three times the busiest file of a real vault (an earlier brief, ~700); with files capped at 2 MB
# it bounds the scan's memory and time.
MAX_MENTIONS_PER_SOURCE = 2_000


def extract_source_mentions(source: str, text: str, first_line: int = 1,
                            limit: int = MAX_MENTIONS_PER_SOURCE) -> tuple[list[Mention], str | None]:
    """The first ``limit`` mentions of ``text`` (the body of ``source``), and why it was cut (None: it was not).

    ``first_line``: the file line ``text`` starts on (after front matter), so that every mention
    cites the line a reader finds in the file. Extraction stops at the line where the cap is
    reached: the work is linear in the text read, never in the mentions the rest would give.
    """
    found, stopped_at = _extract(source, text, limit)
    _mark_partial_sections(found, text)
    if first_line != 1:
        for mention in found:
            mention.line += first_line - 1
    if stopped_at is None:
        return found, None
    return found, (f"提及条目已达上限 {limit:,}（mentions capped）：抽取停在第 {stopped_at + first_line - 1:,} 行，"
                   f"其后内容未检索")


def _mark_partial_sections(mentions: list[Mention], text: str) -> None:
    """Every mention of a section saying a release kept only part of a promise carries that line
    (``detail["partial"]``): a line there saying "released" is then evidence of a part, not of the whole."""
    if not PARTIAL.search(text):
        return  # the common case, on every source read: one scan, no sections
    lines = text.split("\n")
    bounds = heading_spans(lines)
    said = {start: partial_in(lines[start:end]) for start, end in bounds}
    if not any(said.values()):
        return
    for mention in mentions:
        start = max(s for s, _ in bounds if s <= mention.line - 1)
        found = said[start]
        if found is not None:
            mention.detail = {**mention.detail, "partial": found.line, "half": found.half}


def _with_body(heading: str, lines: list[str], index: int, size: int = 3) -> str:
    """A flagged heading and the first ``size`` lines of its section, as one quote."""
    body = []
    for line in lines[index:]:
        if line.lstrip().startswith("#"):
            break
        if line.strip() and not is_rule_row(line):
            body.append(line.strip().lstrip("-*• ").strip())
        if len(body) == size:
            break
    return "：".join([heading.rstrip("：: "), "；".join(body)]) if body else heading


def extract_mentions(source: str, text: str, first_line: int = 1) -> list[Mention]:
    """Extract the mentions of ``text`` line by line, at most ``MAX_MENTIONS_PER_SOURCE`` (see above)."""
    return extract_source_mentions(source, text, first_line)[0]


# A section's rank or slot, not a name: "Tier1-A", "Top15", "P0", "Q3".
RANK_LABEL = re.compile(r"(?:tier|top|rank|p|q|part|step)[-_ ]?\d+(?:[-_.]?[A-Za-z0-9]{1,2})?", re.IGNORECASE)
# The promiser said as the subject's people: "作者在 issue 里回复", "维护者说", "the authors say".
_BACKREF = re.compile(r"作者|维护者|开发团队|官方|\bthe (?:authors?|maintainers?|team|devs|developers)\b", re.IGNORECASE)


def _title_name(title: str) -> str | None:
    """The name a note's title gives what it reads: the lead of a paper title ("PrefixGuard: Timing-Safe …"),
    else its first name that is not a platform."""
    lead = re.search(r"([A-Za-z][\w.+-]*[A-Za-z0-9])\s*[:：]\s*[A-Z]", title)
    if lead and _HEADING_NAME.fullmatch(lead.group(1)):
        return lead.group(1)
    parts = [p.strip() for p in re.split(r"\s+[·|]\s+", title)]
    if len(parts) > 1 and re.fullmatch(r"[A-Za-z][\w-]*", parts[0]):
        title = " · ".join(parts[1:])  # "flyP · 精读 · ShardLake（…）": the first part is the author
    return next((n for n in _HEADING_NAME.findall(title) if not PLATFORM.fullmatch(n)), None)


def _extract(source: str, text: str, limit: int) -> tuple[list[Mention], int | None]:
    """The mentions, and the line where ``limit`` was passed (None when the text gave fewer)."""
    mentions: list[Mention] = []
    written = _note_day(source)
    header: list[str] = []
    previous = ""
    heading, to_verify = "", False
    title_name: str | None = None  # the name the note's title gives its subject ("# 精读 · PrefixGuard: …")
    setup = ""  # the section's "条件：…" line: the set-up its figures were measured under
    baseline = ""  # the section's "对照组都是 X" line: what its figures are measured against
    lines = text.split("\n")
    for index, line in enumerate(lines, start=1):
        if not line.strip():
            previous = line
            continue
        if line.lstrip().startswith("#"):
            heading = line.strip().lstrip("#").strip()
            baseline = ""
            if re.match(r"\s{0,3}#\s", line) and title_name is None:
                title_name = _title_name(heading)
            to_verify = bool(LIST_HEADING.match(line))
            setup = ""
        elif _SETUP_LINE.match(line):
            setup = line.strip()[:200]
        elif _BASELINE_LINE.search(line):
            baseline = line.strip()[:200]  # "（对照组都是 EAGLE-3 固定 k=4）" over a table or a list: its figures' baseline
        elif to_verify and re.match(r"^\s*(?:[-*•]|\d+[.)、])\s+\S", line) and not find_caveats(line):
            # An item of a "待核清单" is a claim to verify though it says so only in the heading.
            mentions.append(Mention(source=source, kind="caveat", value="待核实", raw=line.strip()[:300], line=index,
                                    context=line.strip().lstrip("-*• ")[:300], detail={"heading": heading[:200],
                                                                                       "marks": None}))
        url_spans = []
        for url, start, end in find_urls(line):
            url_spans.append((start, end))
            mentions.append(Mention(source=source, kind="url", value=normalize_url(url), raw=url, line=index,
                                    context=sentence_at(line, start, end), detail={"raw": url}))
        for ref in find_arxiv_refs(line):
            mentions.append(Mention(
                source=source, kind="arxiv", value=ref.id, raw=ref.raw, line=index,
                context=line.strip()[:300],
                detail={"version": ref.version, "malformed": ref.malformed, "reason": ref.reason,
                        "in_url": any(s <= ref.start < e for s, e in url_spans), "heading": heading[:200]},
            ))
        for match in _VERSION.finditer(line):
            version = match.group("ver")
            product = version_product(line, match.start())
            if product is None or re.fullmatch(r"\d{4}\.\d{4,5}", version):
                continue  # a bare number, or an arXiv number
            mentions.append(Mention(
                source=source, kind="version", value=f"{product} {version.lstrip('vV')}", raw=match.group(0),
                line=index, context=sentence_at(line, match.start(), match.end()),
                detail={"product": product, "version": version, "date": match.group("date"), "start": match.start()},
            ))
        table_row = is_table_row(line)
        if is_rule_row(line) and previous.strip().startswith("|"):
            header = row_cells(previous)
        elif not line.strip().startswith("|"):
            header = []
        apart = bool(NOT_COMPARABLE.search(line))  # once per line: per figure it was quadratic (issue 9)
        for match in _FIGURE.finditer(line):
            if any(s <= match.start() < e for s, e in url_spans):
                continue
            sentence = sentence_at(line, match.start(), match.end())
            offset = max(sentence.find(match.group(0).strip()), 0)
            unit = match.group("unit")
            detail = {"number": _number(match.group("num")),
                      "high": _number(match.group("high")) if match.group("high") else None,
                      "unit": unit,
                      "metric": nearest_metric(sentence, offset, offset + len(match.group(0).strip())),
                      "start": match.start()}
            if detail["metric"] is None and unit in ("×", "x", "倍") and _OVER_BASELINE.search(sentence[:offset]):
                # "端到端相对不开投机的基线 2.1×", "2.1× over the baseline": a multiple of a baseline is a speedup.
                detail["metric"] = "speedup"
            elif detail["metric"] is None and unit in ("×", "x", "倍") and _OVER_BASELINE_AFTER.match(
                    sentence, offset + len(match.group(0).strip())):
                detail["metric"] = "speedup"
            if unit in _CAPACITY and _SPEC_BEFORE.search(line[:match.start()]):
                detail["spec"] = True
            if table_row:
                # A figure in a table row: its row, its cell and the header of its column.
                column = line[:match.start()].count("|") - (1 if line.lstrip().startswith("|") else 0)
                cells = row_cells(line)
                detail["table"] = {"row": cells, "column": column,
                                   "header": header[column] if 0 <= column < len(header) else "",
                                   "first_header": header[0] if header else "", "headers": list(header)}
            if setup and not table_row:
                detail["setup"] = setup
            if baseline:
                detail["baseline"] = baseline
            if heading and not table_row:
                detail["heading"] = heading[:200]
            head = _LINE_HEAD.match(line)
            if head and head.end() <= match.start() and not sentence.startswith(head.group(1).strip()):
                # "- #2 2610.00731 Draft Once（卡 1566）：…。我翻了表 2：…2.1×": the line's head, which its sentence lost.
                detail["lead"] = head.group(1).strip()[:120]
            mentions.append(Mention(
                source=source, kind="figure", value=match.group(0).strip(), raw=match.group(0), line=index,
                context=sentence, detail={**detail, "apart": apart},
            ))
        for match in _PROMISE.finditer(line):
            due = _due_of(match.group("when") or match.group("when_en") or match.group("when_t")
                          or match.group("when_p") or match.group("when_d") or match.group("when_n")
                          or match.group("when_t2") or match.group("when_t3"), written)
            if due is None:
                continue
            sentence = sentence_at(line, match.start(), match.end())
            # The sentence alone often leaves out who promises ("…研究团队计划于 2026-09 发布…"): the
            # line's first clause names the item the note is about.
            head = re.split(r"[，,。；;：:]", line.strip().lstrip("-*•>#").strip(), maxsplit=1)[0].strip()
            if head and not sentence.startswith(head) and len(head) <= 60:
                sentence = f"{head}…{sentence}"
            # Under "## TierPilot：…" a line about "the authors" promises for TierPilot: the section names it.
            named = [n for n in _HEADING_NAME.findall(re.sub(r"§\S+|arXiv\S*|\d{4}\.\d{4,5}\S*", " ", heading))
                     if not RANK_LABEL.fullmatch(n)]
            name = named[0] if named and not PLATFORM.fullmatch(named[0]) else title_name
            own = [n for n in _HEADING_NAME.findall(sentence) if not PLATFORM.fullmatch(n)]
            back = _BACKREF.search(sentence)
            # "作者在 issue 里回复：vLLM 集成 PR will open …": the authors of the section's subject promise, vLLM is
            # where the PR goes.
            if back is not None:
                own = [n for n in own if sentence.find(n) < back.start()]
            if name and not own:
                sentence = f"{name}：{sentence}"
            mentions.append(Mention(
                source=source, kind="promise", value=due[0], raw=match.group(0), line=index,
                context=sentence,
                detail={"due": due[1], "what": match.group("what") or match.group("what_en") or match.group("what_t")
                        or match.group("what_p") or match.group("what_d") or match.group("what_n")
                        or match.group("what_t2") or match.group("what_t3")},
            ))
        for caveat in find_caveats(line):
            # A caveat in a table row is quoted as the row said in words, its columns named; a heading the
            # scout flags is quoted with the first lines under it (what the flag is about).
            claim = row_sentence(row_cells(line), header) if table_row and header else caveat.claim
            if line.lstrip().startswith("#"):
                claim = _with_body(claim, lines, index)
            # A line listing several items ("#4 A …；#9 B … ⚠⚬⚬"): the mark qualifies the clause it ends.
            marked = [c.strip() for c in re.split(r"[；;]", claim) if "⚠" in c]
            # (Only where that clause names its item: "conditions not stated ⚠⚬" is about the line's.)
            if not line.lstrip().startswith("#") and len(marked) == 1 and len(re.split(r"[；;]", claim)) > 1 \
                    and len(marked[0]) >= 12 and re.search(r"[A-Z][A-Za-z0-9.-]+|卡\s*\d", marked[0].split("⚠")[0]):
                claim = marked[0]
            mentions.append(Mention(source=source, kind="caveat", value=caveat.label, raw=line.strip()[:300],
                                    line=index, context=claim[:300],
                                    detail={"heading": heading[:200], "marks": caveat.marks}))
        if vouches_same_setup(line):  # "两个数是同一配置下跑的": the scout compared the set-ups
            mentions.append(Mention(source=source, kind="setup", value="同一配置", raw=line.strip()[:300], line=index,
                                    context=line.strip()[:300], detail={"heading": heading[:200]}))
        if SAID_CLOSE.search(line):  # "其实 SGLang 这边口径还算接近（85 只比 80 高一点）": the scout weighs figures
            mentions.append(Mention(source=source, kind="close", value="口径接近", raw=line.strip()[:300], line=index,
                                    context=line.strip()[:300]))
        if is_instruction(line):
            mentions.append(Mention(source=source, kind="instruction", value=line.strip()[:300], raw=line.strip(),
                                    line=index, context=line.strip()[:300]))
        for match in _CREDIBILITY.finditer(line):
            mentions.append(Mention(source=source, kind="credibility", value=match.group(0), raw=match.group(0),
                                    line=index, context=line.strip()[:200]))
        previous = line
        if len(mentions) > limit:
            return mentions[:limit], index
    return mentions, None
