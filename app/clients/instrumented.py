"""Wrappers that record outbound call latency: embeddings in
``hindsight_embedding_duration_seconds``, LLM chats in ``hindsight_llm_duration_seconds``."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from app.clients.embeddings import Embedder, Matrix
from app.core.metrics import EMBEDDING_SECONDS, LLM_SECONDS

if TYPE_CHECKING:
    from app.clients.llm import ChatMessage, LLMClient


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


class InstrumentedLLM:
    """Delegates to ``inner`` and times each chat (seconds, by model and outcome ok|error;
    retries inside the client count in the one call)."""

    def __init__(self, inner: LLMClient) -> None:
        self.inner = inner
        self.model = inner.model

    async def complete(
        self, messages: list[ChatMessage], *, model: str | None = None, json_mode: bool = True
    ) -> str:
        start = time.perf_counter()
        outcome = "error"
        try:
            reply = await self.inner.complete(messages, model=model, json_mode=json_mode)
            outcome = "ok"
            return reply
        finally:
            LLM_SECONDS.labels(model or self.model, outcome).observe(time.perf_counter() - start)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
