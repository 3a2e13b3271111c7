"""Consolidation (``POST /summarize``, docs/LIFECYCLE.md): a subject's active units in a time
window, grouped by entity, become higher-level units that link to their sources — without
losing what the agent must keep obeying.

- **Constraints and preferences stay their own active units**: they are never folded into a
  summary (an allergy archived into a fact would drop out of ``/context``'s standing
  preferences and constraints). Where the write path left two of them contradicting each
  other side by side (``conflicts_with``: their order was unclear when stored), only the
  newest (``occurred_at``, then creation) stays active; the others become ``superseded`` by
  it, kept for history.
- **The other units** (facts, events, …), grouped by entity, become one digest per group
  (:mod:`app.services.lifecycle.summarizers`: one claim per line, deduplicated; or the LLM's
  summary) whose sources are archived. A digest is dated by its sources, not by the run: its
  ``occurred_at`` is the earliest ``valid_from`` of its sources (so ``as_of`` any moment of
  their span shows it), ``metadata.span`` their first and last ``occurred_at``.

Order of work, so that a failure loses nothing:

1. read the units (at most ``LIFECYCLE__SUMMARIZE_MAX_UNITS``) and group them (no locks);
2. write the groups' summary text — by the LLM when one is configured (its reply is
   untrusted: validated, re-asked ``LLM__PARSE_RETRIES`` times, then the request fails with
   ``provider_bad_reply`` and nothing is written), otherwise offline and deterministically —
   until the summaries come to ``LIFECYCLE__SUMMARIZE_MAX_TOKENS`` embedding-model tokens
   (the first is always written; the other groups' units are ``remaining``, for the next
   call: tester finding K9, a call of 600 units took 15 s of CPU); and embed them;
3. under the subject's write lock, re-lock the units; a group (or a set of contradicting
   standing units) that changed meanwhile is skipped; the others are resolved: older
   standing values superseded, sources archived, summaries stored through the write path
   (deduplicated) and linked (``memory_links``, kind ``summary``) — all in the caller's one
   transaction, so sources are archived only together with their summary. The summaries of
   one run are decided against the subject's other units, not against each other (nor
   against their sources, archived by then): tester finding K10.
"""

from __future__ import annotations

import logging
import uuid
from dataclasses import dataclass
from datetime import datetime

from app.clients.model_tokens import ModelTokens
from app.core.config import LifecycleSettings
from app.core.entity_names import name_key
from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.filters import UnitFilters
from app.repositories.memory.lifecycle import LifecycleRepository
from app.repositories.memory.units import MemoryRepository, Subject
from app.schemas.lifecycle import SummarizeRequest, SummaryMode
from app.schemas.memory import MemoryCreate
from app.services.lifecycle.summarizers import (
    Group,
    OfflineSummarizer,
    Summarizer,
    Summary,
    group_by_entity,
    summarizer_for,
)
from app.services.memory.resolution import outlive, valid_from
from app.services.memory.store import StoreOutcome, StoreService
from app.services.memory.time_range import effective_range

__all__ = ["SummarizeResult", "SummarizeService", "summarizer_for"]

log = logging.getLogger(__name__)

# Kept as their own active units, never summarised away.
STANDING_TYPES = ("constraint", "preference")


@dataclass(frozen=True)
class WrittenSummary:
    """A stored summary, its group's entity and the sources it consolidated."""

    entity: str
    outcome: StoreOutcome
    source_ids: list[uuid.UUID]


@dataclass(frozen=True)
class SummarizeResult:
    """What one ``/summarize`` call wrote, archived, superseded and kept."""

    summaries: list[WrittenSummary]
    archived: int
    mode: SummaryMode
    superseded: list[tuple[uuid.UUID, uuid.UUID]]  # (older unit, the newest that stays)
    standing: list[uuid.UUID]  # constraints and preferences that stay active
    remaining: int = 0  # units of the window left for a later call (the call's bounds)


def _newest(unit: MemoryUnit) -> tuple[datetime, datetime, uuid.UUID]:
    return (unit.occurred_at, unit.created_at, unit.id)


def newest_of_conflicts(units: list[MemoryUnit]) -> list[tuple[MemoryUnit, MemoryUnit]]:
    """(older, newest) for every unit of ``units`` that contradicts another of them
    (``conflicts_with``, either direction, transitively) and is not the newest of its set."""
    by_id = {u.id: u for u in units}
    neighbours: dict[uuid.UUID, set[uuid.UUID]] = {u.id: set() for u in units}
    for unit in units:
        for other in unit.conflicts_with:
            if other in by_id and other != unit.id:
                neighbours[unit.id].add(other)
                neighbours[other].add(unit.id)
    seen: set[uuid.UUID] = set()
    pairs: list[tuple[MemoryUnit, MemoryUnit]] = []
    for unit in units:
        if unit.id in seen or not neighbours[unit.id]:
            continue
        component, stack = [], [unit.id]
        while stack:
            current = stack.pop()
            if current in seen:
                continue
            seen.add(current)
            component.append(by_id[current])
            stack.extend(neighbours[current] - seen)
        newest = max(component, key=_newest)
        pairs += [(u, newest) for u in component if u.id != newest.id]
    return pairs


class SummarizeService:
    """Consolidates a subject's units; collaborators are passed in."""

    def __init__(
        self,
        repo: LifecycleRepository,
        memories: MemoryRepository,
        store: StoreService,
        summarizer: Summarizer,
        settings: LifecycleSettings,
        tokens: ModelTokens | None = None,
    ) -> None:
        self.repo = repo
        self.memories = memories
        self.store = store
        self.summarizer = summarizer
        self.settings = settings
        self.tokens = tokens  # the embedding model's (None: ~4 characters a token)

    def _tokens(self, summary: Summary) -> int:
        """Embedding-model tokens of a summary's value and trigger scenario."""
        texts = [t for t in (summary.value, summary.query) if t]
        if self.tokens is None:
            return sum(len(t) // 4 + 1 for t in texts)
        return sum(self.tokens.count(t) for t in texts)

    async def summarize(
        self, namespace: str, req: SummarizeRequest, now: datetime
    ) -> SummarizeResult:
        """Consolidate the subject's active units matching ``req`` (see the module doc).

        Raises ProviderError / ProviderTimeoutError / BadReplyError from the LLM (nothing
        written).
        """
        since, until = effective_range(req.since, req.until, req.time_range, now)
        only = name_key(req.entity, "entity") if req.entity else None
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
        units = await self.repo.units(filters, self.settings.summarize_max_units)
        unread = 0
        if len(units) == self.settings.summarize_max_units:
            unread = await self.repo.count_units(filters) - len(units)
        standing = [u for u in units if u.type in STANDING_TYPES]
        rest = [u for u in units if u.type not in STANDING_TYPES]
        stale = newest_of_conflicts(standing)
        min_group = req.min_group or self.settings.summarize_min_group
        groups = group_by_entity(rest, min_group, only=only)
        snapshot = {u.id: (u.status, u.updated_at) for u in units}

        written: list[tuple[Group, Summary, list[MemoryUnit]]] = []
        used, budget, waiting = 0, self.settings.summarize_max_tokens, 0
        for k, group in enumerate(groups):
            if written and used >= budget:  # the rest waits for the next call (K9)
                waiting = sum(len(g.units) for g in groups[k:])
                break
            summary = await self.summarizer.summarize(group.entity, group.units)
            sources = (
                OfflineSummarizer.covered(summary, group.units)
                if isinstance(self.summarizer, OfflineSummarizer)
                else group.units
            )
            if len(sources) >= 2:
                written.append((group, summary, sources))
                used += self._tokens(summary)
        active = [u.id for u in standing if u.id not in {old.id for old, _ in stale}]
        remaining = unread + waiting
        if not written and not stale:
            return SummarizeResult([], 0, self.summarizer.mode, [], active, remaining)
        # Embedded before the lock: the subject's writes wait for the decisions only.
        items = [self._item(subject, g, s, src) for g, s, src in written]
        values, queries = await self.store.embed(items) if items else ([], [])

        await self.memories.lock_subject(subject)
        touched = [u.id for _, _, src in written for u in src]
        touched += [u.id for pair in stale for u in pair]
        fresh = {u.id: u for u in await self.repo.lock_units(subject.namespace, touched)}

        def unchanged(group: list[MemoryUnit]) -> bool:
            return all(
                u.id in fresh and (fresh[u.id].status, fresh[u.id].updated_at) == snapshot[u.id]
                for u in group
            )

        keep = [k for k, (_, _, src) in enumerate(written) if unchanged(src)]
        kept = [written[k] for k in keep]
        stale = [(old, new) for old, new in stale if unchanged([old, new])]
        if len(kept) < len(written):
            log.info("summarize: %d group(s) changed meanwhile, skipped", len(written) - len(kept))
        for old, new in stale:
            self._supersede(fresh[old.id], new, now)
        # their open reviews (the conflict's own among them) no longer stand
        await self.store.reviews.close_open_of([old.id for old, _ in stale], now)

        archived = await self.repo.set_status(
            [u.id for _, _, src in kept for u in src], UnitStatus.ARCHIVED, now
        )
        await self.repo.flush()
        outcomes = []
        if keep:  # decided apart: not against each other (K10), their sources archived
            embedded = ([values[k] for k in keep], [queries[k] for k in keep])
            batch = [items[k] for k in keep]
            outcomes = await self.store.store(
                subject.namespace, batch, now, embedded=embedded, apart=True
            )
        results: list[WrittenSummary] = []
        for (group, _, sources), outcome in zip(kept, outcomes, strict=True):
            ids = [u.id for u in sources]
            await self.repo.add_links(outcome.unit.id, ids, "summary", now)
            results.append(WrittenSummary(group.entity, outcome, ids))
        gone = {old.id for old, _ in stale}
        return SummarizeResult(
            results,
            archived,
            self.summarizer.mode,
            [(old.id, new.id) for old, new in stale],
            [u.id for u in standing if u.id not in gone],
            remaining,
        )

    @staticmethod
    def _supersede(old: MemoryUnit, new: MemoryUnit, now: datetime) -> None:
        """``old`` gives way to the newer contradicting value ``new`` (kept for history; true
        until ``new`` became true, :func:`~app.services.memory.resolution.valid_from`)."""
        by = new.id
        old.status = UnitStatus.SUPERSEDED
        old.superseded_by = by
        old.valid_to = max(valid_from(new), valid_from(old))
        outlive(new, old)
        old.updated_at = now
        audit = {"reason": "summarize_newest_of_conflict", "at": now.isoformat(), "by": str(by)}
        old.metadata_ = {**old.metadata_, "superseded": audit}

    def _item(
        self, subject: Subject, group: Group, summary: Summary, sources: list[MemoryUnit]
    ) -> MemoryCreate:
        entities = list(dict.fromkeys([group.entity, *(e for u in sources for e in u.entities)]))
        raw_ref = list(dict.fromkeys(r for u in sources for r in u.raw_ref))
        return MemoryCreate(
            user_id=subject.user_id,
            agent_id=subject.agent_id,
            type=summary.type,
            value=summary.value,
            query=summary.query,
            entities=entities[:50],
            confidence=round(sum(u.confidence for u in sources) / len(sources), 4),
            source="system",
            # The span of its sources (tester C22): true from the first of them on.
            occurred_at=min(valid_from(u) for u in sources),
            raw_ref=raw_ref[:100] or None,
            metadata={
                "kind": "summary",
                "entity": group.entity,
                "source_count": len(sources),
                "summarizer": self.summarizer.mode,
                "span": {
                    "from": min(u.occurred_at for u in sources).isoformat(),
                    "to": max(u.occurred_at for u in sources).isoformat(),
                },
            },
        )
