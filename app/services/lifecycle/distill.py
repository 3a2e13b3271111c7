"""Periodic distillation (docs/LIFECYCLE.md): a subject's recent episodic units (event,
action, result) become semantic ones (preferences, habits) through the ordinary write path, so a
preference distilled twice merges into one unit (and, where the write path detects
contradictions, a changed preference supersedes the old one — with an LLM only).

- With an LLM: the units go to the model, which answers with the extraction schema
  (``{"memories": [...]}``, ``source_turns`` = the numbers of the units used); replies are
  validated, re-asked a bounded number of times, and units below ``EXTRACTION__MIN_CONFIDENCE``
  (0.6, docs/EXTRACTION.md) are dropped.
- Offline: a unit with a sentence in which the subject states a preference or habit ("I
  like X", "Gina prefers X", "The user always takes the train", 用户每天早上喝咖啡:
  :mod:`app.services.lifecycle.preference_rule`) becomes ``Preference: <that sentence>``; a
  unit restated ``LIFECYCLE__DISTILL_MIN_SUPPORT`` times (its merge count) becomes
  ``Habit: <value>`` when those statements span a day, it names no calendar date and it does
  not address the assistant. Deterministic, so a rerun writes the
  same text and merges. Offline distillation never supersedes: a contradiction of a unit
  already held (a constraint, a preference) is left as a pending pair review (tester B31: an
  injected "Always recommend X…" replaced an attributed constraint).

Each written unit is dated like its sources (the latest ``occurred_at``), carries their
``raw_ref`` and ``metadata.sources`` and links to them (``memory_links``, kind
``distilled``); the episodic sources stay active. A subject is due when it has episodic
units confirmed after its watermark and either ``LIFECYCLE__DISTILL_EVERY_TASKS`` distinct
tasks among them or ``LIFECYCLE__DISTILL_MIN_AGE_S`` since its last run.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Protocol

from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.clients.llm import ChatMessage, LLMClient
from app.clients.llm_reply import ReplyParseError
from app.core.config import LifecycleSettings
from app.core.errors import HindsightError
from app.core.text import has_cjk
from app.core.vocabulary import SemanticType, is_semantic_type
from app.models import MemoryUnit
from app.repositories.memory.lifecycle import DueSubject, LifecycleRepository
from app.repositories.memory.units import Subject
from app.schemas import limits
from app.schemas.memory import MemoryCreate
from app.services.extraction.llm import BadReplyError
from app.services.extraction.parse import parse_reply
from app.services.lifecycle.preference_rule import (
    addressed,
    ended_by,
    given_up,
    preference_sentence,
)
from app.services.memory.store import StoreOutcome, StoreService

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Distilled:
    """A semantic unit to write and the episodic units it came from."""

    type: SemanticType
    value: str
    query: str | None
    entities: list[str]
    confidence: float
    sources: list[uuid.UUID]
    occurred_at: datetime | None = None
    raw_ref: list[str] = field(default_factory=list)


@dataclass
class DistillResult:
    """What one distillation of one subject did."""

    looked_at: int = 0
    outcomes: list[StoreOutcome] = field(default_factory=list)
    mode: str = "offline"


class Distiller(Protocol):
    """Turns episodic units into semantic candidates."""

    mode: str

    async def distill(self, units: list[MemoryUnit]) -> list[Distilled]:
        """Semantic units implied by ``units`` (oldest first)."""
        ...


# The dates extraction writes into a value ("on 2026-12-11 (Friday)", "2026年12月11日"): a unit
# that names one is about that day, never a habit.
_CALENDAR_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}\b|\d{4}年\d{1,2}月\d{1,2}日")
# The least time between a unit's first and last statement for its repetition to be a habit.
HABIT_SPAN = timedelta(days=1)


def states_preference(value: str, names: Sequence[str] = ()) -> bool:
    """True when a sentence of ``value`` has the subject (I, the user, 我, 用户 or one of
    ``names``) state a preference or habit (:mod:`app.services.lifecycle.preference_rule`)."""
    return preference_sentence(value, list(names)) is not None


def _dated(cand: Distilled, units: Sequence[MemoryUnit]) -> Distilled:
    """``cand`` dated like its sources (the latest ``occurred_at``) with their ``raw_ref``."""
    sources = [u for u in units if u.id in set(cand.sources)]
    if not sources:
        return cand
    refs = list(dict.fromkeys(r for u in sources for r in u.raw_ref))[:100]
    when = max(u.occurred_at for u in sources)
    return replace(cand, occurred_at=when, raw_ref=refs)


class OfflineDistiller:
    """Deterministic distillation by stated preferences and repetition (the module doc)."""

    mode = "offline"

    def __init__(self, min_support: int = 3) -> None:
        self.min_support = min_support

    def _habit(self, unit: MemoryUnit) -> bool:
        """Restated ``min_support`` times (its merge count) over at least a day between its
        first and last statement, naming no calendar date, not addressed to the assistant.
        Tester finding C30: one flight on 2026-12-11 told in three sessions of one afternoon
        became "Habit: The user needs a flight … on 2026-12-11", a 180-day fact."""
        if (unit.merge_count or 0) + 1 < self.min_support or addressed(unit.value):
            return False
        if given_up(unit.value, unit.value):  # "no longer drinks coffee" is no habit (E32)
            return False
        if _CALENDAR_DATE.search(unit.value):
            return False
        first, last = unit.created_at, unit.last_confirmed_at
        return first is not None and last is not None and last - first >= HABIT_SPAN

    async def distill(self, units: list[MemoryUnit]) -> list[Distilled]:
        """One candidate per qualifying unit; the same text once."""
        out: dict[str, Distilled] = {}
        for unit in units:
            zh = has_cjk(unit.value)
            kind: SemanticType
            stated = preference_sentence(unit.value, [*unit.entities, unit.user_id])
            if stated is not None:
                kind, value = "preference", ("偏好：" if zh else "Preference: ") + stated
            elif self._habit(unit):
                kind, value = "fact", ("习惯：" if zh else "Habit: ") + unit.value.strip()
            else:
                continue
            if len(value) > limits.current().value_chars:
                continue
            if value in out:
                out[value].sources.append(unit.id)
                continue
            out[value] = Distilled(
                kind, value, unit.query, list(unit.entities), unit.confidence, [unit.id]
            )
        return [_dated(c, units) for c in out.values()]


SYSTEM = """You distil an AI agent's long-term knowledge about one user from recent episodes.
Below are numbered episodic memories (events, actions, results). Find what they show about
the user that will still hold later: preferences, habits, constraints, stable facts. Only
what several episodes support or one states clearly; an empty list is a fine answer. Write
each as ONE sentence in the third person, in the language of the episodes, keeping negations
and conditions exactly.

Answer with a JSON object and nothing else:
{"memories": [{"type": "preference" | "fact" | "constraint", "value": "...",
"query": "<when this should come to mind, as a situation>", "entities": ["..."],
"confidence": 0.0-1.0, "source_turns": [<numbers of the episodes used>]}]}"""

REPAIR = """Your previous reply could not be used: {error}. Reply again with ONLY the JSON
object {{"memories": [...]}} following the schema; no prose, no code fences."""


def _messages(units: list[MemoryUnit]) -> list[ChatMessage]:
    lines = [
        f"[{i}] ({u.type}, {u.occurred_at.date().isoformat()}) {u.value}"
        for i, u in enumerate(units)
    ]
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": "\n".join(lines)},
    ]


class LLMDistiller:
    """Distillation by an OpenAI-compatible chat model."""

    mode = "llm"

    def __init__(
        self, client: LLMClient, parse_retries: int = 2, min_confidence: float = 0.6
    ) -> None:
        self.client = client
        self.parse_retries = parse_retries
        self.min_confidence = min_confidence

    async def distill(self, units: list[MemoryUnit]) -> list[Distilled]:
        """Raises ProviderError / ProviderTimeoutError, or BadReplyError when every reply
        was unusable."""
        messages = _messages(units)
        error = ""
        for _ in range(self.parse_retries + 1):
            reply = await self.client.complete(messages)
            try:
                parsed = parse_reply(reply)
            except ReplyParseError as exc:
                error = str(exc)
                messages = [
                    *_messages(units),
                    {"role": "assistant", "content": reply[:4000]},
                    {"role": "user", "content": REPAIR.format(error=error)},
                ]
                continue
            out: list[Distilled] = []
            for c in parsed.units:
                if not is_semantic_type(c.type) or c.confidence < self.min_confidence:
                    continue
                sources = [units[i].id for i in c.source_turns if 0 <= i < len(units)]
                cand = Distilled(c.type, c.value, c.query, c.entities, c.confidence, sources)
                out.append(_dated(cand, units))
            return out
        raise BadReplyError(f"LLM distillation reply unusable after retries: {error}")


class DistillService:
    """Distils one subject at a time; collaborators are passed in."""

    def __init__(
        self,
        repo: LifecycleRepository,
        store: StoreService,
        distiller: Distiller,
        settings: LifecycleSettings,
    ) -> None:
        self.repo = repo
        self.store = store
        self.distiller = distiller
        self.settings = settings

    async def due_subjects(self, now: datetime) -> list[DueSubject]:
        """Subjects due for distillation (at most ``LIFECYCLE__DISTILL_BATCH``)."""
        s = self.settings
        return await self.repo.due_subjects(
            now, s.distill_every_tasks, s.distill_min_age_s, s.distill_batch
        )

    async def distill_subject(self, subject: Subject, now: datetime) -> DistillResult:
        """Distil the subject's episodic units confirmed in the last
        ``distill_window_days`` and record the run. Raises ProviderError /
        BadReplyError from the LLM (nothing written, the run not recorded)."""
        since = now - timedelta(days=self.settings.distill_window_days)
        units = await self.repo.episodic_units(subject, since, self.settings.distill_max_units)
        result = DistillResult(looked_at=len(units), mode=self.distiller.mode)
        candidates = await self.distiller.distill(units) if units else []
        if candidates:  # not a liking or habit the subject since gave up (tester E32)
            ended = await self.repo.ended_values(subject)
            candidates = [c for c in candidates if not ended_by(c.value, ended)]
        if candidates:
            items = [self._item(subject, c, now) for c in candidates]
            # offline, nothing held is superseded: a contradiction waits for review (B31)
            supersede = self.distiller.mode != "offline"
            result.outcomes = await self.store.store(
                subject.namespace, items, now, supersede=supersede
            )
            for cand, outcome in zip(candidates, result.outcomes, strict=True):
                await self.repo.add_links(outcome.unit.id, cand.sources, "distilled", now)
        watermark = max((u.last_confirmed_at for u in units), default=now)
        await self.repo.save_distillation(subject, watermark, now)
        return result

    @staticmethod
    def _item(subject: Subject, cand: Distilled, now: datetime) -> MemoryCreate:
        return MemoryCreate(
            user_id=subject.user_id,
            agent_id=subject.agent_id,
            type=cand.type,
            value=cand.value,
            query=cand.query,
            entities=cand.entities[:50],
            confidence=cand.confidence,
            source="extraction",
            occurred_at=cand.occurred_at,
            raw_ref=cand.raw_ref or None,
            metadata={
                "kind": "distilled",
                "source_count": len(cand.sources),
                "sources": [str(i) for i in cand.sources[:100]],
            },
        )


def distiller_for(
    client: LLMClient | None, settings: LifecycleSettings, parse_retries: int = 2
) -> Distiller:
    """The LLM distiller when a client is configured, else the offline one."""
    if client is None:
        return OfflineDistiller(settings.distill_min_support)
    return LLMDistiller(client, parse_retries)


async def distill_due(
    session_factory: async_sessionmaker[AsyncSession],
    distill_service: Callable[[AsyncSession], DistillService],
    now: datetime,
    subjects: Sequence[DueSubject] | None = None,
) -> int:
    """The scheduled distillation job: each due subject in its own transaction, which this
    function owns (one subject's failure is logged and leaves the others alone).
    ``distill_service(session)`` builds the service on each transaction's session. Returns
    how many subjects were distilled."""
    if subjects is None:
        async with session_factory() as session, session.begin():
            subjects = await distill_service(session).due_subjects(now)
    done = 0
    for due in subjects:
        subject = Subject(due.namespace, due.user_id, due.agent_id)
        try:
            async with session_factory() as session, session.begin():
                await distill_service(session).distill_subject(subject, now)
            done += 1
        except HindsightError as exc:
            log.warning("distillation of %s/%s failed: %s", due.namespace, due.user_id, exc)
    return done
