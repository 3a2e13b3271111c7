"""The entity graph follows the units (docs/ARCHITECTURE.md, "The entity graph"): after a
write, each written unit's entities — names normalised once, aliases the unit declares
applied — are linked in one statement for the whole batch; an alias declared costs one
statement more (and a fold when an entity was already stored under it). A correction of a
unit's entities relinks it. Forget's side is in the forget repository (links go with the
unit, entities left without one go too)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from app.core.entity_names import entity_key
from app.models import MemoryUnit
from app.repositories.entities.write import EntityGraphWriter, Link
from app.services.entities.aliases import Alias, canonical_names, declared_aliases

# A value can declare an alias only with one of these (the cheap test before the parse).
_ALIAS_CUE = re.compile(
    r"[(（]|also\s+(?:called|known)|\baka\b|a\.k\.a|又称|又叫|也叫|简称|亦称|也称", re.I
)


def aliases_of(unit: MemoryUnit) -> list[Alias]:
    """The aliases ``unit``'s own value declares for its entities."""
    if not unit.entities or not _ALIAS_CUE.search(unit.value):
        return []
    return declared_aliases(unit.value, unit.entities)


def links_of(unit: MemoryUnit, aliases: Sequence[Alias]) -> list[Link]:
    """One link per distinct entity the unit names (an alias replaced by its entity)."""
    return [
        Link(
            unit.id,
            unit.user_id,
            unit.agent_id or "",
            entity_key(name),
            name,
            unit.occurred_at,
        )
        for name in canonical_names(unit.entities, aliases)
    ]


class EntityGraphKeeper:
    """Keeps the entity graph of written units; the writer is passed in."""

    def __init__(self, writer: EntityGraphWriter) -> None:
        self.writer = writer

    async def written(self, units: Sequence[MemoryUnit]) -> None:
        """Link these written (flushed) units of one namespace to their entities: one
        statement for all of them (none when none names an entity), plus one per alias a
        unit declares. A unit listed twice counts once (its last state)."""
        latest = {u.id: u for u in units if u.entities}
        if not latest:
            return
        namespace = next(iter(latest.values())).namespace
        links: list[Link] = []
        declared: list[tuple[MemoryUnit, Alias]] = []
        for unit in latest.values():
            aliases = aliases_of(unit)
            links.extend(links_of(unit, aliases))
            declared.extend((unit, a) for a in aliases)
        await self.writer.link(namespace, links)
        for unit, alias in declared:
            await self.writer.declare_alias(
                namespace,
                unit.user_id,
                unit.agent_id or "",
                entity_key(alias.entity),
                entity_key(alias.alias),
                alias.alias,
                unit.id,
                unit.occurred_at,
            )

    async def relink(self, unit: MemoryUnit) -> None:
        """After ``unit``'s entities changed (a correction): its links are replaced, the
        entities it no longer names lose it (and go when left without a unit), the edges
        around them are recounted."""
        before = await self.writer.linked_entities([unit.id])
        await self.writer.unlink_units([unit.id])
        await self.written([unit])
        after = await self.writer.linked_entities([unit.id])
        await self.writer.settle([*before, *after])
