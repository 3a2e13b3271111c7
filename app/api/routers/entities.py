"""The entity graph: a subject's entities and one entity's profile."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from app.api.deps import EntityServiceDep, NamespaceDep
from app.api.errors import ERROR_RESPONSES, PROBLEM_JSON
from app.schemas.common import Problem
from app.schemas.entities import (
    ENTITY_NAME_CHARS,
    EntityListQuery,
    EntityNeighbourRead,
    EntityPage,
    EntityProfile,
    EntityProfileQuery,
    EntityRead,
)
from app.schemas.memory import MemoryRead

router = APIRouter(tags=["entities"])

ENTITY_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {
        "model": Problem,
        "description": "The subject has no entity of that name with memory in scope "
        "(`not_found`); another namespace's entities are never found.",
        "content": {PROBLEM_JSON: {}},
    },
}


@router.get(
    "/entities",
    operation_id="list_entities",
    response_model=EntityPage,
    responses=ERROR_RESPONSES,
)
async def list_entities(
    q: Annotated[EntityListQuery, Query()], service: EntityServiceDep, namespace: NamespaceDep
) -> Any:
    """The entities of a subject (`user_id`, required; `agent_id` narrows to one agent's
    units, else every agent of the user; `session_id` to one session's), from the entity
    graph the write path keeps: each with its name as first written, its normalised `key`
    (NFKC, case folded, whitespace collapsed: "ＶＳ Code" and "vs code" are one entity;
    CJK kept verbatim), how many active, unexpired units name it (`unit_count`) and the
    newest of their `occurred_at` (`last_seen`). Most recently seen first, ties by key.

    `mentioned_in`: a text, such as an agent's question ("what do we know about
    Caroline?"): only the entities whose name or a declared alias it mentions as a whole
    word, longest name first (one page, no cursor).

    Cursor pagination: pass `next_cursor` back as `cursor` with the same filters until it is
    null. `limit` 1..200 (default 50). Errors: 401, 422 `invalid_request` (no `user_id`, a
    bad filter, or a cursor made with other filters)."""
    page = await service.entities(namespace, q, datetime.now(UTC))
    return EntityPage(
        entities=[EntityRead(**vars(row)) for row in page.entities],
        next_cursor=page.next_cursor,
    )


@router.get(
    "/entities/{name:path}",
    operation_id="get_entity",
    response_model=EntityProfile,
    responses={**ERROR_RESPONSES, **ENTITY_NOT_FOUND},
)
async def get_entity(
    name: Annotated[
        str,
        Path(
            min_length=1,
            max_length=ENTITY_NAME_CHARS,
            description="The entity's name or key, or an alias its units declared, "
            "percent-encoded as UTF-8 (a `/` in a name as `%2F`).",
        ),
    ],
    q: Annotated[EntityProfileQuery, Query()],
    service: EntityServiceDep,
    namespace: NamespaceDep,
) -> Any:
    """What the subject's memory holds about one entity: its name, `aliases` (other names
    its units declared: "Visual Studio Code (VS Code)"), first and last seen, its active
    units in scope (`unit_count`; the newest `limit` of them in `units`, oldest first) and
    its `neighbours` — entities named together with it, by `weight` (stored units naming
    both), with when they were first and last named together. The name is matched by its
    normalised key, so any spelling of the same key finds it (CJK, emoji and right-to-left
    names round-trip; bidirectional-text controls are ignored).

    Errors: 401, 404 `not_found` (no such entity with memory in scope; another namespace's
    never), 422 `invalid_request` (no `user_id`, a name over 200 characters, with a NUL byte,
    or nothing but whitespace or bidirectional-text controls)."""
    profile = await service.profile(namespace, name, q, datetime.now(UTC))
    node = profile.node
    return EntityProfile(
        name=node.name,
        key=node.key,
        aliases=node.aliases,
        first_seen=node.first_seen,
        last_seen=node.last_seen,
        unit_count=profile.unit_count,
        units=[MemoryRead.model_validate(u) for u in profile.units],
        neighbours=[EntityNeighbourRead(**vars(n)) for n in profile.neighbours],
    )
