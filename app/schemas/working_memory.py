"""``/working_memory/{session_id}`` wire models: append messages, read the window, clear."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from app.schemas.common import (
    AwareDatetime,
    Identifier,
    QueryModel,
    RequestModel,
    ResponseModel,
    Text,
    VisibleText,
    clean_json,
)
from app.schemas.limits import MaxChars, MaxItems

Role = Literal["user", "assistant", "tool", "system"]

MAX_METADATA_BYTES = 16_384
MAX_QUERY_CHARS = 2000
MAX_TOKENS_LIMIT = 1_000_000

# Path parameter: 1..256 characters, no control characters.
SESSION_ID_PATTERN = r"^[^\x00-\x1f\x7f]+$"


def _check_json(value: Any, depth: int = 0) -> None:
    if depth > 10:
        raise ValueError("metadata is nested too deeply (at most 10 levels)")
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("metadata must not contain NUL bytes (\\u0000)")
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_json(key, depth + 1)
            _check_json(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            _check_json(item, depth + 1)


class MessageCreate(RequestModel):
    """One message of a conversation."""

    role: Role = Field(description="Who spoke: `user`, `assistant`, `tool` or `system`.")
    name: Annotated[Text, Field(max_length=64)] | None = Field(
        default=None,
        description="The speaker's name, as in the OpenAI chat format, when several people "
        "speak as `user` (a group chat): kept as `metadata.name`, and extraction names them "
        'in the units ("Caroline went…" instead of "The user went…").',
    )
    content: Annotated[VisibleText, MaxChars("message_chars")] = Field(
        description="The message text (1..100,000 characters, no NUL bytes)."
    )
    created_at: AwareDatetime | None = Field(
        default=None,
        description="When it was said (ISO 8601 with its offset), at most 5 minutes ahead of "
        "the server's clock (else a 422). Default: now.",
    )
    user_id: Identifier | None = Field(
        default=None,
        description="The subject (user) of the session; the first one seen owns it. A message "
        "naming another user_id than the session's owner is refused as another user's session "
        "is (404 not_found naming only this user_id, nothing appended); an append whose "
        "messages name two users is a 409 conflict (nothing appended).",
    )
    metadata: dict[str, Any] = Field(
        default_factory=dict,
        description="Free-form JSON object (≤ 16 KiB), e.g. a tool call's "
        '`{"tool": "search", "terminal": true}`.',
    )

    @field_validator("metadata")
    @classmethod
    def _metadata_is_clean(cls, value: dict[str, Any]) -> dict[str, Any]:
        _check_json(value)
        clean_json(value)
        if len(json.dumps(value, ensure_ascii=False).encode()) > MAX_METADATA_BYTES:
            raise ValueError(f"metadata is larger than {MAX_METADATA_BYTES} bytes as JSON")
        return value

    def stored_metadata(self) -> dict[str, Any]:
        """The metadata as stored: ``name``, when given, as ``metadata.name`` (where the
        extraction of session messages reads the speaker); the non-zero UTC offset
        ``created_at`` was given with as ``metadata.utc_offset`` ("+08:00": the transcript's
        timestamps keep only the instant, and a close without a ``timezone`` reads relative
        dates in it)."""
        meta = self.metadata if self.name is None else {**self.metadata, "name": self.name}
        offset = self.created_at.utcoffset() if self.created_at else None
        if not offset or "utc_offset" in meta:  # none, or UTC itself: nothing to keep
            return meta
        minutes = int(offset.total_seconds()) // 60
        sign = "-" if minutes < 0 else "+"
        return {**meta, "utc_offset": f"{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"}


class AppendRequest(RequestModel):
    """Body of ``POST /working_memory/{session_id}/messages``: 1..100 messages, in order."""

    messages: Annotated[list[MessageCreate], MaxItems("message_batch")] = Field(min_length=1)


class SessionSize(ResponseModel):
    """Size of a session's durable transcript."""

    messages: int = Field(description="Messages appended to the session so far.")
    tokens: int = Field(description="Their content tokens, summed.")


class AppendResponse(ResponseModel):
    """What an append recorded."""

    session_id: str
    seqs: list[int] = Field(description="Sequence numbers given to the messages, in input order.")
    tokens: list[int] = Field(description="Content tokens of each message, in input order.")
    session: SessionSize = Field(description="The session after this append.")
    embedded_first_window: list[int] = Field(
        default_factory=list,
        description="Seqs of the messages longer than their embedding window "
        "(LIMITS__TEXT_TOKENS model tokens, 384 by default): kept whole in the transcript "
        "and the window, but embedded by their first window only (relevance ranking sees "
        "that part).",
    )


class WindowScores(ResponseModel):
    """The ranking signals of a message, each 0..1."""

    recency: float = Field(description="0.5 ** (newer messages / half life).")
    relevance: float | None = Field(
        description="Cosine similarity to the query, min-max scaled over the window; "
        "null without a query, or for a message ranked without its embedding "
        "(`unembedded_seqs`)."
    )
    cosine: float | None = Field(
        description="Raw cosine similarity to the query (null as `relevance` is)."
    )
    density: float = Field(description="Share of numbers, names, codes and parameters.")
    standing: Literal["constraint", "preference", "decision", "lift"] | None = Field(
        default=None,
        description="A standing statement of the session (the user's constraint, preference "
        "or decision): placed in the budget before every other message, whatever the query; "
        "`lift`: the user taking one back ('the 8am rule no longer applies'), placed before "
        "them all so a rule is never shown without its lift; null otherwise.",
    )
    filler: bool = Field(
        default=False,
        description="Nothing informative ('ok', 'thanks!', 好的): placed after every other "
        "message.",
    )


class WindowMessage(ResponseModel):
    """A chosen message."""

    seq: int
    role: Role
    content: str = Field(description="The content (cut in the middle when `truncated`).")
    created_at: datetime
    user_id: str | None
    metadata: dict[str, Any]
    tokens: int = Field(description="Content tokens as returned.")
    truncated: bool = Field(description="True when the message alone exceeded the budget.")
    original_tokens: int = Field(description="Content tokens of the whole message.")
    score: float
    scores: WindowScores
    why: str = Field(description="One line: why it is in the window.")


class OmittedMessage(ResponseModel):
    """A window message left out, and why (`include_omitted=true`)."""

    seq: int
    role: Role
    content: str
    created_at: datetime
    user_id: str | None
    metadata: dict[str, Any]
    tokens: int = Field(description="Content tokens of the message.")
    score: float
    scores: WindowScores
    reason: Literal["budget"] = Field(
        description="`budget`: when its turn came in fill order, the tokens still free "
        "could not hold it."
    )
    rank: int = Field(
        description="Its place in fill order among the window (1 = first): standing "
        "statements, then the other messages, then filler, each in score order."
    )
    needed_tokens: int = Field(description="What it would have cost: content + overhead.")
    free_tokens: int = Field(description="Budget tokens still free when its turn came.")
    why: str = Field(description="One line: why it was left out.")


class WindowResponse(ResponseModel):
    """The messages chosen for the budget, in time (sequence) order."""

    session_id: str
    messages: list[WindowMessage]
    query: str | None
    max_tokens: int = Field(description="The budget asked for.")
    budget_tokens: int = Field(description="max_tokens minus the headroom left for the answer.")
    used_tokens: int = Field(
        description="Tokens of the chosen messages, content plus per-message overhead."
    )
    window_messages: int = Field(description="Messages in the hot window (before choosing).")
    omitted_seqs: list[int] = Field(description="Window messages left out for the budget.")
    omitted: list[OmittedMessage] | None = Field(
        default=None,
        description="With `include_omitted=true`: each message left out (seq order), its "
        "score and why; null otherwise.",
    )
    unembedded_seqs: list[int] = Field(
        default_factory=list,
        description="With a `query`: window messages ranked without relevance (their "
        "`scores.relevance` is null), because their embedding was not ready and computing it "
        "here would have passed the read's embedding budget (the query and the messages' "
        "first windows at most LIMITS__REQUEST_TOKENS model tokens); the background embeds "
        "them for the next read. Empty otherwise.",
    )
    took_ms: float = Field(description="Server-side time of this read.")


class ClearResponse(ResponseModel):
    """What a clear removed."""

    session_id: str
    window_cleared: bool = Field(description="True when the hot window existed.")
    transcript_purged: int = Field(description="Transcript messages deleted (purge=true).")
    extraction_cancelled: list[uuid.UUID] = Field(
        default_factory=list,
        description="The session's extraction jobs that had not written their units yet "
        "(queued, retrying or running), cancelled by the purge: they extract nothing "
        "(`status` `cancelled`). A job that had finished keeps its units (forget them with "
        "DELETE /memories/{id}).",
    )


class WindowQuery(QueryModel):
    """Query parameters of a window read (validated like a body)."""

    query: Annotated[Text, Field(max_length=MAX_QUERY_CHARS)] | None = Field(
        default=None,
        description="The current question; ranks messages by relevance to it. Optional, so "
        "an empty or whitespace-only `query` is no query (`POST /recall`, where it is "
        "required, answers 422 for one).",
    )
    max_tokens: int | None = Field(
        default=None,
        ge=1,
        le=MAX_TOKENS_LIMIT,
        description="Token budget of the window (20% of it is left free for the answer).",
    )
    include_omitted: bool = Field(
        default=False,
        description="Also return the messages left out, with their scores and the reason.",
    )
    user_id: Identifier | None = Field(
        default=None,
        description="Only if the session is not another user's: a session whose owner (the "
        "first `user_id` its messages name) is another user is a 404 `not_found` (as another "
        "user's unit is).",
    )

    @field_validator("query", mode="before")
    @classmethod
    def _blank_is_none(cls, value: Any) -> Any:
        return None if isinstance(value, str) and not value.strip() else value
