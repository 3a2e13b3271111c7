"""The words the data model is written in, shared by every layer."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, TypeGuard

# The pgqueuer entrypoints (enqueued by the API, served by the worker): extraction jobs, and
# reconciliation jobs (the LLM decides a pair review after the /store answer).
EXTRACT_ENTRYPOINT = "hindsight.extract"
RECONCILE_ENTRYPOINT = "hindsight.reconcile"

# The kind of knowledge a memory unit holds.
MemoryType = Literal["fact", "preference", "constraint", "action", "result", "event"]
# The types a consolidation (distillation, summaries) writes: knowledge, not episodes.
SemanticType = Literal["fact", "preference", "constraint"]
SEMANTIC_TYPES: tuple[SemanticType, ...] = ("fact", "preference", "constraint")


def is_semantic_type(kind: object) -> TypeGuard[SemanticType]:
    """Whether ``kind`` (e.g. a type an LLM wrote) is one of :data:`SEMANTIC_TYPES`."""
    return kind in SEMANTIC_TYPES


class UnitStatus(StrEnum):
    """Where a memory unit stands. Only ``active`` units are recalled by default; forgotten
    units are deleted, so they have no status."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"  # replaced by a newer unit (``superseded_by``), kept as history
    MERGED = "merged"  # folded into another unit (``merged_into``); its id resolves to it
    ARCHIVED = "archived"  # expired or consolidated: out of default recall, still readable
    INVALID = "invalid"  # marked wrong by a correction


class JobStatus(StrEnum):
    """Where an extraction job stands: queued → running → succeeded, or retrying → … →
    failed after ``max_attempts``; cancelled when its session's transcript was purged before
    its units were written (tester hbreak7 H30)."""

    QUEUED = "queued"
    RUNNING = "running"
    RETRYING = "retrying"
    SUCCEEDED = "succeeded"
    FAILED = "failed"
    CANCELLED = "cancelled"


class ReviewStatus(StrEnum):
    """Where a pair review stands: pending → running → decided; back to pending (listed for
    review) when the LLM kept failing."""

    PENDING = "pending"  # waiting for the reconciliation job or a person
    RUNNING = "running"  # a reconciliation job holds its lease
    DECIDED = "decided"  # closed, with the action applied (or ``stale``)


# A review in one of these is still open: not decided yet.
REVIEW_OPEN = (ReviewStatus.PENDING, ReviewStatus.RUNNING)

# A job in one of these has ended: it is never run again unless retried by hand.
JOB_ENDED = (JobStatus.SUCCEEDED, JobStatus.FAILED, JobStatus.CANCELLED)
