"""Memory-unit wire models: ``MemoryCreate`` (a unit to store), ``MemoryRead``, and the
``/store`` request and response (docs/ARCHITECTURE.md)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, computed_field, field_validator, model_validator

from app.core.valid_time import valid_from as unit_valid_from
from app.core.vocabulary import MemoryType
from app.schemas.common import (
    AwareDatetime,
    ClearableText,
    Identifier,
    JsonObject,
    RequestModel,
    ResponseModel,
    SessionId,
    Text,
    TtlDays,
    VisibleText,
)
from app.schemas.limits import MaxChars, MaxItems, MaxJsonBytes

Source = Literal["user", "agent", "tool", "system", "extraction"]
Status = Literal["active", "superseded", "merged", "archived", "invalid", "forgotten"]
Outcome = Literal["created", "merged", "superseded", "conflict"]


class MemoryCreate(RequestModel):
    """One memory unit to store."""

    user_id: Identifier = Field(description="The subject the unit is about (required).")
    agent_id: Identifier | None = Field(default=None, description="Agent the unit belongs to.")
    session_id: SessionId | None = Field(
        default=None,
        description="Session it came from (no `/`, not `.` or `..`: a working-memory path "
        "must be able to name it).",
    )
    task_id: Identifier | None = Field(default=None, description="Task it came from.")
    type: MemoryType = Field(
        default="fact",
        description="Kind of knowledge. Omitted: the type the offline extractor gives the "
        "value read as the user's own words (an allergy or a limit `constraint`, a liking "
        "`preference`, something that happened or will happen at a time `event`), else "
        "`fact`. Given: kept as given.",
    )
    value: Annotated[VisibleText, Field(min_length=1), MaxChars("value_chars")] = Field(
        description="The content: one self-contained sentence (≤ 200 characters recommended), "
        "negations and conditions kept."
    )
    query: Annotated[ClearableText, MaxChars("value_chars")] | None = Field(
        default=None,
        description="Trigger scenario: when this unit should come to mind, written as a "
        "situation ('when the user plans a weekend trip').",
    )
    entities: list[Annotated[VisibleText, Field(max_length=200)]] = Field(
        default_factory=list,
        max_length=50,
        description="Named things: people, places, codes. Omitted: the names extraction "
        "finds in the value (an empty list keeps none).",
    )
    confidence: float = Field(default=1.0, ge=0.0, le=1.0, description="0..1.")
    source: Source = Field(default="user", description="Who asserted it.")
    occurred_at: AwareDatetime | None = Field(
        default=None, description="Time anchor (ISO 8601 with its offset). Default: now."
    )
    ttl_days: TtlDays | None = Field(
        default=None, description="Expire after N days (at least one minute: 1/1440)."
    )
    expires_at: AwareDatetime | None = Field(default=None, description="Absolute expiry.")
    raw_ref: list[Annotated[Text, Field(max_length=500)]] | None = Field(
        default=None,
        max_length=100,
        description="Pointers to the transcript turns it came from (a string or a list).",
    )
    metadata: Annotated[JsonObject, MaxJsonBytes("metadata_bytes")] = Field(
        default_factory=dict,
        description="Free-form JSON object, at most `LIMITS__METADATA_BYTES` bytes written as "
        "compact UTF-8 JSON (default 16,384; larger is a 422).",
    )

    @field_validator("raw_ref", mode="before")
    @classmethod
    def _one_or_many(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value

    @field_validator("query")
    @classmethod
    def _blank_query_is_none(cls, value: str | None) -> str | None:
        return value if value and value.strip() else None

    @model_validator(mode="after")
    def _one_expiry(self) -> MemoryCreate:
        if self.ttl_days is not None and self.expires_at is not None:
            raise ValueError("give ttl_days or expires_at, not both")
        return self


class StoreRequest(RequestModel):
    """Body of ``POST /store``: 1..100 units."""

    memories: Annotated[list[MemoryCreate], MaxItems("store_batch")] = Field(min_length=1)


class MemoryRead(ResponseModel):
    """A stored memory unit."""

    id: uuid.UUID
    namespace: str
    user_id: str
    agent_id: str | None
    session_id: str | None
    task_id: str | None
    type: str
    value: str
    query: str | None
    entities: list[str]
    confidence: float
    source: str
    raw_ref: list[str]
    metadata: dict[str, Any] = Field(validation_alias=AliasChoices("metadata_", "metadata"))
    status: Status
    superseded_by: uuid.UUID | None
    merged_into: uuid.UUID | None = Field(
        default=None, description="Status `merged`: the unit this one was folded into."
    )
    conflicts_with: list[uuid.UUID]
    occurred_at: datetime
    valid_to: datetime | None = Field(
        default=None,
        description="Valid time: when a superseded unit stopped being true (when the next "
        "version became true: its successor's `valid_from`, or for a value stored late, the "
        "`occurred_at` of the version after it in event time); null while nothing has "
        "superseded it.",
    )
    created_at: datetime
    last_confirmed_at: datetime
    last_accessed_at: datetime | None
    expires_at: datetime | None
    embedding_model: str

    @field_validator(
        "occurred_at", "valid_to", "created_at", "last_confirmed_at", "last_accessed_at",
        "expires_at",
    )  # fmt: skip
    @classmethod
    def _in_utc(cls, value: datetime | None) -> datetime | None:
        # Every answer says its times in UTC (`…Z`); a unit /store has just written still
        # holds the offset it was sent with (tester finding T15: "+08:00" echoed).
        return value.astimezone(UTC) if value is not None and value.tzinfo else value

    @computed_field(
        description="Valid time: when the unit became true: the earliest of its "
        "`occurred_at`, its `created_at` and when it was said (`metadata.said_at`, which "
        "extraction records for a unit anchored at another time than its message): a plan or "
        "an expiry date is true, as a statement, from when it was said; `as_of` reads this."
    )
    def valid_from(self) -> datetime:
        """The start of the unit's valid time (:func:`app.core.valid_time.valid_from`, the
        repository's ``valid_from_clause``), in UTC."""
        return unit_valid_from(self.occurred_at, self.created_at, self.metadata).astimezone(UTC)


class MemoryDetail(MemoryRead):
    """A stored memory unit with its usage: what ``GET /memories/{id}`` answers."""

    access_count: int = Field(
        description="How many recalls returned it within the access log's retention "
        "(`access_window_days`)."
    )
    access_window_days: float = Field(
        description="Days of access history kept (TTL__ACCESS_LOG_RETENTION_DAYS)."
    )
    merge_count: int = Field(
        description="Restatements merged into it by /store, a correction or the "
        "reconciliation job (each raised its confidence by noisy-OR)."
    )


class PendingDecision(ResponseModel):
    """An existing unit the write path could not decide on for this one (the *unsure* zone,
    docs/DEDUPE.md): the LLM reconciles it after the answer (``queued``) or, without an LLM,
    it stays listed by ``GET /memories?review=pending`` (``review``). A contradiction kept
    beside this one (outcome ``conflict``: their order unclear) is listed too, as a
    ``contradiction`` for a person (``review``: ``POST /reviews/{id}``)."""

    review_id: uuid.UUID
    candidate_id: uuid.UUID = Field(description="The existing unit it may restate or change.")
    cosine: float = Field(description="Cosine similarity of the two values (-1..1).")
    reason: str = Field(description="Why the local decision was unsure (a stable code).")
    kind: Literal["duplicate", "contradiction"] = Field(
        description="`duplicate`: it may restate the existing unit (a merge is possible); "
        "`contradiction`: a merge is ruled out, it may change or correct the existing unit "
        "(a negation, other values, a past event told with another day, or a contradiction "
        "whose order in time is unclear) — both stay active until the review is decided."
    )
    status: Literal["queued", "review"]


class StoreResult(ResponseModel):
    """Outcome for one input unit, in input order."""

    id: uuid.UUID = Field(description="The unit now holding this memory (new or merged into).")
    outcome: Outcome
    memory: MemoryRead
    pending: list[PendingDecision] = Field(
        default_factory=list,
        description="Decisions still to come for this unit; when one merges it, its id keeps "
        "resolving to the unit it went into.",
    )


class StoreResponse(ResponseModel):
    """Body of a ``POST /store`` answer."""

    results: list[StoreResult]
