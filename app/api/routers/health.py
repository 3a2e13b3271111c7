"""``/health`` (the process is up) and ``/ready`` (its datastores answer)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.services.health import readiness

router = APIRouter(tags=["health"])


@router.get("/health", operation_id="health")
async def health() -> dict[str, str]:
    """Liveness: answers `{"status": "ok"}` while the process serves requests."""
    return {"status": "ok"}


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
