"""The write path of memory units (``POST /store`` and extraction): embed in one batch, then
per unit — under the subject's advisory lock — fetch its neighbours once (by value and by
trigger scenario), decide every pair (:func:`app.services.memory.pairs.decision.plan`, pure),
and merge into a duplicate, or create and supersede / flag what it contradicts. Pairs the
decision is unsure of become pair reviews: with an LLM, a job on the worker's queue decides
them after the response; without, they stay listed for review. Everything happens in the
caller's transaction: units, vectors, reviews and queue entries commit together."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import uuid_utils.compat as uuid7

from app.clients.embeddings import Embedder
from app.core.config import ConflictSettings, DedupeSettings, TtlSettings
from app.core.text import entity_keys, search_text, value_hash
from app.core.vocabulary import ReviewStatus, UnitStatus
from app.models import MemoryUnit, PairReview
from app.repositories.memory.reviews import PairReviewRepository
from app.repositories.memory.units import MemoryRepository, Neighbour, Subject
from app.schemas.memory import MemoryCreate
from app.services.memory.merge import Restatement, decide_against, merge_into, thresholds
from app.services.memory.pairs.decision import PairDecision
from app.services.memory.resolution import resolve
from app.services.memory.ttl import expiry_for


@dataclass(frozen=True)
class StoreOutcome:
    """What happened to one input unit; ``reviews``: pairs left open for it, ``queued``
    true when the LLM will decide them after the response."""

    unit: MemoryUnit
    outcome: str  # created | merged | superseded | conflict
    reviews: list[PairReview] = field(default_factory=list)
    queued: bool = False


class StoreService:
    """Stores memory units with the pair decision; collaborators are passed in.

    ``reconcile``: an LLM is configured (and ``CONFLICTS__USE_LLM``), so unsure pairs are
    queued for the reconciliation job; else they stay pending for review.
    """

    def __init__(
        self,
        repo: MemoryRepository,
        reviews: PairReviewRepository,
        embedder: Embedder,
        dedupe: DedupeSettings,
        ttl: TtlSettings | None = None,
        conflicts: ConflictSettings | None = None,
        reconcile: bool = False,
    ):
        self.repo = repo
        self.reviews = reviews
        self.embedder = embedder
        self.dedupe = dedupe
        self.ttl = ttl or TtlSettings()  # per-type expiry at write (app.services.memory.ttl)
        self.conflicts = conflicts or ConflictSettings()
        self.reconcile = reconcile and self.conflicts.use_llm
        self.thresholds = thresholds(dedupe, self.conflicts, embedder.model)

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
            outcomes.append(await self._store_one(subject, item, values[k], query_vecs.get(k), now))
            await self.repo.flush()
        if self.reconcile:  # one queue statement for every unsure pair of the batch
            await self.reviews.enqueue([r.id for o in outcomes for r in o.reviews])
        return outcomes

    async def _store_one(
        self,
        subject: Subject,
        item: MemoryCreate,
        vector: np.ndarray,
        query_vector: np.ndarray | None,
        now: datetime,
    ) -> StoreOutcome:
        exact = await self.repo.find_by_hash(subject, value_hash(item.value))
        if exact is not None:
            merge_into(exact, _restatement(item, query_vector), now)
            return StoreOutcome(exact, "merged")
        neighbours = await self.repo.nearest_active(
            subject, vector, self.embedder.model, self.dedupe.neighbours, query_vector
        )
        decided = decide_against(
            item.value,
            item.type,
            entity_keys(item.entities),
            neighbours,
            self.thresholds,
            self.dedupe.max_unsure,
        )
        if decided.merge_into is not None:
            survivor = neighbours[decided.merge_into].unit
            merge_into(survivor, _restatement(item, query_vector), now)
            return StoreOutcome(survivor, "merged")

        unit = self._new_unit(subject.namespace, item, vector, query_vector, now)
        self.repo.add(unit)
        outcome = "created"
        for index, d in decided.contradicts:
            result = resolve(unit, neighbours[index].unit, self.conflicts, now, d.reason)
            if result == "superseded" or outcome == "created":
                outcome = result
        reviews = [self._review(unit, neighbours[i], d) for i, d in decided.unsure]
        if reviews:
            await self.repo.flush()  # the reviews point at the new unit
            for review in reviews:
                self.reviews.add(review)
        return StoreOutcome(unit, outcome, reviews, self.reconcile and bool(reviews))

    @staticmethod
    def _review(unit: MemoryUnit, neighbour: Neighbour, d: PairDecision) -> PairReview:
        return PairReview(
            id=uuid7.uuid7(),
            namespace=unit.namespace,
            user_id=unit.user_id,
            agent_id=unit.agent_id,
            unit_id=unit.id,
            candidate_id=neighbour.unit.id,
            cosine=round(neighbour.cosine, 6),
            reason=d.reason,
            p_same=round(d.p_same, 6),
            merge_allowed=d.merge_allowed,
            status=ReviewStatus.PENDING,
            attempts=0,
        )

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


def _restatement(item: MemoryCreate, query_vector: np.ndarray | None) -> Restatement:
    """What an input unit brings to the unit it restates (its query with that vector)."""
    return Restatement(
        item.confidence,
        item.raw_ref or [],
        item.entities,
        item.query,
        query_vector,
        source=item.source,
        metadata=item.metadata,
    )
