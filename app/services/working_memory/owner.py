"""A session's owner: the first ``user_id`` its messages name. Its memories are extracted
as that user's, so a message naming another user is refused, and so is an operation scoped
(``?user_id=``) to another user."""

from __future__ import annotations

from collections.abc import Sequence

from app.core.errors import ConflictError
from app.schemas.working_memory import MessageCreate


def check_owner(
    session_id: str,
    owner: str | None,
    messages: Sequence[MessageCreate],
    scope: str | None = None,
) -> None:
    """Raises ConflictError (409) when one of ``messages`` names a ``user_id`` other than
    ``owner``, the session's owner after the append took its seqs, or when the append is
    scoped to another user than that owner (the caller's transaction then rolls back:
    nothing of the append is kept)."""
    check_scope(session_id, owner, scope)
    others = sorted({m.user_id for m in messages if m.user_id and m.user_id != owner})
    if others:
        raise ConflictError(
            f"Session {session_id!r} belongs to user_id {owner!r}; a message names user_id "
            f"{others[0]!r}. Nothing was appended: its statements would be extracted as that "
            "owner's memories. Use a session per user."
        )


def check_scope(session_id: str, owner: str | None, scope: str | None) -> None:
    """Raises ConflictError (409) when an operation scoped to user ``scope`` meets a session
    of another user (``owner``); a session without an owner, or no scope, passes."""
    if scope is not None and owner is not None and owner != scope:
        raise ConflictError(
            f"Session {session_id!r} belongs to user_id {owner!r}, not {scope!r} (the "
            "request's user_id): nothing was done."
        )
