"""All SQL of pair reviews (the unsure zone of the write path's pair decision): writes,
the claim that fences a reconciliation run, reads for ``GET /reviews`` and
``GET /memories?review=pending``, and the sweep that closes old pending ones."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Exists,
    and_,
    func,
    or_,
    select,
    true,
    tuple_,
    union_all,
    update,
)
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import InstrumentedAttribute

from app.core.vocabulary import RECONCILE_ENTRYPOINT, REVIEW_OPEN, ReviewStatus, UnitStatus
from app.models import MemoryUnit, PairReview
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

    async def open_counts(self, unit_ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, int]:
        """How many open reviews each of these units is part of (either side; a unit in none
        is left out), in one statement — without flushing the session first (the write path
        adds its new units in one INSERT at the end)."""
        if not unit_ids:
            return {}
        ids, is_open = list(unit_ids), PairReview.status.in_(REVIEW_OPEN)
        sides = union_all(
            select(PairReview.unit_id.label("u")).where(PairReview.unit_id.in_(ids), is_open),
            select(PairReview.candidate_id.label("u")).where(
                PairReview.candidate_id.in_(ids), is_open
            ),
        ).subquery()
        with self.session.no_autoflush:
            rows = await self.session.execute(select(sides.c.u, func.count()).group_by(sides.c.u))
        return {u: int(n) for u, n in rows.all()}

    async def close_open_of(
        self, unit_ids: Sequence[uuid.UUID], now: datetime, keep: uuid.UUID | None = None
    ) -> None:
        """Close the open reviews naming these units (either side), but ``keep``: they were
        merged away or superseded, so the pair no longer stands (``action`` ``stale``)."""
        if not unit_ids:
            return
        ids = list(unit_ids)
        await self._close(
            now,
            "stale",
            "system",
            PairReview.status.in_(REVIEW_OPEN),
            or_(PairReview.unit_id.in_(ids), PairReview.candidate_id.in_(ids)),
            PairReview.id != keep if keep is not None else true(),
        )

    async def close_stale(
        self,
        namespace: str,
        now: datetime,
        user_id: str | None = None,
        agent_id: str | None = None,
        review_id: uuid.UUID | None = None,
    ) -> int:
        """Close as ``stale`` (``decided_by`` ``system``) the open reviews of the namespace (of
        one subject, or one review) whose unit or candidate is no longer ``active``
        (superseded, merged, archived): the pair no longer stands (tester F18). Returns how
        many."""
        conds = [
            PairReview.namespace == namespace,
            PairReview.status.in_(REVIEW_OPEN),
            ~both_active(),
        ]
        if user_id is not None:
            conds.append(PairReview.user_id == user_id)
        if agent_id is not None:
            conds.append(PairReview.agent_id == agent_id)
        if review_id is not None:
            conds.append(PairReview.id == review_id)
        return await self._close(now, "stale", "system", *conds)

    async def get(self, namespace: str, review_id: uuid.UUID) -> PairReview | None:
        """One review of the namespace (any status), or None."""
        stmt = select(PairReview).where(
            PairReview.id == review_id, PairReview.namespace == namespace
        )
        return (await self.session.scalars(stmt)).first()

    async def list_page(
        self,
        namespace: str,
        filters: ReviewFilters,
        after: tuple[datetime, uuid.UUID] | None,
        limit: int,
    ) -> list[PairReview]:
        """Up to ``limit`` reviews of the namespace matching ``filters``, newest first by
        ``(created_at, id)``, strictly after the keyset position ``after``."""
        conds = [PairReview.namespace == namespace]
        if filters.user_id is not None:
            conds.append(PairReview.user_id == filters.user_id)
        if filters.agent_id is not None:
            conds.append(PairReview.agent_id == filters.agent_id)
        if filters.statuses is not None:
            conds.append(PairReview.status.in_(filters.statuses))
        if filters.merge_allowed is not None:
            conds.append(PairReview.merge_allowed.is_(filters.merge_allowed))
        if filters.created_before is not None:
            conds.append(PairReview.created_at < filters.created_before)
        if filters.created_after is not None:
            conds.append(PairReview.created_at >= filters.created_after)
        if filters.unit_id is not None:
            unit = filters.unit_id
            conds.append(or_(PairReview.unit_id == unit, PairReview.candidate_id == unit))
        if after is not None:
            conds.append(tuple_(PairReview.created_at, PairReview.id) < tuple_(*after))
        stmt = (
            select(PairReview)
            .where(*conds)
            .order_by(PairReview.created_at.desc(), PairReview.id.desc())
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def count_open(self, namespace: str | None = None) -> int:
        """Open (pending or running) reviews, of one namespace or all."""
        stmt = select(func.count()).select_from(PairReview)
        stmt = stmt.where(PairReview.status.in_(REVIEW_OPEN))
        if namespace is not None:
            stmt = stmt.where(PairReview.namespace == namespace)
        return int((await self.session.execute(stmt)).scalar_one())

    async def close_pending_before(self, cutoff: datetime, now: datetime) -> int:
        """Close every ``pending`` review created before ``cutoff`` as keep-both
        (``action`` ``distinct``, ``decided_by`` ``sweep``); running ones are left to their
        job. Returns how many."""
        return await self._close(
            now,
            "distinct",
            "sweep",
            PairReview.status == ReviewStatus.PENDING,
            PairReview.created_at < cutoff,
        )

    async def _close(
        self, now: datetime, action: str, decided_by: str, *where: ColumnElement[bool]
    ) -> int:
        """Decide the reviews matching ``where`` as ``action`` by ``decided_by`` at ``now``
        (one UPDATE, no row loaded); returns how many."""
        result = await self.session.execute(
            update(PairReview)
            .where(*where)
            .values(
                status=ReviewStatus.DECIDED,
                action=action,
                decided_by=decided_by,
                decided_at=now,
                lease_until=None,
            )
            .execution_options(synchronize_session=False)
        )
        return rowcount(result)


def _active(unit_id: InstrumentedAttribute[uuid.UUID]) -> Exists:
    """The condition that the unit ``unit_id`` names is ``active``."""
    return (
        select(MemoryUnit.id)
        .where(MemoryUnit.id == unit_id, MemoryUnit.status == UnitStatus.ACTIVE)
        .exists()
    )


def both_active() -> ColumnElement[bool]:
    """The condition that both units of a review are ``active`` (an open review whose unit
    left is stale, whether or not it was closed yet)."""
    return and_(_active(PairReview.unit_id), _active(PairReview.candidate_id))


@dataclass(frozen=True)
class ReviewFilters:
    """What ``GET /reviews`` narrows to: a subject, the statuses (None: any), a kind
    (``merge_allowed``: True for possible duplicates, False for possible contradictions), a
    window on ``created_at``, a unit on either side."""

    user_id: str | None = None
    agent_id: str | None = None
    statuses: tuple[str, ...] | None = REVIEW_OPEN
    merge_allowed: bool | None = None
    created_before: datetime | None = None
    created_after: datetime | None = None
    unit_id: uuid.UUID | None = None  # on either side of the pair
