"""Per-caller request counting for the optional rate limit, through the ``limits`` library
(moving window). Counts live in Redis when one is configured, so every API replica sees the
same numbers; otherwise in this process's memory."""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter


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
