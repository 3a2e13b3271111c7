"""Rebuilding a hot window that Redis lost (restarted without persistence, failed over, or
flushed) from the durable transcript.

A window is missing for four reasons; only the last one is a loss:

1. nothing was ever appended (no session row);
2. it expired: no append for ``WORKING_MEMORY__TTL_S`` (the session row's ``updated_at``);
3. it was cleared: ``DELETE /working_memory/{id}`` moved ``window_from_seq`` to the last seq
   (a purge deleted the transcript too);
4. Redis lost it while the session was live: the transcript has messages after
   ``window_from_seq`` appended within the TTL.

In case 4 the newest such messages that fit the window's caps are written back through the
same atomic script as an append (keyed by seq, so two readers rebuilding at once, or an append
landing meanwhile, leave one copy of each message): by the first read that finds the window
empty, or by the first append that finds it missing (that append's window write then carries
the restored messages with its own). They are written without vectors, like a fresh append,
and embedded after (app/services/working_memory/embedding.py): by the background queue, or by
the first read that ranks by relevance, whichever comes first.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

from app.core.config import WorkingMemorySettings
from app.repositories.working_memory.transcript import TranscriptRepository
from app.repositories.working_memory.window import WindowEntry, WindowSize, WindowStore
from app.services.working_memory.ranking import information_density
from app.services.working_memory.standing import is_filler, standing_kind

log = logging.getLogger(__name__)


async def restorable(
    transcript: TranscriptRepository,
    settings: WorkingMemorySettings,
    namespace: str,
    session_id: str,
    now: datetime | None = None,
) -> tuple[list[WindowEntry], str | None]:
    """The entries (without vectors) and owner of a window that Redis lost (case 4
    above); nothing when there is none to bring back."""
    now = now or datetime.now(UTC)
    state = await transcript.get_session(namespace, session_id)
    if state is None or state.last_seq <= state.window_from_seq:
        return [], None
    if state.updated_at < now - timedelta(seconds=settings.ttl_s):
        return [], None  # expired by its idle TTL, not lost
    rows = await transcript.window_tail(
        namespace,
        session_id,
        state.window_from_seq,
        settings.max_messages,
        settings.max_window_tokens,
    )
    if not rows:
        return [], None
    entries = [
        WindowEntry(
            seq=int(r.seq),
            role=r.role,
            content=r.content,
            created_at=r.created_at,
            user_id=r.user_id,
            metadata=r.metadata_ or {},
            tokens=r.token_count,
            density=information_density(r.content),
            standing=standing_kind(r.role, r.content),
            filler=is_filler(r.content),
        )
        for r in rows
    ]
    log.warning(
        "hot window of a session was lost; restoring %d message(s) from the transcript",
        len(entries),
        extra={"session_id": session_id},
    )
    return entries, state.user_id


async def rebuild_window(
    transcript: TranscriptRepository,
    window_store: WindowStore,
    settings: WorkingMemorySettings,
    namespace: str,
    session_id: str,
) -> tuple[list[WindowEntry], WindowSize | None]:
    """Write a lost window back (see :func:`restorable`); returns the entries written
    (still to embed) and the window's size and epoch (None when nothing was lost).
    Raises DatastoreUnavailableError when Redis fails."""
    entries, owner = await restorable(transcript, settings, namespace, session_id)
    if not entries:
        return [], None
    return entries, await window_store.add(namespace, session_id, entries, owner)
