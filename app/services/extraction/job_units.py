"""A job's transcript snapshot as extractor turns, an extracted candidate as the ``/store``
unit the job writes (its source messages, time anchor, expiry and metadata), and the bound on
how many units one job keeps."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from app.core.config import ExtractionSettings
from app.core.text import has_cjk
from app.models import ExtractionJob
from app.schemas.memory import MemoryCreate
from app.services.extraction.dates import zone
from app.services.extraction.tense import is_past
from app.services.extraction.units import Candidate, Turn
from app.services.extraction.vague import vague_time

# An extractor's time anchor further ahead than this is no date (an LLM's 2999-01-01).
FAR_AHEAD = timedelta(days=100 * 366)


def _speaker_name(message: dict[str, Any]) -> str | None:
    """The message's ``name``, else a string ``name`` in its metadata (session messages)."""
    name = message.get("name") or (message.get("metadata") or {}).get("name")
    return name.strip() or None if isinstance(name, str) else None


def turns_of(job: ExtractionJob) -> list[Turn]:
    """The job's transcript snapshot as turns (refs point at session seqs or job indexes);
    a negative index is a message before a session job's range, read as context only."""
    turns = []
    for m in job.transcript:
        created = datetime.fromisoformat(m["created_at"]) if m.get("created_at") else None
        if "seq" in m and job.session_id:
            ref = f"session:{job.session_id}#{m['seq']}"
        else:
            ref = f"job:{job.id}#{m['index']}"
        turns.append(
            Turn(
                index=int(m["index"]),
                role=m["role"],
                content=m["content"],
                created_at=created,
                metadata=m.get("metadata") or {},
                ref=ref,
                name=_speaker_name(m),
            )
        )
    return turns


def _aware(value: datetime | date, tz: str) -> datetime:
    if isinstance(value, datetime):
        return value if value.tzinfo else value.replace(tzinfo=zone(tz))
    return datetime(value.year, value.month, value.day, tzinfo=zone(tz))


# A message that says it changes or corrects what was said before ("Actually no, my favourite
# drink is coffee now.", "Please call me Robert from now on.", 其实我现在更喜欢咖啡): its units
# lose the words ("The user's favourite drink is coffee."), so the unit says it in metadata
# (tester hbreak7 H6: kept as a conflict beside the value it replaced, both "standing").
_SAYS_CHANGE = re.compile(
    r"\b(?:now|from\s+now\s+on|any\s?more|no\s+longer|instead|actually|changed|switched)\b"
    r"|\bnew\s+(?:job|position|role)\b"  # "got a new job at Siemens" (a four-session life)
    r"|现在|从现在起|以后|不再|改成|换成|其实|新工作",
    re.IGNORECASE,
)


def to_memory(
    cand: Candidate, job: ExtractionJob, turns: list[Turn], extractor: str
) -> MemoryCreate:
    """The ``/store`` form of a candidate (raises ValidationError when it does not fit)."""
    by_index = {t.index: t for t in turns}
    sources = [by_index[i] for i in cand.source_turns if i in by_index]
    # The zone its dates were resolved in: /context prints its day there (tester C12).
    metadata: dict[str, Any] = {"job_id": str(job.id), "extractor": extractor,
                                "timezone": job.timezone}  # fmt: skip
    occurred = _aware(cand.occurred_at, job.timezone) if cand.occurred_at is not None else None
    if occurred is not None and occurred > job.conversation_now + FAR_AHEAD:  # tester F20: 2999
        metadata["occurred_at_ignored"] = occurred.isoformat()  # it would never expire
        occurred = None
    said = (sources[0].created_at if sources else None) or job.conversation_now
    if occurred is not None and occurred != said:  # the write path orders a change by it (F22)
        metadata["said_at"] = said.isoformat()
    if any(_SAYS_CHANGE.search(t.content) for t in sources):  # "Actually no, … coffee now"
        metadata["says_change"] = True  # the write path orders a contradiction by it (H6)
    if occurred is None:  # when it was said; a time phrase no rule places: unknown (B27)
        occurred = said
        if cand.type == "event" and is_past(cand.value, zh=has_cjk(cand.value)):
            metadata["happened"] = True  # "ran a marathon": a past event's TTL, not a plan's
        if (phrase := vague_time(cand.value)) is not None:
            metadata |= {"time_anchor": "unknown", "time_phrase": phrase}
    expires = _aware(cand.expires_at, job.timezone) if cand.expires_at else None
    if expires is not None and expires <= job.conversation_now:  # tester D25: never stored
        metadata["expires_at_ignored"] = expires.isoformat()  # expired; the type's TTL applies
        expires = None
    unit = MemoryCreate(
        user_id=job.user_id,
        agent_id=job.agent_id,
        task_id=job.task_id,
        type=cand.type,
        value=cand.value,
        query=cand.query,
        entities=cand.entities,
        confidence=cand.confidence,
        source="extraction",
        occurred_at=occurred,
        expires_at=expires,
        raw_ref=[t.ref for t in sources] or None,
        metadata=metadata,
    )
    # The job's session was checked when the job was made; one queued before /extract
    # refused ids a path cannot name ("conv/1") keeps it (schemas.common.addressable_session).
    return unit.model_copy(update={"session_id": job.session_id})


def within_bound(
    units: list[Candidate], turns: list[Turn], settings: ExtractionSettings
) -> tuple[list[Candidate], list[dict[str, Any]]]:
    """The units a job keeps — at most ``settings.max_units_per_message`` per user message of
    its transcript (context turns before the job's range not counted), the highest-confidence
    ones, in the extractor's order — and the outcome entries of those dropped beyond (tester
    hbreak7 H11: an LLM answered 300 units for 2 messages)."""
    users = sum(1 for t in turns if t.role == "user" and t.index >= 0)
    bound = settings.max_units_per_message * max(1, users)
    if len(units) <= bound:
        return units, []
    ranked = sorted(range(len(units)), key=lambda i: -units[i].confidence)  # stable on ties
    kept = set(ranked[:bound])
    reason = (f"over the job's bound of {bound} units "
              f"(EXTRACTION__MAX_UNITS_PER_MESSAGE × {max(1, users)} user messages)")  # fmt: skip
    over = [{"memory_id": None, "type": u.type, "value": u.value, "confidence": u.confidence,
             "outcome": "dropped", "reason": reason}
            for i, u in enumerate(units) if i not in kept]  # fmt: skip
    return [u for i, u in enumerate(units) if i in kept], over
