"""SQL of hard deletes (docs/LIFECYCLE.md "forget is real"): a unit or a whole subject, with every
row that names it — access log, links, references from other units, stored Idempotency-Key
responses, distillation state. Deleting the row deletes its vectors and full-text entry (they
are columns of it; PostgreSQL drops the dead index entries at the next vacuum, and no query
can reach them before). Bound to one session; never commits."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlalchemy import (
    ColumnElement,
    and_,
    cast,
    delete,
    func,
    literal,
    or_,
    select,
    text,
    tuple_,
)
from sqlalchemy.dialects.postgresql import JSONPATH
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import EXTRACT_ENTRYPOINT
from app.models import (
    DistillationState,
    ExtractionJob,
    IdempotencyRecord,
    MemoryAccess,
    MemoryLink,
    MemoryUnit,
    TranscriptMessage,
    WorkingMemorySession,
)
from app.repositories.entities.write import EntityGraphWriter
from app.repositories.forget_chain import ForgetChains
from app.repositories.memory.digests import DigestRepository


@dataclass
class Removed:
    """Counts of what a forget removed, per kind."""

    memory_units: int = 0
    vectors: int = 0
    keyword_entries: int = 0
    access_log: int = 0
    links: int = 0
    entity_links: int = 0
    entities: int = 0
    references_cleared: int = 0
    idempotency_records: int = 0
    distillation_state: int = 0
    transcript_turns: int = 0
    transcript_sessions: int = 0
    working_memory_sessions: int = 0
    jobs: int = 0
    queue_entries: int = 0
    job_outcomes_redacted: int = 0
    # Not a count: the session messages a forgotten unit came from that stay (kept_sources).
    sources_kept: list[str] = field(default_factory=list)
    # Not a count: units a forgotten head had superseded, or a forgotten digest had
    # consolidated, active again (forget_chain, memory.digests).
    restored: list[uuid.UUID] = field(default_factory=list)


@dataclass(frozen=True)
class SubjectScope:
    """Whose data a forget-all removes: a user (any agent), a user with one agent, or an
    agent (any user), within one namespace."""

    namespace: str
    user_id: str | None
    agent_id: str | None

    def unit_clauses(self) -> list[ColumnElement[bool]]:
        clauses: list[ColumnElement[bool]] = [MemoryUnit.namespace == self.namespace]
        if self.user_id is not None:
            clauses.append(MemoryUnit.user_id == self.user_id)
        if self.agent_id is not None:
            clauses.append(MemoryUnit.agent_id == self.agent_id)
        return clauses

    def job_clauses(self) -> list[ColumnElement[bool]]:
        clauses: list[ColumnElement[bool]] = [ExtractionJob.namespace == self.namespace]
        if self.user_id is not None:
            clauses.append(ExtractionJob.user_id == self.user_id)
        if self.agent_id is not None:
            clauses.append(ExtractionJob.agent_id == self.agent_id)
        return clauses


def _rowcount(result: object) -> int:
    return int(getattr(result, "rowcount", 0) or 0)


# Units that stay but name deleted ones lose those references (the ids would otherwise
# outlive the data they point to).
_CLEAR_REFERENCES = text(
    """
    UPDATE memory_units
       SET superseded_by = CASE WHEN superseded_by = ANY(CAST(:ids AS uuid[])) THEN NULL
                                ELSE superseded_by END,
           -- superseded by a forgotten unit: nothing that remains replaces it (tester E21)
           status = CASE WHEN status = 'superseded' AND superseded_by = ANY(CAST(:ids AS uuid[]))
                         THEN 'active' ELSE status END,
           valid_to = CASE WHEN status = 'superseded' AND superseded_by = ANY(CAST(:ids AS uuid[]))
                           THEN NULL ELSE valid_to END,
           conflicts_with = ARRAY(SELECT c FROM unnest(conflicts_with) AS c
                                   WHERE c <> ALL(CAST(:ids AS uuid[])))
     WHERE namespace = :ns
       AND NOT (id = ANY(CAST(:ids AS uuid[])))
       AND (superseded_by = ANY(CAST(:ids AS uuid[])) OR conflicts_with && CAST(:ids AS uuid[]))
    """
)
_DELETE_QUEUE_ENTRIES = text(
    "DELETE FROM pgqueuer WHERE entrypoint = :ep AND status = 'queued' "
    "AND payload = ANY(CAST(:payloads AS bytea[]))"
)
_REDACT_JOB_OUTCOMES = text(
    """
    UPDATE extraction_jobs
       SET outcome = COALESCE(
               (SELECT jsonb_agg(e ORDER BY n) FROM jsonb_array_elements(outcome)
                       WITH ORDINALITY AS x(e, n)
                 WHERE e->>'memory_id' IS DISTINCT FROM :id),
               '[]'::jsonb)
     WHERE namespace = :ns
       AND outcome @> jsonb_build_array(jsonb_build_object('memory_id', CAST(:id AS text)))
    """
)
_VECTORS = func.count(MemoryUnit.value_embedding) + func.count(MemoryUnit.query_embedding)
_KEYWORD = func.count().filter(MemoryUnit.search_text != "")


class ForgetRepository:
    """Hard deletes bound to one session."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session
        self.graph = EntityGraphWriter(session)

    async def subjects_of(self, scope: SubjectScope) -> list[tuple[str, str | None]]:
        """The distinct (user_id, agent_id) pairs holding units in ``scope``."""
        rows = await self.session.execute(
            select(MemoryUnit.user_id, MemoryUnit.agent_id).where(*scope.unit_clauses()).distinct()
        )
        return [(r.user_id, r.agent_id) for r in rows]

    async def unit_ids(self, scope: SubjectScope) -> list[uuid.UUID]:
        """Ids of every unit in ``scope``, row-locked."""
        rows = await self.session.scalars(
            select(MemoryUnit.id)
            .where(*scope.unit_clauses())
            .order_by(MemoryUnit.id)
            .with_for_update()
        )
        return list(rows.all())

    async def owner_of(
        self, namespace: str, unit_id: uuid.UUID, *, lock: bool = False
    ) -> tuple[str, str | None] | None:
        """The (user_id, agent_id) of one unit (row-locked when ``lock``), or None when it
        does not exist in this namespace."""
        stmt = select(MemoryUnit.user_id, MemoryUnit.agent_id).where(
            MemoryUnit.namespace == namespace, MemoryUnit.id == unit_id
        )
        if lock:
            stmt = stmt.with_for_update()
        row = (await self.session.execute(stmt)).first()
        return None if row is None else (row.user_id, row.agent_id)

    async def delete_units(
        self, namespace: str, ids: Sequence[uuid.UUID], removed: Removed
    ) -> None:
        """Delete these units, the units merged into them (they hold the same fact) and every
        row naming them — their entity links too, and the entities left without a unit (an
        alias goes with the unit that declared it); add the counts to ``removed``. The parts
        a deleted digest still held (archived sources, not deleted here) are active again,
        listed in ``removed.restored`` with the units a deleted head had superseded."""
        if not ids:
            return
        id_list = await self.with_merged(namespace, list(ids))
        stats = (
            await self.session.execute(
                select(func.count(), _VECTORS, _KEYWORD).where(
                    MemoryUnit.namespace == namespace, MemoryUnit.id.in_(id_list)
                )
            )
        ).one()
        removed.vectors += int(stats[1] or 0)
        removed.keyword_entries += int(stats[2] or 0)
        # A forgotten digest gives back its parts (tester hbreak6 G40: left archived).
        parts = await DigestRepository(self.session).restore_parts(namespace, id_list)
        removed.access_log += _rowcount(
            await self.session.execute(
                delete(MemoryAccess).where(MemoryAccess.unit_id.in_(id_list))
            )
        )
        removed.links += _rowcount(
            await self.session.execute(
                delete(MemoryLink).where(
                    or_(MemoryLink.target_id.in_(id_list), MemoryLink.source_id.in_(id_list))
                )
            )
        )
        # Units that stay but name a deleted one: a chain through it is re-linked past it, a
        # unit it superseded with nothing after it is active again; conflicts_with cleared.
        restored = await ForgetChains(self.session).splice(namespace, id_list)
        removed.restored += sorted(set(restored) | set(parts))
        removed.references_cleared += await self._clear_references(namespace, id_list)
        linked = await self.graph.linked_entities(id_list)
        removed.memory_units += _rowcount(
            await self.session.execute(
                delete(MemoryUnit)
                .where(MemoryUnit.namespace == namespace, MemoryUnit.id.in_(id_list))
                .execution_options(synchronize_session=False)
            )
        )
        # The links went with the units (ON DELETE CASCADE); entities left without a unit
        # go too, and the co-occurrence edges of the others are recounted.
        removed.entity_links += sum(linked.values())
        removed.entities += await self.graph.settle(list(linked))

    async def with_merged(self, namespace: str, ids: list[uuid.UUID]) -> list[uuid.UUID]:
        """``ids`` and, transitively, every unit whose ``merged_into`` names one of them."""
        found = dict.fromkeys(ids)
        frontier = list(ids)
        while frontier:
            rows = await self.session.scalars(
                select(MemoryUnit.id).where(
                    MemoryUnit.namespace == namespace, MemoryUnit.merged_into.in_(frontier)
                )
            )
            frontier = [i for i in rows.all() if i not in found]
            found.update(dict.fromkeys(frontier))
        return list(found)

    async def kept_sources(self, namespace: str, ids: Sequence[uuid.UUID]) -> list[str]:
        """The ``raw_ref`` pointers of the units ``ids`` that name a session message still in
        its transcript (``session:<id>#<seq>``), in session and message order: the words a
        unit forget leaves in the conversation (tester F8)."""
        refs = await self.session.scalars(
            select(MemoryUnit.raw_ref).where(
                MemoryUnit.namespace == namespace, MemoryUnit.id.in_(list(ids))
            )
        )
        wanted: dict[tuple[str, int], str] = {}
        for ref in (r for row in refs.all() for r in row or ()):
            session_id, _, seq = ref.removeprefix("session:").rpartition("#")
            if ref.startswith("session:") and session_id and seq.isdigit():
                wanted[(session_id, int(seq))] = ref
        if not wanted:
            return []
        rows = await self.session.execute(
            select(TranscriptMessage.session_id, TranscriptMessage.seq).where(
                TranscriptMessage.namespace == namespace,
                tuple_(TranscriptMessage.session_id, TranscriptMessage.seq).in_(list(wanted)),
            )
        )
        return [wanted[key] for key in sorted((r.session_id, r.seq) for r in rows)]

    async def _clear_references(self, namespace: str, ids: list[uuid.UUID]) -> int:
        result = await self.session.execute(_CLEAR_REFERENCES, {"ns": namespace, "ids": ids})
        return _rowcount(result)

    async def delete_idempotency_naming_unit(self, namespace: str, unit_id: uuid.UUID) -> int:
        """Delete stored responses that contain this unit id anywhere (a retry with such a key
        then runs again instead of replaying the forgotten data)."""
        return await self._delete_idempotency(
            namespace, "$.** ? (@ == $id)", func.jsonb_build_object("id", str(unit_id))
        )

    async def delete_idempotency_of_subject(self, scope: SubjectScope) -> int:
        """Delete stored responses that contain a unit of this subject anywhere."""
        conds = []
        args: list[object] = []
        if scope.user_id is not None:
            conds.append("@.user_id == $u")
            args += ["u", scope.user_id]
        if scope.agent_id is not None:
            conds.append("@.agent_id == $a")
            args += ["a", scope.agent_id]
        path = "$.** ? (" + " && ".join(conds) + ")"
        return await self._delete_idempotency(scope.namespace, path, func.jsonb_build_object(*args))

    async def _delete_idempotency(self, namespace: str, path: str, variables: object) -> int:
        result = await self.session.execute(
            delete(IdempotencyRecord).where(
                IdempotencyRecord.namespace == namespace,
                func.jsonb_path_exists(
                    IdempotencyRecord.response, cast(literal(path), JSONPATH), variables
                ),
            )
        )
        return _rowcount(result)

    async def delete_distillation_state(self, scope: SubjectScope) -> int:
        """Delete the subject's distillation bookkeeping."""
        clauses: list[ColumnElement[bool]] = [DistillationState.namespace == scope.namespace]
        if scope.user_id is not None:
            clauses.append(DistillationState.user_id == scope.user_id)
        if scope.agent_id is not None:
            clauses.append(DistillationState.agent_id == scope.agent_id)
        result = await self.session.execute(delete(DistillationState).where(and_(*clauses)))
        return _rowcount(result)

    # ---- data of other helpers' tables: jobs, transcripts -------------------------------

    async def subject_sessions(self, scope: SubjectScope) -> list[str]:
        """Session ids holding the subject's conversations: sessions its units or jobs came
        from, and (for a user) sessions whose transcript names the user — never a session
        whose owner (the first ``user_id`` its messages named) is another user; for an
        ``agent_id`` alone, only sessions without an owner. Whole sessions are forgotten: a
        conversation's other turns (the assistant's) are the subject's too."""
        parts = [
            select(MemoryUnit.session_id).where(
                *scope.unit_clauses(), MemoryUnit.session_id.is_not(None)
            ),
            select(ExtractionJob.session_id).where(
                *scope.job_clauses(), ExtractionJob.session_id.is_not(None)
            ),
        ]
        if scope.user_id is not None and scope.agent_id is None:
            parts.append(
                select(WorkingMemorySession.session_id).where(
                    WorkingMemorySession.namespace == scope.namespace,
                    WorkingMemorySession.user_id == scope.user_id,
                )
            )
            parts.append(
                select(TranscriptMessage.session_id).where(
                    TranscriptMessage.namespace == scope.namespace,
                    TranscriptMessage.user_id == scope.user_id,
                )
            )
        named = {s for s in (await self.session.scalars(parts[0].union(*parts[1:]))).all() if s}
        if not named:
            return []
        owned = await self.session.execute(
            select(WorkingMemorySession.session_id, WorkingMemorySession.user_id).where(
                WorkingMemorySession.namespace == scope.namespace,
                WorkingMemorySession.session_id.in_(sorted(named)),
            )
        )
        # Another user's session stays whole (tester finding B29): a unit of this subject
        # naming it does not make its transcript or window the subject's.
        others = {r.session_id for r in owned if r.user_id not in (None, scope.user_id)}
        return sorted(named - others)

    async def delete_jobs(self, scope: SubjectScope) -> tuple[int, int]:
        """Delete the subject's extraction jobs and their pending queue entries; returns
        (jobs, queue entries). A job running meanwhile finds its row gone and discards its
        result (the runner re-checks the row before writing)."""
        ids = list(
            (
                await self.session.scalars(
                    delete(ExtractionJob).where(*scope.job_clauses()).returning(ExtractionJob.id)
                )
            ).all()
        )
        if not ids:
            return 0, 0
        result = await self.session.execute(
            _DELETE_QUEUE_ENTRIES,
            {"ep": EXTRACT_ENTRYPOINT, "payloads": [str(i).encode() for i in ids]},
        )
        return len(ids), _rowcount(result)

    async def redact_job_outcomes(self, namespace: str, unit_id: uuid.UUID) -> int:
        """Remove a forgotten unit's entry (it carries the value) from job outcomes; returns
        how many jobs changed."""
        result = await self.session.execute(
            _REDACT_JOB_OUTCOMES, {"ns": namespace, "id": str(unit_id)}
        )
        return _rowcount(result)

    async def delete_sessions(self, namespace: str, session_ids: Sequence[str]) -> tuple[int, int]:
        """Delete these sessions' transcripts and counters; returns (messages, sessions)."""
        if not session_ids:
            return 0, 0
        ids = list(session_ids)
        turns = await self.session.execute(
            delete(TranscriptMessage).where(
                TranscriptMessage.namespace == namespace, TranscriptMessage.session_id.in_(ids)
            )
        )
        sessions = await self.session.execute(
            delete(WorkingMemorySession).where(
                WorkingMemorySession.namespace == namespace,
                WorkingMemorySession.session_id.in_(ids),
            )
        )
        return _rowcount(turns), _rowcount(sessions)
