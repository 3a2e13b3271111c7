"""Pair reviews worked by people (``GET /reviews``, ``POST /reviews/{id}``) and closed by the
archival sweep (docs/DEDUPE.md, "Working the review list").

A review is a pair the write path could not decide on (``unit_id`` the newer unit,
``candidate_id`` the one it may restate or change). Deciding it applies, in one transaction
under the subject's lock (the store's and the reconciliation job's lock):

- ``merge``: the newer unit is merged into the older (``merged``, ``merged_into``; its id keeps
  resolving to the survivor) — refused (409) when a merge is ruled out (a negation, other
  values, swapped roles: ``merge_allowed`` false);
- ``supersede``: the newer unit replaces the older (``superseded``, ``superseded_by``);
- ``keep_both``: two facts; both stay active.

A contradiction the write path kept beside its older side (``conflicts_with``: their order
was unclear) is such a review too (kind ``contradiction``); ``supersede`` or ``keep_both``
ends the link, so ``/context`` no longer marks the pair.

History is kept (``GET /memories/{id}/history``). Deciding again the same way changes nothing
(idempotent); a review already decided otherwise — by a person, the LLM, the sweep, or closed
as ``stale`` because a unit of the pair changed meanwhile — is a 409, and so is a ``merge``
or ``supersede`` of a pair whose units are no longer both active; such a pair is closed as
``stale`` when it is read (``GET /reviews``, ``GET /reviews/{id}``), and ``keep_both`` on it
answers the stale review unchanged (tester F18). A merge that would lose a fact
(:func:`.pairs.objects.merge_loses_fact`) is refused even when the stored review allows it.
The sweep closes reviews pending longer than
``LIFECYCLE__REVIEW_MAX_AGE_DAYS`` as ``keep_both`` with ``decided_by`` ``sweep``.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from app.core.config import ConflictSettings
from app.core.errors import ConflictError, NotFoundError
from app.core.vocabulary import REVIEW_OPEN, ReviewStatus, UnitStatus
from app.models import MemoryUnit, PairReview
from app.repositories.memory.reviews import PairReviewRepository, ReviewFilters
from app.repositories.memory.units import MemoryRepository, Subject
from app.services.cursors import decode_keyset, encode_keyset
from app.services.entities.upkeep import EntityGraphKeeper
from app.services.memory.merge import absorb
from app.services.memory.pairs.objects import merge_loses_fact
from app.services.memory.resolution import supersede, unlink_conflict

Decision = Literal["merge", "supersede", "keep_both"]
# What a decision is recorded as in ``pair_reviews.action`` (the reconciliation job's words).
APPLIED: dict[str, str] = {"merge": "merge", "supersede": "superseded", "keep_both": "distinct"}
# ``action`` → the decision it amounts to (``conflict``: the LLM flagged both; ``stale``).
DECISION_OF: dict[str, str] = {
    "merge": "merge",
    "superseded": "supersede",
    "distinct": "keep_both",
    "conflict": "conflict",
    "stale": "stale",
}


def decision_of(review: PairReview) -> str | None:
    """The decision a closed review amounts to (merge | supersede | keep_both | conflict |
    stale), None while open."""
    return DECISION_OF.get(review.action or "") if review.status == ReviewStatus.DECIDED else None


# ``GET /reviews?status=``: ``open`` (the default) and ``decided`` group the statuses a
# review shows (``pending``, ``running``, ``decided``); each status also filters by itself.
STATUS_FILTERS: dict[str, tuple[str, ...] | None] = {
    "open": REVIEW_OPEN,
    "pending": (ReviewStatus.PENDING,),
    "running": (ReviewStatus.RUNNING,),
    "decided": (ReviewStatus.DECIDED,),
    "all": None,
}


@dataclass(frozen=True)
class ReviewQuery:
    """``GET /reviews`` filters: a subject, a unit on either side (``memory_id``),
    ``status`` (open | pending | running | decided | all), ``kind`` (duplicate: a merge is possible;
    contradiction: ruled out), an age window in days and a page."""

    user_id: str | None = None
    agent_id: str | None = None
    memory_id: uuid.UUID | None = None
    status: str = "open"
    kind: str | None = None
    min_age_days: float | None = None
    max_age_days: float | None = None
    limit: int = 50
    cursor: str | None = None


@dataclass(frozen=True)
class ReviewView:
    """A review with its two units as stored now (None when forgotten)."""

    review: PairReview
    unit: MemoryUnit | None
    candidate: MemoryUnit | None


@dataclass(frozen=True)
class ReviewPage:
    """One page of reviews, newest first, and the cursor of the next (None: last page)."""

    reviews: list[ReviewView]
    next_cursor: str | None


@dataclass(frozen=True)
class Decided:
    """A decided review and whether this request changed anything (False: it was already
    decided this way)."""

    view: ReviewView
    changed: bool


class ReviewService:
    """List, read and decide pair reviews; the sweep of old ones. Collaborators passed in."""

    def __init__(
        self,
        reviews: PairReviewRepository,
        memories: MemoryRepository,
        conflicts: ConflictSettings,
        graph: EntityGraphKeeper | None = None,
    ) -> None:
        self.reviews = reviews
        self.memories = memories
        self.conflicts = conflicts
        self.graph = graph

    async def page(self, namespace: str, q: ReviewQuery, now: datetime) -> ReviewPage:
        """One page of the namespace's reviews matching ``q``, newest first by
        ``(created_at, id)`` (keyset: none skipped or repeated while others are written).
        Raises BadRequestError (422) on a cursor made with other filters."""
        filters = _fingerprint(q)
        after = decode_keyset(q.cursor, filters, "GET /reviews") if q.cursor else None
        # A pair whose unit left ``active`` no longer stands: closed as stale before it is
        # listed (tester F18: it sat in the queue with every action refused).
        await self.reviews.close_stale(namespace, now, q.user_id, q.agent_id)
        rows = await self.reviews.list_page(namespace, _filters(q, now), after, q.limit + 1)
        more, rows = len(rows) > q.limit, rows[: q.limit]
        views = await self._views(namespace, rows)
        cursor = encode_keyset(rows[-1].created_at, rows[-1].id, filters) if more else None
        return ReviewPage(views, cursor)

    async def get(
        self,
        namespace: str,
        review_id: uuid.UUID,
        user_id: str | None = None,
        now: datetime | None = None,
    ) -> ReviewView:
        """One review of the namespace with its units; an open one whose unit left
        ``active`` is closed as stale first (``now``: when). Raises NotFoundError (also for
        another namespace's review and, with ``user_id``, another user's)."""
        review = await self.reviews.get(namespace, review_id)
        if review is None or (user_id is not None and review.user_id != user_id):
            raise NotFoundError(f"no pair review {review_id}")
        if (
            now is not None
            and review.status != ReviewStatus.DECIDED
            and await self.reviews.close_stale(namespace, now, review_id=review_id)
        ):
            review = await self.reviews.lock(review_id) or review
        [view] = await self._views(namespace, [review])
        return view

    async def decide(
        self,
        namespace: str,
        review_id: uuid.UUID,
        decision: Decision,
        now: datetime,
        user_id: str | None = None,
    ) -> Decided:
        """Apply ``decision`` to an open review (see the module docstring). Raises
        NotFoundError (404, also another user's review with ``user_id``, and a review whose
        unit was forgotten while the decision waited: nothing changes) and
        ConflictError (409: decided otherwise, a merge ruled out, or a unit of the pair no
        longer active)."""
        found = await self.reviews.get(namespace, review_id)
        if found is None or (user_id is not None and found.user_id != user_id):
            raise NotFoundError(f"no pair review {review_id}")
        await self.memories.lock_subject(Subject(namespace, found.user_id, found.agent_id))
        review = await self.reviews.lock(review_id)
        if review is None:  # a unit of the pair was forgotten meanwhile (tester E20: a 500)
            raise NotFoundError(f"no pair review {review_id}: a unit of the pair was forgotten")
        if review.status == ReviewStatus.DECIDED:
            done = decision_of(review)
            if done == decision or (done == "stale" and decision == "keep_both"):
                return Decided((await self._views(namespace, [review]))[0], changed=False)
            raise ConflictError(f"pair review {review_id} was already decided: {done}")
        if decision == "merge" and not review.merge_allowed:
            raise ConflictError(
                f"pair review {review_id}: a merge is ruled out ({review.reason}): it would "
                "lose a fact; supersede or keep_both"
            )
        new = await self.memories.get(namespace, review.unit_id)
        old = await self.memories.get(namespace, review.candidate_id)
        if decision == "merge" and new is not None and old is not None:
            lost = merge_loses_fact(new.value, old.value)  # a review opened before the guard
            if lost is not None:
                raise ConflictError(
                    f"pair review {review_id}: a merge is ruled out ({lost}): it would lose a "
                    "fact; supersede or keep_both"
                )
        if not _active(new) or not _active(old):
            if decision == "keep_both":  # both already apart: the pair is closed as stale
                await self.reviews.close_stale(namespace, now, review_id=review_id)
                review = await self.reviews.lock(review_id) or review
                return Decided(ReviewView(review, new, old), changed=False)
            raise ConflictError(
                f"pair review {review_id}: a unit of the pair is no longer active (the "
                "review is stale and closes as such); nothing changed"
            )
        assert new is not None and old is not None
        await self._apply(decision, review, new, old, now)
        review.status = ReviewStatus.DECIDED
        review.action = APPLIED[decision]
        review.decided_by = "api"
        review.decided_at = now
        review.lease_until = None
        await self.memories.flush()
        return Decided(ReviewView(review, new, old), changed=True)

    async def sweep(self, now: datetime, max_age_days: float) -> int:
        """Close the reviews pending longer than ``max_age_days`` as ``keep_both``
        (``decided_by`` ``sweep``); 0 days: none. Returns how many were closed."""
        if max_age_days <= 0:
            return 0
        return await self.reviews.close_pending_before(now - timedelta(days=max_age_days), now)

    async def _apply(
        self, decision: Decision, review: PairReview, new: MemoryUnit, old: MemoryUnit,
        now: datetime,
    ) -> None:  # fmt: skip
        reason = f"review:{review.reason}"
        if decision == "merge":
            absorb(old, new, now, reason=reason)
            await self.memories.flush()  # the survivor's entities, before its links
            if self.graph is not None:
                await self.graph.written([old])
            await self.reviews.close_open_of([new.id], now, keep=review.id)
        elif decision == "supersede":
            factor = self.conflicts.contradicted_confidence_factor
            supersede(new, old, factor, now, reason)
            unlink_conflict(new, old)
            await self.reviews.close_open_of([old.id], now, keep=review.id)
        else:
            unlink_conflict(new, old)  # two facts: no longer marked as contradicting
            audit = {"review": str(review.id), "by": "api", "at": now.isoformat()}
            new.metadata_ = {**new.metadata_, "reconciled": {**audit, "distinct_from": str(old.id)}}

    async def _views(self, namespace: str, rows: list[PairReview]) -> list[ReviewView]:
        ids = list({i for r in rows for i in (r.unit_id, r.candidate_id)})
        units = {u.id: u for u in await self.memories.get_many(namespace, ids)}
        return [ReviewView(r, units.get(r.unit_id), units.get(r.candidate_id)) for r in rows]


def _active(unit: MemoryUnit | None) -> bool:
    return unit is not None and unit.status == UnitStatus.ACTIVE


def _fingerprint(q: ReviewQuery) -> dict[str, object]:
    return {k: v for k, v in vars(q).items() if k not in ("limit", "cursor")}


def _filters(q: ReviewQuery, now: datetime) -> ReviewFilters:
    statuses = STATUS_FILTERS[q.status]
    kind = {"duplicate": True, "contradiction": False}.get(q.kind or "")
    before = now - timedelta(days=q.min_age_days) if q.min_age_days is not None else None
    after = now - timedelta(days=q.max_age_days) if q.max_age_days is not None else None
    return ReviewFilters(q.user_id, q.agent_id, statuses, kind, before, after, q.memory_id)
