"""All SQL of working memory: the durable transcript and its per-session counters."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.ext.asyncio import AsyncSession

from app.models import TranscriptMessage, WorkingMemorySession
from app.repositories.results import rowcount


@dataclass(frozen=True)
class SeqBlock:
    """Sequence numbers taken by one append, and the session's totals after it."""

    first_seq: int
    last_seq: int
    messages: int
    tokens: int
    owner: str | None
    # The session's owner before this append (None also for a new session).
    previous_owner: str | None = None


@dataclass(frozen=True)
class TranscriptRow:
    """A message to write (its ``seq`` already allocated)."""

    seq: int
    role: str
    content: str
    user_id: str | None
    created_at: datetime
    metadata: dict[str, Any]
    token_count: int


class TranscriptRepository:
    """Transcript queries bound to one session; never commits."""

    def __init__(self, session: AsyncSession) -> None:
        self.session = session

    async def allocate(
        self, namespace: str, session_id: str, count: int, tokens: int, user_id: str | None
    ) -> SeqBlock:
        """Take ``count`` consecutive seqs for a session and add to its totals. The counter
        row stays locked until the transaction ends, so concurrent appends to one session
        queue here and get distinct seqs in commit order. Also returns the owner the row had
        before, as of the statement's snapshot: an owner another append gave the session
        after the snapshot, while this one waited for the lock, reads as None. (The read
        took the row lock with FOR UPDATE before; PostgreSQL evaluates a CTE only read by
        RETURNING after the upsert, so it met the row this statement had just changed and
        skipped it: the previous owner was always None.)"""
        table = WorkingMemorySession.__table__
        before = (
            select(table.c.user_id)
            .where(table.c.namespace == namespace, table.c.session_id == session_id)
            .cte("before")
        )
        upsert = pg_insert(WorkingMemorySession).values(
            namespace=namespace,
            session_id=session_id,
            user_id=user_id,
            last_seq=count,
            message_count=count,
            token_count=tokens,
        )
        stmt = upsert.on_conflict_do_update(
            index_elements=[table.c.namespace, table.c.session_id],
            set_={
                "last_seq": table.c.last_seq + upsert.excluded.last_seq,
                "message_count": table.c.message_count + upsert.excluded.message_count,
                "token_count": table.c.token_count + upsert.excluded.token_count,
                "user_id": func.coalesce(table.c.user_id, upsert.excluded.user_id),
                "updated_at": func.now(),
            },
        ).returning(
            table.c.last_seq,
            table.c.message_count,
            table.c.token_count,
            table.c.user_id,
            select(before.c.user_id).scalar_subquery().label("previous_owner"),
        )
        row = (await self.session.execute(stmt.add_cte(before))).one()
        last = int(row.last_seq)
        return SeqBlock(
            first_seq=last - count + 1,
            last_seq=last,
            messages=int(row.message_count),
            tokens=int(row.token_count),
            owner=row.user_id,
            previous_owner=row.previous_owner,
        )

    async def insert(self, namespace: str, session_id: str, rows: Sequence[TranscriptRow]) -> None:
        """Write messages (one multi-row INSERT)."""
        if not rows:
            return
        await self.session.execute(
            pg_insert(TranscriptMessage),
            [
                {
                    "namespace": namespace,
                    "session_id": session_id,
                    "seq": r.seq,
                    "role": r.role,
                    "content": r.content,
                    "user_id": r.user_id,
                    "created_at": r.created_at,
                    "metadata_": r.metadata,
                    "token_count": r.token_count,
                }
                for r in rows
            ],
        )

    async def list_transcript(
        self,
        namespace: str,
        session_id: str,
        *,
        after_seq: int = 0,
        limit: int | None = None,
    ) -> list[TranscriptMessage]:
        """A session's messages with ``seq > after_seq``, oldest first (what extraction
        reads); ``limit`` caps the count."""
        stmt = (
            select(TranscriptMessage)
            .where(
                TranscriptMessage.namespace == namespace,
                TranscriptMessage.session_id == session_id,
                TranscriptMessage.seq > after_seq,
            )
            .order_by(TranscriptMessage.seq)
        )
        if limit is not None:
            stmt = stmt.limit(limit)
        return list((await self.session.scalars(stmt)).all())

    async def get_session(self, namespace: str, session_id: str) -> WorkingMemorySession | None:
        """A session's counters row, or None when nothing was ever appended."""
        stmt = select(WorkingMemorySession).where(
            WorkingMemorySession.namespace == namespace,
            WorkingMemorySession.session_id == session_id,
        )
        return (await self.session.scalars(stmt)).first()

    async def owners(self, namespace: str, session_ids: Sequence[str]) -> dict[str, str | None]:
        """The owner (first ``user_id`` its messages named, or None) of each of ``session_ids``
        that has a counters row; a session never appended to is absent."""
        if not session_ids:
            return {}
        stmt = select(WorkingMemorySession.session_id, WorkingMemorySession.user_id).where(
            WorkingMemorySession.namespace == namespace,
            WorkingMemorySession.session_id.in_(sorted(set(session_ids))),
        )
        return {r.session_id: r.user_id for r in (await self.session.execute(stmt)).all()}

    async def claim(self, namespace: str, claims: Sequence[tuple[str, str]]) -> dict[str, str]:
        """Make each (session_id, user_id) of ``claims`` the session's owner when it has none
        yet (the first claim of a session in ``claims`` wins), as a first append does; returns
        every named session's owner afterwards. A session that already has an owner is only
        read; the others are upserted in one statement, by session id, so two claimers of a
        new session queue on its row and the second reads the first's owner. Its row stays
        locked until the transaction ends (and a rollback undoes the claim)."""
        owners = await self.owners(namespace, [s for s, _ in claims])
        first: dict[str, str] = {}
        for session_id, user_id in claims:
            if owners.get(session_id) is None:
                first.setdefault(session_id, user_id)
        result = {s: u for s, u in owners.items() if u is not None}
        if first:
            table = WorkingMemorySession.__table__
            upsert = pg_insert(WorkingMemorySession).values(
                [
                    {"namespace": namespace, "session_id": s, "user_id": first[s]}
                    for s in sorted(first)
                ]
            )
            stmt = upsert.on_conflict_do_update(
                index_elements=[table.c.namespace, table.c.session_id],
                set_={"user_id": func.coalesce(table.c.user_id, upsert.excluded.user_id)},
            ).returning(table.c.session_id, table.c.user_id)
            result.update({r.session_id: r.user_id for r in await self.session.execute(stmt)})
        return result

    async def window_tail(
        self, namespace: str, session_id: str, after_seq: int, max_messages: int, max_tokens: int
    ) -> list[TranscriptMessage]:
        """The newest messages with ``seq > after_seq`` that fit ``max_messages`` and
        ``max_tokens`` (the newest always), oldest first: what the hot window would hold."""
        stmt = (
            select(TranscriptMessage)
            .where(
                TranscriptMessage.namespace == namespace,
                TranscriptMessage.session_id == session_id,
                TranscriptMessage.seq > after_seq,
            )
            .order_by(TranscriptMessage.seq.desc())
            .limit(max_messages)
        )
        kept: list[TranscriptMessage] = []
        total = 0
        for row in (await self.session.scalars(stmt)).all():
            if kept and total + row.token_count > max_tokens:
                break
            kept.append(row)
            total += row.token_count
        return kept[::-1]

    async def mark_window_cleared(self, namespace: str, session_id: str) -> None:
        """Record that the hot window was emptied: a rebuild starts after the current
        last seq."""
        await self.session.execute(
            update(WorkingMemorySession)
            .where(
                WorkingMemorySession.namespace == namespace,
                WorkingMemorySession.session_id == session_id,
            )
            .values(window_from_seq=WorkingMemorySession.last_seq)
        )

    async def purge(self, namespace: str, session_id: str) -> int:
        """Delete a session's transcript and counters; returns the messages deleted. Locks
        the counters row first, so an append in flight finishes before or starts after."""
        await self.session.execute(
            select(WorkingMemorySession.last_seq)
            .where(
                WorkingMemorySession.namespace == namespace,
                WorkingMemorySession.session_id == session_id,
            )
            .with_for_update()
        )
        result = await self.session.execute(
            delete(TranscriptMessage).where(
                TranscriptMessage.namespace == namespace,
                TranscriptMessage.session_id == session_id,
            )
        )
        await self.session.execute(
            delete(WorkingMemorySession).where(
                WorkingMemorySession.namespace == namespace,
                WorkingMemorySession.session_id == session_id,
            )
        )
        return int(rowcount(result) or 0)
