"""The type of an offline event unit: ``event`` for what happened or will happen at a time,
``fact`` / ``constraint`` / ``preference`` for what holds (issue 28, tester T27).

Types set the default time to live (docs/LIFECYCLE.md: events 30 days, facts and constraints
180, preferences 90), so a lasting statement typed ``event`` left recall after a month: "My
passport is valid until May 2028", "我在杭州的阿里巴巴做产品经理", "My budget is $1,500 max".
The rules, on the message's own words (first person, before the rewrite):

1. a limit or an allergy (budget, max, no more than, allergic; 预算, 不超过, 最多, 过敏) →
   ``constraint``; an expiry or validity (expires, valid until; 到期, 有效期) or a yearly day
   ("my birthday is…", 纪念日是) → ``fact``, whatever the tense;
2. a habit on recurring days ("I go to the gym every Tuesday", 我每周二去健身房) → ``fact``;
3. otherwise a statement of something that happened or will happen — a past verb, a future
   marker, a resolved day ("yesterday", "on Saturday") — stays an ``event``;
4. otherwise a liking or a request ("I love hiking", "I'm keen on counseling", "Window seat,
   please"; 喜欢, 偏好, 能…就…) → ``preference``; a state of the speaker (I am a…, I have…,
   my X is…, works at, lives in, have known … for years; 是, 叫, 在…工作, 住在, 有) → ``fact``;
5. anything else stays an ``event``.
"""

from __future__ import annotations

import re
from datetime import datetime

from app.core import zh_past
from app.core.text import has_cjk
from app.core.vocabulary import MemoryType
from app.services.extraction.dates import TimeMatch, find_dates, local_midnight
from app.services.extraction.statements import resolve_dates, third_person_en, third_person_zh
from app.services.extraction.tense import is_past, recurring_spans
from app.services.extraction.units import Candidate

_EN_LIMIT = re.compile(
    r"\b(?:budget|(?-i:max(?:imum)?)|at\s+most|no\s+more\s+than|not\s+more\s+than|up\s+to\s+[$€£¥]|"
    r"can't\s+afford|allerg(?:ic|y|ies)|intolerant)\b",
    re.IGNORECASE,
)
_EN_VALIDITY = re.compile(
    r"\b(?:expires?|expir(?:y|ation)|valid\s+(?:until|till|through|to)|runs\s+out)\b",
    re.IGNORECASE,
)
# A yearly day (a birthday, an anniversary) holds every year: a fact.
_EN_YEARLY = re.compile(r"\b(?:birthday|anniversary)\s+(?:is|falls)\b", re.IGNORECASE)
_ZH_YEARLY = re.compile(r"(?:生日|纪念日)是")
_EN_FUTURE = re.compile(
    r"\b(?:will|'ll|going\s+to|gonna|plan(?:ning)?\s+to|about\s+to|tomorrow|tonight|next)\b",
    re.IGNORECASE,
)
_EN_LIKING = re.compile(
    r"\bi\s+(?:\w+\s+)?(?:prefer|love|like|enjoy|adore)\s+(?!(?:it|that|this|them|is|was|are|"
    r"were|how|when|what|the\s+way)\b)\w|\bfavou?rite\b|"
    r"\bi\s*'?\s*a?m\s+(?:\w+\s+)?(?:keen\s+on|fond\s+of|passionate\s+about|into|"
    r"a\s+(?:big\s+|huge\s+)?fan\s+of)\b|\bi'?d\s+rather\b|"
    r"^[\w' -]{1,40},?\s+please[.!]*$",
    re.IGNORECASE,
)
_EN_STATE = re.compile(
    r"\bi\s*'?\s*a?m\s+(?:a|an)\s|\bi\s+(?:have|own)\s+(?:a|an|two|three|four|\d+)\s|"
    r"^my\s+\w+(?:\s+\w+)?\s+(?:is|are)\b|\bi\s+(?:work|live|study|teach|speak)\b|"
    r"\bname\s+is\b|\bi\s*(?:'ve|\s+have)\s+(?:been|known|had|lived|worked)\b.*"
    r"\bfor\s+(?:\d+|a|an|two|three|four|five|several|many)\s+(?:years?|months?)\b",
    re.IGNORECASE,
)
_ZH_LIMIT = re.compile(r"预算|不超过|不要超过|最多|以内|过敏|忌口")
_ZH_VALIDITY = re.compile(r"到期|有效期|过期")
# Something that happened (app.core.zh_past) or is planned for a time.
_ZH_EVENT = re.compile(rf"{zh_past.PAST.pattern}|明天|后天|打算|准备|计划|将要|下周")
_ZH_LIKING = re.compile(
    r"喜欢|偏好|偏爱|宁可|宁愿|更愿意|讨厌|受不了|能.{1,6}就.{1,6}|最好|希望|^(?:请|麻烦).{2,20}$|[，,](?:谢谢|麻烦了)"
)
_ZH_STATE = re.compile(r"我(?:是|叫|有)|在.{1,15}(?:工作|上班|任职|做|当)|住在|我的.{1,6}是")


def unit_type(text: str, dates: list[TimeMatch], *, zh: bool) -> MemoryType:
    """The type of the event unit stated by ``text`` (the module docstring's rules);
    ``dates`` are the time phrases resolved in it."""
    if (_ZH_LIMIT if zh else _EN_LIMIT).search(text):
        return "constraint"
    if (_ZH_VALIDITY if zh else _EN_VALIDITY).search(text):
        return "fact"
    if (_ZH_YEARLY if zh else _EN_YEARLY).search(text):
        return "fact"
    if recurring_spans(text) and not is_past(text, zh=zh):  # a habit: every Tuesday, 每周二
        return "fact"
    dated = any(d.unit in ("day", "weekend") for d in dates)
    if zh:
        happened = dated or _ZH_EVENT.search(text) is not None
    else:
        happened = dated or is_past(text, zh=False) or _EN_FUTURE.search(text) is not None
    if happened:
        return "event"
    if (_ZH_LIKING if zh else _EN_LIKING).search(text.strip()):
        return "preference"
    if (_ZH_STATE if zh else _EN_STATE).search(text.strip()):
        return "fact"
    return "event"


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
    if m is None or m.group(2).lower().startswith(("yes", "no", "ok", "thank", "sure")):
        return None
    thing = m.group(2).strip()
    kind = re.search(r"\b(\w+)\s+(?:preference|preferred)\b", asked, re.IGNORECASE)
    if kind and kind.group(1).lower() not in ("any", "a", "your") and " " not in thing:
        thing += " " + kind.group(1).lower()
    thing = thing[:1].lower() + thing[1:] if not thing[1:2].isupper() else thing
    article = m.group(1) or ("" if thing.endswith("s") else "an" if thing[:1] in "aeiou" else "a")
    subject = who[:1].upper() + who[1:]
    return f"{subject} prefers {article + ' ' if article else ''}{thing}."


# An assistant's message that reports what it did for the user ("Done: I booked Nobu for two
# tomorrow at 20:00, confirmation number NB-4821."): a ``result`` unit (tester T24: the
# booking and its number were lost, only the user's request was kept).
_EN_DONE = re.compile(
    r"\bI(?:'ve|\s+have)?\s+(?:just\s+|now\s+)?(?:booked|reserved|scheduled|rescheduled|ordered|"
    r"cancell?ed|paid|sent|renewed|set\s+up)\b|\bconfirmation\s+(?:number|code)\b|"
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
    said = _DONE_LEAD.sub("", " ".join(sentences).strip())
    dates = find_dates(said, now)
    resolved = resolve_dates(said, dates, zh=zh)
    value = (
        third_person_zh(resolved, "助手", "用户") if zh
        else third_person_en(resolved, "the assistant", "the user")
    )  # fmt: skip
    return Candidate(
        type="result", value=value, confidence=0.8, source_turns=[index],
        occurred_at=local_midnight(dates[0].day, tz) if dates else None,
    )  # fmt: skip
