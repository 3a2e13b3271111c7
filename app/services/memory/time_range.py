"""Time ranges of a request's filters: the named ones (`last_24_hours`, `last_7_days`,
`last_30_days`) and how they combine with explicit `since` / `until` — shared by recall,
listing and summarize. ("Time range" here; "window" is only the working-memory window.)"""

from __future__ import annotations

from datetime import datetime, timedelta

TIME_RANGES = {
    "last_24_hours": timedelta(hours=24),
    "last_7_days": timedelta(days=7),
    "last_30_days": timedelta(days=30),
}


def effective_range(
    since: datetime | None, until: datetime | None, time_range: str | None, now: datetime
) -> tuple[datetime | None, datetime | None]:
    """The effective ``(since, until)``: a ``time_range`` ends at ``now`` (unless ``until`` is
    given) and starts at the later of ``since`` and ``now - range``."""
    if time_range is None:
        return since, until
    start = now - TIME_RANGES[time_range]
    return (max(since, start) if since else start), (until or now)
