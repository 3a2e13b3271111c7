"""The write path's view of digests (docs/LIFECYCLE.md "A digest is its parts"): a unit
``POST /summarize`` wrote holds several facts, each still stored as an archived part
(:mod:`app.repositories.memory.digests`). A new unit is decided against those parts, not
against the digest as a whole — a change of one fact ("Sam now works at Microsoft") used to
supersede the whole digest, and every other fact in it dropped out of recall (tester hbreak6
G10):

- it **restates** a part: it merges into the digest (which holds that fact);
- it **contradicts** a part, or its pair with a part is **unsure** (a review): the digest is
  unpacked — its parts are active units again (living at least as long as the digest), the
  digest is archived (``metadata.unpacked``, kept for history with its links) — and the
  decision applies to the parts like to any active unit: the changed part is superseded, the
  others stay current. A digest held in a digest is unpacked on the way to the changed part.
  The next ``/summarize`` consolidates again;
- nothing about its parts: the digest is left as it is.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.digests import DigestRepository, maybe_digest, unpack_part
from app.repositories.memory.units import Neighbour
from app.services.memory.pairs.plan import Plan


@dataclass
class Decided:
    """A plan against ``neighbours`` (its indexes point there: digests replaced by their
    parts) and the digests to unpack before it applies, outermost first, each with its
    parts."""

    neighbours: list[Neighbour]
    plan: Plan
    unpack: list[tuple[MemoryUnit, list[MemoryUnit]]] = field(default_factory=list)


def _cosine(a: object, b: np.ndarray) -> float:
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape != y.shape:
        return 0.0
    norm = float(np.linalg.norm(x) * np.linalg.norm(y))
    return float(x @ y / norm) if norm else 0.0


class DigestParts:
    """Decides a new unit against the parts of the digests among its neighbours."""

    def __init__(self, repo: DigestRepository) -> None:
        self.repo = repo

    async def decide(
        self,
        namespace: str,
        neighbours: list[Neighbour],
        vector: np.ndarray,
        decide: Callable[[list[Neighbour]], Plan],
    ) -> Decided:
        """The plan of ``decide`` (the pair decision over a neighbour list) with every digest
        among ``neighbours`` replaced by its parts (each scored against ``vector``): a merge
        into a part becomes a merge into its outermost digest; a contradiction or an unsure
        pair with a part unpacks the digests that hold it (:attr:`Decided.unpack`, for
        :meth:`unpack`). Without digests, ``decide(neighbours)`` as it is."""
        parent: dict[uuid.UUID, MemoryUnit] = {}  # part id -> the digest holding it
        children: dict[uuid.UUID, list[MemoryUnit]] = {}
        frontier = [n.unit for n in neighbours if maybe_digest(n.unit)]
        while frontier:
            held = await self.repo.parts(namespace, [u.id for u in frontier])
            by_id = {u.id: u for u in frontier}
            frontier = []
            for digest_id, parts in held.items():
                children[digest_id] = parts
                for part in parts:
                    if part.id not in parent and part.id not in by_id:
                        parent[part.id] = by_id[digest_id]
                        if maybe_digest(part):
                            frontier.append(part)
        if not children:
            return Decided(neighbours, decide(neighbours))
        expanded: list[Neighbour] = []
        for n in neighbours:
            expanded += self._leaves(n, children, vector)
        plan = decide(expanded)

        def outermost(unit: MemoryUnit) -> list[MemoryUnit]:
            chain = []
            while unit.id in parent:
                unit = parent[unit.id]
                chain.append(unit)
            return chain[::-1]

        if plan.merge_into is not None:
            chain = outermost(expanded[plan.merge_into].unit)
            if chain:  # the outermost digest holds that fact
                expanded[plan.merge_into] = Neighbour(chain[0], expanded[plan.merge_into].cosine)
            return Decided(expanded, plan)
        touched = [expanded[i].unit for i, _ in [*plan.contradicts, *plan.unsure]]
        unpack: dict[uuid.UUID, tuple[MemoryUnit, list[MemoryUnit]]] = {}
        for unit in touched:
            for digest in outermost(unit):
                unpack.setdefault(digest.id, (digest, children.get(digest.id, [])))
        return Decided(expanded, plan, list(unpack.values()))

    @staticmethod
    def _leaves(
        n: Neighbour, children: dict[uuid.UUID, list[MemoryUnit]], vector: np.ndarray
    ) -> list[Neighbour]:
        """``n`` itself, or the parts its digest holds (recursively), scored against
        ``vector``."""
        if n.unit.id not in children:
            return [n]
        out: list[Neighbour] = []
        stack = list(reversed(children[n.unit.id]))
        seen = {n.unit.id}
        while stack:
            part = stack.pop()
            if part.id in seen:
                continue
            seen.add(part.id)
            if part.id in children:
                stack.extend(reversed(children[part.id]))
            else:
                out.append(Neighbour(part, _cosine(part.value_embedding, vector)))
        return out

    @staticmethod
    def unpack(decided: Decided, by: uuid.UUID, now: datetime) -> list[MemoryUnit]:
        """Unpack :attr:`Decided.unpack` (mutated in place): each digest archived with
        ``metadata.unpacked`` (when, and the unit ``by`` whose decision needed its parts),
        its parts active; returns every unit changed."""
        changed: list[MemoryUnit] = []
        for digest, parts in decided.unpack:
            for part in parts:
                unpack_part(part, digest, now)
            digest.status = UnitStatus.ARCHIVED
            digest.updated_at = now
            audit = {"at": now.isoformat(), "by": str(by), "parts": [str(p.id) for p in parts]}
            digest.metadata_ = {**digest.metadata_, "unpacked": audit}
            changed += [digest, *parts]
        return changed

    async def corrected(
        self, namespace: str, unit: MemoryUnit, now: datetime, *, invalid: bool = False
    ) -> bool:
        """A correction of ``unit``'s value or status: the digests that consolidated it no
        longer say what it holds, so each is unpacked (archived, ``metadata.unpacked`` with
        ``by`` the unit, its other archived parts active); ``invalid``: ``unit`` was marked
        wrong, and if it is a digest its own parts are active again. True when ``unit`` was a
        part of such a digest (it answered for it: the caller makes it active again)."""
        holders = await self.repo.holders(namespace, [unit.id])
        digests = [
            d
            for d in await self.repo.units(namespace, holders)
            if d.status in (UnitStatus.ACTIVE, UnitStatus.ARCHIVED)
            and "unpacked" not in (d.metadata_ or {})
        ]
        held = await self.repo.parts(namespace, [d.id for d in digests])
        gone = {d.id for d in digests} | {unit.id}
        plan = [(d, [p for p in held.get(d.id, []) if p.id not in gone]) for d in digests]
        self.unpack(Decided([], Plan(None, [], []), plan), unit.id, now)
        if invalid and maybe_digest(unit):
            await self.repo.restore_parts(namespace, [unit.id], now)
        return bool(digests)
