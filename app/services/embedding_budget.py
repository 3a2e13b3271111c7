"""What one request may cost the embedder, counted in the model's own tokens (issue 31).

The embedding model's time grows with the tokens it reads (app/clients/model_tokens.py): a
2,000-character value of emoji ZWJ sequences is ~2,000 tokens, four windows of the model,
against ~550 for 2,000 characters of English. Character limits alone let one valid request
buy seconds of CPU. So, before anything is embedded:

- each text a request has embedded in the foreground (a unit's ``value`` or trigger scenario
  ``query``, the ``query`` of a recall, a window read or ``/context``) may hold at most
  ``LIMITS__TEXT_TOKENS`` model tokens (default 384): past it, a 422 that names
  the field, the limit and the count;
- all of them together (each distinct text once) at most ``LIMITS__REQUEST_TOKENS`` (default
  384: ~0.35 s of the bundled model on 2 idle cores, ~0.7 s on one thread, so no request at
  the limits costs more than 1 s of embedder time): past it, a 422 with each item's count
  and where to split the batch;
- working-memory messages keep their text whole (the transcript is the record); each is
  embedded by its first window of at most ``LIMITS__TEXT_TOKENS`` (the append's answer lists
  those longer than that, ``embedded_first_window``), and the windows of one append count
  against ``LIMITS__REQUEST_TOKENS`` like a batch of values (a 422 says where to split it);
- per caller (an API key's prefix, or the client's address when keys are off), at most
  ``LIMITS__EMBED_CONCURRENCY`` requests with embedding work in flight and
  ``LIMITS__EMBED_TOKEN_RATE`` tokens: past either, a 429 with ``Retry-After``
  (:class:`EmbeddingAdmission`, per process: each API process has its own embedder).

The embedder itself cuts every text to its first window and hands the model over between
chunks of at most ``EMBEDDING__SLICE_TOKENS`` tokens, least recent caller first
(app/clients/model_runtime.py), so no path (extraction, summaries) can exceed it either.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from limits import parse_many

from app.clients.model_tokens import ModelTokens, window_of
from app.core.config import LimitsSettings
from app.core.errors import BadRequestError, RateLimitedError
from app.core.metrics import EMBED_IN_FLIGHT, EMBED_LIMIT, EMBED_REFUSED, EMBED_TOKENS
from app.repositories.rate_limit import TokenRateLimiter

# Counting the tokens of more characters than this runs off the event loop.
_INLINE_CHARS = 20_000


@dataclass(frozen=True)
class Text:
    """A text a request will have embedded: where it is in the request (``loc``, as a
    validation error names it), the text, and whether the model reads it as a query."""

    loc: tuple[str | int, ...]
    text: str
    query: bool = False


class EmbeddingAdmission:
    """Process-wide: per-caller concurrency and token rate of embedding work."""

    def __init__(self, limits: LimitsSettings, slice_tokens: int) -> None:
        self.limits = limits
        self.concurrency = limits.embed_concurrency
        self.rate = TokenRateLimiter(limits.embed_token_rate) if limits.embed_token_rate else None
        self._in_flight: dict[str, int] = {}
        EMBED_LIMIT.labels("text_tokens").set(limits.text_tokens)
        EMBED_LIMIT.labels("request_tokens").set(limits.request_tokens)
        EMBED_LIMIT.labels("concurrency").set(limits.embed_concurrency)
        EMBED_LIMIT.labels("slice_tokens").set(slice_tokens)
        for item in parse_many(limits.embed_token_rate) if limits.embed_token_rate else []:
            EMBED_LIMIT.labels(f"token_rate_per_{item.get_expiry()}s").set(item.amount)

    @asynccontextmanager
    async def slot(self, caller: str) -> AsyncIterator[None]:
        """Hold one of ``caller``'s concurrent slots for the block. Raises RateLimitedError
        (429, Retry-After 1) when all are taken."""
        held = self._in_flight.get(caller, 0)
        if self.concurrency and held >= self.concurrency:
            EMBED_REFUSED.labels("concurrency").inc()
            raise RateLimitedError(
                f"at most {self.concurrency} requests with embedding work in flight per "
                f"caller (LIMITS__EMBED_CONCURRENCY); {held} are running: retry in 1 s",
                retry_after_s=1,
            )
        self._in_flight[caller] = held + 1
        EMBED_IN_FLIGHT.inc()
        try:
            yield
        finally:
            EMBED_IN_FLIGHT.dec()
            left = self._in_flight[caller] - 1
            if left:
                self._in_flight[caller] = left
            else:
                del self._in_flight[caller]

    async def charge(self, caller: str, tokens: int, kind: str) -> None:
        """Count ``tokens`` against ``caller``'s token rate. Raises RateLimitedError (429
        with Retry-After) when they do not fit; nothing is counted then."""
        if self.rate is not None and tokens > 0:
            retry_after = await self.rate.hit(caller, tokens)
            if retry_after is not None:
                EMBED_REFUSED.labels("token_rate").inc()
                raise RateLimitedError(
                    f"embedding token rate exceeded ({self.limits.embed_token_rate} model "
                    f"tokens per caller, LIMITS__EMBED_TOKEN_RATE; this request needs "
                    f"{tokens:,}): retry in {retry_after} s",
                    retry_after_s=retry_after,
                )
        EMBED_TOKENS.labels(kind).inc(tokens)


def _where(loc: tuple[str | int, ...]) -> str:
    return ".".join(str(p) for p in loc) or "body"


def _distinct_total(texts: Sequence[Text], counts: Sequence[int]) -> int:
    """Tokens the model will read: a text sent twice in one request (a scenario equal to
    its value, the same value in two units) is embedded once."""
    seen: dict[tuple[str, bool], int] = {}
    for t, n in zip(texts, counts, strict=True):
        seen.setdefault((t.text, t.query), n)
    return sum(seen.values())


def _item(loc: tuple[str | int, ...]) -> tuple[str | int, ...]:
    """The item a text belongs to: ``("memories", 3)`` for a unit of a batch, else the
    request itself (``()``)."""
    return loc[:2] if len(loc) >= 2 and isinstance(loc[1], int) else ()


def _over_request(
    texts: Sequence[Text], counts: Sequence[int], total: int, limit: int, source: str
) -> BadRequestError:
    """The 422 of a request over ``LIMITS__REQUEST_TOKENS``: the limit, the count, each
    item's tokens (``item_tokens``, in order) and how to split the batch, or, when one item
    alone is over the limit, which one to shorten."""
    items: dict[tuple[str | int, ...], int] = {}
    seen: set[tuple[str, bool]] = set()
    repeated = False
    for t, n in zip(texts, counts, strict=True):
        key = _item(t.loc)
        first = (t.text, t.query) not in seen
        repeated = repeated or not first
        seen.add((t.text, t.query))
        items[key] = items.get(key, 0) + (n if first else 0)
    name = "LIMITS__REQUEST_TOKENS"
    heavy = next(((k, n) for k, n in items.items() if n > limit), None)
    if heavy is not None:
        key, n = heavy
        fields = " and ".join(str(t.loc[-1]) for t in texts if _item(t.loc) == key)
        msg = (
            f"{fields} come to {n:,} model tokens together, at most {limit:,} per request "
            f"({name}): shorten them"
        )
        loc: list[str | int] = [source, *key]
    else:
        run = fit = 0
        for n in items.values():
            if fit + n > limit:
                break
            run, fit = run + 1, fit + n
        keys = list(items)
        first_key, last_key = keys[0], keys[run - 1]
        span = (
            f"{first_key[0]} {first_key[1]}..{last_key[1]}"
            if first_key and last_key
            else "the first items"
        )
        msg = (
            f"the texts to embed come to {total:,} model tokens, at most {limit:,} per request "
            f"({name}): split the batch into requests of at most {limit:,} tokens each "
            f"({span} come to {fit:,}); errors[0].item_tokens has each item's count"
        )
        if repeated:
            msg += (
                " (a text repeated in the request counts once, at its first copy: its repeats "
                "show 0, and a part without that first copy counts the text again)"
            )
        loc = [source]
    error: dict[str, Any] = {
        "loc": loc,
        "msg": msg,
        "type": "too_many_tokens",
        "limit": limit,
        "count": total,
        "item_tokens": list(items.values()),
    }
    return BadRequestError(f"{_where(tuple(loc[1:]))}: {msg}", extra={"errors": [error]})


class EmbeddingBudget:
    """One request's embedding work: counted, limited, admitted for its caller."""

    def __init__(
        self,
        tokens: ModelTokens,
        limits: LimitsSettings,
        admission: EmbeddingAdmission | None,
        caller: str,
    ) -> None:
        self.tokens = tokens
        self.limits = limits
        self.admission = admission
        self.caller = caller

    async def _count(self, texts: Sequence[Text]) -> list[int]:
        def count() -> list[int]:
            return [self.tokens.count(t.text, query=t.query) for t in texts]

        if sum(len(t.text) for t in texts) > _INLINE_CHARS:
            return await asyncio.to_thread(count)
        return count()

    async def check(self, texts: Sequence[Text], source: str = "body") -> list[int]:
        """The model tokens of each text, after refusing (422 ``invalid_request``, nothing
        done) a text over ``LIMITS__TEXT_TOKENS`` or a total over ``LIMITS__REQUEST_TOKENS``,
        and charging the total to the caller's token rate (429 past it). ``source``: where
        the texts are (``body`` or ``query``, as validation errors name it)."""
        counts = await self._count(texts)
        limit = self.limits.text_tokens
        errors: list[dict[str, Any]] = [
            {
                "loc": [source, *t.loc],
                "msg": f"at most {limit:,} model tokens ({self.tokens.name}'s tokenizer, "
                f"LIMITS__TEXT_TOKENS), got {n:,}: shorten the text",
                "type": "too_many_tokens",
            }
            for t, n in zip(texts, counts, strict=True)
            if n > limit
        ]
        if errors:
            EMBED_REFUSED.labels("text_tokens").inc()
            first = errors[0]
            raise BadRequestError(
                f"{_where(tuple(first['loc'][1:]))}: {first['msg']}", extra={"errors": errors}
            )
        total = _distinct_total(texts, counts)
        if total > self.limits.request_tokens:
            EMBED_REFUSED.labels("request_tokens").inc()
            raise _over_request(texts, counts, total, self.limits.request_tokens, source)
        if self.admission is not None:
            await self.admission.charge(self.caller, total, "foreground")
        return counts

    async def message_windows(self, texts: Sequence[Text], source: str = "body") -> list[bool]:
        """For texts kept whole but embedded by their first window only (working-memory
        messages): each is embedded by at most ``LIMITS__TEXT_TOKENS`` model tokens, its
        window; the windows of all of them together (each distinct text once) may come to at
        most ``LIMITS__REQUEST_TOKENS``, else a 422 like :meth:`check`'s (the limit, the
        count, each item's window tokens in ``item_tokens`` and where to split; nothing
        done). One text alone always fits. Charges the total to the caller's token rate (429
        past it). Returns whether each text is longer than its window."""
        limit = self.limits.text_tokens

        def count() -> list[int]:
            # One past the limit marks a text longer than its window.
            return [window_of(self.tokens, t.text, limit + 1, query=t.query) for t in texts]

        if sum(len(t.text) for t in texts) > _INLINE_CHARS:
            marked = await asyncio.to_thread(count)
        else:
            marked = count()
        windows = [min(n, limit) for n in marked]
        total = _distinct_total(texts, windows)
        if total > self.limits.request_tokens:
            EMBED_REFUSED.labels("request_tokens").inc()
            raise _over_request(texts, windows, total, self.limits.request_tokens, source)
        if self.admission is not None:
            await self.admission.charge(self.caller, total, "background")
        return [n > limit for n in marked]
