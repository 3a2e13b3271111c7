"""The offline extractor (:class:`OfflineExtractor`): rules for English and Chinese, the
default when no LLM is set. This module holds the extractor and its clause, question, plan
and reply cues; the cue rules themselves are in :mod:`app.services.extraction.rules`.

Per message of the user (each speaker when a transcript names them, ``name``):

1. **typed units** from the cue rules of :mod:`app.services.extraction.rules`, clause by
   clause (questions skipped): constraints (allergies, "never", "must", 不要, 必须…),
   preferences, facts about the speaker; confidence from the strength of the cue, lowered by
   hedges ("maybe", 可能) and conditions;
2. **an event** for a message that says something the typed units do not already hold
   (:mod:`app.services.extraction.filler` decides: greetings, thanks, "ok", emoji, reactions
   and content-free questions are dropped): its informative sentences written as a
   standalone statement (:mod:`app.services.extraction.statements`) — the speaker named,
   "you" resolved to the person addressed, relative dates resolved against the message's
   time (else the conversation's) and the first of them in ``occurred_at``. When the message
   answers or points back at the previous one ("Yes! It was brutal."), that message is its
   trigger scenario (``query``); a question that got no unit of its own is cited in the
   answer's ``raw_ref`` too, since its words now live there. A dated plan gets a plan
   scenario instead.

Values are in the language of the message they came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime
from functools import partial

from app.core.text import has_cjk, normalize
from app.services.extraction import speakers as said_by
from app.services.extraction.dates import find_dates, local_midnight, local_now
from app.services.extraction.filler import Reading, addressees, content_words, read
from app.services.extraction.kinds import request_value, result_unit, unit_type
from app.services.extraction.rules import EN_RULES, ZH_RULES, is_instruction, plan_query
from app.services.extraction.standalone import (
    about_user,
    chunks,
    complete_answer,
    coordinated,
    dated_move,
    name_the_user,
    split_by_time,
    strip_lead_ins,
    subjectless,
    user_name,
    whole_sentence,
    without_clauses,
)
from app.services.extraction.statements import (
    en_entities,
    mid_sentence_names,
    resolve_dates,
    third_person_en,
    third_person_zh,
    zh_entities,
)
from app.services.extraction.units import Candidate, Extraction, ExtractionContext, Turn

_EN_CLAUSE_SPLIT = re.compile(r"(?<=[.!?;])\s+|\n+|,?\s+but\s+|,\s+and\s+(?=i\b)|\s+and\s+(?=i\b)",
                              re.IGNORECASE)  # fmt: skip
_ZH_CLAUSE_SPLIT = re.compile(r"(?<=[？?])|[。！；;!\n]+")  # a question keeps its mark
_QUESTION_START = re.compile(
    r"^(?:do|does|did|can|could|would|will|should|is|are|was|what|how|why|where|when|which|"
    r"who|shall|may)\b",
    re.IGNORECASE,
)
_EN_HEDGE = re.compile(
    r"\b(?:maybe|might|probably|perhaps|i\s+think|i\s+guess|kind\s+of|sort\s+of|not\s+sure|"
    r"sometimes)\b",
    re.IGNORECASE,
)
_ZH_HEDGE = re.compile(r"可能|也许|大概|好像|或许|有时|不太确定")
_EN_CONDITION = re.compile(r"^(?:if|when|whenever|unless)\b", re.IGNORECASE)
_ZH_CONDITION = re.compile(r"^(?:如果|要是|假如|除非)")
# A condition with its own statement, left beside a typed unit's words.
_MORE = re.compile(r"\b(?:if|when|whenever|unless)\s+\w+\s+\w+|如果|要是|假如|除非", re.IGNORECASE)

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
# Longest value of one event; a longer message becomes several events (sentence bounds).
MAX_EVENT_CHARS = 1000
# Longest trigger scenario taken from the previous message (its end, where a question is).
MAX_TRIGGER_CHARS = 300
EVENT_CONFIDENCE = 0.8
HEDGED_EVENT_CONFIDENCE = 0.65


def _clauses(text: str) -> list[str]:
    if not has_cjk(text):
        parts = _EN_CLAUSE_SPLIT.split(text)
    else:
        parts = []
        for sentence in _ZH_CLAUSE_SPLIT.split(text):
            # Comma-separated clauses are separate statements, except a condition and its
            # consequence ("如果下雨，我就…").
            if sentence and not _ZH_CONDITION.match(sentence.strip()):
                parts.extend(re.split(r"[，,]|并且|而且", sentence))
            else:
                parts.append(sentence)
    return [p.strip(" ,，、") for p in parts if p and p.strip(" ,，、")]


def _is_question(clause: str) -> bool:
    stripped = clause.rstrip()
    if stripped.endswith(("?", "？")) or re.search(r"[吗呢]$", stripped):
        return True
    return _QUESTION_START.match(stripped) is not None


def _named(value: str, name: str | None, zh: bool) -> str:
    """A typed unit's value about "the user" / 用户, about ``name`` instead when given."""
    if not name:
        return value
    if zh:
        return value.replace("用户", name)
    return value.replace("The user", name).replace("the user", name)


@dataclass
class _Said:
    """A message as read for extraction: who said it, what it says, whether it became a unit
    of its own (a reply's trigger scenario comes from the message before it)."""

    turn: Turn
    reading: Reading
    has_unit: bool = False

    @property
    def who(self) -> str | None:
        if self.turn.name:
            return self.turn.name
        return None if self.turn.role == "user" else self.turn.role

    def trigger(self, addressee: str | None, ctx: ExtractionContext) -> str | None:
        """This message as a trigger scenario for its reply (its dates resolved too)."""
        text = " ".join(self.reading.sentences)
        if not text:
            return None
        if len(text) > MAX_TRIGGER_CHARS:
            text = "…" + text[-MAX_TRIGGER_CHARS:].split(" ", 1)[-1]
        zh = has_cjk(text)
        now = local_now(self.turn.created_at or ctx.now, ctx.timezone)
        text = resolve_dates(text, find_dates(text, now), zh=zh)
        who = _display(self.who, zh)
        if self.reading.kinds[-1] == "question" and not text.endswith(("?", "？")):
            text += "？" if zh else "?"
        if zh:
            return f"回复{who}：“{third_person_zh(text, who, addressee).removeprefix(who + '：')}”"
        return f'Reply to {who}: "{third_person_en(text, who, addressee)}"'


def _replies(said: _Said, before: _Said) -> bool:
    """``said`` answers ``before``: someone else wrote it."""
    return before.turn.role != said.turn.role or before.who != said.who


def _display(who: str | None, zh: bool) -> str:
    """A speaker as written in a unit: the name, else the user or the assistant."""
    if who and who not in ("assistant", "tool", "system"):
        return who
    if zh:
        return "助手" if who == "assistant" else "用户"
    return "the assistant" if who == "assistant" else "the user"


class OfflineExtractor:
    """Rule-based extraction in English and Chinese (no model, no network)."""

    name = "offline"

    async def extract(self, turns: list[Turn], ctx: ExtractionContext) -> Extraction:
        """Candidate units from the user's turns (see the module docstring); turns in
        ``ctx.preceding`` are read as context only."""
        participants = frozenset(t.name.casefold() for t in turns if t.name)
        own = said_by.subjects([*ctx.preceding, *turns], ctx.user_id)
        known = frozenset(n for t in turns for n in mid_sentence_names(t.content))
        found: dict[str, Candidate] = {}
        before: _Said | None = None
        for turn in ctx.preceding[-1:]:
            before = _Said(turn, read(turn.content), has_unit=True)
        for turn in turns:
            if turn.role not in ("user", "assistant"):
                continue
            if turn.role == "user":  # "Reminder: …", "FYI", 顺便说一下: the fact itself
                content = said_by.without_injections(strip_lead_ins(turn.content))  # B11
                turn = replace(turn, content=content)
            said = _Said(turn, read(turn.content))
            now = local_now(turn.created_at or ctx.now, ctx.timezone)
            if turn.role == "user" and turn.content:
                # Only the user's own words instruct the assistant (speakers module).
                theirs = turn.name in own and not said_by.to_other(
                    turn, before.turn if before else None, addressees(turn.content), participants
                )
                units, covered, taken, dropped = self._typed(turn, now, theirs)
                answers = before is not None and before.reading.asks and _replies(said, before)
                rest = said
                if taken and not covered:  # the event holds what the typed units do not
                    rest = _Said(turn, read(without_clauses(turn.content, taken)))
                asked = answers or request_value(rest.reading.text(), "") is not None
                worth = rest.reading.says or (asked and rest.reading.stated_words > 0)
                if worth and not covered:
                    quoted = dropped or (
                        not theirs and said_by.names_the_assistant(rest.reading.text())
                    )
                    units += self._events(rest, before, now, ctx, (participants, known), quoted)
                for cand in units:
                    key = normalize(cand.value)
                    if key not in found or found[key].confidence < cand.confidence:
                        found[key] = cand
                said.has_unit = bool(units)
            elif done := result_unit(turn.content, now, ctx.timezone, turn.index):
                found.setdefault(normalize(done.value), done)  # "I booked…": what it did
            before = said
        return Extraction(_name_the_user(list(found.values()), turns))

    def _typed(
        self, turn: Turn, now: datetime, theirs: bool
    ) -> tuple[list[Candidate], bool, list[str], bool]:
        """The typed units of a message, whether they cover every clause of it that states
        something (then no event is needed), and the sentences (Chinese: clauses) a
        constraint holds entirely: the event leaves them out. Instructions to the assistant
        only when ``theirs`` (the user's own words to it), else whether one was dropped."""
        out: list[Candidate] = []
        covered, taken, dropped = True, [], False
        for clause in _clauses(turn.content):
            if _is_question(clause):
                continue
            units, rest = self._clause_units(clause, turn, now)
            zh = has_cjk(clause)
            facts = [u for u in units if u.type != "preference"]  # "I love X and Y": one thing
            joined = coordinated(rest, clause, zh) if facts else zh and subjectless(clause)
            if joined:  # "… and work at Siemens": a unit of its own, else the event holds it
                more, rest = self._clause_units(joined, turn, now)
                covered = covered and (bool(more) or read(joined).stated_words == 0)
                units += more
            if not theirs and units:  # "Always recommend…", 一定要推荐…: not the user's
                kept = [
                    u
                    for u in units
                    if not (is_instruction(u.query or "") or said_by.orders(clause))
                ]
                dropped, units = dropped or len(kept) < len(units), kept
            out += units
            # A clause saying more than its units ("…, and if it rains I take the bus")
            if (not units and read(clause).stated_words > 0) or (units and _MORE.search(rest)):
                covered = False
            held = (
                units
                and len(content_words(rest)) <= 1
                and all(u.type == "constraint" for u in units)
            )
            if held and (has_cjk(clause) or whole_sentence(clause, turn.content)):
                taken.append(clause)
        return out, covered and bool(out), taken, dropped

    def _clause_units(self, clause: str, turn: Turn, now: datetime) -> tuple[list[Candidate], str]:
        """A clause's typed units and its text outside their matches."""
        zh = has_cjk(clause)
        hedge = (_ZH_HEDGE if zh else _EN_HEDGE).search(clause) is not None
        condition = (_ZH_CONDITION if zh else _EN_CONDITION).match(clause) is not None
        out: list[Candidate] = []
        taken: list[tuple[int, int]] = []
        for rule in ZH_RULES if zh else EN_RULES:
            m = rule.pattern.search(clause)
            # Earlier rules are more specific: a later match over the same words is skipped.
            if m is None or said_by.skipped(m, taken, clause):
                continue
            taken.append((m.start(), m.end()))
            value, query, entities = rule.unit(m)  # entities: "Hamburg in May" → Hamburg
            value = dated_move(value, clause, now, zh)
            if condition:  # keep the condition: the whole clause, in the third person
                value = third_person_zh(clause, None) if zh else third_person_en(clause, None)
            conf = rule.confidence - (0.2 if hedge else 0.0) - (0.05 if condition else 0.0)
            extra = [turn.name, *entities] if turn.name else entities
            ents = zh_entities(m.group(0), extra) if zh else en_entities(m.group(0), extra)
            out.append(
                Candidate(
                    type=rule.type,
                    value=_named(value, turn.name, zh),
                    query=query,
                    entities=ents,
                    confidence=round(max(0.0, min(1.0, conf)), 3),
                    source_turns=[turn.index],
                )
            )
        return out, "".join(
            c for i, c in enumerate(clause) if not any(s <= i < e for s, e in taken)
        )

    def _events(
        self,
        said: _Said,
        before: _Said | None,
        now: datetime,
        ctx: ExtractionContext,
        names: tuple[frozenset[str], frozenset[str]],
        quoted: bool = False,
    ) -> list[Candidate]:
        """The event units of a message (module docstring); ``quoted``: another person's
        instruction, kept as what they said (:func:`attributed`)."""
        (participants, known), turn, text = names, said.turn, said.reading.text()
        zh = has_cjk(text)
        speaker = turn.name
        vocatives = addressees(turn.content)
        addressee = (before.who if before and before.who != speaker else None) or (
            vocatives[0] if vocatives else None
        )
        if addressee is not None:
            addressee = _display(addressee, zh)
        hedge = (_ZH_HEDGE if zh else _EN_HEDGE).search(text) is not None
        back = (_ZH_POINTS_BACK if zh else _EN_POINTS_BACK).match(text) is not None
        trigger = None
        if before is not None and _replies(said, before) and (before.reading.asks or back):
            trigger = before.trigger(speaker, ctx)
        sources = [turn.index]
        if trigger and before and not before.has_unit:
            sources.insert(0, before.turn.index)
        asked = [""]
        if trigger and before and before.reading.asks:  # "Yes, it expires…" → what expires
            asked = [s for s, k in zip(before.reading.sentences, before.reading.kinds,
                                       strict=True) if k == "question"]  # fmt: skip
            text = complete_answer(text, asked[-1])
        pieces = [
            part
            for chunk in chunks(text, MAX_EVENT_CHARS)
            for part in split_by_time(chunk, find_dates(chunk, now))
        ]
        out: list[Candidate] = []
        for piece in pieces:
            dates = find_dates(piece, now)
            resolved = resolve_dates(piece, dates, zh=zh)
            if zh:
                value = third_person_zh(resolved, speaker, addressee)
            else:
                value = third_person_en(resolved, speaker, addressee)
            extra = [speaker] if speaker else []
            if zh:
                entities = zh_entities(piece, extra, participants)
            else:
                entities = en_entities(piece, extra, participants, known)
            query = trigger
            ahead = dates and dates[0].day >= now.date()  # a plan, not a memory of the past
            kind = unit_type(said_by.unquoted(piece), dates, zh=zh)
            if kind == "event" and ahead and (_ZH_PLAN_CUE if zh else _EN_PLAN_CUE).search(piece):
                query = plan_query(dates[0].day, entities[len(extra) :], zh)
            if kind == "preference":  # "Window seat, please." → prefers a…
                value = request_value(piece, _display(speaker, zh), asked[-1]) or value
            if quoted:
                third = partial(third_person_zh if zh else third_person_en, speaker=speaker)
                who, rewrite = _display(speaker, zh), partial(third, addressee=addressee)
                kind, value = "event", said_by.attributed(resolved, who, addressee, rewrite, zh=zh)
            out.append(
                Candidate(
                    type=kind,
                    value=value,
                    query=query,
                    entities=entities,
                    confidence=HEDGED_EVENT_CONFIDENCE if hedge else EVENT_CONFIDENCE,
                    occurred_at=local_midnight(dates[0].day, ctx.timezone) if dates else None,
                    source_turns=sources,
                )
            )
        return out


def _name_the_user(units: list[Candidate], turns: list[Turn]) -> list[Candidate]:
    """Units about the (unnamed) user carry the name the transcript gives them ("My name is
    Alice" → "Alice" in the entities of "The user works at Siemens.")."""
    name = user_name(u.value for u in units if u.type == "fact")
    if name is None:
        return units
    by_index = {t.index: t for t in turns}
    for unit in units:
        speakers = {by_index[i].name for i in unit.source_turns if i in by_index}
        if about_user(unit.value) and speakers <= {None}:
            unit.entities = name_the_user(unit.entities, name)
    return units
