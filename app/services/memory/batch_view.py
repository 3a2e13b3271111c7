"""What each unit of a ``/store`` batch would see, had the batch been stored one unit at a
time, computed from reads made once for the whole batch.

Storing unit *k* of a batch, the write path looks at (1) the oldest active unit of the
subject with the same value hash and (2) the subject's active neighbours: the ``limit``
nearest by value cosine, united with the ``limit`` nearest by scenario cosine. Units 0..k-1
may have changed that picture: created units, survivors of a merge (entities, an adopted
scenario), units superseded or flagged. :class:`BatchView` starts from what was read before
the batch (by hash, and per unit its neighbours) and applies those changes in memory:

- units created in the batch and units the batch changed are scored against unit *k* here
  (cosine of the vectors in memory), the rest keep PostgreSQL's cosines;
- a unit no longer active is dropped. The reads fetch ``fetched`` (more than ``limit``)
  nearest per list, so that units dropped can be replaced by the next ones; when a full
  list has fewer than ``limit`` active units left, units beyond it may now belong to the
  nearest: the view cannot tell and :meth:`BatchView.neighbours` answers None (the caller
  reads afresh).

This is exact: a unit the batch did not touch that was not in a list read before is
farther than every unit of that list, and the batch changes no value vector.

``apart``: the batch's units are not decided against each other (the digests of one
``/summarize`` run: each holds other sources; tester finding K10) — a unit the batch created
is neither a neighbour nor an exact copy of a later one; units it changed still are.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import numpy as np

from app.core.vocabulary import UnitStatus
from app.models import MemoryUnit
from app.repositories.memory.neighbours import Scored
from app.repositories.memory.units import Neighbour, Subject


def _subject(unit: MemoryUnit) -> Subject:
    return Subject(unit.namespace, unit.user_id, unit.agent_id)


def _cosines(rows: Sequence[object], vector: np.ndarray) -> list[float]:
    """Cosine similarity of each of ``rows`` (vectors) to ``vector``."""
    m = np.asarray(np.stack([np.asarray(r, dtype=np.float64) for r in rows]))
    v = np.asarray(vector, dtype=np.float64)
    norms = np.linalg.norm(m, axis=1) * float(np.linalg.norm(v))
    dots = m @ v
    return [float(d / n) if n else 0.0 for d, n in zip(dots, norms, strict=True)]


class BatchView:
    """The in-memory changes of one batch (see the module docstring). ``model``: the
    embedding model whose units are neighbours; ``limit``: neighbours per list (by value,
    by scenario); ``fetched``: how many per list the reads before the batch asked for;
    ``apart``: the batch's own units are not decided against each other (module docstring)."""

    def __init__(
        self,
        model: str,
        limit: int,
        fetched: int,
        by_hash: dict[tuple[Subject, str], list[MemoryUnit]],
        apart: bool = False,
    ) -> None:
        self.model = model
        self.limit = limit
        self.fetched = max(fetched, limit)
        self._by_hash = by_hash  # pre-batch active units per (subject, hash), oldest first
        self._changed: dict[uuid.UUID, MemoryUnit] = {}  # created or changed by the batch
        self.apart = apart
        self._created: set[uuid.UUID] = set()

    def created(self, unit: MemoryUnit) -> None:
        """Record a unit the batch created (``value_hash`` set)."""
        self._created.add(unit.id)
        if self.apart:  # a later unit of the batch sees it nowhere
            return
        self._changed[unit.id] = unit
        key = (_subject(unit), unit.value_hash)
        self._by_hash[key] = [*self._by_hash.get(key, []), unit]

    def changed(self, unit: MemoryUnit) -> None:
        """Record an existing unit the batch changed (merged into, superseded, flagged)."""
        if self.apart and unit.id in self._created:
            return
        self._changed[unit.id] = unit

    def sees(self, unit: MemoryUnit) -> bool:
        """False for a unit this batch created when its units are kept ``apart``."""
        return not (self.apart and unit.id in self._created)

    def exact(self, subject: Subject, value_hash: str) -> MemoryUnit | None:
        """The oldest unit of the subject still active with this value hash, or None."""
        for unit in self._by_hash.get((subject, value_hash), []):
            if unit.status == UnitStatus.ACTIVE:
                return unit
        return None

    def neighbours(
        self,
        subject: Subject,
        before: Sequence[Scored],
        vector: np.ndarray,
        query_vector: np.ndarray | None,
    ) -> list[Neighbour] | None:
        """The neighbours of a unit (``vector``, ``query_vector``) given ``before`` (its
        neighbours read before the batch), most similar value first; None when the view
        cannot tell (read afresh)."""
        for arm in ("by_value", "by_query"):
            listed = [s for s in before if getattr(s, arm)]
            active = sum(s.unit.status == UnitStatus.ACTIVE for s in listed)
            if len(listed) >= self.fetched and active < self.limit:
                return None
        pool: dict[uuid.UUID, tuple[MemoryUnit, float, float | None]] = {}
        for s in before:
            if s.unit.id not in self._changed and s.unit.status == UnitStatus.ACTIVE:
                pool[s.unit.id] = (s.unit, s.value_cos, s.query_cos)
        changed = [
            u
            for u in self._changed.values()
            if u.status == UnitStatus.ACTIVE
            and u.embedding_model == self.model
            and _subject(u) == subject
        ]
        if changed:
            cv = _cosines([u.value_embedding for u in changed], vector)
            with_q = [k for k, u in enumerate(changed) if u.query_embedding is not None]
            cq: dict[int, float] = {}
            if query_vector is not None and with_q:
                got = _cosines([changed[k].query_embedding for k in with_q], query_vector)
                cq = dict(zip(with_q, got, strict=True))
            for k, unit in enumerate(changed):
                pool[unit.id] = (unit, cv[k], cq.get(k))
        rows = list(pool.values())
        by_value = sorted(rows, key=lambda r: -r[1])[: self.limit]
        with_query = [r for r in rows if r[2] is not None]
        by_query = sorted(with_query, key=lambda r: -(r[2] or 0.0))[: self.limit]
        chosen = {r[0].id: r for r in [*by_value, *by_query]}
        ordered = sorted(chosen.values(), key=lambda r: -r[1])
        return [Neighbour(unit=r[0], cosine=r[1]) for r in ordered]
