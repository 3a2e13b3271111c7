"""Wire models of pair reviews (docs/DEDUPE.md, "Working the review list"): ``GET /reviews``
with cursor pagination, ``GET /reviews/{id}``, ``POST /reviews/{id}``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, model_validator

from app.schemas.common import CleanStr, Identifier, QueryModel, RequestModel, ResponseModel
from app.schemas.limits import MaxValue

ReviewDecision = Literal["merge", "supersede", "keep_both"]
# What a closed review amounts to: a person's or the sweep's decision, or the LLM's
# (``conflict``: both kept, flagged as contradicting), or ``stale`` (a unit changed first).
ClosedAs = Literal["merge", "supersede", "keep_both", "conflict", "stale"]
DecidedBy = Literal["llm", "api", "sweep", "system"]


class ReviewListQuery(QueryModel):
    """Query parameters of ``GET /reviews``."""

    user_id: Identifier | None = Field(default=None, description="Only this user's pairs.")
    agent_id: Identifier | None = Field(default=None, description="Only this agent's pairs.")
    memory_id: uuid.UUID | None = Field(
        default=None, description="Only pairs with this unit on either side."
    )
    status: Literal["open", "pending", "running", "decided", "all"] = Field(
        default="open",
        description="`open` (`pending` or `running`, the default), `decided`, `all`; or one "
        "status as a review shows it (`pending`, `running`).",
    )
    kind: Literal["duplicate", "contradiction"] | None = Field(
        default=None,
        description="`duplicate`: the pair may be one fact (a merge is possible); "
        "`contradiction`: a merge is ruled out (a negation, other values, swapped roles, "
        "two names given: a dog named Rex and a cat named Tom).",
    )
    min_age_days: float | None = Field(
        default=None, ge=0, le=36500, description="Only pairs opened at least this long ago."
    )
    max_age_days: float | None = Field(
        default=None, ge=0, le=36500, description="Only pairs opened at most this long ago."
    )
    limit: Annotated[int, MaxValue("list_page")] = Field(
        default=50, ge=1, description="Reviews per page (1..200)."
    )
    cursor: Annotated[CleanStr, Field(max_length=500)] | None = Field(
        default=None, description="`next_cursor` of the previous page; same filters required."
    )

    @model_validator(mode="after")
    def _window(self) -> ReviewListQuery:
        if (
            self.min_age_days is not None
            and self.max_age_days is not None
            and self.min_age_days > self.max_age_days
        ):
            raise ValueError("min_age_days must not exceed max_age_days")
        return self


class ReviewUnit(ResponseModel):
    """One side of a pair as stored now."""

    id: uuid.UUID
    value: str
    type: str
    status: str = Field(description="`active`, or what became of it (`merged`, `superseded`…).")
    occurred_at: datetime
    created_at: datetime


class ReviewRead(ResponseModel):
    """A pair the write path could not decide on: is ``unit`` (the newer) the same memory as
    ``candidate``, does it replace it, or is it another fact?"""

    id: uuid.UUID
    user_id: str
    agent_id: str | None
    unit_id: uuid.UUID
    candidate_id: uuid.UUID
    unit: ReviewUnit | None = Field(description="The newer unit; null once forgotten.")
    candidate: ReviewUnit | None = Field(description="The existing unit; null once forgotten.")
    kind: Literal["duplicate", "contradiction"] = Field(
        description="`contradiction` when a merge is ruled out, else `duplicate`."
    )
    cosine: float = Field(description="Cosine similarity of the two values (-1..1).")
    reason: str = Field(description="Why the local decision was unsure (a stable code).")
    p_same: float = Field(description="The local classifier's P(same), 0..1.")
    merge_allowed: bool = Field(
        description="False when a merge is ruled out (a negation, other values, swapped "
        "roles, two names given: a dog named Rex and a cat named Tom): `merge` answers 409."
    )
    status: Literal["pending", "running", "decided"]
    decision: ClosedAs | None = Field(description="What it was closed as; null while open.")
    decided_by: DecidedBy | None = Field(
        description="`llm` (the reconciliation job), `api` (a person), `sweep` (closed as "
        "`keep_both` after `LIFECYCLE__REVIEW_MAX_AGE_DAYS`), `system` (`stale`)."
    )
    decided_at: datetime | None
    attempts: int
    error: str | None
    created_at: datetime


class ReviewPage(ResponseModel):
    """One page of reviews, newest first (by ``created_at``, ties by id)."""

    reviews: list[ReviewRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )


class ReviewDecide(RequestModel):
    """How a person decides a pair: `action`, or `decision` — its other name, as the MCP tool
    and the review's own `decision` field call it (one of them; both only if they agree)."""

    action: ReviewDecision | None = Field(
        default=None,
        description="`merge`: the newer unit is merged into the existing one (its id keeps "
        "resolving); `supersede`: the newer unit replaces the existing one; `keep_both`: two "
        "facts, both stay active.",
    )
    decision: ReviewDecision | None = Field(
        default=None, description="The same as `action` (send one of them)."
    )

    @model_validator(mode="after")
    def _one_decision(self) -> ReviewDecide:
        if self.action is None and self.decision is None:
            raise ValueError("action: required (or decision, its other name)")
        if None not in (self.action, self.decision) and self.action != self.decision:
            raise ValueError("action and decision differ: send one of them")
        return self

    @property
    def chosen(self) -> ReviewDecision:
        """The decision sent (as ``action`` or ``decision``)."""
        chosen = self.action or self.decision
        assert chosen is not None  # the validator refused neither
        return chosen


class ReviewDecided(ResponseModel):
    """The decided review; ``changed`` false when it had already been decided this way."""

    review: ReviewRead
    changed: bool
