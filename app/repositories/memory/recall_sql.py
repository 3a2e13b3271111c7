"""Column lists and statement builders of recall's SQL (app.repositories.memory.recall)."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import (
    ColumnElement,
    Select,
    Text,
    cast,
    func,
    literal,
    literal_column,
    select,
    text,
    type_coerce,
)
from sqlalchemy.dialects.postgresql import ARRAY, array
from sqlalchemy.types import NullType

from app.models import MemoryUnit
from app.repositories.memory.access_log import RECORD_CTES
from app.repositories.memory.filters import UnitFilters, filter_clauses

# The columns scoring needs, read for every candidate, and the columns a recall answer shows
# (app.schemas.memory.MemoryRead), read by :meth:`RecallRepository.units` for the hits only;
# never the two vectors (384 floats each, never shown), the keyword index, entity_keys,
# value_hash, updated_at and merge_count, which the detached units of a recall leave unset.
# Decoding the answer columns of every candidate (UUID arrays, JSONB, texts) cost more than
# the extra round trip for ten rows: 14.4 → 8.7 ms client-side for the 418 units of a subject
# (min of 40, loaded 2-core machine; docs/BENCHMARKS.md "Recall on small subjects").
SCORING_COLUMNS = ("id", "session_id", "occurred_at", "last_confirmed_at", "confidence")
UNIT_COLUMNS = SCORING_COLUMNS + tuple(
    (
        "namespace user_id agent_id task_id type value query entities source raw_ref "
        "metadata_ status superseded_by merged_into conflicts_with created_at "
        "last_accessed_at expires_at embedding_model"
    ).split()
)


def _raw(name: str) -> ColumnElement[Any]:
    """A column as the driver returns it (JSONB as its text: decoded for the hits only)."""
    col = getattr(MemoryUnit, name)
    if name == "metadata_":
        return type_coerce(cast(col, Text), NullType())
    return type_coerce(col, NullType())


def answer_processors(dialect: Any) -> list[Any]:
    """Per UNIT_COLUMNS entry: None for the columns converted in the statement, else the
    column type's result processor for ``dialect`` (None when it needs none)."""
    cached = _PROCESSORS.get(dialect.name)
    if cached is None:
        table = MemoryUnit.__table__.c
        cached = [None] * len(SCORING_COLUMNS) + [
            json.loads
            if name == "metadata_"
            else table[getattr(MemoryUnit, name).property.columns[0].name].type.result_processor(
                dialect, None
            )
            for name in UNIT_COLUMNS[len(SCORING_COLUMNS) :]
        ]
        _PROCESSORS[dialect.name] = cached
    return cached


_PROCESSORS: dict[str, list[Any]] = {}


def _units_sql(logged: bool) -> Any:
    """``SELECT UNIT_COLUMNS FROM memory_units WHERE id = ANY(:ids)``, after the access-log
    CTEs when ``logged``; the scoring columns typed, the others raw (see answer_processors). One
    text per form, so asyncpg prepares each once per connection."""
    table = MemoryUnit.__table__.c
    names = [getattr(MemoryUnit, n).property.columns[0].name for n in UNIT_COLUMNS]
    exprs = [
        f"CAST({col} AS TEXT) AS {attr}" if attr == "metadata_" else col
        for attr, col in zip(UNIT_COLUMNS, names, strict=True)
    ]
    body = f"SELECT {', '.join(exprs)} FROM memory_units WHERE id = ANY(CAST(:ids AS uuid[]))"
    typed = {n: table[n].type for n in SCORING_COLUMNS}
    stmt = text(("WITH " + RECORD_CTES + body) if logged else body)
    return stmt.columns(*(literal_column(n, typed.get(n, NullType())) for n in UNIT_COLUMNS))


UNITS_SQL = _units_sql(False)
UNITS_LOGGED_SQL = _units_sql(True)


def known_select(f: UnitFilters, keys: list[str]) -> Select:
    """``SELECT key FROM unnest(keys) WHERE EXISTS (a unit matching f names it)``."""
    cand = func.unnest(literal(keys, ARRAY(Text))).table_valued("key").render_derived("cand")
    probe = (
        select(literal(1))
        .where(*filter_clauses(f), MemoryUnit.entity_keys.contains(array([cand.c.key])))
        .limit(1)
        .correlate(cand)
    )
    return select(cand.c.key).where(probe.exists())
