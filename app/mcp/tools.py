"""The MCP tools: each turns plain-worded parameters into one REST call and the answer into
a compact result. No business logic lives here; the API validates, scopes and decides.

A tool's docstring is its description for the model: it says *when* to call it. Each
parameter's description says when and how to fill it. A failed call returns a tool error
(``isError``) whose text starts with the API's stable ``code`` and whose structured content
is ``{"error": {"code", "status", "title", "detail", "request_id"}}``.

To add a tool: write a method here that calls ``self._call``, and list it in ``TOOLS``; its
parameters go in ``app/mcp/params.py``, its output model in ``app/mcp/results.py``.
"""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult, ToolAnnotations
from pydantic import Field

from app.mcp.client import ApiError
from app.mcp.params import (
    AboutHowMany,
    AboutNamedThing,
    AboutNamedThings,
    AboutWhoOrWhat,
    AgentId,
    Conversation,
    CorrectedText,
    ExtractUserId,
    ForgetAfterDays,
    HowManyResults,
    IncludeOutdated,
    JobId,
    Kind,
    MarkAs,
    MemoryIdParam,
    RecallOnlyKinds,
    RecallTimeRange,
    RecallUserId,
    Rerank,
    SessionId,
    StoreHowSure,
    StoreKind,
    StoreNamedThings,
    StoreWhenItWillMatter,
    SummarizeOnlyKinds,
    SummarizeTimeRange,
    UpdateHowSure,
    UpdateNamedThings,
    UpdateWhenItWillMatter,
    UserId,
    UsersTimeZone,
    WaitForResult,
    WhatAmILookingFor,
    WhatToRemember,
    WhenItHappened,
)
from app.mcp.results import (
    AboutMemory,
    AboutOutput,
    ExtractOutput,
    ForgetOutput,
    RecallOutput,
    RelatedThing,
    StoredMemory,
    SummarizeOutput,
    Summary,
    UpdatedMemory,
    drop_none,
    error_result,
    extract_output,
    id_path,
    ok_result,
)
from app.mcp.review_tools import ReviewTools

# --- the tools ----------------------------------------------------------------------------


class HindsightTools(ReviewTools):
    """The tools, bound to one REST API client and pin (the review list's in ReviewTools)."""

    async def memory_store(
        self,
        what_to_remember: WhatToRemember,
        user_id: UserId,
        kind: StoreKind = None,
        when_it_will_matter: StoreWhenItWillMatter = None,
        named_things: StoreNamedThings = None,
        how_sure: StoreHowSure = 1.0,
        when_it_happened: WhenItHappened = None,
        forget_after_days: ForgetAfterDays = None,
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
                drop_none(
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
            return error_result(exc)
        result = answer["results"][0]
        memory = result["memory"]
        return ok_result(
            StoredMemory(
                id=result["id"],
                outcome=result["outcome"],
                value=memory["value"],
                type=memory["type"],
            )
        )

    async def memory_recall(
        self,
        what_am_i_looking_for: WhatAmILookingFor,
        user_id: RecallUserId = None,
        how_many_results: HowManyResults = 5,
        time_range: RecallTimeRange = None,
        only_kinds: RecallOnlyKinds = None,
        about_named_things: AboutNamedThings = None,
        include_outdated: IncludeOutdated = False,
        agent_id: AgentId = None,
        session_id: SessionId = None,
        rerank: Rerank = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, RecallOutput]:
        """Recall what you know that matters now. Call this at the start of a task, before
        answering a question about the user or their past, and before acting on their behalf
        (to respect their constraints and preferences). Returns the most relevant memories,
        best first, each with its relevance (0..1, comparable across questions)."""
        body = drop_none(
            {
                "query": what_am_i_looking_for,
                "user_id": user_id,
                "agent_id": agent_id,
                "session_id": session_id,
                "top_k": how_many_results,
                "time_range": time_range,
                "types": only_kinds or None,  # [] means "no filter" here; the API refuses []
                "entities": about_named_things or None,
                "include_superseded": include_outdated or None,
                "rerank": rerank,
            }
        )
        try:
            answer = await self._call(ctx, "POST", "/recall", json=body)
        except ApiError as exc:
            return error_result(exc)
        return ok_result(RecallOutput.model_validate(answer))  # the API's fields it names

    async def memory_update(
        self,
        memory_id: MemoryIdParam,
        corrected_text: CorrectedText = None,
        when_it_will_matter: UpdateWhenItWillMatter = None,
        named_things: UpdateNamedThings = None,
        how_sure: UpdateHowSure = None,
        kind: Annotated[Kind | None, Field(description="New kind; leave empty to keep.")] = None,
        mark_as: MarkAs = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, UpdatedMemory]:
        """Correct a memory you recalled. Call this when the user says something you
        remembered is wrong or has changed ("I moved to Berlin", "that's not my email"), or
        to mark a memory as wrong or no longer relevant. Give the memory's id and only what
        changes. To replace a fact with a newer one, you may also just store the new fact."""
        body = drop_none(
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
            path = id_path("/memories", memory_id)
            answer = await self._call(ctx, "PATCH", path, json=body, params=self._scope(ctx))
        except ApiError as exc:
            return error_result(exc)
        memory = answer["memory"]
        return ok_result(
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
            path = id_path("/memories", memory_id)
            answer = await self._call(ctx, "DELETE", path, params=self._scope(ctx))
        except ApiError as exc:
            return error_result(exc)
        kept = answer.get("sources_kept") or []
        return ok_result(
            ForgetOutput(
                forgotten=memory_id,
                removed=answer["removed"],
                still_in_conversation=kept,
                current_again=answer.get("restored") or [],
            )
        )

    async def memory_extract(
        self,
        user_id: ExtractUserId = None,
        conversation: Conversation = None,
        session_id: SessionId = None,
        wait_for_result: WaitForResult = False,
        users_time_zone: UsersTimeZone = "UTC",
        job_id: JobId = None,
        agent_id: AgentId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, ExtractOutput]:
        """Look back over a finished conversation or task and keep what is worth
        remembering, without storing each fact yourself. Call this when a task is done or
        the conversation ends: pass the conversation (or the session_id whose transcript the
        service holds). The service picks the facts, preferences and constraints that matter
        later. Pass only job_id to check on an earlier call. A statement asking to forget
        something comes back dropped with a `reason`: find the memories it names and call
        memory_forget on them."""
        try:
            if job_id:
                path = id_path("/extract", job_id)
                job = await self._call(ctx, "GET", path, params=self._scope(ctx))
                return ok_result(extract_output(job))
            body = drop_none(
                {
                    "user_id": user_id,
                    "agent_id": agent_id,
                    "session_id": session_id,
                    "messages": [
                        drop_none({"role": t.role, "content": t.content, "created_at": t.when})
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
            return error_result(exc)
        return ok_result(extract_output(job))

    async def memory_summarize(
        self,
        user_id: UserId,
        about_named_thing: AboutNamedThing = None,
        time_range: SummarizeTimeRange = None,
        only_kinds: SummarizeOnlyKinds = None,
        agent_id: AgentId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, SummarizeOutput]:
        """Consolidate many small memories about the same thing into a few summaries (the
        originals are archived and linked, not lost). Call this when recall keeps returning
        many overlapping memories about one topic, or at the end of a long project."""
        body = drop_none(
            {
                "user_id": user_id,
                "agent_id": agent_id,
                "entity": about_named_thing,
                "time_range": time_range,
                "types": only_kinds or None,
            }
        )
        try:
            answer = await self._call(ctx, "POST", "/summarize", json=body)
        except ApiError as exc:
            return error_result(exc)
        return ok_result(
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
                remaining=answer.get("remaining", 0),
            )
        )

    async def memory_about(
        self,
        who_or_what: AboutWhoOrWhat,
        user_id: UserId,
        how_many: AboutHowMany = 20,
        agent_id: AgentId = None,
        session_id: SessionId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, AboutOutput]:
        """Get everything remembered about one person, place or thing the user has talked
        about: its memories in time order and what it is connected to. Call this when the
        user asks about someone or something by name ("what do we know about Caroline?",
        "remind me about the Lisbon trip"), or before acting on something named. If the name
        is not known, the answer lists the names that are."""
        scope = drop_none({"user_id": user_id, "agent_id": agent_id, "session_id": session_id})
        try:
            found = await self._call(
                ctx, "GET", "/entities", params={**scope, "mentioned_in": who_or_what, "limit": 1}
            )
            # Not mentioned as a known name or alias: the text itself may be a spelling of one.
            names = [e["name"] for e in found["entities"]] or [who_or_what.strip()[:200]]
            try:
                profile = await self._call(
                    ctx,
                    "GET",
                    id_path("/entities", names[0]),
                    params={**scope, "limit": how_many, "neighbours": 10},
                )
            except ApiError as exc:
                if exc.status not in (404, 422):
                    raise
                known = await self._call(ctx, "GET", "/entities", params={**scope, "limit": 50})
                return ok_result(
                    AboutOutput(entity=None, known_names=[e["name"] for e in known["entities"]])
                )
        except ApiError as exc:
            return error_result(exc)
        return ok_result(
            AboutOutput(
                entity=profile["name"],
                aliases=profile["aliases"],
                memory_count=profile["unit_count"],
                memories=[AboutMemory.model_validate(u) for u in profile["units"]],
                related=[
                    RelatedThing(name=n["name"], times=n["weight"]) for n in profile["neighbours"]
                ],
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
    "memory_about": [("get", "/entities"), ("get", "/entities/{name}")],
    "memory_reviews": [("get", "/reviews")],
    "memory_review_decide": [("post", "/reviews/{review_id}")],
}

# Tool name (= method name) → hints for clients. Order is the order clients list them in.
TOOLS: dict[str, ToolAnnotations] = {
    "memory_store": ToolAnnotations(read_only_hint=False, destructive_hint=False),
    "memory_recall": ToolAnnotations(read_only_hint=True),
    "memory_update": ToolAnnotations(read_only_hint=False, destructive_hint=False),
    "memory_forget": ToolAnnotations(read_only_hint=False, destructive_hint=True),
    "memory_extract": ToolAnnotations(read_only_hint=False, destructive_hint=False),
    "memory_summarize": ToolAnnotations(read_only_hint=False, destructive_hint=False),
    "memory_about": ToolAnnotations(read_only_hint=True),
    "memory_reviews": ToolAnnotations(read_only_hint=True),
    "memory_review_decide": ToolAnnotations(read_only_hint=False, destructive_hint=False),
}
