"""Folding a restatement into the unit that already holds the fact: the one merge of the
write path (``/store``, extraction), of corrections (``PATCH``) and of the reconciliation
job. The survivor keeps its id and value; its confidence is raised by noisy-OR (two
independent confirmations: 1-(1-a)(1-b)), ``last_confirmed_at`` refreshed, ``merge_count``
bumped, and references, entities, sources and a missing trigger scenario carried over."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from app.core.text import entity_keys, search_text
from app.models import MemoryUnit


def noisy_or(a: float, b: float) -> float:
    """Confidence of a fact confirmed twice by independent sources: 1-(1-a)(1-b)."""
    return min(1.0, 1.0 - (1.0 - a) * (1.0 - b))


def confirm(
    survivor: MemoryUnit,
    *,
    confidence: float,
    raw_ref: Sequence[str],
    entities: Sequence[str],
    source: str,
    metadata: dict[str, Any],
    now: datetime,
    query: str | None = None,
    query_embedding: Any | None = None,
) -> None:
    """Record a restatement on ``survivor`` (mutated in place; see the module docstring)."""
    survivor.confidence = noisy_or(survivor.confidence, confidence)
    survivor.last_confirmed_at = now
    survivor.updated_at = now
    survivor.merge_count = (survivor.merge_count or 0) + 1
    survivor.raw_ref = list(dict.fromkeys([*survivor.raw_ref, *raw_ref]))
    survivor.entities = list(dict.fromkeys([*survivor.entities, *entities]))
    survivor.entity_keys = entity_keys(survivor.entities)
    if query and not survivor.query:
        survivor.query = query
        if query_embedding is not None:
            survivor.query_embedding = query_embedding
    sources = list(dict.fromkeys([*survivor.metadata_.get("sources", [survivor.source]), source]))
    survivor.metadata_ = {**metadata, **survivor.metadata_, "sources": sources}
    survivor.search_text = search_text(survivor.value, survivor.query, " ".join(survivor.entities))


def absorb(survivor: MemoryUnit, unit: MemoryUnit, now: datetime, reason: str) -> None:
    """Merge the stored ``unit`` into ``survivor``: ``unit`` becomes ``merged`` with
    ``merged_into`` = the survivor (kept for history; its id resolves to the survivor)."""
    confirm(
        survivor,
        confidence=unit.confidence,
        raw_ref=unit.raw_ref,
        entities=unit.entities,
        source=unit.source,
        metadata={k: v for k, v in unit.metadata_.items() if k != "sources"},
        now=now,
        query=unit.query,
        query_embedding=unit.query_embedding,
    )
    unit.status = "merged"
    unit.merged_into = survivor.id
    unit.updated_at = now
    unit.metadata_ = {**unit.metadata_, "merged": {"into": str(survivor.id), "reason": reason,
                                                   "at": now.isoformat()}}  # fmt: skip
