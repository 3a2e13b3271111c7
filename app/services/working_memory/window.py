"""Working memory (docs/WORKING_MEMORY.md): append messages, read the window for a budget, clear.

Write order, so the hot window never holds a message the transcript lacks: the messages are
counted first (nothing written yet), Redis is asked whether the window exists (down: 503,
nothing written; missing although the session is live: its messages are restored with this
append, app/services/working_memory/recovery.py), then their seqs are taken and the rows
written in the request's transaction, and only once that transaction has committed are they
added to the Redis window (through ``after_commit``) and queued for their embedding, which
the append does not wait for (app/services/working_memory/embedding.py). If Redis fails in
between, the transcript still has every message (the durable copy) and the append answers
200: the window is marked stale and its messages are written back when Redis answers
(app/services/working_memory/stale.py); the window is a cache of the transcript's newest part.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field, replace
from datetime import datetime

import numpy as np

from app.clients.embeddings import Embedder
from app.clients.tokenizer import Tokenizer, create_tokenizer
from app.core.config import WorkingMemorySettings
from app.core.errors import DatastoreUnavailableError
from app.repositories.working_memory.transcript import TranscriptRepository, TranscriptRow
from app.repositories.working_memory.window import (
    WindowCache,
    WindowEntry,
    WindowSnapshot,
    WindowStore,
)
from app.schemas.working_memory import MessageCreate
from app.services.recall.query_embeddings import QueryEmbeddingCache
from app.services.session_owner import check_owner, check_scope
from app.services.working_memory.after_commit import AfterCommit
from app.services.working_memory.embedding import WindowEmbeddings
from app.services.working_memory.message_windows import MessageWindows
from app.services.working_memory.ranking import (
    Selection,
    Weights,
    information_density,
    rank,
    select,
)
from app.services.working_memory.recovery import rebuild_window, restorable
from app.services.working_memory.stale import StaleWindows
from app.services.working_memory.standing import is_filler, standing_kind


@dataclass
class WorkingMemoryRuntime:
    """Process-wide pieces of working memory, created once at start-up: the tokenizer,
    the caches, and the queue of messages waiting for their embedding (drained by
    :meth:`close` on shutdown)."""

    tokenizer: Tokenizer
    query_embeddings: QueryEmbeddingCache
    windows: WindowCache
    embeddings: WindowEmbeddings
    stale: StaleWindows

    @classmethod
    def create(
        cls,
        settings: WorkingMemorySettings,
        embedder: Embedder | None = None,
        query_embeddings: QueryEmbeddingCache | None = None,
        windows: MessageWindows | None = None,
    ) -> WorkingMemoryRuntime:
        """Load the tokenizer (bundled BPE files); an empty window cache; an embedding
        queue on ``embedder`` (None: appends are embedded by the reads), each message
        embedded by its first window as ``windows`` cuts it (default: the embedder's own
        tokenizer, ``LIMITS__TEXT_TOKENS``' default). ``query_embeddings`` is the process's
        one query-embedding cache, shared with recall (None: nothing is cached). No stale
        window."""
        embeddings = WindowEmbeddings(embedder, settings.embed_batch, windows)
        return cls(
            create_tokenizer(settings.encoding),
            query_embeddings if query_embeddings is not None else QueryEmbeddingCache(0),
            WindowCache(settings.window_cache_sessions),
            embeddings,
            StaleWindows(embeddings),
        )

    async def close(self, timeout_s: float) -> int:
        """Drain the embedding queue for at most ``timeout_s`` seconds; returns the
        messages left unembedded (the first read that needs them embeds them); stop writing
        stale windows back (app/services/working_memory/stale.py)."""
        await self.stale.close()
        return await self.embeddings.close(timeout_s)


@dataclass(frozen=True)
class AppendResult:
    """Seqs and token counts of the appended messages, the session's totals, and whether
    this append gave the session its owner."""

    seqs: list[int]
    tokens: list[int]
    session_messages: int
    session_tokens: int
    owner_changed: bool = False


@dataclass(frozen=True)
class WindowResult:
    """A window read: the selection, the budget and the window it came from."""

    selection: Selection
    budget_tokens: int
    window_messages: int
    owner: str | None
    took_ms: float
    # Seqs ranked for the query without their vector (past the read's embedding budget).
    unembedded_seqs: list[int] = field(default_factory=list)


@dataclass(frozen=True)
class ClearResult:
    """What a clear removed."""

    window_cleared: bool
    transcript_purged: int


class WorkingMemoryService:
    """Working memory of one namespace's sessions; collaborators are passed in."""

    def __init__(
        self,
        transcript: TranscriptRepository,
        window: WindowStore,
        embedder: Embedder,
        runtime: WorkingMemoryRuntime,
        settings: WorkingMemorySettings,
        after_commit: AfterCommit,
    ) -> None:
        self.transcript = transcript
        self.window_store = window
        self.embedder = embedder
        self.tokenizer = runtime.tokenizer
        self.query_embeddings = runtime.query_embeddings
        self.embeddings = runtime.embeddings
        self.stale = runtime.stale
        self.settings = settings
        self.after_commit = after_commit

    def budget_for(self, max_tokens: int | None) -> int:
        """Tokens usable for messages out of ``max_tokens`` (default from settings), after
        the headroom left for the model's answer (20% by default, docs/WORKING_MEMORY.md)."""
        total = max_tokens if max_tokens is not None else self.settings.default_max_tokens
        return math.floor(total * (1.0 - self.settings.headroom))

    async def _count(self, texts: list[str]) -> list[int]:
        if sum(len(t) for t in texts) > 20_000:
            return await asyncio.to_thread(self.tokenizer.count_many, texts)
        return self.tokenizer.count_many(texts)

    async def append(
        self,
        namespace: str,
        session_id: str,
        messages: list[MessageCreate],
        now: datetime,
        scope: str | None = None,
    ) -> AppendResult:
        """Record messages in the transcript (this transaction) and, after commit, in the
        window, without embeddings (queued, computed after the answer: embedding.py). Raises
        DatastoreUnavailableError when Redis is down before the transcript is written,
        NotFoundError when the session is another user's than ``scope``, ConflictError for
        another user's message (session_owner.py): nothing written. Redis failing after the
        commit marks the window stale (written back when Redis answers: stale.py)."""
        contents = [m.content for m in messages]
        tokens = await self._count(contents)
        first_windows = await self.embeddings.windows.first_windows(contents)
        restored = await self._restore_if_lost(namespace, session_id, now)
        owner = next((m.user_id for m in messages if m.user_id), None)
        block = await self.transcript.allocate(
            namespace, session_id, len(messages), sum(tokens), owner
        )
        # 404 / 409: nothing written (the transaction rolls back, seqs included).
        check_owner(session_id, block.owner, messages, scope, block.previous_owner)
        rows = [
            TranscriptRow(
                seq=block.first_seq + i,
                role=m.role,
                content=m.content,
                user_id=m.user_id,
                created_at=m.created_at or now,
                metadata=m.stored_metadata(),
                token_count=tokens[i],
            )
            for i, m in enumerate(messages)
        ]
        await self.transcript.insert(namespace, session_id, rows)
        entries = [
            WindowEntry(
                seq=r.seq,
                role=r.role,
                content=r.content,
                created_at=r.created_at,
                user_id=r.user_id,
                metadata=r.metadata,
                tokens=r.token_count,
                density=information_density(r.content),
                standing=standing_kind(r.role, r.content),
                filler=is_filler(r.content),
                first_window=first_windows[i],
            )
            for i, r in enumerate(rows)
        ]

        async def to_window() -> None:
            # The transcript has committed: from here on the answer is a success whatever
            # Redis does (a 503 would invite a retry that appends the messages twice).
            written = restored + entries
            try:
                await self.stale.refresh(namespace, session_id)  # an earlier append's first
                size = await self.window_store.add(namespace, session_id, written, block.owner)
            except DatastoreUnavailableError:
                self.stale.mark(self.window_store, namespace, session_id, written)
                return
            self.embeddings.submit(self.window_store, namespace, session_id, size.epoch, written)

        self.after_commit.add(to_window)
        return AppendResult(
            seqs=[r.seq for r in rows],
            tokens=tokens,
            session_messages=block.messages,
            session_tokens=block.tokens,
            owner_changed=block.owner != block.previous_owner,
        )

    async def check_scope(self, namespace: str, session_id: str, user_id: str | None) -> None:
        """With ``user_id`` (a request's ``?user_id=`` scope): NotFoundError (404) when the
        session belongs to another user (session_owner.py); an unknown session passes (it is an
        empty one)."""
        if user_id is not None:
            session = await self.transcript.get_session(namespace, session_id)
            check_scope(session_id, session.user_id if session else None, user_id)

    async def _restore_if_lost(
        self, namespace: str, session_id: str, now: datetime
    ) -> list[WindowEntry]:
        """Before an append takes its seqs: the messages of a window Redis lost, to write back
        with the new ones. Redis down: DatastoreUnavailableError, before anything is written
        (a retry then appends once; and a window Redis recreates empty right after a restart
        never misses the messages before this one)."""
        if await self.window_store.exists(namespace, session_id):
            return []
        entries, _ = await restorable(self.transcript, self.settings, namespace, session_id, now)
        return entries

    async def query_vector(self, query: str) -> np.ndarray:
        """The query's embedding (E5 query role), from the cache when it was seen lately."""
        vector, _ = await self.query_embeddings.embed_query(self.embedder, query)
        return vector

    async def read(
        self,
        namespace: str,
        session_id: str,
        *,
        with_embeddings: bool,
        embed_tokens: int | None = None,
        deadline: float | None = None,
    ) -> WindowSnapshot:
        """The window's messages in seq order and its owner (empty when expired or
        cleared; a window Redis lost is rebuilt from the transcript first, recovery.py).
        ``with_embeddings``: vectors as :meth:`with_vectors` gives them."""
        store = self.window_store
        await self.stale.refresh(namespace, session_id)  # messages Redis missed, if any
        snapshot = await store.read(namespace, session_id, with_embeddings=with_embeddings)
        if not snapshot.entries:
            entries, size = await rebuild_window(
                self.transcript, store, self.settings, namespace, session_id
            )
            if size is None:
                return snapshot
            # No append paid for them: not waited for, each read embeds its share.
            self.embeddings.submit(store, namespace, session_id, size.epoch, entries, False)
            snapshot = await store.read(namespace, session_id, with_embeddings=with_embeddings)
        if with_embeddings:
            return await self.with_vectors(namespace, session_id, snapshot, embed_tokens, deadline)
        return snapshot

    def embed_deadline(self) -> float:
        """``WORKING_MEMORY__EMBED_WAIT_MS`` from now (the event loop's clock)."""
        return asyncio.get_running_loop().time() + self.settings.embed_wait_ms / 1000.0

    def default_query(self, text: str) -> tuple[str, int]:
        """A message taken as the query (``/context`` without one): its first window of at
        most ``LIMITS__TEXT_TOKENS`` model tokens, and those tokens."""
        return self.embeddings.windows.query(text)

    async def with_vectors(
        self,
        namespace: str,
        session_id: str,
        snapshot: WindowSnapshot,
        embed_tokens: int | None,
        deadline: float | None = None,
    ) -> WindowSnapshot:
        """The snapshot with the vectors ``WindowEmbeddings.complete`` gives within
        ``embed_tokens`` (None: no bound) and ``deadline`` (None: :meth:`embed_deadline`; one
        for all of a request's calls); the others keep no vector (ranked without relevance).
        Raises ProviderError when embedding fails."""
        if all(e.embedding is not None for e in snapshot.entries):
            return snapshot
        vectors = await self.embeddings.complete(
            self.embedder,
            deadline if deadline is not None else self.embed_deadline(),
            self.window_store,
            namespace,
            session_id,
            snapshot.epoch,
            snapshot.entries,
            embed_tokens,
        )
        entries = [
            replace(e, embedding=vectors[e.seq]) if e.embedding is None and e.seq in vectors else e
            for e in snapshot.entries
        ]
        return replace(snapshot, entries=entries)

    async def choose(
        self,
        entries: list[WindowEntry],
        query: str | None,
        budget_tokens: int,
        query_vec: np.ndarray | None = None,
    ) -> Selection:
        """Rank ``entries`` (relevance only with a query; entries need their embeddings
        then; ``query_vec``: the query's, when the caller has it) and fill ``budget_tokens``
        (content + per-message overhead)."""
        if query is not None and entries and query_vec is None:
            query_vec = await self.query_vector(query)
        s = self.settings
        ranked = rank(
            entries,
            query_vec,
            Weights(s.weight_relevance, s.weight_recency, s.weight_density),
            s.recency_half_life,
        )
        return select(ranked, budget_tokens, s.message_overhead_tokens, self.tokenizer)

    async def window(
        self,
        namespace: str,
        session_id: str,
        query: str | None,
        budget_tokens: int,
        embed_tokens: int | None = None,
    ) -> WindowResult:
        """Read the window and choose its messages for ``budget_tokens``; chosen messages
        come back in seq order. ``embed_tokens``: model tokens the read may embed itself
        for messages still without a vector (None: no bound); those past it are ranked
        without relevance (``unembedded_seqs``)."""
        start = time.perf_counter()
        snapshot = await self.read(
            namespace, session_id, with_embeddings=query is not None, embed_tokens=embed_tokens
        )
        selection = await self.choose(snapshot.entries, query, budget_tokens)
        return WindowResult(
            selection=selection,
            budget_tokens=budget_tokens,
            window_messages=len(snapshot.entries),
            owner=snapshot.owner,
            took_ms=(time.perf_counter() - start) * 1000.0,
            unembedded_seqs=[e.seq for e in snapshot.entries if e.embedding is None]
            if query is not None
            else [],
        )

    async def clear(self, namespace: str, session_id: str, purge: bool) -> ClearResult:
        """Empty the hot window now. With ``purge`` also delete the transcript (in this
        transaction) and, after commit, the window once more so an append that committed
        in between leaves nothing behind."""
        purged = 0
        self.stale.discard(namespace, session_id)
        if purge:
            purged = await self.transcript.purge(namespace, session_id)

            async def clear_again() -> None:
                await self.window_store.clear(namespace, session_id)

            self.after_commit.add(clear_again)
        else:
            await self.transcript.mark_window_cleared(namespace, session_id)  # not rebuilt
        existed = await self.window_store.clear(namespace, session_id)
        return ClearResult(window_cleared=existed, transcript_purged=purged)
