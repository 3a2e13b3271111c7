"""Windows that are behind their transcript: an append committed its messages to the
transcript (durable, the answer is 200 with their seqs), then Redis failed before they reached
the hot window.

Answering 503 there (as before issue 31) invited the client to retry, and the retry appended
the messages a second time. Instead the append answers 200 and the window is marked stale in
this process (:class:`StaleWindows`), and the missing messages are written to it:

- by a background retry as soon as Redis answers again (every ``retry_s``, for at most the
  window's idle TTL: after that the window would have expired anyway);
- or first by the next read or append of that session in this process, which writes them
  before reading (a read while Redis is still down is a 503, as every read then).

They are written only into a window that still exists (``WindowStore.add`` with
``only_if_exists``), keyed by seq (a message already there is not added twice): a window Redis
lost entirely, or one cleared meanwhile, is left to the transcript, from which the next read
or append restores it (app/services/working_memory/recovery.py) — that copy has these
messages too. Another API process reading the session before the repair lands sees the window
without them for that moment (at most ``retry_s`` after Redis is back, unless this process
stops first); the transcript, which extraction reads, has them in every case.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field

from app.core.errors import DatastoreUnavailableError
from app.repositories.working_memory.window import WindowEntry, WindowStore
from app.services.working_memory.embedding import WindowEmbeddings

log = logging.getLogger(__name__)


@dataclass
class _Pending:
    store: WindowStore
    entries: dict[int, WindowEntry] = field(default_factory=dict)
    since: float = field(default_factory=time.monotonic)


class StaleWindows:
    """The windows of this process that miss committed messages, and their repair."""

    def __init__(self, embeddings: WindowEmbeddings, retry_s: float = 0.25) -> None:
        self.embeddings = embeddings
        self.retry_s = retry_s
        self._pending: dict[tuple[str, str], _Pending] = {}
        self._task: asyncio.Task[None] | None = None

    def __len__(self) -> int:
        return len(self._pending)

    def mark(
        self, store: WindowStore, namespace: str, session_id: str, entries: list[WindowEntry]
    ) -> None:
        """Remember ``entries`` (committed to the transcript) as missing from the window, and
        make sure the background retry runs."""
        pending = self._pending.setdefault((namespace, session_id), _Pending(store))
        pending.entries.update((e.seq, e) for e in entries)
        log.warning(
            "hot window behind its transcript (Redis failed after the commit); %d message(s) "
            "to write back",
            len(pending.entries),
            extra={"session_id": session_id},
        )
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._retry())

    def discard(self, namespace: str, session_id: str) -> None:
        """Forget the session's missing entries (its window was cleared)."""
        self._pending.pop((namespace, session_id), None)

    async def refresh(self, namespace: str, session_id: str) -> None:
        """Write the session's missing entries into its window now, if any are marked.
        Raises DatastoreUnavailableError (and keeps them marked) when Redis still fails."""
        pending = self._pending.get((namespace, session_id))
        if pending is not None:
            await self._write(namespace, session_id, pending)

    async def _write(self, namespace: str, session_id: str, pending: _Pending) -> None:
        entries = sorted(pending.entries.values(), key=lambda e: e.seq)
        size = await pending.store.add(namespace, session_id, entries, None, only_if_exists=True)
        if self._pending.get((namespace, session_id)) is pending:
            del self._pending[(namespace, session_id)]
        if size.messages:  # the window existed: embed what was written
            self.embeddings.submit(pending.store, namespace, session_id, size.epoch, entries)

    async def _retry(self) -> None:
        while self._pending:
            await asyncio.sleep(self.retry_s)
            for key, pending in list(self._pending.items()):
                if time.monotonic() - pending.since > pending.store.ttl_ms / 1000.0:
                    self._pending.pop(key, None)  # the window would have expired by now
                    continue
                try:
                    await self._write(*key, pending)
                except DatastoreUnavailableError:
                    break  # still down: every session waits for the next round
                except Exception:  # pragma: no cover - never let the loop die
                    log.exception("writing a stale window back failed")

    async def close(self) -> None:
        """Stop the retry (the transcript keeps every message; windows left behind are
        restored from it when Redis lost them)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
