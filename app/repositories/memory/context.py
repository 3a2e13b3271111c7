"""SQL for ``GET /context``: a subject's strongest standing preferences and constraints, and
the units a placed unit is flagged as contradicting (``conflicts_with``, or an open review of
kind ``contradiction``)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import or_, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import REVIEW_OPEN, UnitStatus
from app.models import MemoryUnit, PairReview


class ContextRepository:
    """Read-only queries for context assembly, bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def strongest_units(
        self,
        namespace: str,
        user_id: str,
        now: datetime,
        *,
        agent_id: str | None = None,
        types: Sequence[str] = ("constraint", "preference"),
        limit: int = 10,
    ) -> list[MemoryUnit]:
        """The subject's active, unexpired units of ``types``: constraints first (so that
        ``limit`` strong preferences never leave an allergy out), then strongest first:
        highest confidence, then most recently confirmed. With ``agent_id``, only that
        agent's units of the user (as a read's filter: units without an agent are left
        out)."""
        if limit <= 0:
            return []
        agent = [] if agent_id is None else [MemoryUnit.agent_id == agent_id]
        stmt = (
            select(MemoryUnit)
            .where(
                MemoryUnit.namespace == namespace,
                MemoryUnit.user_id == user_id,
                *agent,
                MemoryUnit.status == UnitStatus.ACTIVE,
                MemoryUnit.type.in_(list(types)),
                or_(MemoryUnit.expires_at.is_(None), MemoryUnit.expires_at > now),
            )
            .order_by(
                (MemoryUnit.type == "constraint").desc(),
                MemoryUnit.confidence.desc(),
                MemoryUnit.last_confirmed_at.desc(),
                MemoryUnit.id,
            )
            .limit(limit)
        )
        return list((await self.session.scalars(stmt)).all())

    async def active_among(
        self, namespace: str, user_id: str, ids: Sequence[uuid.UUID], now: datetime
    ) -> list[MemoryUnit]:
        """The units of ``ids`` that are the user's, active and unexpired (the other side of
        a placed unit's ``conflicts_with``)."""
        if not ids:
            return []
        stmt = select(MemoryUnit).where(
            MemoryUnit.namespace == namespace,
            MemoryUnit.user_id == user_id,
            MemoryUnit.id.in_(list(ids)),
            MemoryUnit.status == UnitStatus.ACTIVE,
            or_(MemoryUnit.expires_at.is_(None), MemoryUnit.expires_at > now),
        )
        return list((await self.session.scalars(stmt)).all())

    async def open_contradictions(
        self, namespace: str, user_id: str, ids: Sequence[uuid.UUID]
    ) -> list[tuple[uuid.UUID, uuid.UUID]]:
        """The ``(unit_id, candidate_id)`` pairs of the user's open reviews of kind
        ``contradiction`` (``merge_allowed`` false, pending or running) with a unit of
        ``ids`` on either side."""
        if not ids:
            return []
        wanted = list(ids)
        stmt = select(PairReview.unit_id, PairReview.candidate_id).where(
            PairReview.namespace == namespace,
            PairReview.user_id == user_id,
            PairReview.merge_allowed.is_(False),
            PairReview.status.in_(REVIEW_OPEN),
            or_(PairReview.unit_id.in_(wanted), PairReview.candidate_id.in_(wanted)),
        )
        return [(a, b) for a, b in (await self.session.execute(stmt)).all()]
