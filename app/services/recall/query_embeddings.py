"""Query embeddings kept per process, so a question asked again (an agent retrying a turn,
a user rephrasing nothing, a benchmark's repeats) costs no model call: the embedding is
the largest part of a recall on the CPU.

Keyed by the embedding model and the exact text embedded (the question with known names
removed, app.services.recall.service); bounded in size, least recently used entries leave
first (``cachetools.LRUCache``). An embedding depends only on (model, text), so an entry never
goes stale.
"""

from __future__ import annotations

import asyncio
import re

import numpy as np
from cachetools import LRUCache

from app.clients.embeddings import Embedder
from app.clients.model_runtime import MODEL_MS
from app.core.text import has_cjk, stem, tokenize

# Words that only frame a request for what is known ("Tell me about Quix", "What do you know
# about Quix?", "跟我说说李明", "李明的情况"): when nothing else is left once the names are
# removed, the names are what the query is about, and it is embedded whole. Stripped, "Tell me
# about" matched every unit alike (cosine 0.78-0.79 to the Quix units and to unrelated ones),
# leaving the best hit below the "nothing relevant" line (tester finding F20). Compared by stem.
_FRAME_EN = frozenset(
    stem(w)
    for w in """tell know known say said talk describe description explain show give share
    anything everything something all any more else please info information details detail
    fact facts profile summary summarize summarise overview background remember recall
    memory memories mention mentioned heard hear learn learned find look think thoughts like
    update updates news latest status story everyone anyone somebody someone""".split()
)
_FRAME_ZH = frozenset(
    """跟 和 我 你 我们 说 说说 讲 讲讲 聊 聊聊 谈 谈谈 介绍 介绍一下 一下 情况 怎么样 如何
    关于 有关 什么 谁 知道 了解 记得 告诉 信息 资料 消息 近况 最新 事 事情 一切 所有 全部 请
    相关""".split()
)


def _only_frame(tokens: list[str]) -> bool:
    return all(t in _FRAME_ZH or stem(t) in _FRAME_EN for t in tokens)


def strip_names(query: str, names: list[str]) -> str:
    """``query`` without ``names`` (and their possessive ``'s``), the text recall embeds
    (app.services.recall.service); the query itself when nothing would be left but words
    that frame the request (``_FRAME_EN`` / ``_FRAME_ZH``: "Tell me about Quix" is embedded
    whole, "Where does Quix run?" as "Where does run?")."""
    if not names:
        return query
    stripped = query
    for name in sorted(names, key=len, reverse=True):
        if has_cjk(name):  # no spaces around a Chinese name: "李明在哪里工作"
            stripped = stripped.replace(name, " ")
            continue
        stripped = re.sub(rf"(?i)(?<!\w){re.escape(name)}(?:['’]s)?(?!\w)", " ", stripped)
    stripped = re.sub(r"\s+", " ", stripped).strip()
    return query if _only_frame(tokenize(stripped)) else stripped


class QueryEmbeddingCache:
    """``(model, text) → unit vector`` in front of an :class:`Embedder`'s ``embed_queries``;
    ``size`` 0 keeps nothing. ``hits`` / ``misses`` count lookups since start.

    A text asked for while its embedding is being computed waits for that one model call
    (``joined`` counts them), whatever the size: ``/context`` starts embedding its query
    before its window read, and recall and the window ranking then share the one call. A
    caller that gives up (recall past its time budget) leaves the call running for the others
    (tester H34: a 384-token query was embedded for recall, then again for the window)."""

    def __init__(self, size: int) -> None:
        self._items: LRUCache[tuple[str, str], np.ndarray] | None = (
            LRUCache(maxsize=size) if size > 0 else None
        )
        self._flying: dict[tuple[str, str], asyncio.Task[np.ndarray]] = {}
        self.hits = 0
        self.misses = 0
        self.joined = 0

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
        """The query embedding of ``text`` (a (dimension,) float32 unit vector, read-only)
        and whether it came from the cache or a call already running; a miss calls
        ``embedder.embed_queries`` once and keeps the result. Raises what the call raises."""
        key = (embedder.model, text)
        flying = self._flying.get(key)
        if flying is not None:
            self.joined += 1
            return await asyncio.shield(flying), True
        found = self.get(embedder.model, text)
        if found is not None:
            return found, True
        task = asyncio.ensure_future(self._embed(embedder, text))
        self._flying[key] = task
        task.add_done_callback(lambda done: self._landed(key, done))
        return await asyncio.shield(task), False

    async def _embed(self, embedder: Embedder, text: str) -> np.ndarray:
        vector: np.ndarray = (await embedder.embed_queries([text]))[0]
        vector.setflags(write=False)  # shared between requests: nobody may change it
        return vector

    def _landed(self, key: tuple[str, str], task: asyncio.Task[np.ndarray]) -> None:
        """A call ended: kept when it gave a vector (its error is its waiters')."""
        self._flying.pop(key, None)
        if task.cancelled() or task.exception() is not None:
            return
        if self._items is not None:
            self._items[key] = task.result()

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
