"""The MCP tools: each turns plain-worded parameters into one REST call and the answer into
a compact result. No business logic lives here; the API validates, scopes and decides.

A tool's docstring is its description for the model: it says *when* to call it. Each
parameter's description says when and how to fill it. A failed call returns a tool error
(``isError``) whose text starts with the API's stable ``code`` and whose structured content
is ``{"error": {"code", "status", "title", "detail", "request_id"}}``.

To add a tool: write a method here that calls ``self._call``, and list it in ``TOOLS``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Annotated, Any, Literal
from urllib.parse import quote

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel, Field

from app.mcp.client import ApiError, RestApi

Kind = Literal["fact", "preference", "constraint", "action", "result", "event"]
TimeRange = Literal["last_24_hours", "last_7_days", "last_30_days"]

# --- parameters shared by several tools -------------------------------------------------

UserId = Annotated[
    str,
    Field(
        min_length=1,
        max_length=256,
        description="The id of the person the memory is about, exactly as your application "
        "names them (for example 'user-42'). Always the same id for the same person.",
    ),
]
AgentId = Annotated[
    str | None,
    Field(
        max_length=256,
        description="Your own agent id, only when memories should be kept apart per agent; "
        "leave empty to share memories across agents.",
    ),
]
SessionId = Annotated[
    str | None,
    Field(
        max_length=256,
        description="The current conversation's id, only when the memory belongs to this "
        "session; leave empty otherwise.",
    ),
]


# --- outputs ------------------------------------------------------------------------------


class StoredMemory(BaseModel):
    """What happened to a memory given to ``memory_store``."""

    id: str = Field(description="The memory's id (for memory_update / memory_forget).")
    outcome: str = Field(
        description="created (new), merged (it restated a known memory), superseded "
        "(it replaced an older, contradicting one) or conflict (kept beside one it "
        "contradicts)."
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
    score: float = Field(description="Relevance 0..1 (weighted sum of the signals).")
    status: str
    conflicts_with: list[str] = Field(
        default_factory=list, description="Ids of memories this one contradicts."
    )


class RecallOutput(BaseModel):
    """The memories that matter for what you are looking for."""

    memories: list[RecalledMemory]
    degraded: bool = Field(description="True when the search was cut short to answer fast.")


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


class ForgetOutput(BaseModel):
    """Proof that a memory is gone."""

    forgotten: str = Field(description="The id that was forgotten.")
    removed: dict[str, int] = Field(description="What was deleted, per kind.")


class ExtractedUnit(BaseModel):
    """What became of one memory found in the conversation."""

    memory_id: str | None = None
    outcome: str = Field(
        description="created, merged, superseded, conflict, dropped (not confident enough) "
        "or rejected (malformed)."
    )
    type: str | None = None
    value: str | None = None


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


class Turn(BaseModel):
    """One message of a conversation."""

    role: Literal["user", "assistant", "tool", "system"] = Field(description="Who spoke.")
    content: str = Field(min_length=1, description="What was said, verbatim.")
    when: str | None = Field(
        default=None, description="ISO 8601 time it was said; leave empty if unknown."
    )


# --- helpers ------------------------------------------------------------------------------


def _caller_key(ctx: Context | None) -> str | None:
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


def _ok(model: BaseModel) -> CallToolResult:
    data = model.model_dump(mode="json")
    return CallToolResult(
        content=[TextContent(text=json.dumps(data, ensure_ascii=False))],
        structured_content=data,
    )


def _error(exc: ApiError) -> CallToolResult:
    where = f"; request_id {exc.request_id}" if exc.request_id else ""
    return CallToolResult(
        content=[TextContent(text=f"{exc.code}: {exc.detail} (HTTP {exc.status}{where})")],
        structured_content={"error": exc.as_dict()},
        is_error=True,
    )


def _drop_none(body: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def _id_path(prefix: str, memory_id: str) -> str:
    # Quoted: an id is a path segment, never a path.
    return f"{prefix}/{quote(memory_id.strip(), safe='')}"


def _extract_output(job: dict[str, Any]) -> ExtractOutput:
    return ExtractOutput(
        job_id=job["id"],
        status=job["status"],
        memories=[
            ExtractedUnit(
                memory_id=u.get("memory_id"),
                outcome=u["outcome"],
                type=u.get("type"),
                value=u.get("value"),
            )
            for u in job.get("units") or []
        ],
        error=job.get("error"),
    )


MemoryIdParam = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        description="The memory's id, exactly as memory_recall or memory_store returned it.",
    ),
]


# --- the tools ----------------------------------------------------------------------------


class HindsightTools:
    """The tools, bound to one REST API client."""

    def __init__(self, api: RestApi) -> None:
        self.api = api

    async def _call(self, ctx: Context | None, method: str, path: str, **kwargs: Any) -> Any:
        return await self.api.call(method, path, api_key=_caller_key(ctx), **kwargs)

    async def memory_store(
        self,
        what_to_remember: Annotated[
            str,
            Field(
                min_length=1,
                max_length=2000,
                description="One self-contained sentence worth knowing in a later "
                "conversation, in the user's language, keeping negations and conditions "
                "('The user does NOT eat pork', 'The user prefers window seats on long "
                "flights'). Resolve relative times to dates.",
            ),
        ],
        user_id: UserId,
        kind: Annotated[
            Kind,
            Field(
                description="fact (true about the world or user), preference (likes, wants), "
                "constraint (must / must not), action (something done), result (an outcome), "
                "event (something that happens at a time)."
            ),
        ] = "fact",
        when_it_will_matter: Annotated[
            str | None,
            Field(
                max_length=2000,
                description="The situation in which this should come to mind, written as a "
                "scenario: 'when the user plans a trip' — not a restatement of the memory. "
                "Leave empty if unsure.",
            ),
        ] = None,
        named_things: Annotated[
            list[str] | None,
            Field(
                max_length=50,
                description="People, places, products and codes the memory names "
                "(['Alice', 'Shanghai', '600519']); they make later recall exact.",
            ),
        ] = None,
        how_sure: Annotated[
            float,
            Field(ge=0, le=1, description="Confidence 0..1: 1 when the user said it plainly."),
        ] = 1.0,
        when_it_happened: Annotated[
            str | None,
            Field(
                description="ISO 8601 date or time the memory refers to ('2026-03-14' or "
                "'2026-03-14T09:00:00Z'); leave empty for 'now'."
            ),
        ] = None,
        forget_after_days: Annotated[
            float | None,
            Field(
                gt=0,
                description="Only for short-lived things: forget after this many days. "
                "Leave empty to use the default lifetime of its kind.",
            ),
        ] = None,
        agent_id: AgentId = None,
        session_id: SessionId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, StoredMemory]:
        """Remember something for later conversations. Call this when the user states a
        fact about themselves, a preference, a constraint ("never book red-eye flights"), or
        when a task produced a result worth knowing next time. Store one memory per call;
        restating a known memory merges with it instead of duplicating it."""
        body = {
            "memories": [
                _drop_none(
                    {
                        "user_id": user_id,
                        "agent_id": agent_id,
                        "session_id": session_id,
                        "type": kind,
                        "value": what_to_remember,
                        "query": when_it_will_matter,
                        "entities": named_things,
                        "confidence": how_sure,
                        "occurred_at": when_it_happened,
                        "ttl_days": forget_after_days,
                        "source": "agent",
                    }
                )
            ]
        }
        try:
            answer = await self._call(ctx, "POST", "/store", json=body)
        except ApiError as exc:
            return _error(exc)
        result = answer["results"][0]
        memory = result["memory"]
        return _ok(
            StoredMemory(
                id=result["id"],
                outcome=result["outcome"],
                value=memory["value"],
                type=memory["type"],
            )
        )

    async def memory_recall(
        self,
        what_am_i_looking_for: Annotated[
            str,
            Field(
                min_length=1,
                max_length=2000,
                description="What you need to know, as a question or a situation: 'what "
                "food can't the user eat?', 'the user wants to book a weekend trip'.",
            ),
        ],
        user_id: Annotated[
            str | None,
            Field(
                max_length=256,
                description="The person whose memories to search (give this, agent_id or "
                "session_id: at least one).",
            ),
        ] = None,
        how_many_results: Annotated[
            int,
            Field(
                ge=1,
                le=100,
                description="How many memories to return, best first. 5 is usually enough; "
                "ask for more when listing ('all the user's allergies').",
            ),
        ] = 5,
        time_range: Annotated[
            TimeRange | None,
            Field(
                description="Only memories from this recent window; leave empty for all "
                "time (most questions)."
            ),
        ] = None,
        only_kinds: Annotated[
            list[Kind] | None,
            Field(description="Only these kinds, e.g. ['constraint'] before acting."),
        ] = None,
        about_named_things: Annotated[
            list[str] | None,
            Field(
                max_length=50,
                description="Only memories naming at least one of these people, places or "
                "codes; leave empty unless you are sure of the exact name.",
            ),
        ] = None,
        include_outdated: Annotated[
            bool,
            Field(
                description="Also return memories replaced by newer ones (for history "
                "questions like 'where did the user live before?')."
            ),
        ] = False,
        rerank: Annotated[
            Literal["none", "llm"] | None,
            Field(
                description="'llm': the memory server's own LLM puts the best candidates in "
                "order of relevance (more precise, slower; an error where the server has no "
                "LLM). 'none': the fast ranking only. Leave empty for the server's default."
            ),
        ] = None,
        agent_id: AgentId = None,
        session_id: SessionId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, RecallOutput]:
        """Recall what you know that matters now. Call this at the start of a task, before
        answering a question about the user or their past, and before acting on their behalf
        (to respect their constraints and preferences). Returns the most relevant memories,
        best first, each with a relevance score."""
        body = _drop_none(
            {
                "query": what_am_i_looking_for,
                "user_id": user_id,
                "agent_id": agent_id,
                "session_id": session_id,
                "top_k": how_many_results,
                "time_range": time_range,
                "types": only_kinds,
                "entities": about_named_things,
                "include_superseded": include_outdated or None,
                "rerank": rerank,
            }
        )
        try:
            answer = await self._call(ctx, "POST", "/recall", json=body)
        except ApiError as exc:
            return _error(exc)
        return _ok(
            RecallOutput(
                memories=[RecalledMemory.model_validate(m) for m in answer["memories"]],
                degraded=answer["degraded"],
            )
        )

    async def memory_update(
        self,
        memory_id: MemoryIdParam,
        corrected_text: Annotated[
            str | None,
            Field(
                min_length=1,
                max_length=2000,
                description="The corrected memory, as one self-contained sentence; leave "
                "empty to keep the text.",
            ),
        ] = None,
        when_it_will_matter: Annotated[
            str | None,
            Field(max_length=2000, description="A new trigger scenario; leave empty to keep."),
        ] = None,
        named_things: Annotated[
            list[str] | None,
            Field(max_length=50, description="Replaces the named things; leave empty to keep."),
        ] = None,
        how_sure: Annotated[
            float | None, Field(ge=0, le=1, description="New confidence 0..1; empty keeps it.")
        ] = None,
        kind: Annotated[Kind | None, Field(description="New kind; leave empty to keep.")] = None,
        mark_as: Annotated[
            Literal["invalid", "archived", "active"] | None,
            Field(
                description="invalid: the memory is wrong (kept for the record, never "
                "recalled); archived: no longer relevant; active: restore one. Leave empty "
                "to keep."
            ),
        ] = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, UpdatedMemory]:
        """Correct a memory you recalled. Call this when the user says something you
        remembered is wrong or has changed ("I moved to Berlin", "that's not my email"), or
        to mark a memory as wrong or no longer relevant. Give the memory's id and only what
        changes. To replace a fact with a newer one, you may also just store the new fact."""
        body = _drop_none(
            {
                "value": corrected_text,
                "query": when_it_will_matter,
                "entities": named_things,
                "confidence": how_sure,
                "type": kind,
                "status": mark_as,
            }
        )
        try:
            answer = await self._call(ctx, "PATCH", _id_path("/memories", memory_id), json=body)
        except ApiError as exc:
            return _error(exc)
        memory = answer["memory"]
        return _ok(
            UpdatedMemory(
                id=answer["id"],
                outcome=answer["outcome"],
                value=memory["value"],
                type=memory["type"],
                status=memory["status"],
            )
        )

    async def memory_forget(
        self, memory_id: MemoryIdParam, ctx: Context | None = None
    ) -> Annotated[CallToolResult, ForgetOutput]:
        """Forget a memory for good (it is deleted, not archived). Call this only when the
        user asks you to forget something specific, or a memory holds what must not be kept
        (a password, a secret). To mark a memory as wrong but keep the record, use
        memory_update with mark_as='invalid' instead."""
        try:
            answer = await self._call(ctx, "DELETE", _id_path("/memories", memory_id))
        except ApiError as exc:
            return _error(exc)
        return _ok(ForgetOutput(forgotten=memory_id, removed=answer["removed"]))

    async def memory_extract(
        self,
        user_id: Annotated[
            str | None,
            Field(
                max_length=256,
                description="The person the conversation is about (required unless "
                "job_id is given).",
            ),
        ] = None,
        conversation: Annotated[
            list[Turn] | None,
            Field(
                max_length=500,
                description="The finished conversation, oldest message first. Leave empty to "
                "use the transcript the service holds for session_id.",
            ),
        ] = None,
        session_id: SessionId = None,
        wait_for_result: Annotated[
            bool,
            Field(
                description="true: wait and return the memories found (slower); false: "
                "return at once with a job_id to check later."
            ),
        ] = False,
        users_time_zone: Annotated[
            str,
            Field(
                max_length=64,
                description="The user's IANA time zone ('Europe/Paris'), so 'tomorrow' "
                "becomes the right date.",
            ),
        ] = "UTC",
        job_id: Annotated[
            str | None,
            Field(
                max_length=64,
                description="Only to check on an earlier extraction: its job_id. Leave the "
                "other parameters empty then.",
            ),
        ] = None,
        agent_id: AgentId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, ExtractOutput]:
        """Look back over a finished conversation or task and keep what is worth
        remembering, without storing each fact yourself. Call this when a task is done or
        the conversation ends: pass the conversation (or the session_id whose transcript the
        service holds). The service picks the facts, preferences and constraints that matter
        later. Pass only job_id to check on an earlier call."""
        try:
            if job_id:
                job = await self._call(ctx, "GET", _id_path("/extract", job_id))
                return _ok(_extract_output(job))
            body = _drop_none(
                {
                    "user_id": user_id,
                    "agent_id": agent_id,
                    "session_id": session_id,
                    "messages": [
                        _drop_none({"role": t.role, "content": t.content, "created_at": t.when})
                        for t in conversation
                    ]
                    if conversation
                    else None,
                    "timezone": users_time_zone,
                    "mode": "sync" if wait_for_result else "async",
                }
            )
            job = await self._call(ctx, "POST", "/extract", json=body)
        except ApiError as exc:
            return _error(exc)
        return _ok(_extract_output(job))

    async def memory_summarize(
        self,
        user_id: UserId,
        about_named_thing: Annotated[
            str | None,
            Field(
                max_length=200,
                description="Only consolidate memories naming this person, place or thing; "
                "leave empty to consolidate every group of related memories.",
            ),
        ] = None,
        time_range: Annotated[
            TimeRange | None,
            Field(description="Only memories from this recent window; empty for all time."),
        ] = None,
        only_kinds: Annotated[
            list[Kind] | None, Field(description="Only memories of these kinds.")
        ] = None,
        agent_id: AgentId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, SummarizeOutput]:
        """Consolidate many small memories about the same thing into a few summaries (the
        originals are archived and linked, not lost). Call this when recall keeps returning
        many overlapping memories about one topic, or at the end of a long project."""
        body = _drop_none(
            {
                "user_id": user_id,
                "agent_id": agent_id,
                "entity": about_named_thing,
                "time_range": time_range,
                "types": only_kinds,
            }
        )
        try:
            answer = await self._call(ctx, "POST", "/summarize", json=body)
        except ApiError as exc:
            return _error(exc)
        return _ok(
            SummarizeOutput(
                summaries=[
                    Summary(
                        id=x["id"],
                        entity=x["entity"],
                        value=x["memory"]["value"],
                        replaced=len(x["source_ids"]),
                    )
                    for x in answer["summaries"]
                ],
                archived=answer["archived"],
            )
        )


# The REST operations each tool calls (tests check each exists in the API's OpenAPI document).
ENDPOINTS: dict[str, list[tuple[str, str]]] = {
    "memory_store": [("post", "/store")],
    "memory_recall": [("post", "/recall")],
    "memory_update": [("patch", "/memories/{memory_id}")],
    "memory_forget": [("delete", "/memories/{memory_id}")],
    "memory_extract": [("post", "/extract"), ("get", "/extract/{job_id}")],
    "memory_summarize": [("post", "/summarize")],
}

# Tool name (= method name) → hints for clients. Order is the order clients list them in.
TOOLS: dict[str, ToolAnnotations] = {
    "memory_store": ToolAnnotations(read_only_hint=False, destructive_hint=False),
    "memory_recall": ToolAnnotations(read_only_hint=True),
    "memory_update": ToolAnnotations(read_only_hint=False, destructive_hint=False),
    "memory_forget": ToolAnnotations(read_only_hint=False, destructive_hint=True),
    "memory_extract": ToolAnnotations(read_only_hint=False, destructive_hint=False),
    "memory_summarize": ToolAnnotations(read_only_hint=False, destructive_hint=False),
}
