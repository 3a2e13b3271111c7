"""Wire models of the memory lifecycle (docs/LIFECYCLE.md): list with cursor pagination, the
supersede history, corrections (``PATCH``), forget receipts, ``/summarize``."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, model_validator

from app.core.vocabulary import MemoryType
from app.schemas.common import (
    AwareDatetime,
    CleanStr,
    ClearableText,
    Identifier,
    OffsetDatetime,
    QueryModel,
    RequestModel,
    ResponseModel,
    Text,
    TtlDays,
    VisibleText,
)
from app.schemas.limits import MaxChars, MaxValue
from app.schemas.memory import MemoryRead, Outcome

TimeRange = Literal["last_24_hours", "last_7_days", "last_30_days"]
# Every status a stored unit can have ("forgotten" units are deleted, so never listed).
StoredStatus = Literal["active", "superseded", "merged", "archived", "invalid"]
# What a correction may set: back to active, archived (cold), or invalid (known wrong).
PatchStatus = Literal["active", "archived", "invalid"]
# The statuses of a pair review (app.core.vocabulary.ReviewStatus).
ReviewStatus = Literal["pending", "running", "decided"]
Order = Literal["desc", "asc"]
# How a correction ended: the unit itself updated, or merged into another that holds it now.
UpdateKind = Literal["updated", "merged"]
# Who wrote the summaries: the configured LLM, or the offline summariser.
SummaryMode = Literal["llm", "offline"]


class MemoryListQuery(QueryModel):
    """Query parameters of ``GET /memories`` (the recall filters plus ``status``)."""

    user_id: Identifier | None = Field(default=None, description="Only this user's units.")
    agent_id: Identifier | None = Field(default=None, description="Only this agent's units.")
    session_id: Identifier | None = Field(
        default=None,
        description="Only units holding what this session said: its own, and those of "
        "other sessions that its statements were merged into (a restatement).",
    )
    types: list[MemoryType] | None = Field(default=None, description="Only these unit types.")
    entities: list[Annotated[VisibleText, Field(max_length=200)]] | None = Field(
        default=None, max_length=50, description="Only units naming at least one of these."
    )
    time_range: TimeRange | None = Field(
        default=None, description="Only units whose occurred_at lies in this window before now."
    )
    since: AwareDatetime | None = Field(default=None, description="occurred_at ≥ since.")
    until: AwareDatetime | None = Field(default=None, description="occurred_at < until.")
    status: list[StoredStatus] | None = Field(
        default=None,
        description="Only these statuses. Default: `active`, plus `superseded` / `archived` "
        "when `include_superseded` / `include_archived` is set.",
    )
    include_superseded: bool = False
    include_archived: bool = False
    as_of: OffsetDatetime | None = Field(
        default=None,
        description="Valid time: only the units true at this moment (ISO 8601 with a UTC "
        "offset, else 422): `valid_from <= as_of < valid_to`. A value superseded later is "
        "returned, one that became true after it is not (superseded units count without "
        "`include_superseded`).",
    )
    review: Literal["pending"] | None = Field(
        default=None,
        description="`pending`: only units with a pair decision still open (the unsure zone "
        "of dedupe and conflicts, docs/DEDUPE.md), with those pairs in `reviews`.",
    )
    order: Order = Field(default="desc", description="By created_at: newest first (`desc`).")
    limit: Annotated[int, MaxValue("list_page")] = Field(
        default=50, ge=1, description="Units per page (1..200)."
    )
    cursor: Annotated[CleanStr, Field(max_length=500)] | None = Field(
        default=None, description="`next_cursor` of the previous page; same filters required."
    )

    @model_validator(mode="after")
    def _window(self) -> MemoryListQuery:
        if self.since and self.until and self.since >= self.until:
            raise ValueError("since must be before until")
        return self


class PairReviewRead(ResponseModel):
    """An open pair decision: is ``unit_id`` the same memory as ``candidate_id``, does it
    contradict it, or is it another fact?"""

    id: uuid.UUID
    unit_id: uuid.UUID
    candidate_id: uuid.UUID
    cosine: float = Field(description="Cosine similarity of the two values (-1..1).")
    reason: str = Field(description="Why the local decision was unsure (a stable code).")
    p_same: float = Field(description="The local classifier's P(same), 0..1.")
    merge_allowed: bool = Field(
        description="False when a merge is ruled out (a negation, other values, swapped "
        "roles, two names given: a dog named Rex and a cat named Tom)."
    )
    status: ReviewStatus = Field(
        description="`pending` (waiting for the LLM or a person; back here when the LLM kept "
        "failing) or `running` (a reconciliation job holds it)."
    )
    attempts: int
    error: str | None
    created_at: datetime


class MemoryPage(ResponseModel):
    """One page of units, in ``created_at`` order (ties broken by id)."""

    memories: list[MemoryRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )
    reviews: list[PairReviewRead] = Field(
        default_factory=list, description="With `review=pending`: the open pairs of these units."
    )


class MemoryLinkRead(ResponseModel):
    """``target_id`` was written from ``source_id`` (``summary`` or ``distilled``), or
    restates it from another write subject (``duplicate``: another agent's unit of the same
    user; both stay active and recall shows them as one hit), or changes what such a unit
    says (``replaces``: both stay active; recall ranks the older right after the newer)."""

    target_id: uuid.UUID
    source_id: uuid.UUID
    kind: str
    created_at: datetime


class MemoryHistory(ResponseModel):
    """The supersede chain of a unit (every unit linked to it by ``superseded_by``, oldest
    first, the unit itself included) and the consolidation links of those units."""

    memories: list[MemoryRead]
    links: list[MemoryLinkRead]


# The MemoryUpdate fields whose None means only "not sent": an explicit null is refused.
NOT_NULLABLE = ("value", "entities", "confidence", "type", "ttl_days", "status")


def _no_null_in_schema(schema: dict[str, Any]) -> None:
    """The OpenAPI document offers null only where MemoryUpdate takes it, and says that an
    empty body is refused (``minProperties``: "send at least one field to change")."""
    schema["minProperties"] = 1
    for name in NOT_NULLABLE:
        prop = schema["properties"][name]
        kept = [alt for alt in prop.pop("anyOf") if alt.get("type") != "null"]
        [only] = kept
        prop.update(only)


class MemoryUpdate(RequestModel):
    """A correction: only the fields sent change (at least one; an empty body is a 422 that
    changes nothing). ``null`` clears ``query`` or ``expires_at``."""

    model_config = ConfigDict(**RequestModel.model_config, json_schema_extra=_no_null_in_schema)

    value: Annotated[VisibleText, Field(min_length=1), MaxChars("value_chars")] | None = Field(
        default=None,
        description="New content; re-embedded, re-indexed and re-checked for "
        "duplicates in the same transaction.",
    )
    query: Annotated[ClearableText, MaxChars("value_chars")] | None = Field(
        default=None, description="New trigger scenario (re-embedded); null or blank clears it."
    )
    entities: list[Annotated[VisibleText, Field(max_length=200)]] | None = Field(
        default=None, max_length=50, description="Replaces the entity list."
    )
    confidence: float | None = Field(default=None, ge=0.0, le=1.0)
    type: MemoryType | None = None
    ttl_days: TtlDays | None = Field(
        default=None,
        description="Expire this many days from now (at least one minute: 1/1440).",
    )
    expires_at: AwareDatetime | None = Field(
        default=None, description="Absolute expiry; null means never."
    )
    status: PatchStatus | None = Field(
        default=None,
        description="`invalid` marks the unit as known wrong (out of recall, still readable); "
        "`archived` makes it cold; `active` restores an archived or invalid unit.",
    )

    @model_validator(mode="after")
    def _consistent(self) -> MemoryUpdate:
        sent = self.model_fields_set
        if not sent:
            raise ValueError("send at least one field to change")
        for name in NOT_NULLABLE:
            if name in sent and getattr(self, name) is None:
                raise ValueError(f"{name} cannot be null")
        if "ttl_days" in sent and "expires_at" in sent:
            raise ValueError("give ttl_days or expires_at, not both")
        return self


class UpdateResult(ResponseModel):
    """Outcome of a correction. ``merged``: the new value restates another active unit of the
    subject, which now holds the memory (the corrected unit is ``superseded`` by it)."""

    id: uuid.UUID = Field(description="The unit now holding this memory.")
    outcome: UpdateKind
    memory: MemoryRead


class ForgetCounts(ResponseModel):
    """What a forget removed, per kind (rows, Redis keys, index entries)."""

    memory_units: int = 0
    vectors: int = Field(default=0, description="Embeddings deleted (value and query).")
    keyword_entries: int = Field(default=0, description="Full-text index entries deleted.")
    access_log: int = 0
    links: int = Field(default=0, description="Summary / distillation links deleted.")
    entity_links: int = Field(default=0, description="Unit → entity links deleted.")
    entities: int = Field(
        default=0, description="Entities of the entity graph left without a unit, deleted."
    )
    references_cleared: int = Field(
        default=0, description="Other units whose superseded_by / conflicts_with named it."
    )
    idempotency_records: int = Field(
        default=0, description="Stored Idempotency-Key responses that contained the data."
    )
    distillation_state: int = 0
    transcript_turns: int = Field(default=0, description="Transcript messages deleted.")
    transcript_sessions: int = Field(default=0, description="Session counter rows deleted.")
    working_memory_sessions: int = Field(default=0, description="Redis session windows deleted.")
    jobs: int = Field(default=0, description="Extraction jobs deleted (any state).")
    queue_entries: int = Field(default=0, description="Pending job-queue entries deleted.")
    job_outcomes_redacted: int = Field(
        default=0, description="Extraction jobs whose outcome listed the unit (entry removed)."
    )


class ForgetReceipt(ResponseModel):
    """Proof of a hard delete: counts per kind. Nothing of it is readable afterwards."""

    removed: ForgetCounts
    sources_kept: list[str] = Field(
        default_factory=list,
        description="The session messages the forgotten unit was extracted from that are "
        "still in their session (`raw_ref` pointers `session:<id>#<seq>`): a unit forget "
        "does not touch the conversation, whose transcript and window (`GET /working_memory/"
        "{id}`, `/context`'s conversation part) still show them. "
        "`DELETE /working_memory/{id}?purge=true` deletes a session's transcript and window; "
        "the subject's forget deletes all its sessions. Always empty for a subject's forget.",
    )
    restored: list[uuid.UUID] = Field(
        default_factory=list,
        description="Units the forgotten unit had superseded that are current (`active`) "
        "again: it was the newest of their chain, so nothing that remains replaces them "
        "(`PATCH` or `DELETE` them if they should not be). A forgotten unit in the middle of "
        "a chain restores nothing: what it superseded stays superseded by the next version. "
        "A forgotten digest (a unit `/summarize` wrote) restores the units it consolidated "
        "(archived until then), unless `parts=forget` forgot them with it; so does a digest "
        "forgotten because it held the forgotten unit's words.",
    )
    took_ms: float


class SummarizeRequest(RequestModel):
    """Consolidate one subject's active units in a time window, grouped by entity."""

    user_id: Identifier = Field(description="The subject whose units are consolidated.")
    agent_id: Identifier | None = Field(default=None, description="Only this agent's units.")
    entity: Annotated[Text, Field(max_length=200)] | None = Field(
        default=None, description="Only units naming this entity (one group)."
    )
    types: list[MemoryType] | None = Field(
        default=None,
        min_length=1,
        description="Only these unit types (at least one; leave it out for every type).",
    )
    time_range: TimeRange | None = Field(default=None, description="occurred_at window.")
    since: AwareDatetime | None = Field(default=None, description="occurred_at ≥ since.")
    until: AwareDatetime | None = Field(default=None, description="occurred_at < until.")
    min_group: int | None = Field(
        default=None, ge=2, le=500, description="Smallest group summarised (default setting)."
    )

    @model_validator(mode="after")
    def _window(self) -> SummarizeRequest:
        if self.since and self.until and self.since >= self.until:
            raise ValueError("since must be before until")
        return self


class SummaryResult(ResponseModel):
    """One written summary and the units it consolidated (now archived)."""

    entity: str
    id: uuid.UUID = Field(description="The unit holding the summary (new or merged into).")
    outcome: Outcome
    memory: MemoryRead
    source_ids: list[uuid.UUID]


class SupersededUnit(ResponseModel):
    """A standing unit that gave way to the newest of its contradicting values."""

    id: uuid.UUID
    superseded_by: uuid.UUID


class SummarizeResponse(ResponseModel):
    """Every summary written; ``mode`` says whether the LLM or the offline summariser wrote
    them."""

    summaries: list[SummaryResult]
    archived: int = Field(description="Source units archived (all linked to their summary).")
    superseded: list[SupersededUnit] = Field(
        description="Constraints and preferences that contradicted a newer one of the "
        "subject's and are now `superseded` by it."
    )
    standing_ids: list[uuid.UUID] = Field(
        description="Constraints and preferences in the window: never summarised, still "
        "active as their own units."
    )
    mode: SummaryMode
    remaining: int = Field(
        default=0,
        description="Units of the window this call left for a later one: the groups after "
        "its summaries reached `LIFECYCLE__SUMMARIZE_MAX_TOKENS` embedding-model tokens (2048 "
        "by default; the first summary is always written) and the units beyond the "
        "`LIFECYCLE__SUMMARIZE_MAX_UNITS` it reads (500, oldest first). Call again while "
        "it is above 0 and the call still consolidates something.",
    )
