"""``POST /recall``."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter

from app.api.deps import NamespaceDep, RecallServiceDep
from app.api.errors import ERROR_RESPONSES
from app.core.metrics import RECALL_DEGRADED
from app.schemas.memory import MemoryRead
from app.schemas.recall import RecallHit, RecallRequest, RecallResponse, Scores

router = APIRouter(tags=["recall"])


@router.post(
    "/recall",
    operation_id="recall_memories",
    response_model=RecallResponse,
    responses=ERROR_RESPONSES,
)
async def recall_memories(
    body: RecallRequest, service: RecallServiceDep, namespace: NamespaceDep
) -> RecallResponse:
    """Recall the units that matter for `query`, best first, for a subject (at least one of
    `user_id`, `agent_id`, `session_id`). Score = weighted sum of semantic (cosine similarity
    of value or trigger scenario), keyword (full text, Chinese segmented), recency
    (exp(-λ·hours)), confidence and entity match, each 0..1 and returned in `scores`. Default
    weights serve long-term recall (docs/EVAL.md); `profile: short_term` gives the
    recency-heavy weights; `weights` overrides single ones; `now` moves the clock.
    `degraded: true` when the time budget (default 500 ms) cut work short or was exceeded."""
    result = await service.recall(namespace, body, datetime.now(UTC))
    if result.degraded:
        RECALL_DEGRADED.inc()
    hits = [
        RecallHit(
            **MemoryRead.model_validate(unit).model_dump(),
            score=ranked.score,
            scores=Scores(**ranked.scores),
        )
        for unit, ranked in result.hits
    ]
    return RecallResponse(memories=hits, degraded=result.degraded, took_ms=result.took_ms)
