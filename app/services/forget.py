"""Forget for real (DESIGN §8): hard delete of one unit or of everything a subject left
behind, answered with a receipt of counts per kind.

A unit: the row (its vectors and full-text entry are columns of it), its access log, its
links, the references other units hold to it, and stored Idempotency-Key responses that
contain it. A subject (``user_id``, optionally narrowed by ``agent_id``, or an ``agent_id``
alone): all of that for every unit of the subject, plus its distillation state and whatever
the registered :class:`SubjectEraser` s remove (transcripts, working-memory sessions, jobs).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from typing import Protocol

from app.core.errors import BadRequestError, NotFoundError
from app.repositories.forget import ForgetRepository, Removed, SubjectScope
from app.repositories.memory import MemoryRepository, Subject


class SubjectEraser(Protocol):
    """Removes one kind of subject data kept outside the memory-unit tables."""

    async def erase(self, scope: SubjectScope, removed: Removed) -> None:
        """Delete the scope's data and add the counts to ``removed``."""
        ...


class ForgetService:
    """Hard deletes; collaborators are passed in."""

    def __init__(
        self,
        repo: ForgetRepository,
        memories: MemoryRepository,
        erasers: Sequence[SubjectEraser] = (),
    ) -> None:
        self.repo = repo
        self.memories = memories
        self.erasers = list(erasers)

    async def forget_unit(self, namespace: str, unit_id: uuid.UUID) -> Removed:
        """Delete one unit and every row naming it. Raises NotFoundError (also for another
        namespace's unit)."""
        owner = await self.repo.owner_of(namespace, unit_id)
        if owner is None:
            raise NotFoundError(f"no memory unit {unit_id}")
        # The subject's write lock first (the order /store takes them), then the row.
        await self.memories.lock_subject(Subject(namespace, owner[0], owner[1]))
        if await self.repo.owner_of(namespace, unit_id, lock=True) is None:
            raise NotFoundError(f"no memory unit {unit_id}")
        removed = Removed()
        removed.idempotency_records += await self.repo.delete_idempotency_naming_unit(
            namespace, unit_id
        )
        await self.repo.delete_units(namespace, [unit_id], removed)
        return removed

    async def forget_subject(
        self, namespace: str, user_id: str | None, agent_id: str | None
    ) -> Removed:
        """Delete everything of a subject. Raises BadRequestError when neither ``user_id``
        nor ``agent_id`` is given (forget-all never means "the whole namespace")."""
        if user_id is None and agent_id is None:
            raise BadRequestError("give user_id, agent_id or both: whose memory to forget")
        scope = SubjectScope(namespace, user_id, agent_id)
        # Block concurrent /store of these subjects until this transaction ends.
        subjects = await self.repo.subjects_of(scope)
        for user, agent in sorted(subjects, key=lambda s: (s[0], s[1] or "")):
            await self.memories.lock_subject(Subject(namespace, user, agent))
        removed = Removed()
        removed.idempotency_records += await self.repo.delete_idempotency_of_subject(scope)
        await self.repo.delete_units(namespace, await self.repo.unit_ids(scope), removed)
        removed.distillation_state += await self.repo.delete_distillation_state(scope)
        for eraser in self.erasers:
            await eraser.erase(scope, removed)
        return removed
