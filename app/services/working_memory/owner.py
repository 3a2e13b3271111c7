"""A session's owner: the first ``user_id`` its messages name. Its memories are extracted
as that user's, so a message naming another user is refused."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.errors import ConflictError
from app.schemas.working_memory import MessageCreate


def check_owner(session_id: str, owner: str | None, messages: Sequence[MessageCreate]) -> None:
    """Raises ConflictError (409) when one of ``messages`` names a ``user_id`` other than
    ``owner``, the session's owner after the append took its seqs (the caller's transaction
    then rolls back: nothing of the append is kept)."""
    others = sorted({m.user_id for m in messages if m.user_id and m.user_id != owner})
    if others:
        raise ConflictError(
            f"Session {session_id!r} belongs to user_id {owner!r}; a message names user_id "
            f"{others[0]!r}. Nothing was appended: its statements would be extracted as that "
            "owner's memories. Use a session per user."
        )
