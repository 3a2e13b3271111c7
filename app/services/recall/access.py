"""The access log of recalls answered by the API, written after the answer, in batches.

A recall logs which units it returned (app.repositories.memory.access_log: one row per unit,
and a unit about to expire extended). On the request's path that statement was the last round
trip before the answer (~1.1 ms p50 at LoCoMo size, issue 29), and written right after the
answer it ran while the client's next recall embedded its question (that embedding +0.8-1.1
ms p50, 2 cores). So the API's RecallService (``defer_access``) leaves it in
``RecallResult.access``, the router hands it to :meth:`AccessLog.add` (a background task of
the response: it runs once the answer is sent) and :class:`AccessLog`, one per process,
writes what has gathered every ``RECALL__ACCESS_LOG_DELAY_MS`` (one statement and one commit
for all of it, in a transaction of its own; 0: each access at once, after its answer).

Not lost to a passing failure: a write that fails on a database or connection error is tried
again, up to :data:`ATTEMPTS` times with a short wait; only then is it logged as lost. The
API's shutdown writes what is still waiting (:meth:`AccessLog.close`). As before, the commit
does not wait for the WAL flush (``ASYNC_COMMIT``): a crash of PostgreSQL or of the machine
can lose the accesses of the last ~0.6 s plus the delay, never anything else.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from app.repositories.recall.repository import RecallRepository

log = logging.getLogger("hindsight.recall")


@dataclass(frozen=True)
class Access:
    """A recall's access to log (``RecallRepository.record_access``): its hits, the wall
    clock of the recall and how far an expiring hit is extended (None: not)."""

    ids: list[uuid.UUID]
    at: datetime
    extend_to: datetime | None


ATTEMPTS = 3
RETRY_WAIT_S = 0.05  # doubled after each failed attempt


class AccessLog:
    """Writes recalls' access logs with sessions of ``sessions``: what :meth:`add` gathered,
    ``delay_s`` after the first of it (0: at once), in one transaction."""

    def __init__(self, sessions: async_sessionmaker[AsyncSession], delay_s: float = 0.0) -> None:
        self.sessions = sessions
        self.delay_s = delay_s
        self._pending: list[Access] = []
        self._timer: asyncio.Task[bool] | None = None
        self._sleeping = False  # the timer waits for its delay (not writing yet)

    @property
    def pending(self) -> int:
        """Accesses gathered and not written yet."""
        return len(self._pending)

    async def add(self, access: Access) -> None:
        """Log ``access``: at once without a delay, else with what gathers until it is up."""
        if self.delay_s <= 0:
            await self.write([access])
            return
        self._pending.append(access)
        if self._timer is None or self._timer.done():
            self._timer = asyncio.create_task(self._flush_later())

    async def _flush_later(self) -> bool:
        # Accesses added while a write is under way wait for the next round, not for the
        # next recall.
        written = True
        while True:
            self._sleeping = True
            try:
                await asyncio.sleep(self.delay_s)
            finally:
                self._sleeping = False
            written = await self.flush() and written
            if not self._pending:
                return written

    async def flush(self) -> bool:
        """Write every access gathered so far now; True when written (or none waited)."""
        batch, self._pending = self._pending, []
        return await self.write(batch) if batch else True

    async def close(self, timeout_s: float | None = None) -> None:
        """Write what is still waiting (the process is stopping). A write already under way
        is waited for, never cancelled (its batch has left the queue), for at most
        ``timeout_s`` seconds in all (None: no bound); past it, what is unwritten is logged
        as lost."""
        try:
            await asyncio.wait_for(self._close(), timeout_s)
        except TimeoutError:
            log.error("recall access log: shutdown after %.1f s with writes unfinished", timeout_s)

    async def _close(self) -> None:
        timer, self._timer = self._timer, None
        if timer is not None and not timer.done():
            if self._sleeping:
                timer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await timer
        await self.flush()

    async def write(self, accesses: Sequence[Access]) -> bool:
        """Log ``accesses`` in one transaction (one statement); True once written, False
        when every attempt failed (logged)."""
        for attempt in range(ATTEMPTS):
            try:
                async with self.sessions() as session, session.begin():
                    await RecallRepository(session).record_accesses(
                        [(a.ids, a.at, a.extend_to) for a in accesses]
                    )
                return True
            except (SQLAlchemyError, OSError) as exc:
                if attempt + 1 == ATTEMPTS:
                    log.error(
                        "recall access log lost after %d attempts: %s (%d recalls, %d units)",
                        ATTEMPTS,
                        exc,
                        len(accesses),
                        sum(len(a.ids) for a in accesses),
                    )
                    return False
                await asyncio.sleep(RETRY_WAIT_S * 2**attempt)
        return False
