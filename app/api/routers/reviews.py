"""Pair reviews: the pairs the write path could not decide on, listed and decided by people
(docs/DEDUPE.md, "Working the review list")."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query

from app.api.deps import NamespaceDep, ReviewServiceDep
from app.api.errors import ERROR_RESPONSES, NOT_FOUND, PROBLEM_JSON
from app.api.scope import ReviewScope
from app.schemas.common import Problem
from app.schemas.reviews import (
    ReviewDecide,
    ReviewDecided,
    ReviewListQuery,
    ReviewPage,
    ReviewRead,
    ReviewUnit,
)
from app.services.memory.reviews import ReviewQuery, ReviewView, decision_of

router = APIRouter(tags=["reviews"])

DECIDED_OTHERWISE: dict[int | str, dict[str, Any]] = {
    409: {
        "model": Problem,
        "description": "The pair was already decided otherwise (by a person, the LLM or the "
        "sweep, or closed as stale), a merge is ruled out for it (it would lose a fact), or a "
        "`merge` / `supersede` of a pair whose unit is no longer active; nothing changed.",
        "content": {PROBLEM_JSON: {}},
    },
}


def _read(view: ReviewView) -> ReviewRead:
    r = view.review
    fields = {
        name: getattr(r, name)
        for name in ("id", "user_id", "agent_id", "unit_id", "candidate_id", "cosine", "reason",
                     "p_same", "merge_allowed", "status", "decided_by", "decided_at", "attempts",
                     "error", "created_at")
    }  # fmt: skip
    return ReviewRead.model_validate(
        {
            **fields,
            "unit": ReviewUnit.model_validate(view.unit) if view.unit else None,
            "candidate": ReviewUnit.model_validate(view.candidate) if view.candidate else None,
            "kind": "duplicate" if r.merge_allowed else "contradiction",
            "decision": decision_of(r),
        }
    )


@router.get(
    "/reviews", operation_id="list_reviews", response_model=ReviewPage, responses=ERROR_RESPONSES
)
async def list_reviews(
    q: Annotated[ReviewListQuery, Query()], service: ReviewServiceDep, namespace: NamespaceDep
) -> Any:
    """List pair reviews of your namespace, newest first: pairs of units the write path could
    not tell apart (the same fact, a change, or two facts?), each with both units. Filters:
    `user_id` / `agent_id` (the subject), `memory_id` (a unit on either side), `status`
    (`open` by default: `pending` or `running`; `decided`, `all`; or `pending` / `running`
    alone, the statuses a review shows), `kind` (`duplicate` or `contradiction`),
    `min_age_days` / `max_age_days` (how long ago the pair was opened). `limit` 1..200
    (default 50). Cursor pagination: pass `next_cursor` back as `cursor` with the same
    filters until it is null (keyset on `(created_at, id)`). An open pair whose unit is no
    longer active (superseded, merged, archived) is closed as `stale` before the list is
    read, so it is never listed as open. Errors: 422 `invalid_request`
    (bad filter, or a cursor made with other filters)."""
    query = ReviewQuery(**q.model_dump())
    page = await service.page(namespace, query, datetime.now(UTC))
    return ReviewPage(reviews=[_read(v) for v in page.reviews], next_cursor=page.next_cursor)


@router.get(
    "/reviews/{review_id}",
    operation_id="get_review",
    response_model=ReviewRead,
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
async def get_review(
    review_id: uuid.UUID,
    service: ReviewServiceDep,
    namespace: NamespaceDep,
    user_id: ReviewScope = None,
) -> Any:
    """One pair review with both units as stored now (open or decided: `decision`,
    `decided_by`); an open one whose unit is no longer active (superseded, merged, archived)
    is closed as `stale` first. 404 `not_found` for an unknown id or another namespace's
    review (with `user_id`, also another user's)."""
    return _read(await service.get(namespace, review_id, user_id, datetime.now(UTC)))


@router.post(
    "/reviews/{review_id}",
    operation_id="decide_review",
    response_model=ReviewDecided,
    responses={**ERROR_RESPONSES, **NOT_FOUND, **DECIDED_OTHERWISE},
)
async def decide_review(
    review_id: uuid.UUID,
    body: ReviewDecide,
    service: ReviewServiceDep,
    namespace: NamespaceDep,
    user_id: ReviewScope = None,
) -> Any:
    """Decide a pair with `{"action": …}` (or `{"decision": …}`, its other name, as the MCP
    tool `memory_review_decide` and the review's own `decision` field call it): `merge` (the
    newer unit is merged into the existing one, its id keeps
    resolving to it), `supersede` (the newer unit replaces the existing one, which stays
    readable as `superseded`) or `keep_both` (two facts). A contradiction `/store` kept beside
    the unit it contradicts (outcome `conflict`: both active, each in the other's
    `conflicts_with`) is such a pair too, of kind `contradiction`: `supersede` or `keep_both`
    ends the `conflicts_with` link. History is kept (`GET /memories/{id}/history`). Deciding
    again the same way changes nothing (`changed: false`). Errors: 404 `not_found` (unknown
    id or another namespace's review; with `user_id`, also another user's: nothing changes),
    409 `conflict` (already decided otherwise — by a person, the LLM or the sweep, or closed
    as stale — a merge that is ruled out for the pair because it would lose a fact, or a
    `merge` / `supersede` of a pair whose unit is no longer active). `keep_both` on a pair
    whose unit is no longer active (a stale pair) is no error: it answers the review closed
    as `stale` with `changed: false`."""
    decided = await service.decide(namespace, review_id, body.chosen, datetime.now(UTC), user_id)
    return ReviewDecided(review=_read(decided.view), changed=decided.changed)
