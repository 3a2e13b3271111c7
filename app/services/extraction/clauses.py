"""How the offline extractor cuts a message into clauses and reads each one's mood: a
question (skipped by the typed rules), a hedge ("maybe", 可能: lower confidence), a condition
("if it rains…", 如果…: kept whole), English and Chinese."""

from __future__ import annotations

import re

from app.core.text import has_cjk
from app.services.extraction.joined import EN_PERSON_CLAUSE

# Also before "my parents moved…" after a comma (tester D32: "I live in Chicago, my parents
# moved to Florida" lost the parents' move beside the user's home).
# …and before "so no X" / "so never give me X" after a comma ("I take warfarin, so never give
# me aspirin": the drug and what it rules out, tester hbreak5 F28).
_EN_CLAUSE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+|,?\s+but\s+|,\s+and\s+(?=i\b)|\s+and\s+(?=i\b)|"
                              rf",\s+(?={EN_PERSON_CLAUSE})|,\s+(?=so\s+(?:no|never|avoid)\s)",
                              re.IGNORECASE)  # fmt: skip
# A question keeps its mark; the English in a Chinese message ends its sentences with ". ".
_ZH_CLAUSE_SPLIT = re.compile(r"(?<=[？?])|[。！；;!\n]+|(?<=\.)\s+")
_QUESTION_START = re.compile(
    r"^(?:do|does|did|can|could|would|will|should|is|are|was|what|how|why|where|when|which|"
    r"who|shall|may)\b",
    re.IGNORECASE,
)
_EN_HEDGE = re.compile(
    r"\b(?:maybe|might|probably|perhaps|i\s+think|i\s+guess|kind\s+of|sort\s+of|not\s+sure|"
    r"sometimes)\b",
    re.IGNORECASE,
)
_ZH_HEDGE = re.compile(r"可能|也许|大概|好像|或许|有时|不太确定")
_EN_CONDITION = re.compile(r"^(?:if|when|whenever|unless)\b", re.IGNORECASE)
_ZH_CONDITION = re.compile(r"^(?:如果|要是|假如|除非)")
# A condition with its own statement, left beside a typed unit's words.
_MORE = re.compile(r"\b(?:if|when|whenever|unless)\s+\w+\s+\w+|如果|要是|假如|除非", re.IGNORECASE)


def clauses(text: str) -> list[str]:
    """The clauses of a message: sentences, and English clauses joined by "but" / "and I";
    Chinese comma clauses, except a condition with its consequence ("如果下雨，我就…")."""
    if not has_cjk(text):
        parts = _EN_CLAUSE_SPLIT.split(text)
    else:
        parts = []
        for sentence in _ZH_CLAUSE_SPLIT.split(text):
            # Comma-separated clauses are separate statements, except a condition and its
            # consequence ("如果下雨，我就…").
            if sentence and not _ZH_CONDITION.match(sentence.strip()):
                parts.extend(re.split(r"[，,]|并且|而且", sentence))
            else:
                parts.append(sentence)
    return [p.strip(" ,，、") for p in parts if p and p.strip(" ,，、")]


def is_question(clause: str) -> bool:
    """The clause asks (a question mark, 吗/呢 at its end, or an English question word first)."""
    stripped = clause.rstrip()
    if stripped.endswith(("?", "？")) or re.search(r"[吗呢]$", stripped):
        return True
    return _QUESTION_START.match(stripped) is not None


def hedged(text: str, zh: bool) -> bool:
    """``text`` hedges ("maybe", "I think", 可能, 也许)."""
    return (_ZH_HEDGE if zh else _EN_HEDGE).search(text) is not None


def conditional(clause: str, zh: bool) -> bool:
    """``clause`` opens with a condition ("if…", "when…", 如果…)."""
    return (_ZH_CONDITION if zh else _EN_CONDITION).match(clause) is not None


def says_more(rest: str) -> bool:
    """What is left of a clause outside its typed units holds a condition with its own
    statement ("…, and if it rains I take the bus")."""
    return _MORE.search(rest) is not None


# A Chinese clause that opens with its predicate ("也对花生过敏", "要离地铁近的").
_ZH_PREDICATE = re.compile(
    r"^(?:要|想|也|还|都|又|能|会|可以|不|没|刚|已经|在|对|正在|经常|一直|从来|很|非常|特别|比较|"
    r"只|就|才|必须|喜欢|爱|讨厌|打算|准备|计划|希望|觉得)"
)


def predicate_first(clause: str) -> bool:
    """A Chinese clause that opens with its predicate: its subject, the speaker, was left out
    (tester C9: "要离地铁近的" is "用户要离地铁近的", not "用户：要离地铁近的"); other texts
    are the speaker's words ("用户：季度报告…截止")."""
    return _ZH_PREDICATE.match(clause) is not None


# A text that opens with a relative and no owner: the speaker's relative (tester D32).
_ZH_KIN_FIRST = re.compile(
    r"^(?:爸妈|父母|爸爸|妈妈|老爸|老妈|老婆|老公|妻子|丈夫|儿子|女儿|孩子|"
    r"哥哥|姐姐|弟弟|妹妹|爷爷|奶奶|外公|外婆|公婆|岳父母|家人)"
)


# A text that opens with a plan of the speaker's moved or called off (tester hbreak7 H15:
# "用户：上海的出差取消了。", "用户：婚礼推迟到2027年10月。"): the speaker's plan.
_ZH_PLAN_FIRST = re.compile(
    r"^[^，。,！？]{0,20}?(?:出差|之行|旅行|旅游|行程|婚礼|会议|预约|航班|聚会|面试|约会|假期|度假|"
    r"手术|考试)(?=[^，。,！？]{0,6}?(?:取消|推迟|延期|延后|改到|改成|改为|改期|提前|黄了|泡汤))"
)


def joiner(clause: str) -> str:
    """What goes between the speaker and a Chinese text that names no one: 的 before a
    relative (爸妈搬到了上海 → 用户的爸妈…) or a plan moved or called off (婚礼推迟到十月 →
    用户的婚礼…), nothing before a predicate (:func:`predicate_first`), else "：" (the
    speaker's words)."""
    if _ZH_KIN_FIRST.match(clause) or _ZH_PLAN_FIRST.match(clause):
        return "的"
    return "" if predicate_first(clause) else "："
