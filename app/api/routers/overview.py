"""``GET /stats`` and ``GET /subjects``: what a namespace holds, at a glance."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from app.api.deps import NamespaceDep, OverviewServiceDep
from app.api.errors import ERROR_RESPONSES
from app.schemas.overview import (
    StatsQuery,
    StatsResponse,
    SubjectListQuery,
    SubjectPage,
    SubjectRead,
)

router = APIRouter(tags=["overview"])


@router.get(
    "/stats",
    operation_id="get_stats",
    response_model=StatsResponse,
    responses=ERROR_RESPONSES,
)
async def get_stats(
    q: Annotated[StatsQuery, Query()], service: OverviewServiceDep, namespace: NamespaceDep
) -> StatsResponse:
    """Counts of your namespace, read from the database when asked: stored memory units per
    type and status (`units`, e.g. `{"fact": {"active": 12, "superseded": 2}}`), extraction
    jobs per state (`jobs`, every state present) and working-memory sessions with a
    transcript. `user_id` / `agent_id` narrow to one subject. Also answers which namespace
    the API key opens (`namespace`). Other namespaces are never counted (`/metrics` has the
    process-wide figures). Errors: 401, 422 `invalid_request`."""
    stats = await service.stats(namespace, q)
    return StatsResponse(
        namespace=namespace,
        units=stats.units,
        total_units=stats.total_units,
        jobs=stats.jobs,
        sessions=stats.sessions,
        open_reviews=stats.open_reviews,
    )


@router.get(
    "/subjects",
    operation_id="list_subjects",
    response_model=SubjectPage,
    responses=ERROR_RESPONSES,
)
async def list_subjects(
    q: Annotated[SubjectListQuery, Query()], service: OverviewServiceDep, namespace: NamespaceDep
) -> SubjectPage:
    """The users, agents or sessions (`kind`, default `user`) of your namespace that have
    memory, by id ascending, each with its count of stored units (every status) and active
    ones and when its newest unit was stored. Users and agents are those named by stored
    units; sessions are those named by units or holding a working-memory transcript (with
    its message and token counts and its user). `prefix` keeps ids starting with it;
    `user_id` keeps one user's agents or sessions. `limit` 1..200 (default 50).

    Cursor pagination: pass `next_cursor` back as `cursor` with the same filters until it is
    null (keyset on the id: no subject is skipped or repeated while others are written).
    Errors: 401, 422 `invalid_request` (bad filter, `user_id` with `kind=user`, or a cursor
    made with other filters)."""
    page = await service.subjects(namespace, q)
    return SubjectPage(
        subjects=[SubjectRead(kind=q.kind, **vars(row)) for row in page.subjects],
        next_cursor=page.next_cursor,
    )
