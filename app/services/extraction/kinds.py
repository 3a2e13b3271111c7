"""The type of an offline event unit: ``event`` for what happened or will happen at a time,
``fact`` / ``constraint`` / ``preference`` for what holds (issue 28, tester T27).

Types set the default time to live (docs/LIFECYCLE.md: events 30 days, facts and constraints
180, preferences 90), so a lasting statement typed ``event`` left recall after a month: "My
passport is valid until May 2028", "我在杭州的阿里巴巴做产品经理", "My budget is $1,500 max".
The rules, on the message's own words (first person, before the rewrite):

1. a limit or an allergy (budget, max, no more than, allergic; 预算, 不超过, 最多, 过敏) →
   ``constraint``; an expiry or validity (expires, valid until; 到期, 有效期), a yearly day
   ("my birthday is…", 纪念日是), a birth date, a change of state ("not vegetarian anymore",
   不再) or a daily habit ("every morning", 每天) → ``fact``, whatever the tense (tester E2);
2. a habit on recurring days ("I go to the gym every Tuesday", "I usually jog on Sunday
   mornings", 我每周二去健身房, 我通常周日跑步) and an aim with no time ("I want to open a
   dance studio", 我打算学日语) → ``fact``;
3. otherwise a statement of something that happened or will happen — a past verb, a future
   marker, a resolved day ("yesterday", "on Saturday") — stays an ``event`` (a past that only
   dates a state, "since I was a kid", does not count);
4. otherwise a liking or a request ("I love hiking", "I'm keen on counseling", "Window seat,
   please"; 喜欢, 偏好, 能…就…) → ``preference``; a state of the speaker (I am a…, I have…,
   my X is…, works at, lives in, have known … for years; 是, 叫, 在…工作, 住在, 有) → ``fact``;
5. otherwise what the speaker says holds of them with no time ("Dance is my stress relief",
   "I'm after Marley flooring", "I've been into dancing since I was a kid"; 是我的, 今年七岁)
   → ``fact`` (tester C11);
6. anything else stays an ``event``.

A message whose sentences are of different types is cut where the type changes
(:func:`by_type`); a new job also gives the employer as a fact
(:func:`app.services.extraction.new_jobs.employer`); a Chinese
answer that picks one of a question's two options is the preference it picks (:func:`choice`).
"""

from __future__ import annotations

import re
from datetime import datetime

from app.core import zh_past
from app.core.text import has_cjk
from app.core.vocabulary import MemoryType
from app.services.extraction.date_labels import resolve_dates
from app.services.extraction.dates import TimeMatch, find_dates, local_midnight
from app.services.extraction.filler import join, sentences
from app.services.extraction.lasting import holds_whatever_the_tense
from app.services.extraction.slots import states_amount
from app.services.extraction.statements import third_person_en, third_person_zh
from app.services.extraction.tense import is_past, recurring_spans
from app.services.extraction.units import Candidate

_EN_LIMIT = re.compile(
    r"\b(?:budget|(?-i:max(?:imum)?)|at\s+most|no\s+more\s+than|not\s+more\s+than|(?<!went\s)up\s+to\s+[$€£¥]|"
    r"can't\s+afford|allerg(?:ic|y|ies)|intolerant|gluten-free|(?:vegan|vegetarian|keto|paleo|"
    r"kosher|halal|low-carb|gluten-free)\s+diet)\b",  # a diet rules food out (tester F37)
    re.IGNORECASE,
)
_EN_CHANGED = re.compile(
    r"\bi\s*(?:'m|\s+am)\s+(?:\w+\s+)?not\s+[\w-]+(?:\s+[\w-]+)?\s+any\s?more\b|"
    r"\bi\s*(?:'m|\s+am)\s+no\s+longer\b|\bi\s+(?:no\s+longer|don't\s+\w+\s+\w+\s+any\s?more)\b|"
    r"\bi\s+used\s+to\s+be\b.*\b(?:outgrew|outgrown|grew\s+out\s+of|not\s+any\s?more)\b",
    re.IGNORECASE,
)
_ZH_CHANGED = re.compile(r"我(?:已经)?不再|我(?:现在)?(?:已经)?不[吃喝抽用][^，。！？]{1,6}了")
_EN_DAILY = re.compile(
    r"\b(?:every|each)\s+(?:single\s+)?(?:morning|day|night|evening|afternoon|weekday|week)\b|"
    r"\b(?:daily|nightly)\b|\b(?:once|twice|\w+\s+times|\d+\s*x)?\s*(?:a|per)\s+(?:day|week|night)\b|"
    r"\bhardly\s+ever\b|\bnever\s+(?:eats?|drinks?|smokes?)\b",  # "three coffees a day" (H26)
    re.IGNORECASE,
)
_ZH_DAILY = re.compile(r"每(?:天|晚|日|周|个?星期|个?礼拜)")
_EN_FUTURE = re.compile(
    r"\b(?:will|'ll|going\s+to|gonna|plan(?:ning)?\s+to|about\s+to|tomorrow|tonight|next)\b",
    re.IGNORECASE,
)
_EN_LIKING = re.compile(
    r"\bi\s+(?:\w+\s+)?(?:prefer|love|like|enjoy|adore)\s+(?!(?:it|that|this|them|is|was|are|"
    r"were|how|when|what|the\s+way)\b)\w|\bfavou?rite\b|"
    r"\bi\s*'?\s*a?m\s+(?:\w+\s+)?(?:keen\s+on|fond\s+of|passionate\s+about|into|"
    r"a\s+(?:big\s+|huge\s+)?fan\s+of)\b|\bi'?d\s+rather\b|"
    r"^[\w' -]{1,40},?\s+please[.!]*$|"
    r"^my\s+\w+(?:\s+[A-Z]\w+)?\s+(?:\w+\s+)?(?:loves|likes|enjoys|prefers|adores|hates)\b",
    re.IGNORECASE,
)
_EN_STATE = re.compile(
    r"\bi\s*'?\s*a?m\s+(?:now\s+|currently\s+|still\s+|also\s+|actually\s+)?(?:a|an)\s|"
    r"\bi\s+(?:have|own)\s+(?:a|an|two|three|four|\d+)\s|\bi\s*(?:'m|\s+am)\s+\d+(?:\s+years?\s+old)?\b|"
    # what the speaker has, takes or does as a matter of course (tester E31)
    r"^\W*i\s+(?:also\s+|still\s+)?(?:have|take|use|drive|play|wear|speak|study)\s+"
    r"(?!(?:been|to|got|had|no|a\s+(?:question|meeting|call)|an?\s+idea)\b)|"
    r"^my\s+\w+(?:\s+\w+){0,2}\s+(?:is|are)\b|\bi\s+(?:work|live|study|teach|speak)\b|"
    # a relative's lasting state (tester E2): "My sister Anna lives in Denver"
    r"^my\s+\w+(?:\s+[A-Z]\w+)?\s+(?:lives|works|studies|teaches)\b|"
    r"\bname\s+is\b|\bi\s*(?:'ve|\s+have)\s+(?:been|known|had|lived|worked)\b.*"
    r"\bfor\s+(?:\d+|a|an|two|three|four|five|several|many)\s+(?:years?|months?)\b",
    re.IGNORECASE,
)
_ZH_LIMIT = re.compile(r"预算|不超过|不要超过|最多|以内|过敏|忌口|(?<![不没])吃纯?素|(?<!不是)素食")
# Something that happened (app.core.zh_past) or is planned for a time.
_ZH_EVENT = re.compile(rf"{zh_past.PAST.pattern}|明天|后天|打算|准备|计划|将要|下周")
# A liking that holds, whatever the tense or a past marker in its object (靠过道): "I've been
# loving jazz lately", "I always take the aisle seat"; 最喜欢, 一直喜欢, 总是选, 每次都坐 (K17).
_EN_HELD_LIKING = re.compile(
    r"\bi\s*(?:'ve|\s+have)\s+been\s+(?:really\s+|totally\s+|so\s+)?(?:loving|enjoying|into|"
    r"obsessed\s+with|hooked\s+on|digging)\b|\bi\s+(?:always|usually|normally|typically)\s+"
    r"(?:take|book|get|choose|pick|order|sit|fly|go\s+for|ask\s+for|request)\b",
    re.IGNORECASE,
)
_ZH_HELD_LIKING = re.compile(
    r"^\W*我[^，。！？]{0,4}?(?:最|一直都?|越来越)(?:喜欢|爱)|"
    r"^\W*我(?:总是|每次都|一般都|通常都|向来|一向)(?:会)?(?:选|订|坐|要|点|买|喝|用|住)"
)
_ZH_LIKING = re.compile(
    r"喜欢|偏好|偏爱|宁可|宁愿|更愿意|讨厌|受不了|能.{1,6}就.{1,6}|最好|希望|^(?:请|麻烦).{2,20}$|[，,](?:谢谢|麻烦了)"
)
_ZH_STATE = re.compile(
    r"我(?:是|叫|有)|在.{1,15}(?:工作|上班|任职|做|当)|住在|我的.{1,6}是|"
    r"我(?:[姐妹哥弟]{2}|妈妈|爸爸|老婆|老公|儿子|女儿|[男女]朋友)是"
)


def unit_type(text: str, dates: list[TimeMatch], *, zh: bool) -> MemoryType:
    """The type of the event unit stated by ``text`` (the module docstring's rules);
    ``dates`` are the time phrases resolved in it."""
    return cue_type(text, dates, zh=zh) or _lasting_state(text, dates, zh) or "event"


def stated_type(text: str, dates: list[TimeMatch], *, zh: bool) -> MemoryType | None:
    """The type ``text``'s own words give (a cue, or a lasting state of the speaker), None
    when nothing in it says one (where :func:`unit_type` falls back to ``event``)."""
    return cue_type(text, dates, zh=zh) or _lasting_state(text, dates, zh)


# What the speaker says holds of them, with no time: "Dance is my stress relief", "I'm after
# Marley flooring", "I've been into dancing since I was a kid", 我女儿今年七岁.
_EN_LASTING = re.compile(
    r"(?<!here)(?<!there)(?<!where)(?<!what)(?<!that)\b(?:is|are|'s)\s+(?:(?:pretty\s+much|just|really|definitely|totally|also|still|"
    r"always)\s+)?(?:my|our)\s+(?!own\b|way\b|turn\b)\w+|^\W*my\s+\w+(?:\s+\w+)?\s+(?:is|are)\b|"
    r"\bi\s*(?:'m|\s+am)\s+(?:really\s+|totally\s+|just\s+|still\s+)?(?:after|into|from|"
    r"a\s+(?:big\s+|huge\s+)?fan)\b|\bi\s*(?:'ve|\s+have)\s+(?:always\s+)?been\s+(?:into|a\s+fan|"
    r"in\s+love\s+with|passionate)\b|\bi\s+(?:can't|cannot)\s+(?:imagine|picture)\s+(?:my\s+)?life\s+"
    r"without\b|\bi\s*(?:'m|\s+am)\s+(?-i:[A-Z][a-z]+(?:ese|ian|an|ish|ch|i))\b|"  # Canadian
    r"\bi\s+(?:can't|cannot|can\s+not)\s+(?:swim|drive|cook|read|ski|dance|sing)\b|"
    r"\bi\s*(?:'m|\s+am)\s+(?:(?:very|so|really)\s+)?(?:afraid|scared|terrified)\s+of\b|"
    r"\bi\s*(?:'m|\s+am)\s+(?:not\s+)?an?\s+(?:morning|night|people|dog|cat)\s+person\b|"
    r"\bi\s*(?:'m|\s+am)\s+colou?r-?blind\b|\bi\s+(?:don't|do\s+not)\s+(?:have|own)\s+(?:an?|any)\b",
    re.IGNORECASE,
)
_ZH_LASTING = re.compile(
    r"是我的|今年[\d一二三四五六七八九十两]+岁|我(?:一直|从小)(?:都)?(?:喜欢|爱|是|在)|我的[^，。！？]{1,6}(?:是|叫)"
)
# A past that only dates a state ("since I was a kid", "when I was younger") is no event.
_EN_SINCE = re.compile(
    r"\b(?:since|ever\s+since|when)\s+i\s+was\s+(?:a\s+)?(?:kid|child|little|young|younger|"
    r"teen(?:ager)?|small|\d+)\b",
    re.IGNORECASE,
)


def _lasting_state(text: str, dates: list[TimeMatch], zh: bool) -> MemoryType | None:
    """``fact`` for what the speaker says holds of them (:data:`_EN_LASTING`; tester C11:
    254 of 263 units were 30-day events, "Dance is Gina's stress relief" among them), None
    at a time (``dates``: "下个月要去成都") or for anything else."""
    if dates:
        return None
    return "fact" if (_ZH_LASTING if zh else _EN_LASTING).search(text) else None


# An aim or a plan of the speaker's, with no time: it holds until it is done (tester C11).
_EN_AIM = re.compile(
    r"\bi\s+(?:really\s+|still\s+|also\s+)?(?:want|plan|hope|intend|aim|mean)\s+to\b|"
    r"\bi\s*(?:'m|\s+am)\s+(?:planning|hoping|aiming)\s+to\b|\bmy\s+(?:goal|dream|plan|aim)\s+is\b",
    re.IGNORECASE,
)
_ZH_AIM = re.compile(
    r"我(?:一直)?(?:想|打算|计划|希望|准备)(?!.{0,4}(?:了|过))|我的(?:目标|梦想|计划)是"
)


def cue_type(text: str, dates: list[TimeMatch], *, zh: bool) -> MemoryType | None:
    """The type a cue of ``text`` gives (rules 1–4 of the module docstring), None when it has
    none."""
    if (_ZH_CHANGED if zh else _EN_CHANGED).search(text):  # "not vegetarian anymore", "outgrew"
        return "fact"
    if (_ZH_LIMIT if zh else _EN_LIMIT).search(text):
        return "constraint"
    if states_amount(text, zh=zh):  # "My rent went up to $2,100.", 房租涨到一万四了
        return "fact"
    if holds_whatever_the_tense(text, zh=zh):  # a validity, a birth, a diagnosis (lasting.py)
        return "fact"
    if (_ZH_DAILY if zh else _EN_DAILY).search(text) and not is_past(text, zh=zh):
        return "fact"  # a daily habit: "I drink two cups of coffee every morning", 我每天…
    if recurring_spans(text) and not is_past(text, zh=zh):  # a habit: every Tuesday, 每周二
        return "fact"
    if not dates and (_ZH_AIM if zh else _EN_AIM).search(text) and not is_past(text, zh=zh):
        return "fact"  # a plan with no time: "I want to open a dance studio", 我打算学日语
    if (_ZH_HELD_LIKING if zh else _EN_HELD_LIKING).search(text) and not _EN_SINCE.search(text):
        return "preference"  # "I've been loving jazz lately", 我总是选靠过道的座位 (K17)
    dated = any(d.unit in ("day", "weekend") for d in dates)
    if zh:
        happened = dated or _ZH_EVENT.search(text) is not None
    else:
        tense = _EN_SINCE.sub("", text)
        happened = dated or is_past(tense, zh=False) or _EN_FUTURE.search(tense) is not None
    if happened:
        return "event"
    if (_ZH_LIKING if zh else _EN_LIKING).search(text.strip()):
        return "preference"
    if (_ZH_STATE if zh else _EN_STATE).search(text.strip()):
        return "fact"
    return None


# A sentence that opens with a pronoun is about the one before it.
_POINTS_BACK = re.compile(
    r"^\W*(?:he|she|it|they|this|that|these|those|him|her|them|his|its|their)\b|^\W*[他她它这那]",
    re.IGNORECASE,
)


def by_type(text: str, now: datetime, *, zh: bool) -> list[str]:
    """``text`` cut at sentence bounds where what it says changes type: "每晚不超过500元。我上周
    刚换了工作" is a limit and an event, "Dance is my stress relief. I lost my job yesterday."
    a fact and an event (tester C9, C11: one unit of one type held both). A sentence with no
    type of its own ("It keeps me going") stays with the one before it (the first: with the
    next); two facts are two pieces ("I live in Boston. My rent is $1,800.")."""
    parts = sentences(text)
    if len(parts) < 2:
        return [text]
    groups: list[tuple[MemoryType | None, list[str]]] = []
    was = None  # the type of the sentence before, as its own words give it
    for part in parts:
        dates = find_dates(part, now)
        own = cue_type(part, dates, zh=zh) or _lasting_state(part, dates, zh)
        if _POINTS_BACK.match(part):  # "He is my best friend": about the sentence before
            own = None
        kind = "fact" if own == "preference" else own  # a liking and a state hold alike
        if groups and (kind is None or groups[-1][0] in (None, kind) and not was == own == "fact"):
            groups[-1] = (groups[-1][0] or kind, [*groups[-1][1], part])
        else:
            groups.append((kind, [part]))
        was = own or was
    return [join(g) for _, g in groups]


_EN_REQUEST = re.compile(r"^(?:(an?|the)\s+)?([\w' -]{1,40}?),?\s+please[.!]*$", re.IGNORECASE)


# 请给我靠窗的座位 / 靠窗的座位，谢谢 / 麻烦订靠窗的座位吧
_ZH_REQUEST = re.compile(
    r"^(?:(?:请|麻烦)(?:你|您)?(?:给我|帮我|为我)?(?:订|选|安排|来|要)?(?:一个|个|一份|份)?"
    r"([^，。！？,.!?]{2,12}?)吧?|([^，。！？,.!?]{2,12}?)吧?[，,](?:谢谢|麻烦了|谢啦)(?:你|您)?)[。！!]*$"
)


def request_value(text: str, who: str, asked: str = "") -> str | None:
    """A bare request ("Window seat, please.") as the preference it states ("The user prefers
    a window seat."; "Window, please." after "Any seat preference?" names the seat too;
    请给我靠窗的座位 → 用户想要靠窗的座位); None for anything else."""
    zh = _ZH_REQUEST.match(text.strip())
    if zh:
        return f"{who or '用户'}想要{zh.group(1) or zh.group(2)}。"
    m = _EN_REQUEST.match(text.strip())
    if m is None:
        return None
    thing = re.sub(r"^(?:so|and|but|then|also)\s+", "", m.group(2).strip(), flags=re.IGNORECASE)
    subject = who[:1].upper() + who[1:]
    refused = re.match(r"no\s+(?!thanks?\b)([a-z][\w' -]*)$", thing, re.IGNORECASE)
    if refused and not m.group(1):  # "No onions, please.", "…, so no pasta please" (E22)
        return f"{subject} does not want {refused.group(1).strip()}."
    if thing.lower().startswith(("yes", "no", "ok", "thank", "sure")):
        return None
    kind = re.search(r"\b(\w+)\s+(?:preference|preferred)\b", asked, re.IGNORECASE)
    if kind and kind.group(1).lower() not in ("any", "a", "your") and " " not in thing:
        thing += " " + kind.group(1).lower()
    thing = thing[:1].lower() + thing[1:] if not thing[1:2].isupper() else thing
    article = m.group(1) or ("" if thing.endswith("s") else "an" if thing[:1] in "aeiou" else "a")
    return f"{subject} prefers {article + ' ' if article else ''}{thing}."


# An assistant's message that reports what it did for the user ("Done: I booked Nobu for two
# tomorrow at 20:00, confirmation number NB-4821."): a ``result`` unit (tester T24: the
# booking and its number were lost, only the user's request was kept).
_EN_DONE = re.compile(
    r"\bI(?:'ve|\s+have)?\s+(?:just\s+|now\s+)?(?:booked|reserved|scheduled|rescheduled|ordered|"
    r"cancell?ed|paid|sent|renewed|set\s+up)\b|\bconfirmation\s+(?:number|code)\b|^\W*(?:booked|"
    r"reserved|ordered|rescheduled|cancell?ed|renewed)\b|"  # "Booked TP553 on …" (tester F23)
    r"\bbooking\s+(?:reference|number)\b",
    re.IGNORECASE,
)
_ZH_DONE = re.compile(
    r"(?:已|已经)(?:帮你|为你|给你|帮您|为您|给您)?(?:订好|预订|预约|订了|安排好|取消|改签|支付)|确认号|订单号|预订号"
)
_DONE_LEAD = re.compile(
    r"^\W*(?:done|ok(?:ay)?|all\s+set|great|好的|搞定|完成了?)\s*[:：!！,，.。-]*\s*", re.IGNORECASE
)


def result_unit(text: str, now: datetime, tz: str, index: int) -> Candidate | None:
    """The ``result`` unit of an assistant's message that reports a booking, an order or a
    cancellation (its sentences that say so, in the third person, dates resolved); None when
    the message reports none."""
    zh = has_cjk(text)
    done = _ZH_DONE if zh else _EN_DONE
    sentences = [s for s in re.split(r"(?<=[.!?。！？])\s*", text) if done.search(s)][:2]
    if not sentences:
        return None
    said = re.sub(r"^(booked|reserved|ordered|rescheduled|cancell?ed|renewed)\b",
                  lambda m: "I " + m[1].lower(), _DONE_LEAD.sub("", " ".join(sentences).strip()),
                  flags=re.IGNORECASE)  # fmt: skip
    dates = find_dates(said, now)
    resolved = resolve_dates(said, dates, zh=zh)
    value = (
        third_person_zh(resolved, "助手", "用户") if zh
        else third_person_en(resolved, "the assistant", "the user")
    )  # fmt: skip
    if zh and value.startswith("助手："):  # 助手已预约：…, not 助手：已预约 (tester E7)
        value = "助手" + value[len("助手：") :]
    return Candidate(
        type="result", value=value, confidence=0.8, source_turns=[index],
        occurred_at=local_midnight(dates[0].day, tz) if dates else None,
    )  # fmt: skip


# "I adopted a cat named Luna": the pet from now on is a fact, the adoption an event (tester
# E2: the pet left memory with the event after 30 days).
_PET = (
    r"dog|cat|puppy|kitten|parrot|rabbit|bunny|hamster|turtle|tortoise|fish|bird|horse|lizard|snake"
)
_EN_PET = re.compile(
    r"\b(?:I|we)\s*(?:'ve|\s+have)?\s+(?:just\s+|recently\s+|finally\s+|also\s+)?(?:adopted|got|rescued|"
    rf"bought|brought\s+home)\s+(?:a|an|another)\s+(?:new\s+)?((?:[\w-]+\s+){{0,2}}(?:{_PET}))\s*,?\s+"
    r"(?:named|called)\s+([A-Z][\w'’-]*)",
    re.IGNORECASE,
)
_ZH_PET = re.compile(
    r"(?:领养|收养|养|买|捡)了?(?:一|两|三)?(?:只|条|匹)([^，。！？\s]{0,4}?(?:狗|猫|鹦鹉|兔子|兔|仓鼠|乌龟|鱼|鸟|马))"
    r"[，,]?\s*(?:名字)?叫(?:做)?([^，。！？,.!?\s]{1,8})"
)


def pet(text: str, who: str, *, zh: bool) -> str | None:
    """The lasting fact in a new pet ("The user has a cat named Luna.", 用户有一只叫露娜的猫。),
    written about ``who``; None when ``text`` adopts no named pet."""
    if zh:
        z = _ZH_PET.search(text)
        return f"{who}有一只叫{z.group(2)}的{z.group(1)}。" if z else None
    m = _EN_PET.search(text)
    if m is None:
        return None
    kind = m.group(1).lower()
    article = "an" if kind[:1] in "aeiou" else "a"
    return f"{who[:1].upper()}{who[1:]} has {article} {kind} named {m.group(2)}."


# "你的航班想要早上还是晚上？" — "晚上的，…": the answer picks one of two (tester C9).
_ZH_CHOICE = re.compile(
    r"(?:你|您)的?([^，。！？\s]{1,6}?)(?:想要|想|要|喜欢|选|订)([^，。！？\s]{1,6}?)还是"
    r"([^，。！？\s]{1,6}?)(?:呢|的)?[？?]"
)


def choice(answer: str, question: str, who: str) -> tuple[str, str] | None:
    """The preference an answer picks from a question's two options ("晚上的" after
    "你的航班想要早上还是晚上？" → "用户想要晚上的航班。") and the rest of the answer; None
    when the question offers none or the answer opens with neither."""
    m = _ZH_CHOICE.search(question)
    if m is None:
        return None
    thing, options = m.group(1), (m.group(2), m.group(3))
    head, _, rest = re.sub(r"^[是要选]", "", answer.strip()).partition("，")
    picked = next((o for o in options if head.rstrip("的吧。！!").strip() == o), None)
    if picked is None:
        return None
    return f"{who}想要{picked}的{thing}。", rest.strip()
