"""Wire models of the entity graph (docs/ARCHITECTURE.md, "The entity graph"):
``GET /entities`` and ``GET /entities/{name}``."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import Field

from app.schemas.common import CleanStr, Identifier, QueryModel, ResponseModel, Text
from app.schemas.limits import MaxValue
from app.schemas.memory import MemoryRead

ENTITY_NAME_CHARS = 200


class EntityListQuery(QueryModel):
    """Query parameters of ``GET /entities``."""

    user_id: Identifier = Field(description="Whose entities (required).")
    agent_id: Identifier | None = Field(
        default=None, description="Only this agent's units (default: every agent of the user)."
    )
    session_id: Identifier | None = Field(
        default=None,
        description="Only entities named by units holding what this session said (its own, "
        "and those its statements were merged into).",
    )
    mentioned_in: Annotated[Text, Field(max_length=2000)] | None = Field(
        default=None,
        description="A text (a question): only the entities whose name or alias it mentions, "
        "longest name first; one page, no cursor.",
    )
    limit: Annotated[int, MaxValue("list_page")] = Field(
        default=50, ge=1, description="Entities per page (1..200)."
    )
    cursor: Annotated[CleanStr, Field(max_length=500)] | None = Field(
        default=None, description="`next_cursor` of the previous page; same filters required."
    )


class EntityProfileQuery(QueryModel):
    """Query parameters of ``GET /entities/{name}``."""

    user_id: Identifier = Field(description="Whose entity (required).")
    agent_id: Identifier | None = Field(
        default=None, description="Only this agent's units (default: every agent of the user)."
    )
    session_id: Identifier | None = Field(
        default=None,
        description="Only units holding what this session said: its own, and those of "
        "other sessions that its statements were merged into (a restatement).",
    )
    limit: Annotated[int, MaxValue("list_page")] = Field(
        default=50, ge=1, description="At most this many units: the newest, in time order."
    )
    neighbours: int = Field(
        default=20, ge=0, le=100, description="At most this many neighbours (0..100)."
    )


class EntityRead(ResponseModel):
    """One entity of the subject."""

    name: str = Field(description="The name as first written (whitespace collapsed).")
    key: str = Field(
        description="The normalised name (NFKC, case folded, whitespace collapsed): two "
        "spellings with the same key are one entity."
    )
    unit_count: int = Field(description="Active, unexpired units in scope naming it.")
    last_seen: datetime = Field(description="The newest `occurred_at` of those units.")


class EntityPage(ResponseModel):
    """One page of entities, most recently seen first (ties by key)."""

    entities: list[EntityRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )


class EntityNeighbourRead(ResponseModel):
    """An entity named together with this one."""

    name: str
    key: str
    weight: int = Field(description="Stored units (any status) naming both.")
    first_seen: datetime = Field(description="The earliest `occurred_at` of those units.")
    last_seen: datetime = Field(description="The latest `occurred_at` of those units.")


class EntityProfile(ResponseModel):
    """What the subject's memory holds about one entity."""

    name: str
    key: str
    aliases: list[str] = Field(
        description="Other names of it that the subject's own units declared "
        "('Visual Studio Code (VS Code)', 'Caroline, also called Carol')."
    )
    first_seen: datetime = Field(description="The earliest `occurred_at` of its units.")
    last_seen: datetime = Field(description="The latest `occurred_at` of its units.")
    unit_count: int = Field(description="Active, unexpired units in scope naming it.")
    units: list[MemoryRead] = Field(
        description="The newest `limit` of those units, oldest first (by `occurred_at`)."
    )
    neighbours: list[EntityNeighbourRead] = Field(
        description="Entities named together with it, by weight (heaviest first)."
    )


EntityName = Annotated[str, Field(min_length=1, max_length=ENTITY_NAME_CHARS)]
