"""The typed units of a message (constraints, preferences, facts) from the cue rules of
:mod:`app.services.extraction.rules`, clause by clause, questions skipped; confidence from the
strength of the cue, lowered by hedges and conditions. Instructions to the assistant count
only when they are the user's own words (:mod:`app.services.extraction.speakers`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime

from app.core.text import has_cjk
from app.services.extraction import beliefs
from app.services.extraction import speakers as said_by
from app.services.extraction.clauses import clauses, conditional, hedged, is_question, says_more
from app.services.extraction.filler import content_words, read
from app.services.extraction.held import holds_fact
from app.services.extraction.rules import EN_RULES
from app.services.extraction.rules_zh import ZH_RULES
from app.services.extraction.standalone import coordinated, dated_move, subjectless, whole_sentence
from app.services.extraction.statements import (
    en_entities,
    third_person_en,
    third_person_zh,
    zh_entities,
)
from app.services.extraction.triggers import is_instruction
from app.services.extraction.units import Candidate, Turn


@dataclass(frozen=True)
class Typed:
    """A message's typed units; ``covered``: they hold every clause of it that states
    something (no event is needed); ``taken``: the sentences (Chinese: clauses) a constraint
    holds entirely (the event leaves them out); ``dropped``: an instruction that was not the
    user's was left out."""

    units: list[Candidate]
    covered: bool
    taken: list[str]
    dropped: bool


def named(value: str, name: str | None, zh: bool) -> str:
    """A typed unit's value about "the user" / 用户, about ``name`` instead when given."""
    if not name:
        return value
    if zh:
        return value.replace("用户", name)
    return value.replace("The user", name).replace("the user", name)


def typed_units(turn: Turn, now: datetime, theirs: bool) -> Typed:
    """The typed units of a message (:class:`Typed`). Instructions to the assistant only
    when ``theirs`` (the user's own words to it)."""
    out: list[Candidate] = []
    covered, taken, dropped = True, [], False
    parts = clauses(turn.content)
    correcting = False  # the sentence so far corrects a stored fact ("no longer", 不再)
    for i, clause in enumerate(parts):
        if is_question(clause) or beliefs.believed(clause):  # "people assume I am vegan" (H18)
            continue
        zh = has_cjk(clause)
        units, rest = clause_units(_with_subject(clause, parts[:i], zh), turn, now)
        if correcting and not units and _same_sentence(turn.content, parts[i - 1], clause):
            taken.append(clause)  # "…, it was a misdiagnosis": why, held by the correction
            continue
        correcting = any(_CORRECTS.search(u.value) for u in units)
        if correcting:
            taken.append(clause)
        following = parts[i + 1 : i + 2]
        if following and any(
            u.type == "constraint" for u in clause_units(following[0], turn, now)[0]
        ):
            following = []  # "…. But I still don't eat spicy food.": a constraint of its own
        exception = (
            clause if _EXCEPTION_INSIDE.search(rest) else None  # "…, except roasted ones"
        ) or _exception(turn.content, clause, following)
        if exception and any(u.type == "constraint" for u in units):
            # "I'm vegetarian, but I eat eggs": the constraint keeps its exception (C8, C9)
            mixed = has_cjk(exception)
            whole = third_person_zh(exception, None) if mixed else third_person_en(exception, None)
            for u in units:
                if u.type == "constraint":
                    u.value = named(whole, turn.name, mixed)
            if mixed or whole_sentence(exception, turn.content):
                taken.append(exception)
        facts = [u for u in units if u.type != "preference"]  # "I love X and Y": one thing
        joined = coordinated(rest, clause, zh) if facts else zh and subjectless(clause)
        if joined:  # "… and work at Siemens": a unit of its own, else the event holds it
            more, rest = clause_units(joined, turn, now)
            covered = covered and (bool(more) or read(joined).stated_words == 0)
            units += more
        if not theirs and units:  # "Always recommend…", 一定要推荐…: not the user's
            kept = [
                u for u in units if not (is_instruction(u.query or "") or said_by.orders(clause))
            ]
            dropped, units = dropped or len(kept) < len(units), kept
        out += units
        # A clause saying more than its units ("…, and if it rains I take the bus")
        if (not units and read(clause).stated_words > 0) or (units and says_more(rest)):
            covered = False
        held = (
            units and len(content_words(rest)) <= 1 and all(u.type == "constraint" for u in units)
        ) or holds_fact(units, rest, now, parts[i + 1 : i + 2])  # "I moved to Boston." (s49)
        if held and (has_cjk(clause) or whole_sentence(clause, turn.content)):
            taken.append(clause)
    return Typed(out, covered and bool(out), taken, dropped)


# What opens a clause that excepts from the one before it.
_EXCEPTION = re.compile(
    r"^\s*[,，;；]?\s*(?:but|except(?:\s+for)?|apart\s+from|other\s+than|但是|但|不过|可是|只是|除了)",
    re.IGNORECASE,
)
_EXCEPTION_INSIDE = re.compile(
    r"[,，;；]\s*(?:but|except|apart\s+from|other\s+than|但是|但|不过|可是|只是|除了)",
    re.IGNORECASE,
)
# A unit that corrects a stored one (tester D9: "The user is no longer allergic to seafood.").
_CORRECTS = re.compile(r"\bno\s+longer\b|不再")


def _same_sentence(text: str, before: str, clause: str) -> bool:
    """``clause`` goes on the sentence of ``before`` in ``text`` (no sentence end between)."""
    start = text.find(before)
    end = text.find(clause, start + len(before)) if start >= 0 else -1
    return end >= 0 and re.search(r"[.!?。！？]", text[start + len(before) : end]) is None


# A Chinese clause that goes on about the speaker of the clause before it ("我不吃辣，也对花生
# 过敏"): its subject was left out.
# 住在杭州 after 我是素食者 (tester E26: 用户：住在杭州): where they live or work goes on too.
_ZH_GOES_ON = re.compile(
    r"^(?:也|还|又|并且|而且|同时)(?!是)|^(?=对[^，。！？]{1,12}过敏)"
    r"|^(?=(?:现在|目前)?(?:住在|定居在|生活在|在[^，。！？]{1,12}(?:工作|上班)))"
)


# The clause before is about someone of the speaker's (我妈妈, 我朋友小王), not the speaker.
_ZH_SOMEONE_ELSE = re.compile(
    r"我的?(?:妈妈|爸爸|母亲|父亲|爸妈|父母|老婆|老公|妻子|丈夫|儿子|女儿|孩子|哥哥|姐姐|弟弟|妹妹|"
    r"朋友|好友|同事|室友|老板|邻居|男朋友|女朋友|闺蜜)"
)


def _exception(text: str, clause: str, following: list[str]) -> str | None:
    """``clause`` with the clause that follows it in ``text`` when that one excepts from it
    ("I'm vegetarian, but I eat eggs", 我是素食者，但是我吃鸡蛋), as written; else None."""
    start = text.find(clause)
    if not following or start < 0:
        return None
    end = text.find(following[0], start + len(clause))
    if (
        end < 0
        or text[start + len(clause) : end].strip(" ,，;；")
        and not _EXCEPTION.match(text[start + len(clause) : end])
    ):
        return None
    if not _EXCEPTION.match(text[start + len(clause) : end + len(following[0])]):
        return None
    return text[start : end + len(following[0])]


def _with_subject(clause: str, before: list[str], zh: bool) -> str:
    """A Chinese clause that goes on about the speaker (也对花生过敏 after 我不吃辣) with its
    subject 我 again, for the cue rules; any other clause as it is."""
    if zh and _ZH_GOES_ON.match(clause) and "我" not in clause and before and "我" in before[-1]:
        if _ZH_SOMEONE_ELSE.search(before[-1]):  # 我妈妈是老师，住在杭州: the mother's home
            return clause
        return "我" + _ZH_GOES_ON.sub("", clause)
    return clause


def clause_units(clause: str, turn: Turn, now: datetime) -> tuple[list[Candidate], str]:
    """A clause's typed units and its text outside their matches."""
    zh = has_cjk(clause)
    hedge = hedged(clause, zh)
    condition = conditional(clause, zh)
    out: list[Candidate] = []
    taken: list[tuple[int, int]] = []
    for rule in ZH_RULES if zh else EN_RULES:
        m = rule.pattern.search(clause)
        # Earlier rules are more specific: a later match over the same words is skipped.
        if m is None or said_by.skipped(m, taken, clause):
            continue
        taken.append((m.start(), m.end()))
        conf = rule.confidence - (0.2 if hedge else 0.0) - (0.05 if condition else 0.0)
        # One unit per thing a list names ("allergic to shellfish and peanuts": two)
        for one in rule.matches(m):
            value, query, entities = rule.unit(one)  # entities: "Hamburg in May" → Hamburg
            value, moved_on = dated_move(value, clause, now, zh)
            if condition:  # keep the condition: the whole clause, in the third person
                value = third_person_zh(clause, None) if zh else third_person_en(clause, None)
                moved_on = None
            extra = [turn.name, *entities] if turn.name else entities
            names = zh_entities(one.group(0), extra) if zh else en_entities(one.group(0), extra)
            names = _whole_names(names, entities)  # not "Dr" beside "Dr. Anna Smith" (H23)
            out.append(
                Candidate(
                    type=rule.type,
                    value=named(value, turn.name, zh),
                    query=query,
                    entities=names,
                    confidence=round(max(0.0, min(1.0, conf)), 3),
                    occurred_at=moved_on,
                    source_turns=[turn.index],
                )
            )
    return out, "".join(c for i, c in enumerate(clause) if not any(s <= i < e for s, e in taken))


def _whole_names(names: list[str], whole: list[str]) -> list[str]:
    """``names`` without those that only open a name of ``whole`` (the rule's own entities,
    read whole: "Dr" and "José" beside "Dr. Anna Smith" and "José Ángel")."""

    def opens(name: str, other: str) -> bool:
        return other.startswith(name) and other[len(name) : len(name) + 1] in " .\u2024"

    return [n for n in names if n in whole or not any(opens(n, w) for w in whole)]
