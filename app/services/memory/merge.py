"""Merging a restatement into the unit it restates: the one implementation used by the write
path (``/store``, extraction, distillation, consolidation) and by corrections (a ``PATCH``
that makes a unit a duplicate of another). Whether two units are the same memory is decided
in ``services/memory/dedupe.py``; this module only says what the survivor keeps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.core.config import DedupeSettings
from app.core.text import entity_keys, search_text
from app.models import MemoryUnit
from app.repositories.memory.units import Neighbour
from app.services.memory.dedupe import same_memory


def first_duplicate(
    value: str,
    entity_keys: Iterable[str],
    neighbours: Iterable[Neighbour],
    settings: DedupeSettings,
) -> MemoryUnit | None:
    """The first of ``neighbours`` (nearest first) that ``same_memory`` says ``value`` (with
    its case-folded entities) restates, or None."""
    mine = frozenset(entity_keys)
    for n in neighbours:
        verdict = same_memory(
            value,
            n.unit.value,
            n.cosine,
            merge_cosine=settings.merge_cosine,
            min_overlap=settings.merge_min_overlap,
            new_entities=mine,
            old_entities=frozenset(n.unit.entity_keys),
        )
        if verdict.merge:
            return n.unit
    return None


def noisy_or(a: float, b: float) -> float:
    """Confidence of a fact confirmed twice by independent sources: 1-(1-a)(1-b), at most 1."""
    return min(1.0, 1.0 - (1.0 - a) * (1.0 - b))


@dataclass(frozen=True)
class Restatement:
    """What a restatement brings to the unit it merges into.

    ``query_embedding`` is adopted with ``query`` when the survivor has no query;
    ``source`` (with ``metadata``) is recorded in the survivor's ``metadata["sources"]``
    when given."""

    confidence: float
    raw_ref: Sequence[str] = ()
    entities: Sequence[str] = ()
    query: str | None = None
    query_embedding: Any = None
    source: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


def merge_into(survivor: MemoryUnit, restatement: Restatement, now: datetime) -> None:
    """Fold ``restatement`` into ``survivor``: confidence by noisy-OR, confirmed and updated
    now, one more merge, raw references and entities united (order kept, no repeats), the
    query adopted when the survivor has none, the keyword text rebuilt."""
    r = restatement
    survivor.confidence = noisy_or(survivor.confidence, r.confidence)
    survivor.last_confirmed_at = now
    survivor.updated_at = now
    survivor.merge_count = (survivor.merge_count or 0) + 1
    survivor.raw_ref = list(dict.fromkeys([*survivor.raw_ref, *r.raw_ref]))
    survivor.entities = list(dict.fromkeys([*survivor.entities, *r.entities]))
    survivor.entity_keys = entity_keys(survivor.entities)
    if r.query and not survivor.query:
        survivor.query = r.query
        if r.query_embedding is not None:
            survivor.query_embedding = r.query_embedding
    if r.source is not None:
        known = survivor.metadata_.get("sources", [survivor.source])
        sources = list(dict.fromkeys([*known, r.source]))
        survivor.metadata_ = {**r.metadata, **survivor.metadata_, "sources": sources}
    survivor.search_text = search_text(survivor.value, survivor.query, " ".join(survivor.entities))
