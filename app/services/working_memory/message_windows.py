"""How a working-memory message is embedded: by its first window of at most
``LIMITS__TEXT_TOKENS`` model tokens (the message itself is kept whole), counted and cut with
the model's own tokenizer, the same on every path (the background task, a read, a rebuild), a
text embedded once however often it is given (app/services/embedding_budget.py counts an
append's windows so)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

import numpy as np

from app.clients.embeddings import Embedder
from app.clients.model_tokens import ModelTokens, cut_to, window_of
from app.repositories.working_memory.window import WindowEntry

# Without a token counter (a test's stand-in embedder): characters of a message embedded.
EMBED_CHARS = 2000

# Characters of messages cut in the event loop; more are cut on a worker thread.
_INLINE_CHARS = 20_000


class MessageWindows:
    """How a window message is embedded: its first window of at most ``limit`` model
    tokens (``LIMITS__TEXT_TOKENS``), counted and cut with the model's tokenizer."""

    def __init__(self, tokens: ModelTokens | None, limit: int = 384) -> None:
        self.tokens = tokens
        self.limit = limit

    def cut(self, text: str) -> str:
        """The part of ``text`` the model reads."""
        if self.tokens is None:
            return text[:EMBED_CHARS]
        return cut_to(self.tokens, text, self.limit)

    def count(self, text: str) -> int:
        """The model tokens of that part (without a tokenizer: its characters, more than
        its tokens for most text)."""
        if self.tokens is None:
            return len(text[:EMBED_CHARS])
        return window_of(self.tokens, text, self.limit)

    def query(self, text: str) -> tuple[str, int]:
        """``text`` as a query the model reads: its first window of at most ``limit`` model
        tokens (query role), and those tokens (without a tokenizer: its first
        ``EMBED_CHARS`` characters, counted as characters)."""
        if self.tokens is None:
            return text[:EMBED_CHARS], len(text[:EMBED_CHARS])
        cut = cut_to(self.tokens, text, self.limit, query=True)
        return cut, self.tokens.count(cut, query=True)

    async def cut_many(self, texts: list[str]) -> list[str]:
        """:meth:`cut` of each, off the event loop when they are long."""
        if sum(len(t) for t in texts) > _INLINE_CHARS:
            return await asyncio.to_thread(lambda: [self.cut(t) for t in texts])
        return [self.cut(t) for t in texts]

    async def count_many(self, texts: list[str]) -> list[int]:
        """:meth:`count` of each, off the event loop when they are long."""
        if sum(len(t) for t in texts) > _INLINE_CHARS:
            return await asyncio.to_thread(lambda: [self.count(t) for t in texts])
        return [self.count(t) for t in texts]

    @property
    def counter(self) -> str:
        """What counts: the model tokenizer's name (``chars`` without one)."""
        return self.tokens.name if self.tokens is not None else "chars"

    async def first_windows(self, texts: list[str]) -> list[tuple[int, int, str]]:
        """:meth:`count` of each, with the limit and the counter: what a window entry keeps
        (``WindowEntry.first_window``), so reads need not count again."""
        return [(n, self.limit, self.counter) for n in await self.count_many(texts)]

    def kept(self, entry: WindowEntry) -> int | None:
        """The count the entry kept from its append, when made as :meth:`count` makes it
        now (same limit and counter); else None."""
        kept = entry.first_window
        if kept is not None and kept[1] == self.limit and kept[2] == self.counter:
            return kept[0]
        return None


async def embed_windows(
    embedder: Embedder, windows: MessageWindows, texts: list[str], *, background: bool = False
) -> list[np.ndarray]:
    """The vector of each text's first window, each distinct text embedded once."""
    unique = list(dict.fromkeys(texts))
    vectors = await embedder.embed_passages(await windows.cut_many(unique), background=background)
    by_text = dict(zip(unique, vectors, strict=True))
    return [by_text[t] for t in texts]


class WindowSpend:
    """What one read may still embed itself: model tokens of first windows, each distinct
    text once (None: no bound)."""

    def __init__(self, tokens: int | None, windows: MessageWindows) -> None:
        self.left = tokens
        self.windows = windows
        self.seen: set[str] = set()

    async def take(self, entries: Iterable[WindowEntry]) -> list[WindowEntry]:
        """The entries, in the order given, that still fit; their tokens are spent. An
        entry that does not fit is skipped (a shorter one after it may)."""
        entries = list(entries)
        if self.left is None:
            return entries
        # Counted at append and kept with the entry (a read's cost then does not grow with
        # its messages' length); counted here only for entries without (tester D18).
        counts: dict[str, int] = {}
        for e in entries:
            n = self.windows.kept(e)
            if n is not None:
                counts[e.content] = n
        known = self.seen | counts.keys()
        fresh = list(dict.fromkeys(e.content for e in entries if e.content not in known))
        counts.update(zip(fresh, await self.windows.count_many(fresh), strict=True))
        out = []
        for e in entries:
            if e.content in self.seen:
                out.append(e)
                continue
            n = counts[e.content]
            if n <= self.left:
                self.left -= n
                self.seen.add(e.content)
                out.append(e)
        return out
