"""The event units of a message: its informative sentences as standalone statements (the
speaker named, "you" resolved to the person addressed, relative dates resolved and the first
in ``occurred_at``), with the message it answers as its trigger scenario, or a plan scenario
for a dated plan; cut into one unit per day when it tells of events at different days."""

from __future__ import annotations

import re
from datetime import datetime
from functools import partial

from app.core.text import has_cjk, normalize
from app.services.extraction import beliefs
from app.services.extraction import speakers as said_by
from app.services.extraction.about_other import (
    OTHERS_WORD,
    REPORTED_WORD,
    about_addressee,
    congrats_value,
    congratulated,
    reported,
)
from app.services.extraction.changes import state_changes
from app.services.extraction.clauses import hedged
from app.services.extraction.date_labels import resolve_dates
from app.services.extraction.dates import find_dates, local_midnight
from app.services.extraction.dropped_subject import with_subject
from app.services.extraction.filler import content_words
from app.services.extraction.joined import split_joined
from app.services.extraction.kinds import by_type, choice, pet, request_value, unit_type
from app.services.extraction.new_jobs import employer
from app.services.extraction.plan_apart import plan_apart
from app.services.extraction.said import Said, addressee_of, display, replies
from app.services.extraction.standalone import chunks, complete_answer, split_by_time
from app.services.extraction.statements import (
    en_entities,
    third_person_en,
    third_person_zh,
    unique,
    zh_entities,
)
from app.services.extraction.triggers import Q_PET_EN, Q_PET_ZH, Q_WORK_EN, Q_WORK_ZH, plan_query
from app.services.extraction.units import MAX_VALUE_CHARS, Candidate, ExtractionContext
from app.services.extraction.we import resolve_we

_EN_PLAN_CUE = re.compile(
    r"\b(?:i\s*'?\s*a?m|i\s+will|i'll|i\s+have|i've\s+got|i\s+plan|i\s+need|i\s+want|i\s+fly|"
    r"we\s*'?\s*re|we\s+are|we'll|we\s+will|my)\b.*\b(?:go|going|fly|flying|travel|travell?ing|"
    r"head|heading|drive|driving|visit|visiting|leave|leaving|meet|meeting|trip|flight|"
    r"appointment|interview|dinner|lunch|party|conference|deadline|exam|wedding|vacation|"
    r"holiday|birthday|moving|start|starting|off|presentation|call|surgery)\b",
    re.IGNORECASE,
)
_ZH_PLAN_CUE = re.compile(
    r"去|要|会|打算|准备|计划|出差|旅游|旅行|飞|回|开会|面试|约|参加|考试|婚礼|生日|航班|出发|到|见"
)
# A message that opens like this answers or points back at the one before it.
_EN_POINTS_BACK = re.compile(
    r"^\W*(?:yes|yeah|yep|yup|no|nope|nah|sure|definitely|absolutely|totally|exactly|right|"
    r"true|indeed|of\s+course|thanks|thank\s+you|it|it's|its|that|that's|this|those|these|"
    r"they|they're|them|there|he|she|his|her|so|oh|aw+|wow|haha|well|not|nothing|both|"
    r"either|neither|mostly|kind\s+of|sort\s+of)\b",
    re.IGNORECASE,
)
_ZH_POINTS_BACK = re.compile(
    r"^\W*(?:是|对|嗯|好|没错|不是|没有|那|这|它|他|她|谢谢|当然|确实|还行)"
)
# A conjunction left at the start when a typed unit took the clause before it.
_CONNECTIVE = re.compile(
    r"^(?:(?:and|also|plus)\s+(?=\w)|(?:而且|并且|还有|另外)[，,]?)", re.IGNORECASE
)
# Longest value of one event; a longer message becomes several events (sentence bounds).
MAX_EVENT_CHARS = 1000
EVENT_CONFIDENCE = 0.8
HEDGED_EVENT_CONFIDENCE = 0.65


def event_units(
    said: Said,
    before: Said | None,
    now: datetime,
    ctx: ExtractionContext,
    names: tuple[frozenset[str], frozenset[str], frozenset[str]],
    quoted: bool = False,
) -> list[Candidate]:
    """The event units of a message (module docstring); ``names``: the transcript's
    participants (case-folded), the names it writes mid-sentence and its speakers' names
    (a statement about the person addressed is their unit, :mod:`about_other`); ``quoted``: another
    person's instruction, kept as what they said (:func:`speakers.attributed`)."""
    (participants, known, named), turn = names, said.turn
    text = _CONNECTIVE.sub("", said.reading.text())  # "And my cat…" after a held clause
    zh = has_cjk(text)
    speaker = turn.name
    addressee = addressee_of(said, before, named)
    if addressee is not None:
        addressee = display(addressee, zh)
    # Someone else's word about the person addressed (B6): in a chat of named speakers.
    other = speaker is not None and addressee not in (None, "the assistant", "助手", speaker)
    hedge = hedged(text, zh)
    back = (_ZH_POINTS_BACK if zh else _EN_POINTS_BACK).match(text) is not None
    trigger = None
    if before is not None and replies(said, before) and (before.reading.asks or back):
        trigger = before.trigger(speaker, ctx)
    sources = [turn.index]
    if trigger and before and not before.has_unit:
        sources.insert(0, before.turn.index)
    asked = [""]
    out: list[Candidate] = []
    if trigger and before and before.reading.asks:  # "Yes, it expires…" → what expires
        asked = [s for s, k in zip(before.reading.sentences, before.reading.kinds,
                                   strict=True) if k == "question"]  # fmt: skip
        picked = choice(text, asked[-1], display(speaker, zh)) if zh else None
        if picked:  # 晚上的 after 早上还是晚上？→ 用户想要晚上的航班。
            out.append(Candidate(type="preference", value=picked[0], query=trigger,
                                 entities=[speaker] if speaker else [],
                                 confidence=EVENT_CONFIDENCE, source_turns=sources))  # fmt: skip
            text = picked[1]
        text = complete_answer(text, asked[-1]) if text else text
    pieces = [
        piece
        for chunk in chunks(text, MAX_EVENT_CHARS)
        for timed in split_by_time(chunk, find_dates(chunk, now))
        for part in plan_apart(timed, find_dates(timed, now), now.date())  # tester G22
        for group in by_type(part, now, zh=zh)
        for piece in split_joined(group, zh)  # "My door code is … and my sister …" (D3)
    ]
    for piece in pieces if text else []:
        about, confidence = False, HEDGED_EVENT_CONFIDENCE if hedge else EVENT_CONFIDENCE
        if other:  # "You told me you moved to Boston" → "Jon moved to Boston", Jon's unit
            told_piece, told = reported(piece, zh)
            if about_addressee(told_piece, zh):
                piece, about = told_piece, True
                confidence = min(confidence, REPORTED_WORD if told else OTHERS_WORD)
        dates = find_dates(piece, now)
        resolved = resolve_dates(piece, dates, zh=zh)
        ours = resolve_we(resolved, display(speaker, zh), asked[-1], zh=zh)  # "we" (B5)
        if zh:  # about the person addressed: no "小王：" before their own news
            value = third_person_zh(ours, addressee if about else speaker, addressee)
            value = value[:1].upper() + value[1:]  # "The user's cat 豆豆…"
        else:  # "Got the tattoo…" → "Gina got the tattoo…" (D11)
            value = third_person_en(ours if about else with_subject(ours), speaker, addressee)
        extra = [speaker] if speaker else []
        if about and addressee:
            extra = [addressee, *extra]
        if zh:
            entities = zh_entities(piece, extra, participants)
        else:
            entities = en_entities(piece, extra, participants, known)
        query = trigger
        ahead = dates and dates[0].day >= now.date()  # a plan, not a memory of the past
        kind = unit_type(said_by.unquoted(piece), dates, zh=zh)
        if kind == "constraint" and beliefs.believed(piece):  # 别人总以为我是素食者 (H18)
            kind = "event"
        if kind == "event" and ahead and (_ZH_PLAN_CUE if zh else _EN_PLAN_CUE).search(piece):
            query = plan_query(dates[0].day, entities[len(extra) :], zh)
        if kind == "preference":  # "Window seat, please." → prefers a…
            value = request_value(piece, display(speaker, zh), asked[-1]) or value
        if quoted:
            third = partial(third_person_zh if zh else third_person_en, speaker=speaker)
            who, rewrite = display(speaker, zh), partial(third, addressee=addressee)
            kind, value = "event", said_by.attributed(resolved, who, addressee, rewrite, zh=zh)
        out.append(
            Candidate(
                type=kind,
                value=within_limit(value),
                query=query,
                entities=entities,
                confidence=confidence,
                occurred_at=local_midnight(dates[0].day, ctx.timezone) if dates else None,
                source_turns=sources,
            )
        )
        job = None if quoted else employer(piece, display(speaker, zh), zh=zh)
        if job:  # "started a new job at Siemens" → "… works at Siemens." (tester C8)
            out.append(Candidate(type="fact", value=job[0], query=Q_WORK_ZH if zh else Q_WORK_EN,
                                 entities=unique([*extra, job[1]]), confidence=EVENT_CONFIDENCE,
                                 source_turns=sources))  # fmt: skip
        owned = None if quoted else pet(piece, display(speaker, zh), zh=zh)
        if owned and normalize(owned) != normalize(value):  # "adopted a cat named Luna" (E2)
            out.append(Candidate(type="fact", value=owned, query=Q_PET_ZH if zh else Q_PET_EN,
                                 entities=entities, confidence=EVENT_CONFIDENCE,
                                 source_turns=sources))  # fmt: skip
        for state in [] if quoted or about else state_changes(piece, display(speaker, zh), zh=zh):
            out.append(Candidate(type="fact", value=state, entities=entities,
                                 confidence=EVENT_CONFIDENCE, source_turns=sources))  # fmt: skip
    return out


def within_limit(value: str) -> str:
    """``value``, or when written longer than a unit may be (a 1,000-character piece grows:
    我 → 用户, 一月 → 2027年1月 — and the whole job failed on it) its first words up to the
    limit, with "…"."""
    if len(value) <= MAX_VALUE_CHARS:
        return value
    cut = value[: MAX_VALUE_CHARS - 1]
    space = cut.rfind(" ")
    return (cut[:space] if space > MAX_VALUE_CHARS // 2 else cut).rstrip() + "…"


def congrats_unit(said: Said, addressee: str | None) -> Candidate | None:
    """A named speaker's "Congrats on the new job at Acme!" / 恭喜你在阿里巴巴找到新工作 as a
    unit about the person congratulated, at the confidence of another's word (B6); None when
    the message congratulates nobody on anything."""
    zh = has_cjk(said.turn.content)
    speaker = said.turn.name
    if speaker is None or addressee in (None, "assistant", speaker):
        return None
    what = congratulated(said.turn.content, zh)
    if what is None or not content_words(what):
        return None
    assert addressee is not None
    value = congrats_value(speaker, addressee, what, zh)
    names = zh_entities(what, []) if zh else en_entities(what, [], frozenset(), frozenset())
    return Candidate(
        type="event",
        value=value,
        entities=unique([addressee, *names, speaker]),
        confidence=OTHERS_WORD,
        source_turns=[said.turn.index],
    )
