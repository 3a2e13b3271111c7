"""SQL on digests (docs/LIFECYCLE.md "Consolidation"): a unit ``POST /summarize`` wrote is
linked (``memory_links``, kind ``summary``, target the digest) to the sources it archived —
its parts. The write path decides a new unit against a digest's parts
(:mod:`app.services.memory.digests`), and forgetting a digest gives its parts back. Bound
to one session; never commits."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import UnitStatus
from app.models import MemoryLink, MemoryUnit

SUMMARY_LINK = "summary"


def maybe_digest(unit: MemoryUnit) -> bool:
    """Whether ``unit`` may be a digest (``metadata.kind`` ``summary``, written by
    ``/summarize``); only its links say which parts it holds (:meth:`DigestRepository.parts`)."""
    return bool(unit.metadata_) and unit.metadata_.get("kind") == "summary"


class DigestRepository:
    """Parts of digests, bound to one session."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def parts(
        self, namespace: str, digest_ids: Sequence[uuid.UUID]
    ) -> dict[uuid.UUID, list[MemoryUnit]]:
        """The parts of each of ``digest_ids`` that it still holds: its sources that are
        archived (a source forgotten, corrected back to active or otherwise changed is no
        longer held by it), oldest first; a unit without such parts is absent."""
        if not digest_ids:
            return {}
        rows = await self.session.execute(
            select(MemoryLink.target_id, MemoryUnit)
            .join(MemoryUnit, MemoryUnit.id == MemoryLink.source_id)
            .where(
                MemoryLink.kind == SUMMARY_LINK,
                MemoryLink.target_id.in_(list(digest_ids)),
                MemoryUnit.namespace == namespace,
                MemoryUnit.status == UnitStatus.ARCHIVED,
            )
            .order_by(MemoryUnit.created_at, MemoryUnit.id)
        )
        found: dict[uuid.UUID, list[MemoryUnit]] = {}
        for target, unit in rows.all():
            found.setdefault(target, []).append(unit)
        return found

    async def units(self, namespace: str, ids: Sequence[uuid.UUID]) -> list[MemoryUnit]:
        """The units ``ids`` of ``namespace`` (those that exist)."""
        if not ids:
            return []
        rows = await self.session.scalars(
            select(MemoryUnit).where(MemoryUnit.namespace == namespace, MemoryUnit.id.in_(ids))
        )
        return list(rows.all())

    async def holders(self, namespace: str, ids: Sequence[uuid.UUID]) -> list[uuid.UUID]:
        """The digests that consolidated any of ``ids`` (whatever their status: an unpacked
        digest still holds their words), and the digests that consolidated those, and so on."""
        found: dict[uuid.UUID, None] = {}
        frontier = list(ids)
        while frontier:
            rows = await self.session.scalars(
                select(MemoryLink.target_id)
                .join(MemoryUnit, MemoryUnit.id == MemoryLink.target_id)
                .where(
                    MemoryLink.kind == SUMMARY_LINK,
                    MemoryLink.source_id.in_(frontier),
                    MemoryUnit.namespace == namespace,
                )
            )
            frontier = [i for i in rows.all() if i not in found and i not in ids]
            found.update(dict.fromkeys(frontier))
        return list(found)

    async def restore_parts(
        self, namespace: str, digest_ids: Sequence[uuid.UUID], now: datetime | None = None
    ) -> list[uuid.UUID]:
        """Make the parts of ``digest_ids`` (:meth:`parts`, leaving out units among
        ``digest_ids`` themselves) active again, each living at least as long as its digest
        did unless its writer fixed its expiry; returns their ids (call before the digests'
        links are deleted; ``now``: the time of the change, the clock's by default)."""
        now = now or datetime.now(UTC)
        held = await self.parts(namespace, digest_ids)
        digests = {
            u.id: u
            for u in await self.session.scalars(
                select(MemoryUnit).where(
                    MemoryUnit.namespace == namespace, MemoryUnit.id.in_(list(held))
                )
            )
        }
        restored: list[uuid.UUID] = []
        gone = set(digest_ids)
        for digest_id, parts in held.items():
            for part in parts:
                if part.id in gone:
                    continue
                unpack_part(part, digests[digest_id], now)
                restored.append(part.id)
        await self.session.flush()
        return sorted(set(restored))


def unpack_part(part: MemoryUnit, digest: MemoryUnit, now: datetime) -> None:
    """``part`` of ``digest`` is its own active unit again (mutated in place): it lives at
    least as long as the digest that kept it (the later expiry, or never), unless its
    writer fixed its expiry (``expiry_fixed``) — while archived, the digest answered for it."""
    part.status = UnitStatus.ACTIVE
    part.updated_at = now
    later = digest.expires_at is None or (
        part.expires_at is not None and digest.expires_at > part.expires_at
    )
    if not part.expiry_fixed and part.expires_at is not None and later:
        part.expires_at = digest.expires_at
