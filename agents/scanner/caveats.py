"""The scouts' own doubts about a claim, read from a line: conditions unstated, one test only, self-reported, to verify.

Scouts qualify what they pass on: "⚠ 页面没写 max-num-seqs", "论文里只有这一组模型 /
并发 / 长度", "作者自测", "待核：…", "局限：…", "conditions not stated", "only one workload",
"vendor numbers, not reproduced", "limitations: …". Such a line is a caveat on the claim it sits
with; a brief must carry it as a warning about that claim.

Not caveats: legends of the marks ("⚠ = 可信度打折", "风险标记：…"), lines that
settle a doubt ("已核实", "核对一致", "已复现", "verified"), and lines where the
scout already set the claim aside ("不收", "只作背景", "不进活文档"): nothing of it
goes into the brief to be qualified.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.scanner.marks import read_marks

__all__ = ["Caveat", "find_caveats", "RISK_OF_MARKS", "LIST_HEADING", "CORRECTION", "NOT_COMPARABLE", "RISK_ORDER",
           "METADATA_CAVEAT"]

# A doubt about a paper's catalogue record, not about what the paper claims: a line led by the record's
# label ("元数据：venue 字段与会议名不一致，待核", "Metadata: citation count differs, to be confirmed",
# "出处 / 被引：…待核"). It is said on the item (its card's record is uncertain), not registered as a
# doubt about a result.
METADATA_CAVEAT = "元数据待核"
_METADATA_LINE = re.compile(
    r"^\s*(?:[-*•>]\s*)?(?:\*\*)?(?:元数据|元信息|书目信息|出处|发表信息|会议(?:/|／)?期刊|venue|被引(?:数|次数)?|引用数|"
    r"metadata|bibliographic(?: data| record)?|citations?(?: count)?|publication info)(?:\*\*)?\s*(?:[/／][^：:\n]{1,16})?[：:]",
    re.IGNORECASE)

# The scout says two figures or set-ups are not to be compared: "不是一个口径", "别和 X 的 TTFT 拼一起",
# "口径不同", "not directly comparable", "apples to oranges". One pattern for the caveat and for the figures
# it sets apart (``mentions``).
NOT_COMPARABLE = re.compile(
    r"不是一回事|不是(?:一|同一)个?口径|不在一个口径|口径不(?:同|一样)|不同口径|两个口径|不能合并|不可(?:合并|合表)|"
    r"不要(?:混用|合并)|别混用|(?:别|不要)(?:和|跟|与)[^，。；,;\n]{1,40}?(?:拼|混|合并|比)|"
    r"不(?:可|能)(?:直接)?(?:比|对比|比较)(?!例|率|重)|"
    r"\bnot (?:directly )?comparable\b|\bnot the same (?:setup|thing|conditions)\b|\bdon'?t (?:mix|merge|compare)\b|"
    r"\bapples (?:to|and) oranges\b", re.IGNORECASE)
# A measured figure on the line: a number with a unit, a percentage or a multiple.
_MEASURE = re.compile(r"\d(?:[\d.,]*)\s*(?:%|×|x\b|倍|ms|s\b|秒|GB|tok/s|req/s|pt)", re.IGNORECASE)
_CUES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("条件未说明", re.compile(
        r"未说明|没(?:有)?说明|没讲|未写明|没(?:有)?写(?:明|清)?|没(?:有)?(?:给|说)(?:出)?(?:测算)?(?:口径|条件|数|数字|量化|环境|配置)|未给出|无条件|"
        r"没有条件|缺(?:少)?条件|口径不明|条件不明|\bconditions? (?:not |un)?stated\b|\bno conditions\b|"
        r"\bwithout (?:stating |giving )?(?:the )?(?:conditions|setup|hardware|config)|\bdoes(?:n't| not) (?:say|state|give)\b|"
        r"\bunspecified\b", re.IGNORECASE)),
    ("单一测试条件", re.compile(
        r"只有这一组|只(?:在|测了?|跑了?|给了?)[^，。；,;]{0,20}?(?:一|1|单)\s*(?:个|组|种|台|套|次|款|家)|仅在\s*(?:一|1|单)|单一(?:条件|模型|硬件|集群|测试|负载|场景|配置|设置|数据集|trace)|"
        r"单节点测试|单卡实验|单模型|只(?:测|跑|评测?|验证)了?\s*\d+(?:\.\d+)?\s*B(?![A-Za-z])|"
        r"\d+(?:\.\d+)?\s*B\s*以上的[^，。；,;\n]{0,12}?(?:没有|没测|未测|没跑)|只有(?:一|1|单)\s*(?:个|组|种|台|套|次|款|家|位)\s*(?:复现者?|样本|模型|卡型|硬件|数据点|用户|测试|负载|trace|run)|别(?:写成|当成?)通用(?:结论|数字?)|"
        r"不要(?:写成|当成?)通用(?:结论|数字?)|\bnot a general (?:result|conclusion)\b|"
        r"\bonly (?:one|a single) (?:setting|workload|model|config(?:uration)?|run|cluster|gpu|trace|reproducer)s?\b|"
        r"\bsingle (?:setting|workload|run|config(?:uration)?|trace)\b|\bone (?:workload|setting|model) only\b", re.IGNORECASE)),
    ("作者自报", re.compile(
        r"自报|自测|自述|自己算的|自说自话|厂商(?:口径|博客|稿|数据)|卖方(?:研报)?|项目方|作者(?:均为|自己)|\bself[- ]reported\b|"
        # the maker's own evaluation of its product ("官方评测", "数字（官方）"); "官方文档" is a source, no doubt
        r"官方(?:评测|跑分|自测|测试|数字)|只有官方|(?:数字|数据|结果|跑分|指标)\s*[（(]官方[）)]|"
        r"\bvendor(?:'s)? (?:claim|blog|numbers?|benchmark)s?\b|\bvendor[- ]run\b|"
        r"\bofficial (?:numbers?|figures?|results|benchmark (?:numbers?|results|figures?))\b|\bmarketing (?:numbers?|claims?)\b", re.IGNORECASE)),
    ("口径不可合并", NOT_COMPARABLE),
    # Claims with no figure behind them: "全篇没有一个数字", "a blog post without a single number".
    ("无数字支撑", re.compile(
        r"(?:没有|没|无)(?:一个|任何)\s*(?:数字|数据|数)|一个数(?:字)?都没有|无任何数(?:字|据)|"
        r"\bno (?:numbers|figures|data)(?: at all| given| behind it)?\b|\bwithout a single (?:number|figure)\b",
        re.IGNORECASE)),
    # The scout warns against leaning on the claim: "第 3 条要小心", "不能拿来抵消那篇的提醒", "take it with salt".
    ("来源提醒慎用", re.compile(
        r"(?:第\s*\d+\s*条|这(?:条|句|个数|个说法)|那(?:条|句|个数|个说法))\s*(?:要|得|需要?)?小心|慎用|慎引|"
        r"(?:不能|别|不要)(?:直接)?拿来(?:抵消|证明|当作?|作为|引)|"
        r"\btake (?:it |this )?with (?:a grain of salt|caution)\b|\btreat (?:it |this )?with caution\b|"
        r"\buse with care\b|\bdon'?t (?:lean on|rely on)\b", re.IGNORECASE)),
    # The scout could not trace a figure to its source, or finds it does not match the paper's own:
    # "数字对不上", "全文里没找到出处", "请 jay 确认来源", "can't find where the 3.1× comes from".
    ("出处存疑", re.compile(
        r"(?:数字|数|结果|号|版本)[^，。；,;\n]{0,6}?对不上|(?:没|未)(?:有)?找到(?:出处|来源|原文)|找不到(?:出处|来源|原文)|"
        r"出处不明|来源不明|(?:确认|核实|补充)(?:一下)?(?:来源|出处)|\bcan(?:'t|not) find (?:the |its |a )?(?:source|origin)\b|"
        r"\bno source (?:for|given)\b|\bunsourced\b|\bdoes(?:n't| not) match (?:the )?(?:paper|table|abstract)\b",
        re.IGNORECASE)),
    # Nothing runs yet: a vision or position paper, no implementation, code not out ("愿景文，没有系统实现",
    # "README 写 coming soon", "position paper, no code yet").
    ("尚无实现", re.compile(
        r"(?:愿景|立场)(?:文|论文|稿)(?!\s*[A-Za-z(（《「])|观点文(?!\s*[A-Za-z(（《「])|(?:没有|没|无|尚无|暂无|还没有?)(?:系统|工程|可运行的?|开源)?实现|"
        r"(?:只有|仅有)(?:论文|PPT|slides?|幻灯片)(?:和[^，。；,;\n]{0,6})?|"
        r"代码(?:仓|库)?[^，。；,;\n]{0,8}?(?:没|未|尚未|还没)(?:有)?(?:放|开源|公开|发布|上传)|coming soon|"
        r"\b(?:position|vision) paper\b|\bno (?:code|implementation|artifact)s?(?: yet| released| available)?\b|"
        r"\bnot (?:yet )?open[- ]sourced\b|\bpaper[- ]only\b", re.IGNORECASE)),
    ("适用条件有限", re.compile(
        r"^\s*(?:[-*•]\s*)?(?:局限(?:性)?|前提|适用条件|限制)\s*[：:]|"
        r"^\s*(?:[-*•]\s*)?(?:limitations?|caveats?|assumes|assumptions?)\s*[：:]|\bonly holds (?:when|if|under)\b|"
        r"\bgains? (?:drop|shrink|vanish)(?:s)? (?:when|under|if)\b", re.IGNORECASE)),
    ("待核实", re.compile(
        r"待核(?:实|对|查)?|待确认|待验证|未核(?:实|对|查)?(?!心)|未证实|未复现|没人复现|无人复现|需(?:要)?(?:读全文|核对|核实|复现)|要看表|"
        r"待(?:读|看)(?:全文|原文|正文|论文)|只(?:看|读)了?摘要|仅(?:有)?摘要(?:级)?信息|"
        # read later, not yet read closely: "评测协议部分明天细读", "还没细读", "回头读 PDF", "will read it in full tomorrow"
        r"(?:明天|明日|稍后|回头|之后|下周|改天|晚点)再?(?:细读|精读|细看|读全文|看全文|读\s*PDF|看\s*PDF)|待细读|(?:还没|尚未|未)(?:细读|精读)|"
        r"(?:\bwill|'ll|\bto) read (?:it |this |the (?:paper|pdf|protocol|appendix) )?(?:in full |properly |closely )?"
        r"(?:later|tomorrow|next week)\b|可以自己(?:测|跑|复现)|(?:我们|自己)(?:来)?复现一下|"
        r"\bwe (?:can|could|should) (?:test|reproduce|benchmark) (?:it|this)\b|"
        r"\babstract[- ]only\b|\bonly (?:read )?the abstract\b|\bfull (?:text|paper) (?:not (?:yet )?read|pending)\b|"
        r"\bneeds? (?:checking|verification|to be (?:checked|verified))\b|\bunverified\b|"
        r"\bnot (?:yet )?(?:independently )?(?:verified|reproduced|confirmed)\b|\bto be confirmed\b|\bTBC\b|"
        # nobody else has run it yet: "独立复测还没看到", "尚无第三方复现", "no independent replication yet"
        r"(?:独立|第三方|社区|外部)的?(?:复测|复现|验证|评测)[^，。；,;]{0,6}?(?:没|未|无)|"
        r"(?:没|未|尚无|暂无|还无)(?:看到|见到?|有)?(?:独立|第三方|社区|外部)的?(?:复测|复现|验证|评测)|"
        r"\bno (?:independent|third[- ]party) (?:replication|reproduction|re-?runs?|benchmarks?|tests?|evaluation)s?\b|"
        r"\bno(?: one|body) (?:else )?(?:has )?(?:reproduced|replicated)\b|"
        # argued, not measured: "原理上成立…没给实测", "untested on vLLM"
        r"没(?:有)?(?:给|做)(?:出)?实测|未(?:给|做)(?:出)?实测|无实测|\bnot (?:yet )?(?:measured|tested)\b|\buntested\b|"
        r"\bno (?:measurements?|experiments?) (?:on|for|given|reported)\b", re.IGNORECASE)),
)
# The scout corrects what was written before (a note, a brief, the living document): "更正 9-28：…",
# "勘误：…", "之前写错了", "Correction: the 3.1× was …", "erratum". Line-leading or a phrase of its own,
# never a word inside prose ("纠错码", "error correction", "修正因子").
CORRECTION = re.compile(
    r"^\s*(?:[-*•>]\s*)?(?:⚠\ufe0f?\s*)?(?:\*\*)?(?:更正|勘误|订正|纠正|correction|erratum|corrigendum)(?:\*\*)?"
    r"\s*(?:\d{1,2}[-/]\d{1,2}|[（(][^）)\n]{0,24}[）)])?\s*(?:\*\*)?[：:]|"
    r"(?:之前|此前|先前|昨天|上午|早上|上次)[^，。；,;\n]{0,12}?(?:写|记|抄|转述|说)错|(?:写|记|抄)错了|"
    r"\b(?:earlier|previous|yesterday'?s?)\b[^.;\n]{0,40}?\b(?:was|were|is) (?:wrong|incorrect|mistaken)\b|"
    r"\bshould (?:have )?read\b", re.IGNORECASE)
_MARKS = re.compile(r"⚠\ufe0f?(?:[⚠⚬]\ufe0f?){0,2}(?![⚠⚬])")  # longer runs (⚠⚬⚬⚬⚬) count days, not doubt
RISK_OF_MARKS = {"⚠⚠⚬": "中", "⚠⚠⚠": "高", "⚠⚬⚬": "中低", "⚠⚬": "低", "⚠": "低"}
RISK_ORDER = ("低", "中低", "中", "中高", "高")  # lowest first: ``max(…, key=RISK_ORDER.index)``
_LEGEND = re.compile(r"⚠\s*(?:=|＝|表示|means|为|是|代表|越多)|风险标记|评级[：:]|标记[：:]|口径[：:].*⚠|图例|legend",
                     re.IGNORECASE)
# A heading that opens a list of things to verify: each item under it is a caveat, the heading is not.
LIST_HEADING = re.compile(r"^\s*#+\s*(?:待核(?:实)?(?:清单|事项|列表)?|to verify|open questions?|needs? checking)\s*[：:]?\s*$",
                          re.IGNORECASE)
# A mark alone is a caveat only on a claim: a figure, a paper number or a name on the line.
_CLAIM = re.compile(r"\d+(?:[.,]\d+)*\s*(?:%|×|x\b|倍|ms|s\b|GB|tok/s|层|pt)|\d{4}\.\d{4,5}|(?<![A-Za-z])[A-Za-z]*[A-Z][A-Za-z0-9-]{2,}")
_SETTLED = re.compile(r"已核实|核对一致|对得上|能对上|对上了|已复现|已确认|已闭合|已验证|(?:全文|原文|正文)[^，。；,;]{0,4}读完|读完(?:了)?(?:全文|原文)|"
                      r"已读全文|\bread the (?:full|whole) (?:paper|text)\b|(?<!not )(?<!un)\bverified\b|(?<!to be )\bconfirmed\b|\breproduced\b",
                      re.IGNORECASE)
_NOT_SETTLED = re.compile(r"\bnot (?:yet )?(?:independently )?(?:verified|reproduced|confirmed)\b|"
                          r"\bno(?: one|body) (?:else )?(?:has )?(?:reproduced|replicated|verified|confirmed)\b|未核实|未复现|未确认|"
                          r"没(?:有)?读完|未读完|还没读|\b(?:haven'?t|have not|hasn'?t|has not|didn'?t|not yet)\s+(?:\w+\s+)?read\b",
                          re.IGNORECASE)
_SET_ASIDE = re.compile(r"不收|只作背景|不进活文档|不作增量|只当经验值|不收数字|\bnot (?:kept|used)\b|\bbackground only\b",
                        re.IGNORECASE)
_REGISTERED = re.compile(r"\bD\d{2,}\b")
_LIST_HEAD = re.compile(r"^\s*(?:[-*•]\s*)?(?:待核(?:实)?|to verify|open questions?)\s*[：:]\s*", re.IGNORECASE)


@dataclass(frozen=True)
class Caveat:
    """One caveat: what kind of doubt, the claim it qualifies, and the author's ⚠ marks (if any)."""

    label: str
    claim: str
    marks: str | None


_NEGATED = re.compile(r"(?:不是|并非|非|没有|不算|\bnot\b|\bno\b)\s*$", re.IGNORECASE)


def _labels(text: str) -> list[str]:
    """The kinds of doubt the text states; a negated cue ("不是厂商稿", "not self-reported") states none."""
    found = []
    for label, cue in _CUES:
        if any(not _NEGATED.search(text[max(0, m.start() - 6):m.start()]) for m in cue.finditer(text)):
            found.append(label)
    return found


def find_caveats(line: str) -> list[Caveat]:
    """The caveats a line carries; a "待核：a；b" list gives one per item."""
    text = line.strip()
    if not text or _LEGEND.search(text) or _REGISTERED.search(text):
        return []
    if CORRECTION.search(text):
        # A correction settles that something written before was wrong: it is reported, not doubted.
        marks = _MARKS.search(text)
        return [Caveat("来源更正", text, marks.group(0).replace("\ufe0f", "") if marks else None)]
    if _SET_ASIDE.search(text):
        return []
    if _SETTLED.search(text) and not _NOT_SETTLED.search(text):
        return []
    marks = _MARKS.search(text)
    mark = marks.group(0).replace("\ufe0f", "") if marks else None
    head = _LIST_HEAD.match(text)
    if head:  # "待核：QuillServe 显著性；2703.04417 的 1-4% 说法要看表": each item is a claim to verify
        items = [part.strip() for part in re.split(r"[；;]", text[head.end():]) if part.strip()]
        return [Caveat(_labels(part)[0] if _labels(part) else "待核实", part, mark) for part in items]
    if LIST_HEADING.match(text):
        return []
    if any(mark.kind in ("carried", "anchored") for mark in read_marks([(0, text)])):
        return []  # "…，结论 9-26 已锚，沿用": the claim is carried, not passed on; its doubt went with it
    labels = _labels(text)
    if labels == ["口径不可合并"] and mark is None and not _MEASURE.search(text):
        return []  # "和 §1.4 已锚的 NVFP4 不是一回事：那条是权重，这篇是 KV": items told apart, no figures doubted
    if labels and _METADATA_LINE.match(text):
        return [Caveat(METADATA_CAVEAT, text, mark)]
    if not labels and mark is None:
        return []
    if not labels and not _CLAIM.search(_MARKS.sub("", text)):
        return []  # "今天心情不好 ⚠": a mark with nothing to doubt
    if not labels and text.lstrip().startswith("#"):
        # A heading rated ⚠: the whole section is flagged; only a strong flag (⚠⚠…) is a caveat of its own.
        return [Caveat("来源标注风险", text.lstrip("#").strip(), mark)] if (mark or "").count("⚠") >= 2 else []
    return [Caveat(labels[0] if labels else "来源标注可信度打折", text, mark)]
