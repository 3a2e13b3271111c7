"""A short answer to the assistant's question about a slot of the one who answers (tester E18),
English and Chinese: "Hangzhou." after "Which city do you live in?" says nothing alone (it was
stored as the event "Hangzhou."); with the question it is "I live in Hangzhou.", which the
extractor then reads as any other message (a fact, its trigger scenario, its entity):

- where they live or come from, their job and employer, their name, age and birthday, a
  favourite thing, a phone number, e-mail or address, what they are allergic to ("Any food
  allergies?" "Peanuts." → "I am allergic to peanuts.", a constraint);
- Chinese: 你住在哪个城市？ "杭州。" → 我住在杭州。; 你做什么工作？ "老师。" → 我是老师。;
  你叫什么名字？ → 我叫…; 你对什么过敏？ → 我对…过敏。

Only a short answer (a few words, no verb of its own, no "I …" sentence) to a question put to
"you" about that slot is completed (:func:`wh_answer` is None otherwise): an answer that is a
sentence already is read as said, and "What should I cook?" "Pasta." asks about no slot.
"""

from __future__ import annotations

import re

from app.core.text import has_cjk

_EN_LEAD = re.compile(
    r"^\W*(?:(?:oh|um+|uh+|well|hmm+|yes|yeah|yep|sure|ok|okay|just|only|mostly|mainly)\b[\s,!.:;–—-]*)+",
    re.IGNORECASE,
)
# A short answer: a few words, none of them a subject or a verb that makes it a sentence.
_EN_SENTENCE = re.compile(
    r"\b(?:i|i'm|i've|i'd|my|we|we're|our|it's|it|is|are|was|were|am|be|do|does|did|don't|"
    r"not|no|none|nothing|never|have|has|had|can|can't|will|would|should|maybe|probably)\b",
    re.IGNORECASE,
)
_EN_SLOTS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), template)
    for pattern, template in (
        (r"\b(?:any|what)\s+(?:\w+\s+)?allerg(?:y|ies)\b|\ballergic\s+to\s+(?:anything|what)\b|"
         r"\bwhat\s+are\s+you\s+allergic\s+to\b", "I am allergic to {a}."),
        (r"\b(?:which|what)\s+(?:city|town|country|state|neighbou?rhood|area)\s+do\s+you\s+"
         r"(?:live|stay)\s+in\b|\bwhere\s+do\s+you\s+(?:live|stay)\b|"
         r"\bwhere\s+are\s+you\s+(?:based|living)\b", "I live in {a}."),
        (r"\bwhere\s+are\s+you\s+from\b|\bwhere\s+do\s+you\s+come\s+from\b", "I am from {a}."),
        (r"\bwhere\s+do\s+you\s+work\b|\bwho\s+do\s+you\s+work\s+for\b|"
         r"\bwhich\s+company\s+do\s+you\s+work\s+(?:for|at)\b", "I work at {a}."),
        (r"\bwhat\s+do\s+you\s+do\s+(?:for\s+(?:work|a\s+living)|professionally)\b|"
         r"\bwhat(?:'s|\s+is)\s+your\s+(?:job|occupation|profession|line\s+of\s+work)\b",
         "I work as {an}."),
        (r"\bwhat(?:'s|\s+is)\s+your\s+(?:first\s+|full\s+)?name\b|"
         r"\bwhat\s+should\s+i\s+call\s+you\b", "My name is {a}."),
        (r"\bhow\s+old\s+are\s+you\b", "I am {a} years old."),
        (r"\bwhen(?:'s|\s+is)\s+your\s+birthday\b", "My birthday is {a}."),
        (r"\bwhat(?:'s|\s+is)\s+your\s+(fav(?:ou)?rite\s+[a-z]+(?:\s+[a-z]+)?)\b",
         "My {slot} is {a}."),
        (r"\bwhat(?:'s|\s+is)\s+your\s+((?:new\s+)?(?:phone\s+number|number|e-?mail(?:\s+address)?|"
         r"(?:home\s+)?address))\b", "My {slot} is {a}."),
    )
)  # fmt: skip
_ZH_SLOTS: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (r"(?:你|您)(?:对)?(?:什么|哪些)(?:东西|食物)?过敏|(?:你|您)有(?:什么|没有)?(?:食物)?过敏",
         "我对{a}过敏。"),
        (r"(?:你|您)(?:现在)?住(?:在)?(?:哪|哪里|哪儿|哪个城市|什么地方)|(?:你|您)家在(?:哪|哪里|哪儿)",
         "我住在{a}。"),
        (r"(?:你|您)是(?:哪里|哪儿|哪)人", "我是{a}人。"),
        (r"(?:你|您)在(?:哪|哪里|哪儿|哪家公司)(?:工作|上班)", "我在{a}工作。"),
        (r"(?:你|您)(?:是)?(?:做|干)什么(?:工作|的)|(?:你|您)的(?:工作|职业)是什么", "我是{a}。"),
        (r"(?:你|您)叫什么(?:名字)?|(?:你|您)的名字是什么|怎么称呼(?:你|您)", "我叫{a}。"),
        (r"(?:你|您)(?:今年)?多大了?|(?:你|您)(?:今年)?几岁", "我今年{a}。"),
        (r"(?:你|您)的生日是?(?:哪天|什么时候|几月几号)", "我的生日是{a}。"),
        (r"(?:你|您)最喜欢的?([^？?，,。]{1,6}?)是(?:什么|哪个|哪种)", "我最喜欢的{slot}是{a}。"),
    )
)  # fmt: skip
# Slots whose answer is a name: its capital stays.
_NAMED = re.compile(r"live in|from|work at|name is")
_ZH_SENTENCE = re.compile(r"[我你他她它们]|是|不|没|有|吗|呢|吧")


# A choice between two (tester hbreak5 F24): "Which seat do you prefer, aisle or window?"
# "Aisle, always." → "I prefer an aisle seat."; "Do you prefer tea or coffee?" "Coffee,
# definitely." → "I prefer coffee." (both were the events "Aisle, always." / "Coffee, …").
_EN_CHOICE = re.compile(
    r"\b(?:(?:which|what)\s+(?:kind\s+of\s+)?(\w+)\s+(?:do|would)\s+you\s+(?:prefer|like|want)"
    r"|(?:do|would)\s+you\s+(?:prefer|like|want))\s*,?\s*(?:an?\s+|the\s+)?([\w' -]+?)\s+or\s+"
    r"(?:an?\s+|the\s+)?([\w' -]+?)\s*\?",
    re.IGNORECASE,
)
_EN_EMPHASIS = re.compile(
    r"[\s,]*\b(?:always|definitely|please|for\s+sure|of\s+course|obviously|thanks|i\s+guess|"
    r"every\s+time|by\s+far)\b[\s,.!]*",
    re.IGNORECASE,
)


def wh_answer(answer: str, question: str) -> str | None:
    """The answerer's statement that a short ``answer`` to ``question`` makes (module
    docstring), or None."""
    if has_cjk(question):
        return _zh(answer.strip(), question)
    return _choice(answer.strip(), question) or _en(answer.strip(), question)


def _choice(answer: str, question: str) -> str | None:
    """ "I prefer an aisle seat." for "Aisle, always." after "Which seat do you prefer, aisle
    or window?"; None when the answer is not one of the two options."""
    m = _EN_CHOICE.search(question)
    if m is None:
        return None
    said = _EN_EMPHASIS.sub(" ", _EN_LEAD.sub("", answer)).strip(" ,.!").casefold()
    options = [m.group(2).strip(), m.group(3).strip()]
    chosen = next((o for o in options if said in (o.casefold(), f"the {o.casefold()}")), None)
    if chosen is None:
        return None
    noun = (m.group(1) or "").lower()
    if noun and not chosen.lower().endswith(noun):
        return f"I prefer {_article(chosen.lower() + ' ' + noun)}."
    return f"I prefer {chosen[:1].lower() + chosen[1:] if not chosen[1:2].isupper() else chosen}."


def _en(answer: str, question: str) -> str | None:
    said = _EN_LEAD.sub("", answer).strip().rstrip(".!").strip()
    if not said or len(said.split()) > 5 or _EN_SENTENCE.search(said) or "?" in said:
        return None
    for pattern, template in _EN_SLOTS:
        m = pattern.search(question)
        if m is None:
            continue
        if "years old" in template and not said.isdigit():
            return None
        value = re.sub(r"^(?:at|in|for|from|with)\s+", "", said.rstrip(",;"), flags=re.IGNORECASE)
        if not _NAMED.search(template) and re.fullmatch(r"[A-Z][a-z]+(?:\s+[a-z]+)*", value):
            value = value[:1].lower() + value[1:]  # "Peanuts." → "peanuts", not a name
        an = value if re.match(r"(?:an?|the)\s", value, re.IGNORECASE) else _article(value)
        slot = m.group(1).lower() if "{slot}" in template else ""
        return template.format(a=value, an=an, slot=slot)
    return None


def _article(noun: str) -> str:
    """ "nurse" → "a nurse", "engineer" → "an engineer"; a name or a plural stays bare."""
    if noun[:1].isupper() or noun.lower().endswith("s"):
        return noun
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _zh(answer: str, question: str) -> str | None:
    said = re.sub(r"^[嗯哦啊呃，,\s]+", "", answer).rstrip("。！!.，, ")
    if not said or len(said) > 12 or _ZH_SENTENCE.search(said) or re.search(r"[？?]", said):
        return None
    for pattern, template in _ZH_SLOTS:
        m = pattern.search(question)
        if m is None:
            continue
        slot = m.group(1) if "{slot}" in template else ""
        if template.startswith("我今年") and said.isdigit():
            said += "岁"
        return template.format(a=said, slot=slot)
    return None
