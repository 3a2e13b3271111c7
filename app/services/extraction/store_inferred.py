"""What a ``/store`` unit leaves out, read from its value as extraction reads a message
(tester hbreak7 H18, H29): a unit stored without a ``type`` was always a ``fact`` (an allergy
never a standing constraint of ``/context``), and one stored without ``entities`` had none
(``memory_about`` and the entity graph found nothing).

The value is read as the user's own message: "The user …" / the subject's own id / 用户 as
"I" / 我 (the offline extractor's cue rules are first person), then given to the offline
extractor (:class:`~app.services.extraction.offline.OfflineExtractor`). Its units' types
give the type — the strongest of constraint, preference, fact; an ``event`` only when the
value says something happened or will happen at a time (:func:`kinds.stated_type`), else
``fact``, the type a ``/store`` always had — and the names among their named things the
entities (Siemens, Anna, 阿里巴巴; not "window seats"). A type or entities the caller gives
(``entities: []`` too) are kept as given; the value is stored as sent either way.
"""

from __future__ import annotations

import re
from datetime import datetime

from app.core.chinese_script import Script, simplified
from app.core.text import has_cjk
from app.core.vocabulary import MemoryType
from app.schemas.memory import MemoryCreate
from app.services.extraction.dates import find_dates
from app.services.extraction.kinds import stated_type
from app.services.extraction.offline import OfflineExtractor
from app.services.extraction.statements import unique, zh_entities
from app.services.extraction.units import ExtractionContext, Turn

_EXTRACTOR = OfflineExtractor()
# Most standing first: the type a unit holding several statements takes.
_ORDER: tuple[MemoryType, ...] = ("constraint", "preference", "fact")
_ADVERBS = (
    r"(?:(?:also|never|always|usually|often|still|really|only|now|currently|no\s+longer)\s+)*"
)
_BE = {"is": "am", "isn't": "am not", "was": "was", "wasn't": "wasn't", "has": "have",
       "hasn't": "haven't", "does": "do", "doesn't": "don't"}  # fmt: skip


def _verb(word: str) -> str:
    """A third-person present verb in the first person ("prefers" → "prefer")."""
    low = word.lower().replace("’", "'")
    if low in _BE:
        return _BE[low]
    if re.search(r"[^aeiou]ies$", low):
        return word[:-3] + "y"
    if re.search(r"(?:ch|sh|ss|x|z|o)es$", low):
        return word[:-2]
    if low.endswith("s") and not low.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def first_person(value: str, user_id: str) -> str:
    """``value`` as the user would say it: "The user prefers …" → "I prefer …", "The user's
    sister …" → "My sister …", "<user_id> is …" → "I am …", 用户对花生过敏 → 我对花生过敏."""
    if has_cjk(value):
        return re.sub(r"^(\W*)用户", r"\1我", value)
    subject = rf"(?:the\s+)?user|{re.escape(user_id)}"
    value = re.sub(rf"^(\W*)(?:{subject})['’]s\b", r"\1My", value, flags=re.I)
    m = re.match(rf"^(\W*)(?:{subject})\s+({_ADVERBS})([\w'’]+)\b", value, flags=re.I)
    if m is None:
        return value
    return f"{m[1]}I {m[2]}{_verb(m[3])}{value[m.end() :]}"


# The words read (a value may hold 2,000 characters: "tea" and 1,994 spaces made the cue rules
# backtrack for minutes): runs of whitespace as one space, at most this many characters.
MAX_READ_CHARS = 400


async def inferred(value: str, user_id: str, now: datetime) -> tuple[MemoryType, list[str]]:
    """The type and entities extraction gives ``value`` (module docstring); only its first
    :data:`MAX_READ_CHARS` characters are read, whitespace runs folded; traditional
    characters as simplified, the entities given in the value's own (我對花生過敏)."""
    said = first_person(simplified(" ".join(value.split())[:MAX_READ_CHARS]), user_id)
    turn = Turn(index=0, role="user", content=said, created_at=now, ref="store")
    found = await _EXTRACTOR.extract([turn], ExtractionContext(user_id=user_id, now=now))
    kinds = {u.type for u in found.units}
    kind = next((k for k in _ORDER if k in kinds), None)
    if kind is None:
        kind = stated_type(said, find_dates(said, now), zh=has_cjk(said)) or "fact"
        kind = kind if kind in (*_ORDER, "event") else "fact"
    # Names only (Siemens, Anna, 阿里巴巴), not the things a cue rule names ("window seats"):
    # two wordings of one fact rarely name the same things alike, and units naming no thing
    # in common are never merged unreviewed (docs/DEDUPE.md).
    zh = zh_entities(said, []) if has_cjk(said) else []
    found_names = [e for u in found.units for e in u.entities if e[:1].isupper() or e in zh]
    script = Script([value])
    return kind, [script.written(e)[:200] for e in unique(found_names)][:50]


async def completed(items: list[MemoryCreate], now: datetime) -> list[MemoryCreate]:
    """``items`` with a type and entities where the caller left them out, inferred from each
    value (:func:`inferred`); an explicit ``entities: []`` stays empty. The fields inferred
    are listed in the unit's ``metadata.inferred`` (the pair decision holds an inferred type
    other than an event, or inferred entities, against no merge:
    :func:`app.services.memory.merge.decide_against`)."""
    out: list[MemoryCreate] = []
    for item in items:
        wants_type = "type" not in item.model_fields_set
        wants_entities = "entities" not in item.model_fields_set
        if not (wants_type or wants_entities):
            out.append(item)
            continue
        kind, entities = await inferred(item.value, item.user_id, item.occurred_at or now)
        update: dict[str, object] = {}
        if wants_type:
            update["type"] = kind
        if wants_entities and entities:
            update["entities"] = entities
        if update:  # said on the unit: the pair decision does not hold a reading against it
            update["metadata"] = {**item.metadata, "inferred": sorted(k for k in update)}
        out.append(item.model_copy(update=update) if update else item)
    return out
