"""The SQL of recall: one statement per recall that gathers the candidates and computes their
raw signals (never the vectors), one that reads the answer columns of the hits (and logs their
access), plus the small lookups that app.services.recall.service caches per process (subject
size and entity names, common lexemes).

Round trips of one recall: the statement of :meth:`RecallRepository.candidates` (plus, for
subjects above the exact-scan limit, one ``set_config`` of the HNSW scan settings);
:meth:`subject_profile` only when its cache entry is missing or stale;
:meth:`RecallRepository.head` (the answer columns and close pairs of the best candidates);
:meth:`RecallRepository.record_access`, the access log (app.repositories.memory.access_log),
after the answer over HTTP.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    CompoundSelect,
    Select,
    Text,
    bindparam,
    func,
    literal,
    select,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, TSQUERY
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.db import has_connection
from app.models import MemoryUnit
from app.repositories.memory.access_log import record_params
from app.repositories.memory.filters import UnitFilters, filter_clauses
from app.repositories.recall.answers import answer_processors
from app.repositories.recall.driver import fetch, positional
from app.repositories.recall.duplicates import HEAD_SQL, ClosePair, pairs_of
from app.repositories.recall.exact import exact_rows
from app.repositories.recall.rows import (
    Candidates,
    CandidateScore,
    candidates_of,
    candidates_of_columns,
)
from app.repositories.recall.sql import (
    ACCESS_SQL,
    UNITS_SQL,
    RecalledUnit,
    known_select,
    query_lexemes,
    signals_select,
)
from app.repositories.recall.statements import RecallStatements

__all__ = ["CandidateScore", "Candidates", "RecallRepository", "SubjectProfile"]

_COMMON_LEXEMES_SQL = text(
    """
    SELECT u.lexeme
      FROM pg_stats s,
           unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS u(lexeme, share)
     WHERE s.schemaname = current_schema() AND s.tablename = 'memory_units'
       AND s.attname = 'search_tsv' AND u.lexeme IS NOT NULL AND u.share > :max_share
    """
)

# The texts the answer-type signal reads (app.services.recall.answer_type): a fixed SQL
# text, prepared once per connection.
_VALUES_SQL = text("SELECT id, value FROM memory_units WHERE id = ANY(CAST(:ids AS uuid[]))")


@dataclass(frozen=True)
class SubjectProfile:
    """How many units match a recall's filters (counted up to ``cap + 1``) and, when that is
    at most ``cap``, every entity key they name."""

    count: int
    entity_keys: frozenset[str] | None


class RecallRepository:
    """Recall reads bound to one session; never commits, and writes only the access log
    (:meth:`units` with ``accessed_at``). ``statements``: the process's compiled statements
    and lexeme statistics (a fresh, empty one when not given)."""

    def __init__(self, session: AsyncSession, statements: RecallStatements | None = None) -> None:
        self.session = session
        self.statements = statements if statements is not None else RecallStatements()

    async def connect(self, *, autocommit: bool = False) -> None:
        """Check out the session's connection now, so the checkout (a local liveness check;
        a ping round trip only after ``app.core.db.PING_AFTER_IDLE_S`` idle) can overlap
        other work. The transaction's BEGIN goes out with the first statement (asyncpg
        dialect).

        ``autocommit`` (when the session has no connection yet; else ignored): every
        statement of this session is its own transaction, so neither BEGIN nor COMMIT costs
        a round trip. For the exact path:
        none of its statements needs a transaction-local setting, each one reads its own
        snapshot under READ COMMITTED all the same, and its one write (the access log,
        :meth:`units`) is a single statement. The pool restores the isolation level when
        the connection goes back."""
        if autocommit and not has_connection(self.session):
            await self.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
        else:
            await self.session.connection()

    async def subject_profile(self, f: UnitFilters, cap: int) -> SubjectProfile:
        """The units matching ``f``, counted up to ``cap + 1``, and their distinct entity keys
        when there are at most ``cap`` (one statement over at most ``cap + 1`` rows, which
        returns two values)."""
        sample = select(MemoryUnit.entity_keys).where(*filter_clauses(f)).limit(cap + 1).cte("s")
        n = select(func.count()).select_from(sample).scalar_subquery()
        key = func.unnest(sample.c.entity_keys).table_valued("k").render_derived("k")
        keys = (
            select(func.array_agg(func.distinct(key.c.k)))
            .select_from(sample)
            .join(key, literal(True))
            .where(n <= cap)
            .scalar_subquery()
        )
        row = (await self.session.execute(select(n, keys))).one()
        count = int(row[0])
        if count > cap:
            return SubjectProfile(count, None)
        return SubjectProfile(count, frozenset(row[1] or ()))

    async def known_entities(self, f: UnitFilters, candidates: Sequence[str]) -> list[str]:
        """Which of ``candidates`` (case-folded) name an entity of a unit matching the filters.

        One statement: an ``EXISTS … LIMIT 1`` probe per candidate (``entity_keys @> {key}``),
        so the cost grows with the number of candidates, not with the subject's size.
        """
        keys = list(dict.fromkeys(candidates))
        if not keys:
            return []
        rows = await self.session.execute(known_select(f, keys))
        found = {str(r[0]) for r in rows}
        return [k for k in keys if k in found]

    async def common_lexemes(self, max_share: float, ttl_s: float = 300.0) -> frozenset[str]:
        """Lexemes of the keyword index found in more than ``max_share`` (0..1) of memory
        units, from PostgreSQL's column statistics (``pg_stats.most_common_elems`` of
        ``search_tsv``: table-wide, refreshed by (auto)ANALYZE). Cached per process for
        ``ttl_s`` seconds; empty before the table was first analysed."""
        hit = self.statements.common_lexemes.get(max_share)
        if hit is not None and time.monotonic() - hit[0] < ttl_s:
            return hit[1]
        rows = await self.session.execute(_COMMON_LEXEMES_SQL, {"max_share": max_share})
        found = frozenset(str(r[0]) for r in rows)
        self.statements.common_lexemes[max_share] = (time.monotonic(), found)
        return found

    async def candidates(
        self,
        f: UnitFilters,
        embedding: np.ndarray | None,
        keyword_text: str,
        entity_candidates: Sequence[str],
        *,
        exact: bool,
        per_source: int,
        ef_search: int,
        keyword_skip: Sequence[str] = (),
        keyword_pair: Sequence[str] = (),
        entity_names: Sequence[str] | None = None,
        dated: str | None = None,
        values: bool = False,
    ) -> Candidates:
        """Raw signals of the candidates of one recall, in one statement (the answer columns
        of the hits come from :meth:`units`, once they are known).

        ``exact``: every unit matching the filters is a candidate (small subjects;
        docs/ARCHITECTURE.md#design-figures: better than shortlisting). Otherwise the union of
        the ``per_source`` nearest by value embedding, by query (scenario) embedding, the best
        keyword matches (``ts_rank`` of an OR of the query's lexemes except ``keyword_skip``,
        where a lexeme of ``keyword_pair`` counts only together with another one: see
        ``recall_sql.query_lexemes``) and the newest units naming one of ``entity_names`` (the
        candidates the caller knows to be names; None: all ``entity_candidates``), with
        pgvector's iterative HNSW scan so filtered ANN still returns enough rows. The newest
        units naming a word that no unit names are found by reading every unit of the subject
        backwards in time (345 ms at 100k units), so words that are no names stay out.

        ``keyword_text`` is stemmed once, inside the statement, by the keyword index's own
        configuration (``english``), so query and index lexemes match by construction. BM25
        statistics: per candidate, which of those lexemes it contains (presence, not
        occurrences: counting positions gained < 0.005 recall@10 on LoCoMo, where a unit is
        one sentence) and its length in distinct lexemes. The entity signal is
        ``entity_keys && entity_candidates``: for a unit matching the filters that is the
        same as overlapping the known names (a name it holds is known by definition).
        ``dated``: a tsquery; each candidate says whether its keyword index matches it
        (``CandidateScore.dated``; None without one). ``values``: also each candidate's value
        (``Candidates.values``: the texts the answer-type signal reads, no round trip of their
        own).
        """
        ents = list(dict.fromkeys(entity_candidates))
        # The known names expected: the statement sends them back only when they differ.
        predicted = sorted(set(entity_names)) if entity_names is not None and ents else None
        if exact:  # the statement of this filter shape, compiled once (recall_exact)
            conn = await self.session.connection()
            found = await exact_rows(
                conn,
                f,
                embedding,
                keyword_text,
                ents,
                keyword_skip,
                self.statements,
                dated,
                values,
            )
            if found is not None:
                return candidates_of_columns(found, ents, values)
        clauses = filter_clauses(f)
        ent_param = bindparam("ents", ents, type_=ARRAY(Text))
        emb = bindparam("emb", embedding, type_=Vector()) if embedding is not None else None
        # The query's lexemes, stemmed once; and the tsquery of the keyword candidates.
        q = query_lexemes(keyword_text, keyword_skip, None if exact else keyword_pair)

        id_filter: Select[*tuple[Any, ...]] | CompoundSelect[*tuple[Any, ...]] | None = None
        ent: Any = None  # large subjects: the entity source, as a CTE (also checks names)
        if not exact:
            await self.session.execute(
                # force_custom_plan: only a plan made for the statement's values can use a
                # subject's own HNSW index (a partial index, memory/subject_indexes.py).
                text(
                    "SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true), "
                    "set_config('hnsw.ef_search', :ef, true), "
                    "set_config('plan_cache_mode', 'force_custom_plan', true)"
                ),
                {"ef": str(int(ef_search))},
            )
            parts: list[Select[*tuple[Any, ...]]] = []
            if emb is not None:
                parts.append(
                    select(MemoryUnit.id)
                    .where(*clauses)
                    .order_by(MemoryUnit.value_embedding.cosine_distance(emb))
                    .limit(per_source)
                )
                parts.append(
                    select(MemoryUnit.id)
                    .where(*clauses, MemoryUnit.query_embedding.is_not(None))
                    .order_by(MemoryUnit.query_embedding.cosine_distance(emb))
                    .limit(per_source)
                )
            # Keyword candidates: ranking costs O(units matching), so names and common words
            # (``keyword_skip``) stay out of this OR; the scoring below uses every lexeme.
            cts = select(q.c.ctsq).scalar_subquery()
            rts = select(q.c.rtsq).scalar_subquery()
            parts.append(
                select(MemoryUnit.id)
                .where(*clauses, MemoryUnit.search_tsv.op("@@")(cts))
                .order_by(func.ts_rank(MemoryUnit.search_tsv, rts, 1).desc())
                .limit(per_source)
            )
            names = ents if entity_names is None else list(dict.fromkeys(entity_names))
            if names:
                ent = (
                    select(MemoryUnit.id, MemoryUnit.entity_keys)
                    .where(
                        *clauses,
                        MemoryUnit.entity_keys.overlap(
                            bindparam("names", names, type_=ARRAY(Text))
                        ),
                    )
                    .order_by(MemoryUnit.occurred_at.desc())
                    .limit(per_source)
                    .cte("ent")
                )
                parts.append(select(ent.c.id))
            id_filter = parts[0].union(*parts[1:])

        known = known_select(f, ents, ent).cte("known") if ents else None
        dated_param = bindparam("dated", dated, type_=TSQUERY)
        pred = (
            bindparam("predicted", predicted, type_=ARRAY(Text)) if predicted is not None else None
        )
        stmt = signals_select(
            clauses, q, emb, ent_param if ents else None, known, dated_param, pred, values
        )
        if id_filter is not None:
            stmt = stmt.where(MemoryUnit.id.in_(id_filter.scalar_subquery()))
        # Core execution: the ORM's row loading is not needed for plain columns.
        rows = (await (await self.session.connection()).execute(stmt)).all()
        return candidates_of(rows, ents, predicted, values)

    async def units(self, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, RecalledUnit]:
        """The answer columns (``UNIT_COLUMNS``) of the units ``ids`` that still exist, by id,
        converted as the ORM would convert them (not ORM objects). One round trip."""
        if not ids:
            return {}
        params = {"ids": list(ids)}
        rows = (await (await self.session.connection()).execute(UNITS_SQL, params)).all()
        return self._recalled(rows)

    async def head(
        self, ids: Sequence[uuid.UUID], min_cosine: float
    ) -> tuple[dict[uuid.UUID, RecalledUnit], list[ClosePair]]:
        """The answer columns of the units ``ids`` that still exist, by id (as :meth:`units`
        reads them), and every pair of them with the same value hash, a value cosine of at
        least ``min_cosine`` (−1..1) or a ``duplicate`` link: one statement
        (app.repositories.recall.duplicates)."""
        if not ids:
            return {}, []
        params = {"ids": list(ids), "max_distance": 1.0 - min_cosine}
        conn = await self.session.connection()
        key = (conn.dialect.name, "head")
        compiled = self.statements.driver.get(key)
        if compiled is None:  # its binds are untyped: no processing
            compiled = positional(HEAD_SQL.compile(dialect=conn.dialect))
            self.statements.driver[key] = compiled
        sql, order = compiled
        rows = await fetch(conn, sql, [params[name] for name in order])
        return self._recalled(rows), pairs_of(rows)

    async def record_access(
        self, ids: Sequence[uuid.UUID], accessed_at: datetime, extend_to: datetime | None
    ) -> None:
        """Log the access of the units ``ids`` that still exist at ``accessed_at``
        (app.repositories.memory.access_log: the log rows and, for units about to expire,
        expiry raised to ``extend_to``): :meth:`record_accesses` of one access."""
        await self.record_accesses([(ids, accessed_at, extend_to)])

    async def record_accesses(
        self, accesses: Sequence[tuple[Sequence[uuid.UUID], datetime, datetime | None]]
    ) -> None:
        """Log recalls' accesses, each ``(ids, accessed_at, extend_to)`` as
        :meth:`record_access` logs one: one statement for all of them, which makes its
        transaction's commit asynchronous (``ASYNC_COMMIT``)."""
        if any(ids for ids, _, _ in accesses):
            params = record_params(accesses)
            await (await self.session.connection()).execute(ACCESS_SQL, params)

    def _recalled(self, rows: Sequence[Any]) -> dict[uuid.UUID, RecalledUnit]:
        """RecalledUnits, by id, of rows whose first columns are ``UNIT_COLUMNS``."""
        # Only the columns whose type converts (answer_processors): the others as read.
        processors = answer_processors(self.session.get_bind().dialect, self.statements.processors)
        convert = [(i, proc) for i, proc in enumerate(processors) if proc is not None]
        width = len(processors)
        out: dict[uuid.UUID, RecalledUnit] = {}
        for row in rows:
            values = list(row)[:width]
            for i, proc in convert:
                v = values[i]
                if v is not None:
                    values[i] = proc(v)
            unit = RecalledUnit._make(values)
            out[unit.id] = unit
        return out

    async def values(self, ids: Sequence[uuid.UUID]) -> dict[uuid.UUID, str]:
        """The value of the units ``ids`` that still exist, by id: what the answer-type signal
        reads. One statement."""
        if not ids:
            return {}
        rows = await (await self.session.connection()).execute(_VALUES_SQL, {"ids": list(ids)})
        return {uid: value for uid, value in rows}
