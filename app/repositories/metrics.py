"""SQL behind the gauges of ``/metrics``: counts across every namespace, no tenant data."""

from __future__ import annotations

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from app.core.vocabulary import JobStatus
from app.models import ExtractionJob


async def job_counts(session: AsyncSession) -> dict[str, int]:
    """Extraction jobs per status, every status present (0 when none)."""
    rows = await session.execute(
        select(ExtractionJob.status, func.count()).group_by(ExtractionJob.status)
    )
    counts = dict.fromkeys([s.value for s in JobStatus], 0)
    counts.update({status: int(n) for status, n in rows})
    return counts
