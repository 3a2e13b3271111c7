"""``Idempotency-Key`` on the writes that take one besides ``POST /store`` (tester finding
T25): a working-memory append and ``POST /extract``. The same key with the same request
answers the first answer (its status too, header ``Idempotent-Replayed: true``) without
acting again; the same key with another request (body, session or query) is a 422
``idempotency_key_reused`` (app/services/idempotency.py)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import Header, Response

from app.services.idempotency import IdempotencyService, body_hash

IdempotencyKey = Annotated[
    str | None,
    Header(
        min_length=1,
        max_length=256,
        description="Makes a retried request return the first response (1..256 chars); the "
        "same key with another request is a 422 `idempotency_key_reused`.",
    ),
]


async def once(
    idempotency: IdempotencyService,
    namespace: str,
    key: str | None,
    request: dict[str, Any],
    action: Callable[[], Awaitable[tuple[dict[str, Any], int]]],
    response: Response,
) -> tuple[dict[str, Any], int]:
    """The action's JSON answer and status, or, for a key seen with the same ``request``
    (what identifies it: operation, path, query and body), the first answer's."""
    if key is None:
        return await action()
    payload, status, replayed = await idempotency.run_with_status(
        namespace, key, body_hash(request), action
    )
    response.headers["Idempotent-Replayed"] = "true" if replayed else "false"
    return payload, status
