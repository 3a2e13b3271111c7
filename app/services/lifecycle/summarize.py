"""Consolidation (``POST /summarize``, docs/LIFECYCLE.md): a subject's active units in a time
window, grouped by entity, become higher-level semantic units that link to their sources.

Order of work, so that a failure loses nothing:

1. read the units and group them (no locks);
2. write every group's summary text — by the LLM when one is configured (its reply is
   untrusted: validated, re-asked ``LLM__PARSE_RETRIES`` times, then the request fails with
   ``provider_bad_reply`` and nothing is written), otherwise offline and deterministically;
3. under the subject's write lock, re-lock the sources; a group whose sources changed
   meanwhile is skipped; the others' sources are archived, their summaries stored through the
   write path (embedded, deduplicated) and linked (``memory_links``, kind ``summary``) — all
   in the caller's one transaction, so sources are archived only together with their summary.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from app.clients.llm import ChatMessage, LLMClient
from app.clients.llm_reply import ReplyParseError, parse_json_object
from app.core.config import LifecycleSettings
from app.core.text import entity_keys, has_cjk
from app.models import MemoryUnit
from app.repositories.memory.filters import UnitFilters
from app.repositories.memory.lifecycle import LifecycleRepository
from app.repositories.memory.units import MemoryRepository, Subject
from app.schemas import limits
from app.schemas.lifecycle import SummarizeRequest
from app.schemas.memory import MemoryCreate
from app.services.extraction.llm import BadReplyError
from app.services.memory.store import StoreOutcome, StoreService
from app.services.memory.time_window import window

log = logging.getLogger(__name__)

SEMANTIC_TYPES = ("fact", "preference", "constraint")
# Units per group sent to the summariser (the rest of a large group stays active).
MAX_GROUP = 50


@dataclass
class Group:
    """Units sharing one entity (``key`` case-folded, ``entity`` as first written)."""

    key: str
    entity: str
    units: list[MemoryUnit] = field(default_factory=list)


@dataclass(frozen=True)
class Summary:
    """The text a summariser wrote for one group."""

    value: str
    query: str | None
    type: str


@dataclass(frozen=True)
class WrittenSummary:
    """A stored summary, its group's entity and the sources it consolidated."""

    entity: str
    outcome: StoreOutcome
    source_ids: list


@dataclass(frozen=True)
class SummarizeResult:
    """What one ``/summarize`` call wrote and archived."""

    summaries: list[WrittenSummary]
    archived: int
    mode: str


class Summarizer(Protocol):
    """Writes the summary of one group."""

    mode: str

    async def summarize(self, entity: str, units: list[MemoryUnit]) -> Summary:
        """A semantic unit's text for ``units`` (all naming ``entity``)."""
        ...


def group_type(units: list[MemoryUnit]) -> str:
    """The sources' type when they share a semantic one, else ``fact``."""
    types = {u.type for u in units}
    return types.pop() if len(types) == 1 and next(iter(types)) in SEMANTIC_TYPES else "fact"


def group_by_entity(
    units: list[MemoryUnit], min_group: int, only: str | None = None
) -> list[Group]:
    """Assign each unit to at most one group. With ``only`` (a case-folded entity), one
    group of the units naming it. Otherwise greedily by entity frequency (most frequent
    first, ties alphabetical): a unit joins the first group whose entity it names; groups
    smaller than ``min_group`` release their units to later entities. Groups keep the units'
    order and at most :data:`MAX_GROUP` units."""
    counts = Counter(k for u in units for k in dict.fromkeys(u.entity_keys))
    keys = [only] if only is not None else sorted(counts, key=lambda k: (-counts[k], k))
    taken: set = set()
    groups: list[Group] = []
    for key in keys:
        members = [u for u in units if u.id not in taken and key in u.entity_keys]
        if len(members) < min_group:
            continue
        members = members[:MAX_GROUP]
        first = members[0]
        name = next((e for e in first.entities if e.strip().casefold() == key), key)
        groups.append(Group(key, name, members))
        taken.update(u.id for u in members)
    return groups


class OfflineSummarizer:
    """Deterministic: the distinct source values in time order after the entity's name,
    cut at ``LIMITS__VALUE_CHARS`` (sources that do not fit stay active)."""

    mode = "offline"

    async def summarize(self, entity: str, units: list[MemoryUnit]) -> Summary:
        """``"<entity>: <value 1> <value 2> …"``; the query names the entity."""
        zh = any(has_cjk(u.value) for u in units)
        head = f"{entity}：" if zh else f"{entity}: "
        sep = "" if zh else " "
        parts: list[str] = []
        seen: set[str] = set()
        length = len(head)
        for unit in units:
            value = unit.value.strip()
            if value in seen:
                continue
            if length + len(sep) + len(value) > limits.current().value_chars:
                break
            seen.add(value)
            parts.append(value)
            length += len(sep) + len(value)
        query = f"当谈到{entity}时" if zh else f"When the conversation turns to {entity}"
        return Summary(head + sep.join(parts), query, group_type(units))

    @staticmethod
    def covered(summary: Summary, units: list[MemoryUnit]) -> list[MemoryUnit]:
        """The units whose value made it into ``summary`` (the rest stay active)."""
        return [u for u in units if u.value.strip() in summary.value]


SYSTEM = """You consolidate an AI agent's long-term memory about one user.
You get several memory units that all concern "{entity}". Write ONE consolidated memory that
keeps every durable detail (names, numbers, dates, negations and conditions exactly), drops
repetition, and is written in the language of the units, in the third person.

Answer with a JSON object and nothing else:
{{"value": "<at most 400 characters>", "query": "<when this memory should come to mind, as a
situation>", "type": "fact" | "preference" | "constraint"}}"""

REPAIR = """Your previous reply could not be used: {error}. Reply again with ONLY the JSON
object {{"value": "...", "query": "...", "type": "..."}}; no prose, no code fences."""


def _messages(entity: str, units: list[MemoryUnit]) -> list[ChatMessage]:
    lines = [
        f"[{i}] ({u.type}, {u.occurred_at.date().isoformat()}) {u.value}"
        for i, u in enumerate(units)
    ]
    return [
        {"role": "system", "content": SYSTEM.format(entity=entity)},
        {"role": "user", "content": "\n".join(lines)},
    ]


def parse_summary(reply: str, default_type: str) -> Summary:
    """A validated summary from an LLM reply. Raises ReplyParseError."""
    data = parse_json_object(reply)
    value = data.get("value")
    if not isinstance(value, str) or not value.strip():
        raise ReplyParseError('"value" must be a non-empty string')
    value = value.replace("\x00", "").strip()
    if len(value) > limits.current().value_chars:
        raise ReplyParseError(f'"value" is longer than {limits.current().value_chars} characters')
    query = data.get("query")
    if query is not None and not isinstance(query, str):
        raise ReplyParseError('"query" must be a string')
    query = query.replace("\x00", "").strip()[: limits.current().value_chars] if query else None
    kind = data.get("type")
    kind = kind.strip().lower() if isinstance(kind, str) else default_type
    return Summary(value, query or None, kind if kind in SEMANTIC_TYPES else default_type)


class LLMSummarizer:
    """Summaries by an OpenAI-compatible chat model; replies validated, bounded re-asks."""

    mode = "llm"

    def __init__(self, client: LLMClient, parse_retries: int = 2) -> None:
        self.client = client
        self.parse_retries = parse_retries

    async def summarize(self, entity: str, units: list[MemoryUnit]) -> Summary:
        """Raises ProviderError / ProviderTimeoutError from the client, BadReplyError when
        every reply was unusable."""
        messages = _messages(entity, units)
        error = ""
        for _ in range(self.parse_retries + 1):
            reply = await self.client.complete(messages)
            try:
                return parse_summary(reply, group_type(units))
            except ReplyParseError as exc:
                error = str(exc)
                log.info("unusable summary reply (%s); asking again", error)
                messages = [
                    *_messages(entity, units),
                    {"role": "assistant", "content": reply[:4000]},
                    {"role": "user", "content": REPAIR.format(error=error)},
                ]
        raise BadReplyError(
            f"LLM summary reply unusable after {self.parse_retries + 1} tries: {error}"
        )


class SummarizeService:
    """Consolidates a subject's units; collaborators are passed in."""

    def __init__(
        self,
        repo: LifecycleRepository,
        memories: MemoryRepository,
        store: StoreService,
        summarizer: Summarizer,
        settings: LifecycleSettings,
    ) -> None:
        self.repo = repo
        self.memories = memories
        self.store = store
        self.summarizer = summarizer
        self.settings = settings

    async def summarize(
        self, namespace: str, req: SummarizeRequest, now: datetime
    ) -> SummarizeResult:
        """Consolidate the subject's active units matching ``req`` (see the module doc).

        Raises ProviderError / ProviderTimeoutError / BadReplyError from the LLM (nothing
        written).
        """
        since, until = window(req.since, req.until, req.time_range, now)
        only = entity_keys([req.entity])[0] if req.entity else None
        subject = Subject(namespace, req.user_id, req.agent_id)
        filters = UnitFilters(
            namespace=namespace,
            user_id=req.user_id,
            agent_id=req.agent_id,
            exact_agent=True,
            types=req.types,
            entity_keys=[only] if only else None,
            since=since,
            until=until,
        )
        min_group = req.min_group
        units = await self.repo.units(filters, self.settings.summarize_max_units)
        groups = group_by_entity(units, min_group or self.settings.summarize_min_group, only=only)
        snapshot = {u.id: (u.status, u.updated_at) for g in groups for u in g.units}

        written: list[tuple[Group, Summary, list[MemoryUnit]]] = []
        for group in groups:
            summary = await self.summarizer.summarize(group.entity, group.units)
            sources = (
                OfflineSummarizer.covered(summary, group.units)
                if isinstance(self.summarizer, OfflineSummarizer)
                else group.units
            )
            if len(sources) >= 2:
                written.append((group, summary, sources))
        if not written:
            return SummarizeResult([], 0, self.summarizer.mode)

        await self.memories.lock_subject(subject)
        fresh = {
            u.id: u
            for u in await self.repo.lock_units(
                subject.namespace, [u.id for _, _, src in written for u in src]
            )
        }
        kept = [
            (g, s, src)
            for g, s, src in written
            if all(
                u.id in fresh and (fresh[u.id].status, fresh[u.id].updated_at) == snapshot[u.id]
                for u in src
            )
        ]
        if len(kept) < len(written):
            log.info("summarize: %d group(s) changed meanwhile, skipped", len(written) - len(kept))
        if not kept:
            return SummarizeResult([], 0, self.summarizer.mode)

        archived = await self.repo.set_status(
            [u.id for _, _, src in kept for u in src], "archived", now
        )
        await self.repo.flush()
        items = [self._item(subject, g, s, src) for g, s, src in kept]
        outcomes = await self.store.store(subject.namespace, items, now)
        results: list[WrittenSummary] = []
        for (group, _, sources), outcome in zip(kept, outcomes, strict=True):
            ids = [u.id for u in sources]
            await self.repo.add_links(outcome.unit.id, ids, "summary", now)
            results.append(WrittenSummary(group.entity, outcome, ids))
        return SummarizeResult(results, archived, self.summarizer.mode)

    def _item(
        self, subject: Subject, group: Group, summary: Summary, sources: list[MemoryUnit]
    ) -> MemoryCreate:
        entities = list(dict.fromkeys([group.entity, *(e for u in sources for e in u.entities)]))
        raw_ref = list(dict.fromkeys(r for u in sources for r in u.raw_ref))
        return MemoryCreate(
            user_id=subject.user_id,
            agent_id=subject.agent_id,
            type=summary.type,  # type: ignore[arg-type]
            value=summary.value,
            query=summary.query,
            entities=entities[:50],
            confidence=round(sum(u.confidence for u in sources) / len(sources), 4),
            source="system",
            occurred_at=max(u.occurred_at for u in sources),
            raw_ref=raw_ref[:100] or None,
            metadata={
                "kind": "summary",
                "entity": group.entity,
                "source_count": len(sources),
                "summarizer": self.summarizer.mode,
            },
        )


def summarizer_for(client: LLMClient | None, parse_retries: int = 2) -> Summarizer:
    """The LLM summariser when a client is configured, else the offline one."""
    return OfflineSummarizer() if client is None else LLMSummarizer(client, parse_retries)
