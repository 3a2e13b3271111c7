"""Embeddings of window messages, computed after the append has answered.

An append writes its messages to the transcript and the hot window without vectors and
hands them to this process's :class:`WindowEmbeddings`: one background task embeds whatever
is pending in batches (everything that queued while the previous batch ran, up to
``WORKING_MEMORY__EMBED_BATCH``) and stores the vectors in the window
(:meth:`WindowStore.fill_vectors`). The append itself never waits for the embedding model.

Each message is embedded by its first window of at most ``LIMITS__TEXT_TOKENS`` model tokens
(:class:`MessageWindows`; the transcript and the window keep it whole), the same cut on every
path (background, read, rebuild), and a text queued twice is embedded once, as the append's
budget counts it (app/services/embedding_budget.py).

A read that ranks by relevance wants every message's vector.
:meth:`WindowEmbeddings.complete` gives it them: the read embeds itself, within its own
embedding budget (``LIMITS__REQUEST_TOKENS`` less its query's tokens, newest messages first),
the messages nobody here is embedding (another process or a process that died appended them,
a batch failed, or the window was rebuilt from the transcript), then queued ones, taken over.
The messages past its budget that this process's background is embedding or has queued after
their append were paid for by that append: the read waits for them (the queue takes them
first, as foreground work) until one deadline, ``WORKING_MEMORY__EMBED_WAIT_MS`` after the
read began, however many calls it makes. At the deadline, what is still missing is embedded
by the read if its budget still allows, and the rest is ranked without relevance (the answer
lists them) and left to the background task (queued if it was not). On shutdown
:meth:`WindowEmbeddings.close` drains the queue.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass, field

import numpy as np

from app.clients.embeddings import Embedder
from app.core.errors import DatastoreUnavailableError
from app.core.metrics import WM_EMBED_BACKLOG
from app.repositories.working_memory.window import WindowEntry, WindowStore
from app.services.working_memory.message_windows import (
    MessageWindows,
    WindowSpend,
    embed_windows,
)

log = logging.getLogger(__name__)

# (Redis meta key of the window, window epoch, seq): one message of one window incarnation.
Key = tuple[str, str, int]


@dataclass
class _Job:
    store: WindowStore
    namespace: str
    session_id: str
    epoch: str
    seq: int
    text: str
    # A read waits for it: its batch runs as foreground work (before background chunks,
    # on the foreground's team of threads).
    awaited: bool = False
    # Queued by an append (its budget paid for it), not by a read or a rebuild: a read
    # waits only for these.
    paid: bool = True
    # The vector, or None when embedding failed (readers then embed it themselves).
    done: asyncio.Future[np.ndarray | None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


def _key(store: WindowStore, namespace: str, session_id: str, epoch: str, seq: int) -> Key:
    return (store.keys(namespace, session_id)[3], epoch, seq)


def _resolve(job: _Job, vector: np.ndarray | None) -> None:
    if not job.done.done():
        job.done.set_result(vector)


class WindowEmbeddings:
    """The process's queue of window messages waiting for their embedding, and the one
    background task that works it off (started by the first :meth:`submit`)."""

    def __init__(
        self,
        embedder: Embedder | None,
        batch_size: int = 16,
        windows: MessageWindows | None = None,
    ) -> None:
        self.embedder = embedder
        self.batch_size = batch_size
        # Without one: the embedder's own tokenizer (the bundled model's), cut to 384 tokens.
        self.windows = windows or MessageWindows(getattr(embedder, "tokens", None))
        self._pending: dict[Key, _Job] = {}  # insertion order = embedding order
        self._running: dict[Key, _Job] = {}
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.failed_batches = 0

    @property
    def backlog(self) -> int:
        """Messages queued or being embedded."""
        return len(self._pending) + len(self._running)

    def submit(
        self,
        store: WindowStore,
        namespace: str,
        session_id: str,
        epoch: str,
        entries: list[WindowEntry],
        paid: bool = True,
    ) -> int:
        """Queue the entries that have no vector yet (already queued ones once); returns
        how many were queued. ``paid``: an append's (whose embedding budget counted them),
        which reads wait for; else a read's or a rebuild's leftovers, which they do not.
        Never waits."""
        if self.embedder is None:
            return 0
        added = 0
        for e in entries:
            if e.embedding is not None:
                continue
            key = _key(store, namespace, session_id, epoch, e.seq)
            if key in self._pending or key in self._running:
                continue
            self._pending[key] = _Job(
                store, namespace, session_id, epoch, e.seq, e.content, paid=paid
            )
            added += 1
        if added:
            WM_EMBED_BACKLOG.set(self.backlog)
            self._ensure_task()
            assert self._wake is not None
            self._wake.set()
        return added

    def _ensure_task(self) -> None:
        if self._task is None or self._task.done():
            self._wake = asyncio.Event()
            self._task = asyncio.get_running_loop().create_task(
                self._work(), name="working-memory embeddings"
            )

    async def _work(self) -> None:
        assert self._wake is not None
        while True:
            await self._wake.wait()
            self._wake.clear()
            while self._pending:
                await self._one_batch()

    async def _one_batch(self) -> None:
        keys = list(self._pending)[: self.batch_size]
        # Queued messages of the same text join the batch: a text is embedded once.
        texts = {self._pending[k].text for k in keys}
        keys += [
            k for k in list(self._pending)[self.batch_size :] if self._pending[k].text in texts
        ]
        batch = [self._pending.pop(k) for k in keys]
        self._running.update(zip(keys, batch, strict=True))
        try:
            assert self.embedder is not None
            # A batch a read waits for is that read's work (paid for by its appends).
            background = not any(j.awaited for j in batch)
            try:
                vectors = await embed_windows(
                    self.embedder, self.windows, [j.text for j in batch], background=background
                )
            except Exception:  # noqa: BLE001 - the reads embed what is missing themselves
                self.failed_batches += 1
                log.warning(
                    "embedding %d window message(s) failed; reads will embed them",
                    len(batch),
                    exc_info=True,
                )
                for job in batch:
                    _resolve(job, None)
                return
            for job, vector in zip(batch, vectors, strict=True):
                _resolve(job, vector)
            await _store(batch, list(vectors))
        finally:
            for k in keys:
                self._running.pop(k, None)
            WM_EMBED_BACKLOG.set(self.backlog)

    async def complete(
        self,
        embedder: Embedder,
        deadline: float,
        store: WindowStore,
        namespace: str,
        session_id: str,
        epoch: str | None,
        entries: list[WindowEntry],
        budget_tokens: int | None = None,
    ) -> dict[int, np.ndarray]:
        """Vectors (seq → vector) for the entries that have none. The read embeds some itself
        with ``embedder``, as far as ``budget_tokens`` goes (model tokens of first windows,
        each distinct text once, newest messages first; None: no bound): first those nobody
        here is embedding (another process appended them, or a batch failed, or the window
        was rebuilt: queued by a read or a rebuild), then ones queued by their append, taken
        over. The others this process's background is embedding or has queued after their
        append were paid for by that append: the read waits for them until
        ``deadline`` (the event loop's clock; one deadline for the whole read, however many
        calls it makes), and the queue takes this session's jobs first meanwhile (oldest first:
        the read embeds the newest itself). At the
        deadline, those still missing are embedded here if the budget still allows (whichever
        answers first, that batch or ours, is used); the rest get no vector here (ranked
        without relevance) and stay with the background task (queued if they were not). What
        this read embedded is stored in the window. Raises ProviderError when its own
        embedding fails; a failing Redis write is only logged (the read has its vectors)."""
        missing = [e for e in entries if e.embedding is None]
        if not missing:
            return {}
        loop = asyncio.get_running_loop()
        running: set[int] = set()
        queued: set[int] = set()
        if epoch is not None:
            for e in missing:
                key = _key(store, namespace, session_id, epoch, e.seq)
                if key in self._running:
                    running.add(e.seq)
                elif key in self._pending and self._pending[key].paid:
                    queued.add(e.seq)
        spend = WindowSpend(budget_tokens, self.windows)
        # Newest first: recency ranks them higher, so their relevance matters most. Those
        # nobody here embeds first: the background would not get to them during this read.
        newest = list(reversed(missing))
        orphans = [e for e in newest if e.seq not in running and e.seq not in queued]
        first = await spend.take(orphans + [e for e in newest if e.seq in queued])
        mine = {e.seq for e in first}
        taken: dict[int, _Job] = {}
        waiting: dict[int, _Job] = {}
        if epoch is not None:
            for e in newest:
                key = _key(store, namespace, session_id, epoch, e.seq)
                if e.seq in mine and key in self._pending:
                    taken[e.seq] = self._pending.pop(key)
                elif e.seq in running:
                    waiting[e.seq] = self._running[key]
                elif e.seq in queued:
                    waiting[e.seq] = self._pending[key]
            # In append order: the read embeds the newest itself, the queue the oldest.
            self._first(
                [
                    _key(store, namespace, session_id, epoch, e.seq)
                    for e in missing
                    if e.seq in waiting and e.seq in queued
                ]
            )
            if taken:
                WM_EMBED_BACKLOG.set(self.backlog)
        got: dict[int, np.ndarray] = {}
        own: dict[int, np.ndarray] = {}
        tasks: list[asyncio.Future[list[np.ndarray]]] = []
        try:
            first_task = self._embed(embedder, first, tasks)
            if waiting:
                timeout = deadline - loop.time()
                if timeout > 0:
                    await asyncio.wait({j.done for j in waiting.values()}, timeout=timeout)
                _collect(waiting, got)
                late = await spend.take(
                    [e for e in newest if e.seq in waiting and e.seq not in got]
                )
                if late:
                    assert epoch is not None
                    for e in late:  # still queued: taken over
                        key = _key(store, namespace, session_id, epoch, e.seq)
                        if key in self._pending:
                            taken[e.seq] = self._pending.pop(key)
                    late_task = self._embed(embedder, late, tasks)
                    assert late_task is not None
                    while not late_task.done() and any(
                        not waiting[e.seq].done.done() for e in late if e.seq not in taken
                    ):
                        racing = {
                            waiting[e.seq].done
                            for e in late
                            if e.seq not in taken and not waiting[e.seq].done.done()
                        } | {late_task}
                        await asyncio.wait(racing, return_when=asyncio.FIRST_COMPLETED)
                        _collect(waiting, got)
                    _collect(waiting, got)
                    if any(e.seq not in got for e in late):
                        own.update(zip((e.seq for e in late), await late_task, strict=True))
            if first_task is not None:
                own.update(zip((e.seq for e in first), await first_task, strict=True))
        finally:
            for task in tasks:  # one that lost the race, or that is left after an error
                task.add_done_callback(_forget)
            for seq, job in taken.items():
                _resolve(job, own.get(seq))
        got.update(own)
        if epoch is not None:
            # Past the budget and nobody embedding them (another process appended them, or
            # a batch failed): the background task does, for the next read.
            left = [e for e in missing if e.seq not in got]
            if left:
                self.submit(store, namespace, session_id, epoch, left, paid=False)
            if own:
                try:
                    await store.fill_vectors(namespace, session_id, epoch, own)
                except DatastoreUnavailableError as exc:
                    log.warning("could not store window embeddings: %s", exc.detail)
        return got

    def _first(self, keys: list[Key]) -> None:
        """Move these queued jobs to the front of the queue (a read waits for them), in
        the order given; the next batch takes them first, as foreground work."""
        front = {k: self._pending[k] for k in keys if k in self._pending}
        for job in front.values():
            job.awaited = True
        if front:
            self._pending = front | {k: j for k, j in self._pending.items() if k not in front}

    def _embed(
        self,
        embedder: Embedder,
        entries: list[WindowEntry],
        tasks: list[asyncio.Future[list[np.ndarray]]],
    ) -> asyncio.Future[list[np.ndarray]] | None:
        """Start embedding ``entries`` (None when there are none); the task joins ``tasks``."""
        if not entries:
            return None
        task = asyncio.ensure_future(
            embed_windows(embedder, self.windows, [e.content for e in entries])
        )
        tasks.append(task)
        return task

    async def close(self, timeout_s: float) -> int:
        """Drain: let the background task embed and store everything queued, for at most
        ``timeout_s`` seconds, then stop it. Returns the messages left unembedded (their
        vectors are computed by the first read that needs them)."""
        deadline = asyncio.get_running_loop().time() + timeout_s
        while self.backlog and self._task is not None and not self._task.done():
            if asyncio.get_running_loop().time() >= deadline:
                break
            await asyncio.sleep(0.01)
        left = self.backlog
        if left:
            log.warning("shutdown: %d window message(s) left without embedding", left)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for job in [*self._pending.values(), *self._running.values()]:
            _resolve(job, None)
        self._pending.clear()
        self._running.clear()
        WM_EMBED_BACKLOG.set(0)
        return left


def _collect(waiting: dict[int, _Job], got: dict[int, np.ndarray]) -> None:
    """Vectors the background batches have delivered for the waited-for seqs."""
    for seq, job in waiting.items():
        vector = job.done.result() if job.done.done() else None
        if vector is not None:
            got[seq] = vector


def _forget(task: asyncio.Future[list[np.ndarray]]) -> None:
    """Retrieve the outcome of an embedding nobody waits for any more."""
    if not task.cancelled():
        task.exception()


async def _store(batch: list[_Job], vectors: list[np.ndarray]) -> None:
    """Write a batch's vectors, one Redis call per window."""
    groups: dict[tuple[int, str, str, str], tuple[WindowStore, dict[int, np.ndarray]]] = {}
    for job, vector in zip(batch, vectors, strict=True):
        gkey = (id(job.store), job.namespace, job.session_id, job.epoch)
        groups.setdefault(gkey, (job.store, {}))[1][job.seq] = vector
    for (_, namespace, session_id, epoch), (store, by_seq) in groups.items():
        try:
            await store.fill_vectors(namespace, session_id, epoch, by_seq)
        except DatastoreUnavailableError as exc:
            log.warning("could not store window embeddings (reads will embed): %s", exc.detail)
