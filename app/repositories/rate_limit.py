"""Per-caller request counting for the optional rate limit, through the ``limits`` library
(moving window). Counts live in Redis when one is configured, so every API replica sees the
same numbers; otherwise in this process's memory."""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter, SlidingWindowCounterRateLimiter


class RateLimiter:
    """Admits or refuses one request of a caller against every configured limit."""

    def __init__(self, spec: str, redis_url: str | None = None) -> None:
        """``spec`` in the ``limits`` notation, e.g. ``"100/minute"`` or
        ``"10/second;1000/hour"``. Raises ValueError for a malformed spec."""
        self.items: list[RateLimitItem] = parse_many(spec)
        storage: Storage = (
            RedisStorage(f"async+{redis_url}", implementation="redispy")
            if redis_url
            else MemoryStorage()
        )
        self._limiter = MovingWindowRateLimiter(storage)

    async def hit(self, identity: str) -> int | None:
        """Count one request of ``identity``. None when admitted; otherwise the seconds until
        the tightest exceeded window lets a request through again (at least 1)."""
        for item in self.items:
            if not await self._limiter.hit(item, "hindsight", identity):
                stats = await self._limiter.get_window_stats(item, "hindsight", identity)
                return max(1, math.ceil(stats.reset_time - time.time()))
        return None


class TokenRateLimiter:
    """Admits or refuses an amount of embedding work (model tokens) of a caller against every
    configured limit, in this process's memory (each API process has its own embedder).
    Sliding-window counters (``limits``' ``SlidingWindowCounterRateLimiter``): a request of
    N tokens is one counter update, not N entries."""

    def __init__(self, spec: str) -> None:
        """``spec`` in the ``limits`` notation, e.g. ``"60000/minute"``. Raises ValueError
        for a malformed spec."""
        self.items: list[RateLimitItem] = parse_many(spec)
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())

    async def hit(self, identity: str, cost: int) -> int | None:
        """Count ``cost`` tokens of ``identity``. None when admitted (counted against every
        limit); otherwise the seconds until the tightest exceeded window has room for them
        (at least 1), and nothing is counted. A cost larger than a limit's whole amount is
        counted as that amount (it is admitted into an empty window)."""
        for item in self.items:
            amount = min(max(cost, 1), item.amount)
            if not await self._limiter.test(item, "hindsight-embed", identity, cost=amount):
                stats = await self._limiter.get_window_stats(item, "hindsight-embed", identity)
                return max(1, math.ceil(stats.reset_time - time.time()))
        for item in self.items:
            await self._limiter.hit(item, "hindsight-embed", identity, cost=min(cost, item.amount))
        return None
