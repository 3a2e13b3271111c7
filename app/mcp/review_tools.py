"""The base of the MCP tools (a REST client, the caller's key, the pinned user:
app/mcp/pin.py), and the tools of the review list (docs/DEDUPE.md, "Working the review
list"): list the pairs of memories Hindsight could not tell apart, and decide one. Thin
clients of ``GET /reviews`` and ``POST /reviews/{id}``, like every tool (app/mcp/tools.py)."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import Context
from mcp.types import CallToolResult

from app.mcp.client import ApiError, RestApi
from app.mcp.params import AgentId, PairDecision, ReviewId, ReviewKind, ReviewsHowMany, UserId
from app.mcp.pin import context_headers, pinned_user, scope
from app.mcp.results import (
    PairToReview,
    ReviewDecisionOutput,
    ReviewsOutput,
    caller_key,
    drop_none,
    error_result,
    id_path,
    ok_result,
)


class BoundTools:
    """Tools bound to one REST API client and, over stdio, to the user ``MCP__USER_ID``
    pins (``pin``; over HTTP the request's header pins: :func:`app.mcp.pin.pinned_user`)."""

    def __init__(self, api: RestApi, pin: str | None = None) -> None:
        self.api = api
        self.pin = pin or None

    async def _call(self, ctx: Context | None, method: str, path: str, **kwargs: Any) -> Any:
        return await self.api.call(method, path, api_key=caller_key(ctx), **kwargs)

    def _scope(self, ctx: Context | None) -> dict[str, str] | None:
        """``{"user_id": <pin>}`` for a call by id on a pinned connection, else None (the
        server checked the header before the call: app/mcp/server.py)."""
        return scope(pinned_user(context_headers(ctx), self.pin))


class ReviewTools(BoundTools):
    """The review tools; :class:`app.mcp.tools.HindsightTools` adds the others."""

    async def memory_reviews(
        self,
        user_id: UserId,
        kind: ReviewKind = None,
        how_many: ReviewsHowMany = 10,
        agent_id: AgentId = None,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, ReviewsOutput]:
        """List pairs of the user's memories that Hindsight could not tell apart: maybe the
        same fact said twice, maybe a newer value replacing an older one, maybe two facts.
        Call this when the user wants to tidy their memory or asks why two memories
        disagree; then ask the user (or judge from the conversation) and call
        memory_review_decide for each pair."""
        params = drop_none({"user_id": user_id, "agent_id": agent_id, "kind": kind,
                            "limit": how_many})  # fmt: skip
        try:
            page = await self._call(ctx, "GET", "/reviews", params=params)
        except ApiError as exc:
            return error_result(exc)
        return ok_result(
            ReviewsOutput(
                pairs=[
                    PairToReview(
                        review_id=r["id"],
                        kind=r["kind"],
                        newer=(r["unit"] or {}).get("value"),
                        existing=(r["candidate"] or {}).get("value"),
                        why=r["reason"],
                        opened_at=r["created_at"],
                    )
                    for r in page["reviews"]
                ],
                more=page["next_cursor"] is not None,
            )
        )

    async def memory_review_decide(
        self,
        review_id: ReviewId,
        decision: PairDecision,
        ctx: Context | None = None,
    ) -> Annotated[CallToolResult, ReviewDecisionOutput]:
        """Decide one pair listed by memory_reviews: `merge` when both say the same thing,
        `supersede` when the newer one replaces the existing one, `keep_both` when they are
        two different facts. Call this only once you know which is right; deciding the same
        way twice is harmless, deciding a pair already decided otherwise is an error."""
        try:
            answer = await self._call(
                ctx,
                "POST",
                id_path("/reviews", review_id),
                json={"action": decision},
                params=self._scope(ctx),
            )
        except ApiError as exc:
            return error_result(exc)
        review = answer["review"]
        return ok_result(
            ReviewDecisionOutput(
                review_id=review["id"], decision=review["decision"], changed=answer["changed"]
            )
        )
