"""All SQL on memory units: writes, locks, lookups by value hash, and the candidate
scoring query of recall (pgvector cosine + full text + entity overlap) in one statement."""

from __future__ import annotations

import time
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from sqlalchemy import (
    Boolean,
    ColumnElement,
    Select,
    Text,
    and_,
    cast,
    func,
    literal,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import ARRAY, TSQUERY, array
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.filters import UnitFilters, agent_clause, filter_clauses

# Process-wide cache of MemoryRepository.common_lexemes: max_share -> (monotonic s, lexemes).
_COMMON_LEXEMES: dict[float, tuple[float, frozenset[str]]] = {}
_COMMON_LEXEMES_SQL = text(
    """
    SELECT u.lexeme
      FROM pg_stats s,
           unnest(s.most_common_elems::text::text[], s.most_common_elem_freqs) AS u(lexeme, share)
     WHERE s.schemaname = current_schema() AND s.tablename = 'memory_units'
       AND s.attname = 'search_tsv' AND u.lexeme IS NOT NULL AND u.share > :max_share
    """
)


@dataclass(frozen=True)
class Subject:
    """The dedupe scope of a unit: namespace + user + optional agent."""

    namespace: str
    user_id: str
    agent_id: str | None

    def lock_key(self) -> str:
        return f"{self.namespace}\x1f{self.user_id}\x1f{self.agent_id or ''}"


@dataclass(frozen=True)
class Neighbour:
    """An existing active unit and its cosine similarity to a new value."""

    unit: MemoryUnit
    cosine: float


@dataclass(frozen=True)
class CandidateScore:
    """Raw signals of one candidate, before normalisation and weighting.

    ``term_freqs``: occurrences of each query lexeme in the unit's keyword index (only the
    lexemes it contains; empty when it matches none); ``length``: the unit's number of
    distinct lexemes (BM25's document length). ``session_id`` and ``occurred_at`` place the
    unit among its session's units for the context signal.
    """

    id: uuid.UUID
    semantic_value: float
    semantic_query: float
    term_freqs: Mapping[str, int]
    length: int
    entity_match: bool
    session_id: str | None
    occurred_at: datetime
    last_confirmed_at: datetime
    confidence: float


class MemoryRepository:
    """Memory-unit queries bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def lock_subject(self, subject: Subject) -> None:
        """Serialise writers of one subject until the transaction ends (so two identical
        stores at the same moment cannot both create a row)."""
        await self.session.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 0))"),
            {"k": subject.lock_key()},
        )

    async def lock_key(self, key: str) -> None:
        """A transaction-scoped advisory lock on an arbitrary string."""
        await self.session.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:k, 1))"), {"k": key}
        )

    def _subject_clause(self, subject: Subject) -> ColumnElement[bool]:
        return and_(
            MemoryUnit.namespace == subject.namespace,
            MemoryUnit.user_id == subject.user_id,
            agent_clause(subject.agent_id),
            MemoryUnit.status == UnitStatus.ACTIVE,
        )

    async def find_by_hashes(
        self, subject: Subject, value_hashes: Sequence[str]
    ) -> dict[str, list[MemoryUnit]]:
        """The subject's active units whose normalised value has one of these hashes, oldest
        first per hash, rows locked (``FOR UPDATE``); one statement for a whole batch."""
        if not value_hashes:
            return {}
        stmt = (
            select(MemoryUnit)
            .where(
                self._subject_clause(subject),
                MemoryUnit.value_hash.in_(list(dict.fromkeys(value_hashes))),
            )
            .order_by(MemoryUnit.created_at)
            .with_for_update()
        )
        found: dict[str, list[MemoryUnit]] = {}
        for unit in (await self.session.scalars(stmt)).all():
            found.setdefault(unit.value_hash, []).append(unit)
        return found

    async def resolve_merged(self, unit: MemoryUnit, max_hops: int = 16) -> MemoryUnit:
        """The unit a ``merged`` unit went into (following merges of merges); the unit itself
        when it was not merged or its survivor is gone."""
        current = unit
        for _ in range(max_hops):
            if current.status != UnitStatus.MERGED or current.merged_into is None:
                break
            survivor = await self.get(current.namespace, current.merged_into)
            if survivor is None:
                break
            current = survivor
        return current

    def add(self, unit: MemoryUnit) -> None:
        """Stage a new unit (written at the next flush)."""
        self.session.add(unit)

    async def flush(self) -> None:
        """Write staged changes so later queries in this transaction see them."""
        await self.session.flush()

    async def get(self, namespace: str, unit_id: uuid.UUID) -> MemoryUnit | None:
        """One unit of this namespace, or None (another namespace's unit is None too)."""
        stmt = select(MemoryUnit).where(MemoryUnit.namespace == namespace, MemoryUnit.id == unit_id)
        return (await self.session.scalars(stmt)).first()

    async def get_many(self, namespace: str, ids: Sequence[uuid.UUID]) -> list[MemoryUnit]:
        """Units by id, in the order of ``ids`` (missing ids skipped)."""
        if not ids:
            return []
        stmt = select(MemoryUnit).where(
            MemoryUnit.namespace == namespace, MemoryUnit.id.in_(list(ids))
        )
        found = {u.id: u for u in (await self.session.scalars(stmt)).all()}
        return [found[i] for i in ids if i in found]

    async def touch_accessed(self, ids: Sequence[uuid.UUID], at: datetime) -> None:
        """Record that these units were just returned by a recall."""
        if ids:
            await self.session.execute(
                update(MemoryUnit).where(MemoryUnit.id.in_(list(ids))).values(last_accessed_at=at)
            )

    # ---- recall -------------------------------------------------------------------------

    async def count(self, f: UnitFilters, cap: int) -> int:
        """How many units match the filters, counting at most ``cap + 1``."""
        inner = select(literal(1)).where(*filter_clauses(f)).limit(cap + 1).subquery()
        return int(
            (await self.session.execute(select(func.count()).select_from(inner))).scalar_one()
        )

    async def known_entities(self, f: UnitFilters, candidates: Sequence[str]) -> list[str]:
        """Which of ``candidates`` (case-folded) name an entity of a unit matching the filters.

        One statement: an ``EXISTS … LIMIT 1`` probe per candidate (``entity_keys @> {key}``),
        so the cost grows with the number of candidates, not with the subject's size.
        """
        keys = list(dict.fromkeys(candidates))
        if not keys:
            return []
        cand = func.unnest(literal(keys, ARRAY(Text))).table_valued("key").render_derived("cand")
        probe = (
            select(literal(1))
            .where(*filter_clauses(f), MemoryUnit.entity_keys.contains(array([cand.c.key])))
            .limit(1)
            .correlate(cand)
        )
        rows = await self.session.execute(select(cand.c.key).where(probe.exists()))
        found = {str(r[0]) for r in rows}
        return [k for k in keys if k in found]

    async def common_lexemes(self, max_share: float, ttl_s: float = 300.0) -> frozenset[str]:
        """Lexemes of the keyword index found in more than ``max_share`` (0..1) of memory
        units, from PostgreSQL's column statistics (``pg_stats.most_common_elems`` of
        ``search_tsv``: table-wide, refreshed by (auto)ANALYZE). Cached per process for
        ``ttl_s`` seconds; empty before the table was first analysed."""
        hit = _COMMON_LEXEMES.get(max_share)
        if hit is not None and time.monotonic() - hit[0] < ttl_s:
            return hit[1]
        rows = await self.session.execute(_COMMON_LEXEMES_SQL, {"max_share": max_share})
        found = frozenset(str(r[0]) for r in rows)
        _COMMON_LEXEMES[max_share] = (time.monotonic(), found)
        return found

    async def keyword_lexemes(self, keyword_text: str) -> list[str]:
        """The distinct lexemes of ``keyword_text`` as the keyword index stems them
        (``english`` configuration, stop words dropped)."""
        if not keyword_text.strip():
            return []
        vec = func.to_tsvector(text("'english'::regconfig"), keyword_text)
        found = await self.session.scalar(select(func.tsvector_to_array(vec)))
        return [str(x) for x in found or []]

    async def score_candidates(
        self,
        f: UnitFilters,
        embedding: np.ndarray | None,
        tsquery: str | None,
        query_entities: Sequence[str],
        *,
        exact: bool,
        per_source: int,
        ef_search: int,
        query_lexemes: Sequence[str] = (),
        candidate_lexemes: Sequence[str] | None = None,
    ) -> list[CandidateScore]:
        """Raw signals for the candidates of one recall.

        ``exact``: every unit matching the filters is a candidate (small subjects;
        docs/ARCHITECTURE.md#design-figures: better than shortlisting). Otherwise the union of
        the ``per_source`` nearest by value embedding, by query (scenario) embedding, the best
        keyword matches (``ts_rank``) and the newest entity matches, with pgvector's iterative
        HNSW scan so filtered ANN still returns enough rows.

        Keyword statistics for BM25 (computed by the caller): per candidate, which of
        ``query_lexemes`` (from :meth:`keyword_lexemes`) it contains, and its length in
        distinct lexemes. Presence, not occurrences: counting positions needs a per-row
        ``unnest`` of the tsvector (4–15 ms more per recall for 419 units, growing with the
        subject) and gained < 0.005 recall@10 on LoCoMo, where a unit is one sentence.
        """
        clauses = filter_clauses(f)
        ts = func.to_tsquery(text("'english'::regconfig"), tsquery) if tsquery else None
        ent = list(query_entities)

        if exact:
            id_filter: Select | None = None
        else:
            await self.session.execute(text("SET LOCAL hnsw.iterative_scan = relaxed_order"))
            await self.session.execute(text(f"SET LOCAL hnsw.ef_search = {int(ef_search)}"))
            parts: list[Select] = []
            if embedding is not None:
                parts.append(
                    select(MemoryUnit.id)
                    .where(*clauses)
                    .order_by(MemoryUnit.value_embedding.cosine_distance(embedding))
                    .limit(per_source)
                )
                parts.append(
                    select(MemoryUnit.id)
                    .where(*clauses, MemoryUnit.query_embedding.is_not(None))
                    .order_by(MemoryUnit.query_embedding.cosine_distance(embedding))
                    .limit(per_source)
                )
            # Keyword candidates: an OR of ``candidate_lexemes`` (already stemmed) when given,
            # else of the whole tsquery; ranking costs O(units matching), so callers leave
            # out names and common words here.
            cts = ts
            if candidate_lexemes is not None:
                cts = None
                if candidate_lexemes:
                    ored = " | ".join("'" + x.replace("'", "''") + "'" for x in candidate_lexemes)
                    cts = cast(literal(ored), TSQUERY)
            if cts is not None:
                parts.append(
                    select(MemoryUnit.id)
                    .where(*clauses, MemoryUnit.search_tsv.op("@@")(cts))
                    .order_by(func.ts_rank(MemoryUnit.search_tsv, cts, 1).desc())
                    .limit(per_source)
                )
            if ent:
                parts.append(
                    select(MemoryUnit.id)
                    .where(*clauses, MemoryUnit.entity_keys.overlap(ent))
                    .order_by(MemoryUnit.occurred_at.desc())
                    .limit(per_source)
                )
            if not parts:
                return []
            id_filter = parts[0] if len(parts) == 1 else parts[0].union(*parts[1:])

        if embedding is not None:
            sem_v = 1 - MemoryUnit.value_embedding.cosine_distance(embedding)
            sem_q = func.coalesce(1 - MemoryUnit.query_embedding.cosine_distance(embedding), 0.0)
        else:
            sem_v = sem_q = literal(0.0)
        lexemes = list(query_lexemes)
        # One boolean per query lexeme: does the unit contain it (a cheap tsvector lookup).
        hits: ColumnElement[Any] = (
            array([MemoryUnit.search_tsv.op("@@")(cast(_quoted(x), TSQUERY)) for x in lexemes])
            if lexemes
            else literal(None, ARRAY(Boolean))
        )
        ent_hit = MemoryUnit.entity_keys.overlap(ent) if ent else literal(False)
        stmt = select(
            MemoryUnit.id,
            sem_v.label("sv"),
            sem_q.label("sq"),
            hits.label("hits"),
            func.length(MemoryUnit.search_tsv).label("dl"),
            ent_hit.label("ent"),
            MemoryUnit.session_id,
            MemoryUnit.occurred_at,
            MemoryUnit.last_confirmed_at,
            MemoryUnit.confidence,
        ).where(*clauses)
        if id_filter is not None:
            stmt = stmt.where(MemoryUnit.id.in_(id_filter.scalar_subquery()))
        rows = (await self.session.execute(stmt)).all()
        return [
            CandidateScore(
                id=r.id,
                semantic_value=float(r.sv),
                semantic_query=float(r.sq),
                term_freqs={x: 1 for x, hit in zip(lexemes, r.hits or (), strict=False) if hit},
                length=int(r.dl),
                entity_match=bool(r.ent),
                session_id=r.session_id,
                occurred_at=r.occurred_at,
                last_confirmed_at=r.last_confirmed_at,
                confidence=float(r.confidence),
            )
            for r in rows
        ]


def _quoted(lexeme: str) -> str:
    """A lexeme as a one-term ``tsquery`` literal (quoted, so it is not stemmed again)."""
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "\\'") + "'"
