"""``GET /metrics``: Prometheus text exposition of the process's metrics."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request, Response
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

from app.core.metrics import JOBS
from app.services.health import job_counts

router = APIRouter(tags=["health"])
log = logging.getLogger(__name__)


async def _refresh_job_gauges(request: Request) -> None:
    """Set ``hindsight_jobs{status}`` from the jobs table (all namespaces)."""
    counts = await job_counts(request.app.state.session_factory)
    for status, count in (counts or {}).items():
        JOBS.labels(status).set(count)


@router.get(
    "/metrics",
    operation_id="metrics",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "Prometheus text format."}},
)
async def metrics(request: Request) -> Response:
    """Prometheus metrics (text exposition format 0.0.4): request latency histograms per
    route (`hindsight_http_request_duration_seconds`), degraded recalls
    (`hindsight_recall_degraded_total`), embedding and LLM call latency
    (`hindsight_embedding_duration_seconds`, `hindsight_llm_duration_seconds`), the recall
    rerank stage (`hindsight_rerank_total` by outcome, its LLM call's
    `hindsight_rerank_llm_duration_seconds` and `hindsight_rerank_tokens_total`), extraction
    jobs by status (`hindsight_jobs`, queued = queue depth), and the limits on embedding work
    (`hindsight_embedding_limit` by limit, in model tokens or requests), the requests they
    refused (`hindsight_embedding_refused_total` by reason), the tokens admitted
    (`hindsight_embedding_admitted_tokens_total`) and requests with embedding work in flight
    (`hindsight_embedding_requests_in_flight`). No API key needed: it holds no tenant data."""
    await _refresh_job_gauges(request)
    return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)
