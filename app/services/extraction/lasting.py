"""Statements that hold whatever their tense, for the offline extractor's types
(:mod:`app.services.extraction.kinds`, rule 1): they are ``fact``, never a 30-day ``event``
(tester E2: each expired before what it corrected).

- an expiry or a validity: "expires", "valid until", "runs out"; 到期, 有效期, 过期;
- a yearly day: "my birthday is…", "our anniversary falls…"; 生日是, 纪念日是;
- a birth: "I was born on/in…"; 我…出生, 我的出生日期是;
- a diagnosis of a lasting condition (tester G36: "I was diagnosed with asthma last year" was
  an event): "diagnosed with", "found out I have", 确诊, 诊断出, 查出 — not of a passing illness
  (a cold, the flu, COVID, an infection, food poisoning, a sprain), which stays an event;
- a partner or a marital status (tester K4, K5): "I'm dating Alex now", "I'm married to Sam";
  我在和小李交往, 我现在的女朋友是小丽, 我现在单身.
"""

from __future__ import annotations

import re

_EN_VALIDITY = re.compile(
    r"\b(?:expires?|expir(?:y|ation)|valid\s+(?:until|till|through|to)|runs\s+out)\b",
    re.IGNORECASE,
)
_ZH_VALIDITY = re.compile(r"到期|有效期|过期")
_EN_YEARLY = re.compile(r"\b(?:birthday|anniversary)\s+(?:is|falls)\b", re.IGNORECASE)
_ZH_YEARLY = re.compile(r"(?:生日|纪念日)是")
_EN_BORN = re.compile(r"\b(?:i\s+was|i'm|i\s+am)\s+born\s+(?:on|in)\b", re.IGNORECASE)
_ZH_BORN = re.compile(r"我(?:是)?[^，。！？]{0,16}出生的?|我的?出生(?:日期|年月)?是")
_EN_DIAGNOSED = re.compile(
    r"\b(?:i\s+(?:was|got|have\s+been|am|'ve\s+been)|i've\s+been|i'm)\s+(?:\w+\s+)?"
    r"diagnosed\s+with\b|\bmy\s+\w+\s+diagnosed\s+me\s+with\b|"
    r"\bfound\s+out\s+(?:that\s+)?i\s+(?:have|had)\b",
    re.IGNORECASE,
)
_ZH_DIAGNOSED = re.compile(r"我[^，。！？]{0,8}(?:确诊|诊断出|诊断为|查出)")
_PASSING = re.compile(
    r"\b(?:a\s+cold|the\s+flu|flu|covid(?:-19)?|an?\s+\w*\s*infection|food\s+poisoning|"
    r"strep(?:\s+throat)?|a\s+sprain(?:ed\s+\w+)?|a\s+concussion|pneumonia|bronchitis)\b"
    r"|感冒|流感|新冠|感染|食物中毒|扭伤|肺炎",
    re.IGNORECASE,
)

# A partner or a marriage (tester K4, K5: "I'm dating Alex now", "I got married to Sam last
# month", 我现在单身, 我结婚了 were 30-day events).
_EN_PARTNER = re.compile(
    r"\bi\s*(?:'m|\s+am)\s+(?:now\s+|currently\s+|still\s+)?(?:(?:dating|going\s+out\s+with|"
    r"in\s+a\s+relationship\s+with|married\s+to|engaged\s+to)\s+(?-i:[A-Z])|seeing\s+(?-i:[A-Z])\w*"
    r"\s+(?:now|these\s+days)\b)|"
    r"\b(?:I|we)\s*(?:'ve|\s+have)?\s+(?:just\s+|finally\s+|recently\s+|officially\s+)?got\s+"
    r"(?:married\b(?!\s+to\s+(?-i:[a-z]))|engaged\s+to\s+(?-i:[A-Z]))|"
    r"\bI\s+(?:just\s+|finally\s+)?married\s+(?-i:[A-Z])|"
    r"(?-i:[A-Z])\w*\s+and\s+I\s+(?:just\s+|finally\s+|recently\s+)?got\s+(?:married|engaged)\b",
    re.IGNORECASE,
)
_ZH_PARTNER = re.compile(
    r"^\W*我(?:现在|目前)?(?:正)?在(?:和|跟)[^，。！？]{1,6}?(?:交往|约会|谈恋爱)|"
    r"^\W*我(?:现在|目前)的(?:新)?(?:男朋友|女朋友|男友|女友|对象|老公|老婆)(?:是|叫)|"
    r"^\W*我(?:现在|目前)?(?:是|已经)?(?:单身|已婚)(?!公寓|宿舍|派对|汉)|"
    r"^\W*我(?:们)?(?:已经|刚|刚刚|终于)?(?:(?:和|跟)[^，。！？]{1,6}?)?(?:结婚|领证)了|"
    r"^\W*我(?:现在)?(?:和|跟)[^，。！？]{1,6}?在一起了"
)


def holds_whatever_the_tense(text: str, *, zh: bool) -> bool:
    """``text`` (the speaker's own words, first person) states a validity, a yearly day, a
    birth, a diagnosis of a lasting condition or a partner (module docstring)."""
    if zh:
        cues = (_ZH_VALIDITY, _ZH_YEARLY, _ZH_BORN, _ZH_PARTNER)
        diagnosed = _ZH_DIAGNOSED.search(text)
    else:
        cues = (_EN_VALIDITY, _EN_YEARLY, _EN_BORN, _EN_PARTNER)
        diagnosed = _EN_DIAGNOSED.search(text)
    if any(cue.search(text) for cue in cues):
        return True
    return diagnosed is not None and _PASSING.search(text[diagnosed.end() :]) is None
