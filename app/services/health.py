"""Is the service able to serve? The start-up schema check, the readiness checks of
``/ready``, the LLM's reachability ``/health`` reports, and the job counts behind the
``hindsight_jobs`` gauge of ``/metrics``."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable

from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from app.core.errors import ConfigurationError
from app.core.vectors import storage_for
from app.repositories import health as health_repo
from app.repositories import metrics as metrics_repo
from app.schemas.health import Health

log = logging.getLogger(__name__)


async def check_schema(engine: AsyncEngine, embedding_dimension: int) -> None:
    """Refuse to start (ConfigurationError) when the database is not migrated or its vectors
    have another dimension (or storage) than the configured embedding model; log which
    storage and search the embeddings get (app/core/vectors.py)."""
    async with engine.connect() as conn:
        stored = await health_repo.vector_storage(conn)
    if stored is None:
        raise ConfigurationError(
            "the database has no memory_units table: run `hindsight migrate` first"
        )
    dim = stored.dimension
    if dim != embedding_dimension:
        raise ConfigurationError(
            f"embedding dimension mismatch: the database stores {dim}-d vectors but the "
            f"configured model makes {embedding_dimension}-d ones. Either set "
            f"EMBEDDING__DIMENSION={dim} with a model of that size, or re-embed the store "
            f"into a new database migrated with EMBEDDING__DIMENSION={embedding_dimension}."
        )
    expected = storage_for(dim)
    if stored != expected:
        raise ConfigurationError(
            f"the database stores {dim}-d embeddings as {stored.kind} "
            f"({'with' if stored.indexed else 'without'} an HNSW index) but this version "
            f"needs {expected.kind} ({'with' if expected.indexed else 'without'} one): "
            "re-embed the store into a new database migrated by this version"
        )
    log.info("%s", stored.describe())


def liveness(embedded_postgres: str | None, llm: str | None = None) -> Health:
    """``/health``: ``ok`` unless the embedded PostgreSQL this process owns is ``down`` (its
    supervisor gave up restarting it, app/core/embedded_supervisor.py); None: no embedded
    server (DATABASE_URL), whose outages are readiness's, not liveness's. ``llm``: the
    configured LLM's reachability (:class:`LLMReachability`), reported, never a failure
    (the service serves without it: jobs retry, a rerank falls back)."""
    status = "unavailable" if embedded_postgres == "down" else "ok"
    return Health.model_validate(
        {"status": status, "embedded_postgres": embedded_postgres, "llm": llm}
    )


# How old the LLM probe's answer may be before /health asks again (in the background).
LLM_PROBE_TTL_S = 60.0


class LLMReachability:
    """The configured LLM's reachability as ``/health`` reports it: the last probe's answer
    (``checking`` until the first ends). A read older than ``ttl_s`` starts the next probe
    in the background and answers the last one, so neither the start-up nor a ``/health``
    ever waits for the LLM, and it is asked at most once per ``ttl_s`` whatever the traffic
    (a probe that fails is an answer too: ``unreachable``)."""

    def __init__(
        self,
        probe: Callable[[], Awaitable[str]],
        ttl_s: float = LLM_PROBE_TTL_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._probe = probe
        self._ttl_s = ttl_s
        self._clock = clock
        self._state = "checking"
        self._at: float | None = None
        self._task: asyncio.Task[None] | None = None

    def state(self) -> str:
        """The last answer; starts a probe when there is none yet or it is stale."""
        stale = self._at is None or self._clock() - self._at >= self._ttl_s
        if stale and self._task is None:
            self._task = asyncio.create_task(self._refresh())
        return self._state

    async def _refresh(self) -> None:
        try:
            state = await self._probe()
        except Exception as exc:  # noqa: BLE001 - a probe that fails is an answer
            log.warning("LLM probe failed: %s", exc)
            state = "unreachable"
        if state != self._state and state != "reachable":
            log.warning("the LLM is %s (LLM__BASE_URL): extraction jobs will retry", state)
        self._state, self._at, self._task = state, self._clock(), None

    async def close(self) -> None:
        """Cancel a probe still running (shutdown)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


async def readiness(
    engine: AsyncEngine, redis: Redis | None, redis_in_process: bool
) -> dict[str, str]:
    """One entry per datastore: ``"ok"`` or ``"error: <exception type>"``; with the
    in-process Redis stand-in (``REDIS_URL`` unset) also ``redis_mode: in-process``."""
    checks: dict[str, str] = {}
    try:
        async with engine.connect() as conn:
            await health_repo.ping(conn)
        checks["postgres"] = "ok"
    except Exception as exc:  # noqa: BLE001 - any failure means not ready
        checks["postgres"] = f"error: {type(exc).__name__}"
    if redis_in_process:
        checks["redis"] = "ok"
        checks["redis_mode"] = "in-process"
    elif redis is not None:
        try:
            await redis.ping()
            checks["redis"] = "ok"
        except Exception as exc:  # noqa: BLE001
            checks["redis"] = f"error: {type(exc).__name__}"
    return checks


async def job_counts(session_factory: async_sessionmaker[AsyncSession]) -> dict[str, int] | None:
    """Extraction jobs per status across every namespace, or None when the database does
    not answer (a scrape must still answer)."""
    try:
        async with session_factory() as session:
            return await metrics_repo.job_counts(session)
    except Exception as exc:  # noqa: BLE001
        log.warning("could not read job counts: %s", exc)
        return None
