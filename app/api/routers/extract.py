"""``POST /extract``, ``GET /extract/{job_id}``, ``POST /extract/{job_id}/retry``."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query, Response

from app.api.deps import (
    ExtractionServiceDep,
    IdempotencyServiceDep,
    JobRunnerDep,
    NamespaceDep,
    SettingsDep,
)
from app.api.errors import ERROR_RESPONSES, NOT_FOUND, PROBLEM_JSON, SESSION_NOT_FOUND
from app.api.idempotent import IdempotencyKey, once
from app.api.scope import JobScope
from app.api.wire import job_read
from app.core.errors import BadRequestError
from app.core.vocabulary import JOB_ENDED
from app.schemas.common import Problem
from app.schemas.extract import (
    ExtractJobRead,
    ExtractRequest,
    JobListQuery,
    JobPage,
)
from app.services.extraction.jobs import ExtractionService, Scope, Submitted
from app.services.said_at import refuse_far_now, refuse_future_messages

router = APIRouter(tags=["extraction"])

CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {"model": Problem, "description": "Job not retryable.", "content": {PROBLEM_JSON: {}}},
}


def _answer(response: Response, submitted: Submitted) -> ExtractJobRead:
    job = submitted.job
    done = job.status in JOB_ENDED
    response.status_code = 200 if done or not submitted.created else 202
    response.headers["Location"] = f"/extract/{job.id}"
    return job_read(job)


@router.post(
    "/extract",
    operation_id="extract_memories",
    response_model=ExtractJobRead,
    status_code=202,
    responses={
        **ERROR_RESPONSES,
        **SESSION_NOT_FOUND,
        200: {"model": ExtractJobRead, "description": "Finished (sync) or already extracted."},
    },
)
async def extract_memories(
    body: ExtractRequest,
    response: Response,
    namespace: NamespaceDep,
    service: ExtractionServiceDep,
    runner: JobRunnerDep,
    settings: SettingsDep,
    idempotency: IdempotencyServiceDep,
    wait: Annotated[
        bool, Query(description="Run synchronously: answer when the job has ended.")
    ] = False,
    idempotency_key: IdempotencyKey = None,
) -> Any:
    """Distil memory units from a transcript (`messages`) or from the durable transcript of
    working-memory session `session_id` (the messages no earlier job took).

    Async by default: the job and its transcript are committed with its queue entry, then
    **202** with the job (`Location: /extract/{id}`); poll `GET /extract/{id}`. With
    `?wait=true` or `"mode": "sync"` the job runs in this request (retries included, up to
    `EXTRACTION__WAIT_TIMEOUT_S`) and the answer is **200** with the outcome per unit (202 if
    it is still running then). A session whose messages were all extracted answers 200 with
    the existing job. Relative dates resolve against `now` (default: the last message's
    time) in `timezone` (default: the zone or UTC offset the messages were written in, else
    UTC). Errors: 422 invalid body (also a message's `created_at` more than 5 minutes ahead
    of the server's clock, "created_at is in the future", and a `now` before 1900 or more
    than 5 minutes ahead, "now is out of range"), or a session with no messages to
    extract (an unknown session is an empty one) or no user; 404 `not_found` for a session
    owned by another user than `user_id`, with or without `messages` (no job is made; with
    `messages`, a `session_id` nobody owns yet becomes `user_id`'s, as on a first append);
    429 `rate_limited` with `Retry-After` for `messages` when the namespace already has
    `EXTRACTION__MAX_PENDING_PER_NAMESPACE` (20) jobs queued, running or retrying (no job is
    made). Jobs are queued fairly: the worker takes every namespace's first waiting job
    before any namespace's second.

    With an `Idempotency-Key` header a retry of the same request (body and `wait`) answers
    the first answer — the job as it was then, with its status code and `Location` (header
    `Idempotent-Replayed: true`; poll `GET /extract/{id}` for its state now) — and makes no
    second job; the same key with another request is a 422 `idempotency_key_reused`."""
    scope = Scope(namespace, body.user_id, body.agent_id, body.session_id, body.task_id)
    sync = wait or body.mode == "sync"

    async def submit(svc: ExtractionService, delay_s: float) -> Submitted | None:
        if body.messages is not None:
            return await svc.submit_messages(
                scope, body.messages, timezone=body.timezone, now=body.now, queue_delay_s=delay_s
            )
        return await svc.submit_session(
            scope, timezone=body.timezone, now=body.now, trigger="api", signals=[],
            queue_delay_s=delay_s,
        )  # fmt: skip

    async def action() -> tuple[dict[str, Any], int]:
        refuse_far_now(body.now, datetime.now(UTC))
        if body.messages is not None:
            times = [m.created_at for m in body.messages]
            refuse_future_messages(times, datetime.now(UTC), "messages.{i}.created_at")
        if sync:
            submitted = await runner.submit_and_wait(submit, settings.extraction.wait_timeout_s)
        else:
            submitted = await submit(service, 0.0)
        if submitted is None:
            raise BadRequestError(f"session {body.session_id!r} has no messages to extract")
        return _answer(response, submitted).model_dump(mode="json"), response.status_code

    request = {"extract": body.model_dump(mode="json"), "wait": wait}
    payload, status = await once(idempotency, namespace, idempotency_key, request, action, response)
    response.status_code = status
    response.headers["Location"] = f"/extract/{payload['id']}"
    return payload


@router.get(
    "/extract",
    operation_id="list_extraction_jobs",
    response_model=JobPage,
    responses=ERROR_RESPONSES,
)
async def list_extraction_jobs(
    q: Annotated[JobListQuery, Query()], namespace: NamespaceDep, service: ExtractionServiceDep
) -> JobPage:
    """Extraction jobs of your namespace, newest first (by `created_at`, ties broken by id),
    each as `GET /extract/{id}` answers it; `user_id`, `agent_id`, `session_id` and `status`
    (repeatable) narrow the list. `limit` 1..100 (default 20). Cursor pagination: pass
    `next_cursor` back as `cursor` with the same filters until it is null. Errors: 401, 422
    `invalid_request` (bad filter, or a cursor made with other filters)."""
    page = await service.list(namespace, q)
    return JobPage(jobs=[job_read(job) for job in page.jobs], next_cursor=page.next_cursor)


@router.get(
    "/extract/{job_id}",
    operation_id="get_extraction_job",
    response_model=ExtractJobRead,
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
async def get_extraction_job(
    job_id: uuid.UUID,
    namespace: NamespaceDep,
    service: ExtractionServiceDep,
    user_id: JobScope = None,
) -> ExtractJobRead:
    """An extraction job: `status` (`queued`, `running`, `retrying`, `succeeded`, `failed`),
    `attempts`, the last `error` / `error_code` and every attempt's error in
    `error_history`, and, once succeeded, `units`: per extracted unit its outcome
    (`created`, `merged`, `superseded`, `conflict`, `dropped`, `rejected`) and memory id.
    A job of another namespace (with `user_id`, of another user) is a 404."""
    return job_read(await service.get(namespace, job_id, user_id))


@router.post(
    "/extract/{job_id}/retry",
    operation_id="retry_extraction_job",
    response_model=ExtractJobRead,
    status_code=202,
    responses={**ERROR_RESPONSES, **NOT_FOUND, **CONFLICT},
)
async def retry_extraction_job(
    job_id: uuid.UUID,
    response: Response,
    namespace: NamespaceDep,
    service: ExtractionServiceDep,
    user_id: JobScope = None,
) -> ExtractJobRead:
    """Queue a `failed` job again with a fresh attempt budget (its transcript was kept;
    earlier errors stay in `error_history`). 202 with the job; 409 `job_not_retryable` when
    the job has not failed; 404 when unknown (with `user_id`, when another user's)."""
    job = await service.retry(namespace, job_id, user_id)
    response.headers["Location"] = f"/extract/{job.id}"
    return job_read(job)
