"""``/health`` (the process is up) and ``/ready`` (its datastores answer)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from app.schemas.health import Health
from app.services.health import liveness, readiness

router = APIRouter(tags=["health"])


def _health(request: Request) -> Health:
    supervisor = getattr(request.app.state, "embedded_pg", None)
    llm = getattr(request.app.state, "llm_health", None)  # an LLM is configured
    return liveness(
        supervisor.state if supervisor is not None else None,
        llm.state() if llm is not None else None,
    )


@router.get(
    "/health",
    operation_id="health",
    response_model=Health,
    response_model_exclude_none=True,
    responses={
        503: {
            "model": Health,
            "description": "The embedded PostgreSQL is down and did not start again.",
        }
    },
)
async def health(request: Request) -> Any:
    """Liveness: `{"status": "ok"}` while the process serves requests (also to `HEAD`). It
    does not ask PostgreSQL or Redis — an outage of a datastore is `/ready`'s 503, and
    restarting this process would not fix it — except the embedded PostgreSQL (no
    DATABASE_URL), which this process owns: when it dies the service starts it again
    (`embedded_postgres: restarting`, then `up`; logged), and if that fails the answer is
    503 `unavailable` with `embedded_postgres: down`, so that a liveness probe restarts the
    service (docs/RELIABILITY.md). With an LLM configured, `llm` says whether it answered
    the last probe (asked in the background at most once a minute, never waited for here);
    an unreachable LLM is reported, not a failure."""
    body = _health(request)
    code = 200 if body.status == "ok" else 503
    return JSONResponse(body.model_dump(exclude_none=True), status_code=code)


@router.head("/health", include_in_schema=False)
async def health_head(request: Request) -> Response:
    """``HEAD /health`` (load balancers probe with it): the status of ``GET``, no body."""
    return Response(status_code=200 if _health(request).status == "ok" else 503)


@router.get(
    "/ready",
    operation_id="ready",
    responses={503: {"description": "A datastore does not answer."}},
)
async def ready(request: Request) -> Any:
    """Readiness: PostgreSQL (and Redis, when configured) answer. 503 with the failing check
    otherwise."""
    resources = request.app.state.resources
    checks = await readiness(
        request.app.state.engine, resources.redis, not resources.settings.redis_url
    )
    ok = all(v in ("ok", "in-process") for v in checks.values())
    return JSONResponse(
        {"status": "ok" if ok else "unavailable", "checks": checks}, status_code=200 if ok else 503
    )
