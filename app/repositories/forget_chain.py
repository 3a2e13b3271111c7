"""What forgetting units does to the supersede chains that run through them (bound to one
session; never commits).

A unit that a forgotten unit superseded is either still superseded — by the first unit after
the forgotten ones in its chain, with the forgotten unit's end of validity (tester hbreak6 G8:
forgetting Lisbon in Porto → Lisbon → Madrid made Porto current again beside Madrid) — or,
when nothing after it remains (the forgotten unit was the head), active again and reported
as ``restored`` (tester E21: it stayed superseded by nothing, out of every recall)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit


class ForgetChains:
    """Re-links the supersede chains through units about to be deleted."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def splice(self, namespace: str, ids: Sequence[uuid.UUID]) -> list[uuid.UUID]:
        """Point every remaining unit superseded by one of ``ids`` at the first remaining
        unit after it in the chain (``valid_to`` = when the last forgotten link ended); returns
        the ids of those with no such unit, which the caller's reference clean-up makes active
        again (call before deleting ``ids``)."""
        gone_rows = await self.session.execute(
            select(MemoryUnit.id, MemoryUnit.superseded_by, MemoryUnit.valid_to).where(
                MemoryUnit.namespace == namespace, MemoryUnit.id.in_(list(ids))
            )
        )
        gone = {r.id: (r.superseded_by, r.valid_to) for r in gone_rows}
        for unit_id in gone:
            successor, ended = _after(unit_id, gone)
            if successor is None:
                continue
            await self.session.execute(
                update(MemoryUnit)
                .where(
                    MemoryUnit.namespace == namespace,
                    MemoryUnit.superseded_by == unit_id,
                    MemoryUnit.id.not_in(list(gone)),
                )
                .values(superseded_by=successor, valid_to=ended)
                .execution_options(synchronize_session=False)
            )
        restored = await self.session.scalars(
            select(MemoryUnit.id)
            .where(
                MemoryUnit.namespace == namespace,
                MemoryUnit.status == UnitStatus.SUPERSEDED,
                MemoryUnit.superseded_by.in_(list(gone)),
                MemoryUnit.id.not_in(list(gone)),
            )
            .order_by(MemoryUnit.id)
        )
        return list(restored.all())


def _after(
    unit_id: uuid.UUID, gone: dict[uuid.UUID, tuple[uuid.UUID | None, datetime | None]]
) -> tuple[uuid.UUID | None, datetime | None]:
    """The first unit after ``unit_id`` in its supersede chain that is not in ``gone``, and
    when the last forgotten link before it ended; (None, None) when the chain ends first."""
    seen: set[uuid.UUID] = set()
    current = unit_id
    while current in gone and current not in seen:
        seen.add(current)
        successor, ended = gone[current]
        if successor is None:
            return None, None
        if successor not in gone:
            return successor, ended
        current = successor
    return None, None
