"""Reading and correcting memory units: the list with keyset pagination, the supersede
history, and ``PATCH`` corrections that re-embed, re-index and re-check duplicates in the
caller's transaction (docs/ARCHITECTURE.md; docs/DEDUPE.md)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np

from app.clients.embeddings import Embedder
from app.core.config import ConflictSettings, DedupeSettings
from app.core.errors import ConflictError, NotFoundError
from app.core.text import entity_keys, search_text, value_hash
from app.core.vocabulary import UnitStatus
from app.models import MemoryLink, MemoryUnit, PairReview
from app.repositories.memory.digests import DigestRepository
from app.repositories.memory.elsewhere import ElsewhereRepository
from app.repositories.memory.filters import UnitFilters
from app.repositories.memory.lifecycle import Keyset, LifecycleRepository
from app.repositories.memory.reviews import PairReviewRepository
from app.repositories.memory.units import MemoryRepository, Subject
from app.schemas.lifecycle import MemoryListQuery, MemoryUpdate, UpdateKind
from app.services import cursors
from app.services.entities.upkeep import EntityGraphKeeper
from app.services.extraction.never_kept import refuse_secrets
from app.services.memory.digests import DigestParts
from app.services.memory.elsewhere import relink
from app.services.memory.filters import request_filters
from app.services.memory.merge import absorb, first_duplicate, thresholds
from app.services.memory.pairs.inferred import given, inferred_fields
from app.services.memory.ttl import refuse_past_expiry

_CURSOR_FIELDS = (
    "user_id",
    "agent_id",
    "session_id",
    "types",
    "entities",
    "time_range",
    "since",
    "until",
    "status",
    "include_superseded",
    "include_archived",
    "as_of",
    "review",
    "order",
)


@dataclass(frozen=True)
class Page:
    """One page of units and the cursor of the next (None on the last page)."""

    units: list[MemoryUnit]
    next_cursor: str | None
    reviews: list[PairReview] = field(default_factory=list)


@dataclass(frozen=True)
class History:
    """A supersede chain (oldest first) and the consolidation links of its units."""

    units: list[MemoryUnit]
    links: list[MemoryLink]


@dataclass(frozen=True)
class Detail:
    """A unit and how many recalls returned it (within the access log's retention)."""

    unit: MemoryUnit
    access_count: int


@dataclass(frozen=True)
class UpdateOutcome:
    """``updated`` (the unit itself) or ``merged`` (``unit`` is the one now holding it)."""

    unit: MemoryUnit
    outcome: UpdateKind


def _filters_of(q: MemoryListQuery) -> dict[str, object]:
    return q.model_dump(mode="json", include=set(_CURSOR_FIELDS))


def encode_cursor(q: MemoryListQuery, last: MemoryUnit) -> str:
    """An opaque cursor: the last unit's ``(created_at, id)`` and a fingerprint of the
    filters (a cursor is only valid with the filters that produced it)."""
    return cursors.encode_keyset(last.created_at, last.id, _filters_of(q))


def decode_cursor(q: MemoryListQuery) -> Keyset | None:
    """The position encoded in ``q.cursor``. Raises BadRequestError when it is malformed or
    was made with other filters."""
    if q.cursor is None:
        return None
    return Keyset(*cursors.decode_keyset(q.cursor, _filters_of(q), "GET /memories"))


def list_filters(namespace: str, q: MemoryListQuery, now: datetime) -> UnitFilters:
    """The SQL filters of a list query; ``time_range`` ends at ``now``."""
    statuses = list(dict.fromkeys(q.status)) if q.status else None
    return request_filters(namespace, q, now, statuses, review_pending=q.review == "pending")


class CatalogService:
    """List, history and corrections; collaborators are passed in."""

    def __init__(
        self,
        repo: LifecycleRepository,
        memories: MemoryRepository,
        reviews: PairReviewRepository,
        embedder: Embedder,
        dedupe: DedupeSettings,
        conflicts: ConflictSettings | None = None,
        graph: EntityGraphKeeper | None = None,
    ) -> None:
        self.repo = repo
        self.graph = graph  # the entity graph follows a correction of entities or value
        self.memories = memories
        self.reviews = reviews
        self.embedder = embedder
        self.dedupe = dedupe
        self.thresholds = thresholds(dedupe, conflicts or ConflictSettings(), embedder.model)
        self.digests = DigestParts(DigestRepository(memories.session))
        self.elsewhere = ElsewhereRepository(memories.session)

    async def list(self, namespace: str, q: MemoryListQuery, now: datetime) -> Page:
        """One page of the namespace's units matching ``q``, by ``(created_at, id)``.

        Keyset pagination: every unit that existed when paging started and still matches is
        returned exactly once, however many units are written meanwhile (new units have a
        later created_at, so with ``desc`` they never shift the pages). Raises
        BadRequestError on a bad cursor.
        """
        after = decode_cursor(q)
        rows = await self.repo.list_page(
            list_filters(namespace, q, now), after, q.limit + 1, q.order == "desc"
        )
        more = len(rows) > q.limit
        rows = rows[: q.limit]
        reviews: list[PairReview] = []
        if q.review == "pending":
            reviews = await self.reviews.open_for_units(namespace, [u.id for u in rows])
        return Page(rows, encode_cursor(q, rows[-1]) if more and rows else None, reviews)

    async def get(
        self, namespace: str, unit_id: uuid.UUID, user_id: str | None = None
    ) -> MemoryUnit:
        """One unit of the namespace, any status; with ``user_id``, only if it is that
        user's. The id of a ``merged`` unit resolves to the unit it went into (following
        merges of merges). Raises NotFoundError otherwise (the same answer as an unknown id)."""
        unit = await self.memories.get(namespace, unit_id)
        if unit is None or (user_id is not None and unit.user_id != user_id):
            raise NotFoundError(f"no memory unit {unit_id}")
        return await self.memories.resolve_merged(unit)

    async def detail(
        self, namespace: str, unit_id: uuid.UUID, user_id: str | None = None
    ) -> Detail:
        """One unit (any status, as :meth:`get`: a merged id resolves to its survivor) with its
        access count. Raises NotFoundError."""
        unit = await self.get(namespace, unit_id, user_id)
        return Detail(unit, await self.repo.access_count(namespace, unit.id))

    async def history(
        self, namespace: str, unit_id: uuid.UUID, user_id: str | None = None
    ) -> History:
        """The supersede chain of a unit, oldest first. Raises NotFoundError (also, with
        ``user_id``, for another user's unit)."""
        units = await self.repo.supersede_chain(namespace, unit_id)
        if not any(u.id == unit_id and user_id in (None, u.user_id) for u in units):
            raise NotFoundError(f"no memory unit {unit_id}")
        return History(units, await self.repo.links_of([u.id for u in units]))

    async def update(
        self,
        namespace: str,
        unit_id: uuid.UUID,
        patch: MemoryUpdate,
        now: datetime,
        user_id: str | None = None,
    ) -> UpdateOutcome:
        """Apply a correction. The id of a ``merged`` unit resolves to the unit it went into,
        as :meth:`get` does: the correction changes what a read of that id shows (the hidden
        merged row is history and is never edited). A new value (or query) is re-embedded
        before any lock; then, under the subject's write lock, the row is locked, changed and
        — if it is active with a new value — checked against the subject's other active
        units: a duplicate absorbs it (``merged``; the corrected unit becomes ``merged`` into
        the survivor, and its id resolves to it).

        Raises BadRequestError (an ``expires_at`` not after ``now``, a value or query
        holding a secret), NotFoundError (also,
        with ``user_id``, for another user's unit), ConflictError (changing a superseded or
        merged unit's status, or reactivating an expired one without a new expiry),
        ProviderError (embedding failed; nothing written).
        """
        sent = patch.model_fields_set
        if "expires_at" in sent:
            refuse_past_expiry([patch.expires_at], now, "expires_at")  # 422, as /store
        refuse_secrets([(f, getattr(patch, f)) for f in ("value", "query") if f in sent])
        current = await self.repo.get(namespace, unit_id)
        if current is None or user_id not in (None, current.user_id):
            raise NotFoundError(f"no memory unit {unit_id}")
        current = await self.memories.resolve_merged(current)

        new_value = patch.value if "value" in sent and patch.value != current.value else None
        new_query = current.query
        if "query" in sent:
            new_query = patch.query if patch.query and patch.query.strip() else None
        query_changed = new_query != current.query
        model_changed = current.embedding_model != self.embedder.model
        value_vec: np.ndarray | None = None
        query_vec: np.ndarray | None = None
        if new_value is not None:
            value_vec = (await self.embedder.embed_passages([new_value]))[0]
            if model_changed and not query_changed and new_query:
                query_changed = True  # vectors of two models never share a unit
        if query_changed and new_query:
            query_vec = (await self.embedder.embed_passages([new_query]))[0]

        subject = Subject(namespace, current.user_id, current.agent_id)
        await self.memories.lock_subject(subject)
        unit = await self._locked_target(namespace, unit_id)

        # A sent status is never null (MemoryUpdate refuses it).
        status = patch.status if "status" in sent and patch.status is not None else unit.status
        if status != unit.status and unit.status == UnitStatus.SUPERSEDED:
            raise ConflictError(
                f"unit {unit_id} was superseded by {unit.superseded_by}; correct that one"
            )
        if new_value is not None and unit.status == UnitStatus.SUPERSEDED:
            # Its value is what `as_of` and the history serve (tester hbreak5 F29).
            raise ConflictError(
                f"unit {unit_id} was superseded by {unit.superseded_by}: its value is history; "
                "correct that one"
            )
        if status != unit.status and unit.status == UnitStatus.MERGED:
            raise ConflictError(
                f"unit {unit_id} was merged into {unit.merged_into}; correct that one"
            )
        self._apply_expiry(unit, patch, now)
        if status == UnitStatus.ACTIVE and unit.expires_at is not None and unit.expires_at <= now:
            raise ConflictError(
                "the unit has expired: send a future expires_at or ttl_days to reactivate it"
            )

        if new_value is not None and value_vec is not None:
            unit.value = new_value
            unit.value_hash = value_hash(new_value)
            unit.value_embedding = value_vec
            unit.embedding_model = self.embedder.model
            # Open pair decisions were about the old value.
            await self.reviews.close_open_of([unit.id], now)
        if query_changed:
            unit.query = new_query
            unit.query_embedding = query_vec
        if "entities" in sent and patch.entities is not None:
            unit.entities = list(dict.fromkeys(patch.entities))
            unit.entity_keys = entity_keys(unit.entities)
        if "confidence" in sent and patch.confidence is not None:
            unit.confidence = patch.confidence
        if "type" in sent and patch.type is not None:
            unit.type = patch.type
        corrected = {f for f in ("type", "entities") if f in sent and getattr(patch, f) is not None}
        if corrected & inferred_fields(unit.metadata_):  # now the caller's, not read (issue 28)
            unit.metadata_ = given(unit.metadata_, corrected)
        content = new_value is not None or query_changed or "entities" in sent
        if content:
            unit.search_text = search_text(unit.value, unit.query, " ".join(unit.entities))
        if content or "confidence" in sent:
            unit.last_confirmed_at = now  # a correction is a confirmation
        if new_value is not None or status != unit.status:  # a digest's part, or a digest
            invalid = status == UnitStatus.INVALID
            held = await self.digests.corrected(namespace, unit, now, invalid=invalid)
            if held and "status" not in sent and unit.status == UnitStatus.ARCHIVED:
                status = UnitStatus.ACTIVE  # the digest that answered for it is unpacked
        reactivated = status == UnitStatus.ACTIVE and unit.status != UnitStatus.ACTIVE
        status_changed = status != unit.status
        unit.status = status
        unit.updated_at = now

        if status == UnitStatus.ACTIVE and (new_value is not None or reactivated):
            survivor = await self._duplicate_of(subject, unit, now)
            if survivor is not None:
                absorb(survivor, unit, now, reason="correction")
                await self.repo.flush()
                if self.graph is not None:
                    await self.graph.written([survivor])
                return UpdateOutcome(survivor, "merged")
        await self.repo.flush()
        if self.graph is not None and (new_value is not None or "entities" in sent):
            await self.graph.relink(unit)
        if new_value is not None or status_changed or {"type", "entities"} & sent:
            # Its duplicates in the user's other write subjects, decided again (issue 28).
            await relink(self.elsewhere, subject, unit, self.embedder.model, self.thresholds, now)
        return UpdateOutcome(unit, "updated")

    async def _locked_target(self, namespace: str, unit_id: uuid.UUID) -> MemoryUnit:
        """The row a correction of ``unit_id`` changes, locked: the unit itself, or the
        survivor a merged unit went into (resolved again under the subject's write lock, so a
        merge decided meanwhile is followed). Raises NotFoundError (forgotten meanwhile)."""
        unit = await self.repo.get(namespace, unit_id, for_update=True)
        if unit is not None and unit.status == UnitStatus.MERGED:
            survivor = await self.memories.resolve_merged(unit)
            if survivor.id != unit.id:
                unit = await self.repo.get(namespace, survivor.id, for_update=True)
        if unit is None:
            raise NotFoundError(f"no memory unit {unit_id}")
        return unit

    @staticmethod
    def _apply_expiry(unit: MemoryUnit, patch: MemoryUpdate, now: datetime) -> None:
        sent = patch.model_fields_set
        if "ttl_days" in sent and patch.ttl_days is not None:
            unit.expires_at = now + timedelta(days=patch.ttl_days)
            unit.expiry_fixed = True  # the caller's: recalls never extend it
        elif "expires_at" in sent:
            unit.expires_at = patch.expires_at
            unit.expiry_fixed = True

    async def _duplicate_of(
        self, subject: Subject, unit: MemoryUnit, now: datetime
    ) -> MemoryUnit | None:
        """The active, unexpired unit the corrected one restates, by the write path's pair
        decision (only a ``merge`` counts here: contradictions are the caller's to correct)."""
        vector = unit.value_embedding if unit.embedding_model == self.embedder.model else None
        exact, neighbours = await self.repo.duplicate_candidates(
            subject,
            unit.value_hash,
            None if vector is None else np.asarray(vector, dtype=np.float32),
            self.embedder.model,
            unit.id,
            self.dedupe.neighbours,
            now,
        )
        if exact is not None:
            return exact
        return first_duplicate(unit.value, unit.type, unit.entity_keys, neighbours,
                               self.thresholds, inferred_fields(unit.metadata_))  # fmt: skip
