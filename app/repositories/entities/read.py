"""Reads of the entity graph: a subject's entities with their unit counts, one entity's
profile (units and neighbours), the entities a text names, and — for recall — the units
linked to a set of names and their neighbours, in one statement.

A subject is (namespace, user) and optionally an agent: without ``agent_id`` the entities
of every agent of the user are read together, grouped by key (each agent's units have
entities of their own, as they have their own dedupe scope). Counts and ``last_seen`` come
from the active, unexpired units in scope, so they stay right under supersede, merge,
archival and expiry without upkeep. Bound to one session; never commits."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, text
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import MemoryUnit


@dataclass(frozen=True)
class Scope:
    """Whose entities: ``agent_id`` None means every agent of the user; ``session_id``
    narrows the units counted (and so the entities listed) to one session."""

    namespace: str
    user_id: str
    agent_id: str | None = None
    session_id: str | None = None

    def params(self) -> dict[str, object]:
        return {
            "ns": self.namespace,
            "user": self.user_id,
            "agent": self.agent_id,
            "session": self.session_id,
        }


@dataclass(frozen=True)
class EntityRow:
    """An entity as listed: its key, the first spelling seen, how many active units in
    scope name it and the newest of their ``occurred_at``."""

    key: str
    name: str
    unit_count: int
    last_seen: datetime


@dataclass(frozen=True)
class EntityNode:
    """The stored entity (all agents in scope together): its ids, name, aliases and the
    first and last ``occurred_at`` of the units written with it."""

    ids: list[int]
    key: str
    name: str
    aliases: list[str]
    first_seen: datetime
    last_seen: datetime


@dataclass(frozen=True)
class Neighbour:
    """An entity named together with another: the number of stored units naming both
    (``weight``) and the first and last of their ``occurred_at``."""

    key: str
    name: str
    weight: int
    first_seen: datetime
    last_seen: datetime


@dataclass(frozen=True)
class Mention:
    """An entity (``key``, ``name``) whose key or alias (``matched``) occurs in a text."""

    key: str
    name: str
    matched: str
    unit_count: int
    last_seen: datetime


@dataclass(frozen=True)
class LinkedUnit:
    """An active unit reached from the names asked for: ``hop`` 0 when it names one of
    them (``via``: that entity's key), 1 when it names a neighbour of one (``via``: the
    neighbour; ``weight``: the edge's)."""

    unit_id: uuid.UUID
    via: str
    hop: int
    weight: int


# Units that count: active and not expired (by the clock passed in, as recall does).
_IN_SCOPE = """
    u.status = 'active' AND (u.expires_at IS NULL OR u.expires_at > :now)
    AND (CAST(:session AS text) IS NULL OR u.session_id = :session
         OR (cardinality(u.sessions) > 0 AND u.sessions @> ARRAY[CAST(:session AS text)]))
"""
_SUBJECT = """
    e.namespace = :ns AND e.user_id = :user
    AND (CAST(:agent AS text) IS NULL OR e.agent_id = :agent)
"""

_LIST = text(
    f"""
    SELECT e.key, (array_agg(e.name ORDER BY e.id))[1] AS name,
           count(DISTINCT u.id) AS unit_count, max(u.occurred_at) AS last_seen
      FROM entities e
      JOIN unit_entities ue ON ue.entity_id = e.id
      JOIN memory_units u ON u.id = ue.unit_id
     WHERE {_SUBJECT} AND e.alias_of IS NULL AND {_IN_SCOPE}
     GROUP BY e.key
    HAVING CAST(:after_t AS timestamptz) IS NULL
        OR (max(u.occurred_at), e.key) < (CAST(:after_t AS timestamptz), CAST(:after_k AS text))
     ORDER BY last_seen DESC, e.key DESC
     LIMIT :limit
    """
)

# The entity a name resolves to: its own key, or the entity of an alias with that key.
_RESOLVE = text(
    f"""
    SELECT DISTINCT COALESCE(c.key, e.key) AS key
      FROM entities e LEFT JOIN entities c ON c.id = e.alias_of
     WHERE {_SUBJECT} AND e.key = ANY(CAST(:keys AS text[]))
    """
)
_NODE = text(
    f"""
    WITH n AS (
      SELECT e.id, e.name, e.first_seen, e.last_seen FROM entities e
       WHERE {_SUBJECT} AND e.key = :key AND e.alias_of IS NULL
    )
    SELECT array_agg(id ORDER BY id) AS ids, (array_agg(name ORDER BY id))[1] AS name,
           min(first_seen) AS first_seen, max(last_seen) AS last_seen,
           ARRAY(SELECT DISTINCT a.name FROM entities a JOIN n ON a.alias_of = n.id
                  ORDER BY a.name) AS aliases
      FROM n
    """
)
_NEIGHBOURS = text(
    """
    SELECT n.key, (array_agg(n.name ORDER BY n.id))[1] AS name, sum(ed.weight) AS weight,
           min(ed.first_seen) AS first_seen, max(ed.last_seen) AS last_seen
      FROM entity_edges ed
      JOIN entities n ON n.id = CASE WHEN ed.a = ANY(CAST(:ids AS bigint[])) THEN ed.b
                                     ELSE ed.a END
     WHERE (ed.a = ANY(CAST(:ids AS bigint[])) OR ed.b = ANY(CAST(:ids AS bigint[])))
       AND n.key <> :key
     GROUP BY n.key
     ORDER BY weight DESC, last_seen DESC, n.key
     LIMIT :limit
    """
)
_UNIT_IDS = text(
    f"""
    SELECT u.id, count(*) OVER () AS total
      FROM unit_entities ue JOIN memory_units u ON u.id = ue.unit_id
     WHERE ue.entity_id = ANY(CAST(:ids AS bigint[])) AND {_IN_SCOPE}
     GROUP BY u.id, u.occurred_at
     ORDER BY u.occurred_at DESC, u.id DESC
     LIMIT :limit
    """
)
# Entities (or aliases) whose key occurs in a normalised text; the caller checks the
# word boundaries.
_MENTIONED = text(
    f"""
    SELECT COALESCE(c.key, e.key) AS key, COALESCE(c.name, e.name) AS name, e.key AS matched,
           s.unit_count, s.last_seen
      FROM entities e LEFT JOIN entities c ON c.id = e.alias_of
      CROSS JOIN LATERAL (
        SELECT count(DISTINCT u.id) AS unit_count, max(u.occurred_at) AS last_seen
          FROM unit_entities ue JOIN memory_units u ON u.id = ue.unit_id
         WHERE ue.entity_id = COALESCE(c.id, e.id) AND {_IN_SCOPE}
      ) s
     WHERE {_SUBJECT} AND strpos(:text, e.key) > 0 AND s.unit_count > 0
    """
)
# For recall (multi-hop): seeds are the entities named (through aliases), hop 1 their
# neighbours by co-occurrence; each active unit linked to either once, nearest hop first.
_LINKED = text(
    f"""
    WITH seeds AS (
      SELECT DISTINCT COALESCE(e.alias_of, e.id) AS id
        FROM entities e
       WHERE {_SUBJECT} AND e.key = ANY(CAST(:keys AS text[]))
    ), reach AS (
      SELECT id, 0 AS hop, 0 AS weight FROM seeds
      UNION ALL
      SELECT CASE WHEN ed.a = s.id THEN ed.b ELSE ed.a END, 1, ed.weight
        FROM seeds s JOIN entity_edges ed ON ed.a = s.id OR ed.b = s.id
       WHERE :hops > 0 AND ed.weight >= :min_weight
    ), best AS (
      SELECT DISTINCT ON (u.id) u.id AS unit_id, n.key AS via, r.hop, r.weight,
             u.occurred_at
        FROM reach r
        JOIN entities n ON n.id = r.id
        JOIN unit_entities ue ON ue.entity_id = r.id
        JOIN memory_units u ON u.id = ue.unit_id
       WHERE {_IN_SCOPE}
       ORDER BY u.id, r.hop, r.weight DESC
    )
    SELECT unit_id, via, hop, weight FROM best
     ORDER BY hop, weight DESC, occurred_at DESC, unit_id
     LIMIT :limit
    """
)


class EntityGraphReader:
    """Reads of the entity graph bound to one session."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def entities(
        self,
        scope: Scope,
        now: datetime,
        limit: int,
        after: tuple[datetime, str] | None = None,
    ) -> list[EntityRow]:
        """The subject's entities with at least one active unit in scope, newest
        ``last_seen`` first (ties by key, descending), after the keyset ``after``
        (``(last_seen, key)`` of the previous page's last row); at most ``limit``."""
        rows = await self.session.execute(
            _LIST,
            {
                **scope.params(),
                "now": now,
                "limit": limit,
                "after_t": after[0] if after else None,
                "after_k": after[1] if after else None,
            },
        )
        return [EntityRow(r.key, r.name, int(r.unit_count), r.last_seen) for r in rows]

    async def resolve(self, scope: Scope, keys: Sequence[str]) -> list[str]:
        """The entity keys these keys name in the subject (an alias gives its entity's)."""
        rows = await self.session.scalars(_RESOLVE, {**scope.params(), "keys": list(keys)})
        return sorted(rows.all())

    async def node(self, scope: Scope, key: str) -> EntityNode | None:
        """The stored entity ``key`` of the subject (every agent in scope), or None."""
        row = (await self.session.execute(_NODE, {**scope.params(), "key": key})).one()
        if not row.ids:
            return None
        return EntityNode(
            list(row.ids), key, row.name, list(row.aliases), row.first_seen, row.last_seen
        )

    async def units(
        self, scope: Scope, ids: Sequence[int], now: datetime, limit: int
    ) -> tuple[list[MemoryUnit], int]:
        """The newest ``limit`` active units in scope linked to these entities, in time
        order (oldest first, by ``occurred_at`` then id), and how many there are in all."""
        rows = (
            await self.session.execute(
                _UNIT_IDS, {**scope.params(), "ids": list(ids), "now": now, "limit": limit}
            )
        ).all()
        if not rows:
            return [], 0
        ids_ = [r.id for r in rows]
        found = await self.session.scalars(select(MemoryUnit).where(MemoryUnit.id.in_(ids_)))
        units = sorted(found.all(), key=lambda u: (u.occurred_at, u.id))
        return units, int(rows[0].total)

    async def neighbours(self, ids: Sequence[int], key: str, limit: int) -> list[Neighbour]:
        """The entities named together with these (one entity's ids), heaviest first."""
        rows = await self.session.execute(
            _NEIGHBOURS, {"ids": list(ids), "key": key, "limit": limit}
        )
        return [Neighbour(r.key, r.name, int(r.weight), r.first_seen, r.last_seen) for r in rows]

    async def mentioned(self, scope: Scope, normalised: str, now: datetime) -> list[Mention]:
        """Entities of the subject whose key or an alias's occurs in ``normalised`` (a text
        passed through ``entity_key``), with their active units in scope."""
        rows = await self.session.execute(
            _MENTIONED, {**scope.params(), "text": normalised, "now": now}
        )
        return [Mention(r.key, r.name, r.matched, int(r.unit_count), r.last_seen) for r in rows]

    async def linked_units(
        self,
        scope: Scope,
        keys: Sequence[str],
        now: datetime,
        *,
        hops: int = 1,
        min_weight: int = 1,
        limit: int = 200,
    ) -> list[LinkedUnit]:
        """The active units in scope that name one of the entity ``keys`` (normalised with
        ``app.core.entity_names.entity_key``; aliases resolve) — ``hop`` 0 — and, with
        ``hops`` 1, those naming a neighbour of one whose edge has at least ``min_weight``
        units — ``hop`` 1. Each unit once, at its nearest hop; ordered by hop, edge weight,
        newest first; at most ``limit``. One statement (for multi-hop recall)."""
        if not keys:
            return []
        rows = await self.session.execute(
            _LINKED,
            {
                **scope.params(),
                "keys": list(keys),
                "now": now,
                "hops": hops,
                "min_weight": min_weight,
                "limit": limit,
            },
        )
        return [LinkedUnit(r.unit_id, r.via, int(r.hop), int(r.weight)) for r in rows]
