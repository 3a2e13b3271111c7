"""All SQL of pair reviews (the unsure zone of the write path's pair decision): writes,
the claim that fences a reconciliation run, and reads for ``GET /memories?review=pending``."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, func, or_, select, true, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import RECONCILE_ENTRYPOINT, REVIEW_OPEN, ReviewStatus
from app.models import PairReview
from app.repositories.queue import enqueue_many
from app.repositories.results import rowcount


class PairReviewRepository:
    """Pair-review statements bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    def add(self, review: PairReview) -> None:
        """Stage a new review (written at the next flush)."""
        self.session.add(review)

    async def enqueue(self, review_ids: Sequence[uuid.UUID]) -> None:
        """One reconciliation queue entry per review, in this transaction (one statement):
        they commit with the reviews, or not at all."""
        await enqueue_many(self.session, RECONCILE_ENTRYPOINT, [str(i) for i in review_ids])

    async def claim(self, review_id: uuid.UUID, lease_s: float) -> PairReview | None:
        """Start a run: a ``pending`` review, or a ``running`` one whose lease ran out (its
        runner died). Bumps ``attempts`` (the fencing token); None when not claimable."""
        now = func.clock_timestamp()
        stmt = (
            update(PairReview)
            .where(
                PairReview.id == review_id,
                or_(
                    PairReview.status == ReviewStatus.PENDING,
                    and_(PairReview.status == ReviewStatus.RUNNING, PairReview.lease_until < now),
                ),
            )
            .values(
                status=ReviewStatus.RUNNING,
                attempts=PairReview.attempts + 1,
                lease_until=now + timedelta(seconds=lease_s),
            )
            .returning(PairReview)
            .execution_options(synchronize_session=False)
        )
        return (await self.session.scalars(stmt)).first()

    async def renew_lease(self, review_id: uuid.UUID, attempt: int, lease_s: float) -> bool:
        """Extend the lease of attempt ``attempt``; False when another runner took over."""
        lease_until = func.clock_timestamp() + timedelta(seconds=lease_s)
        return await self._update_attempt(review_id, attempt, lease_until=lease_until)

    async def release(self, review_id: uuid.UUID, attempt: int) -> bool:
        """Hand back attempt ``attempt`` of a running review that was interrupted (shutdown):
        ``pending`` now, without a lease (``attempts`` stays: it is the fencing token). False
        when another runner holds it or it was decided."""
        return await self._update_attempt(
            review_id, attempt, status=ReviewStatus.PENDING, lease_until=None
        )

    async def _update_attempt(self, review_id: uuid.UUID, attempt: int, **values: Any) -> bool:
        """Set ``values`` on the review while attempt ``attempt`` still runs it."""
        result = await self.session.execute(
            update(PairReview)
            .where(
                PairReview.id == review_id,
                PairReview.status == ReviewStatus.RUNNING,
                PairReview.attempts == attempt,
            )
            .values(**values)
            .execution_options(synchronize_session=False)
        )
        return bool(rowcount(result))

    async def lock(self, review_id: uuid.UUID) -> PairReview | None:
        """The review, locked for this transaction (``FOR UPDATE``), freshly read."""
        stmt = (
            select(PairReview)
            .where(PairReview.id == review_id)
            .with_for_update()
            .execution_options(populate_existing=True)
        )
        return (await self.session.scalars(stmt)).first()

    async def open_for_units(
        self, namespace: str, unit_ids: Sequence[uuid.UUID]
    ) -> list[PairReview]:
        """The open reviews of these units (as the new side of the pair), oldest first."""
        if not unit_ids:
            return []
        stmt = (
            select(PairReview)
            .where(
                PairReview.namespace == namespace,
                PairReview.unit_id.in_(list(unit_ids)),
                PairReview.status.in_(REVIEW_OPEN),
            )
            .order_by(PairReview.created_at, PairReview.id)
        )
        return list((await self.session.scalars(stmt)).all())

    async def close_open_of(
        self, unit_ids: Sequence[uuid.UUID], now: datetime, keep: uuid.UUID | None = None
    ) -> None:
        """Close the open reviews naming these units (either side), but ``keep``: they were
        merged away or superseded, so the pair no longer stands (``action`` ``stale``)."""
        if not unit_ids:
            return
        ids = list(unit_ids)
        await self.session.execute(
            update(PairReview)
            .where(
                PairReview.status.in_(REVIEW_OPEN),
                or_(PairReview.unit_id.in_(ids), PairReview.candidate_id.in_(ids)),
                PairReview.id != keep if keep is not None else true(),
            )
            .values(status=ReviewStatus.DECIDED, action="stale", decided_at=now, lease_until=None)
            .execution_options(synchronize_session=False)
        )
