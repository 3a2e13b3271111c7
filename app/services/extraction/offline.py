"""The offline extractor (:class:`OfflineExtractor`): rules for English and Chinese, the
default when no LLM is set. This module walks the transcript; each step has a module of its
own: clauses (:mod:`~app.services.extraction.clauses`), typed units
(:mod:`~app.services.extraction.typed`, cue rules in :mod:`~app.services.extraction.rules`),
events (:mod:`~app.services.extraction.events`), a message as read
(:mod:`~app.services.extraction.said`).

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
from dataclasses import replace

from app.core.text import fold_space_runs, has_cjk, normalize
from app.services.extraction import (
    beliefs,
    casual,
    exceptions,
    kin_pronouns,
    outgrown,
    relayed,
    slots,
)
from app.services.extraction import speakers as said_by
from app.services.extraction.abbreviations import DOT, protect, restored
from app.services.extraction.changes import partner_clauses, state_changes
from app.services.extraction.dates import local_now
from app.services.extraction.events import EVENT_CONFIDENCE, congrats_unit, event_units
from app.services.extraction.filler import addressees, content_words, read
from app.services.extraction.held import left_over
from app.services.extraction.kinds import request_value, result_unit
from app.services.extraction.repeats import without_repeats
from app.services.extraction.retractions import corrected, negative_answer, take_back
from app.services.extraction.said import Said, addressee_of, display, replies
from app.services.extraction.scripts import Scripts
from app.services.extraction.standalone import (
    about_user,
    name_the_user,
    strip_lead_ins,
    user_name,
    without_clauses,
)
from app.services.extraction.statements import mid_sentence_names
from app.services.extraction.tag_questions import confirmed
from app.services.extraction.typed import typed_units
from app.services.extraction.units import Candidate, Extraction, ExtractionContext, Turn
from app.services.extraction.wh_answers import wh_answer
from app.services.extraction.yes_no import bare_no, yes_no_answer


class OfflineExtractor:
    """Rule-based extraction in English and Chinese (no model, no network)."""

    name = "offline"

    async def extract(self, turns: list[Turn], ctx: ExtractionContext) -> Extraction:
        """Candidate units from the user's turns (see the module docstring); turns in
        ``ctx.preceding`` are read as context only. Traditional characters are read as
        simplified, the units written back in the user's (:mod:`.scripts`)."""
        scripts = Scripts([*ctx.preceding, *turns])  # 我對花生過敏 read as 我对花生过敏
        ctx = replace(ctx, preceding=tuple(scripts.read(ctx.preceding)))
        found = self._read(scripts.read(turns), ctx)
        return replace(found, units=[scripts.unit(u) for u in found.units])

    def _read(self, turns: list[Turn], ctx: ExtractionContext) -> Extraction:
        turns = [protect(_folded(t)) for t in turns]  # "Dr. Smith", "Mt. Rainier" (E30)
        ctx = replace(ctx, preceding=tuple(protect(_folded(t)) for t in ctx.preceding))
        named = frozenset(t.name for t in [*ctx.preceding, *turns] if t.name)
        participants = frozenset(n.casefold() for t in turns if (n := t.name))
        own = said_by.subjects([*ctx.preceding, *turns], ctx.user_id)
        known = frozenset(n for t in turns for n in mid_sentence_names(t.content))
        found: dict[str, Candidate] = {}
        dropped: list[dict[str, object]] = []
        before: Said | None = None
        last: dict[str | None, int] = {}  # each speaker's latest message
        spoke: dict[str | None, str] = {}  # … and its words
        for turn in ctx.preceding[-1:]:
            before = Said(turn, read(turn.content), has_unit=True)
        for turn in turns:
            if turn.role not in ("user", "assistant"):
                continue
            if turn.role == "user":  # "Reminder: …", "FYI", 顺便说一下: the fact itself
                content = said_by.without_injections(strip_lead_ins(turn.content))  # B11
                content = casual.apostrophes(content)  # "i cant have dairy" (hbreak8 H33)
                content = slots.rewritten(content)  # 房租… → 我的房租…; went up to → is now
                content = partner_clauses(content)  # "…, and I'm dating Alex now" (K4)
                content = relayed.without_relayed(content)  # an e-mail to reply to (H17)
                again = before is not None and before.turn.name == turn.name
                earlier = spoke.get(turn.name, "") if again else ""
                # "…my son? He's 7" → "My son is 7"; "My sister…" then "She is a nurse" (H28)
                content = kin_pronouns.resolved(content, earlier)
                spoke[turn.name] = turn.content
                content = exceptions.rewritten(content)  # "no allergies except X" (G35)
                content = outgrown.rewritten(content)  # 我的花生过敏已经好了 (H1)
                content = beliefs.rewritten(content)  # "…assume I am vegan. I am not." (H18)
                content, takes_back = take_back(content)  # "Just kidding", 开玩笑的 (B10)
                if takes_back and turn.name in last:  # …the speaker's previous message
                    found = {
                        k: c for k, c in found.items() if last[turn.name] not in c.source_turns
                    }
                content = _answered(corrected(content), before, turn)
                turn = replace(turn, content=content)
                last[turn.name] = turn.index
            said = Said(turn, read(turn.content))
            now = local_now(turn.created_at or ctx.now, ctx.timezone)
            if turn.role == "user" and turn.content:
                # Only the user's own words instruct the assistant (speakers module).
                theirs = turn.name in own and not said_by.to_other(
                    turn, before.turn if before else None, addressees(turn.content), participants
                )
                typed = typed_units(turn, now, theirs)
                units, covered = typed.units, typed.covered
                answers = before is not None and before.reading.asks and replies(said, before)
                rest = said
                if typed.taken and not covered:  # the event holds what the typed units do not
                    rest = Said(turn, read(left_over(without_clauses(turn.content, typed.taken))))
                asked = answers or request_value(rest.reading.text(), "") is not None
                worth = rest.reading.says or (asked and rest.reading.stated_words > 0)
                if worth and not covered:
                    quoted = typed.dropped or (
                        not theirs and said_by.names_the_assistant(rest.reading.text())
                    )
                    names = (participants, known, named)
                    events = event_units(rest, before, now, ctx, names, quoted)
                    units += _not_restated(events, units)
                elif congrats := congrats_unit(said, addressee_of(said, before, named)):
                    units.append(congrats)  # "Congrats on the new job at Acme!" (B6)
                else:  # "We broke up.", "Just one cat now.": too short for an event (D26)
                    units += _changes(rest, turn)
                who = kin_pronouns.unnamed(turn.content) if not units else None
                if who and said.reading.text():  # "She is a nurse." alone (H28)
                    dropped.append(_unnamed_entry(turn, who))
                for cand in without_repeats(units):
                    key = normalize(cand.value)
                    if key not in found or found[key].confidence < cand.confidence:
                        found[key] = cand
                # A question is in no unit of its own: its answer cites it (filler.Reading.text)
                said.has_unit = bool(units) and not said.reading.asks
            elif done := result_unit(turn.content, now, ctx.timezone, turn.index):
                found.setdefault(normalize(done.value), done)  # "I booked…": what it did
            before = said
        units = _handled(list(found.values()))
        return Extraction([restored(u) for u in _name_the_user(units, turns)], dropped=dropped)


def _folded(turn: Turn) -> Turn:
    """``turn`` with its long whitespace runs folded (:func:`~app.core.text.fold_space_runs`):
    the rules read no run longer than two characters."""
    content = fold_space_runs(turn.content)
    return turn if content == turn.content else replace(turn, content=content)


def _unnamed_entry(turn: Turn, who: str) -> dict[str, object]:
    """The outcome entry of a message about someone only a pronoun names (no unit made)."""
    return {"memory_id": None, "outcome": "dropped", "type": None,
            "value": turn.content.replace(DOT, "."), "confidence": None,
            "reason": f'"{who}" opens message {turn.index} and no relative before it says who '
                      "that is: a unit of it would not say whom it is about"}  # fmt: skip


def _changes(said: Said, turn: Turn) -> list[Candidate]:
    """The states a short message's changes leave (:mod:`app.services.extraction.changes`)."""
    text = said.reading.text()
    zh = has_cjk(text)
    return [
        Candidate(
            type="fact",
            value=value,
            entities=[turn.name] if turn.name else [],
            confidence=EVENT_CONFIDENCE,
            source_turns=[turn.index],
        )  # fmt: skip
        for value in state_changes(text, display(turn.name, zh), zh=zh)
    ]


def _answered(content: str, before: Said | None, turn: Turn) -> str:
    """``content``, or the statement a bare answer makes of the question before it ("No."
    after "Any allergies?" → "I don't have any allergies."; "Yes." after "You moved to Boston
    in May, right?" → "I moved to Boston in May."; "No." after "Are you vegetarian?" → "I am
    not vegetarian.", tester C24)."""
    if before is None or not before.reading.asks or not replies(Said(turn, read(content)), before):
        return content
    asked = [s for s, k in zip(before.reading.sentences, before.reading.kinds, strict=True)
             if k == "question"]  # fmt: skip
    return (
        negative_answer(content, asked[-1])
        or confirmed(content, asked[-1])
        or yes_no_answer(content, asked[-1])
        or wh_answer(content, asked[-1])
        # a bare no that completes no question says nothing ("Nope, none." after "Anything
        # else?" was a unit of its own, tester H20)
        or ("" if bare_no(content) else content)
    )


# A request the assistant carried out in the same transcript ("Book me the cheapest flight…"
# then "Booked TP553 on 2026-12-20…"): the result holds what happened; the request read later
# is an instruction to book again (tester hbreak5 F23).
_REQUEST = re.compile(
    r"^(?:Book|Find|Reserve|Order|Schedule|Get|Buy|Cancel|Renew|Arrange)\s+(?:the\s+user|me)\b"
)


def _handled(units: list[Candidate]) -> list[Candidate]:
    if not any(u.type == "result" for u in units):
        return units
    return [u for u in units if u.type != "event" or not _REQUEST.match(u.value)]


def _not_restated(events: list[Candidate], typed: list[Candidate]) -> list[Candidate]:
    """``events`` without the lasting facts a typed unit of the message already states in its
    own words (tester E7: 我换工作了，现在在字节跳动做测试工程师 made the typed job, the event and
    a third "用户现在在字节跳动做测试工程师工作。")."""
    said = {u.query for u in typed if u.query and u.type == "fact"}
    words = [set(content_words(u.value.casefold())) for u in typed if u.type == "fact"]

    def restated(
        e: Candidate,
    ) -> bool:  # "is now a tester at Acme" beside "works as a tester at Acme"
        mine = set(content_words(e.value.casefold())) - {"user", "now", "用户", "现在"}
        return any(mine and mine <= w for w in words)

    return [
        e for e in events
        if not (e.type == "fact" and ((e.query and e.query in said) or restated(e)))
    ]  # fmt: skip


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
