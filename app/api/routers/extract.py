"""``POST /extract``, ``GET /extract/{job_id}``, ``POST /extract/{job_id}/retry`` and
``POST /working_memory/{session_id}/close``."""

from __future__ import annotations

import uuid
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Response

from app.api.deps import (
    ClosureServiceDep,
    ExtractionServiceDep,
    JobRunnerDep,
    NamespaceDep,
    SettingsDep,
)
from app.api.errors import ERROR_RESPONSES, NOT_FOUND, PROBLEM_JSON
from app.core.errors import BadRequestError
from app.models import ExtractionJob
from app.schemas.common import Problem
from app.schemas.extract import (
    CloseRequest,
    CloseResponse,
    ExtractJobRead,
    ExtractRequest,
    UnitResult,
)
from app.schemas.working_memory import SESSION_ID_PATTERN
from app.services.extraction.service import ExtractionService, Scope, Submitted

router = APIRouter(tags=["extraction"])

CONFLICT: dict[int | str, dict[str, Any]] = {
    409: {"model": Problem, "description": "Job not retryable.", "content": {PROBLEM_JSON: {}}},
}


def job_read(job: ExtractionJob) -> ExtractJobRead:
    """The wire form of a job row."""
    return ExtractJobRead(
        id=job.id,
        status=job.status,  # type: ignore[arg-type]
        user_id=job.user_id,
        agent_id=job.agent_id,
        session_id=job.session_id,
        task_id=job.task_id,
        trigger=job.trigger,
        trigger_detail=list(job.trigger_detail or []),
        transcript_messages=len(job.transcript or []),
        transcript_from=job.transcript_from,
        transcript_to=job.transcript_to,
        timezone=job.timezone,
        conversation_now=job.conversation_now,
        attempts=job.attempts,
        max_attempts=job.max_attempts,
        error=job.error,
        error_code=job.error_code,
        error_history=list(job.error_history or []),
        extractor=job.extractor,
        units=[UnitResult.model_validate(u) for u in job.outcome or []],
        created_at=job.created_at,
        started_at=job.started_at,
        finished_at=job.finished_at,
        next_attempt_at=job.next_attempt_at,
    )


def _answer(response: Response, submitted: Submitted) -> ExtractJobRead:
    job = submitted.job
    done = job.status in ("succeeded", "failed")
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
        **NOT_FOUND,
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
    wait: Annotated[
        bool, Query(description="Run synchronously: answer when the job has ended.")
    ] = False,
) -> ExtractJobRead:
    """Distil memory units from a transcript (`messages`) or from the durable transcript of
    working-memory session `session_id` (the messages no earlier job took).

    Async by default: the job and its transcript are committed with its queue entry, then
    **202** with the job (`Location: /extract/{id}`); poll `GET /extract/{id}`. With
    `?wait=true` or `"mode": "sync"` the job runs in this request (retries included, up to
    `EXTRACTION__WAIT_TIMEOUT_S`) and the answer is **200** with the outcome per unit (202 if
    it is still running then). A session whose messages were all extracted answers 200 with
    the existing job. Relative dates resolve against `now` (default: the last message's
    time) in `timezone`. Errors: 404 unknown session, 422 invalid body or a session with no
    messages or no user."""
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

    if sync:
        submitted = await runner.submit_and_wait(submit, settings.extraction.wait_timeout_s)
    else:
        submitted = await submit(service, 0.0)
    if submitted is None:
        raise BadRequestError(f"session {body.session_id!r} has no messages to extract")
    return _answer(response, submitted)


@router.get(
    "/extract/{job_id}",
    operation_id="get_extraction_job",
    response_model=ExtractJobRead,
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
async def get_extraction_job(
    job_id: uuid.UUID, namespace: NamespaceDep, service: ExtractionServiceDep
) -> ExtractJobRead:
    """An extraction job: `status` (`queued`, `running`, `retrying`, `succeeded`, `failed`),
    `attempts`, the last `error` / `error_code` and every attempt's error in
    `error_history`, and, once succeeded, `units`: per extracted unit its outcome
    (`created`, `merged`, `superseded`, `conflict`, `dropped`, `rejected`) and memory id.
    A job of another namespace is a 404."""
    return job_read(await service.get(namespace, job_id))


@router.post(
    "/extract/{job_id}/retry",
    operation_id="retry_extraction_job",
    response_model=ExtractJobRead,
    status_code=202,
    responses={**ERROR_RESPONSES, **NOT_FOUND, **CONFLICT},
)
async def retry_extraction_job(
    job_id: uuid.UUID, response: Response, namespace: NamespaceDep, service: ExtractionServiceDep
) -> ExtractJobRead:
    """Queue a `failed` job again with a fresh attempt budget (its transcript was kept;
    earlier errors stay in `error_history`). 202 with the job; 409 `job_not_retryable` when
    the job has not failed; 404 when unknown."""
    job = await service.retry(namespace, job_id)
    response.headers["Location"] = f"/extract/{job.id}"
    return job_read(job)


@router.post(
    "/working_memory/{session_id}/close",
    operation_id="close_session",
    response_model=CloseResponse,
    responses={**ERROR_RESPONSES, **NOT_FOUND},
)
async def close_session(
    namespace: NamespaceDep,
    service: ClosureServiceDep,
    session_id: Annotated[str, Path(min_length=1, max_length=256, pattern=SESSION_ID_PATTERN)],
    body: CloseRequest | None = None,
) -> CloseResponse:
    """Close the session's task: its messages not yet extracted become an extraction job
    (queued; poll `GET /extract/{job.id}`). Idempotent: closing again with no new messages
    returns the same job with `created: false`. The subject is `user_id` or the session's
    own. Errors: 404 unknown session, 422 when neither names a user."""
    body = body or CloseRequest()
    result = await service.close(
        namespace,
        session_id,
        user_id=body.user_id,
        agent_id=body.agent_id,
        task_id=body.task_id,
        timezone=body.timezone,
        now=body.now,
    )
    submitted = result.submitted
    return CloseResponse(
        session_id=session_id,
        closed=submitted is not None,
        created=bool(submitted and submitted.created),
        signals=sorted(result.signals),
        job=job_read(submitted.job) if submitted else None,
    )
