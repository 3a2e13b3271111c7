"""Forget for real (docs/LIFECYCLE.md): hard delete of one unit or of everything a subject left
behind, answered with a receipt of counts per kind.

A unit: the row (its vectors and full-text entry are columns of it), its access log, its
links, the references other units hold to it, and stored Idempotency-Key responses that
contain it. A subject (``user_id``, optionally narrowed by ``agent_id``, or an ``agent_id``
alone): all of that for every unit of the subject, plus its distillation state, its
extraction jobs (and their pending queue entries), the transcripts of its sessions and their
working-memory windows in Redis. Redis is not transactional with PostgreSQL: windows are
deleted last, after every SQL statement succeeded; a failed commit after that leaves the
data in PostgreSQL (the forget can be repeated) but never the reverse.
"""

from __future__ import annotations

import uuid
from typing import Literal, Protocol

from app.core.errors import BadRequestError, NotFoundError
from app.repositories.forget import ForgetRepository, Removed, SubjectScope
from app.repositories.memory.digests import DigestRepository
from app.repositories.memory.units import MemoryRepository, Subject

# What forgetting a digest does to the units it consolidated (its parts).
DigestParts = Literal["restore", "forget"]


class WindowEraser(Protocol):
    """Deletes a session's working-memory window (Redis)."""

    async def clear(self, namespace: str, session_id: str) -> bool:
        """True when a window existed."""
        ...


class ForgetService:
    """Hard deletes; collaborators are passed in (``windows``: the working-memory store)."""

    def __init__(
        self,
        repo: ForgetRepository,
        memories: MemoryRepository,
        windows: WindowEraser | None = None,
    ) -> None:
        self.repo = repo
        self.memories = memories
        self.windows = windows
        self.digests = DigestRepository(repo.session)

    async def forget_unit(
        self,
        namespace: str,
        unit_id: uuid.UUID,
        user_id: str | None = None,
        parts: DigestParts = "restore",
    ) -> Removed:
        """Delete one unit and every row naming it; its entry in extraction-job outcomes is
        removed. ``sources_kept``: the session messages it was extracted from, which stay in
        their transcript and window (``DELETE /working_memory/{id}?purge=true`` removes them).
        The id of a unit merged into another names the fact it went into, as on ``GET`` and
        ``PATCH``: that unit is deleted, with every unit merged into it (tester
        finding C14: only the hidden merged row went, and the fact stayed recalled). A digest
        (``/summarize``): ``parts`` ``restore`` makes the units it consolidated active again
        (``restored``), ``forget`` forgets them with it (tester hbreak6 G40). A digest that
        consolidated the unit holds its words: it is forgotten too, its other parts restored.
        Raises
        NotFoundError (also for another namespace's unit, and, with ``user_id``, for another
        user's)."""
        owner = await self.repo.owner_of(namespace, unit_id)
        if owner is None or user_id not in (None, owner[0]):
            raise NotFoundError(f"no memory unit {unit_id}")
        removed = Removed()
        target = await self._survivor(namespace, unit_id)
        # Job rows before the subject's write lock: an extraction writing for this subject
        # locks its job row first, then the subject (the same order, so no deadlock).
        # ...with the entries of every unit merged into it (tester E10: another job's entry of a
        # merged unit kept its words).
        targets = [target, *(await self._parts(namespace, target, parts))[0]]
        merged = await self.repo.with_merged(namespace, targets)
        for named in dict.fromkeys([unit_id, *targets, *merged]):
            removed.job_outcomes_redacted += await self.repo.redact_job_outcomes(namespace, named)
        await self.memories.lock_subject(Subject(namespace, owner[0], owner[1]))
        if await self.repo.owner_of(namespace, unit_id, lock=True) is None:
            raise NotFoundError(f"no memory unit {unit_id}")
        target = await self._survivor(namespace, unit_id)  # a merge decided meanwhile
        asked, holders = await self._parts(namespace, target, parts)
        targets = [target, *asked, *holders]
        for named in dict.fromkeys([unit_id, *targets]):
            removed.idempotency_records += await self.repo.delete_idempotency_naming_unit(
                namespace, named
            )
        units = await self.repo.with_merged(namespace, [target, *asked])
        removed.sources_kept = await self.repo.kept_sources(namespace, units)
        await self.repo.delete_units(namespace, targets, removed)
        return removed

    async def _parts(
        self, namespace: str, digest: uuid.UUID, parts: DigestParts
    ) -> tuple[list[uuid.UUID], list[uuid.UUID]]:
        """With ``parts`` ``forget``: the units the digest ``digest`` still holds, and those
        of the digests among them; and the digests that consolidated any of them or
        ``digest`` (or a unit merged into one): they hold its words, so they go too and
        their other parts are restored."""
        found: dict[uuid.UUID, None] = {}
        frontier = [digest] if parts == "forget" else []
        while frontier:
            held = await self.digests.parts(namespace, frontier)
            frontier = [u.id for us in held.values() for u in us if u.id not in found]
            found.update(dict.fromkeys(frontier))
        ids = [digest, *(i for i in found if i != digest)]
        holders = await self.digests.holders(namespace, await self.repo.with_merged(namespace, ids))
        return ids[1:], [h for h in holders if h not in ids]

    async def _survivor(self, namespace: str, unit_id: uuid.UUID) -> uuid.UUID:
        """The id of the unit ``unit_id`` was merged into (following merges), else itself."""
        unit = await self.memories.get(namespace, unit_id)
        return unit_id if unit is None else (await self.memories.resolve_merged(unit)).id

    async def forget_subject(
        self, namespace: str, user_id: str | None, agent_id: str | None
    ) -> Removed:
        """Delete everything of a subject: units (every status) and the rows naming them,
        distillation state, extraction jobs with their pending queue entries, the
        transcripts of its sessions and their working-memory windows. Raises
        BadRequestError when neither ``user_id`` nor ``agent_id`` is given (forget-all
        never means "the whole namespace")."""
        if user_id is None and agent_id is None:
            raise BadRequestError("give user_id, agent_id or both: whose memory to forget")
        scope = SubjectScope(namespace, user_id, agent_id)
        removed = Removed()
        sessions = await self.repo.subject_sessions(scope)
        # Jobs first (see forget_unit): a running extraction then finds its job gone.
        removed.jobs, removed.queue_entries = await self.repo.delete_jobs(scope)
        # Block concurrent writes of these subjects until this transaction ends.
        subjects = await self.repo.subjects_of(scope)
        for user, agent in sorted(subjects, key=lambda s: (s[0], s[1] or "")):
            await self.memories.lock_subject(Subject(namespace, user, agent))
        removed.idempotency_records += await self.repo.delete_idempotency_of_subject(scope)
        await self.repo.delete_units(namespace, await self.repo.unit_ids(scope), removed)
        removed.distillation_state += await self.repo.delete_distillation_state(scope)
        removed.transcript_turns, removed.transcript_sessions = await self.repo.delete_sessions(
            namespace, sessions
        )
        if self.windows is not None:
            for session_id in sessions:
                removed.working_memory_sessions += int(
                    await self.windows.clear(namespace, session_id)
                )
        return removed
