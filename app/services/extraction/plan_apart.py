"""A plan told beside something done, in one message, is two units (tester G22: "I got
engaged to Priya. We are planning the wedding for June 2027." was one unit, the engagement
and the wedding plan merged): the sentences that name a day to come are cut from the
sentences in the past tense that name no day, each with its own ``occurred_at`` — "one event
per time" (:func:`.standalone.split_by_time`) when one of the two times is the moment it was
said. A sentence that opens by pointing back ("It was…", "That…", 这, 那) stays with the one
before it. English and Chinese; pure."""

from __future__ import annotations

import re
from datetime import date

from app.core.text import has_cjk
from app.services.extraction.dates import TimeMatch
from app.services.extraction.tense import is_past

_EN_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_ZH_SENTENCE = re.compile(r"(?<=[。！？!?])")
_POINTS_BACK = re.compile(
    r"^\W*(?:it|this|that|these|those|they|he|she|there|so|but|and|also|then)\b|^\W*[这那它他她]",
    re.IGNORECASE,
)


def plan_apart(text: str, dates: list[TimeMatch], today: date) -> list[str]:
    """``text`` cut between its sentences that name a day after ``today`` and those in the
    past tense that name no day; ``[text]`` when there is nothing to cut (no day to come, one
    sentence, a sentence neither past nor dated, a sentence that points back)."""
    if not dates or not any(d.day > today for d in dates):
        return [text]
    zh = has_cjk(text)
    sentences = [s for s in (_ZH_SENTENCE if zh else _EN_SENTENCE).split(text.strip()) if s]
    if len(sentences) < 2:
        return [text]
    starts, at = [], 0
    for s in sentences:
        at = text.index(s, at)
        starts.append((at, at + len(s)))
        at += len(s)
    if any(_POINTS_BACK.match(s) for s in sentences[1:]):
        return [text]
    kinds: list[str] = []
    for (start, end), s in zip(starts, sentences, strict=True):
        here = [d for d in dates if start <= d.start < end]
        if here and all(d.day > today for d in here):
            kinds.append("plan")
        elif not here and is_past(s, zh=zh):
            kinds.append("done")
        else:
            return [text]
    if len(set(kinds)) < 2:
        return [text]
    pieces: list[str] = []
    for k, s in enumerate(sentences):
        if k and kinds[k] == kinds[k - 1]:
            pieces[-1] = f"{pieces[-1]}{'' if zh else ' '}{s}"
        else:
            pieces.append(s)
    return [p.strip() for p in pieces]
