"""Statements that hold whatever their tense, for the offline extractor's types
(:mod:`app.services.extraction.kinds`, rule 1): they are ``fact``, never a 30-day ``event``
(tester E2: each expired before what it corrected).

- an expiry or a validity: "expires", "valid until", "runs out"; 到期, 有效期, 过期;
- a yearly day: "my birthday is…", "our anniversary falls…"; 生日是, 纪念日是;
- a birth: "I was born on/in…"; 我…出生, 我的出生日期是;
- a diagnosis of a lasting condition (tester G36: "I was diagnosed with asthma last year" was
  an event): "diagnosed with", "found out I have", 确诊, 诊断出, 查出 — not of a passing illness
  (a cold, the flu, COVID, an infection, food poisoning, a sprain), which stays an event.
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


def holds_whatever_the_tense(text: str, *, zh: bool) -> bool:
    """``text`` (the speaker's own words, first person) states a validity, a yearly day, a
    birth or a diagnosis of a lasting condition (module docstring)."""
    if zh:
        cues = (_ZH_VALIDITY, _ZH_YEARLY, _ZH_BORN)
        diagnosed = _ZH_DIAGNOSED.search(text)
    else:
        cues = (_EN_VALIDITY, _EN_YEARLY, _EN_BORN)
        diagnosed = _EN_DIAGNOSED.search(text)
    if any(cue.search(text) for cue in cues):
        return True
    return diagnosed is not None and _PASSING.search(text[diagnosed.end() :]) is None
