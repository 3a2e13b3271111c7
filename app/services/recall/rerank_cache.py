"""Orders the rerank stage's LLM gave, kept per process so a repeated question costs no second
call. Keyed by the question and the candidate set (ids and the text the model saw, in any
order), so a changed memory or a different candidate set asks again.

Bounded in size (least recently used entries leave first) and in age: ``cachetools.TTLCache``,
a well-kept library, rather than our own LRU with expiry.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Iterable

from cachetools import TTLCache

Order = tuple[uuid.UUID, ...]


class RerankCache:
    """``key → the unit ids the LLM listed, best first``; ``size`` 0 keeps nothing."""

    def __init__(self, size: int, ttl_s: float) -> None:
        self._items: TTLCache[str, Order] | None = (
            TTLCache(maxsize=size, ttl=ttl_s) if size > 0 else None
        )

    @staticmethod
    def key(
        namespace: str,
        model: str,
        prompt_version: str,
        day: str,
        query: str,
        candidates: Iterable[tuple[uuid.UUID, str]],
    ) -> str:
        """SHA-256 of everything the answer depends on; ``candidates`` are (id, text shown)
        pairs, sorted here so the hybrid order among them does not matter."""
        pairs = sorted((str(i), text) for i, text in candidates)
        blob = json.dumps([namespace, model, prompt_version, day, query, pairs], ensure_ascii=False)
        return hashlib.sha256(blob.encode()).hexdigest()

    def get(self, key: str) -> Order | None:
        """The cached order, or None (also once it is older than the TTL)."""
        return self._items.get(key) if self._items is not None else None

    def put(self, key: str, order: Order) -> None:
        """Remember an order."""
        if self._items is not None:
            self._items[key] = order

    def clear(self) -> None:
        """Forget every order (benchmarks measure uncached calls with it)."""
        if self._items is not None:
            self._items.clear()
