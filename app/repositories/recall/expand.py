"""The expansion stage of a recall on a large subject (the shortlist path): one statement that
reaches, from the best hits of the first stage (the *seeds*), the units that were not
candidates — those of the seeds' sessions and the newest naming one of the seeds' entities —
with the same raw signals as the candidates statement and how each was reached (``via``).

On small subjects every unit is already a candidate (the exact path), so there is nothing to
reach: the seeds' sessions act through the context signal and their names through the entity
signal (app.services.recall.scoring).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import numpy as np
from pgvector.sqlalchemy import Vector
from sqlalchemy import Text, bindparam, case, func, literal, literal_column, select, union
from sqlalchemy.dialects.postgresql import ARRAY, TSQUERY, UUID
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import MemoryUnit
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
    caller spells it as the unit does). One statement."""
    u = MemoryUnit
    clauses = filter_clauses(f)
    ents = list(dict.fromkeys(entity_candidates))
    seed_ids = bindparam("seeds", list(seeds), type_=ARRAY(UUID(as_uuid=True)))
    seen_ids = bindparam("seen", list(seen), type_=ARRAY(UUID(as_uuid=True)))
    query_keys = bindparam("qkeys", ents, type_=ARRAY(Text))

    seed_rows = select(u.session_id, u.entity_keys).where(u.id == func.any_(seed_ids)).cte("seed")
    sessions = select(seed_rows.c.session_id).where(seed_rows.c.session_id.is_not(None))
    key = func.unnest(seed_rows.c.entity_keys).table_valued("k").render_derived("sk")
    seed_keys = (
        select(key.c.k)
        .select_from(seed_rows)
        .join(key, literal(True))
        .where(key.c.k != func.all_(query_keys))
    )
    keys = select(func.array_agg(seed_keys.subquery().c.k)).scalar_subquery()
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
    by_entity = (
        select(u.id)
        .where(*clauses, u.id != func.all_(seen_ids), u.entity_keys.overlap(keys))
        .order_by(u.occurred_at.desc())
        .limit(per_source)
    )
    reached = union(by_session, by_entity).scalar_subquery()

    emb = bindparam("emb", embedding, type_=Vector()) if embedding is not None else None
    q = query_lexemes(keyword_text, (), None)
    ent_param = bindparam("ents", ents, type_=ARRAY(Text)) if ents else None
    dated_param = bindparam("dated", dated, type_=TSQUERY)
    # How it was reached: NULL for a session-mate of a seed, else the seed's entity key it names.
    own = func.unnest(u.entity_keys).table_valued("k").render_derived("uk")
    shared = select(func.min(own.c.k)).select_from(own).where(own.c.k.in_(seed_keys))
    via_key = case((u.session_id.in_(sessions), None), else_=shared.scalar_subquery())
    stmt = signals_select([*clauses, u.id.in_(reached)], q, emb, ent_param, None, dated_param)
    rows = (await (await session.connection()).execute(stmt.add_columns(via_key))).all()
    found = candidates_of([tuple(r)[:-1] for r in rows], ents)
    return found, [r[-1] for r in rows]
