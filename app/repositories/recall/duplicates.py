"""The one statement of recall's head (app.services.recall.collapse): for the best candidates
of a recall (``top_k`` plus a margin), the answer columns of each unit that still exists and
the pairs among them whose values are close enough for the pair decision or the diversity
step to look at — their cosine computed in the database from the stored value vectors (no
vector leaves it).

One round trip for what were two (the pairs, then the answer columns of the hits once the
collapse had chosen them): the answer columns of the whole head come back, and the collapse
keeps those of its hits. A fixed SQL text, so asyncpg prepares it once per connection and
nothing is built per recall (the ORM form of the pairs, a self-join of two ``aliased``
entities, cost ~2 ms of CPU per recall to build, ten times its execution on 15 ids); fetched
through the driver directly (app.repositories.recall.driver), without SQLAlchemy's execution
layer and a Row per unit.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any, NamedTuple

from sqlalchemy import TextualSelect, literal_column, text
from sqlalchemy.types import NullType

from app.models import MemoryUnit
from app.repositories.recall.sql import SCORING_COLUMNS, UNIT_COLUMNS


class ClosePair(NamedTuple):
    """Two units (``a`` before ``b`` in id order) and the cosine of their values."""

    a: uuid.UUID
    b: uuid.UUID
    a_value: str
    b_value: str
    a_type: str
    b_type: str
    a_keys: list[str]
    b_keys: list[str]
    cosine: float
    # The write path linked the two as duplicates across write subjects (memory_links kind
    # ``duplicate``, app.services.memory.elsewhere): one fact, whatever the cosine.
    linked: bool = False
    # Of the two, the unit a ``replaces`` link says the other changed (memory_links kind
    # ``replaces``: two write subjects, the newer said another value); else None.
    replaced: uuid.UUID | None = None


def _head_sql() -> TextualSelect:
    """Per unit of ``:ids``: UNIT_COLUMNS (``metadata`` as text, as ``UNITS_SQL`` reads it),
    its ``entity_keys`` (``_keys``), and the units of ``:ids`` after it in id order, of the
    same user (two users' facts are never one fact: a recall by ``agent_id`` alone reads
    several users), with the same value hash, a value cosine distance of at most
    ``:max_distance``, or a ``duplicate`` link (``_close``, id order) with their cosines
    (``_cos``, ``1 - distance``, the same expression as before the merge: the same bits),
    whether they are linked as duplicates (``_linked``) and, for a ``replaces`` link, the
    replaced unit's id (``_replaced``); NULL arrays when none."""
    table = MemoryUnit.__table__.c
    names = [getattr(MemoryUnit, n).property.columns[0].name for n in UNIT_COLUMNS]
    inner = ", ".join(names)
    outer = ", ".join(
        f"CAST(h.{col} AS TEXT) AS {attr}" if attr == "metadata_" else f"h.{col}"
        for attr, col in zip(UNIT_COLUMNS, names, strict=True)
    )
    sql = f"""
    WITH h AS MATERIALIZED (
        SELECT {inner}, entity_keys, value_hash, value_embedding
          FROM memory_units WHERE id = ANY(CAST(:ids AS uuid[]))
    ), d AS MATERIALIZED (
        SELECT DISTINCT ON (lo, hi) lo, hi, kind, old
          FROM (SELECT LEAST(target_id, source_id) AS lo, GREATEST(target_id, source_id) AS hi,
                       kind, source_id AS old
                  FROM memory_links
                 WHERE kind IN ('duplicate', 'replaces')
                   AND target_id = ANY(CAST(:ids AS uuid[]))
                   AND source_id = ANY(CAST(:ids AS uuid[]))) AS x
         ORDER BY lo, hi, kind
    )
    SELECT {outer}, h.entity_keys AS _keys, p.ids AS _close, p.cos AS _cos,
           p.linked AS _linked, p.replaced AS _replaced
      FROM h
      LEFT JOIN LATERAL (
          SELECT array_agg(b.id ORDER BY b.id) AS ids,
                 array_agg(1 - (h.value_embedding <=> b.value_embedding) ORDER BY b.id) AS cos,
                 array_agg(l.kind IS NOT DISTINCT FROM 'duplicate' ORDER BY b.id) AS linked,
                 array_agg(CASE WHEN l.kind = 'replaces' THEN l.old END ORDER BY b.id)
                     AS replaced
            FROM h AS b
            LEFT JOIN d AS l ON l.lo = h.id AND l.hi = b.id
           WHERE h.id < b.id
             AND h.user_id = b.user_id
             AND (h.value_hash = b.value_hash
                  OR (h.value_embedding <=> b.value_embedding)
                     <= CAST(:max_distance AS float8)
                  OR l.lo IS NOT NULL)
      ) AS p ON true
    """
    typed = {n: table[n].type for n in SCORING_COLUMNS}
    cols = [literal_column(n, typed.get(n, NullType())) for n in UNIT_COLUMNS]
    extra = ("_keys", "_close", "_cos", "_linked", "_replaced")
    cols += [literal_column(n, NullType()) for n in extra]
    return text(sql).columns(*cols)


HEAD_SQL = _head_sql()


# Where pairs_of finds its columns in a head row (asyncpg's records have no attributes).
_ID, _VALUE, _TYPE = (UNIT_COLUMNS.index(n) for n in ("id", "value", "type"))
_KEYS, _CLOSE, _COS, _LINKED, _REPLACED = (len(UNIT_COLUMNS) + i for i in range(5))


def pairs_of(rows: Sequence[Any]) -> list[ClosePair]:
    """The close pairs of the head statement's rows (read by position: SQLAlchemy's rows or
    asyncpg's records), in the order of their first unit's row, then id order."""
    by_id = {row[_ID]: row for row in rows}
    out: list[ClosePair] = []
    for a in rows:
        if not a[_CLOSE]:
            continue
        links = zip(a[_CLOSE], a[_COS], a[_LINKED], a[_REPLACED], strict=True)
        for b_id, cosine, linked, replaced in links:
            b = by_id[b_id]
            out.append(
                ClosePair(
                    a[_ID],
                    b[_ID],
                    a[_VALUE],
                    b[_VALUE],
                    a[_TYPE],
                    b[_TYPE],
                    list(a[_KEYS] or ()),
                    list(b[_KEYS] or ()),
                    float(cosine),
                    bool(linked),
                    replaced,
                )
            )
    return out
