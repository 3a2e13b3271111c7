"""A revoked API key stops working in every API process at once, not after the lookup
cache's TTL: revoking notifies (PostgreSQL NOTIFY) and each process drops its cache."""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime

import httpx
from asgi_lifespan import LifespanManager

from app.core.config import AuthSettings, Settings
from app.core.db import create_session_factory
from app.main import create_app
from app.repositories.api_keys import ApiKeyRepository
from app.services.auth import KeyAdminService


async def test_revoked_key_stops_working_in_every_process_at_once(settings: Settings, engine):
    # An hour of caching: only the notification can make the revocation visible this soon.
    cached = settings.model_copy(update={"auth": AuthSettings(required="true", cache_ttl_s=3600)})
    apps = [create_app(cached), create_app(cached)]
    async with LifespanManager(apps[0], startup_timeout=60), LifespanManager(apps[1]):
        for app in apps:
            await asyncio.wait_for(app.state.key_events.connected.wait(), 10)
        async with create_session_factory(engine)() as session, session.begin():
            created = await KeyAdminService(ApiKeyRepository(session)).create("ns-revoke")
        headers = {"Authorization": f"Bearer {created.key}"}
        clients = [
            httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t")
            for app in apps
        ]
        try:
            body = {"query": "anything", "user_id": "u"}
            for client in clients:  # both processes now have the key cached as valid
                assert (await client.post("/recall", json=body, headers=headers)).status_code == 200
            async with create_session_factory(engine)() as session, session.begin():
                await KeyAdminService(ApiKeyRepository(session)).revoke(
                    created.row.prefix, datetime.now(UTC)
                )
            revoked_at = time.monotonic()
            for client in clients:
                while True:
                    r = await client.post("/recall", json=body, headers=headers)
                    if r.status_code == 401 or time.monotonic() - revoked_at > 2:
                        break
                    await asyncio.sleep(0.02)
                assert r.status_code == 401, r.text
                assert r.json()["code"] == "invalid_api_key"
            assert time.monotonic() - revoked_at < 2
        finally:
            for client in clients:
                await client.aclose()
