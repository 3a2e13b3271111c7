"""Reading the entity graph: a subject's entities (paged, or those a question mentions) and
one entity's profile — "what do we know about Caroline?" (docs/ARCHITECTURE.md, "The
entity graph")."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.core.entity_names import entity_key, name_key
from app.core.errors import BadRequestError, NotFoundError
from app.core.text import has_cjk
from app.models import MemoryUnit
from app.repositories.entities.read import (
    EntityGraphReader,
    EntityNode,
    EntityRow,
    Mention,
    Neighbour,
    Scope,
)
from app.schemas.entities import EntityListQuery, EntityProfileQuery
from app.services import cursors

_ENDPOINT = "GET /entities"


@dataclass(frozen=True)
class EntityList:
    """A page of entities and the cursor of the next (None on the last)."""

    entities: list[EntityRow]
    next_cursor: str | None


@dataclass(frozen=True)
class Profile:
    """One entity: the stored node, its units in scope (newest ``limit``, oldest first),
    how many there are, and its neighbours."""

    node: EntityNode
    units: list[MemoryUnit]
    unit_count: int
    neighbours: list[Neighbour]


def _bounded(text: str, at: int, key: str) -> bool:
    """``key`` found at ``at`` in ``text`` is a whole name there: no letter or digit glued
    to it on either side (CJK needs no spaces, so a CJK edge always counts)."""
    before = text[at - 1] if at > 0 else ""
    after = text[at + len(key)] if at + len(key) < len(text) else ""
    left = not before.isalnum() or has_cjk(before) or has_cjk(key[0])
    right = not after.isalnum() or has_cjk(after) or has_cjk(key[-1])
    return left and right


def _mentions(text: str, key: str) -> bool:
    start = 0
    while (at := text.find(key, start)) >= 0:
        if _bounded(text, at, key):
            return True
        start = at + 1
    return False


class EntityService:
    """Reads of the entity graph; the reader is passed in."""

    def __init__(self, reader: EntityGraphReader) -> None:
        self.reader = reader

    async def entities(self, namespace: str, q: EntityListQuery, now: datetime) -> EntityList:
        """One page of the subject's entities with an active unit in scope, most recently
        seen first; with ``mentioned_in``, the entities that text names (one page).
        Raises BadRequestError on a bad cursor."""
        scope = Scope(namespace, q.user_id, q.agent_id, q.session_id)
        if q.mentioned_in is not None:
            return EntityList(await self.mentioned(scope, q.mentioned_in, now, q.limit), None)
        filters = q.model_dump(exclude={"cursor", "limit"})
        after = None
        if q.cursor is not None:
            pos = cursors.decode(q.cursor, filters, _ENDPOINT)
            try:
                after = (datetime.fromisoformat(pos["t"]), str(pos["k"]))
            except (KeyError, TypeError, ValueError) as exc:
                raise BadRequestError(f"cursor: not a cursor returned by {_ENDPOINT}") from exc
        rows = await self.reader.entities(scope, now, q.limit + 1, after)
        next_cursor = None
        if len(rows) > q.limit:
            rows = rows[: q.limit]
            last = rows[-1]
            next_cursor = cursors.encode({"t": last.last_seen.isoformat(), "k": last.key}, filters)
        return EntityList(rows, next_cursor)

    async def mentioned(
        self, scope: Scope, text: str, now: datetime, limit: int
    ) -> list[EntityRow]:
        """The entities (with an active unit in scope) whose name or an alias ``text``
        mentions as a whole word, longest name first, then most units."""
        normalised = entity_key(text)
        found: dict[str, tuple[Mention, int]] = {}
        for m in await self.reader.mentioned(scope, normalised, now):
            if _mentions(normalised, m.matched):
                best = found.get(m.key)
                if best is None or len(m.matched) > best[1]:
                    found[m.key] = (m, len(m.matched))
        ranked = sorted(found.values(), key=lambda x: (-x[1], -x[0].unit_count, x[0].key))
        return [EntityRow(m.key, m.name, m.unit_count, m.last_seen) for m, _ in ranked[:limit]]

    async def profile(
        self, namespace: str, name: str, q: EntityProfileQuery, now: datetime
    ) -> Profile:
        """The entity ``name`` (or the entity an alias of that name points to) of the
        subject: its units in scope and its neighbours. Raises BadRequestError for a name
        that is empty once normalised, NotFoundError when the subject has no such entity
        with an active unit in scope (another namespace's entities are never found)."""
        scope = Scope(namespace, q.user_id, q.agent_id, q.session_id)
        keys = await self.reader.resolve(scope, [name_key(name)])
        for key in keys:
            node = await self.reader.node(scope, key)
            if node is None:
                continue
            units, total = await self.reader.units(scope, node.ids, now, q.limit)
            if total == 0:
                continue
            neighbours = await self.reader.neighbours(node.ids, key, q.neighbours)
            return Profile(node, units, total, neighbours)
        raise NotFoundError(f"no entity {name!r} with memory of user {q.user_id!r} in scope")
