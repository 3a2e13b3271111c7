"""Wire models of the namespace overview: ``GET /stats`` (counts per unit type and status,
jobs per state) and ``GET /subjects`` (the users, agents and sessions that have memory)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, model_validator

from app.schemas.common import CleanStr, Identifier, QueryModel, ResponseModel

SubjectKind = Literal["user", "agent", "session"]


class StatsQuery(QueryModel):
    """Query parameters of ``GET /stats``: the whole namespace, or one subject."""

    user_id: Identifier | None = Field(default=None, description="Only this user's.")
    agent_id: Identifier | None = Field(default=None, description="Only this agent's.")


class StatsResponse(ResponseModel):
    """Counts of one namespace (or one subject of it), read when asked."""

    namespace: str = Field(description="The namespace your API key opens.")
    units: dict[str, dict[str, int]] = Field(
        description="Stored memory units per type, then per status (`active`, `superseded`, "
        "`archived`, `invalid`); only non-zero counts."
    )
    total_units: int = Field(description="All stored units, every status.")
    jobs: dict[str, int] = Field(
        description="Extraction jobs per state: every state (`queued`, `running`, "
        "`retrying`, `succeeded`, `failed`, `cancelled`), 0 when none."
    )
    sessions: int = Field(
        description="Working-memory sessions with a durable transcript (with `agent_id`: "
        "those holding a unit of that agent)."
    )
    open_reviews: int = Field(
        description="Pair reviews still open (pending or running) whose two units are both "
        "still active: `GET /reviews` (a pair whose unit left `active` is stale, never counted)."
    )


class SubjectListQuery(QueryModel):
    """Query parameters of ``GET /subjects``."""

    kind: SubjectKind = Field(
        default="user", description="Which subjects: users, agents or sessions."
    )
    prefix: Annotated[CleanStr, Field(max_length=256)] | None = Field(
        default=None, description="Only ids that start with this (case-sensitive)."
    )
    user_id: Identifier | None = Field(
        default=None, description="Only this user's agents or sessions (not with kind=user)."
    )
    limit: int = Field(default=50, ge=1, le=200, description="Subjects per page (1..200).")
    cursor: Annotated[CleanStr, Field(max_length=500)] | None = Field(
        default=None, description="`next_cursor` of the previous page; same filters required."
    )

    @model_validator(mode="after")
    def _user_scope(self) -> SubjectListQuery:
        if self.kind == "user" and self.user_id is not None:
            raise ValueError("user_id narrows agents or sessions; with kind=user use prefix")
        return self


class SubjectRead(ResponseModel):
    """One user, agent or session and how much memory it has."""

    kind: SubjectKind
    id: str
    units: int = Field(description="Stored memory units naming it, every status.")
    active_units: int = Field(description="Of those, the active ones (what recall sees).")
    last_stored_at: datetime | None = Field(
        description="created_at of its newest unit (null without units)."
    )
    user_id: str | None = Field(
        default=None, description="Sessions: the session's user (its first one)."
    )
    messages: int | None = Field(
        default=None,
        description="Sessions: messages in the durable transcript (null: no transcript).",
    )
    tokens: int | None = Field(default=None, description="Sessions: transcript tokens.")
    last_message_at: datetime | None = Field(
        default=None, description="Sessions: when the last message was appended."
    )
    merged_units: int | None = Field(
        default=None,
        description="Sessions: units of other sessions that hold what this one said (its "
        "restatements were merged into them); not in `units`. A `session_id` filter "
        "(`/recall`, `GET /memories`) finds them too.",
    )


class SubjectPage(ResponseModel):
    """One page of subjects, by id (ascending)."""

    subjects: list[SubjectRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )
