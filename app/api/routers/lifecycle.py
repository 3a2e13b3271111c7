"""The memory lifecycle: list, supersede history, corrections, forget, consolidation."""

from __future__ import annotations

import time
import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import (
    CatalogServiceDep,
    EmbeddingBudgetDep,
    ForgetServiceDep,
    NamespaceDep,
    SummarizeServiceDep,
)
from app.api.errors import ERROR_RESPONSES, NOT_FOUND, PROBLEM_JSON, PROVIDER_ERRORS
from app.api.scope import UnitScope
from app.schemas.common import Identifier, Problem
from app.schemas.lifecycle import (
    ForgetCounts,
    ForgetReceipt,
    MemoryHistory,
    MemoryLinkRead,
    MemoryListQuery,
    MemoryPage,
    MemoryUpdate,
    PairReviewRead,
    SummarizeRequest,
    SummarizeResponse,
    SummaryResult,
    SupersededUnit,
    UpdateResult,
)
from app.schemas.memory import MemoryRead
from app.services.embedding_budget import Text
from app.services.lifecycle.forget import DigestParts

router = APIRouter(tags=["memories"])

CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {
        "model": Problem,
        "description": "The unit's state forbids the change.",
        "content": {PROBLEM_JSON: {}},
    },
}
LLM_ERRORS: dict[int | str, dict[str, Any]] = {
    502: {
        "model": Problem,
        "description": "Embedding provider or LLM failed, or the LLM's reply stayed unusable "
        "(`provider_bad_reply`); nothing was written.",
        "content": {PROBLEM_JSON: {}},
    },
    504: {
        "model": Problem,
        "description": "Embedding provider or LLM timed out; nothing was written.",
        "content": {PROBLEM_JSON: {}},
    },
}


def _now() -> datetime:
    return datetime.now(UTC)


@router.get(
    "/memories",
    operation_id="list_memories",
    response_model=MemoryPage,
    responses=ERROR_RESPONSES,
)
async def list_memories(
    q: Annotated[MemoryListQuery, Query()],
    service: CatalogServiceDep,
    namespace: NamespaceDep,
) -> Any:
    """List memory units of your namespace, filtered like `/recall` (`user_id`, `agent_id`,
    `session_id`, `types`, `entities`, `time_range` or `since`/`until` on `occurred_at`) plus
    `status` (default `active`; repeat the parameter for several), ordered by `created_at`
    (`order=desc`, newest first, or `asc`), ties broken by id. `limit` 1..200 (default 50).
    `review=pending`: only units with a pair decision still open — the write path could not
    tell whether they restate, contradict or differ from an existing unit (docs/DEDUPE.md);
    without an LLM they stay `distinct` until reviewed — with those pairs in `reviews`.

    Cursor pagination: pass `next_cursor` back as `cursor` with the same filters until it is
    null. Keyset on `(created_at, id)`: no unit is skipped or repeated while others are
    written. Errors: 422 `invalid_request` (bad filter, or a cursor made with other
    filters)."""
    page = await service.list(namespace, q, _now())
    return MemoryPage(
        memories=[MemoryRead.model_validate(u) for u in page.units],
        next_cursor=page.next_cursor,
        reviews=[PairReviewRead.model_validate(r) for r in page.reviews],
    )


@router.get(
    "/memories/{memory_id}/history",
    operation_id="get_memory_history",
    response_model=MemoryHistory,
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
async def get_memory_history(
    memory_id: uuid.UUID,
    service: CatalogServiceDep,
    namespace: NamespaceDep,
    user_id: UnitScope = None,
) -> Any:
    """The supersede history of a unit: every unit linked to it through `superseded_by` or
    `merged_into` (the versions it replaced, the ones that replaced it and the restatements
    merged into it), oldest first, itself included;
    and `links` — which summaries or distilled units were written from these units
    (`kind` `summary` / `distilled`), and which units of the user's other write subjects
    (another agent's) state the same fact (`kind` `duplicate`: both stay active; recall
    shows them as one hit) or say an older value the newer changes (`kind` `replaces`,
    `target_id` the newer: both stay active; recall ranks the older right after it). 404
    `not_found` for an unknown id or another namespace's unit (with `user_id`, also another
    user's)."""
    history = await service.history(namespace, memory_id, user_id)
    return MemoryHistory(
        memories=[MemoryRead.model_validate(u) for u in history.units],
        links=[MemoryLinkRead.model_validate(link) for link in history.links],
    )


@router.patch(
    "/memories/{memory_id}",
    operation_id="update_memory",
    response_model=UpdateResult,
    responses={**ERROR_RESPONSES, **NOT_FOUND, **CONFLICT, **PROVIDER_ERRORS},
)
async def update_memory(
    memory_id: uuid.UUID,
    body: MemoryUpdate,
    service: CatalogServiceDep,
    namespace: NamespaceDep,
    budget: EmbeddingBudgetDep,
    user_id: UnitScope = None,
) -> Any:
    """Correct a unit: `value`, `query`, `entities`, `confidence`, `type`, `ttl_days` or
    `expires_at` (null: never expires), or `status` (`invalid`: known wrong, out of recall;
    `archived`; `active` to restore). Only the fields sent change; a `type` or `entities`
    sent are the caller's from then on (they leave `metadata.inferred`, and the pair decision
    holds them against a merge as any given type or entities). The id of a unit that was
    merged into another resolves to the unit it went into, as on `GET /memories/{id}`: the
    correction changes that unit (the answer's `id` is then the survivor's) and the merged
    row stays as history. A unit `/summarize` consolidated (a part of a digest): a new value
    or status unpacks the digest (archived; its parts, this one included unless `status` is
    sent, active again); a digest marked `invalid` gives its parts back. A new value is
    re-embedded
    and re-indexed in this transaction and re-checked for duplicates: when it restates
    another active unit of the same subject, that unit absorbs it (`outcome: merged`, `id` =
    the survivor; the corrected unit becomes `merged` into it). Errors: 404 `not_found`,
    409 `conflict` (changing a superseded unit's status or value — it is history: correct
    the unit that superseded it —, or reactivating an expired one without a new expiry),
    422 `invalid_request` (nothing changed; also an `expires_at` that is not after the
    request's arrival, "expires_at is in the past", as on `/store`; or a value or trigger
    scenario over `LIMITS__TEXT_TOKENS` model tokens), 429 `rate_limited` past the caller's
    embedding limits, 502/504 embedding failure. With `user_id`, another user's unit is a 404
    (nothing changes)."""
    await budget.check(
        [Text((f,), t) for f, t in (("value", body.value), ("query", body.query)) if t]
    )
    outcome = await service.update(namespace, memory_id, body, _now(), user_id)
    return UpdateResult(
        id=outcome.unit.id,
        outcome=outcome.outcome,
        memory=MemoryRead.model_validate(outcome.unit),
    )


@router.delete(
    "/memories/{memory_id}",
    operation_id="forget_memory",
    response_model=ForgetReceipt,
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
async def forget_memory(
    memory_id: uuid.UUID,
    service: ForgetServiceDep,
    namespace: NamespaceDep,
    user_id: UnitScope = None,
    parts: Annotated[
        DigestParts,
        Query(
            description="For a digest (a unit `/summarize` wrote): `restore` (default) makes "
            "the units it consolidated active again, listed in `restored`; `forget` forgets "
            "them with it. No effect on another unit."
        ),
    ] = "restore",
) -> Any:
    """Forget one unit for real (hard delete): the row with its vectors and keyword index
    entry, its access log, its summary/distillation links, the references other units hold
    to it, and stored `Idempotency-Key` responses that contain it, with every unit merged into
    it (the same fact). The id of a unit merged into another names the fact it went into, as
    on `GET` and `PATCH`: that fact is forgotten. A supersede chain through it is re-linked
    past it (forgetting the middle of "Porto → Lisbon → Madrid" leaves Porto superseded by
    Madrid); what the newest version of a chain superseded is current again and listed in
    `restored`. A digest (`/summarize`) gives back the units it consolidated: they are
    active again and listed in `restored` (`parts=forget` forgets them too); a digest that
    consolidated the unit holds its words and is forgotten with it, its other sources
    restored. Answers with a receipt of counts per kind.
    The conversation stays: the session messages the unit was extracted from are listed in
    `sources_kept` (`session:<id>#<seq>`) — their transcript and window still show them
    (`GET /working_memory/{id}`, `/context`'s conversation part) until
    `DELETE /working_memory/{id}?purge=true` deletes that session's transcript and window,
    or the subject's forget (`DELETE /memories?user_id=…`) deletes all of its sessions.
    404 `not_found` for an unknown id or another namespace's unit (with `user_id`, also
    another user's: nothing is deleted)."""
    start = time.perf_counter()
    removed = await service.forget_unit(namespace, memory_id, user_id, parts)
    return ForgetReceipt(
        removed=ForgetCounts.model_validate(removed, from_attributes=True),
        sources_kept=removed.sources_kept,
        restored=removed.restored,
        took_ms=(time.perf_counter() - start) * 1000,
    )


@router.delete(
    "/memories",
    operation_id="forget_subject",
    response_model=ForgetReceipt,
    responses=ERROR_RESPONSES,
)
async def forget_subject(
    service: ForgetServiceDep,
    namespace: NamespaceDep,
    user_id: Annotated[
        Identifier | None, Query(description="Forget everything of this user.")
    ] = None,
    agent_id: Annotated[
        Identifier | None,
        Query(description="Forget everything of this agent (with user_id: of that pair only)."),
    ] = None,
) -> Any:
    """Forget everything of a subject for real: all its units (every status) with vectors
    and keyword entries, access log, links, distillation state, stored `Idempotency-Key`
    responses naming it, transcripts, working-memory sessions and extraction jobs. Give
    `user_id`, `agent_id` or both (both: only that pair); other subjects are untouched.
    Answers with a receipt of counts per kind. 422 `invalid_request` when neither is
    given."""
    start = time.perf_counter()
    removed = await service.forget_subject(namespace, user_id, agent_id)
    return ForgetReceipt(
        removed=ForgetCounts.model_validate(removed, from_attributes=True),
        took_ms=(time.perf_counter() - start) * 1000,
    )


@router.post(
    "/summarize",
    operation_id="summarize_memories",
    response_model=SummarizeResponse,
    responses={**ERROR_RESPONSES, **LLM_ERRORS},
)
async def summarize_memories(
    body: SummarizeRequest, service: SummarizeServiceDep, namespace: NamespaceDep
) -> Any:
    """Consolidate a subject's active units in a time window (`time_range`, or
    `since`/`until` on `occurred_at`; default all time). Constraints and preferences stay
    their own active units (`standing_ids`); of those that contradict each other side by
    side (`conflicts_with`), only the newest stays active, the others become `superseded`.
    The other units become one summary per entity shared by at least `min_group` units
    (default 2), or only for `entity`: the LLM's when one is configured, else an offline
    digest (the entity's name, then one claim per line, deduplicated, filler dropped). Each
    summary goes through the write path (embedded, deduplicated), is linked to its sources
    (`GET /memories/{id}/history` shows the links), and its sources are archived in the same
    transaction; the summaries of one call are not decided against each other. An LLM
    failure or an unusable reply (502 `provider_bad_reply`, 504 `provider_timeout`) leaves
    everything as it was. One call does bounded work: it reads at most
    `LIFECYCLE__SUMMARIZE_MAX_UNITS` units (oldest first) and writes summaries until they
    come to `LIFECYCLE__SUMMARIZE_MAX_TOKENS` embedding-model tokens; what it left is
    counted in `remaining` — call again to go on."""
    result = await service.summarize(namespace, body, _now())
    return SummarizeResponse(
        summaries=[
            SummaryResult(
                entity=s.entity,
                id=s.outcome.unit.id,
                outcome=s.outcome.outcome,
                memory=MemoryRead.model_validate(s.outcome.unit),
                source_ids=s.source_ids,
            )
            for s in result.summaries
        ],
        archived=result.archived,
        superseded=[SupersededUnit(id=old, superseded_by=new) for old, new in result.superseded],
        standing_ids=result.standing,
        mode=result.mode,
        remaining=result.remaining,
    )
