"""An embedder wrapper that records call latency in ``hindsight_embedding_duration_seconds``."""

from __future__ import annotations

import time
from typing import Any

from app.clients.embeddings import Embedder, Matrix
from app.core.metrics import EMBEDDING_SECONDS


class InstrumentedEmbedder:
    """Delegates to ``inner`` and times each call (seconds, by model and role)."""

    def __init__(self, inner: Embedder) -> None:
        self.inner = inner
        self.model = inner.model
        self.dimension = inner.dimension

    async def embed_passages(self, texts: list[str]) -> Matrix:
        start = time.perf_counter()
        try:
            return await self.inner.embed_passages(texts)
        finally:
            EMBEDDING_SECONDS.labels(self.model, "passage").observe(time.perf_counter() - start)

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
