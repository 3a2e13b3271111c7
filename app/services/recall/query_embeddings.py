"""Query embeddings kept per process, so a question asked again (an agent retrying a turn,
a user rephrasing nothing, a benchmark's repeats) costs no model call: the embedding is
the largest part of a recall on the CPU.

Keyed by the embedding model and the exact text embedded (the question with known names
removed, app.services.recall.service); bounded in size, least recently used entries leave
first (``cachetools.LRUCache``). An embedding depends only on (model, text), so an entry never
goes stale.
"""

from __future__ import annotations

import re

import numpy as np
from cachetools import LRUCache

from app.clients.embeddings import Embedder
from app.clients.model_runtime import MODEL_MS
from app.core.text import has_cjk, tokenize


def strip_names(query: str, names: list[str]) -> str:
    """``query`` without ``names`` (and their possessive ``'s``), the text recall embeds
    (app.services.recall.service); the query itself when nothing would be left."""
    if not names:
        return query
    stripped = query
    for name in sorted(names, key=len, reverse=True):
        if has_cjk(name):  # no spaces around a Chinese name: "李明在哪里工作"
            stripped = stripped.replace(name, " ")
            continue
        stripped = re.sub(rf"(?i)(?<!\w){re.escape(name)}(?:['’]s)?(?!\w)", " ", stripped)
    stripped = re.sub(r"\s+", " ", stripped).strip()
    return stripped if len(tokenize(stripped)) > 0 else query


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

    async def embed_query_timed(
        self, embedder: Embedder, text: str
    ) -> tuple[np.ndarray, float | None]:
        """:meth:`embed_query`'s vector and the model's own time of the call (ms; None when
        the model did not run or does not report its time: ``model_runtime.MODEL_MS``)."""
        model_ms: list[float] = []
        token = MODEL_MS.set(model_ms)
        try:
            vector, _ = await self.embed_query(embedder, text)
        finally:
            MODEL_MS.reset(token)
        return vector, (sum(model_ms) if model_ms else None)
