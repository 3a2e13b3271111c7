"""All SQL on API keys: create, look up by hash, list, revoke.

Creating or revoking a key also sends ``NOTIFY hindsight_api_keys`` in the same transaction
(delivered when it commits): every API process listening (app/repositories/key_events.py)
drops its cached key lookups at once, so a revoked key stops working everywhere together."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import exists, or_, select, text, update
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import ApiKey

KEYS_CHANNEL = "hindsight_api_keys"


class ApiKeyRepository:
    """API-key rows. Keys are found by the SHA-256 of the presented key, never by the key."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def add(
        self, key_id: uuid.UUID, namespace: str, name: str | None, prefix: str, key_hash: str
    ) -> ApiKey:
        """Insert a key row (flushed, committed with the caller's transaction)."""
        row = ApiKey(id=key_id, namespace=namespace, name=name, prefix=prefix, key_hash=key_hash)
        self.session.add(row)
        await self.session.flush()
        await self._notify()
        return row

    async def _notify(self) -> None:
        await self.session.execute(
            text("SELECT pg_notify(:channel, 'changed')"), {"channel": KEYS_CHANNEL}
        )

    async def namespace_of(self, key_hash: str) -> str | None:
        """The namespace of the active key with this hash; None when unknown or revoked."""
        stmt = select(ApiKey.namespace).where(
            ApiKey.key_hash == key_hash, ApiKey.revoked_at.is_(None)
        )
        return (await self.session.execute(stmt)).scalar_one_or_none()

    async def any_active(self) -> bool:
        """Whether at least one unrevoked key exists (then auth=auto requires a key)."""
        stmt = select(exists().where(ApiKey.revoked_at.is_(None)))
        return bool((await self.session.execute(stmt)).scalar())

    async def list_keys(
        self, namespace: str | None = None, include_revoked: bool = False
    ) -> Sequence[ApiKey]:
        """Keys, oldest first, optionally of one namespace and with revoked ones."""
        stmt = select(ApiKey).order_by(ApiKey.created_at, ApiKey.id)
        if namespace is not None:
            stmt = stmt.where(ApiKey.namespace == namespace)
        if not include_revoked:
            stmt = stmt.where(ApiKey.revoked_at.is_(None))
        return (await self.session.scalars(stmt)).all()

    async def revoke(self, id_or_prefix: str, now: datetime) -> list[ApiKey]:
        """Revoke the active keys whose id or visible prefix is ``id_or_prefix``; returns them."""
        conditions = [ApiKey.prefix == id_or_prefix]
        with contextlib.suppress(ValueError):
            conditions.append(ApiKey.id == uuid.UUID(id_or_prefix))
        stmt = (
            update(ApiKey)
            .where(or_(*conditions), ApiKey.revoked_at.is_(None))
            .values(revoked_at=now)
            .returning(ApiKey)
        )
        revoked = list((await self.session.scalars(stmt)).all())
        if revoked:
            await self._notify()
        return revoked
