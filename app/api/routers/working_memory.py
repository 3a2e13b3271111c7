"""``/working_memory/{session_id}``: append messages, read the window, clear, close the task."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response
from pydantic import AfterValidator

from app.api.deps import (
    ClosureServiceDep,
    EmbeddingBudgetDep,
    ExtractionServiceDep,
    IdempotencyServiceDep,
    NamespaceDep,
    WorkingMemoryServiceDep,
)
from app.api.errors import ERROR_RESPONSES, PROVIDER_ERRORS, SESSION_NOT_FOUND
from app.api.idempotent import IdempotencyKey, once
from app.api.scope import SessionScope
from app.api.wire import job_read, to_omitted_message, to_window_message
from app.schemas.common import addressable_session, identifier, not_blank
from app.schemas.extract import CloseRequest, CloseResponse
from app.schemas.working_memory import (
    SESSION_ID_PATTERN,
    AppendRequest,
    AppendResponse,
    ClearResponse,
    SessionSize,
    WindowQuery,
    WindowResponse,
)
from app.services.embedding_budget import Text
from app.services.said_at import refuse_far_now, refuse_future_messages

# Per-route tags: closing a session is filed under extraction (the job it creates).
router = APIRouter(prefix="/working_memory")

SessionIdPath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=256,
        pattern=SESSION_ID_PATTERN,
        description="The session (1..256 characters without control characters; an append "
        "refuses `.` and `..`, and a `/` cannot be in a path).",
    ),
    # Not blank, like every other session_id (Identifier): a blank one could be written to
    # but never named again by /extract, /recall or /memories; and, like every id, no bidi,
    # invisible or noncharacters (app/core/identifiers.py).
    AfterValidator(not_blank),
    AfterValidator(identifier),
]
# An append starts or extends a session: its id must be one this path can name again (no
# "." or ".."; a "/" never reaches here). Reads, clears and closes take any id.
NewSessionIdPath = Annotated[
    str,
    Path(
        min_length=1,
        max_length=256,
        pattern=SESSION_ID_PATTERN,
        description="The session (1..256 characters without control characters, not `.` "
        "or `..`; a `/`, even as `%2F`, cannot be in a path).",
    ),
    AfterValidator(not_blank),
    AfterValidator(identifier),
    AfterValidator(addressable_session),
]


@router.post(
    "/{session_id}/messages",
    operation_id="append_working_memory",
    tags=["working memory"],
    response_model=AppendResponse,
    responses={**ERROR_RESPONSES, **SESSION_NOT_FOUND},
)
async def append_messages(
    service: WorkingMemoryServiceDep,
    session_id: NewSessionIdPath,
    body: AppendRequest,
    namespace: NamespaceDep,
    closure: ClosureServiceDep,
    budget: EmbeddingBudgetDep,
    response: Response,
    idempotency: IdempotencyServiceDep,
    user_id: SessionScope = None,
    idempotency_key: IdempotencyKey = None,
) -> Any:
    """Append 1..100 messages (`role`: user | assistant | tool | system, `content`, optional
    `name`, `created_at`, `user_id`, `metadata`) to a session, in order. Each is counted with the
    service's tokenizer (default o200k_base), written to the durable transcript with a
    per-session sequence number (`seqs`), and, after that commits, added to the session's hot
    window in Redis (idle TTL refreshed; past the hard caps the oldest leave the window, never
    the transcript). The answer does not wait for the embedding model: each message is
    embedded once, right after, by the service in the background; a read with a `query`
    embeds some itself within its own budget and waits at most `WORKING_MEMORY__EMBED_WAIT_MS`
    (default 2000 ms) for the rest. Returns the seqs, each message's
    content tokens and the session's size (messages, tokens). A message is kept whole, but
    the embedding model reads only its first window, at most `LIMITS__TEXT_TOKENS` (384)
    model tokens: `embedded_first_window` lists the seqs of messages longer than that (their
    relevance ranking sees their beginning only). The windows of one append (a text sent
    twice counted once) may come to at most `LIMITS__REQUEST_TOKENS` (384) model tokens, as
    the texts of a `/store` do: past it a 422 `too_many_tokens` gives the limit, the count,
    each message's window tokens (`errors[0].item_tokens`) and how many of the first messages
    fit; split the append there (the clients do it for you). One message always fits.
    With an `Idempotency-Key` header a retry of the same append (same session, scope and
    body) returns the first answer (header `Idempotent-Replayed: true`) and appends nothing;
    the same key with another append is a 422 `idempotency_key_reused`.
    Errors: 422 bad input (nothing written; also a `created_at` more than 5 minutes ahead of
    the server's clock, "created_at is in the future", which names the server's time), 404
    `not_found` when the session is another user's than the `?user_id=` scope or a
    message's `user_id`, 409 `conflict` when the append is at odds with itself on a new
    session (its messages name two users, or one that is not the scope; nothing written
    either way), 429 `rate_limited` past the caller's embedding limits (nothing written),
    503 Redis
    unavailable with `Retry-After` (nothing written: Redis is asked before the transcript is
    written, so a retry appends once). If Redis fails only after the transcript committed,
    the answer is still 200 (the messages are durable): the window is marked stale and they
    are written to it as soon as Redis answers. A window Redis lost is restored from the
    transcript with the next append or read."""
    long = await budget.message_windows(
        [Text(("messages", i, "content"), m.content) for i, m in enumerate(body.messages)]
    )

    async def action() -> tuple[dict[str, Any], int]:
        now = datetime.now(UTC)
        refuse_future_messages(
            [m.created_at for m in body.messages], now, "messages.{i}.created_at"
        )
        result = await service.append(namespace, session_id, body.messages, now, scope=user_id)
        # Task closure: two of three signals (only evaluated when this append can change them).
        await closure.after_append(
            namespace, session_id, body.messages, owner_changed=result.owner_changed
        )
        return AppendResponse(
            session_id=session_id,
            seqs=result.seqs,
            tokens=result.tokens,
            session=SessionSize(messages=result.session_messages, tokens=result.session_tokens),
            embedded_first_window=[s for s, cut in zip(result.seqs, long, strict=True) if cut],
        ).model_dump(mode="json"), 200

    request = {"append": session_id, "user_id": user_id, "body": body.model_dump(mode="json")}
    payload, _ = await once(idempotency, namespace, idempotency_key, request, action, response)
    return payload


@router.get(
    "/{session_id}",
    operation_id="get_working_memory",
    tags=["working memory"],
    response_model=WindowResponse,
    responses={**ERROR_RESPONSES, **SESSION_NOT_FOUND, **PROVIDER_ERRORS},
)
async def get_window(
    service: WorkingMemoryServiceDep,
    session_id: SessionIdPath,
    params: Annotated[WindowQuery, Query()],
    namespace: NamespaceDep,
    embedding: EmbeddingBudgetDep,
) -> WindowResponse:
    """The session's window for a token budget. Messages are scored by recency
    (0.5^(newer messages/20)), relevance (cosine similarity to `query`, min-max scaled; left
    out without a query) and information density (numbers, names, codes, parameters); the
    budget (`max_tokens`, default 4000, minus 20% headroom for the answer) is filled in score
    order counting content tokens plus 4 per message, and the chosen messages come back in
    time (seq) order with their tokens and scores. A message larger than the whole budget
    is cut in the middle and marked `truncated`; every message left out is listed in
    `omitted_seqs`, and with `include_omitted=true` in `omitted` with its content, scores,
    rank by score, the tokens it needed and those still free when its turn came. An expired
    or unknown session has an empty window (an unknown session is an empty one on every
    working-memory operation, never a 404). A `query` over `LIMITS__TEXT_TOKENS` model tokens
    is a 422. The read embeds itself the messages whose vectors are not ready yet (the
    background embeds each message after its append), newest first, as long as the query and
    their first windows come to at most `LIMITS__REQUEST_TOKENS` model tokens; it waits for
    the others this process is still embedding after their append (their append paid for
    them) at most `WORKING_MEMORY__EMBED_WAIT_MS` (default 2000 ms) in all; any still without
    a vector then are ranked without relevance (recency and density only) and listed in
    `unembedded_seqs` (their `why` says so too), and the background embeds them for the next
    read. With `user_id`, a session of another user is a 404 `not_found`, as another user's
    unit is."""
    await service.check_scope(namespace, session_id, params.user_id)
    spent = 0
    if params.query:
        counts = await embedding.check([Text(("query",), params.query, query=True)], source="query")
        spent = counts[0]
    budget = service.budget_for(params.max_tokens)
    result = await service.window(
        namespace,
        session_id,
        params.query,
        budget,
        embed_tokens=max(0, embedding.limits.request_tokens - spent),
    )
    return WindowResponse(
        session_id=session_id,
        messages=[to_window_message(c) for c in result.selection.chosen],
        query=params.query,
        max_tokens=params.max_tokens or service.settings.default_max_tokens,
        budget_tokens=budget,
        used_tokens=result.selection.used_tokens,
        window_messages=result.window_messages,
        omitted_seqs=result.selection.omitted_seqs,
        omitted=[to_omitted_message(x) for x in result.selection.left_out]
        if params.include_omitted
        else None,
        unembedded_seqs=result.unembedded_seqs,
        took_ms=round(result.took_ms, 3),
    )


@router.delete(
    "/{session_id}",
    operation_id="clear_working_memory",
    tags=["working memory"],
    response_model=ClearResponse,
    responses={**ERROR_RESPONSES, **SESSION_NOT_FOUND},
)
async def clear_window(
    service: WorkingMemoryServiceDep,
    session_id: SessionIdPath,
    namespace: NamespaceDep,
    extraction: ExtractionServiceDep,
    purge: Annotated[
        bool, Query(description="Also delete the durable transcript of the session.")
    ] = False,
    user_id: SessionScope = None,
) -> ClearResponse:
    """Clear the session's hot window. The durable transcript stays (later extraction reads
    it) unless `purge=true`, which deletes it too and cancels the session's extraction jobs
    that have not written their units yet (`extraction_cancelled`; until 2026-12-07 a job
    queued by a close extracted the purged messages afterwards). Idempotent: an unknown
    session answers 200 with `window_cleared: false`. With `user_id`, a session of another
    user is a 404 `not_found` (nothing cleared)."""
    await service.check_scope(namespace, session_id, user_id)
    result = await service.clear(namespace, session_id, purge)
    cancelled = list(await extraction.cancel_for_purge(namespace, session_id)) if purge else []
    return ClearResponse(
        session_id=session_id,
        window_cleared=result.window_cleared,
        transcript_purged=result.transcript_purged,
        extraction_cancelled=cancelled,
    )


@router.post(
    "/{session_id}/close",
    operation_id="close_session",
    response_model=CloseResponse,
    responses={**ERROR_RESPONSES, **SESSION_NOT_FOUND},
    tags=["extraction"],
)
async def close_session(
    namespace: NamespaceDep,
    service: ClosureServiceDep,
    session_id: SessionIdPath,
    body: CloseRequest | None = None,
    user_id: SessionScope = None,
) -> CloseResponse:
    """Close the session's task: its messages not yet extracted become an extraction job
    (queued; poll `GET /extract/{job.id}`). Idempotent: closing again with no new messages
    returns the same job with `created: false`. The subject is `user_id` or the session's
    own. An unknown session is an empty one, as everywhere in working memory: `closed:
    false`, `job: null` (nothing to extract). Errors: 422 when neither names a user (or
    `now` lies before 1900 or more than 5 minutes ahead of the server's clock); 404
    `not_found` when the session is another user's than the body's `user_id` or the
    `?user_id=` scope, 409 `conflict` when those two differ: no job is made."""
    body = body or CloseRequest()
    refuse_far_now(body.now, datetime.now(UTC))
    result = await service.close(
        namespace,
        session_id,
        user_id=body.user_id,
        agent_id=body.agent_id,
        task_id=body.task_id,
        timezone=body.timezone,
        now=body.now,
        scope_user=user_id,
    )
    submitted = result.submitted
    return CloseResponse(
        session_id=session_id,
        closed=submitted is not None,
        created=bool(submitted and submitted.created),
        signals=sorted(result.signals),
        job=job_read(submitted.job) if submitted else None,
    )
