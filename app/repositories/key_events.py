"""Key changes pushed to every API process: a dedicated asyncpg connection LISTENs on the
channel that creating or revoking a key notifies (app/repositories/api_keys.py) and calls
``on_change`` for each notification.

If that connection is lost (a database restart), notifications sent meanwhile are lost with
it: ``on_change`` is called once more when it is back (the cache is dropped), and until then
cached lookups still expire after ``AUTH__CACHE_TTL_S``. Any error reconnects (with backoff):
an error type asyncpg raises while the server goes away (``InternalClientError`` among them)
once ended the listener for good, and with it the promise that a revoked key stops working
everywhere at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import asyncpg

from app.core.db import asyncpg_dsn
from app.repositories.api_keys import KEYS_CHANNEL

log = logging.getLogger(__name__)


class KeyChangeListener:
    """``await start()``; ``await stop()``. Reconnects with backoff (at most 4 s)."""

    def __init__(self, database_url: str, on_change: Callable[[], None]) -> None:
        self.dsn = asyncpg_dsn(database_url)
        self.on_change = on_change
        self._task: asyncio.Task[None] | None = None
        self.connected = asyncio.Event()

    async def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="hindsight-key-events")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _notified(self, *_: object) -> None:
        self.on_change()

    async def _run(self) -> None:
        delay = 0.5
        while True:
            lost = asyncio.Event()
            try:
                conn = await asyncpg.connect(self.dsn, timeout=5)
            except Exception as exc:  # noqa: BLE001 - whatever it is, the listener retries
                log.warning("key-change listener cannot connect (%r); retrying", exc)
                await asyncio.sleep(delay)
                delay = min(4.0, delay * 2)
                continue
            try:
                conn.add_termination_listener(lambda _conn, lost=lost: lost.set())
                await conn.add_listener(KEYS_CHANNEL, self._notified)
                self.on_change()  # whatever changed while we were not listening
                self.connected.set()
                delay = 0.5
                await lost.wait()
                log.warning("key-change listener lost its connection; reconnecting")
            except Exception as exc:  # noqa: BLE001 - never die: no more key changes
                log.warning("key-change listener failed (%r); reconnecting", exc)
            finally:
                self.connected.clear()
                with contextlib.suppress(Exception):
                    await conn.close(timeout=2)
            await asyncio.sleep(delay)
