"""``GET /context`` wire models: the block an agent puts in its system prompt."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, Field, field_validator

from app.schemas.common import Identifier, QueryModel, ResponseModel, Text, identifier
from app.schemas.working_memory import (
    MAX_QUERY_CHARS,
    MAX_TOKENS_LIMIT,
    SESSION_ID_PATTERN,
    WindowMessage,
)

# Where the context's query came from: the request, or the session's latest user message.
QuerySource = Literal["request", "last_user_message"]


class ContextQuery(QueryModel):
    """Query parameters of ``GET /context``."""

    user_id: Identifier = Field(description="The subject whose memory is assembled.")
    agent_id: Identifier | None = Field(
        default=None,
        description="Only this agent's units of the user (preferences and recalled units), "
        "as `/recall` with `user_id` and `agent_id`: units stored without an agent are left "
        "out too. Without it, every unit of the user, whichever agent (or none) it belongs "
        "to. The window is the session's, whatever the agent.",
    )
    session_id: (
        Annotated[
            str,
            Field(min_length=1, max_length=256, pattern=SESSION_ID_PATTERN),
            AfterValidator(identifier),
        ]
        | None
    ) = Field(default=None, description="The live session whose window to include.")
    query: Annotated[Text, Field(max_length=MAX_QUERY_CHARS)] | None = Field(
        default=None,
        description="What the turn is about. Default: the session's latest user message "
        "(also for an empty or whitespace-only `query`; `POST /recall`, where it is required, "
        "answers 422 for one).",
    )
    max_tokens: int | None = Field(
        default=None,
        ge=1,
        le=MAX_TOKENS_LIMIT,
        description="Token budget of the block (20% of it is left free for the answer).",
    )

    @field_validator("query", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value


class ContextUnit(ResponseModel):
    """A memory unit as placed in the context."""

    id: uuid.UUID
    type: str
    value: str
    confidence: float
    occurred_at: datetime
    score: float | None = Field(default=None, description="Recall score (recalled units only).")
    conflicts_with: list[uuid.UUID] = Field(
        default_factory=list,
        description="Active units this one contradicts, stored so close in time that which "
        "holds is unknown (an open review of kind `contradiction`: `GET /reviews?memory_id=`). "
        "Its line in `text` quotes the other side and says which is newer.",
    )


class ContextParts(ResponseModel):
    """What the text block was made of."""

    preferences: list[ContextUnit] = Field(
        description="The subject's strongest active preferences and constraints."
    )
    memories: list[ContextUnit] = Field(description="Units recalled for the query, best first.")
    window: list[WindowMessage] = Field(description="Working-memory messages, in time order.")


class ContextBudget(ResponseModel):
    """Tokens of the block, by part (section headers counted in their part)."""

    preferences: int
    memories: int
    window: int


class ContextResponse(ResponseModel):
    """A ready system-prompt block and its parts."""

    user_id: str
    session_id: str | None
    query: str | None = Field(description="The query used for recall and window relevance.")
    query_source: QuerySource | None
    text: str = Field(description="The block to put in the system prompt (Markdown).")
    tokens: int = Field(description="Tokens of `text`, by the service's tokenizer.")
    max_tokens: int
    budget_tokens: int = Field(description="max_tokens minus the headroom for the answer.")
    used: ContextBudget
    parts: ContextParts
    degraded: bool = Field(description="True when recall cut work short (its time budget).")
    took_ms: float
