"""Start-up refuses a misconfigured service with an error that says what to do, and the
schema (Alembic migrations) matches the models (``alembic check``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from asgi_lifespan import LifespanManager

from alembic import command
from app.core.config import EmbeddingSettings, Settings
from app.core.errors import ConfigurationError
from app.core.migrate import alembic_config
from app.main import create_app
from tests.conftest import new_database


async def start(settings: Settings) -> None:
    app = create_app(settings)
    async with LifespanManager(app, startup_timeout=60):
        pass


async def test_dimension_mismatch_is_a_clear_error(settings: Settings):
    # An OpenAI-compatible model of 768 dimensions against a store migrated for 384.
    wrong = settings.model_copy(
        update={
            "embedding": EmbeddingSettings(
                provider="openai",
                model="text-embedding-768",
                dimension=768,
                base_url="http://127.0.0.1:9/v1",  # never called: start-up fails first
            )
        }
    )
    with pytest.raises(ConfigurationError) as caught:
        await start(wrong)
    message = str(caught.value)
    assert "dimension mismatch" in message
    assert "384" in message and "768" in message
    # It says what to do: the setting to change, or re-embed into a new database.
    assert "EMBEDDING__DIMENSION=384" in message
    assert "re-embed" in message


async def test_bundled_model_with_another_dimension_is_a_clear_error(settings: Settings):
    wrong = settings.model_copy(update={"embedding": EmbeddingSettings(dimension=768)})
    with pytest.raises(ConfigurationError, match="EMBEDDING__DIMENSION=384"):
        await start(wrong)


async def test_missing_database_url_is_a_clear_error(settings: Settings):
    with pytest.raises(ConfigurationError, match="DATABASE_URL"):
        await start(settings.model_copy(update={"database_url": None}))


@pytest.fixture
async def empty_database(engine, database_url: str) -> AsyncIterator[str]:
    """A new, unmigrated database on the test server."""
    async with new_database(engine, database_url, "empty") as url:
        yield url


async def test_unmigrated_database_is_a_clear_error(settings: Settings, empty_database: str):
    with pytest.raises(ConfigurationError, match="hindsight migrate"):
        await start(settings.model_copy(update={"database_url": empty_database}))


async def test_the_configured_service_starts(settings: Settings):
    app = create_app(settings)
    async with LifespanManager(app, startup_timeout=60):
        assert app.state.resources.embedder.dimension == 384


def test_alembic_check_is_clean(database_url: str):
    """The migrated schema and the SQLAlchemy models agree: no pending autogenerate ops.
    (Sync test: Alembic's env runs its own event loop.)"""
    command.check(alembic_config(database_url))


async def test_create_app_governs_the_request_limits(settings):
    # LIMITS__* come from the settings create_app is given: the OpenAPI document shows them
    # and requests are validated with them, while an app with default settings keeps its own.
    from app.core.config import LimitsSettings

    small = create_app(settings.model_copy(update={"limits": LimitsSettings(value_chars=10)}))
    value = small.openapi()["components"]["schemas"]["MemoryCreate"]["properties"]["value"]
    assert value["maxLength"] == 10
    default = create_app(settings).openapi()["components"]["schemas"]["MemoryCreate"]
    assert default["properties"]["value"]["maxLength"] == 2000

    body = {"memories": [{"user_id": "u1", "value": "eleven char"}]}
    async with LifespanManager(small, startup_timeout=60):
        transport = httpx.ASGITransport(app=small)
        async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
            r = await client.post("/store", json=body)
    assert r.status_code == 422, r.text
    assert "at most 10" in r.text


async def test_the_start_up_line_says_keys_are_required_once_one_exists(
    settings: Settings, database_url: str, make_api_key
):
    """Tester finding T18: after `hindsight keys create` the line said "not required while
    none exists" while keyless calls got 401."""
    import asyncio

    from app.cli.keys import active_keys
    from app.cli.main import auth_mode
    from app.core.config import AuthSettings

    loopback = settings.model_copy(update={"listen_host": "127.0.0.1"})
    assert await asyncio.to_thread(active_keys, database_url) == 0
    assert auth_mode(loopback, 0).startswith("API keys: not required while none exists")
    await make_api_key("default", "me")
    keys = await asyncio.to_thread(active_keys, database_url)
    assert keys == 1
    assert auth_mode(loopback, keys).startswith("API keys: required (1 active key;")
    public = settings.model_copy(update={"listen_host": "0.0.0.0"})
    assert "every request is a 401" in auth_mode(public, 0)
    assert "every request is a 401" not in auth_mode(public, 2)
    off = loopback.model_copy(update={"auth": AuthSettings(required="false")})
    assert auth_mode(off, keys).startswith("API keys: not required (AUTH__REQUIRED=false)")
