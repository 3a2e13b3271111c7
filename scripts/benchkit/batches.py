"""``/store`` batches that fit the service's limits: at most ``LIMITS__STORE_BATCH`` units and
``LIMITS__REQUEST_TOKENS`` model tokens of values and scenarios (app/services/embedding_budget.py),
counted with the model's own tokenizer (the one the service counts with). A unit alone over
the token limit is its own batch (the service refuses it with a 422 that names it).

    from benchkit.batches import store_batches
    for batch in store_batches(units):
        client.post("/store", json={"memories": batch})
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
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
    batch: list[dict[str, Any]] = []
    used = 0
    for unit in units:
        n = unit_tokens(unit)
        if batch and (len(batch) >= max_units or used + n > max_tokens):
            yield batch
            batch, used = [], 0
        batch.append(unit)
        used += n
    if batch:
        yield batch
