"""``/health`` (the process is up) and ``/ready`` (its datastores answer)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from app.repositories import health as health_repo

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
    checks: dict[str, str] = {}
    try:
        async with request.app.state.engine.connect() as conn:
            await health_repo.ping(conn)
        checks["postgres"] = "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        checks["postgres"] = f"error: {type(exc).__name__}"
    redis = getattr(request.app.state, "redis", None)
    if not request.app.state.settings.redis_url:
        checks["redis"] = "ok"  # the in-process store (REDIS_URL unset)
        checks["redis_mode"] = "in-process"
    elif redis is not None:
        try:
            await redis.ping()
            checks["redis"] = "ok"
        except Exception as exc:  # noqa: BLE001
            checks["redis"] = f"error: {type(exc).__name__}"
    ok = all(v in ("ok", "in-process") for v in checks.values())
    return JSONResponse(
        {"status": "ok" if ok else "unavailable", "checks": checks}, status_code=200 if ok else 503
    )
