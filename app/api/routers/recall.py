"""``POST /recall``."""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter, BackgroundTasks, Response

from app.api.deps import AccessLogDep, EmbeddingBudgetDep, NamespaceDep, RecallServiceDep
from app.api.errors import ERROR_RESPONSES
from app.core.metrics import RECALL_DEGRADED
from app.schemas.recall import (
    ExpansionInfo,
    RecallHit,
    RecallRequest,
    RecallResponse,
    RerankInfo,
    TimeHint,
)
from app.schemas.recall_scores import AppliedWeights
from app.services.embedding_budget import Text

router = APIRouter(tags=["recall"])


@router.post(
    "/recall",
    operation_id="recall_memories",
    response_model=RecallResponse,
    responses=ERROR_RESPONSES,
)
async def recall_memories(
    body: RecallRequest,
    service: RecallServiceDep,
    namespace: NamespaceDep,
    response: Response,
    budget: EmbeddingBudgetDep,
    access_log: AccessLogDep,
    after: BackgroundTasks,
) -> RecallResponse:
    """Recall the units that matter for `query`, best first, for a subject (at least one of
    `user_id`, `agent_id`, `session_id`). Score = weighted sum of signals, each 0..1 and
    returned in `scores`, with the applied `weights` (so weight × signal / score is each
    signal's share): semantic (cosine similarity of the value or the trigger scenario to
    the query, min-max scaled over the candidates), keyword (BM25 over full text, Chinese
    segmented), entity (the unit names an entity the query names), context (the best
    neighbouring and same-session unit's match), recency (exp(-λ·hours since occurred_at))
    and confidence. Default weights serve long-term recall (measured in docs/EVAL.md);
    `profile: short_term` gives the seeds' recency-heavy weights; `weights` overrides single
    ones; `now` moves the clock for recency and time ranges (units already expired by the
    real clock stay out). `degraded: true` when the time budget (default 500 ms) cut work
    short or was exceeded.

    `rerank: llm` adds a second stage: the configured LLM orders the best `rerank_candidates`
    (default 20, max 50) by relevance to `query` in one call, within what is left of the
    budget; the candidates it lists come first in its order, the others keep their hybrid
    order after them. Each hit says which stage placed it (`rerank_position`, null for the
    hybrid order; `hybrid_rank`), and `rerank` reports the call (status, tokens, ms). A
    repeated query over the same candidates reuses the earlier order without a call. When the
    LLM is too slow or fails, the answer is the hybrid order with `degraded: true` and
    `rerank.reason`: never an error. `stages_ms` (and the `Server-Timing` header) say
    where the time went: the query embedding, the one SQL statement, ranking, the access log;
    `embed_model_ms` is the model's own part of the embedding.
    422 `invalid_request` on bad input (no subject, top_k
    out of range, unknown type, `rerank: llm` on a server without an LLM, a query over
    `LIMITS__TEXT_TOKENS` model tokens); 429 `rate_limited` past the caller's embedding
    limits (`Retry-After`)."""
    await budget.check([Text(("query",), body.query, query=True)])
    result = await service.recall(namespace, body, datetime.now(UTC))
    if result.access is not None:  # logged once the answer is sent
        after.add_task(access_log.add, result.access)
    timings = result.stages_ms
    if result.embed_model_ms is not None:
        timings = {**timings, "embed_model": result.embed_model_ms}
    response.headers["Server-Timing"] = server_timing(timings, result.took_ms)
    if result.degraded:
        RECALL_DEGRADED.inc()
    stage = result.rerank
    hits = []
    for index, (unit, ranked) in enumerate(result.hits):
        hybrid_rank, position = stage.placement(unit.id, index) if stage else (index + 1, None)
        # One validation from the unit's columns (not MemoryRead, dumped, then RecallHit
        # again: the same hit for about twice the CPU).
        hits.append(
            RecallHit.model_validate(
                {
                    **unit._asdict(),
                    "score": ranked.score,
                    "scores": ranked.scores,
                    "relevance": ranked.relevance,
                    "via": ranked.via,
                    "relevance_inputs": ranked.raw,
                    "hybrid_rank": hybrid_rank,
                    "rerank_position": position,
                    "duplicates": result.duplicates.get(unit.id, []),
                    "redundancy": ranked.redundancy,
                    "redundant_with": ranked.redundant_with,
                    "replaced_by": ranked.replaced_by,
                }
            )
        )
    w = result.weighting
    info = RerankInfo.model_validate(stage) if stage is not None else None
    return RecallResponse(
        memories=hits,
        weights=AppliedWeights(**w.weights, recency_lambda=w.recency_lambda),
        degraded=result.degraded,
        took_ms=result.took_ms,
        stages_ms={k: round(v, 3) for k, v in result.stages_ms.items()},
        embed_model_ms=round(result.embed_model_ms, 3)
        if result.embed_model_ms is not None
        else None,
        rerank=info,
        time_hint=TimeHint.model_validate(result.time_hint) if result.time_hint else None,
        best_relevance=result.best_relevance,
        expansion=ExpansionInfo(
            status=result.expansion[0], added=result.expansion[1], reason=result.expansion[2]
        )
        if result.expansion
        else None,
    )


def server_timing(stages_ms: dict[str, float], total_ms: float) -> str:
    """A ``Server-Timing`` header value (W3C Server Timing): one metric per stage plus
    ``total``, durations in milliseconds."""
    parts = [f"{name};dur={ms:.2f}" for name, ms in stages_ms.items()]
    return ", ".join([*parts, f"total;dur={total_ms:.2f}"])
