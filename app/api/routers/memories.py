"""``POST /store`` and ``GET /memories/{id}``."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Response

from app.api.deps import (
    IdempotencyServiceDep,
    MemoryRepoDep,
    NamespaceDep,
    StoreServiceDep,
)
from app.api.errors import ERROR_RESPONSES, NOT_FOUND, PROVIDER_ERRORS
from app.core.errors import NotFoundError
from app.schemas.memory import MemoryRead, StoreRequest, StoreResponse, StoreResult
from app.services.idempotency import body_hash

router = APIRouter(tags=["memories"])


@router.post(
    "/store",
    operation_id="store_memories",
    response_model=StoreResponse,
    responses={**ERROR_RESPONSES, **PROVIDER_ERRORS},
)
async def store_memories(
    body: StoreRequest,
    response: Response,
    service: StoreServiceDep,
    idempotency: IdempotencyServiceDep,
    namespace: NamespaceDep,
    idempotency_key: Annotated[
        str | None,
        Header(max_length=256, description="Makes a retried request return the first response."),
    ] = None,
) -> Any:
    """Store 1..100 memory units. Each is embedded, deduplicated against the subject's active
    units and written with its vectors in one transaction. Results come in input order with
    an outcome: `created`, or `merged` (a restatement of an existing unit: no new row, its
    confidence raised and `last_confirmed_at` refreshed). With an `Idempotency-Key` header a
    retry returns the first response (header `Idempotent-Replayed: true`)."""

    async def action() -> dict[str, Any]:
        outcomes = await service.store(namespace, body.memories, datetime.now(UTC))
        results = [
            StoreResult(id=o.unit.id, outcome=o.outcome, memory=MemoryRead.model_validate(o.unit))
            for o in outcomes  # type: ignore[arg-type]
        ]
        return StoreResponse(results=results).model_dump(mode="json")

    if idempotency_key is None:
        return await action()
    payload, replayed = await idempotency.run(
        namespace, idempotency_key, body_hash(body.model_dump(mode="json")), action
    )
    response.headers["Idempotent-Replayed"] = "true" if replayed else "false"
    return payload


@router.get(
    "/memories/{memory_id}",
    operation_id="get_memory",
    response_model=MemoryRead,
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
async def get_memory(memory_id: uuid.UUID, repo: MemoryRepoDep, namespace: NamespaceDep) -> Any:
    """Read one memory unit by id (any status). A unit of another namespace is a 404."""
    unit = await repo.get(namespace, memory_id)
    if unit is None:
        raise NotFoundError(f"no memory unit {memory_id}")
    return MemoryRead.model_validate(unit)
