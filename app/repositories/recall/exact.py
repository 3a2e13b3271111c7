"""The candidates statement of a recall on a small subject (the exact path of
:meth:`app.repositories.recall.repository.RecallRepository.candidates`: every unit matching the
filters is a candidate), compiled once per *shape* and cached per process, so that a recall
only binds its values.

A shape is what changes the SQL text: which filters are set (and how many statuses and
types), whether there is a query embedding and whether the query names entity candidates.
Its statement is built with named bind parameters in place of every value (the same
SQLAlchemy constructs as the general builder: ``filter_clauses``, ``query_lexemes``,
``sql.exact_select``), compiled once for the connection's dialect, and then executed as driver
SQL with the values in positional order, after the same bind processors SQLAlchemy would
apply. Building the statement, generating its cache key and looking it up in SQLAlchemy's
compiled cache cost milliseconds of CPU per recall, more than the statement's execution on
a small subject.

Filters with ``entity_keys`` or ``review_pending`` have no cached shape (None: the caller
builds the statement as for any other read).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import BigInteger, Select, Text, bindparam, cast, func, select
from sqlalchemy.dialects.postgresql import ARRAY, REAL, TSQUERY
from sqlalchemy.ext.asyncio import AsyncConnection

from app.models import MemoryUnit
from app.repositories.memory.filters import UnitFilters, filter_clauses
from app.repositories.recall.driver import fetch, positional
from app.repositories.recall.sql import KEY_SEPARATOR, exact_select, query_lexemes
from app.repositories.recall.statements import RecallStatements


class _Compiled(NamedTuple):
    """One shape's statement: its SQL, the bind names in positional order, the values of
    the binds that are constant for the shape (already processed) and the bind processors
    of the others."""

    sql: str
    order: tuple[str, ...]
    constants: dict[str, Any]
    processors: dict[str, Callable[[Any], Any]]


# Process-wide: (dialect name, shape) -> compiled statement. A few dozen shapes at most.


def shape(
    f: UnitFilters, has_embedding: bool, has_entities: bool, values: bool = False
) -> tuple[Any, ...] | None:
    """What of ``f`` and the query changes the statement's text (None: not cached);
    ``values``: the statement also reads each unit's value (``_value``)."""
    if f.entity_keys or f.review_pending:
        return None
    agent = 2 if f.agent_id is not None else 1 if f.exact_agent else 0
    return (
        f.user_id is not None,
        agent,
        f.session_id is not None,
        len(f.types or ()),
        f.since is not None,
        f.until is not None,
        len(f.statuses),
        f.now is not None and not f.include_expired,
        f.as_of is not None,
        has_embedding,
        has_entities,
        values,
    )


def _bp(name: str, column: Any) -> Any:
    return bindparam(name, type_=column.type)


def _placeholders(f: UnitFilters) -> UnitFilters:
    """``f`` with a named bind parameter in place of each value set (see :func:`_values`)."""
    u = MemoryUnit
    return UnitFilters(
        namespace=_bp("f_ns", u.namespace),
        user_id=_bp("f_user", u.user_id) if f.user_id is not None else None,
        agent_id=_bp("f_agent", u.agent_id) if f.agent_id is not None else None,
        session_id=_bp("f_session", u.session_id) if f.session_id is not None else None,
        types=[_bp(f"f_type{i}", u.type) for i in range(len(f.types))] if f.types else None,
        since=_bp("f_since", u.occurred_at) if f.since is not None else None,
        until=_bp("f_until", u.occurred_at) if f.until is not None else None,
        statuses=[_bp(f"f_status{i}", u.status) for i in range(len(f.statuses))],
        exact_agent=f.exact_agent,
        now=_bp("f_now", u.expires_at) if f.now is not None else None,
        include_expired=f.include_expired,
        as_of=_bp("f_asof", u.occurred_at) if f.as_of is not None else None,
    )


def _values(
    f: UnitFilters,
    embedding: Any,
    keyword_text: str,
    skip: Sequence[str],
    ents: list[str],
    dated: str | None = None,
) -> dict[str, Any]:
    """The bind values of one recall, by the names :func:`_placeholders` and
    :func:`_statement` give them."""
    values: dict[str, Any] = {
        "f_ns": f.namespace,
        "f_user": f.user_id,
        "f_agent": f.agent_id,
        "f_session": f.session_id,
        "f_since": f.since,
        "f_until": f.until,
        "f_now": f.now,
        "f_asof": f.as_of,
        "kw": keyword_text,
        "skip": list(skip),
        "ents": ents,
        "emb": embedding,
        "dated": dated,
    }
    for i, status in enumerate(f.statuses):
        values[f"f_status{i}"] = status
    for i, unit_type in enumerate(f.types or ()):
        values[f"f_type{i}"] = unit_type
    return values


def _query_vector() -> Any:
    """The query embedding as the statement reads it: bound as ``real[]`` (asyncpg sends it
    in binary, 384 floats copied, against ~0.2-0.35 ms of CPU per recall to format pgvector's
    text of 384 float reprs) and cast to ``vector`` once, in a sub-select (a cast of the bound
    value itself would run per row under a generic plan). The same float32 values either way:
    the text held each one's exact decimal."""
    return select(cast(bindparam("emb", type_=ARRAY(REAL)), Vector())).scalar_subquery()


def _statement(f: UnitFilters, has_embedding: bool, has_entities: bool, values: bool) -> Any:
    """The exact path's statement for the placeholders ``f``: the columns and raw signals of
    every unit matching the filters (RecallRepository.candidates with ``exact=True``), the
    entity keys of the units naming an entity candidate (``sql.exact_select``); ``values``:
    with ``_value``."""
    q = query_lexemes("", (), None)  # binds "kw" and "skip", valued per recall
    emb = _query_vector() if has_embedding else None
    ents = bindparam("ents", type_=ARRAY(Text)) if has_entities else None
    dated = bindparam("dated", type_=TSQUERY)
    return as_columns(exact_select(filter_clauses(f), q, emb, ents, dated, values), has_entities)


def as_columns(stmt: Select[Any], keys: bool = True) -> Select[Any]:
    """``stmt``'s rows as one row of arrays, a column each (``array_agg`` over its rows, all
    in one pass, so the arrays are aligned; no rows: NULLs): asyncpg decodes the same values
    without a record and a message per unit. ``occurred_at`` in microseconds since the Unix
    epoch (a ``bigint``: decoded several times faster than a ``timestamptz``); ``_hits`` (a
    ``text[]`` per unit) as one string per unit, its lexemes joined by a space (a lexeme of
    the keyword index holds none); ``_known`` (per unit, its entity keys joined by
    ``sql.KEY_SEPARATOR`` or NULL) as one string of every non-NULL one, joined the same way
    (NULL when none; without ``keys``, the statement's ``_known`` is a NULL of every row,
    read once)."""
    t = stmt.subquery("t")
    cols: list[Any] = []
    for col in t.c:
        name = col.key
        if name == "_hits":
            cols.append(func.array_agg(func.array_to_string(col, " ")).label(name))
        elif name == "occurred_at":  # microseconds since the epoch, exact (rows.MicroTimes)
            micros = cast(func.extract("epoch", col) * 1_000_000, BigInteger)
            cols.append(func.array_agg(micros).label(name))
        elif name == "_known":
            agg = func.string_agg(col, KEY_SEPARATOR) if keys else func.max(col)
            cols.append(agg.label(name))
        else:
            cols.append(func.array_agg(col).label(name))
    return select(*cols)


def _compile(
    f: UnitFilters, has_embedding: bool, has_entities: bool, values: bool, dialect: Any
) -> _Compiled:
    stmt = _statement(_placeholders(f), has_embedding, has_entities, values)
    compiled = stmt.compile(dialect=dialect)
    sql, order = positional(compiled)
    processors = dict(compiled._bind_processors)
    variable = set(_values(f, None, "", (), []))
    variable.update(n for n in order if n.startswith(("f_status", "f_type")))
    defaults = compiled.construct_params(_check=False)
    constants = {}
    for name in order:
        if name not in variable:
            value, proc = defaults[name], processors.get(name)
            constants[name] = proc(value) if proc is not None else value
    return _Compiled(sql, order, constants, processors)


async def exact_rows(
    conn: AsyncConnection,
    f: UnitFilters,
    embedding: np.ndarray | None,
    keyword_text: str,
    ents: list[str],
    skip: Sequence[str],
    statements: RecallStatements,
    dated: str | None = None,
    values: bool = False,
) -> Sequence[Any] | None:
    """The exact path's statement's rows as one row of arrays (:func:`as_columns`; columns
    as :func:`_statement` selects them), or None when ``f`` has no cached shape. ``statements``
    keeps the statements compiled so far, by (dialect, shape). ``dated``: the tsquery of the
    ``_dated`` column (None: NULL). ``values``: each row also has the unit's value
    (``_value``, before ``_known``)."""
    key = shape(f, embedding is not None, bool(ents), values)
    if key is None:
        return None
    dialect = conn.dialect
    cache_key = (dialect.name, key)
    compiled: _Compiled | None = statements.exact.get(cache_key)
    if compiled is None:
        compiled = _compile(f, embedding is not None, bool(ents), values, dialect)
        statements.exact[cache_key] = compiled
    binds = _values(f, embedding, keyword_text, skip, ents, dated)
    # The driver's own fetch (app.repositories.recall.driver): one read-only statement.
    rows = await fetch(conn, compiled.sql, _params(compiled, binds))
    row: Sequence[Any] = rows[0]  # one row whatever the units (array_agg)
    return row


def _params(compiled: _Compiled, values: dict[str, Any]) -> tuple[Any, ...]:
    """The positional parameters of one recall: constants as compiled, values processed as
    SQLAlchemy would process them; the query embedding as a list of floats (``real[]``,
    :func:`_query_vector`)."""
    constants, processors = compiled.constants, compiled.processors
    params = []
    for name in compiled.order:
        if name in constants:
            params.append(constants[name])
            continue
        value = values[name]
        proc = processors.get(name)
        if name == "emb" and isinstance(value, np.ndarray):
            params.append(value.tolist())
        elif proc is None:
            params.append(value)
        else:
            params.append(proc(value))
    return tuple(params)
