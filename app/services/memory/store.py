"""The write path of memory units (``POST /store``; later also extraction): embed in one
batch, then per unit — under the subject's advisory lock — merge into a duplicate or create.
Everything happens in the caller's transaction: units and vectors commit together."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

import numpy as np
import uuid_utils.compat as uuid7

from app.clients.embeddings import Embedder
from app.core.config import ConflictSettings, DedupeSettings, TtlSettings
from app.core.text import entity_keys, search_text
from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.units import MemoryRepository, Subject
from app.schemas.memory import MemoryCreate
from app.services.memory.conflicts import ConflictChecker, PairJudge
from app.services.memory.dedupe import value_hash
from app.services.memory.merge import Restatement, first_duplicate, merge_into
from app.services.memory.ttl import expiry_for


@dataclass(frozen=True)
class StoreOutcome:
    """What happened to one input unit."""

    unit: MemoryUnit
    outcome: str  # created | merged | superseded | conflict


class StoreService:
    """Stores memory units with dedupe; collaborators are passed in."""

    def __init__(
        self,
        repo: MemoryRepository,
        embedder: Embedder,
        dedupe: DedupeSettings,
        ttl: TtlSettings | None = None,
        conflicts: ConflictSettings | None = None,
        judge: PairJudge | None = None,
    ):
        self.repo = repo
        self.embedder = embedder
        self.dedupe = dedupe
        self.ttl = ttl or TtlSettings()  # per-type expiry at write (app.services.memory.ttl)
        # Contradictions supersede or flag older units (services/memory/conflicts.py).
        self.conflicts = ConflictChecker(
            repo, conflicts or ConflictSettings(), embedder.model, judge, dedupe.neighbours
        )

    async def store(
        self, namespace: str, items: list[MemoryCreate], now: datetime
    ) -> list[StoreOutcome]:
        """Store ``items`` in input order; returns one outcome per item.

        Raises ProviderError/ProviderTimeoutError when embedding fails (nothing written).
        """
        values = await self.embedder.embed_passages([i.value for i in items])
        with_query = [k for k, i in enumerate(items) if i.query]
        queries = await self.embedder.embed_passages([items[k].query or "" for k in with_query])
        query_vecs: dict[int, np.ndarray] = dict(zip(with_query, queries, strict=True))

        subjects = sorted(
            {Subject(namespace, i.user_id, i.agent_id) for i in items}, key=Subject.lock_key
        )
        for subject in subjects:  # a fixed order, so two batches cannot deadlock
            await self.repo.lock_subject(subject)

        outcomes: list[StoreOutcome] = []
        for k, item in enumerate(items):
            subject = Subject(namespace, item.user_id, item.agent_id)
            existing = await self._duplicate_of(subject, item, values[k])
            if existing is not None:
                self._merge(existing, item, now)
                outcomes.append(StoreOutcome(existing, "merged"))
            else:
                findings = await self.conflicts.find(subject, item.value, values[k])
                # Only the LLM's "same" merges: the local rules' "same" (one shared slot, e.g.
                # both say where the user lives) would fold "lives in Berlin and keeps two
                # cats" into "lives in Berlin and works remotely" and lose the cats.
                same = next(
                    (
                        f.unit
                        for f in findings
                        if f.judgement.verdict == "same" and f.judgement.reason == "llm"
                    ),
                    None,
                )
                if same is not None:
                    self._merge(same, item, now)
                    outcomes.append(StoreOutcome(same, "merged"))
                else:
                    unit = self._new_unit(namespace, item, values[k], query_vecs.get(k), now)
                    self.repo.add(unit)
                    outcome = self.conflicts.apply(unit, findings, now)
                    outcomes.append(StoreOutcome(unit, outcome))
            await self.repo.flush()
        return outcomes

    async def _duplicate_of(
        self, subject: Subject, item: MemoryCreate, vector: np.ndarray
    ) -> MemoryUnit | None:
        exact = await self.repo.find_by_hash(subject, value_hash(item.value))
        if exact is not None:
            return exact
        neighbours = await self.repo.nearest_active(
            subject, vector, self.embedder.model, self.dedupe.neighbours
        )
        return first_duplicate(item.value, entity_keys(item.entities), neighbours, self.dedupe)

    @staticmethod
    def _merge(unit: MemoryUnit, item: MemoryCreate, now: datetime) -> None:
        restatement = Restatement(
            item.confidence,
            item.raw_ref or [],
            item.entities,
            item.query,
            source=item.source,
            metadata=item.metadata,
        )
        merge_into(unit, restatement, now)

    def _new_unit(
        self,
        namespace: str,
        item: MemoryCreate,
        vector: np.ndarray,
        query_vector: np.ndarray | None,
        now: datetime,
    ) -> MemoryUnit:
        occurred = item.occurred_at or now
        expires = expiry_for(
            item.type,
            occurred,
            now,
            self.ttl,
            ttl_days_override=item.ttl_days,
            expires_at=item.expires_at,
        )
        return MemoryUnit(
            id=uuid7.uuid7(),
            namespace=namespace,
            user_id=item.user_id,
            agent_id=item.agent_id,
            session_id=item.session_id,
            task_id=item.task_id,
            type=item.type,
            value=item.value,
            query=item.query,
            entities=list(item.entities),
            entity_keys=entity_keys(item.entities),
            confidence=item.confidence,
            source=item.source,
            raw_ref=list(item.raw_ref or []),
            metadata_=dict(item.metadata),
            status=UnitStatus.ACTIVE,
            conflicts_with=[],
            value_hash=value_hash(item.value),
            occurred_at=occurred,
            created_at=now,
            updated_at=now,
            last_confirmed_at=now,
            expires_at=expires,
            merge_count=0,
            embedding_model=self.embedder.model,
            value_embedding=vector,
            query_embedding=query_vector,
            search_text=search_text(item.value, item.query, " ".join(item.entities)),
        )
