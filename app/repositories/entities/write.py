"""SQL that keeps the entity graph (docs/ARCHITECTURE.md, "The entity graph") in step with
the units: one statement links a whole batch of written units (entities upserted, unit →
entity links, co-occurrence edges counted for the new links only); the rarer paths — an
alias a unit declares, a correction of a unit's entities, a forget — recompute what they
touch from the links. Every caller holds the subject's advisory lock (the store's), so the
graph of a subject has one writer at a time. Bound to one session; never commits."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession

# A unit's entities that co-occurrence edges are counted among (its first, in order).
EDGE_ENTITIES = 10


@dataclass(frozen=True)
class Link:
    """Unit ``unit_id`` of subject (``user_id``, ``agent_id``: ``''`` for none) names the
    entity ``key`` (spelled ``name``); ``seen_at`` is the unit's ``occurred_at`` (the link
    keeps it: the newest units of an entity are read from the links alone)."""

    unit_id: uuid.UUID
    user_id: str
    agent_id: str
    key: str
    name: str
    seen_at: datetime


# Keys that are aliases resolve to their entity; entities are upserted (first/last seen
# widened), links inserted, and edges counted for the pairs of a unit's entities of which
# at least one link is new (a restatement merged into a unit adds only what it brings),
# among its first EDGE_ENTITIES entities in the order given (tester finding C28: 50 entities
# per unit made 1,225 edges each, and one 63 kB /store of 60 such units 73,500 rows and 33 s
# of database work; a unit's first ten make 45).
# Rows go in key order, so two writers of one entity could only meet in the same order.
_LINK = text(
    """
    WITH raw AS (
      SELECT * FROM unnest(CAST(:units AS uuid[]), CAST(:users AS text[]),
                           CAST(:agents AS text[]), CAST(:keys AS text[]),
                           CAST(:names AS text[]), CAST(:seen AS timestamptz[]))
             WITH ORDINALITY AS r(unit_id, user_id, agent_id, key, name, seen_at, ord)
    ), input AS (
      SELECT r.unit_id, r.user_id, r.agent_id, COALESCE(c.key, r.key) AS key,
             COALESCE(c.name, r.name) AS name, r.seen_at, r.ord
        FROM raw r
        LEFT JOIN entities a
               ON a.namespace = :ns AND a.user_id = r.user_id AND a.agent_id = r.agent_id
              AND a.key = r.key AND a.alias_of IS NOT NULL
        LEFT JOIN entities c ON c.id = a.alias_of
    ), nodes AS (
      INSERT INTO entities (namespace, user_id, agent_id, key, name, first_seen, last_seen)
      SELECT :ns, user_id, agent_id, key, (array_agg(name ORDER BY seen_at))[1],
             min(seen_at), max(seen_at)
        FROM input GROUP BY user_id, agent_id, key ORDER BY user_id, agent_id, key
      ON CONFLICT (namespace, user_id, agent_id, key) DO UPDATE
         SET first_seen = least(entities.first_seen, excluded.first_seen),
             last_seen = greatest(entities.last_seen, excluded.last_seen)
      RETURNING id, user_id, agent_id, key
    ), named AS (
      SELECT i.unit_id, n.id AS entity_id, i.seen_at, min(i.ord) AS ord
        FROM input i JOIN nodes n USING (user_id, agent_id, key)
       GROUP BY 1, 2, 3
    ), linked AS (
      SELECT unit_id, entity_id, seen_at,
             row_number() OVER (PARTITION BY unit_id ORDER BY ord) AS pos
        FROM named
    ), added AS (
      INSERT INTO unit_entities (unit_id, entity_id, occurred_at)
      SELECT unit_id, entity_id, seen_at FROM linked ORDER BY unit_id, entity_id
      ON CONFLICT DO NOTHING
      RETURNING unit_id, entity_id
    ), pairs AS (
      SELECT x.entity_id AS a, y.entity_id AS b, count(DISTINCT x.unit_id) AS weight,
             min(x.seen_at) AS first_seen, max(x.seen_at) AS last_seen
        FROM linked x JOIN linked y ON y.unit_id = x.unit_id AND x.entity_id < y.entity_id
       WHERE x.pos <= :edge_entities AND y.pos <= :edge_entities
         AND EXISTS (SELECT 1 FROM added d WHERE d.unit_id = x.unit_id
                        AND d.entity_id IN (x.entity_id, y.entity_id))
       GROUP BY 1, 2
    )
    INSERT INTO entity_edges (a, b, weight, first_seen, last_seen)
    SELECT a, b, weight, first_seen, last_seen FROM pairs ORDER BY a, b
    ON CONFLICT (a, b) DO UPDATE
       SET weight = entity_edges.weight + excluded.weight,
           first_seen = least(entity_edges.first_seen, excluded.first_seen),
           last_seen = greatest(entity_edges.last_seen, excluded.last_seen)
    """
)

# An alias a unit declared: the alias row points at the entity (a row already there as an
# entity of its own keeps its id: its links move to the entity in _FOLD_OLD). Unchanged
# when it already points there, so restating the alias costs this one statement.
_DECLARE = text(
    """
    WITH canon AS (
      SELECT id FROM entities
       WHERE namespace = :ns AND user_id = :user AND agent_id = :agent AND key = :key
         AND alias_of IS NULL
    ), old AS (
      SELECT id FROM entities
       WHERE namespace = :ns AND user_id = :user AND agent_id = :agent AND key = :alias
         AND alias_of IS NULL
    ), moved AS (
      INSERT INTO unit_entities (unit_id, entity_id, occurred_at)
      SELECT ue.unit_id, canon.id, ue.occurred_at FROM unit_entities ue, old, canon
       WHERE ue.entity_id = old.id
      ON CONFLICT DO NOTHING
    ), upsert AS (
      INSERT INTO entities (namespace, user_id, agent_id, key, name, alias_of, declared_by,
                            first_seen, last_seen)
      SELECT :ns, :user, :agent, :alias, :name, canon.id, :unit, :seen, :seen FROM canon
      ON CONFLICT (namespace, user_id, agent_id, key) DO UPDATE
         SET alias_of = excluded.alias_of, declared_by = excluded.declared_by
       WHERE entities.alias_of IS DISTINCT FROM excluded.alias_of
    )
    SELECT (SELECT id FROM old) AS old_id, (SELECT id FROM canon) AS canon_id
    """
)
_FOLD_OLD = text(
    """
    WITH links AS (DELETE FROM unit_entities WHERE entity_id = :old),
         edges AS (DELETE FROM entity_edges WHERE a = :old OR b = :old)
    UPDATE entities SET alias_of = :canon WHERE alias_of = :old
    """
)
# Edges touching these entities, recomputed from the links that remain: weights, first and
# last seen; edges no unit holds any more are deleted.
_RECOMPUTE = text(
    """
    WITH touched AS (SELECT DISTINCT unnest(CAST(:ids AS bigint[])) AS id),
    fresh AS (
      SELECT x.entity_id AS a, y.entity_id AS b, count(*) AS weight,
             min(u.occurred_at) AS first_seen, max(u.occurred_at) AS last_seen
        FROM unit_entities x
        JOIN unit_entities y ON y.unit_id = x.unit_id AND x.entity_id < y.entity_id
        JOIN memory_units u ON u.id = x.unit_id
       WHERE x.entity_id IN (SELECT id FROM touched) OR y.entity_id IN (SELECT id FROM touched)
       GROUP BY 1, 2
    ), gone AS (
      DELETE FROM entity_edges e
       WHERE (e.a IN (SELECT id FROM touched) OR e.b IN (SELECT id FROM touched))
         AND NOT EXISTS (SELECT 1 FROM fresh f WHERE f.a = e.a AND f.b = e.b)
    )
    INSERT INTO entity_edges (a, b, weight, first_seen, last_seen)
    SELECT a, b, weight, first_seen, last_seen FROM fresh ORDER BY a, b
    ON CONFLICT (a, b) DO UPDATE
       SET weight = excluded.weight, first_seen = excluded.first_seen,
           last_seen = excluded.last_seen
    """
)
_LINKED_ENTITIES = text(
    "SELECT entity_id, count(*) AS links FROM unit_entities"
    " WHERE unit_id = ANY(CAST(:ids AS uuid[])) GROUP BY entity_id"
)
# Entities left without a unit go (their edges and aliases with them, by cascade).
_DROP_ORPHANS = text(
    """
    DELETE FROM entities e
     WHERE e.id = ANY(CAST(:ids AS bigint[])) AND e.alias_of IS NULL
       AND NOT EXISTS (SELECT 1 FROM unit_entities ue WHERE ue.entity_id = e.id)
    RETURNING e.id
    """
)


class EntityGraphWriter:
    """Writes of the entity graph bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def link(self, namespace: str, links: Sequence[Link]) -> None:
        """Upsert the entities of ``links``, link their units and count the new
        co-occurrences: one statement for a whole batch (none when ``links`` is empty).
        The units must be written (flushed) already."""
        if not links:
            return
        await self.session.execute(
            _LINK,
            {
                "ns": namespace,
                "units": [x.unit_id for x in links],
                "users": [x.user_id for x in links],
                "agents": [x.agent_id for x in links],
                "keys": [x.key for x in links],
                "names": [x.name for x in links],
                "seen": [x.seen_at for x in links],
                "edge_entities": EDGE_ENTITIES,
            },
        )

    async def declare_alias(
        self,
        namespace: str,
        user_id: str,
        agent_id: str,
        key: str,
        alias_key: str,
        alias_name: str,
        unit_id: uuid.UUID,
        seen_at: datetime,
    ) -> bool:
        """Record that ``alias_key`` names entity ``key`` (declared by ``unit_id``); an
        entity already stored under the alias is folded into ``key``'s (its links move,
        its edges are recomputed). One statement when nothing needs folding; returns
        whether something was folded."""
        row = (
            await self.session.execute(
                _DECLARE,
                {
                    "ns": namespace,
                    "user": user_id,
                    "agent": agent_id,
                    "key": key,
                    "alias": alias_key,
                    "name": alias_name,
                    "unit": unit_id,
                    "seen": seen_at,
                },
            )
        ).one()
        if row.old_id is None or row.canon_id is None:
            return False
        await self.session.execute(_FOLD_OLD, {"old": row.old_id, "canon": row.canon_id})
        await self.recompute_edges([row.canon_id])
        return True

    async def linked_entities(self, unit_ids: Sequence[uuid.UUID]) -> dict[int, int]:
        """The entities these units link to: entity id → how many of these units."""
        if not unit_ids:
            return {}
        rows = await self.session.execute(_LINKED_ENTITIES, {"ids": list(unit_ids)})
        return {int(r.entity_id): int(r.links) for r in rows}

    async def unlink_units(self, unit_ids: Sequence[uuid.UUID]) -> None:
        """Delete these units' links (the units stay)."""
        if unit_ids:
            await self.session.execute(
                text("DELETE FROM unit_entities WHERE unit_id = ANY(CAST(:ids AS uuid[]))"),
                {"ids": list(unit_ids)},
            )

    async def settle(self, entity_ids: Sequence[int]) -> int:
        """After links to these entities went away: drop the ones left without a unit and
        recompute the edges of the others; returns how many entities were dropped."""
        if not entity_ids:
            return 0
        ids = sorted(set(entity_ids))
        dropped = set((await self.session.scalars(_DROP_ORPHANS, {"ids": ids})).all())
        await self.recompute_edges([i for i in ids if i not in dropped])
        return len(dropped)

    async def recompute_edges(self, entity_ids: Sequence[int]) -> None:
        """Recount the edges touching these entities from the links that remain."""
        if entity_ids:
            await self.session.execute(_RECOMPUTE, {"ids": sorted(set(entity_ids))})
