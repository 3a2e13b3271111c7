"""The write path of memory units (``POST /store`` and extraction): embed the batch's
distinct values and trigger scenarios in one call, take the subjects' advisory locks, read
per subject the units with the batch's value hashes and every unit's neighbours (by value
and by trigger scenario; for one unit, with their rows) in one statement each (the lock's
also sets the neighbour read's HNSW scan), then per unit in input order — seeing the units
before it in the batch (:class:`~.batch_view.BatchView`) — decide every pair
(:func:`~.pairs.plan.plan`, pure), and merge into a duplicate, or create and supersede /
flag what it contradicts; the new rows are written in one INSERT at the end, their entities
linked in one statement (:mod:`app.services.entities.upkeep`). Unsure pairs become reviews:
with an LLM a worker job decides them after the response, else they stay listed. All in
the caller's transaction: units, vectors, links, reviews and queue entries commit together."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np
import uuid_utils.compat as uuid7

from app.clients.embeddings import Embedder
from app.core.config import ConflictSettings, DedupeSettings, TtlSettings
from app.core.text import entity_keys, search_text, value_hash
from app.core.valid_time import said_moment
from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit, PairReview
from app.repositories.memory.digests import DigestRepository
from app.repositories.memory.elsewhere import ElsewhereRepository
from app.repositories.memory.neighbours import NeighbourRepository, Probe, Scored
from app.repositories.memory.reviews import PairReviewRepository
from app.repositories.memory.units import MemoryRepository, Neighbour, Subject
from app.schemas.memory import MemoryCreate, Outcome
from app.services.entities.upkeep import EntityGraphKeeper
from app.services.memory.batch_view import BatchView
from app.services.memory.digests import DigestParts
from app.services.memory.elsewhere import link_duplicates
from app.services.memory.merge import (
    adds_things,
    adopt_wording,
    another_occurrence,
    decide_against,
    merge_into,
    restatement_of,
    thresholds,
)
from app.services.memory.pairs.inferred import inferred_fields
from app.services.memory.resolution import (
    conflict_review,
    fit_backfill,
    resolve,
    supersede,
    unlink_conflict,
)
from app.services.memory.review_room import ReviewRoom, unsure_review
from app.services.memory.ttl import expiry_for
from app.services.stages import StageClock


@dataclass(frozen=True)
class StoreOutcome:
    """What happened to one input unit; ``reviews``: pairs left open for it, ``queued``
    true when the LLM will decide them after the response; ``flagged``: the contradictions
    it was stored beside (``conflict``: both kept, their order unclear), each a review of
    kind ``contradiction`` for a person (never queued: the LLM cannot tell the order);
    ``held_back``: pairs that opened no review, beyond :class:`ReviewRoom`'s bounds."""

    unit: MemoryUnit
    outcome: Outcome
    reviews: list[PairReview] = field(default_factory=list)
    queued: bool = False
    flagged: list[PairReview] = field(default_factory=list)
    held_back: int = 0


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
        neighbours: NeighbourRepository | None = None,
        batch_margin: int = 8,
        graph: EntityGraphKeeper | None = None,
    ):
        self.repo = repo
        self.neighbours = neighbours or NeighbourRepository(repo.session)
        # Neighbours read per list beyond DEDUPE__NEIGHBOURS before a batch, so units the
        # batch supersedes or merges away are replaced without a second read (batch_view).
        self.batch_margin = batch_margin
        self.reviews = reviews
        self.embedder = embedder
        self.dedupe = dedupe
        self.ttl = ttl or TtlSettings()  # per-type expiry at write (app.services.memory.ttl)
        self.conflicts = conflicts or ConflictSettings()
        self.reconcile = reconcile and self.conflicts.use_llm
        self.thresholds = thresholds(dedupe, self.conflicts, embedder.model)
        # The entity graph: the written units' entities linked in one statement (None:
        # not kept, as in tests of the pair decision alone).
        self.graph = graph
        # Where the last store() spent its time, in ms per stage in the order they ran:
        # embed, lock, read (hashes and neighbours), decide, write (the INSERT, the entity
        # graph, reviews, queue). The transaction's commit comes after, in the request's session.
        self.stages_ms: dict[str, float] = {}
        # The units the last store() superseded (their open reviews are closed as stale).
        self._left: set[uuid.UUID] = set()
        self._room = ReviewRoom(reviews, dedupe.max_reviews_per_unit, None)
        self.digests = DigestParts(DigestRepository(repo.session))
        self.elsewhere = ElsewhereRepository(repo.session)

    async def store(
        self,
        namespace: str,
        items: list[MemoryCreate],
        now: datetime,
        *,
        supersede: bool = True,
        max_reviews: int | None = None,
        embedded: tuple[list[np.ndarray], list[np.ndarray | None]] | None = None,
        apart: bool = False,
    ) -> list[StoreOutcome]:
        """Store ``items`` in input order; returns one outcome per item. ``supersede``
        False (offline distillation): a contradicted unit is left alone and the pair becomes
        a review instead. ``max_reviews``: at most this many reviews opened (an extraction
        job's budget); each unit is in at most ``DEDUPE__MAX_REVIEWS_PER_UNIT`` open ones.
        ``embedded``: :meth:`embed`'s answer, got before the caller locked; ``apart``: the
        items are not decided against each other (``/summarize``'s digests; ``BatchView``).

        The outcomes are those of storing the items one at a time (a unit sees the ones
        before it in the batch), from one embedding call (distinct values and scenarios),
        per subject one lookup by value hash and one neighbour statement, and one INSERT
        of the new rows at the end (:mod:`app.services.memory.batch_view`).

        Raises ProviderError/ProviderTimeoutError when embedding fails (nothing written).
        """
        self.stages_ms = {}
        self._left = set()
        self._room = ReviewRoom(self.reviews, self.dedupe.max_reviews_per_unit, max_reviews)
        clock = StageClock(self.stages_ms)
        values, queries = embedded or await self.embed(items)
        clock.mark("embed")
        hashes = [value_hash(i.value) for i in items]
        subjects = sorted(
            {Subject(namespace, i.user_id, i.agent_id) for i in items}, key=Subject.lock_key
        )
        for subject in subjects:  # a fixed order, so two batches cannot deadlock
            # (the lock's statement also sets the neighbour read's HNSW scan: scan_set)
            await self.repo.lock_subject(subject, iterative_scan=True)
        clock.mark("lock")

        by_hash: dict[tuple[Subject, str], list[MemoryUnit]] = {}
        before: dict[int, list[Scored]] = {}
        # A unit alone needs no margin: nothing before it in the batch changes its picture.
        fetched = self.dedupe.neighbours + (self.batch_margin if len(items) > 1 else 0)
        for subject in subjects:
            ks = [k for k, i in enumerate(items) if _subject_of(namespace, i) == subject]
            # Both reads leave out units past expires_at that the archival sweep has not
            # reached yet: gone for recall, so no merge target (units.live_units).
            found = await self.repo.find_by_hashes(subject, [hashes[k] for k in ks], now)
            by_hash.update({(subject, h): units for h, units in found.items()})
            probes = [Probe(values[k], queries[k]) for k in ks]
            scored = await self.neighbours.nearest_active(
                subject, self.embedder.model, fetched, probes, now=now, scan_set=True
            )
            before.update(zip(ks, scored, strict=True))
        clock.mark("read")

        view = BatchView(self.embedder.model, self.dedupe.neighbours, fetched, by_hash, apart)
        outcomes: list[StoreOutcome] = []
        pending: list[PairReview] = []
        for k, item in enumerate(items):
            subject = _subject_of(namespace, item)
            outcome, reviews = await self._store_one(
                view, subject, item, hashes[k], values[k], queries[k], before[k], now, supersede
            )
            outcomes.append(outcome)
            pending.extend(reviews)
        clock.mark("decide")
        await self.repo.flush()  # one INSERT for the new rows, then the reviews point at them
        created = [
            (_subject_of(namespace, items[k]), o.unit, values[k])
            for k, o in enumerate(outcomes)
            if o.outcome != "merged" and o.unit.status == UnitStatus.ACTIVE
        ]  # linked to their duplicates in the user's other write subjects (issue 28)
        await link_duplicates(self.elsewhere, created, self.embedder.model, self.thresholds, now)
        left = {o.unit.id for o in outcomes if o.unit.status != UnitStatus.ACTIVE} | self._left
        if left:  # a pair whose unit was superseded no longer stands (tester F18)
            await self.reviews.close_open_of(list(left), now)
            pending = [r for r in pending if not {r.unit_id, r.candidate_id} & left]
            for o in outcomes:
                for kept in (o.reviews, o.flagged):
                    kept[:] = [r for r in kept if not {r.unit_id, r.candidate_id} & left]
        if self.graph is not None:  # one statement: entities, links, co-occurrence edges
            await self.graph.written([o.unit for o in outcomes])
        for review in pending:
            self.reviews.add(review)
        if pending:
            await self.repo.flush()
        if self.reconcile:  # one queue statement for every unsure pair of the batch
            await self.reviews.enqueue([r.id for o in outcomes for r in o.reviews])
        clock.mark("write")
        return outcomes

    async def embed(
        self, items: list[MemoryCreate]
    ) -> tuple[list[np.ndarray], list[np.ndarray | None]]:
        """Every distinct value and trigger scenario of the batch in one embedding call
        (passage role); a scenario equal to a value shares its vector, an empty one has
        none. Returns the value vectors and scenario vectors in item order."""
        slots: dict[str, int] = {}
        for item in items:
            slots.setdefault(item.value, len(slots))
            if item.query:
                slots.setdefault(item.query, len(slots))
        matrix = await self.embedder.embed_passages(list(slots))
        values = [matrix[slots[i.value]] for i in items]
        queries = [matrix[slots[i.query]] if i.query else None for i in items]
        return values, queries

    async def _store_one(
        self,
        view: BatchView,
        subject: Subject,
        item: MemoryCreate,
        hashed: str,
        vector: np.ndarray,
        query_vector: np.ndarray | None,
        before: list[Scored],
        now: datetime,
        supersede: bool = True,
    ) -> tuple[StoreOutcome, list[PairReview]]:
        exact = view.exact(subject, hashed)
        if exact and another_occurrence(item.type, item.occurred_at, exact):
            exact = None  # the same words on another day: another occurrence (tester G28)
        if exact is not None:
            merge_into(exact, restatement_of(item, query_vector, now), now)
            view.changed(exact)
            if supersede:
                await self._restated(view, exact, item.occurred_at or now, now)
            return StoreOutcome(exact, "merged"), []
        neighbours = view.neighbours(subject, before, vector, query_vector)
        if neighbours is None:  # a neighbour read before the batch is gone: read afresh
            await self.repo.flush()
            fresh = await self.neighbours.nearest_active(
                subject,
                self.embedder.model,
                self.dedupe.neighbours,
                [Probe(vector, query_vector)],
                now=now,
                scan_set=True,  # set by this transaction's lock_subject
            )
            neighbours = [
                Neighbour(unit=s.unit, cosine=s.value_cos) for s in fresh[0] if view.sees(s.unit)
            ]
        keys = entity_keys(item.entities)
        # A digest (/summarize) is decided as its parts (tester hbreak6 G10; .digests).
        parts = await self.digests.decide(
            subject.namespace, neighbours, vector,
            lambda ns: decide_against(item.value, item.type, keys, ns, self.thresholds,
                                      self.dedupe.max_unsure, item.occurred_at,
                                      said_moment(item.metadata) or item.occurred_at,
                                      inferred_fields(item.metadata)),
        )  # fmt: skip
        neighbours, decided = parts.neighbours, parts.plan
        if decided.merge_into is not None:
            survivor = neighbours[decided.merge_into].unit
            richer = adds_things(item.value, survivor.value)
            merge_into(survivor, restatement_of(item, query_vector, now), now)
            if richer:  # "allergic to cats and dogs" restating "… to cats": the new words
                adopt_wording(survivor, item.value, vector, now)
            view.changed(survivor)
            if supersede:  # offline distillation never supersedes
                await self._restated(view, survivor, item.occurred_at or now, now)
            return StoreOutcome(survivor, "merged"), []

        unit = self._new_unit(subject.namespace, item, hashed, vector, query_vector, now)
        self.repo.add(unit)
        view.created(unit)
        for changed in self.digests.unpack(parts, unit.id, now):  # parts active again
            view.changed(changed)
        self._left.update(d.id for d, _ in parts.unpack)  # their open reviews close
        outcome: Outcome = "created"
        flagged: list[PairReview] = []
        unsure = list(decided.unsure)
        if not supersede:
            unsure, contradicts = unsure + list(decided.contradicts), []
        else:
            contradicts = list(decided.contradicts)
        # Reviews while the unit, its candidates and the call have room (tester F34).
        contradicts, unsure, held = await self._room.admit(
            unit, [n.unit for n in neighbours], contradicts, unsure, self.conflicts
        )
        for index, d in contradicts:
            old = neighbours[index].unit
            result = resolve(unit, old, self.conflicts, now, d.reason)
            view.changed(old)
            if old.status != UnitStatus.ACTIVE:
                self._left.add(old.id)
            if unit.superseded_by == old.id:  # a backfill: its place in old's chain
                fit_backfill(unit, old, await self.repo.predecessors(subject, old.id))
            if result == "superseded" or outcome == "created":
                outcome = result
            if result == "conflict":  # both kept: a person decides (tester B16)
                flagged.append(conflict_review(unit, old, neighbours[index].cosine, d.reason))
        reviews = [
            unsure_review(unit, neighbours[i].unit, neighbours[i].cosine, d) for i, d in unsure
        ]
        queued = self.reconcile and bool(reviews)
        return StoreOutcome(unit, outcome, reviews, queued, flagged, held), [*reviews, *flagged]

    async def _restated(
        self, view: BatchView, survivor: MemoryUnit, said_at: datetime, now: datetime
    ) -> None:
        """A restatement merged into a unit kept beside a contradiction (``conflict``: their
        order was unclear) decides it: said after the other side, the restated unit holds now
        and supersedes it, its open review closed (tester E29: aisle, window, aisle again
        within the hour left window active beside aisle); not a constraint's (tester G38), nor
        a retry (window, aisle, aisle again seconds later: the other side did not come between
        and the order window has not passed since the restated unit was said)."""
        if not survivor.conflicts_with or survivor.type == "constraint":  # a person decides
            return
        since = (said_at - survivor.occurred_at).total_seconds()
        for other in await self.repo.get_many(survivor.namespace, survivor.conflicts_with):
            retry = (
                other.occurred_at <= survivor.occurred_at and since <= self.conflicts.order_window_s
            )
            if other.status != UnitStatus.ACTIVE or said_at < other.occurred_at or retry:
                continue
            factor = self.conflicts.contradicted_confidence_factor
            supersede(survivor, other, factor, now, "restated")
            other.valid_to = max(other.valid_to or said_at, said_at)
            unlink_conflict(survivor, other)
            view.changed(other)
            await self.reviews.close_open_of([other.id], now)

    def _new_unit(
        self,
        namespace: str,
        item: MemoryCreate,
        hashed: str,
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
            happened=item.metadata.get("happened") is True,
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
            value_hash=hashed,
            occurred_at=occurred,
            created_at=now,
            updated_at=now,
            last_confirmed_at=now,
            expires_at=expires,
            expiry_fixed=item.ttl_days is not None or item.expires_at is not None,
            merge_count=0,
            sessions=[],
            embedding_model=self.embedder.model,
            value_embedding=vector,
            query_embedding=query_vector,
            search_text=search_text(item.value, item.query, " ".join(item.entities)),
        )


def _subject_of(namespace: str, item: MemoryCreate) -> Subject:
    return Subject(namespace, item.user_id, item.agent_id)
