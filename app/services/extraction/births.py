"""A birth's month or day said without its year is no date (tester G21: "I was born in March"
was "born in March 2026", "born on March 3" "born on 2027-03-03"): the extractor keeps the
words as said and gives no ``occurred_at``. A relative day ("born last week", "on Tuesday")
and a written year stay dates."""

from __future__ import annotations

import re

from app.services.extraction.tense import sentence_around

_BORN = re.compile(r"\bborn\b|出生|生于", re.IGNORECASE)
_RELATIVE_OR_YEAR = re.compile(
    r"\d{4}|年|\b(?:last|next|this|ago|yesterday|today|tomorrow|(?:mon|tues|wednes|thurs|fri|"
    r"satur|sun)day)\b|[上下本这前后昨明今周]|星期|礼拜",
    re.IGNORECASE,
)


def birth_without_year(text: str, start: int, end: int, phrase: str) -> bool:
    """The time ``phrase`` at ``text[start:end]`` is a month or day without its year in a
    sentence about a birth ("I was born in March", 我三月出生): its year is not known."""
    if _RELATIVE_OR_YEAR.search(phrase):  # "born last week", on Tuesday, 2019年3月
        return False
    return _BORN.search(sentence_around(text, start, end)) is not None
