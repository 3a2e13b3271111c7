"""The exact path's candidates, ranking and head in one statement (issue 29, aim 2): every unit
matching the filters scored in PostgreSQL by the hybrid score that
app.services.recall.scoring documents — the same operations in the same order, in double
precision, so the same bits — and only the best ``limit`` rows returned, with their answer
columns and close pairs (what :meth:`RecallRepository.head` reads).

The scaling over the candidates (semantic min-max, BM25's idf, document length and best
score, the session context) is computed by window functions and aggregates over all of
them, so the shortlist does not change the ranking. What the weights and constants are is
the caller's (:class:`RankSpec`): the ranking policy stays in the service.

No per-unit row leaves the database but the head's: the 400-700 candidate rows of a LoCoMo
subject were ~1 ms to transfer and decode and ~1.5 ms to rank in Python, and the head took a
second round trip.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

import numpy as np
from sqlalchemy import Text, bindparam
from sqlalchemy.dialects.postgresql import ARRAY, TSQUERY
from sqlalchemy.ext.asyncio import AsyncConnection

from app.models import MemoryUnit
from app.repositories.memory.filters import UnitFilters, filter_clauses
from app.repositories.recall.driver import fetch, positional
from app.repositories.recall.duplicates import ClosePair
from app.repositories.recall.exact import (
    _Compiled,
    _params,
    _placeholders,
    _query_vector,
    _values,
    shape,
)
from app.repositories.recall.sql import (
    UNIT_COLUMNS,
    RecalledUnit,
    exact_select,
    query_lexemes,
)
from app.repositories.recall.statements import RecallStatements


class RankSpec(NamedTuple):
    """The hybrid score's parameters (app.services.recall.scoring): the weights of semantic,
    keyword, recency, confidence, entity, context and time (in that order), the recency decay
    per hour, the clock, the query's time window ([start, end), or None), the time signal of
    a dated unit (None: the query does not ask *when*; ignored with a window), BM25's k1 and
    b, how many of the best rows to return, and the largest value cosine distance of a close
    pair of them (``1 - pair_floor``)."""

    weights: tuple[float, float, float, float, float, float, float]
    recency_lambda: float
    now: datetime
    window: tuple[datetime, datetime] | None
    dated_value: float | None
    k1: float
    b: float
    limit: int
    max_distance: float


class RankedRow(NamedTuple):
    """One row of the head, best first: its signals as scoring scales them (``semantic`` …
    ``time``), the weighted sum (``total``), the raw inputs of relevance (``cosine`` clipped
    at 0, ``coverage``, ``context_cosine``) and the semantic-keyword mix whose context the
    ``context`` signal is (``mix``)."""

    id: uuid.UUID
    total: float
    semantic: float
    keyword: float
    recency: float
    confidence: float
    entity: bool
    context: float
    time: float
    cosine: float
    coverage: float
    context_cosine: float
    mix: float


# The ranking's parameters after the inner statement's, in this order ($n numbers follow its).
_RANK_PARAMS = (
    "ws",
    "wk",
    "wr",
    "wc",
    "we",
    "wx",
    "wt",
    "lam",
    "now",
    "win_start",
    "win_end",
    "dated_value",
    "k1",
    "b",
    "lim",
    "max_distance",
)

# The scoring of app.services.recall.scoring in SQL, over ``c`` (the exact path's rows, in
# the order the candidates statement returns them: ``rn``). Every operand is float8 and
# every operation the one Python does, in its order (``a + b + c`` is left-associative in
# both), so each value has the same bits. {inner}: the candidates statement; {p[name]}: the
# placeholder of a ranking parameter; {unit_cols} / {head_cols}: the answer columns.
_RANKED_SQL = """
WITH c AS MATERIALIZED (
    SELECT row_number() OVER () AS rn, i.* FROM ({inner}) AS i
),
t AS (
    SELECT c.rn, c._dl, h.lex, h.ord FROM c, unnest(c._hits) WITH ORDINALITY AS h(lex, ord)
),
st AS (
    SELECT count(*) AS n,
           CAST(sum(greatest(c._dl, 1)) AS float8) / CAST(count(*) AS float8) AS avg_len,
           min(greatest(c._sv, c._sq)) AS lo,
           max(greatest(c._sv, c._sq)) AS hi,
           coalesce(bool_or(c._ent), false) AS named
      FROM c
),
df AS (
    SELECT t.lex,
           ln(CAST(1.0 AS float8)
              + (CAST(st.n - count(*) AS float8) + CAST(0.5 AS float8))
                / (CAST(count(*) AS float8) + CAST(0.5 AS float8))) AS idf,
           min(t.rn * 64 + t.ord) AS first
      FROM t, st
     GROUP BY t.lex, st.n
),
tot AS (SELECT sum(df.idf ORDER BY df.first) AS idf_total FROM df),
kw AS (
    SELECT t.rn,
           sum(df.idf * ({p[k1]} + CAST(1.0 AS float8))
               / (CAST(1.0 AS float8)
                  + {p[k1]} * (CAST(1.0 AS float8) - {p[b]}
                               + {p[b]} * CAST(greatest(t._dl, 1) AS float8) / st.avg_len))
               ORDER BY t.ord) AS bm25,
           sum(df.idf ORDER BY t.ord) AS idf_sum
      FROM t JOIN df ON df.lex = t.lex, st
     GROUP BY t.rn
),
kmax AS (SELECT coalesce(max(kw.bm25), CAST(0.0 AS float8)) AS m FROM kw),
r AS (
    SELECT c.rn, c.id, c.session_id, c.occurred_at, c.confidence, c._ent,
           CASE WHEN st.hi - st.lo < CAST(1e-9 AS float8)
                THEN CASE WHEN st.hi > 0 THEN CAST(1.0 AS float8) ELSE CAST(0.0 AS float8) END
                ELSE (greatest(c._sv, c._sq) - st.lo) / (st.hi - st.lo) END AS sem,
           CASE WHEN kmax.m > 0 THEN coalesce(kw.bm25, CAST(0.0 AS float8)) / kmax.m
                ELSE CAST(0.0 AS float8) END AS kwd,
           CASE WHEN greatest(c._sv, c._sq) > 0 THEN greatest(c._sv, c._sq)
                ELSE CAST(0.0 AS float8) END AS cos,
           CASE WHEN kw.idf_sum IS NOT NULL AND tot.idf_total > 0
                THEN kw.idf_sum / tot.idf_total ELSE CAST(0.0 AS float8) END AS cov,
           CASE WHEN {p[win_start]} IS NOT NULL
                THEN CASE WHEN {p[win_start]} <= c.occurred_at AND c.occurred_at < {p[win_end]}
                          THEN CAST(1.0 AS float8) ELSE CAST(0.0 AS float8) END
                WHEN {p[dated_value]} IS NOT NULL AND c._dated THEN {p[dated_value]}
                ELSE CAST(0.0 AS float8) END AS tim,
           -{p[lam]} * greatest(CAST(0.0 AS float8),
                                CAST(extract(epoch FROM {p[now]})
                                     - extract(epoch FROM c.occurred_at) AS float8)
                                / CAST(3600.0 AS float8)) AS rec_x
      FROM c CROSS JOIN st CROSS JOIN kmax CROSS JOIN tot LEFT JOIN kw ON kw.rn = c.rn
),
m AS (
    SELECT r.*,
           CASE WHEN {p[ws]} + {p[wk]} > 0
                THEN ({p[ws]} * r.sem + {p[wk]} * r.kwd) / ({p[ws]} + {p[wk]})
                ELSE CAST(0.0 AS float8) END AS mix
      FROM r
),
x AS (
    SELECT m.*,
           CASE WHEN m.session_id IS NULL THEN m.mix
                ELSE CAST(0.5 AS float8)
                     * coalesce(greatest(lag(m.mix) OVER s, lead(m.mix) OVER s), m.mix)
                     + CAST(0.5 AS float8) * max(m.mix) OVER a END AS ctx,
           CASE WHEN m.session_id IS NULL THEN m.cos
                ELSE CAST(0.5 AS float8)
                     * coalesce(greatest(lag(m.cos) OVER s, lead(m.cos) OVER s), m.cos)
                     + CAST(0.5 AS float8) * max(m.cos) OVER a END AS ctx_cos,
           CASE WHEN m.rec_x < CAST(-708.0 AS float8) THEN CAST(0.0 AS float8)
                ELSE exp(m.rec_x) END AS rec
      FROM m
    WINDOW s AS (PARTITION BY m.session_id COLLATE "C" ORDER BY m.occurred_at, m.id),
           a AS (s ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
),
top AS MATERIALIZED (
    SELECT x.*,
           {p[ws]} * x.sem + {p[wk]} * x.kwd + {p[wr]} * x.rec + {p[wc]} * x.confidence
           + {p[we]} * CASE WHEN x._ent THEN CAST(1.0 AS float8) ELSE CAST(0.0 AS float8) END
           + {p[wx]} * x.ctx + {p[wt]} * x.tim AS total
      FROM x
     ORDER BY total DESC, x.occurred_at DESC, x.id
     LIMIT {p[lim]}
),
h AS MATERIALIZED (
    SELECT {unit_cols}, entity_keys, value_hash, value_embedding
      FROM memory_units WHERE id IN (SELECT top.id FROM top)
)
SELECT {head_cols}, h.entity_keys AS _keys, pr.ids AS _close, pr.cos AS _cos,
       top.total, top.sem, top.kwd, top.rec, top._ent, top.ctx, top.tim, top.cos, top.cov,
       top.ctx_cos, top.mix, st.named, st.n, (SELECT c._known FROM c LIMIT 1) AS _known
  FROM top JOIN h ON h.id = top.id CROSS JOIN st
  LEFT JOIN LATERAL (
      SELECT array_agg(b.id ORDER BY b.id) AS ids,
             array_agg(1 - (h.value_embedding <=> b.value_embedding) ORDER BY b.id) AS cos
        FROM h AS b
       WHERE h.id < b.id
         AND (h.value_hash = b.value_hash
              OR (h.value_embedding <=> b.value_embedding) <= {p[max_distance]})
  ) AS pr ON true
 ORDER BY top.total DESC, top.occurred_at DESC, top.id
"""

_TYPES = {
    "now": "timestamptz",
    "win_start": "timestamptz",
    "win_end": "timestamptz",
    "lim": "int",
}

# Where the ranking columns start in a row: after UNIT_COLUMNS and the pairs' three.
_RANK_AT = len(UNIT_COLUMNS) + 3


def _statement(f: UnitFilters, has_embedding: bool, has_entities: bool) -> Any:
    """The exact path's rows (``sql.exact_select``, one per unit) for the placeholders ``f``."""
    q = query_lexemes("", (), None)
    emb = _query_vector() if has_embedding else None
    ents = bindparam("ents", type_=ARRAY(Text)) if has_entities else None
    dated = bindparam("dated", type_=TSQUERY)
    predicted = bindparam("predicted", type_=ARRAY(Text)) if has_entities else None
    return exact_select(filter_clauses(f), q, emb, ents, dated, predicted, False)


def _compile(f: UnitFilters, has_embedding: bool, has_entities: bool, dialect: Any) -> _Compiled:
    stmt = _statement(_placeholders(f), has_embedding, has_entities)
    compiled = stmt.compile(dialect=dialect)
    inner, order = positional(compiled)
    base = max((int(n) for n in re.findall(r"\$(\d+)", inner)), default=0)
    if base != len(order):
        raise RuntimeError("the candidates statement's parameters are not numbered 1..n")
    marks = {}
    for i, name in enumerate(_RANK_PARAMS, start=base + 1):
        marks[name] = f"CAST(${i} AS {_TYPES.get(name, 'float8')})"
    names = [getattr(MemoryUnit, n).property.columns[0].name for n in UNIT_COLUMNS]
    head_cols = ", ".join(
        f"CAST(h.{col} AS TEXT) AS {attr}" if attr == "metadata_" else f"h.{col}"
        for attr, col in zip(UNIT_COLUMNS, names, strict=True)
    )
    sql = _RANKED_SQL.format(inner=inner, p=marks, unit_cols=", ".join(names), head_cols=head_cols)
    processors = dict(compiled._bind_processors)
    variable = set(_values(f, None, "", (), []))
    variable.update(n for n in order if n.startswith(("f_status", "f_type")))
    defaults = compiled.construct_params(_check=False)
    constants = {}
    for name in order:
        if name not in variable:
            value, proc = defaults[name], processors.get(name)
            constants[name] = proc(value) if proc is not None else value
    return _Compiled(sql, (*order, *(f"r_{n}" for n in _RANK_PARAMS)), constants, processors)


@dataclass
class RankedCandidates:
    """What :meth:`RecallRepository.ranked` found: ``size`` (how many units were
    candidates), ``known`` (which of the entity candidates name an entity of a unit matching
    the filters, in the order given), the head best first (``ranked``) with the answer
    columns of its units (``units``, by id) and its close pairs (``pairs``, as
    :meth:`RecallRepository.head` reads them), and ``named`` (some candidate names an
    entity the query names)."""

    size: int
    known: list[str]
    ranked: list[RankedRow]
    named: bool
    units: dict[uuid.UUID, RecalledUnit] = field(default_factory=dict)
    pairs: list[ClosePair] = field(default_factory=list)


class RankedHead(NamedTuple):
    """What :func:`ranked_rows` found: ``size`` (how many units were candidates), the head's
    rows best first (``ranked``, ``rows``: the driver's rows, whose first columns are
    UNIT_COLUMNS and the pairs' ``_keys``, ``_close``, ``_cos``: what ``RecallRepository``
    converts), ``named`` (some candidate names an entity the query names) and ``known`` (the
    keys found, None when they are the ones predicted)."""

    size: int
    ranked: list[RankedRow]
    rows: Sequence[Any]
    named: bool
    known: list[str] | None


async def ranked_rows(
    conn: AsyncConnection,
    f: UnitFilters,
    embedding: np.ndarray | None,
    keyword_text: str,
    ents: list[str],
    skip: Sequence[str],
    statements: RecallStatements,
    spec: RankSpec,
    dated: str | None = None,
    predicted: list[str] | None = None,
) -> RankedHead | None:
    """The best ``spec.limit`` units of the exact path ranked in one statement (see the
    module), or None when ``f`` has no cached shape or the driver is not asyncpg (the caller
    reads the candidates and ranks them itself). Parameters as ``exact.exact_rows``."""
    if conn.dialect.driver != "asyncpg":
        return None
    key = shape(f, embedding is not None, bool(ents), False)
    if key is None:
        return None
    cache_key = (conn.dialect.name, ("ranked", *key))
    compiled: _Compiled | None = statements.exact.get(cache_key)
    if compiled is None:
        compiled = _compile(f, embedding is not None, bool(ents), conn.dialect)
        statements.exact[cache_key] = compiled
    binds = _values(f, embedding, keyword_text, skip, ents, dated, predicted)
    window = spec.window
    rank_values = (
        *spec.weights,
        spec.recency_lambda,
        spec.now,
        window[0] if window else None,
        window[1] if window else None,
        spec.dated_value,
        spec.k1,
        spec.b,
        spec.limit,
        spec.max_distance,
    )
    binds.update(zip((f"r_{n}" for n in _RANK_PARAMS), rank_values, strict=True))
    rows = await fetch(conn, compiled.sql, _params(compiled, binds))
    if not rows:
        return RankedHead(0, [], rows, False, [])
    at = _RANK_AT
    ranked = [
        RankedRow(
            row[0],
            row[at],
            row[at + 1],
            row[at + 2],
            row[at + 3],
            row[3],  # confidence, as read
            row[at + 4],
            row[at + 5],
            row[at + 6],
            row[at + 7],
            row[at + 8],
            row[at + 9],
            row[at + 10],
        )
        for row in rows
    ]
    first = rows[0]
    known = first[at + 13]
    return RankedHead(int(first[at + 12]), ranked, rows, bool(first[at + 11]), known)
