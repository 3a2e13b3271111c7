"""``Idempotency-Key``: a retried request returns the first response instead of acting twice.

The key is locked for the transaction, the stored response (if any) is compared by body hash,
and a new response is saved in the same transaction as the data it describes.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from app.core.errors import IdempotencyKeyReuseError
from app.repositories.idempotency import IdempotencyRepository
from app.repositories.memory.units import MemoryRepository


def body_hash(body: Any) -> str:
    """SHA-256 of the canonical JSON of a request body."""
    return hashlib.sha256(
        json.dumps(body, sort_keys=True, ensure_ascii=False, default=str).encode()
    ).hexdigest()


class IdempotencyService:
    """Runs an action at most once per (namespace, key)."""

    def __init__(self, repo: IdempotencyRepository, locks: MemoryRepository) -> None:
        self.repo = repo
        self.locks = locks

    async def run(
        self,
        namespace: str,
        key: str,
        request_hash: str,
        action: Callable[[], Awaitable[dict[str, Any]]],
        status_code: int = 200,
    ) -> tuple[dict[str, Any], bool]:
        """The action's JSON response and whether it was replayed from an earlier request.

        Raises IdempotencyKeyReuseError when the key was used with a different body.
        """

        async def with_status() -> tuple[dict[str, Any], int]:
            return await action(), status_code

        response, _, replayed = await self.run_with_status(
            namespace, key, request_hash, with_status
        )
        return response, replayed

    async def run_with_status(
        self,
        namespace: str,
        key: str,
        request_hash: str,
        action: Callable[[], Awaitable[tuple[dict[str, Any], int]]],
    ) -> tuple[dict[str, Any], int, bool]:
        """:meth:`run` for an action whose status varies (``POST /extract``: 202 queued or
        200 done): the JSON response, its status and whether it was replayed."""
        await self.locks.lock_key(f"idem\x1f{namespace}\x1f{key}")
        record = await self.repo.get(namespace, key)
        if record is not None:
            if record.request_hash != request_hash:
                raise IdempotencyKeyReuseError(
                    f"Idempotency-Key {key!r} was already used with a different request "
                    "(body, path or query)"
                )
            return record.response, record.status_code, True
        response, status_code = await action()
        await self.repo.save(namespace, key, request_hash, status_code, response)
        return response, status_code, False
