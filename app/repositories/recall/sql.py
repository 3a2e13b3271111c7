"""Column lists and statement builders of recall's SQL (app.repositories.recall.repository)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import (
    CTE,
    BindParameter,
    ColumnClause,
    ColumnElement,
    CompoundSelect,
    Select,
    Text,
    bindparam,
    case,
    func,
    literal,
    literal_column,
    null,
    select,
    text,
    type_coerce,
    union_all,
)
from sqlalchemy.dialects.postgresql import ARRAY, TSQUERY, aggregate_order_by, array
from sqlalchemy.types import NullType

from app.models import MemoryUnit
from app.repositories.memory.access_log import RECORD_CTES
from app.repositories.memory.filters import UnitFilters, filter_clauses


# The columns scoring needs, read for every candidate, and the columns a recall answer shows
# (app.schemas.memory.MemoryRead), read by :meth:`RecallRepository.head` for the head of the
# ranking only; never the two vectors (384 floats each, never shown), the keyword index,
# entity_keys, value_hash, updated_at and merge_count, which the detached units of a recall
# leave unset. Decoding the answer columns of every candidate (UUID arrays, JSONB, texts) cost
# more than the extra round trip for fifteen rows.
class RecalledUnit(NamedTuple):
    """A recalled unit: the answer columns of a memory unit, as the ORM converts them (what
    app.schemas.memory.MemoryRead and the context builder read). Not an ORM object: building
    ten MemoryUnit instances cost more than the statement (~2 ms each on a loaded machine).
    The fields are :data:`UNIT_COLUMNS`, in the statement's order; the first four are the
    :data:`SCORING_COLUMNS`."""

    id: uuid.UUID
    session_id: str | None
    occurred_at: datetime
    confidence: float
    last_confirmed_at: datetime
    namespace: str
    user_id: str
    agent_id: str | None
    task_id: str | None
    type: str
    value: str
    query: str | None
    entities: list[str]
    source: str
    raw_ref: list[str]
    metadata_: dict[str, Any]
    status: str
    superseded_by: uuid.UUID | None
    merged_into: uuid.UUID | None
    conflicts_with: list[uuid.UUID]
    created_at: datetime
    last_accessed_at: datetime | None
    expires_at: datetime | None
    embedding_model: str
    valid_to: datetime | None


UNIT_COLUMNS: tuple[str, ...] = RecalledUnit._fields
# Not last_confirmed_at: ranking never reads it, and decoding a timestamp per candidate cost
# ~0.5 ms of the candidates statement's ~5 ms at LoCoMo size (676 rows, 2-core machine).
SCORING_COLUMNS = UNIT_COLUMNS[:4]


# The query's lexemes (as the keyword index stems them) and the OR tsquery of those not
# skipped; a lexeme is quoted for tsquery input (quotes doubled), so it is not stemmed again.
_QUERY_LEXEMES = """
SELECT s.lex,
       (SELECT CAST(string_agg('''' || replace(x, '''', '''''') || '''', ' | ') AS tsquery)
          FROM unnest(s.lex) AS x WHERE x <> ALL(:skip)) AS ctsq
  FROM (SELECT tsvector_to_array(to_tsvector('english'::regconfig, :kw)) AS lex) AS s
"""

# The same for large subjects, whose keyword candidates are only those the GIN index finds
# without visiting every unit that holds one mid-frequency lexeme: a unit matches when it
# holds a query lexeme that is neither skipped nor in :pair (a rare one), or two lexemes of
# :pair (mid-frequency ones: alone, each matches up to keyword_candidate_max_share of the
# units, and such single matches rank low). A query without a rare lexeme or a pair falls
# back to the OR of its lexemes not skipped. ``rtsq``, that OR, ranks the matches (as
# ``ctsq`` of _QUERY_LEXEMES does).
_QUERY_LEXEMES_LARGE = """
SELECT s.lex, s.rtsq,
       COALESCE(
         (SELECT CAST(string_agg(t, ' | ') AS tsquery)
            FROM (SELECT '''' || replace(x, '''', '''''') || '''' AS t
                    FROM unnest(s.lex) AS x WHERE x <> ALL(:skip) AND x <> ALL(:pair)
                  UNION ALL
                  SELECT '(''' || replace(a, '''', '''''') || ''' & '''
                         || replace(b, '''', '''''') || ''')'
                    FROM unnest(s.lex) AS a, unnest(s.lex) AS b
                   WHERE a < b AND a = ANY(:pair) AND b = ANY(:pair)
                     AND a <> ALL(:skip) AND b <> ALL(:skip)) AS parts),
         s.rtsq) AS ctsq
  FROM (SELECT l.lex,
               (SELECT CAST(string_agg('''' || replace(x, '''', '''''') || '''', ' | ')
                            AS tsquery)
                  FROM unnest(l.lex) AS x WHERE x <> ALL(:skip)) AS rtsq
          FROM (SELECT tsvector_to_array(to_tsvector('english'::regconfig, :kw)) AS lex)
               AS l) AS s
"""


def query_lexemes(keyword_text: str, skip: Sequence[str], pair: Sequence[str] | None) -> CTE:
    """The CTE ``q`` of one recall statement: ``lex`` (text[], the query's lexemes stemmed by
    the keyword index's configuration, ``english``) and ``ctsq`` (tsquery that selects the
    keyword candidates; NULL when every lexeme is skipped). ``pair`` None (the exact path):
    ``ctsq`` is the OR of the lexemes not in ``skip``. Else (large subjects) the CTE also has
    ``rtsq``, that OR, which ranks them, and ``ctsq`` takes a lexeme of ``pair`` only together
    with another one (_QUERY_LEXEMES_LARGE)."""
    params: list[BindParameter[Any]] = [
        bindparam("kw", keyword_text, type_=Text),
        bindparam("skip", list(skip), type_=ARRAY(Text)),
    ]
    cols: dict[str, Any] = {"lex": ARRAY(Text), "ctsq": TSQUERY}
    sql = _QUERY_LEXEMES
    if pair is not None:
        params.append(bindparam("pair", list(pair), type_=ARRAY(Text)))
        cols["rtsq"] = TSQUERY
        sql = _QUERY_LEXEMES_LARGE
    return text(sql).bindparams(*params).columns(**cols).cte("q")


# Per unit, the query lexemes it contains (BM25 presence), against the query's lexemes
# stemmed once by the same configuration as the index: the index's lexemes all carry weight D
# (``to_tsvector`` of the generated column sets none), so marking the query's A and keeping the
# A ones is the intersection, in three C calls per row. It replaced a per-row
# ``ARRAY(SELECT … FROM unnest(tsvector_to_array(…)) WHERE x = ANY(…))`` sub-plan, about
# 3x slower to execute, with the same lexemes per unit for every question of LoCoMo dev.
HITS: ColumnClause[Any] = literal_column(
    "tsvector_to_array(ts_filter(setweight(memory_units.search_tsv, 'A', "
    "CAST((SELECT lex FROM q) AS text[])), '{a}'))"
)


# Lexemes (as the keyword index stems them) of the words that date what a text tells:
# relative days and periods, "ago", month and weekday names, seasons, 年 and 月 apart from
# other characters (2027年3月14日, 这个月), and the Chinese relative days, years, weeks and
# seasons as jieba's search mode cuts them (昨天, 去年, 上个月, 前天, 上星期 → 星期, 几天前 →
# 几天, 半年前 → 年前): like "yesterday", read against the unit's ``occurred_at``. A unit
# holding one "carries a date" (the ``_dated`` column): the units a question asking *when*
# prefers.
DATE_LEXEMES = (
    "yesterday today tonight tomorrow ago week weekend month year januari februari march april "
    "may june juli august septemb octob novemb decemb monday tuesday wednesday thursday friday "
    "saturday sunday summer winter spring autumn 年 月 "
    "昨天 今天 明天 前天 后天 昨晚 今晚 今早 去年 今年 明年 前年 上个月 下个月 本月 上周 下周 本周 "
    "这周 周末 星期 礼拜 周一 周二 周三 周四 周五 周六 周日 春天 夏天 秋天 冬天 几天 年前"
).split()
# A date written in numbers, 2027-03-14 (how the extractor writes a resolved day):
# app.core.text.search_text keeps its year and month as two tokens in a row.
_NUMERIC_DATE = "('19':* | '20':*) <-> ({})".format(
    " | ".join(f"'{month:02d}'" for month in range(1, 13))
)
DATED_TSQUERY = " | ".join([*DATE_LEXEMES, _NUMERIC_DATE])


def _signal_columns(
    q: CTE,
    emb: ColumnElement[Any] | None,
    ents: BindParameter[Any] | None,
    dated: BindParameter[Any] | None,
    values: bool = False,
) -> list[ColumnElement[Any]]:
    """The SCORING_COLUMNS and raw signals of :func:`signals_select`, labelled, ``_known``
    aside; with ``values``, the unit's ``value`` last (``_value``)."""
    u = MemoryUnit
    if emb is not None:
        sem_v: ColumnElement[Any] = 1 - u.value_embedding.cosine_distance(emb)
        sem_q: ColumnElement[Any] = func.coalesce(1 - u.query_embedding.cosine_distance(emb), 0.0)
    else:
        sem_v = sem_q = literal(0.0)
    ent_hit = u.entity_keys.overlap(ents) if ents is not None else literal(False)
    dated_col: ColumnElement[Any] = (
        u.search_tsv.op("@@")(dated) if dated is not None else literal(False)
    )
    return [
        *(getattr(u, name).label(name) for name in SCORING_COLUMNS),
        sem_v.label("_sv"),
        sem_q.label("_sq"),
        HITS.label("_hits"),
        func.length(u.search_tsv).label("_dl"),
        ent_hit.label("_ent"),
        dated_col.label("_dated"),
        *([u.value.label("_value")] if values else []),
    ]


def _known_column(known: CTE | None, predicted: BindParameter[Any] | None) -> ColumnElement[Any]:
    """``_known``: the keys of the CTE ``known`` (one ``key`` per row), NULL when they are
    ``predicted`` (see :func:`signals_select`); untyped (ARRAY(Text)'s result processor
    walked this list on every row; asyncpg already returns it as a list of str)."""
    known_col: ColumnElement[Any] = literal(None, ARRAY(Text))
    if known is not None:
        # NULL when the keys are the caller's prediction (``predicted``, sorted by code
        # point, as COLLATE "C" sorts): the usual case costs a NULL per row, not the array.
        keys = func.array_agg(aggregate_order_by(known.c.key, known.c.key.collate("C")))
        found = func.coalesce(func.array_agg(known.c.key), literal([], ARRAY(Text)))
        known_col = select(
            case((func.coalesce(keys, literal([], ARRAY(Text))) == predicted, null()), else_=found)
            if predicted is not None
            else found
        ).scalar_subquery()
    return type_coerce(known_col, NullType()).label("_known")


def signals_select(
    clauses: Sequence[ColumnElement[bool]],
    q: CTE,
    emb: ColumnElement[Any] | None,
    ents: BindParameter[Any] | None,
    known: CTE | None,
    dated: BindParameter[Any] | None = None,
    predicted: BindParameter[Any] | None = None,
    values: bool = False,
) -> Select[*tuple[Any, ...]]:
    """The candidates statement's outer select: per unit matching ``clauses``, the
    SCORING_COLUMNS and the raw signals ``_sv``/``_sq`` (cosine similarity of the value and
    scenario embeddings to ``emb``; 0 without one), ``_hits`` (the query lexemes it holds, from
    the CTE ``q`` of :func:`query_lexemes`), ``_dl`` (its distinct lexemes), ``_ent``
    (``entity_keys && ents``; False without ``ents``) and ``_known`` (the keys of the CTE
    ``known`` of :func:`known_select`, the same on every row; NULL without one, and NULL when
    they are the sorted ``text[]`` ``predicted``, which saves reading an array per row) and
    ``_dated`` (the unit's keyword index matches the tsquery ``dated``, :data:`DATED_TSQUERY`
    when the query asks *when*; NULL when the bound value is NULL, False without one); with
    ``values``, ``_value`` (the unit's text) before ``_known``. Used by
    RecallRepository.candidates and the second hop (the exact path: :func:`exact_select`)."""
    stmt = (
        select(*_signal_columns(q, emb, ents, dated, values), _known_column(known, predicted))
        .where(*clauses)
        .add_cte(q)
    )
    return stmt.add_cte(known) if known is not None else stmt


# Joins the entity keys of the exact path's rows (``_known`` of :func:`exact_select`): a key
# never holds it (app.core.entity_names.entity_key folds every whitespace character, this
# one included, into a space), so splitting the joined text gives the keys back.
KEY_SEPARATOR = "\x1f"


def exact_select(
    clauses: Sequence[ColumnElement[bool]],
    q: CTE,
    emb: ColumnElement[Any] | None,
    ents: BindParameter[Any] | None,
    dated: BindParameter[Any] | None = None,
    values: bool = False,
) -> Select[*tuple[Any, ...]]:
    """:func:`signals_select` for the exact path, whose rows are every unit matching
    ``clauses``: the known names are read off those rows, not probed with
    :func:`known_select`'s ``EXISTS`` per entity candidate (a GIN lookup each: ~0.5 ms of
    the statement's ~1.5 ms at LoCoMo size, ~30 candidates). ``_known`` is, per row, the
    unit's ``entity_keys`` joined by :data:`KEY_SEPARATOR` when they overlap ``ents`` (the
    row's ``_ent``), else NULL: the caller keeps the keys of ``ents`` among them
    (``rows.candidates_of_columns``). The same names as the probes: both look at the units
    matching ``clauses``. One pass over the rows (it was a MATERIALIZED CTE read twice, the
    second time to collect the keys: ~0.4 ms more at LoCoMo size)."""
    if ents is None:
        return signals_select(clauses, q, emb, None, None, dated, None, values)
    u = MemoryUnit
    keys = case(
        (u.entity_keys.overlap(ents), func.array_to_string(u.entity_keys, KEY_SEPARATOR)),
        else_=null(),
    )
    return (
        select(*_signal_columns(q, emb, ents, dated, values), keys.label("_known"))
        .where(*clauses)
        .add_cte(q)
    )


# The access-log statement also turns synchronous_commit off for the rest of its transaction
# (set_config(..., true) is SET LOCAL): its COMMIT then returns without waiting for the WAL
# flush (fsync), on a loaded machine the largest part of a small write's time, at the tail.
# Only this statement's writes are concerned — the access rows and, for a hit expiring within
# access_log.EXPIRY_GUARD, its raised expires_at — and only a crash of PostgreSQL or of the
# machine within ~3 × wal_writer_delay (0.6 s) after the answer can lose them: never a stored
# value, never anything half-written (PostgreSQL's asynchronous commit).
ASYNC_COMMIT = "(SELECT set_config('synchronous_commit', 'off', true)) IS NOT NULL"


def _units_sql() -> Any:
    """``SELECT UNIT_COLUMNS FROM memory_units WHERE id = ANY(:ids)``: the scoring columns
    typed, the others raw (see answer_processors). One text, so asyncpg prepares it once per
    connection."""
    table = MemoryUnit.__table__.c
    names = [getattr(MemoryUnit, n).property.columns[0].name for n in UNIT_COLUMNS]
    exprs = [
        f"CAST({col} AS TEXT) AS {attr}" if attr == "metadata_" else col
        for attr, col in zip(UNIT_COLUMNS, names, strict=True)
    ]
    body = f"SELECT {', '.join(exprs)} FROM memory_units WHERE id = ANY(CAST(:ids AS uuid[]))"
    typed = {n: table[n].type for n in SCORING_COLUMNS}
    stmt = text(body)
    return stmt.columns(*(literal_column(n, typed.get(n, NullType())) for n in UNIT_COLUMNS))


UNITS_SQL = _units_sql()
# A recall's access log (RecallRepository.record_access, parameters access_log.record_params):
# the two writes of access_log.RECORD_CTES, and the commit made asynchronous.
ACCESS_SQL = text("WITH " + RECORD_CTES + "SELECT " + ASYNC_COMMIT)


def _probe(f: UnitFilters, key: Any) -> Any:
    """``EXISTS (a unit matching f names key)``, correlated to the column ``key``."""
    return (
        select(literal(1))
        .where(*filter_clauses(f), MemoryUnit.entity_keys.contains(array([key])))
        .limit(1)
        .correlate_except(MemoryUnit)
        .exists()
    )


def known_select(
    f: UnitFilters, keys: list[str] | BindParameter[Any], seen: CTE | None = None
) -> Select[*tuple[Any, ...]] | CompoundSelect[*tuple[Any, ...]]:
    """``SELECT key FROM unnest(keys) WHERE EXISTS (a unit matching f names it)``: the keys
    (case-folded names) naming an entity of a unit matching ``f``, one row each, any order.
    ``keys`` may be a ``text[]`` bind parameter (the cached exact-path statement:
    app.repositories.recall.exact).

    ``seen``: a CTE of units matching f with their ``entity_keys`` (the entity source of a
    large subject), looked at first: a key one of them names needs no probe. The probe's
    bitmap scan of the GIN index reads every unit naming the key, however many (~5 ms for a
    name in half of 100k units); the names a question mentions most are in the newest units
    naming one of them."""
    arr = keys if isinstance(keys, BindParameter) else literal(keys, ARRAY(Text))
    cand = func.unnest(arr).table_valued("key").render_derived("cand")
    if seen is None:
        return select(cand.c.key).where(_probe(f, cand.c.key))
    named = (
        select(literal(1))
        .select_from(seen)
        .where(seen.c.entity_keys.contains(array([cand.c.key])))
        .exists()
    )
    # The keys no seen unit names, fenced (OFFSET 0) so that only those are probed: left to
    # itself the planner probed every key first. And a union of two selects, never
    # ``named OR probe``: under an OR the probe stays a subplan planned for an early first
    # row, a sequential scan (140 ms per key that no unit names at 100k units; 1.4-1.9 s at
    # 1M units with the subject-leading GIN indexes of migration 0009); alone it is a
    # semi-join on the GIN index.
    unseen = select(cand.c.key).where(~named).offset(literal_column("0")).subquery("unseen")
    return union_all(
        select(cand.c.key).where(named),
        select(unseen.c.key).where(_probe(f, unseen.c.key)),
    )
