"""Text in a source addressed to a model, assistant, summarizer or system: reported, never obeyed.

A line is an instruction when it *speaks to* a machine reader and *tells it*
to do something: an address ("Note to the AI summarizer:", "Assistant, when
you summarise…", "致各位 AI 摘要工具：", "（给模型的话：…）", "If you are an
LLM…", "当你总结本文时") together with a directive (ignore, rate, mark, omit,
don't list, 忽略, 评为, 不要列出, 务必…); or a bid to change the reader's
role ("you are now…", "从现在起你是…"); or the classic "ignore previous
instructions" on its own.

A line that *reports* such text is not one: a paper summary about prompt
injection, an attacker's example in quotes, a model that "ignores earlier
context" as a finding. Words like "model" or "system" in ordinary prose
("system prompt caching", "给模型的输入长度") address nobody.
"""

from __future__ import annotations

import re

__all__ = ["is_instruction"]

_READER = (r"(?:AI|A\.I\.|LLMs?|GPT|chat ?bots?|bots?|language models?|models?|assistants?|summari[sz]ers?|"
           r"(?:summary|summari[sz]ation|digest|note[- ]taking) (?:tools?|bots?|systems?|models?|pipelines?)|"
           r"(?:automated|automatic|machine|AI) (?:reviewers?|readers?|tools?|pipelines?|processors?)|"
           r"digest(?:er| tools?)|agents?|systems?|copilots?)")
# Readers one can call by name at the start of a line or in "if you are…" without it being a label
# ("Model: Llama-3", "系统：Ubuntu" are labels).
_CALLABLE = r"(?:AI|LLMs?|GPT|chat ?bots?|bots?|language models?|assistants?|summari[sz]ers?|copilots?)"
_READER_ZH = r"(?:AI|LLM|大?模型|语言模型|助手|摘要(?:工具|器|程序|机器人)?|总结(?:工具|程序)|机器人|智能体|系统|assistant)"
_CALLABLE_ZH = r"(?:AI|LLM|大模型|语言模型|助手|摘要(?:工具|器|程序|机器人)|总结(?:工具|程序)|机器人|智能体)"
_THIS_TEXT = r"(?:this|these|the)\s+(?:file|note|notes|page|document|text|source|post|thread)"
_ADDRESS = re.compile(
    r"\b(?:note|message|memo|instructions?|reminder|directive|p\.?s\.?)\s+(?:to|for)\s+(?:the\s+|any\s+|all\s+|every\s+)?"
    r"(?:\w+\s+){0,2}" + _READER + r"\b"
    r"|(?:^|[(\[（【>\s])(?:dear|hey|hi|hello|attention)\s+(?:the\s+|all\s+|any\s+)?(?:\w+\s+)?" + _READER + r"\b"
    r"|^[\W_]*(?:to\s+)?(?:the\s+|dear\s+)?(?:\w+\s+)?" + _CALLABLE + r"\s*[,:，：]"
    r"|\bif you are an?\s+(?:\w+\s+)?" + _CALLABLE + r"\b"
    r"|\b(?:any|every|each)\s+(?:\w+\s+)?" + _READER + r"\s+(?:reading|processing|summari[sz]ing|parsing|ingesting)\b"
    # "To whichever language model ends up processing this page:", "To whatever AI pipeline ingests this note:"
    r"|(?:^|(?<=[(\[（【>\s-]))to\s+(?:whichever|whatever|the|any|all|every|each)\s+(?:\w+\s+){0,2}" + _READER +
    r"\b[^:：\n]{0,80}[:：]"
    # a reader named by what it does to this very text: "LLM agents processing this file should…"
    r"|\b" + _READER + r"\s+(?:that\s+|which\s+|who\s+)?(?:ends? up\s+)?(?:reading|processing|summari[sz]ing|parsing|"
    r"ingesting|handling|reach(?:es|ing)?|reads?|process(?:es)?|ingests?)\s+(?:this|these)\s+"
    r"(?:file|note|notes|page|document|text|source|post|thread|paragraph|section|entry)\b"
    r"|\bwhen(?:ever)? you (?:summari[sz]e|digest|condense|process|read)\s+" + _THIS_TEXT +
    r"|(?:^|[(\[（【>\s])to\s+(?:the\s+|any\s+|all\s+)?(?:\w+\s+)?" + _READER +
    r"\s+(?:\w+ing|who|that)\b[^:：]{0,60}[:：]"
    # "To all AI summarization tools:", "For every LLM:", a handle "@summarizer-bot"
    r"|^[\W_]*(?:to|for)\s+(?:all|any|every|each)\s+(?:\w+\s+){0,2}" + _READER + r"\s*[:：,，]"
    r"|(?:^|\s)@[\w-]*(?:bot|summari[sz]er|assistant|gpt|llm|copilot)\b"
    # a pasted system prompt: "系统提示：…", "System prompt: …"
    r"|^[\W_]*(?:系统提示词?|系统指令|system (?:prompt|message|instruction)s?)\s*[:：]"
    r"|\[/?INST\]|<\|im_start\|>|<\|system\|>|<<SYS>>"
    r"|请\s*" + _CALLABLE_ZH +
    r"|(?:给|致|写给|提醒|亲爱的)\s*(?:各位|所有|正在阅读的|读到这里的|后续的)?\s*" + _READER_ZH + r"(?:\s*" + _READER_ZH +
    r")*\s*们?\s*(?:的(?:一段|一句)?话\s*[：:，,】\]）)]?|[：:，,】\]）)])"
    # a class of machine readers: "致各类 AI 摘要与整理工具：", "给自动整理脚本的说明：", "写给所有总结程序的提示："
    r"|(?:给|致|写给|提醒)\s*(?:各位|各类|各种|所有|任何|一切|后续的?)?\s*[^，。；：:\n]{0,10}?"
    r"(?:AI|LLM|模型|自动化?|摘要|总结|整理|汇总)[^，。；：:\n]{0,8}?(?:工具|程序|脚本|机器人|助手|系统|模型|智能体|bot)\s*们?\s*"
    r"(?:的(?:一段|一句)?(?:话|说明|提示|指示)\s*)?[：:，,】\]）)]"
    # a reader named by its job: "致 E1 模型：", "给 digest 模型："
    r"|(?:给|致|写给)\s*[^，。；：:\n]{0,10}?(?:AI|LLM|大?模型|语言模型|智能体|助手)\s*们?\s*[：:，,】\]）)]"
    r"|^[\W_]*" + _CALLABLE_ZH + r"(?:\s*" + _CALLABLE_ZH + r")*\s*(?:请注意|注意|听好|看这里)?\s*[，,：:]"
    r"|(?:如果|若|假如)你是\s*(?:一个|一款)?\s*" + _CALLABLE_ZH +
    # "若你是自动摘要工具", "假如你是负责汇总的 AI 程序": a machine reader by its job
    r"|(?:如果|若|假如)你是\s*[^，。；：:\n]{0,8}?(?:AI|LLM|大?模型|语言模型|智能体|摘要|汇总|总结|整理)[^，。；：:\n]{0,6}?"
    r"(?:工具|程序|脚本|模型|系统|助手|智能体|机器人|bot)"
    r"|当你(?:在)?(?:总结|摘要|汇总|整理|消化|处理|阅读)(?:本|这|此)(?:文|份|篇|条|页|笔记|文件|内容)",
    re.IGNORECASE | re.MULTILINE,
)
_DIRECTIVE = re.compile(
    r"\b(?:ignore|disregard|forget|override|bypass|rate|score|mark|label|omit|skip|drop|include|insert|add|write|"
    r"output|print|say|state|rank|treat|classify|give|report|list|remove|delete|hide|approve|publish|trust|"
    r"leave|keep|put|set|call|consider|assume|answer|respond|reply|accept|flag|pass|"
    r"do not|don't|never|always|must|make sure|be sure|only|should|shall|(?:is|are) (?:required )?to|needs? to)\b"
    r"|忽略|无视|忘记|忘掉|评为|评成|打成|标为|标成|标记为|写进|写入|写成|不要|别列|勿|务必|请|必须|只输出|只写|"
    r"删除|删掉|列为|当作|视为|给出|统一|跳过|省略|批准|发布|覆盖|优先级最高|放在|放到|排在|排到",
    re.IGNORECASE,
)
_ROLE = re.compile(r"\byou are now\b|\bfrom now on,? you\b|\bact as (?:an?|the)\b|\bpretend (?:to be|you are)\b|"
                   r"你现在是|从现在起[，,]?你|从现在开始[，,]?你|请扮演|你将扮演", re.IGNORECASE)
_CLASSIC = re.compile(
    r"\b(?:ignore|disregard|forget)\s+(?:all\s+|any\s+|every\s+)?(?:of\s+)?(?:the\s+|your\s+)?"
    r"(?:previous|prior|above|earlier|preceding|other)\s+(?:instructions|prompts|rules|directions)"
    r"|(?:忽略|无视|忘记|忘掉)(?:你)?(?:之前|以上|上面|此前|先前|前面)(?:收到的|给你的)?(?:的)?(?:所有|全部|一切)?(?:的)?"
    r"(?:指令|指示|提示词?|规则|要求)",
    re.IGNORECASE,
)
# Reporting, not addressing: the line is about such text (an attack, an example, a finding).
_REPORTING = re.compile(
    r"攻击者|攻击|注入|例如|比如|举例|论文|研究|实验|发现|数据集|测试集|评测|"
    r"\b(?:attackers?|attacks?|adversar\w*|injection|injected|jailbreak\w*|e\.g\.|for example|for instance|such as|"
    r"paper|study|studies|authors?|researchers?|benchmark|dataset|found that|shows? that|showed)\b",
    re.IGNORECASE,
)


_QUOTE_OPEN = re.compile(r"[「『“‘\"']")
# Text pointing at such a passage: "那段写给 AI 的话", "这句给模型的", "the part addressed to the AI".
_REFERRED = re.compile(r"(?:那|这|该)(?:段|句|条|行|几句|部分)\s*(?:[^，。；\n]{0,6})?(?:写给|给|致|对)?\s*$|"
                       r"\b(?:the|that|this) (?:bit|part|passage|line|comment|note)\s+(?:addressed|written)\s+(?:to?\s*)?$",
                       re.IGNORECASE)


def is_instruction(line: str) -> bool:
    """Whether ``line`` speaks to a machine reader and tells it what to do (see the module doc)."""
    text = line.strip()
    if len(text) < 8:
        return False
    address = _ADDRESS.search(text)
    if address and _DIRECTIVE.search(text, address.end()):
        # An address is reported, not made, when it stands inside a quotation or is referred to ("页面里那段写给
        # AI 的话：我也看到了，已当作页面内容处理", "the bit addressed to the AI was treated as page text").
        return not (_QUOTE_OPEN.search(text, 0, address.start()) or _REFERRED.search(text, 0, address.start() + 1))
    if _REPORTING.search(text):
        return False
    return bool(_ROLE.search(text) or _CLASSIC.search(text))
