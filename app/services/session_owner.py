"""A session's owner: the first ``user_id`` its messages name. Its memories are extracted
as that user's, so a message naming another user is refused, and so is an operation that
speaks for another user — scoped (``?user_id=``) to one, or naming one as its subject
(``GET /context``, a close, ``POST /extract`` of the session).

``/store`` of a unit and ``/extract`` of inline ``messages`` that name a session of another
user are refused the same way (:class:`SessionOwners`, tester finding B21): the unit would be
served by a recall of that session among its owner's memories. A session they name that has
no owner yet becomes theirs, as on a first append (tester finding C20).

Another user's session answers as another user's unit does: 404 ``not_found``, and the
detail names neither its owner nor anything else of it (tester finding: ``GET /context`` of
another user's session answered 200, and the 409 this module raised named the owner)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.core.errors import ConflictError, NotFoundError
from app.repositories.working_memory.transcript import TranscriptRepository
from app.schemas.working_memory import MessageCreate


def not_theirs(session_id: str, user_id: str) -> NotFoundError:
    """The 404 for a session that is another user's than ``user_id``."""
    return NotFoundError(f"no working-memory session {session_id!r} of user_id {user_id!r}")


def check_owner(
    session_id: str,
    owner: str | None,
    messages: Sequence[MessageCreate],
    scope: str | None = None,
    previous_owner: str | None = None,
) -> None:
    """Raises NotFoundError (404) when the append is scoped to, or one of ``messages`` names,
    another user than the owner the session had before it (``previous_owner``; tester
    finding C3: a 409 here named the owner), ConflictError (409) when the append is at odds
    with itself on a session it gives its first owner: one of ``messages`` names a
    ``user_id`` other than ``owner``, the session's owner after the append took its seqs, or
    the scope is not that owner (the caller's transaction then rolls back: nothing of the
    append is kept)."""
    check_scope(session_id, previous_owner, scope)
    for m in messages:  # a message naming its user speaks for that user, as a scope does
        check_scope(session_id, previous_owner, m.user_id)
    named = sorted({m.user_id for m in messages if m.user_id})
    if owner is not None and owner not in named and owner != scope:
        # Another request's first append won the race for the new session (tester hbreak5
        # F9: a 409 named that other user): another user's session, as after it.
        mine = scope if scope is not None else named[0] if named else None
        if mine is not None and (len(named) < 2 or scope is not None):
            raise not_theirs(session_id, mine)
    if scope is not None and owner is not None and owner != scope:
        raise ConflictError(
            f"A message names user_id {owner!r}, but the request's user_id is {scope!r}: "
            "nothing was appended."
        )
    if len(named) > 1 or (named and owner is not None and named[0] != owner):
        first, other = (named[0], named[1]) if len(named) > 1 else (owner, named[0])
        raise ConflictError(
            f"The messages name user_id {first!r} and {other!r}; a session has one user, "
            "whose memories its statements become. Nothing was appended. Use a session per "
            "user."
        )


def check_scope(session_id: str, owner: str | None, scope: str | None) -> None:
    """Raises NotFoundError (404) when an operation for user ``scope`` meets a session of
    another user (``owner``); a session without an owner, or no scope, passes."""
    if scope is not None and owner is not None and owner != scope:
        raise not_theirs(session_id, scope)


class SessionOwners:
    """Claims and checks the sessions that writes name (``/store``, ``/extract`` of
    ``messages``): a session nobody owns yet becomes the writer's, as on a first append, and
    another user's is refused. Owners are read from the transcript's counters (a window
    expired from Redis still counts)."""

    def __init__(self, transcripts: TranscriptRepository) -> None:
        self.transcripts = transcripts

    async def claim(self, namespace: str, claims: Iterable[tuple[str | None, str]]) -> None:
        """``claims``: (session_id, user_id) pairs, a unit of ``user_id`` from ``session_id``
        (None: no session). A session without an owner, or never appended to, becomes the
        first pair's ``user_id``'s (tester finding C20: a unit planted under a session id
        before its owner's first append was served by a recall of that session, among the
        owner's memories; the owner's append is now refused instead, as in any other
        user's session). Raises NotFoundError (404, :func:`not_theirs`) for the first pair
        whose session is another user's. Race-free: the claim is one upsert that keeps an
        owner another transaction gave the session first (its row lock), and a rollback of
        the caller's transaction undoes it."""
        named = [(s, u) for s, u in claims if s is not None]
        if not named:
            return
        owners = await self.transcripts.claim(namespace, named)
        for session_id, user_id in named:
            check_scope(session_id, owners.get(session_id), user_id)
