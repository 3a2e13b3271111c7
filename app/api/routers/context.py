"""``GET /context``: the memory block for an agent's system prompt."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import ContextServiceDep, EmbeddingBudgetDep, NamespaceDep
from app.api.errors import ERROR_RESPONSES, PROVIDER_ERRORS, SESSION_NOT_FOUND
from app.api.wire import to_window_message
from app.schemas.context import (
    ContextBudget,
    ContextParts,
    ContextQuery,
    ContextResponse,
    ContextUnit,
)
from app.services.context import ContextResult, PlacedUnit
from app.services.embedding_budget import Text

router = APIRouter(tags=["context"])


def _unit(placed: PlacedUnit, result: ContextResult) -> ContextUnit:
    u = placed.unit
    return ContextUnit(
        id=u.id,
        type=u.type,
        value=u.value,
        confidence=u.confidence,
        occurred_at=u.occurred_at,
        score=None if placed.score is None else round(placed.score, 6),
        conflicts_with=result.conflict_ids(u.id),
    )


@router.get(
    "/context",
    operation_id="get_context",
    response_model=ContextResponse,
    responses={**ERROR_RESPONSES, **SESSION_NOT_FOUND, **PROVIDER_ERRORS},
)
async def get_context(
    service: ContextServiceDep,
    params: Annotated[ContextQuery, Query()],
    namespace: NamespaceDep,
    budget: EmbeddingBudgetDep,
) -> ContextResponse:
    """What to put in the system prompt when a session starts or a turn begins, for
    `user_id`: the subject's strongest active preferences and constraints, the units
    recalled (as `/recall`) for `query` — by default the session's latest user message —
    and, with `session_id`, the working-memory window ranked for the query. Without
    `agent_id` the units are the user's whichever agent they belong to (what the user told
    agent A is in agent B's block); with `agent_id`, only that agent's units of the user,
    as `/recall` with both (units stored without an agent are left out too). `text` is the
    ready Markdown block; `parts` what it holds. The whole block fits `max_tokens` (default
    4000) minus 20% headroom, split 20/30/50 between the three parts (settings
    `CONTEXT__SHARE_*`; a part's unused tokens pass on, and what the recalled units and the
    window leave unused goes back to the standing part, constraints first, before any of
    them is left out). Constraints come first: they may take the recalled units' share too,
    no preference is placed while a constraint is left out, a constraint's conflict mark is
    shortened (`[unresolved conflict with a newer unit]`) before the constraint is left
    out, and a standing unit left out may still be placed among the recalled units. A
    session owned by another user
    is a 404 `not_found`, as another user's unit is. A `query` over `LIMITS__TEXT_TOKENS`
    model tokens is a 422 (the session's latest user message, taken as the query by
    default, is cut to its first `LIMITS__TEXT_TOKENS`). Window messages whose embedding is
    not ready are embedded here as long as they and the query come to at most
    `LIMITS__REQUEST_TOKENS` model tokens; those this process is still embedding after
    their append are waited for, at most `WORKING_MEMORY__EMBED_WAIT_MS` in all; the others
    are ranked without relevance (their `why` says so). A unit that contradicts another
    still active, stored so close in time that which holds is unknown (`conflicts_with`, an
    open review of kind `contradiction`), is marked on its line: `[unresolved conflict with
    "…" (date); this one is newer]` (or `that one`; `said at the same time` when both have
    one `occurred_at` and were stored together, e.g. from one message), so the two are not
    read as both true; the other side is listed in the part's `conflicts_with`."""
    spent = 0
    if params.query:
        counts = await budget.check([Text(("query",), params.query, query=True)], source="query")
        spent = counts[0]
    result = await service.build(
        namespace,
        params.user_id,
        params.session_id,
        params.query,
        params.max_tokens,
        datetime.now(UTC),
        embed_tokens=max(0, budget.limits.request_tokens - spent),
        agent_id=params.agent_id,
    )
    return ContextResponse(
        user_id=params.user_id,
        session_id=params.session_id,
        query=result.query,
        query_source=result.query_source,
        text=result.text,
        tokens=result.tokens,
        max_tokens=params.max_tokens or service.working_memory.settings.default_max_tokens,
        budget_tokens=result.budget_tokens,
        used=ContextBudget(
            preferences=result.used_preferences,
            memories=result.used_memories,
            window=result.used_window,
        ),
        parts=ContextParts(
            preferences=[_unit(p, result) for p in result.preferences],
            memories=[_unit(p, result) for p in result.memories],
            window=[to_window_message(c) for c in result.window],
        ),
        degraded=result.degraded,
        took_ms=round(result.took_ms, 3),
    )
