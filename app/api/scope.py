"""``?user_id=`` as an optional scope on the routes that name one thing by id: the operation
runs only if that thing is the user's, and otherwise changes nothing (tester finding T12:
the parameter used to be ignored there, so a client that scoped a DELETE deleted another
user's unit). Another user's session is a 404 too (it was a 409 naming its owner), and so
are another user's pair review and extraction job (the MCP server pinned to one user sends
``?user_id=`` on every call by id: tester finding C16)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Query

from app.schemas.common import Identifier

UnitScope = Annotated[
    Identifier | None,
    Query(
        description="Only if the unit belongs to this user: another user's unit is a 404 "
        "`not_found` (the answer for an unknown id) and nothing changes."
    ),
]
ReviewScope = Annotated[
    Identifier | None,
    Query(
        description="Only if the pair is this user's: another user's review is a 404 "
        "`not_found` (the answer for an unknown id) and nothing changes."
    ),
]
JobScope = Annotated[
    Identifier | None,
    Query(
        description="Only if the job is this user's: another user's job is a 404 `not_found` "
        "(the answer for an unknown id) and nothing changes."
    ),
]
SessionScope = Annotated[
    Identifier | None,
    Query(
        description="Only if the session is not another user's: a session whose owner (the "
        "first `user_id` its messages name) is another user is a 404 `not_found` (as another "
        "user's unit is) and nothing changes. An unknown session is an empty one, as "
        "everywhere in working memory."
    ),
]
