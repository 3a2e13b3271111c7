"""The words the data model is written in, shared by every layer."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

# The pgqueuer entrypoint of extraction jobs (enqueued by the API, served by the worker).
EXTRACT_ENTRYPOINT = "hindsight.extract"

# The kind of knowledge a memory unit holds.
MemoryType = Literal["fact", "preference", "constraint", "action", "result", "event"]


class UnitStatus(StrEnum):
    """Where a memory unit stands. Only ``active`` units are recalled by default; forgotten
    units are deleted, so they have no status."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"  # replaced by a newer unit (``superseded_by``), kept as history
    ARCHIVED = "archived"  # expired or consolidated: out of default recall, still readable
    INVALID = "invalid"  # marked wrong by a correction


class JobStatus(StrEnum):
    """Where an extraction job stands: queued → running → succeeded, or retrying → … →
    failed after ``max_attempts``."""

    QUEUED = "queued"
    RUNNING = "running"
    RETRYING = "retrying"
    SUCCEEDED = "succeeded"
    FAILED = "failed"


# A job in one of these has ended: it is never run again unless retried by hand.
JOB_ENDED = (JobStatus.SUCCEEDED, JobStatus.FAILED)
