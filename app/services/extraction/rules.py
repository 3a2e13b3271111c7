"""The offline extractor's typed rules, English and Chinese: a cue pattern per kind of unit
(constraint, preference, fact) and how its match becomes a unit's value, trigger-scenario
``query`` and entities. Earlier rules are more specific (the extractor skips a later match
over the same words). Values are written about "the user" / 用户; the extractor puts the
speaker's name there when the message carries one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from app.core.text import has_cjk
from app.core.vocabulary import MemoryType
from app.services.extraction import triggers as t
from app.services.extraction.phrasing import article as _article
from app.services.extraction.phrasing import avoid, makes_sick
from app.services.extraction.phrasing import subject_is as _subject
from app.services.extraction.phrasing import zh_subject as _zsubject
from app.services.extraction.statements import imperative_verb as _imperative
from app.services.extraction.statements import names_after as _names_after
from app.services.extraction.statements import third_person_verb as _third

_END = r"(?=\s+(?:and|but|so|because|since|though|although|for\s+(?:any|the|my))\b|[.,;:!?]|$)"
# A liking's "and" joins the things liked ("I like tea and coffee", "action and sci-fi
# movies"); it ends the object only before a clause of its own ("and I…", "and it's…").
_LIKE_END = (
    r"(?=\s+(?:and\s+(?:i|i'm|my|we|our|it|it's|they|he|she|you|then|also|so)\b|but|so|because|"
    r"since|though|although|for\s+(?:any|the|my))\b|[.,;:!?]|$)"
)
_X = r"([^.,;:!?]{1,80}?)"
_ZX = r"([^，。！？,.!?；;：:]{1,20}?)"
_ZEND = r"(?=[，。！？,.!?；;：:]|$)"
_TRAILING = re.compile(
    r"\s+(?:too|either|anymore|now|currently|these\s+days|nowadays|at\s+the\s+moment|any\s+more|"
    r"at\s+all|please|though|really|very\s+much|a\s+lot|"
    r"(?:last|this|next)\s+(?:week|month|year)|yesterday|today|tomorrow|recently|lately|"
    r"(?:in|since)\s+\d{4}|\d+\s+(?:days?|weeks?|months?|years?)\s+ago)$",
    re.IGNORECASE,
)

# "Never had a chance…", "Always here to help": a statement whose subject (I, I'm) was left
# out, not an instruction; an imperative goes on with a verb's base form.
_NOT_IMPERATIVE = (
    r"(?!(?:had|has|have|was|were|is|are|am|been|being|did|does|got|went|knew|thought|felt|"
    r"saw|seen|heard|said|met|tried|here|there|so|such|a|an|the|my|your|our|their|his|her)\b)"
)

# "I love it.", "something I love is awesome": no liked thing is named (a bare pronoun, or the
# clause goes on with its verb).
_NO_LIKED_THING = (
    rf"(?!(?:it|that|this|them|these|those)(?:\s+(?:so\s+much|a\s+lot))?{_END})"
    r"(?!(?:is|was|are|were|has|had|will|would|can|could|makes?|made)\b)"
)


@dataclass(frozen=True)
class Rule:
    """A cue pattern and how to turn its match into a unit."""

    pattern: re.Pattern[str]
    type: MemoryType
    build: Callable[[re.Match[str]], tuple[str, str, list[str]]]  # value, query, objects
    confidence: float

    def unit(self, m: re.Match[str]) -> tuple[str, str, list[str]]:
        """Value, query and entities (the things its objects name, :func:`entity_head`)."""
        value, query, objects = self.build(m)
        return value, query, [h for o in objects if (h := entity_head(o))]


def _not_to(m: re.Match[str]) -> str:
    """What the user asks the assistant not to do: "bring up the user's divorce"."""
    return f"{_imperative(m.group(1))} {_obj(m.group(2))}"


def _obj(text: str) -> str:
    text = text.strip().strip("\"'“”‘’")
    text = _TRAILING.sub("", text)
    text = re.sub(r"\bmy\b", "the user's", text, flags=re.IGNORECASE)  # C11: not "their"
    text = re.sub(r"\bme\b", "them", text, flags=re.IGNORECASE)
    return text.strip()


def _zobj(text: str) -> str:
    return text.strip().replace("我的", "用户的").replace("我", "用户").rstrip("了的吧啊呀哦")


# What a rule's object says beyond the thing it names: a time or place after it ("Hamburg in
# May", "window seats on long flights"), a time before it (五月的汉堡).
_EN_AFTER_HEAD = re.compile(
    r"\s+(?:in|on|at|during|for|from|since|until|with|every|each|this|next|last|when|while|"
    r"before|after|because|if|unless|around|by|to|of|about|that|which|who|where|like|as)\b.*$",
    re.IGNORECASE,
)
_ZH_TIME_BEFORE = re.compile(
    r"^(?:[0-9一二三四五六七八九十两]+月|[每这上下]?个?(?:周末|星期.|周.|月)|"
    r"夏天|冬天|春天|秋天|早上|晚上)的"
)


_EN_NOT_A_THING = re.compile(r"^(?:it|that|them|what|how|when|not|\w+ing)\b", re.IGNORECASE)
_EN_DETERMINER = re.compile(
    r"^(?:(?:the\s+user['’]s|your|their|his|her|our|my|the|a|an|this|these|those|all|some)\s+)+",
    re.IGNORECASE,
)


def entity_head(obj: str) -> str | None:
    """The thing a typed rule's object names, for ``entities``: "Hamburg in May" → "Hamburg",
    "your turtles" → "turtles", 五月的汉堡 → 汉堡 (tester F16: the whole phrase was an
    entity); None when it names no thing ("hiking in the Alps", "it when you cook", "that you
    chose pottery": the names in it are found as names)."""
    if has_cjk(obj):
        return _ZH_TIME_BEFORE.sub("", obj).strip() or obj
    if _EN_NOT_A_THING.match(obj.strip()):
        return None
    head = _EN_DETERMINER.sub("", _EN_AFTER_HEAD.sub("", obj).strip(" ,"))
    if not head or len(head.split()) > 3 or _EN_NOT_A_THING.match(head):
        return None
    return head


def _en(p: str) -> re.Pattern[str]:
    return re.compile(p, re.IGNORECASE)


def _r(
    pattern: str, typ: MemoryType, conf: float, build: Callable[..., tuple[str, str, list[str]]]
) -> Rule:
    return Rule(_en(pattern), typ, build, conf)


def _z(
    pattern: str, typ: MemoryType, conf: float, build: Callable[..., tuple[str, str, list[str]]]
) -> Rule:
    return Rule(re.compile(pattern), typ, build, conf)


_RELATIONS = (
    r"wife|husband|partner|son|daughter|mother|father|mom|mum|dad|sister|brother|"
    r"girlfriend|boyfriend|kid|child|baby"
)
_PETS = r"dog|cat|puppy|kitten|rabbit|bunny|parrot|hamster|horse|turtle|fish"
_JOBS = (
    r"engineer|developer|programmer|designer|teacher|doctor|nurse|student|manager|lawyer|"
    r"accountant|scientist|researcher|writer|consultant|analyst|architect|founder|chef|artist"
)

EN_RULES: list[Rule] = [
    # No allergy is a standing fact a food agent needs (tester B10), before "allergic to".
    _r(r"\bi\s+(?:don't|do\s+not)\s+have\s+any\s+(?:known\s+)?(?:food\s+)?allerg(?:y|ies)\b|"
       r"\bi\s+have\s+no\s+(?:known\s+)?(?:food\s+)?allerg(?:y|ies)\b|"
       r"\bi\s*'?\s*a?m\s+not\s+allergic\s+to\s+any(?:thing|\s+food)\b", "fact", 0.85,
       lambda m: ("The user has no allergies.", t.Q_FOOD_EN.format(x="allergens"), [])),
    # A correction of an allergy (tester D9): "no longer" says it was so and is not now.
    _r(rf"\bi\s*'?\s*a?m\s+(?:now\s+)?no\s+longer\s+allergic\s+to\s+{_X}{_END}", "fact", 0.85,
       lambda m: (f"The user is no longer allergic to {_obj(m.group(1))}.",
                  t.allergy_query(_obj(m.group(1))), [_obj(m.group(1))])),
    _r(rf"\bi\s*'?\s*a?m\s+not\s+allergic\s+to\s+{_X}{_END}", "fact", 0.85,
       lambda m: (f"The user is not allergic to {_obj(m.group(1))}.",
                  t.allergy_query(_obj(m.group(1))), [_obj(m.group(1))])),
    _r(rf"\b(i\s*'?\s*a?m|my\s+(?:{_RELATIONS}))\s+(?:is\s+)?(?:still\s+|also\s+)?(?:(?:very|severely|highly|extremely|"
       rf"deathly|really|quite|a\s+bit|slightly|mildly)\s+)?allergic\s+to\s+{_X}{_END}",
       "constraint", 0.95,
       lambda m: (f"{_subject(m.group(1))} allergic to {_obj(m.group(2))}.",
                  t.allergy_query(_obj(m.group(2))), [_obj(m.group(2))])),
    _r(rf"\bi\s+have\s+(?:an?\s+|a\s+severe\s+)?{_X}\s+allergy\b", "constraint", 0.95,
       lambda m: (f"The user is allergic to {_obj(m.group(1))}.",
                  t.allergy_query(_obj(m.group(1))), [_obj(m.group(1))])),
    _r(r"\bi\s*'?\s*a?m\s+(?:a\s+)?(vegetarian|vegan|pescatarian)\b", "constraint", 0.9,
       lambda m: (f"The user is {m.group(1).lower()}.", t.Q_FOOD_EN.format(x="meat"),
                  [m.group(1).lower()])),
    _r(rf"^(?:please\s+)?(?:never|don't\s+ever|do\s+not\s+ever)\s+{_NOT_IMPERATIVE}{_X}{_END}",
       "constraint", 0.85,
       lambda m: (f"The user asked the assistant never to {_obj(m.group(1))}.",
                  t.Q_INSTRUCTION_EN.format(x=_obj(m.group(1))), [])),
    # "Don't bring up my divorce.", "Please don't mention allergies.", "Stop suggesting X"
    # (tester D24): what the assistant is asked not to do, a standing instruction.
    _r(rf"^(?:please\s+)?(?:(?:don't|do\s+not)\s+|stop\s+)(mention(?:ing)?|bring(?:ing)?\s+up|"
       rf"talk(?:ing)?\s+(?:to\s+me\s+)?about|ask(?:ing)?\s+(?:me\s+)?about|remind(?:ing)?\s+me\s+"
       rf"(?:of|about)|suggest(?:ing)?|recommend(?:ing)?|call(?:ing)?\s+me|us(?:e|ing)|includ(?:e|ing)|"
       rf"add(?:ing)?|send(?:ing)?|put(?:ting)?|spoil(?:ing)?|shar(?:e|ing))\s+{_X}{_END}",
       "constraint", 0.85,
       lambda m: (f"The user asked the assistant not to {_not_to(m)}.",
                  t.Q_INSTRUCTION_EN.format(x=_not_to(m)), [])),
    _r(rf"^(?:please\s+)?always\s+{_NOT_IMPERATIVE}{_X}{_END}", "constraint", 0.8,
       lambda m: (f"The user asked the assistant to always {_obj(m.group(1))}.",
                  t.Q_INSTRUCTION_EN.format(x=_obj(m.group(1))), [])),
    _r(r"\b(?:keep|make)\s+(?:it|things|them|your\s+(?:answers?|replies|responses)|"
       r"the\s+(?:answers?|replies|responses))\s+(?:short|brief|concise|succinct|to\s+the\s+point)"
       r"|\b(?:write|give\s+me|send\s+me)\s+(?:shorter|short|brief|briefer|concise|succinct)\s+"
       r"(?:answers?|replies|responses)",
       "preference", 0.85,
       lambda m: ("The user prefers concise answers.", t.Q_STYLE_EN, [])),
    _r(r"\bi\s+(?:really\s+)?(?:prefer|like|want|love)\s+(short|brief|concise|succinct|detailed|"
       r"long|thorough|in-depth)(?:\s+and\s+\w+)?\s+(answers?|replies|responses|explanations?)",
       "preference", 0.9,
       lambda m: (f"The user prefers {m.group(1).lower()} {m.group(2).lower()}.",
                  t.Q_STYLE_EN, [])),
    _r(rf"\bi\s+(?:never|don't\s+ever|do\s+not\s+ever)\s+(?!(?:really\s+)?(?:liked|enjoyed|cared)\b){_X}{_END}",
       "constraint", 0.85, lambda m: (f"The user never {_obj(m.group(1))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(1))), [])),
    _r(rf"\bi\s+(?:can't|cannot|can\s+not|mustn't|must\s+not)\s+(eat|drink|have|take|use|fly|"
       rf"drive|travel|work|do|stand)\s+{_X}{_END}", "constraint", 0.85,
       lambda m: (f"The user cannot {m.group(1).lower()} {_obj(m.group(2))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    _r(r"\bi\s+(?:don't|do\s+not)\s+(eat|drink|smoke|use|drive|own|have)\s+([^.,;:!?]{1,60}?)\s+"
       r"any\s?more\b", "fact", 0.85,
       lambda m: (f"The user no longer {_third(m.group(1).lower())} {_obj(m.group(2))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    _r(rf"\bi\s+(?:still\s+|also\s+|just\s+)?(?:don't|do\s+not)\s+(eat|drink)\s+{_X}{_END}",
       "constraint", 0.85,
       lambda m: (f"The user does not {m.group(1).lower()} {_obj(m.group(2))}.",
                  t.Q_FOOD_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    # "I'm pregnant, so no alcohol or raw fish." (tester hbreak5 F28: only "pregnant" was kept)
    _r(rf"(?:^|(?<=,\s))(?![^.!?]*\bplease\b)so\s+(?:no|never\s+(?:give|offer|serve)\s+me|avoid)\s+(?!(?:worries|worry|problem|"
       rf"big\s+deal|need|rush|pressure|hurry|idea|clue|way|wonder|matter|thanks)\b){_X}{_END}",
       "constraint", 0.85, lambda m: avoid(_obj(m.group(1)))),
    _r(rf"^\W*{_X}\s+(?:always\s+)?makes?\s+me\s+(sick|ill|nauseous|throw\s+up|break\s+out|bloated)\b",
       "constraint", 0.85, lambda m: makes_sick(_obj(m.group(1)), m.group(2))),
    _r(rf"\bi\s+(?:only|just)\s+(eat|drink)\s+{_X}{_END}", "constraint", 0.85,
       lambda m: (f"The user only {m.group(1).lower()}s {_obj(m.group(2))}.",
                  t.Q_CONSTRAINT_EN.format(x="food or drink"), [_obj(m.group(2))])),
    _r(rf"\bi\s+(eat|drink)\s+{_X}\s+only\b", "constraint", 0.85,
       lambda m: (f"The user only {m.group(1).lower()}s {_obj(m.group(2))}.",
                  t.Q_CONSTRAINT_EN.format(x="food or drink"), [_obj(m.group(2))])),
    _r(rf"\bi\s+must\s+{_X}{_END}", "constraint", 0.8,
       lambda m: (f"The user must {_obj(m.group(1))}.",
                  t.Q_CONSTRAINT_EN.format(x=_obj(m.group(1))), [])),
    _r(rf"\bi\s+(?:really\s+)?(?:hate|dislike|detest|loathe|can't\s+stand|cannot\s+stand)\s+{_X}{_LIKE_END}",
       "preference", 0.85,
       lambda m: (f"The user dislikes {_obj(m.group(1))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(1))), [_obj(m.group(1))])),
    _r(rf"\bi(?:\s+(?:really\s+)?(?:don't|do\s+not|didn't)\s+(?:really\s+)?(?:like|enjoy|care\s+for)|(?:'ve|\s+have)?\s+never\s+(?:really\s+)?(?:liked|enjoyed|cared\s+for))\s+{_X}{_END}",
       "preference", 0.8,
       lambda m: (f"The user does not like {_obj(m.group(1))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(1))), [_obj(m.group(1))])),
    _r(rf"\bi\s*'?\s*a?m\s+not\s+(?:a\s+(?:big\s+|huge\s+)?fan\s+of|into|keen\s+on)\s+{_X}{_END}",
       "preference", 0.75,
       lambda m: (f"The user is not a fan of {_obj(m.group(1))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(1))), [_obj(m.group(1))])),
    _r(rf"\bmy\s+favou?rite\s+(\w+(?:\s+\w+)?)\s+is\s+{_X}{_END}", "preference", 0.85,
       lambda m: (f"The user's favourite {m.group(1).lower()} is {_obj(m.group(2))}.",
                  t.Q_LIKE_EN.format(x=m.group(1).lower()), [_obj(m.group(2))])),
    _r(rf"\bi\s+(?:really\s+|absolutely\s+|do\s+)?(prefer|love|adore|enjoy|like)\s+"
       rf"{_NO_LIKED_THING}{_X}{_LIKE_END}",
       "preference", 0.75,
       lambda m: (f"The user {_third(m.group(1).lower())} {_obj(m.group(2))}.",
                  t.Q_LIKE_EN.format(x=_obj(m.group(2))), [_obj(m.group(2))])),
    _r(rf"\bi\s+(?:currently\s+|now\s+)?(?:live|reside)\s+in\s+{_X}{_END}", "fact", 0.9,
       lambda m: (f"The user lives in {_obj(m.group(1))}.", t.Q_HOME_EN, [_obj(m.group(1))])),
    _r(rf"\b(?:i|we)\s*(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+)?(?:moved|relocated)\s+to\s+{_X}{_END}",
       "fact", 0.9,
       lambda m: (f"The user moved to {_obj(m.group(1))} and now lives there.", t.Q_HOME_EN,
                  [_obj(m.group(1))])),
    _r(rf"\bi\s*'?\s*a?m\s+(?:based|living)\s+in\s+{_X}{_END}", "fact", 0.85,
       lambda m: (f"The user lives in {_obj(m.group(1))}.", t.Q_HOME_EN, [_obj(m.group(1))])),
    _r(rf"\bi\s+(?:work|am\s+working|'m\s+working)\s+(?:at|for)\s+{_X}{_END}", "fact", 0.85,
       lambda m: (f"The user works at {_obj(m.group(1))}.", t.Q_WORK_EN, [_obj(m.group(1))])),
    _r(rf"\bi\s+work\s+as\s+(?:an?\s+)?{_X}{_END}", "fact", 0.85,
       lambda m: (f"The user works as {_article(_obj(m.group(1)))}.", t.Q_WORK_EN, [])),
    # "I'm now a software tester at Acme Corp." (E1): a role at an employer; "don't … anymore"
    _r(rf"\bi\s*'?\s*a?m\s+(?:now\s+|currently\s+)?an?\s+((?:[a-z][\w-]*\s+){{0,2}}(?:{_JOBS}|nurse|"
       r"clerk|(?!member\b)[a-z]{2,}(?:er|or|ist|ian|ant|ent|ect|ive)))\s+(?:at|for|with)\s+"
       r"((?-i:[A-Z])[\w&'’-]*(?:\.(?=\w))?(?:\s+(?-i:[A-Z])[\w&'’-]*)*)", "fact", 0.85,
       lambda m: (f"The user works as {_article(m.group(1))} at {m.group(2)}.",
                  t.Q_WORK_EN, [m.group(2)])),
    _r(rf"\bi\s*'?\s*a?m\s+an?\s+((?:[\w-]+\s+){{0,2}}(?:{_JOBS}))\b", "fact", 0.8,
       lambda m: (f"The user is {_article(m.group(1))}.", t.Q_WORK_EN, [])),  # "a Python developer"
    # A name is capitalised ((?-i:…) inside the rules' IGNORECASE): "my husband is now
    # retired" named him "now" (tester D15); an adverb before the name is not part of it.
    _r(r"\b(?:my\s+name\s+is|call\s+me)\s+(?:(?:actually|really|still|just)\s+)?"
       r"((?-i:[A-Z])[\w'’-]+(?:\s+(?-i:[A-Z])[\w'’-]+)?)", "fact", 0.9,
       lambda m: (f"The user's name is {m.group(1)}.", t.Q_NAME_EN, [m.group(1)])),
    # "Hi, I'm Dana." / "I'm Dana, by the way." (tester E4: no unit held the name)
    _r(r"^\W*(?:(?:hi|hello|hey|hiya)(?:\s+there)?[\s,!.]+)?i\s*['’]?\s*a?m\s+"
       r"(?!(?-i:Sorry|Fine|Good|Great|Okay|Here|Back|Home|Ready|Done|Tired|Sure|Busy|Happy|Glad|"
       r"Late|Free|Not|Still|Just|Also|Really|Alright|Well|Excited|Lost|Confused|Curious|Hungry|"
       r"American|Canadian|British|Indian|Mexican|Brazilian|Australian|Russian|Polish|Jewish|Muslim|"
       r"Catholic|Christian|Buddhist|Hindu|Vegan|Vegetarian|Single|Married|[A-Z][a-z]+(?:ese|ish))\b)"
       r"((?-i:[A-Z])[a-z'’-]+(?:\s+(?-i:[A-Z])[a-z'’-]+)?)"
       r"(?=\s*(?:[.,!;]|$|\s+(?:by\s+the\s+way|here)\b))",
       "fact", 0.85,
       lambda m: (f"The user's name is {m.group(1)}.", t.Q_NAME_EN, [m.group(1)])),
    _r(rf"\bmy\s+({_RELATIONS})(?:'s\s+name)?\s+is\s+(?:(?:actually|really|still|now)\s+)?"
       r"(?:called\s+|named\s+)?((?-i:[A-Z])[\w'’-]+)\b(?!\s+(?:years?|months?)\b)",
       "fact", 0.85,
       lambda m: (f"The user's {m.group(1).lower()} is named {m.group(2)}.", t.Q_FAMILY_EN,
                  [m.group(2)])),
    # ... with the name when it follows (tester E23: "I have a daughter called Mia." kept only
    # "The user has a daughter.", the name gone for good)
    _r(r"\bi\s+have\s+(\d+|a|an|one|two|three|four|five|six)\s+(kids?|children|sons?|daughters?|"
       r"brothers?|sisters?|siblings?|grandchildren)\b(?:\s*,?\s*(?:called|named|(?:and\s+)?(?:his|her)"
       r"\s+name\s+is)\s+((?-i:[A-Z])[\w'’-]+))?", "fact", 0.85,
       lambda m: (f"The user has {m.group(1).lower()} {m.group(2).lower()}"
                  + (f" named {m.group(3)}." if m.group(3) else "."), t.Q_FAMILY_EN,
                  [m.group(3)] if m.group(3) else [])),
    _r(rf"\bi\s+(?:also\s+)?(?:have|own)\s+((?:a|an|one|two|three|\d+)\s+(?:{_PETS})s?\s+"
       r"(?:named|called)\s+(?-i:[A-Z])[\w'’-]+)(?:\s*,\s*(?:he|she|it)\s*(?:'s|’s|\s+is)\s+"
       r"(an?\s+[\w-]+(?:\s+(?!and\b|but\b)[\w-]+)?))?", "fact", 0.85,
       lambda m: (f"The user has {m.group(1)}" + (f", {m.group(2)}." if m.group(2) else "."),
                  t.Q_PET_EN, [m.group(1).split()[-1]])),
    _r(r"\bi\s*'?\s*a?m\s+(married|single|divorced|engaged|pregnant|retired)\b", "fact", 0.85,
       lambda m: (f"The user is {m.group(1).lower()}.", t.Q_FAMILY_EN, [])),
]  # fmt: skip

_ZH_REL = r"儿子|女儿|老婆|妻子|丈夫|老公|孩子|妈妈|爸爸|母亲|父亲"
_ZH_VERB = r"(吃|喝|看|听|玩|用|穿)?"
# Other people a Chinese rule's subject may name after 我 (a name may follow: 我朋友小王).
_ZH_OTHERS = r"男朋友|女朋友|朋友|好友|闺蜜|同事|室友|老板|邻居|爸妈|父母|哥哥|姐姐|弟弟|妹妹"

ZH_RULES: list[Rule] = [
    _z(r"我(?:没有|没|并没有)(?:任何|什么)?(?:食物)?过敏|我对(?:什么|任何东西|任何食物)都不过敏",
       "fact", 0.85, lambda m: ("用户没有过敏。", t.Q_FOOD_ZH.format(x="过敏原"), [])),
    # A correction of an allergy (tester D9): 我已经不对海鲜过敏了, 我对海鲜已经不过敏了.
    _z(rf"我(?:现在)?(?:已经不再|已经不|不再)(?:对)?{_ZX}过敏|我对{_ZX}(?:已经|现在)(?:不再|不)过敏",
       "fact", 0.85,
       lambda m: (f"用户不再对{_zobj(m.group(1) or m.group(2))}过敏。",
                  t.Q_FOOD_ZH.format(x=_zobj(m.group(1) or m.group(2))),
                  [_zobj(m.group(1) or m.group(2))])),
    _z(rf"我对{_ZX}(?:并)?不过敏", "fact", 0.85,
       lambda m: (f"用户对{_zobj(m.group(1))}不过敏。",
                  t.allergy_query(_zobj(m.group(1))), [_zobj(m.group(1))])),
    # 我朋友小王对坚果过敏: the friend's allergy (tester D35: "用户对朋友小王对坚果过敏")
    _z(rf"(我的?(?:{_ZH_REL}|{_ZH_OTHERS})(?:[\u4e00-\u9fff]{{1,3}}?(?=对))?|我)(?:对)?"
       rf"([^，。！？,.!?；;：:不没对]{{1,20}}?)(?:严重|有点|轻微)?过敏",
       "constraint", 0.95,
       lambda m: (f"{_zsubject(m.group(1))}对{_zobj(m.group(2))}过敏。",
                  t.allergy_query(_zobj(m.group(2))), [_zobj(m.group(2))])),
    _z(r"我(?:是素食者|吃素|是纯素食者)", "constraint", 0.9,
       lambda m: ("用户吃素。", t.Q_FOOD_ZH.format(x="肉"), [])),
    _z(r"(?:回答|回复|答案|解释)(?:请|要|尽量|最好|都)?(?:写得?)?(简洁|简短|简单|精炼|详细|具体|详尽)"
       r"|(简洁|简短|详细)(?:一点|一些|些)?(?:地)?(?:回答|回复)", "preference", 0.85,
       lambda m: (f"用户希望回答{m.group(1) or m.group(2)}。", t.Q_STYLE_ZH, [])),
    _z(rf"我(?:从不|从来不|绝不|决不){_ZX}{_ZEND}", "constraint", 0.85,
       lambda m: (f"用户从不{_zobj(m.group(1))}。",
                  t.Q_CONSTRAINT_ZH.format(x=_zobj(m.group(1))), [])),
    _z(rf"我(?:不能|不可以|没法)(吃|喝|碰|用|坐|开){_ZX}{_ZEND}", "constraint", 0.85,
       lambda m: (f"用户不能{m.group(1)}{_zobj(m.group(2))}。",
                  t.Q_CONSTRAINT_ZH.format(x=_zobj(m.group(2))), [_zobj(m.group(2))])),
    _z(rf"我(?:只|只能)(吃|喝){_ZX}{_ZEND}", "constraint", 0.85,
       lambda m: (f"用户只{m.group(1)}{_zobj(m.group(2))}。",
                  t.Q_CONSTRAINT_ZH.format(x="饮食"), [_zobj(m.group(2))])),
    # 我不吃素 (not vegetarian) keeps nothing out of the meals: no constraint (tester C24)
    _z(rf"(我的?(?:{_ZH_REL})|我)(?:也|从来|一直|就|可|倒是|还是|还|依然|仍然|仍)?不(吃|喝|碰)"
       rf"(?!素(?:[。！!，,]|$)){_ZX}{_ZEND}",
       "constraint", 0.85,
       lambda m: (f"{_zsubject(m.group(1))}不{m.group(2)}{_zobj(m.group(3))}。",
                  t.Q_FOOD_ZH.format(x=_zobj(m.group(3))), [_zobj(m.group(3))])),
    _z(rf"(?:请|千万|一定)?(?:不要|别|勿)(?:再)?(?:给我|为我|帮我|跟我)?(推荐|安排|发|用|点|订|买|加|放)?{_ZX}{_ZEND}",
       "constraint", 0.8,
       lambda m: (f"用户要求不要{m.group(1) or ''}{_zobj(m.group(2))}。",
                  t.Q_INSTRUCTION_ZH.format(x=_zobj(m.group(2))), [])),
    # Not "你一定要去清水寺" said to another (tester E19: the speaker's constraint)
    _z(rf"(?<![你您他她])(?:我)?(?:必须|一定要|务必){_ZX}{_ZEND}", "constraint", 0.8,
       lambda m: (f"用户必须{_zobj(m.group(1))}。",
                  t.Q_CONSTRAINT_ZH.format(x=_zobj(m.group(1))), [])),
    _z(rf"我最喜欢的([^，。是]{{1,8}})是{_ZX}{_ZEND}", "preference", 0.85,
       lambda m: (f"用户最喜欢的{m.group(1)}是{_zobj(m.group(2))}。",
                  t.Q_LIKE_ZH.format(x=m.group(1)), [_zobj(m.group(2))])),
    _z(rf"我(?:很|非常|特别|真的|一点也|一点都)?(不喜欢|不爱|讨厌|不想要|受不了|反感|不太喜欢){_ZH_VERB}{_ZX}{_ZEND}",
       "preference", 0.8,
       lambda m: (f"用户{'讨厌' if m.group(1) == '讨厌' else '不喜欢'}{m.group(2) or ''}"
                  f"{_zobj(m.group(3))}。",
                  t.Q_LIKE_ZH.format(x=_zobj(m.group(3))), [_zobj(m.group(3))])),
    _z(rf"我(?:倒是|倒|也|还|就)?(?:很|非常|最|特别|比较|挺|真的|更|还是更)?(?:喜欢|爱|偏爱|偏好|钟爱){_ZH_VERB}{_ZX}{_ZEND}",
       "preference", 0.8,
       lambda m: (f"用户喜欢{m.group(1) or ''}{_zobj(m.group(2))}。",
                  t.Q_LIKE_ZH.format(x=_zobj(m.group(2))), [_zobj(m.group(2))])),
    _z(rf"我(?:现在|目前)?(?:住在|定居在|定居于|生活在){_ZX}{_ZEND}", "fact", 0.9,
       lambda m: (f"用户住在{_zobj(m.group(1))}。", t.Q_HOME_ZH, [_zobj(m.group(1))])),
    _z(rf"我(?:去年|今年|前年|上个?月|最近|已经|刚刚?|才)*(?:从[^，。！？,]{{1,10}}?)?(?:搬到|搬去|搬来)了?"
       rf"{_ZX}{_ZEND}", "fact", 0.9,
       lambda m: (f"用户搬到了{_zobj(m.group(1))}，现在住在那里。", t.Q_HOME_ZH,
                  [_zobj(m.group(1))])),
    _z(r"(?:^|我)(?:现在|目前)?在([^，。！？,.!?]{1,15}?)(?:工作|上班|任职|(做|当)([^，。！？,.!?]{0,6}"
       r"(?:经理|工程师|程序员|设计师|老师|教师|医生|护士|律师|会计|研究员|顾问|分析师|厨师|销售|运营)))",
       "fact", 0.85,
       lambda m: (f"用户在{_zobj(m.group(1))}{m.group(2) + m.group(3) if m.group(2) else '工作'}。",
                  t.Q_WORK_ZH, [_zobj(m.group(1))])),
    _z(r"我(?:是|当)(?:一名|一个|一位)?([^，。！？]{0,8}(?:工程师|程序员|设计师|老师|教师|医生|护士|"
       r"学生|经理|律师|会计|研究员|作家|顾问|分析师|厨师|创业者))", "fact", 0.8,
       lambda m: (f"用户是{m.group(1)}。", t.Q_WORK_ZH, [])),
    _z(r"(?:我叫|我的名字是)([^，。！？,.!?\s]{1,10})", "fact", 0.9,
       lambda m: (f"用户叫{m.group(1)}。", t.Q_NAME_ZH, [m.group(1)])),
    _z(r"我有(\d+|[一两二三四五六])个(孩子|儿子|女儿|兄弟|姐妹|哥哥|姐姐|弟弟|妹妹)"
       r"(?:[，,]?(?:名字)?叫([^，。！？,.!?\s]{1,6})|[：:]([^，。！？,.!?\s]{1,20}))?",
       "fact", 0.85,
       lambda m: (f"用户有{m.group(1)}个{m.group(2)}{_names_after(m.group(3), m.group(4))}。",
                  t.Q_FAMILY_ZH, [n for n in (m.group(3),) if n])),
    _z(r"我(?:还|也)?(?:有|养了?)((?:一|两|[三四五六]|\d+)(?:只|条|个)叫([^，。！？,.!?\s的]{1,6})的"
       r"(?:狗|猫|兔子|鹦鹉|仓鼠|狗狗|猫咪))", "fact", 0.85,
       lambda m: (f"用户有{m.group(1)}。", t.Q_FAMILY_ZH, [m.group(2)])),
    _z(rf"我的?({_ZH_REL})叫([^，。！？,.!?\s]{{1,6}})", "fact", 0.85,
       lambda m: (f"用户的{m.group(1)}叫{m.group(2)}。", t.Q_FAMILY_ZH, [m.group(2)])),
]  # fmt: skip
