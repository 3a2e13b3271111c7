"""The write path's neighbour query: for every unit of a batch, the subject's active units
nearest by value embedding and — given a trigger scenario — by scenario embedding, in one
statement (``unnest`` of the batch's vectors + a ``LATERAL`` pair of ANN scans); for one unit
the same statement returns the units' rows (loaded as ORM objects: one round trip), for a
batch a second one reads the distinct units. Its rows serve both the dedupe and the
conflict check (:mod:`app.services.memory.store`)."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import numpy as np
from sqlalchemy import Float, Integer, String, column, select, text
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.sql.selectable import ExecutableReturnsRows

from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.units import Subject

# The units are those of units.live_units: active and not past expires_at at :now.
# {agent}: "u.agent_id IS NULL" or "u.agent_id = :agent" (a write subject's agent, exactly);
# {unit}: "m.id AS id", or every column of memory_units (in the ORM's order: loaded as
# MemoryUnit) when one probe asks (a unit then comes in at most two rows; for a batch's many
# probes the same units recur in many rows and a second read of the distinct ones is cheaper:
# bench_ingest's own time per LoCoMo turn, batches of 100, 3.7 against 3.3 ms).
_NEAREST_SQL = """
WITH q AS MATERIALIZED (
    SELECT t.i, t.v::vector AS v, t.qv::vector AS qv
      FROM unnest(CAST(:i AS int[]), CAST(:v AS text[]), CAST(:qv AS text[])) AS t(i, v, qv)
)
SELECT q.i AS probe, n.arm AS arm,
       1 - (m.value_embedding <=> q.v) AS cv,
       1 - (m.query_embedding <=> q.qv) AS cq,
       {unit}
  FROM q
  CROSS JOIN LATERAL (
      (SELECT u.id, 'value' AS arm FROM memory_units u
        WHERE u.namespace = :ns AND u.user_id = :user AND {agent}
          AND u.status = :active AND u.embedding_model = :model
          AND (u.expires_at IS NULL OR u.expires_at > :now)
        ORDER BY u.value_embedding <=> q.v
        LIMIT :k)
      UNION ALL
      (SELECT u.id, 'query' AS arm FROM memory_units u
        WHERE u.namespace = :ns AND u.user_id = :user AND {agent}
          AND u.status = :active AND u.embedding_model = :model
          AND (u.expires_at IS NULL OR u.expires_at > :now)
          AND q.qv IS NOT NULL AND u.query_embedding IS NOT NULL
        ORDER BY u.query_embedding <=> q.qv
        LIMIT :k)
  ) n
  JOIN memory_units m ON m.id = n.id
"""
_SCORES = (
    column("probe", Integer),
    column("arm", String),
    column("cv", Float),
    column("cq", Float),
)
_UNIT_COLUMNS = tuple(MemoryUnit.__table__.columns)
_UNIT_SQL = ", ".join(f"m.{c.name}" for c in _UNIT_COLUMNS)


def _with_rows(agent: str) -> ExecutableReturnsRows:
    sql = text(_NEAREST_SQL.format(agent=agent, unit=_UNIT_SQL))
    return select(MemoryUnit, *_SCORES).from_statement(sql.columns(*_SCORES, *_UNIT_COLUMNS))


_AGENT = {True: "u.agent_id IS NULL", False: "u.agent_id = :agent"}  # keyed by "no agent"
_NEAREST_IDS = {k: text(_NEAREST_SQL.format(agent=a, unit="m.id AS id")) for k, a in _AGENT.items()}
_NEAREST_ROWS = {k: _with_rows(a) for k, a in _AGENT.items()}
# What nearest_active sets first, unless the caller did (MemoryRepository.lock_subject).
ITERATIVE_SCAN = "SET LOCAL hnsw.iterative_scan = strict_order"


@dataclass(frozen=True)
class Probe:
    """One new unit's vectors: its value's, and its trigger scenario's (or None)."""

    value: np.ndarray
    query: np.ndarray | None = None


@dataclass(frozen=True)
class Scored:
    """An existing active unit near a probe: the cosine similarity (−1..1) of the two values
    (``value_cos``) and of the probe's scenario to the unit's (``query_cos``; None when
    either has none), as PostgreSQL computed them (pgvector ``<=>``); ``by_value`` /
    ``by_query``: which nearest list it came from (one or both)."""

    unit: MemoryUnit
    value_cos: float
    query_cos: float | None
    by_value: bool = True
    by_query: bool = False


def vector_text(vector: np.ndarray) -> str:
    """A vector in pgvector's text form (``[x,y,…]``; 9 significant digits: every float32
    reads back exactly)."""
    values = np.asarray(vector, dtype=np.float32).tolist()
    return "[" + ",".join(["%.9g"] * len(values)) % tuple(values) + "]"


class NeighbourRepository:
    """Nearest-neighbour reads of the write path, bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def nearest_active(
        self,
        subject: Subject,
        model: str,
        limit: int,
        probes: Sequence[Probe],
        *,
        now: datetime,
        scan_set: bool = False,
    ) -> list[list[Scored]]:
        """Per probe (in order), the subject's active units not expired by ``now``
        (``units.live_units``) of embedding model ``model`` among the ``limit`` nearest by
        value cosine, united with the ``limit`` nearest by scenario cosine when the probe has
        a scenario vector; most similar value first.

        For one probe one statement, the (probe, arm, cosines, unit) rows, the units
        loaded into the session (its identity map: a unit already loaded keeps its object);
        for several, two whatever their number: the (probe, arm, cosines, id) rows, then the
        distinct units. pgvector's iterative HNSW scan (``strict_order``) keeps the subject
        filter from emptying the ANN result in a large table: without it HNSW hands back
        ``ef_search`` (40) rows and a subject holding 0.5% of the table got none. It is set
        first (``SET LOCAL``), one more statement, unless ``scan_set``: the transaction has
        it already (``MemoryRepository.lock_subject(..., iterative_scan=True)``)."""
        if not probes:
            return []
        if not scan_set:
            await self.session.execute(text(ITERATIVE_SCAN))
        params = {
            "i": list(range(len(probes))),
            "v": [vector_text(p.value) for p in probes],
            "qv": [None if p.query is None else vector_text(p.query) for p in probes],
            "ns": subject.namespace,
            "user": subject.user_id,
            "active": UnitStatus.ACTIVE.value,
            "model": model,
            "now": now,
            "k": int(limit),
        }
        if subject.agent_id is not None:
            params["agent"] = subject.agent_id
        no_agent = subject.agent_id is None
        units: dict[uuid.UUID, MemoryUnit] = {}
        if len(probes) == 1:
            statement = _NEAREST_ROWS[no_agent]
            rows = (await self.session.execute(statement, params)).all()
            scores = [(probe, unit.id, arm, cv, cq) for unit, probe, arm, cv, cq in rows]
            units = {unit.id: unit for unit, *_ in rows}
        else:
            found = (await self.session.execute(_NEAREST_IDS[no_agent], params)).all()
            scores = [(r.probe, r.id, r.arm, r.cv, r.cq) for r in found]
            ids = list(dict.fromkeys(r.id for r in found))
            if ids:
                loaded = await self.session.scalars(
                    select(MemoryUnit).where(MemoryUnit.id.in_(ids))
                )
                units = {u.id: u for u in loaded}
        arms: dict[tuple[int, uuid.UUID], set[str]] = {}
        cosines: dict[tuple[int, uuid.UUID], tuple[float, float | None]] = {}
        for probe, unit_id, arm, cv, cq in scores:
            arms.setdefault((probe, unit_id), set()).add(arm)
            cosines[(probe, unit_id)] = (float(cv), None if cq is None else float(cq))
        out: list[list[Scored]] = [[] for _ in probes]
        for (i, unit_id), found_by in arms.items():
            unit = units.get(unit_id)
            if unit is not None:  # None: deleted between the two statements of a batch
                cv, cq = cosines[(i, unit_id)]
                out[i].append(Scored(unit, cv, cq, "value" in found_by, "query" in found_by))
        for scored in out:
            scored.sort(key=lambda s: -s.value_cos)
        return out
