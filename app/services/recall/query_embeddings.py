"""Query embeddings kept per process, so a question asked again (an agent retrying a turn,
a user rephrasing nothing, a benchmark's repeats) costs no model call: the embedding is
the largest part of a recall on the CPU.

Keyed by the embedding model and the exact text embedded (the question with known names
removed, app.services.recall.service); bounded in size, least recently used entries leave
first (``cachetools.LRUCache``). An embedding depends only on (model, text), so an entry never
goes stale.
"""

from __future__ import annotations

import numpy as np
from cachetools import LRUCache

from app.clients.embeddings import Embedder


class QueryEmbeddingCache:
    """``(model, text) → unit vector`` in front of an :class:`Embedder`'s ``embed_queries``;
    ``size`` 0 keeps nothing. ``hits`` / ``misses`` count lookups since start."""

    def __init__(self, size: int) -> None:
        self._items: LRUCache[tuple[str, str], np.ndarray] | None = (
            LRUCache(maxsize=size) if size > 0 else None
        )
        self.hits = 0
        self.misses = 0

    def get(self, model: str, text: str) -> np.ndarray | None:
        """The cached embedding of ``text`` by ``model``, or None."""
        if self._items is None:
            return None
        found = self._items.get((model, text))
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    async def embed_query(self, embedder: Embedder, text: str) -> tuple[np.ndarray, bool]:
        """The query embedding of ``text`` (a (dimension,) float32 unit vector) and whether
        it came from the cache; a miss calls ``embedder.embed_queries`` and keeps the result."""
        found = self.get(embedder.model, text)
        if found is not None:
            return found, True
        vector = (await embedder.embed_queries([text]))[0]
        if self._items is not None:
            vector.setflags(write=False)  # shared between requests: nobody may change it
            self._items[(embedder.model, text)] = vector
        return vector, False
