"""``POST /store`` and ``GET /memories/{id}``."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Header, Response

from app.api.deps import (
    CatalogServiceDep,
    EmbeddingBudgetDep,
    IdempotencyServiceDep,
    NamespaceDep,
    SessionOwnersDep,
    SettingsDep,
    StoreServiceDep,
)
from app.api.errors import ERROR_RESPONSES, NOT_FOUND, PROVIDER_ERRORS, SESSION_NOT_FOUND
from app.api.routers.recall import server_timing
from app.api.scope import UnitScope
from app.schemas.memory import (
    MemoryDetail,
    MemoryRead,
    PendingDecision,
    StoreRequest,
    StoreResponse,
    StoreResult,
)
from app.services.embedding_budget import Text
from app.services.extraction.never_kept import refuse_secrets
from app.services.extraction.store_inferred import completed
from app.services.idempotency import body_hash
from app.services.memory.ttl import refuse_past_expiry

router = APIRouter(tags=["memories"])


@router.post(
    "/store",
    operation_id="store_memories",
    response_model=StoreResponse,
    responses={**ERROR_RESPONSES, **SESSION_NOT_FOUND, **PROVIDER_ERRORS},
)
async def store_memories(
    body: StoreRequest,
    response: Response,
    service: StoreServiceDep,
    idempotency: IdempotencyServiceDep,
    namespace: NamespaceDep,
    budget: EmbeddingBudgetDep,
    owners: SessionOwnersDep,
    idempotency_key: Annotated[
        str | None,
        Header(
            min_length=1,
            max_length=256,
            description="Makes a retried request return the first response (1..256 chars).",
        ),
    ] = None,
) -> Any:
    """Store 1..100 memory units (`{"memories": [MemoryCreate, …]}`). Each is embedded,
    deduplicated against the subject's active units and written with its vectors in one
    transaction. Results come in input order with an outcome: `created`; `merged` (a
    restatement of an existing unit of the same user and agent — the same statement once
    numbers, dates, times and units are in one notation, or a paraphrase by the calibrated
    pair decision of docs/DEDUPE.md: no new row, its confidence raised by noisy-OR,
    `last_confirmed_at` refreshed, `raw_ref` and sources kept); `superseded` (it replaces a
    unit it contradicts, which stays for history) or `conflict` (both stay, flagged in
    `conflicts_with`, when their order in time is unclear; the pair is in `pending` as a
    review of kind `contradiction` for a person to decide, `POST /reviews/{id}`). Pairs the
    local decision is unsure of are listed in `pending`: with an LLM configured a job
    decides them after this answer (`queued`; a merge then folds this unit into the other,
    and its id keeps resolving to it), else they stay distinct and are listed by
    `GET /memories?review=pending`. No LLM is called inside this request. Identical
    stores, or paraphrases the local decision merges, sent at the same moment leave one row.

    A unit sent without a `type` gets the type the offline extractor gives its value, read as
    the user's own words ("The user is allergic to peanuts" / "I'm allergic to peanuts" →
    `constraint`, "prefers window seats" → `preference`, "went to Lisbon last week" →
    `event`, "works at Siemens" → `fact`; `fact` when nothing in it says otherwise); one sent
    without `entities` gets the names extraction finds in it (Siemens, Munich). A type or
    entities given (`[]` too) are kept as given; the value is stored as sent, and
    `metadata.inferred` lists the fields read from it. An inferred type (but `event`) or
    inferred entities never keep two wordings of one fact from merging ("The user is vegan" /
    "The user eats no animal products" read as a constraint and a fact; Google / 谷歌).

    With an `Idempotency-Key` header a retry with the same body returns the first response
    (header `Idempotent-Replayed: true`); the same key with another body is a 422
    `idempotency_key_reused`. Errors: 400 `malformed_json`, 413 `payload_too_large`, 422
    `invalid_request` (nothing is written; also an `expires_at` that is not after the
    request's arrival, "expires_at is in the past", the rule `PATCH /memories/{id}` applies
    too; a value or trigger scenario holding a secret — a password, PIN, card number or
    security code, access code, API key or national id, as extraction never keeps them —
    "holds … never kept", also on `PATCH`; a value with no visible text, only whitespace and
    characters that show as nothing such as U+202E, U+3164, U+2800 or zero-width spaces, "has
    no visible text", also on `PATCH`; a unit's `metadata` over `LIMITS__METADATA_BYTES`
    bytes as compact JSON, 16 KiB by default; or a value or trigger scenario over
    `LIMITS__TEXT_TOKENS` model tokens, or all the batch's distinct values and scenarios over
    `LIMITS__REQUEST_TOKENS`, 384 by default each, under 1 s of the bundled embedder: the
    error says the limit and the count, and for a batch `item_tokens`, each unit's tokens,
    and which first units fit — split the batch there), 429 `rate_limited` past the caller's
    embedding limits (`Retry-After`), 502/504 when the embedding provider fails. The
    `Server-Timing` header says where the time went (ms): `embed`, `lock`, `read` (the
    duplicates and neighbours), `decide`, `write`, and `total` (the commit follows).

    A unit whose `session_id` names a working-memory session owned by another user than its
    `user_id` is a 404 `not_found` ("no working-memory session 'S' of user_id 'U'") and
    nothing of the batch is written, as an append naming another user is refused: a recall
    of that session would serve the unit among its owner's memories. A session nobody owns
    yet becomes the `user_id`'s of the first unit naming it, as on a first append, so a
    later append or unit of another user in it is refused the same way."""

    await budget.check(
        [
            Text(("memories", i, field), text)
            for i, m in enumerate(body.memories)
            for field, text in (("value", m.value), ("query", m.query))
            if text
        ]
    )

    async def action() -> dict[str, Any]:
        start = time.perf_counter()
        now = datetime.now(UTC)
        refuse_past_expiry([m.expires_at for m in body.memories], now, "memories.{i}.expires_at")
        refuse_secrets(
            [
                (f"memories.{i}.{f}", t)
                for i, m in enumerate(body.memories)
                for f, t in (("value", m.value), ("query", m.query))
            ]  # fmt: skip
        )
        await owners.claim(namespace, [(m.session_id, m.user_id) for m in body.memories])
        memories = await completed(body.memories, now)  # a type and entities left out (H18)
        outcomes = await service.store(namespace, memories, now)
        total = (time.perf_counter() - start) * 1000.0
        response.headers["Server-Timing"] = server_timing(service.stages_ms, total)
        results = [
            StoreResult(
                id=o.unit.id,
                outcome=o.outcome,
                memory=MemoryRead.model_validate(o.unit),
                pending=[
                    PendingDecision(
                        review_id=r.id,
                        candidate_id=r.candidate_id,
                        cosine=r.cosine,
                        reason=r.reason,
                        kind="duplicate" if r.merge_allowed else "contradiction",
                        status="queued" if o.queued and r in o.reviews else "review",
                    )
                    for r in [*o.reviews, *o.flagged]
                ],
            )
            for o in outcomes
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
    response_model=MemoryDetail,
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
async def get_memory(
    memory_id: uuid.UUID,
    service: CatalogServiceDep,
    namespace: NamespaceDep,
    settings: SettingsDep,
    user_id: UnitScope = None,
) -> Any:
    """Read one memory unit by id (any status) as a `MemoryDetail`: the `MemoryRead` fields
    plus `access_count` (recalls that returned it within the access log's retention,
    `access_window_days`) and `merge_count` (restatements merged into it). The id of a unit
    that was merged into another (status `merged`, after a late dedupe decision or a
    correction) resolves to the unit it went into: the answer's `id` is then the survivor's.
    A unit of another namespace — or, with `user_id`, of another user — is a 404 `not_found`,
    the same answer as an id that does not exist. A malformed id is a 422 `invalid_request`."""
    detail = await service.detail(namespace, memory_id, user_id)
    return MemoryDetail(
        **MemoryRead.model_validate(detail.unit).model_dump(),
        access_count=detail.access_count,
        access_window_days=settings.ttl.access_log_retention_days,
        merge_count=detail.unit.merge_count,
    )
