"""``/extract`` and ``/working_memory/{session_id}/close`` wire models (docs/EXTRACTION.md)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Annotated, Any, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator, model_validator

from app.schemas import limits
from app.schemas.common import (
    AwareDatetime,
    CleanStr,
    Identifier,
    JsonObject,
    QueryModel,
    RequestModel,
    ResponseModel,
    SessionId,
    Text,
    VisibleText,
)
from app.schemas.limits import MaxChars, MaxItems

Role = Literal["user", "assistant", "tool", "system"]
JobStatus = Literal["queued", "running", "retrying", "succeeded", "failed", "cancelled"]
UnitOutcome = Literal["created", "merged", "superseded", "conflict", "dropped", "rejected"]


def _zone(value: str) -> str:
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError) as exc:
        raise ValueError(f"unknown IANA time zone {value!r} (e.g. 'Asia/Shanghai')") from exc
    return value


class ExtractMessage(RequestModel):
    """One message of a transcript."""

    role: Role = Field(description="Who spoke: `user`, `assistant`, `tool` or `system`.")
    name: Annotated[Text, Field(max_length=64)] | None = Field(
        default=None,
        description="The speaker's name, as in the OpenAI chat format, when several people "
        "speak as `user` (a group chat): the offline extractor names them in the units "
        '("Caroline went…" instead of "The user went…").',
    )
    content: Annotated[VisibleText, MaxChars("message_chars")]
    created_at: AwareDatetime | None = Field(
        default=None,
        description="When it was said (ISO 8601 with its offset), at most 5 minutes ahead of "
        "the server's clock (else a 422).",
    )
    metadata: JsonObject = Field(
        default_factory=dict,
        description='Free-form JSON; `{"tool_chain_state": "completed"}` or '
        '`{"terminal": true}` marks the end of a tool chain (a closure signal).',
    )


class ExtractRequest(RequestModel):
    """Body of ``POST /extract``: a transcript (``messages``) or a ``session_id`` whose
    durable transcript the service holds, and the subject."""

    user_id: Identifier = Field(description="The subject the units are about.")
    agent_id: Identifier | None = None
    session_id: SessionId | None = Field(
        default=None,
        description="No `/`, not `.` or `..` (a working-memory path must be able to name "
        "it). Without `messages`: extract this session's transcript (the messages no "
        "earlier job took; a session owned by another user than `user_id` is a 404 "
        "`not_found`). With `messages`: recorded as the units' session (one owned by "
        "another user than `user_id` is the same 404: no job is made; one nobody owns yet "
        "becomes `user_id`'s, as on a first append).",
    )
    task_id: Identifier | None = None
    messages: (
        Annotated[list[ExtractMessage], Field(min_length=1), MaxItems("extract_messages")] | None
    ) = Field(
        default=None,
        description="The transcript: at most `LIMITS__EXTRACT_CHARS` (100,000) characters of "
        "`content` in all (the job embeds every unit it makes); past it a 422 says the count "
        "and asks to split the transcript into several requests.",
    )
    timezone: str | None = Field(
        default=None,
        max_length=64,
        description="IANA zone relative dates resolve in. Default: the newest zone a "
        'message\'s metadata names (`{"timezone": "Asia/Shanghai"}`), else the UTC offset the '
        "newest message was given with (its `metadata.utc_offset`, else the offset of its "
        "`created_at`) as a fixed zone, else UTC.",
    )
    now: AwareDatetime | None = Field(
        default=None,
        description="The conversation's clock: 'tomorrow' resolves against it. Default: the "
        "last message's time, else the request time. From 1900-01-01T00:00:00Z to at most 5 "
        "minutes ahead of the server's clock (else a 422 `now is out of range`, nothing "
        "queued).",
    )
    mode: Literal["async", "sync"] = Field(
        default="async", description="`sync` = `?wait=true`: answer when the job has ended."
    )

    @field_validator("timezone")
    @classmethod
    def _check_zone(cls, value: str | None) -> str | None:
        return None if value is None else _zone(value)

    @model_validator(mode="after")
    def _transcript_source(self) -> ExtractRequest:
        if self.messages is None and self.session_id is None:
            raise ValueError("give messages (a transcript) or a session_id")
        if self.messages is not None:
            total, limit = (
                sum(len(m.content) for m in self.messages),
                limits.current().extract_chars,
            )
            if total > limit:
                raise ValueError(
                    f"messages hold {total:,} characters in all, more than one /extract takes "
                    f"(LIMITS__EXTRACT_CHARS = {limit:,}): split the transcript into several "
                    "requests"
                )
        return self


class CloseRequest(RequestModel):
    """Body of ``POST /working_memory/{session_id}/close`` (every field optional)."""

    user_id: Identifier | None = Field(
        default=None,
        description="The subject; default: the session's user_id. A session owned by "
        "another user is a 404 `not_found` (nothing closed).",
    )
    agent_id: Identifier | None = None
    task_id: Identifier | None = None
    timezone: str | None = Field(
        default=None,
        max_length=64,
        description="IANA zone relative dates resolve in. Default: the newest zone a "
        'message\'s metadata names (`{"timezone": "Asia/Shanghai"}`), else the UTC offset '
        "the newest message's `created_at` was given with (a fixed zone), else UTC.",
    )
    now: AwareDatetime | None = Field(
        default=None,
        description="The conversation's clock relative dates resolve against. Default: the "
        "last message's time. From 1900-01-01T00:00:00Z to at most 5 minutes ahead of the "
        "server's clock (else a 422 `now is out of range`, nothing closed).",
    )

    @field_validator("timezone")
    @classmethod
    def _check_zone(cls, value: str | None) -> str | None:
        return None if value is None else _zone(value)


class UnitResult(ResponseModel):
    """What became of one extracted unit."""

    memory_id: uuid.UUID | None = Field(
        description="The stored unit (new, merged into, or superseding); null when dropped."
    )
    outcome: UnitOutcome = Field(
        description="`created`, `merged`, `superseded`, `conflict`, or `dropped` (confidence "
        "below the minimum, a secret never kept, a message that asked not to be remembered, "
        "a request to forget: `reason` says which) / `rejected` (failed the schema)."
    )
    type: str | None = None
    value: str | None = None
    confidence: float | None = None
    reason: str | None = None


class ExtractJobRead(ResponseModel):
    """An extraction job and, once it succeeded, the outcome per unit."""

    id: uuid.UUID
    status: JobStatus = Field(
        description="`queued` → `running` → `succeeded`; a failed attempt → `retrying`; "
        "out of attempts → `failed` (retry with POST /extract/{id}/retry); `cancelled`: its "
        "session's transcript was purged before it wrote its units (nothing extracted, "
        "`error_code` `transcript_purged`)."
    )
    user_id: str
    agent_id: str | None
    session_id: str | None
    task_id: str | None
    trigger: str = Field(description="`api`, `close` (explicit) or `signals` (closure).")
    trigger_detail: list[str] = Field(description="The closure signals that closed the task.")
    transcript_messages: int = Field(
        description="Messages the job extracts (its transcript snapshot, without the two "
        "messages before a session job's range it reads as context only)."
    )
    transcript_from: int | None = Field(description="First session seq extracted.")
    transcript_to: int | None = Field(description="Last session seq extracted.")
    timezone: str
    conversation_now: datetime
    attempts: int
    max_attempts: int
    error: str | None
    error_code: str | None
    error_history: list[dict[str, Any]] = Field(
        description="One entry per failed attempt: `attempt`, `code`, `error`, `at`; with "
        "`EXTRACTION__OFFLINE_FALLBACK` the LLM failure the offline extractor stood in for has "
        '`"fallback": "offline"`.'
    )
    extractor: str | None = Field(
        description="`offline` or `llm:<model>` (`offline` also after an offline fallback)."
    )
    units: list[UnitResult] = Field(description="One entry per extracted unit.")
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    next_attempt_at: datetime | None


class JobListQuery(QueryModel):
    """Query parameters of ``GET /extract``."""

    user_id: Identifier | None = Field(default=None, description="Only this user's jobs.")
    agent_id: Identifier | None = Field(default=None, description="Only this agent's jobs.")
    session_id: Identifier | None = Field(default=None, description="Only this session's.")
    status: list[JobStatus] | None = Field(
        default=None, description="Only these states (repeat the parameter for several)."
    )
    limit: int = Field(default=20, ge=1, le=100, description="Jobs per page (1..100).")
    cursor: Annotated[CleanStr, Field(max_length=500)] | None = Field(
        default=None, description="`next_cursor` of the previous page; same filters required."
    )


class JobPage(ResponseModel):
    """One page of jobs, newest first (by created_at, ties broken by id)."""

    jobs: list[ExtractJobRead]
    next_cursor: str | None = Field(
        description="Pass as `cursor` for the next page; null on the last page."
    )


class CloseResponse(ResponseModel):
    """What closing a session did."""

    session_id: str
    closed: bool = Field(description="True: the task is closed (an extraction job exists).")
    created: bool = Field(description="False when this transcript was already extracted.")
    signals: list[str] = Field(description="Closure signals seen (`explicit` included).")
    job: ExtractJobRead | None = Field(description="The extraction job of this transcript.")
