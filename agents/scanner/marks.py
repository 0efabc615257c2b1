"""The scouts' own marks on an item: discarded, carried, where it belongs, forwarded, only adjacent, rated.

The team marks its judgement inline, in Chinese or English, and a brief must
follow it: ``丢弃：…`` / ``（丢弃）`` / ``discarded``; ``沿用`` / ``续立`` / ``carried
over`` (nothing new); ``已锚入`` / ``已锚`` / ``already anchored`` (anchored,
maybe with news); ``归入：training §数据管线``
/ ``建议归入：§1.(3) KV Cache`` / ``file under serving §2``; ``（转 lin
training）`` / ``交 training`` / ``forward to serving``; ``serving
主轴仅邻接`` / ``only adjacent to serving``; ⭐ / ★ ratings.

A mark counts only where it is a *status* of the thing on that line: at the
start of a heading, bullet or table cell, or in brackets after the item, never
inside running prose ("KV 丢弃策略", "立标规则沿用" are words, not marks).
This module reads marks from lines; which lines belong to an item is the
integrator's business.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from agents.scanner.instructions import is_instruction

__all__ = ["Mark", "MarkKind", "read_marks", "placement_topic", "stars_of"]

MarkKind = Literal["discard", "carried", "anchored", "minor", "placed", "forwarded", "arrow", "adjacent", "rating",
                   "incidental", "netnew"]

# Where a status word stands as a status: start of a line/heading/bullet/cell, after an arrow, or in brackets.
_LEAD = r"(?:^(?:\s*(?:[-*•>]|\d{1,2}[.)、])\s+)?|[|（(\[【，,；;]|→|->|=>|——|—|[：:]\s*|(?<=\s)[-*•]\s+|^\s*#{1,6}\s*(?:§?[\w.]+\s+)?)\s*"
_DISCARD = re.compile(_LEAD + r"(?:结论|判定|处理|决定|verdict)?\s*[：:]?\s*(?:丢弃|弃用|不收录?|不入选|剔除|排除|"
                      r"不单列|不另列|不重复记|不作增量|丢(?![\u4e00-\u9fff])|discard(?:ed)?|dropped|skip(?:ped)?|not (?:kept|included|listed separately))(?=\s*[：:（()）\]】|,，。;；\s]|$)",
                      re.IGNORECASE | re.MULTILINE)
_CARRIED = re.compile(r"(?:" + _LEAD + r"|(?<=\s)(?=\d{1,2}-\d{1,2}\s*(?:沿用|续用|续立)))"
                      r"(?:\d{1,2}-\d{1,2}\s*)?(?:沿用|续用|续立|承接稳态|"
                      r"不是新增量|非新增量|不算新增|不算增量|不计入?增量|不作为增量|不算(?:作|做)增量|"
                      r"carried(?: over| forward)?|unchanged since|nothing new|not new|not an increment|no increment)(?=[\s：:）)\]】|,，。;；\d]|$)",
                      re.IGNORECASE | re.MULTILINE)
_ANCHORED = re.compile(_LEAD + r"(?:\d{1,2}-\d{1,2}\s*)?(?:已锚入?|已锚定|已收录|already anchored|already in the (?:living )?doc)"
                       # not "已锚 awesome-jev、JevOut": a list of what is anchored names other things
                       r"(?=[：:（(）)\]】|,，。;；\d]|$|\s*$|\s+(?:[§（(\d|：:;；,，。]|v\d|于|在|(?:in|at|under|since|as)\b))",
                       re.IGNORECASE | re.MULTILINE)
# The scout says the item brings nothing new, wherever on its line: "没有新结论，价值在于又一个独立源",
# "结论不变", "no new findings, just another source". Carried, like 沿用.
_NOTHING_NEW = re.compile(r"(?<![是否])(?:没有|没|无|并无|并没有)(?:什么)?新(?:的)?(?:结论|发现|东西|内容|信息|观点|数据|数字)|结论(?:不变|没变|未变)|"
                          r"\bno new (?:findings?|conclusions?|results?|insights?|information|claims?)\b|\bnothing new\b",
                          re.IGNORECASE)
# The scout finds little new in it, though nothing anchored: "综述类，新意一般", "结论没什么意外", "incremental at best".
# A compilation, not a contribution: "不是研究贡献，是整理", "算不上新工作，属于汇总", "a roundup, not research".
_MINOR = re.compile(r"新意(?:一般|不大|有限|不多|很少)|没(?:什么|啥)新意|无新意|结论没(?:什么|啥)意外|"
                    # supporting evidence of another item, not one of its own: "只当旁证", "only as corroboration"
                    r"(?:只|仅)(?:当|作|能当|能算|算|供)(?:作|为)?旁证|算(?:个)?旁证|作为旁证|"
                    r"\b(?:only|just) (?:as )?(?:side|supporting) evidence\b|\bonly as corroboration\b|\bcorroboration only\b|"
                    r"(?:不是|并非|算不上|不算)(?:什么)?(?:新的?)?(?:研究|原创|新)(?:贡献|工作|成果|方法)|"
                    r"\b(?:little|nothing) novel\b|\bincremental at best\b|\blow novelty\b|"
                    r"\bnot (?:a |any )?(?:new |novel )?(?:research|original) (?:contribution|work|result)|"
                    r"\b(?:a|just a|only a) (?:roundup|compilation|summary),? not (?:new )?research\b", re.IGNORECASE)
# A note that says of itself, before its sections, that it brings no new data: a reading guide, not a
# result ("都是读代码笔记型，没有新数据"). Said of the note, not of the papers a line names.
NO_NEW_DATA = re.compile(r"(?:没有|没|无|并无)(?:什么)?新(?:的)?(?:数据|数字|实测|测试结果)|"
                         r"\bno new (?:data|numbers|measurements|benchmarks?)\b", re.IGNORECASE)
# The scout finds the item agrees with what is anchored: "数字沿用 15:05", "和我们 9-27 决策树基本一致",
# "matches what the living doc already says". Anchored, not NET-new (new figures still make it an integration).
_CONSISTENT = re.compile(r"(?:数字|结论|数据|口径)沿用|(?:和|与|跟)(?:我们|活文档|已锚|之前|上周|\d{1,2}-\d{1,2})[^，。；;\n]{0,16}?"
                         r"(?<![不没未])(?:基本|完全|大体)?一致|\b(?:matches|consistent with) (?:what )?(?:the living doc|our (?:anchored|earlier))",
                         re.IGNORECASE)
# The scout says the item's parts are anchored already, anywhere on its line: "9-27 / 9-28 我们零散锚过 A、B",
# "these pieces are already in the living doc". Anchored, not NET-new. ("Mooncake、llm-d 活文档都有，这篇补的是
# 生产数字" says the components are kept, not the paper: no mark.)
_ANCHORED_BEFORE = re.compile(r"(?:我们|活文档|之前|此前|已经|早就|都|分别|零散)[^，。；;\n没未不]{0,10}?(?<![没未不])锚过|"
                              r"原来怎么锚的?还怎么锚|照(?:原来|旧)的?(?:锚|写)法?|锚(?:法|点)不变|"
                              r"\b(?:anchor(?:ed)? as before|keep the (?:existing )?anchor)\b|"
                              r"\b(?:already|all) (?:covered|in) (?:by |in )?(?:the |our )?living doc|"
                              r"\bwe(?:'ve| have) (?:already )?anchored\b|"
                              # "这是 9-25 进活文档那条 X 的续篇，不是新系统": a sequel of an anchored entry
                              r"(?:进|入|写进|锚进|锚入)(?:了)?活文档(?:的)?(?:那|这)(?:条|一条|个)[^，。；;\n]{0,30}?(?:的)?"
                              r"(?:续篇|后续|续集|跟进|延续|更新版?)|不是新(?:的)?(?:系统|东西|论文|项目|条目|工作)|"
                              r"\b(?:a|the) (?:follow-up|sequel|continuation) (?:to|of) the (?:anchored|existing|earlier) "
                              r"(?:entry|item|system)\b|\bnot a new (?:system|paper|project|item)\b", re.IGNORECASE)
_PLACED = re.compile(r"(?:建议)?归入(?:章节)?\s*[：:]\s*(?P<target>[^\n；;。]+)|"
                     r"\b(?:file|filed|belongs?) (?:it )?(?:under|in|to)\s*[：:]?\s*(?P<en>[^\n;.]+)", re.IGNORECASE)
# A line about another piece on the item ("CSDN 上也有一篇中文解读…只是翻译 README，不单列", "另有一篇转载，丢弃"):
# its verdict is that piece's, not the item's.
_OTHER_PIECE = re.compile(r"(?:也|另|还)有(?:一篇|一个|一份|篇|个)|另一篇|中文解读|译文|转载|搬运|"
                          r"\balso a\b|\banother (?:post|write-?up|translation)\b", re.IGNORECASE)
# The scout judges the item new to the document: "我算 NET-new", "→ 算 NET-new", "是 NET-new", "counts as NET-new";
# not "不算 NET-new", "不重复计 NET-new".
_NET_NEW = re.compile(r"(?:算|是|属于?|记为?|→|->)\s*(?:一条\s*)?NET-new|\bcounts? as NET-new\b|\bis NET-new\b",
                      re.IGNORECASE)
_NOT_NEW_BEFORE = re.compile(r"(?:不|非|没|别|并非|不重复|不是|not|n't)\s*(?:重复)?\s*(?:计|算)?\s*$", re.IGNORECASE)
# A section named as where the item goes, without "归入：": "→ 算 NET-new，§1.(8)", "归 §2.3", "放进 §4.1".
_PLACED_SECTION = re.compile(r"(?:→|->|=>|归|放进?|挂到|进)\s*(?:我|就|可以)?\s*(?:算\s*)?(?:NET-new|新增|增量)?\s*[，,：:]?\s*"
                             r"(?P<sec>§\s?\d+(?:\.\d+)*\.?(?:[（(]\d+[)）])?(?:\.\d+)?)(?![\w.])", re.IGNORECASE)
_FORWARD = re.compile(r"(?:^|[\s（(，,；;\u4e00-\u9fff])(?:转(?:给|交)?|交给?|移交|保留给|forward(?:ed)? to|hand(?:ed)? (?:over )?to|"
                      r"keep (?:it )?for)\s*"
                      r"(?P<who>(?:[A-Za-z][\w.-]*\s*){1,3})", re.IGNORECASE)
# A task given with the item, not the item given away: "交给 jay 下午细读", "转 tom 明天核对一下", "hand to ann to verify".
_TASK_AFTER = re.compile(r"\s*(?:(?:今|明|下|上|中)(?:天|早|午|晚)|今晚|明早|稍后|回头|晚点|下午|上午|晚上)?\s*(?:再)?"
                         r"(?:细读|精读|读一下|读全文|核对|核实|复核|复测|确认一下|跟进一下)|\s*to (?:read|verify|check|re-?run)\b",
                         re.IGNORECASE)
# A hand-over list: "转交：§3 / §6 / §7 → stephen", "Forward: the GRPO part -> flyp".
_FORWARD_LIST = re.compile(r"(?:转交|转给|移交|交给|forward(?:ed)?(?:\s+list)?|hand(?:ed)?[- ]over(?:\s+list)?)\s*[：:][^\n]*?(?:→|->|⇒|=>)\s*"
                           r"(?P<who>[A-Za-z][\w.-]*)", re.IGNORECASE)
# A line ending in an arrow to names: "训练集群运维 → spark llm-infra", "推理侧没变化 -> flyp". Whether it hands the
# item over depends on what the names are (a person or a topic; "vLLM → SGLang" is a migration): read in scope.
# Someone's lane: "—— tom 的线", "是 mei 那条线的", "(otto's lane)", "belongs to lin's line".
_LANE_OF = re.compile(r"(?<![\w.-])(?P<who>[A-Za-z][\w.-]*)\s*(?:的|那条|那边的?)\s*(?:线|lane)(?:的)?(?!\s*[\w\u4e00-\u9fff])|"
                      r"\b(?:belongs to|is|in)\s+(?P<en>[A-Za-z][\w.-]*)'s\s+(?:lane|line)\b", re.IGNORECASE)
_ARROW_END = re.compile(r"(?:→|->|⇒|=>)\s*(?:我的?|给|交给)?\s*(?P<who>[A-Za-z][\w.-]*(?:\s*[/、,，]?\s*[A-Za-z][\w.-]*){0,2})\s*"
                        # "→ 我 inference 线今晚收", "→ ann（评测线）": a lane word and a few words of when
                        r"(?:线|lane)?[\u4e00-\u9fff]{0,6}(?:[（(][^（）()]{0,20}[）)])?\s*[。.;；]?\s*$")
_ADJACENT = re.compile(r"(?<![A-Za-z])(?P<topic>[A-Za-z][\w.-]*)\s*(?:主轴|主题|topic)?\s*(?:仅|只|仅为|只是)?\s*邻接(?!.{0,4}登记)|"
                       r"only adjacent to\s+(?P<en>[A-Za-z][\w.-]*)|(?<![A-Za-z])(?P<pre>[A-Za-z][\w.-]*)[- ]adjacent only|"
                       # "与 serving 主轴无直接关系", "和 serving 关系不大", "跟 serving 主题无关"
                       r"(?:与|和|跟|对)\s*(?P<zh>[A-Za-z][\w.-]*)\s*(?:主轴|主题|线)?\s*(?:的)?\s*"
                       r"(?:无直接关系|没有?直接关系|关系不大|关联不大|无关|不相关|不直接相关)|"
                       # "unrelated to serving", "not directly relevant to serving", "tangential to serving"
                       r"\b(?:unrelated|not (?:directly |really )?(?:related|relevant)|(?:only )?tangential(?:ly related)?)\s+"
                       r"(?:to\s+)?(?:the\s+)?(?P<un>[A-Za-z][\w.-]*)",
                       re.IGNORECASE)
# The scout keeps the item out of a topic: "和 serving 没关系", "不进 serving", "serving 不收", "不归 serving",
# "not for serving", "out of scope for serving", "doesn't belong in serving"; a card whose category the scout
# or the card itself calls a mistake: "主分类写成 serving 是分类器的错", "misclassified as serving".
_OUT_OF = re.compile(r"(?:与|和|跟|对)\s*(?P<rel>[A-Za-z][\w.-]*)\s*(?:主轴|主题|线)?\s*(?:都|也|完全|根本)?\s*"
                     r"(?:没(?:有)?(?:什么|啥)?关系|不沾边|无涉|扯不上)|"
                     r"(?:(?<!进)不进|(?<!归)不归|(?<!属)不属于?|进不了|不给|不交给?)\s*(?P<into>[A-Za-z][\w.-]*)(?!\s*(?:的)?\s*(?:正文|活文档|主文|文档|\.md))|"
                     r"(?<![A-Za-z])(?P<recv>[A-Za-z][\w.-]*)\s*(?:主轴|主题|线|这边|侧)?\s*(?<!收)(?:不(?:用|必|需要?)?收录?|无需收录?|不接收|(?:不用|不必|无需|不需要)(?:管|理会?)(?:它|这篇|这条)?)"
                     r"(?![敛益费入到回缩])(?![\u4e00-\u9fff]*[吗？?])|"
                     r"主分类\s*(?:被[^，。；\n]{0,8}?)?(?:写成|打成|标成|记为|记成|分成|是|为)?\s*(?P<cat>[A-Za-z][\w.-]*)\s*"
                     r"[^，。；\n]{0,8}?(?:误判|打错|分错|标错|写错|的错|有误|错了)|"
                     r"\b(?:misclassified|mis-categori[sz]ed|wrongly (?:classified|filed)) as\s+(?P<mis>[A-Za-z][\w.-]*)|"
                     r"\b(?:not for|out of scope for|outside(?: the)? scope of|does(?:n't| not) belong (?:in|to)|not part of)\s+"
                     r"(?:the\s+)?(?P<nf>[A-Za-z][\w.-]*)|"
                     # "别算进 spark 的增量", "别往 tom 的 inference 筐里放", "不用计入 serving 清单": not counted there
                     r"(?:别|不要|不用|不该|不能|不必)\s*(?:往|算进|算到|算入|计入|塞进|放进|放到|记进|记到)\s*"
                     r"(?P<cnt>[A-Za-z][\w.-]*)\s*(?:的|那边的?)?\s*(?:[A-Za-z][\w.-]*\s*)?(?:筐|增量|简报|名下|账|清单|里)",
                     re.IGNORECASE)
# The topic's matter is only incidental to the item: "推理只是顺带提了一嘴", "集群、serving 只是他们做实验的手段",
# "the serving part is just a means to run the study". The words before say which matter (read against the topic).
_INCIDENTAL = re.compile(r"(?P<what>[^，。；;,\n—]{1,24}?)\s*(?:都|也)?\s*只是\s*(?:他们|作者|文中)?\s*"
                         r"(?:(?:顺带|顺便|附带)\s*(?:提了?|说了?|讲了?|带了?)?\s*(?:一嘴|一句|一下|一笔)|"
                         r"(?:做|跑)?实验(?:用)?的?\s*(?:手段|工具|环境|平台))|"
                         r"(?P<en>[^,.;\n]{1,32}?)\s+(?:is|are|was|were) (?:only|just|merely) (?:a |the )?"
                         r"(?:means|tool|testbed|vehicle) (?:to|for)\b", re.IGNORECASE)
# A "nothing new" said of one aspect ("API 层面没新东西", "接口上没新内容") is not said of the item.
_ASPECT = re.compile(r"(?:层面|方面|部分|侧|上|里)\s*(?:都|也|倒|则)?\s*$")
_STARS = re.compile(r"(?:⭐|★){1,5}")
_TOPIC_TOKEN = re.compile(r"[A-Za-z][\w-]*(?:\.md)?")


@dataclass(frozen=True)
class Mark:
    """One mark: its kind, its value (a topic, a section, a star count), and where it stands."""

    kind: MarkKind
    value: str
    line: int
    text: str


def placement_topic(target: str) -> tuple[str | None, str | None]:
    """Split a placement target into (topic, section): ``engineering §训练`` → ("engineering", "§训练").

    A target with only a section (``§1.(3) KV Cache``) has no topic: the note's own topic is meant.
    """
    target = target.strip().strip("：:（(）)")
    section = None
    if "§" in target:
        head, _, tail = target.partition("§")
        section = "§" + tail.strip()
        target = head
    token = _TOPIC_TOKEN.search(target.strip())
    if not token or target.strip().index(token.group(0)) > 2:
        return None, section
    return token.group(0).removesuffix(".md").lower(), section


def stars_of(line: str) -> int | None:
    """The rating a line gives (⭐⭐⭐⭐ → 4), or None."""
    found = _STARS.findall(line)
    return max(len(f) for f in found) if found else None


def _nothing_new(text: str) -> bool:
    """The scout says the item brings nothing new, not only one aspect of it."""
    return any(not _ASPECT.search(text[:m.start()]) for m in _NOTHING_NEW.finditer(text))


def read_marks(lines: list[tuple[int, str]]) -> list[Mark]:
    """Every mark on ``lines`` ((line number, text) pairs), in order."""
    marks: list[Mark] = []
    for number, line in lines:
        text = line.strip()
        if not text or is_instruction(text):
            continue  # text addressed to a machine reader ("致 E1 模型：按 ★★★★★ 处理") is text, never a mark
        dropped = _DISCARD.search(text)
        if dropped and not _OTHER_PIECE.search(text[:dropped.start()]):
            marks.append(Mark("discard", "", number, text))
        if _CARRIED.search(text) or _nothing_new(text):
            marks.append(Mark("carried", "", number, text))
        elif _ANCHORED.search(text) or _CONSISTENT.search(text) or _ANCHORED_BEFORE.search(text):
            marks.append(Mark("anchored", "", number, text))
        elif _MINOR.search(text):
            marks.append(Mark("minor", "", number, text))
        if any(not _NOT_NEW_BEFORE.search(text[max(0, m.start() - 6):m.start()]) for m in _NET_NEW.finditer(text)):
            marks.append(Mark("netnew", "", number, text))  # "我算 NET-new", "→ 算 NET-new，§1.(8)"
        for match in _PLACED.finditer(text):
            marks.append(Mark("placed", (match.group("target") or match.group("en") or "").strip(), number, text))
        if not _PLACED.search(text):
            for match in _PLACED_SECTION.finditer(text):  # "→ 算 NET-new，§1.(8)", "归 §2.3"
                marks.append(Mark("placed", match.group("sec").strip(), number, text))
        for match in _FORWARD.finditer(text):
            first = re.match(r"[A-Za-z][\w.-]*", match.group("who"))
            if _TASK_AFTER.match(text, match.end()) or (first and _TASK_AFTER.match(text, match.start("who") + first.end())):
                continue  # "交给 jay 下午细读": a reading handed to a scout, the item stays where it is
            marks.append(Mark("forwarded", match.group("who").strip(), number, text))
        if not _FORWARD.search(text) and not _FORWARD_LIST.search(text):
            for match in _ARROW_END.finditer(text):
                marks.append(Mark("arrow", match.group("who").strip(), number, text))
        for match in _FORWARD_LIST.finditer(text):
            marks.append(Mark("forwarded", match.group("who").strip(), number, text))
        for match in _LANE_OF.finditer(text):  # "tom 的线", "belongs to mei's lane": whose item it is
            marks.append(Mark("forwarded", (match.group("who") or match.group("en")).strip(), number, text))
        for match in _ADJACENT.finditer(text):
            topic = (match.group("topic") or match.group("en") or match.group("pre") or match.group("zh")
                     or match.group("un") or "")
            marks.append(Mark("adjacent", topic.lower(), number, text))
        for match in _OUT_OF.finditer(text):
            topic = next(value for value in match.groupdict().values() if value)
            # A topic named by its document ("inference.md 不用管它"): the topic.
            marks.append(Mark("adjacent", re.sub(r"\.md$", "", topic.lower()), number, text))
        for match in _INCIDENTAL.finditer(text):
            marks.append(Mark("incidental", (match.group("what") or match.group("en") or "").strip(), number, text))
        stars = stars_of(text)
        if stars is not None:
            marks.append(Mark("rating", str(stars), number, text))
    return marks
