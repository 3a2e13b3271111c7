"""The expansion stage of a recall on a large subject (the shortlist path): one statement that
reaches, from the best hits of the first stage (the *seeds*), the units that were not
candidates — those of the seeds' sessions and the newest naming one of the seeds' entities
(the entity graph's links, read newest first per entity: app.models.entity) — with the same
raw signals as the candidates statement and how each was reached (``via``).

On small subjects every unit is already a candidate (the exact path), so there is nothing to
reach: the seeds' sessions act through the context signal and their names through the entity
signal (app.services.recall.scoring).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Any

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import (
    CTE,
    BindParameter,
    ColumnElement,
    Text,
    bindparam,
    case,
    func,
    literal,
    literal_column,
    select,
    union,
)
from sqlalchemy.dialects.postgresql import ARRAY, TSQUERY, UUID
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import aliased

from app.models import Entity, MemoryUnit, UnitEntity
from app.repositories.memory.filters import UnitFilters, filter_clauses
from app.repositories.recall.rows import Candidates, candidates_of
from app.repositories.recall.sql import query_lexemes, signals_select


async def expansion(
    session: AsyncSession,
    f: UnitFilters,
    embedding: np.ndarray | None,
    keyword_text: str,
    entity_candidates: Sequence[str],
    *,
    seeds: Sequence[uuid.UUID],
    seen: Sequence[uuid.UUID],
    per_source: int,
    session_cap: int,
    dated: str | None = None,
) -> tuple[Candidates, list[str | None]]:
    """The units matching ``f`` and not in ``seen`` that share a session with a seed (at most
    ``session_cap``, nearest the seeds in time first) or name an entity of a seed that the
    query does not name itself (the newest ``per_source``; the query's own names already
    brought their units in), with their raw signals (as
    :meth:`app.repositories.recall.repository.RecallRepository.candidates`) and, per unit,
    how it was reached: None for a seed's session, else the seed's entity key it names (the
    caller spells it as the unit does). One statement.

    The entities are the entity graph's (app.models.entity: a seed's links, aliases resolved;
    every agent's entity of that key in the subject): per entity, its links read newest
    first (``ix_unit_entities_entity_recent``) until ``per_source`` units pass the filters,
    so a name held by half of a subject's units costs what it brings, not what it is in."""
    u = MemoryUnit
    clauses = filter_clauses(f)
    ents = list(dict.fromkeys(entity_candidates))
    seed_ids = bindparam("seeds", list(seeds), type_=ARRAY(UUID(as_uuid=True)))
    seen_ids = bindparam("seen", list(seen), type_=ARRAY(UUID(as_uuid=True)))
    query_keys = bindparam("qkeys", ents, type_=ARRAY(Text))

    seed_rows = select(u.session_id).where(u.id == func.any_(seed_ids)).cte("seed")
    sessions = select(seed_rows.c.session_id).where(seed_rows.c.session_id.is_not(None))
    # The seeds' sessions through the session index alone, fenced (OFFSET 0), the subject's
    # filters on those rows after: left to itself the planner ANDed that index with the
    # subject's GIN index scanned on user_id alone, every unit of the subject (25 ms per seed
    # session at 100k units, 127 of the statement's 140 ms; fenced 2.2 ms for five sessions).
    mates = (
        select(u.id)
        .where(u.namespace == f.namespace, u.session_id.in_(sessions))
        .offset(literal_column("0"))
        .scalar_subquery()
    )
    by_session = (
        select(u.id)
        .where(*clauses, u.id != func.all_(seen_ids), u.id.in_(mates))
        .limit(session_cap)
    )
    by_entity = _by_entity(f, clauses, seed_ids, seen_ids, query_keys, per_source)
    reached = union(by_session, select(by_entity.c.unit_id)).scalar_subquery()

    emb = bindparam("emb", embedding, type_=Vector()) if embedding is not None else None
    q = query_lexemes(keyword_text, (), None)
    ent_param = bindparam("ents", ents, type_=ARRAY(Text)) if ents else None
    dated_param = bindparam("dated", dated, type_=TSQUERY)
    # How it was reached: NULL for a session-mate of a seed, else the seed's entity key it names.
    shared = select(by_entity.c.key).where(by_entity.c.unit_id == u.id).scalar_subquery()
    via_key = case((u.session_id.in_(sessions), None), else_=shared)
    stmt = signals_select([*clauses, u.id.in_(reached)], q, emb, ent_param, None, dated_param)
    rows = (await (await session.connection()).execute(stmt.add_columns(via_key))).all()
    found = candidates_of([tuple(r)[:-1] for r in rows], ents)
    return found, [r[-1] for r in rows]


def _by_entity(
    f: UnitFilters,
    clauses: list[ColumnElement[bool]],
    seed_ids: BindParameter[Any],
    seen_ids: BindParameter[Any],
    query_keys: BindParameter[Any],
    per_source: int,
) -> CTE:
    """CTE (unit_id, key): the newest ``per_source`` units matching ``clauses``, not in
    ``seen``, linked to an entity of a seed whose key the query does not name (per unit the
    least such key). Per entity a LIMIT probe of its links, newest first; the links' own
    ``occurred_at`` carries the time bounds of ``f`` into the index range."""
    u, ue, e = MemoryUnit, UnitEntity, Entity
    seed_e = aliased(Entity)
    keys = (
        select(seed_e.key)
        .join(ue, ue.entity_id == seed_e.id)
        .where(ue.unit_id == func.any_(seed_ids), seed_e.key != func.all_(query_keys))
        .distinct()
    )
    subject = [e.namespace == f.namespace, e.alias_of.is_(None), e.key.in_(keys)]
    if f.user_id is not None:
        subject.append(e.user_id == f.user_id)
    if f.agent_id is not None or f.exact_agent:
        subject.append(e.agent_id == (f.agent_id or ""))
    targets = select(e.id, e.key).where(*subject).cte("targets")
    window = []
    if f.since is not None:
        window.append(ue.occurred_at >= f.since)
    if f.until is not None:
        window.append(ue.occurred_at < f.until)
    # ``as_of`` is not carried into the range: a unit recorded before the date it names is
    # valid from when it was said or stored (``valid_from_clause``, in ``clauses``).
    probe = (
        select(ue.unit_id, ue.occurred_at)
        .join(u, u.id == ue.unit_id)
        .where(ue.entity_id == targets.c.id, *window, *clauses, u.id != func.all_(seen_ids))
        .order_by(ue.occurred_at.desc())
        .limit(per_source)
        .lateral("probe")
    )
    hits = (
        select(probe.c.unit_id, func.min(targets.c.key).label("key"))
        .select_from(targets)
        .join(probe, literal(True))
        .group_by(probe.c.unit_id, probe.c.occurred_at)
        .order_by(probe.c.occurred_at.desc())
        .limit(per_source)
    )
    return hits.cte("by_entity")
