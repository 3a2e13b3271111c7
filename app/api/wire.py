"""The wire form of rows and results that more than one router answers with: an extraction
job row as ``ExtractJobRead`` (:func:`job_read`: /extract and the working-memory close), and
a ranked window message as ``WindowMessage`` or ``OmittedMessage`` (:func:`to_window_message`,
:func:`to_omitted_message`: the window read; /context uses the first)."""

from __future__ import annotations

from typing import Any

from app.models import ExtractionJob
from app.schemas.extract import ExtractJobRead, UnitResult
from app.schemas.working_memory import OmittedMessage, WindowMessage, WindowScores
from app.services.working_memory.ranking import Chosen, LeftOut, Ranked, why_chosen, why_left_out


def job_read(job: ExtractionJob) -> ExtractJobRead:
    """The wire form of a job row."""
    return ExtractJobRead(
        id=job.id,
        # The column is a str holding a JobStatus value; the model validates it on the way out.
        status=job.status,  # type: ignore[arg-type]
        user_id=job.user_id,
        agent_id=job.agent_id,
        session_id=job.session_id,
        task_id=job.task_id,
        trigger=job.trigger,
        trigger_detail=list(job.trigger_detail or []),
        transcript_messages=sum(m.get("index", 0) >= 0 for m in job.transcript or []),
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


def _message_fields(r: Ranked) -> dict[str, Any]:
    """What chosen and left-out window messages share on the wire."""
    e = r.entry
    return {
        "seq": e.seq,
        "role": e.role,
        "created_at": e.created_at,
        "user_id": e.user_id,
        "metadata": e.metadata,
        "score": round(r.score, 6),
        "scores": WindowScores(
            recency=round(r.recency, 6),
            relevance=None if r.relevance is None else round(r.relevance, 6),
            cosine=None if r.cosine is None else round(r.cosine, 6),
            density=round(r.density, 6),
            # The window stores the kind as text; only standing_kind's three values are
            # ever written, and pydantic checks the Literal when the model is built.
            standing=r.entry.standing,  # type: ignore[arg-type]
            filler=r.entry.filler,
        ),
    }


def to_window_message(chosen: Chosen) -> WindowMessage:
    """The wire form of a chosen window message."""
    return WindowMessage(
        **_message_fields(chosen.ranked),
        content=chosen.content,
        tokens=chosen.tokens,
        truncated=chosen.truncated,
        original_tokens=chosen.ranked.entry.tokens,
        why=why_chosen(chosen),
    )


def to_omitted_message(left: LeftOut) -> OmittedMessage:
    """The wire form of a window message left out for the budget."""
    return OmittedMessage(
        **_message_fields(left.ranked),
        content=left.ranked.entry.content,
        tokens=left.ranked.entry.tokens,
        reason="budget",
        rank=left.rank,
        needed_tokens=left.needed_tokens,
        free_tokens=left.free_tokens,
        why=why_left_out(left),
    )
