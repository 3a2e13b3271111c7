"""How recall converts the answer columns of its head (``UNIT_COLUMNS`` of
app.repositories.recall.sql) read as driver values: only the columns whose type needs it,
per dialect."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy.dialects.postgresql import ARRAY

from app.models import MemoryUnit
from app.repositories.recall.sql import SCORING_COLUMNS, UNIT_COLUMNS


def answer_processors(dialect: Any, cache: dict[str, list[Any]]) -> list[Any]:
    """Per UNIT_COLUMNS entry: None for the columns converted in the statement or needing no
    conversion, else the column type's result processor for ``dialect``. A one-dimensional
    array whose items need no conversion gets None too: its processor only copies the list
    the driver built (asyncpg returns arrays as lists), for every row. ``cache`` keeps them per
    dialect name (``RecallStatements.processors``)."""
    cached = cache.get(dialect.name)
    if cached is None:
        table = MemoryUnit.__table__.c
        cached = [None] * len(SCORING_COLUMNS) + [
            json.loads if name == "metadata_" else _result_processor(table, name, dialect)
            for name in UNIT_COLUMNS[len(SCORING_COLUMNS) :]
        ]
        cache[dialect.name] = cached
    return cached


def _result_processor(table: Any, name: str, dialect: Any) -> Any:
    """The result processor of MemoryUnit's attribute ``name`` for ``dialect`` (None when it
    needs none, or when it would only copy a list of unconverted items)."""
    col_type = table[getattr(MemoryUnit, name).property.columns[0].name].type
    if (
        isinstance(col_type, ARRAY)
        and dialect.driver == "asyncpg"
        and col_type.dimensions in (None, 1)
        and col_type.item_type.dialect_impl(dialect).result_processor(dialect, None) is None
        and not col_type.as_tuple
    ):
        return None
    return col_type.result_processor(dialect, None)
