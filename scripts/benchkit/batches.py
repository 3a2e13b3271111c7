"""``/store`` batches and working-memory appends that fit the service's limits, counted with the
model's own tokenizer (the one the service counts with; app/services/embedding_budget.py):

- a ``/store`` batch: at most ``LIMITS__STORE_BATCH`` units and ``LIMITS__REQUEST_TOKENS``
  model tokens of values and scenarios. A unit alone over the token limit is its own batch
  (the service refuses it with a 422 that names it);
- an append: at most ``LIMITS__MESSAGE_BATCH`` messages whose embedding windows (each
  message's first ``LIMITS__TEXT_TOKENS`` model tokens) come to at most
  ``LIMITS__REQUEST_TOKENS``. One message always fits.

    from benchkit.batches import message_batches, store_batches
    for batch in store_batches(units):
        client.post("/store", json={"memories": batch})
    for batch in message_batches(messages):
        client.post(f"/working_memory/{sid}/messages", json={"messages": batch})
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from functools import cache
from typing import Any


@cache
def _tokens() -> Any:
    from app.clients.model_tokens import E5Tokens

    return E5Tokens()


def unit_tokens(unit: dict[str, Any]) -> int:
    """Model tokens the service embeds for ``unit``: its value, and its trigger scenario
    (``query``) unless empty or equal to the value."""
    count = _tokens().count
    n = int(count(unit["value"]))
    query = unit.get("query")
    if query and query != unit["value"]:
        n += int(count(query))
    return n


def store_batches(
    units: Sequence[dict[str, Any]], max_units: int | None = None, max_tokens: int | None = None
) -> Iterator[list[dict[str, Any]]]:
    """``units`` in order, cut into batches of at most ``max_units`` units and ``max_tokens``
    model tokens (default: the shipped ``LIMITS__STORE_BATCH`` and ``LIMITS__REQUEST_TOKENS``)."""
    if max_units is None or max_tokens is None:
        from app.core.settings.service import LimitsSettings

        limits = LimitsSettings()
        max_units = limits.store_batch if max_units is None else max_units
        max_tokens = limits.request_tokens if max_tokens is None else max_tokens
    return _cut(units, unit_tokens, max_units, max_tokens)


def _cut(
    items: Sequence[dict[str, Any]],
    cost: Callable[[dict[str, Any]], int],
    max_items: int,
    max_tokens: int,
) -> Iterator[list[dict[str, Any]]]:
    """``items`` in order, greedily cut into batches of at most ``max_items`` items whose
    ``cost`` comes to at most ``max_tokens`` (an item over it alone is its own batch)."""
    batch: list[dict[str, Any]] = []
    used = 0
    for item in items:
        n = cost(item)
        if batch and (len(batch) >= max_items or used + n > max_tokens):
            yield batch
            batch, used = [], 0
        batch.append(item)
        used += n
    if batch:
        yield batch


def message_window(message: dict[str, Any], text_tokens: int | None = None) -> int:
    """Model tokens the service embeds for a working-memory message: its first window, at
    most ``text_tokens`` (default: the shipped ``LIMITS__TEXT_TOKENS``)."""
    from app.clients.model_tokens import window_of

    if text_tokens is None:
        from app.core.settings.service import LimitsSettings

        text_tokens = LimitsSettings().text_tokens
    return window_of(_tokens(), message["content"], text_tokens)


def message_batches(
    messages: Sequence[dict[str, Any]],
    max_messages: int | None = None,
    max_tokens: int | None = None,
) -> Iterator[list[dict[str, Any]]]:
    """``messages`` in order, cut into appends of at most ``max_messages`` messages and
    ``max_tokens`` model tokens of embedding windows (default: the shipped
    ``LIMITS__MESSAGE_BATCH`` and ``LIMITS__REQUEST_TOKENS``; a text sent twice is counted
    each time here, which only makes a batch smaller than it could be)."""
    from app.core.settings.service import LimitsSettings

    limits = LimitsSettings()
    max_messages = limits.message_batch if max_messages is None else max_messages
    max_tokens = limits.request_tokens if max_tokens is None else max_tokens
    return _cut(messages, lambda m: message_window(m, limits.text_tokens), max_messages, max_tokens)
