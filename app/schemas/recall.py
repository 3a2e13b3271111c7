"""``POST /recall`` wire models (docs/ARCHITECTURE.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from app.core.vocabulary import MemoryType
from app.schemas.common import AwareDatetime, Identifier, RequestModel, ResponseModel, Text
from app.schemas.limits import MaxValue
from app.schemas.memory import MemoryRead

TimeRange = Literal["last_24_hours", "last_7_days", "last_30_days"]
Profile = Literal["long_term", "short_term"]


class Weights(RequestModel):
    """Per-request weight overrides; omitted signals keep the profile's weight."""

    semantic: float | None = Field(default=None, ge=0, le=10)
    keyword: float | None = Field(default=None, ge=0, le=10)
    recency: float | None = Field(default=None, ge=0, le=10)
    confidence: float | None = Field(default=None, ge=0, le=10)
    entity: float | None = Field(default=None, ge=0, le=10)
    context: float | None = Field(
        default=None,
        ge=0,
        le=10,
        description="Relevance of the unit's neighbours in its session and of the session.",
    )
    recency_lambda: float | None = Field(
        default=None, ge=0, le=10, description="Recency decay per hour: exp(-λ·hours)."
    )


class RecallRequest(RequestModel):
    """What to recall and for whom. At least one of user_id / agent_id / session_id."""

    query: Annotated[Text, Field(max_length=2000)] = Field(
        description="What the agent is looking for, in natural language."
    )
    user_id: Identifier | None = None
    agent_id: Identifier | None = None
    session_id: Identifier | None = None
    types: list[MemoryType] | None = Field(
        default=None,
        min_length=1,
        description="Only these unit types (at least one; leave it out for every type).",
    )
    entities: list[Annotated[Text, Field(max_length=200)]] | None = Field(
        default=None,
        min_length=1,
        max_length=50,
        description="Only units naming at least one of these (leave it out for any).",
    )
    time_range: TimeRange | None = Field(
        default=None, description="Only units whose occurred_at lies in this window before now."
    )
    since: AwareDatetime | None = Field(default=None, description="occurred_at ≥ since.")
    until: AwareDatetime | None = Field(default=None, description="occurred_at < until.")
    top_k: Annotated[int, MaxValue("recall_top_k")] = Field(
        default=5, ge=1, description="How many units to return."
    )
    min_score: float | None = Field(default=None, ge=0, description="Drop hits scoring below.")
    profile: Profile = Field(
        default="long_term",
        description="`long_term` (default, measured on LoCoMo: relevance and conversational "
        "context, recency only a tie-breaker) or `short_term` (the seeds' weights "
        "semantic/keyword/recency/confidence 0.5/0.2/0.2/0.1, for short-lived tasks).",
    )
    weights: Weights | None = Field(default=None, description="Override single weights.")
    now: AwareDatetime | None = Field(
        default=None, description="The clock for recency and time_range (replays, evaluation)."
    )
    include_superseded: bool = False
    include_archived: bool = False
    record_access: bool = Field(
        default=True,
        description="Count this recall as an access of the units returned (access log, "
        "`last_accessed_at`, TTL extension). `false` for inspection and evaluation: "
        "nothing is written.",
    )

    @model_validator(mode="after")
    def _needs_subject(self) -> RecallRequest:
        if not (self.user_id or self.agent_id or self.session_id):
            raise ValueError("give at least one of user_id, agent_id, session_id")
        if self.since and self.until and self.since >= self.until:
            raise ValueError("since must be before until")
        return self


class Scores(ResponseModel):
    """Each signal in 0..1 before weighting; ``score`` is their weighted sum."""

    semantic: float
    keyword: float
    recency: float
    confidence: float
    entity: float
    context: float = Field(
        description="Relevance of the unit's session neighbours and of its session (0..1)."
    )


class AppliedWeights(ResponseModel):
    """The weights that scored this recall: the profile's, with the request's overrides.
    A hit's score is the sum over signals of weight × signal, so weight × signal / score is
    each signal's share of it."""

    semantic: float
    keyword: float
    recency: float
    confidence: float
    entity: float
    context: float
    recency_lambda: float = Field(description="Recency decay per hour: exp(-λ·hours).")


class RecallHit(MemoryRead):
    """A recalled unit with its score and the score's breakdown."""

    score: float
    scores: Scores


class RecallResponse(ResponseModel):
    """Ranked units, best first."""

    memories: list[RecallHit]
    weights: AppliedWeights = Field(description="The weights applied (profile + overrides).")
    degraded: bool = Field(description="True when the time budget cut work short.")
    took_ms: float
