"""Tense and recurrence of a sentence, for time phrases and unit types.

- :func:`is_past`: the sentence tells of something that happened ("I ran 5 km on Saturday",
  "周六我跑了5公里", 上周…): a bare weekday in it is the previous one, not the coming one.
- :func:`recurring_spans`: "every Tuesday and Thursday", "each Monday", 每周二和周四, 每个周末 —
  a habit, not a date: time phrases inside are left undated.
- :func:`idiom_spans`: "feels like just yesterday", 仿佛就在昨天 — a figure of speech, not a
  date; 今年 before an age (她今年7岁).
"""

from __future__ import annotations

import re

from app.core import zh_past

_DAYS = r"(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?)"
_EN_RECURRING = re.compile(
    rf"\b(?:every|each)\s+(?:other\s+|single\s+)?{_DAYS}"
    rf"(?:\s*(?:,|and|or|&|,\s*and)\s*{_DAYS})*",
    re.IGNORECASE,
)
# "I usually jog on Sunday mornings", "on Sundays", "most Fridays": a habit too (tester C8:
# it was dated the coming Sunday).
_EN_HABIT = re.compile(
    r"\b(?:usually|always|often|normally|typically|generally|regularly|tend\s+to|used\s+to)\b"
    rf"[^.!?;]{{0,40}}?\b(?:on|at|every)\s+{_DAYS}|\b(?:on|most)\s+"
    r"(?:mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekends)\b",
    re.IGNORECASE,
)
_ZH_DAY = r"(?:周|星期|礼拜)[一二三四五六日天]"
_ZH_HABIT = re.compile(
    rf"(?:通常|一般|经常|总是|平时|常常|习惯)[^。！？，,]{{0,8}}?(?:{_ZH_DAY}|周末)"
    rf"|(?:{_ZH_DAY}|周末)(?:通常|一般|经常|总是|都)"
)
_ZH_RECURRING = re.compile(
    rf"每(?:个|一个|逢)?(?:{_ZH_DAY}|周末|(?:周|星期|礼拜)(?=[一二三四五六日天]))"
    rf"(?:[和、或跟及与/]{_ZH_DAY}|[和、或跟及与/][一二三四五六日天])*"
)
_EN_IDIOM = re.compile(
    r"\b(?:(?:feels?|felt|seems?|seemed|looks?|looked)\s+like\s+(?:it\s+was\s+)?"
    r"(?:only\s+|just\s+)?yesterday|like\s+it\s+was\s+(?:only\s+|just\s+)?yesterday|"
    r"as\s+if\s+it\s+(?:was|were)\s+(?:only\s+|just\s+)?yesterday)\b",
    re.IGNORECASE,
)
# ...and 今年 before an age (她今年7岁) is no date either.
_ZH_IDIOM = re.compile(
    r"(?:仿佛|好像|就像|恍如|宛如|如同|犹如)(?:就|只是|是)?(?:在)?昨天|今年(?=[\d一二三四五六七八九十两]+周?岁)"
)

# Irregular pasts (and the past forms of be/have/do) that mark a finished event; and the short
# "-ed" pasts ("died", tester hbreak8 H3: "my dog died in June" said in July was next June).
_EN_PAST = frozenset(
    """was were did had went got made saw took came felt found gave knew left met ran said
    sent sat told thought bought brought began wrote won lost put kept heard held built spent
    taught drove flew ate drank wore chose fell broke woke sang swam grew drew threw caught
    fought sold paid led slept stood understood hurt quit became died fled tied lied owed
    hid bit dug hung lit rode rose shot slid spoke stole struck swore tore""".split()
)
# "-ed" words that are no past of an event ("I'm so excited", "need", "hundred").
_NOT_PAST_ED = frozenset(
    """need feed seed speed bed red shed wed indeed hundred sacred naked wicked
    tired excited interested married scared bored worried pleased supposed used based
    related allowed dedicated""".split()
)
_EN_FUTURE = re.compile(
    r"\b(?:will|'ll|shall|going\s+to|gonna|plan(?:ning)?\s+to|about\s+to|can't\s+wait|"
    r"looking\s+forward|next|coming|upcoming|tomorrow)\b",
    re.IGNORECASE,
)
_EN_WORD = re.compile(r"[A-Za-z']+")
_ZH_FUTURE = re.compile(r"要|会|将|打算|准备|计划|明天|后天|下周|下个|下星期|明年")


def is_past(sentence: str, *, zh: bool) -> bool:
    """Whether ``sentence`` tells of something that happened: a past verb (English: an
    irregular past or an "-ed" verb; Chinese: 了, 过, 昨天, 上周…) and no future marker."""
    if zh:
        return zh_past.PAST.search(sentence) is not None and _ZH_FUTURE.search(sentence) is None
    if _EN_FUTURE.search(sentence):
        return False
    words = _EN_WORD.findall(sentence.lower())
    return any(
        is_past_verb(word) and not (word.endswith("ed") and i and words[i - 1] in _PRESENT_BE)
        for i, word in enumerate(words)
    )


# "to be reminded", "I'm booked", "is finished": a participle after a present "be" is no past.
_PRESENT_BE = frozenset(
    "be being am is are i'm you're we're they're it's he's she's get gets".split()
)


def is_past_verb(word: str) -> bool:
    """An English past ("ran", "lost", "adopted"; not "excited", "need")."""
    word = word.lower()
    if word in _EN_PAST:
        return True
    return (
        len(word) > 4
        and word.endswith("ed")
        and not word.endswith("eed")
        and (word not in _NOT_PAST_ED)
    )


def recurring_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` names a recurring day ("every Tuesday and Thursday", 每周二, 每个周末,
    "usually … on Sunday mornings", "on Sundays", 我通常周日…)."""
    spans = [m.span() for p in (_EN_RECURRING, _EN_HABIT) for m in p.finditer(text)]
    return spans + [m.span() for p in (_ZH_RECURRING, _ZH_HABIT) for m in p.finditer(text)]


def idiom_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` uses "yesterday" as a figure of speech ("feels like just yesterday")."""
    spans = [m.span() for m in _EN_IDIOM.finditer(text)]
    return spans + [m.span() for m in _ZH_IDIOM.finditer(text)]


def sentence_around(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` holding ``text[start:end]``."""
    left = max(text.rfind(p, 0, start) for p in ".!?。！？\n")
    rights = [i for i in (text.find(p, end) for p in ".!?。！？\n") if i >= 0]
    return text[left + 1 : min(rights) if rights else len(text)]


# A clause with a subject and verb of its own ("…, he starts in September"; "…, starting in
# September"; 九月开始上班): its own tense places a month or weekday it names.
_EN_OWN_VERB = re.compile(
    r"^\W*(?:(?:and|but|so)\s+)?(?:i|he|she|we|they|you|it)\b|\b(?:starting|beginning)\b",
    re.IGNORECASE,
)
_ZH_OWN_VERB = re.compile(r"开始|要|会(?!议)|将|打算|准备|计划")


def tense_scope(text: str, start: int, end: int, *, zh: bool) -> str:
    """The words whose tense places ``text[start:end]`` (a month or weekday without its
    year): the clause holding it (between commas or semicolons) when that clause tells of the
    past or has a subject and verb of its own — "Jonas got a new job, he starts in September"
    said in August is this September, not last (a four-session life, lead 2026-12-07) —, else
    its sentence ("In May, we went to Rome")."""
    sentence = sentence_around(text, start, end)
    left = max(text.rfind(p, 0, start) for p in ".!?。！？\n,;，；")
    rights = [i for i in (text.find(p, end) for p in ".!?。！？\n,;，；") if i >= 0]
    clause = text[left + 1 : min(rights) if rights else len(text)]
    if clause.strip() == sentence.strip() or is_past(clause, zh=zh):
        return clause
    return clause if (_ZH_OWN_VERB if zh else _EN_OWN_VERB).search(clause) else sentence
