"""What the MCP tools answer: compact output models, and the turn of a REST answer or an
API error into a tool result."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal
from urllib.parse import quote

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, TextContent
from pydantic import BaseModel, Field

from app.mcp.client import ApiError

# --- outputs ------------------------------------------------------------------------------


class StoredMemory(BaseModel):
    """What happened to a memory given to ``memory_store``."""

    id: str = Field(description="The memory's id (for memory_update / memory_forget).")
    outcome: str = Field(
        description="created (new), merged (it restated a known memory), superseded "
        "(it replaced an older, contradicting one) or conflict (kept beside one it "
        "contradicts, which holds is unknown: memory_reviews lists the pair to decide)."
    )
    value: str
    type: str


class RecalledMemory(BaseModel):
    """One recalled memory, best first."""

    id: str
    type: str
    value: str = Field(description="The remembered content.")
    query: str | None = Field(default=None, description="When it should come to mind.")
    entities: list[str] = Field(default_factory=list)
    occurred_at: str | None = None
    confidence: float
    score: float = Field(
        description="Orders this answer's memories only (a weighted sum of the signals; its "
        "scale depends on the other candidates, it may exceed 1): not a probability."
    )
    relevance: float | None = Field(
        default=None,
        description="How likely this memory holds what you asked for, 0..1, comparable across "
        "questions; below 0.03 it is most likely unrelated.",
    )
    status: str
    conflicts_with: list[str] = Field(
        default_factory=list, description="Ids of memories this one contradicts."
    )


class RecallOutput(BaseModel):
    """The memories that matter for what you are looking for."""

    memories: list[RecalledMemory]
    degraded: bool = Field(description="True when the search was cut short to answer fast.")
    best_relevance: float | None = Field(
        default=None,
        description="The highest relevance found; below 0.03 nothing relevant was found "
        "(answer without these memories).",
    )


class UpdatedMemory(BaseModel):
    """A corrected memory."""

    id: str = Field(description="The memory now holding this knowledge.")
    outcome: str = Field(
        description="updated, or merged (the correction restated another memory, which now "
        "holds it)."
    )
    value: str
    type: str
    status: str


class PairToReview(BaseModel):
    """Two memories Hindsight could not tell apart."""

    review_id: str
    kind: str = Field(description="duplicate (may be one fact) or contradiction.")
    newer: str | None = Field(description="The newer memory (null once forgotten).")
    existing: str | None = Field(description="The memory it may restate or replace.")
    why: str = Field(description="Why it was unsure (a stable code).")
    opened_at: str


class ReviewsOutput(BaseModel):
    """Open pairs, newest first."""

    pairs: list[PairToReview]
    more: bool = Field(description="More pairs are open than listed.")


class ReviewDecisionOutput(BaseModel):
    """A decided pair."""

    review_id: str
    decision: str | None = Field(description="merge, supersede or keep_both.")
    changed: bool = Field(description="False when it had already been decided this way.")


class ForgetOutput(BaseModel):
    """Proof that a memory is gone."""

    forgotten: str = Field(description="The id that was forgotten.")
    removed: dict[str, int] = Field(description="What was deleted, per kind.")
    still_in_conversation: list[str] = Field(
        default_factory=list,
        description="Messages of the conversation the memory came from that still hold its "
        "words (`session:<id>#<seq>`): forgetting a memory does not edit the conversation; "
        "they go when that session is purged (DELETE /working_memory/{id}?purge=true).",
    )
    current_again: list[str] = Field(
        default_factory=list,
        description="Older memories the forgotten one had replaced, which are current again "
        "(it was their newest version), or the memories a forgotten summary had "
        "consolidated; forget or update them too if they are wrong.",
    )


class ExtractedUnit(BaseModel):
    """What became of one memory found in the conversation."""

    memory_id: str | None = None
    outcome: str = Field(
        description="created, merged, superseded, conflict, dropped (not kept: `reason` says "
        "why) or rejected (malformed)."
    )
    type: str | None = None
    value: str | None = None
    reason: str | None = Field(
        default=None,
        description="Why a memory was dropped or rejected. A request to forget in the "
        "conversation is dropped with what to do: find the stored memories it names "
        "(memory_recall) and forget them (memory_forget).",
    )


class ExtractOutput(BaseModel):
    """An extraction job; ``memories`` is filled once it has succeeded."""

    job_id: str
    status: str = Field(description="queued, running, retrying, succeeded or failed.")
    memories: list[ExtractedUnit] = Field(default_factory=list)
    error: str | None = None


class Summary(BaseModel):
    """One consolidated memory and how many it replaced."""

    id: str
    entity: str
    value: str
    replaced: int = Field(description="Memories consolidated into it (now archived).")


class SummarizeOutput(BaseModel):
    """The summaries written."""

    summaries: list[Summary]
    archived: int
    remaining: int = Field(
        default=0,
        description="Memories this call left for another (each call does bounded work): "
        "call again while above 0 and the call still wrote a summary.",
    )


class AboutMemory(BaseModel):
    """One memory naming the entity, in time order."""

    id: str
    type: str
    value: str
    occurred_at: str | None = None


class RelatedThing(BaseModel):
    """Something named together with the entity."""

    name: str
    times: int = Field(description="How many memories name both.")


class AboutOutput(BaseModel):
    """Everything remembered about one named person, place or thing."""

    entity: str | None = Field(
        description="The entity found, or null when the user's memory names nothing asked for."
    )
    aliases: list[str] = Field(default_factory=list, description="Other names it goes by.")
    memory_count: int = Field(default=0, description="Memories naming it (all, not only these).")
    memories: list[AboutMemory] = Field(default_factory=list, description="Oldest first.")
    related: list[RelatedThing] = Field(
        default_factory=list, description="Things named together with it, most often first."
    )
    known_names: list[str] = Field(
        default_factory=list,
        description="When nothing matched: the names the user's memory knows, most recent first.",
    )


class Turn(BaseModel):
    """One message of a conversation."""

    role: Literal["user", "assistant", "tool", "system"] = Field(description="Who spoke.")
    content: str = Field(min_length=1, description="What was said, verbatim.")
    when: str | None = Field(
        default=None,
        description="ISO 8601 time it was said, with its UTC offset ('2026-03-14T09:00:00Z'); "
        "leave empty if unknown.",
    )


# --- helpers ------------------------------------------------------------------------------


def caller_key(ctx: Context | None) -> str | None:
    """The caller's own API key on streamable HTTP (Authorization: Bearer, or X-API-Key)."""
    if ctx is None:
        return None
    try:
        headers: Mapping[str, str] | None = ctx.headers
    except (ValueError, AttributeError):  # no request context (stdio, in-process tests)
        return None
    if not headers:
        return None
    lowered = {k.lower(): v for k, v in headers.items()}
    auth = lowered.get("authorization", "")
    if auth[:7].lower() == "bearer " and auth[7:].strip():
        return auth[7:].strip()
    return lowered.get("x-api-key") or None


def ok_result(model: BaseModel) -> CallToolResult:
    data = model.model_dump(mode="json")
    return CallToolResult(
        content=[TextContent(text=json.dumps(data, ensure_ascii=False))],
        structured_content=data,
    )


def error_result(exc: ApiError) -> CallToolResult:
    where = f"; request_id {exc.request_id}" if exc.request_id else ""
    return CallToolResult(
        content=[TextContent(text=f"{exc.code}: {exc.detail} (HTTP {exc.status}{where})")],
        structured_content={"error": exc.as_dict()},
        is_error=True,
    )


def drop_none(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def id_path(prefix: str, memory_id: str) -> str:
    # Quoted: an id is a path segment, never a path.
    return f"{prefix}/{quote(memory_id.strip(), safe='')}"


def extract_output(job: dict[str, Any]) -> ExtractOutput:
    return ExtractOutput(
        job_id=job["id"],
        status=job["status"],
        memories=[
            ExtractedUnit(
                memory_id=u.get("memory_id"),
                outcome=u["outcome"],
                type=u.get("type"),
                value=u.get("value"),
                reason=u.get("reason"),
            )
            for u in job.get("units") or []
        ],
        error=job.get("error"),
    )
