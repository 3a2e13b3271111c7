"""The LLM's units made to stand alone (issue 28, step 4), whatever the model wrote: the
prompt asks for it, this checks it with the rules the offline extractor uses
(:mod:`app.services.extraction.standalone`):

- a lead-in ("Reminder: …", "FYI", 顺便说一下) is taken off the value, so a restated fact
  has the stored fact's wording and the write path merges it;
- a value that opens with an answer particle or "It …"/它 after a question of the
  transcript ("Yes, it expires on 2027-03-14.") is completed with what the question asks
  about ("The user's passport expires on 2027-03-14.");
- a value telling of events at two different days is cut into one unit per day, each with
  its own ``occurred_at``;
- when a unit states the user's name, every unit about the user carries it in ``entities``.
"""

from __future__ import annotations

import re

from app.core.chinese_script import Script, simplified
from app.core.text import has_cjk
from app.services.extraction.dates import find_dates, local_now
from app.services.extraction.filler import read
from app.services.extraction.scripts import Scripts
from app.services.extraction.standalone import (
    about_user,
    complete_answer,
    name_the_user,
    split_by_time,
    strip_lead_ins,
    user_name,
)
from app.services.extraction.units import Candidate, ExtractionContext, Turn

_OPENS_AS_ANSWER = re.compile(
    r"^\W*(?:yes|yeah|yep|sure|of\s+course|correct|indeed|it|it['’]s|they|they['’]re)\b"
    r"|^(?:是的|是啊|对|对的|嗯|没错|当然|它)",
    re.IGNORECASE,
)


def _question_before(cand: Candidate, turns: list[Turn]) -> str | None:
    """The question the unit's first source turn answers (the previous message's last
    question), if any."""
    if not cand.source_turns:
        return None
    by_index = {t.index: t for t in turns}
    first = by_index.get(min(cand.source_turns))
    if first is None:
        return None
    earlier = [t for t in turns if t.index < first.index and t.role != first.role]
    if not earlier or earlier[-1].index != first.index - 1:
        return None
    reading = read(earlier[-1].content)
    asked = [s for s, k in zip(reading.sentences, reading.kinds, strict=True) if k == "question"]
    return asked[-1] if asked else None


def _sentence(text: str) -> str:
    text = text.strip()
    if has_cjk(text):
        return text if text.endswith(("。", "！", "？")) else text + "。"
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def polish(units: list[Candidate], turns: list[Turn], ctx: ExtractionContext) -> list[Candidate]:
    """``units`` as they should be stored (see the module docstring); order kept, a cut
    unit's pieces in the order of its value. Traditional characters are read as simplified,
    each value written back in its own (:mod:`app.core.chinese_script`)."""
    now = local_now(ctx.now, ctx.timezone)
    turns = Scripts(turns).read(turns)
    out: list[Candidate] = []
    for cand in units:
        script = Script([cand.value])  # 用戶下週三…，下週五…: two days (htrad6)
        value = strip_lead_ins(simplified(cand.value))
        question = _question_before(cand, turns) if _OPENS_AS_ANSWER.match(value) else None
        if question is not None:
            value = complete_answer(value, question, "用户" if has_cjk(value) else "the user")
        pieces = split_by_time(value, find_dates(value, now))
        if len(pieces) == 1:
            value = script.written(value)
            changed = value != cand.value
            out.append(cand.model_copy(update={"value": _sentence(value)}) if changed else cand)
            continue
        for piece in pieces:
            dates = find_dates(piece, now)
            update: dict[str, object] = {"value": _sentence(script.written(piece))}
            if dates:
                update["occurred_at"] = dates[0].day
            out.append(cand.model_copy(update=update))
    name = user_name(u.value for u in out)
    if name is not None:
        for cand in out:
            if about_user(cand.value):
                cand.entities = name_the_user(cand.entities, name)
    return out
