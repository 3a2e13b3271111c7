"""The expansion stage of a recall (multi-hop, large subjects): the units of the first
stage's best hits' sessions and those naming their entities (one statement:
app.repositories.recall.expand), scored with the candidates and ranked again; and how each
hit was reached (``via``). Small subjects score every unit already: there the context and
entity signals carry the same hops (app.services.recall.scoring)."""

from __future__ import annotations

import dataclasses
import time
from datetime import datetime
from typing import Literal, NamedTuple

import numpy as np
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.config import RecallSettings
from app.core.entity_names import entity_key
from app.repositories.memory.filters import UnitFilters
from app.repositories.recall.expand import expansion
from app.repositories.recall.repository import Candidates
from app.repositories.recall.sql import DATED_TSQUERY, RecalledUnit
from app.services.recall.scoring import Ranked, Weighting, rank
from app.services.stages import StageClock

# (status, units added, reason): what the answer's ``expansion`` says.
Outcome = tuple[Literal["applied", "skipped", "not_needed", "off"], int, str | None]


class Hop(NamedTuple):
    """What the expansion statement needs of the recall: its filters, the query embedding,
    keyword text and entity candidates, the time window and whether it asks *when*."""

    f: UnitFilters
    embedding: np.ndarray | None
    keyword_text: str
    entities: list[str]
    window: tuple[datetime, datetime] | None
    asks_when: bool


async def expand(
    session: AsyncSession,
    settings: RecallSettings,
    hop: Hop,
    found: Candidates,
    ranked: list[Ranked],
    weighting: Weighting,
    top_k: int,
    when: tuple[float, datetime, int],
    clock: StageClock,
) -> tuple[list[Ranked], Outcome]:
    """The second hop from the best ``RECALL__EXPAND_SEEDS`` of ``ranked`` (stage ``expand``:
    the statement and the second ranking). ``when``: the budget's deadline (a
    ``time.perf_counter()`` instant), the request's clock and how many ranked to keep.
    Skipped, and said so, when less than ``RECALL__EXPAND_MIN_BUDGET_MS`` is left."""
    deadline, now, keep = when
    left_ms = (deadline - time.perf_counter()) * 1000.0
    if not ranked:
        return ranked, ("skipped", 0, "no first-stage hits")
    if left_ms < settings.expand_min_budget_ms:
        return ranked, ("skipped", 0, f"{left_ms:.0f} ms of the budget left")
    more, reached = await expansion(
        session,
        hop.f,
        hop.embedding,
        hop.keyword_text,
        hop.entities,
        seeds=[r.id for r in ranked[: settings.expand_seeds]],
        seen=list(found.columns.id),
        per_source=max(settings.min_candidates, 4 * top_k),
        session_cap=settings.expand_session_cap,
        dated=DATED_TSQUERY if hop.asks_when else None,
    )
    outcome: Outcome = ("applied", more.columns.size, None)
    if not more.columns.size:
        clock.mark("expand")
        return ranked, outcome
    again = rank(
        found.columns + more.columns,
        weighting,
        now,
        limit=keep,
        window=hop.window,
        asks_when=hop.asks_when,
    )
    via = {
        unit_id: ("session" if key is None else f"entity {key}")
        for unit_id, key in zip(more.columns.id, reached, strict=True)
    }
    clock.mark("expand")
    return [dataclasses.replace(r, via=via[r.id]) if r.id in via else r for r in again], outcome


def named_via(r: Ranked, unit: RecalledUnit, query_keys: set[str]) -> Ranked:
    """``via`` "entity" completed with the name (as the unit spells it) that the query
    names: "entity Caroline"; "entity KEY" (an expansion's hop, a case-folded key) spelled
    as the unit spells it."""
    if r.via == "entity":
        name = next((e for e in unit.entities if entity_key(e) in query_keys), None)
        return dataclasses.replace(r, via=f"entity {name}" if name else "direct")
    if r.via.startswith("entity "):
        key = r.via.removeprefix("entity ")
        name = next((e for e in unit.entities if entity_key(e) == key), key)
        return dataclasses.replace(r, via=f"entity {name}")
    return r
