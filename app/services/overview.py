"""The namespace overview: how much memory there is (per unit type and status, jobs per
state) and which subjects hold it, for ``GET /stats`` and ``GET /subjects``."""

from __future__ import annotations

from dataclasses import dataclass, field

from app.core.errors import BadRequestError
from app.repositories.overview import OverviewRepository, SubjectFilters, SubjectRow
from app.schemas.overview import StatsQuery, SubjectListQuery
from app.services import cursors

ENDPOINT = "GET /subjects"


@dataclass(frozen=True)
class Stats:
    """Counts of a namespace or one subject of it."""

    units: dict[str, dict[str, int]]
    jobs: dict[str, int]
    sessions: int
    open_reviews: int = 0
    total_units: int = field(init=False)

    def __post_init__(self) -> None:
        total = sum(n for per_status in self.units.values() for n in per_status.values())
        object.__setattr__(self, "total_units", total)


@dataclass(frozen=True)
class SubjectPage:
    """One page of subjects and the cursor of the next (None on the last page)."""

    subjects: list[SubjectRow]
    next_cursor: str | None


def _filters_of(q: SubjectListQuery) -> dict[str, str | None]:
    return {"kind": q.kind, "prefix": q.prefix, "user_id": q.user_id}


class OverviewService:
    """Read-only: nothing here writes."""

    def __init__(self, repo: OverviewRepository) -> None:
        self.repo = repo

    async def stats(self, namespace: str, q: StatsQuery) -> Stats:
        """Units per type and status, jobs per state, sessions with a transcript and open
        pair reviews."""
        return Stats(
            units=await self.repo.unit_counts(namespace, q.user_id, q.agent_id),
            jobs=await self.repo.job_counts(namespace, q.user_id, q.agent_id),
            sessions=await self.repo.session_count(namespace, q.user_id, q.agent_id),
            open_reviews=await self.repo.open_review_count(namespace, q.user_id, q.agent_id),
        )

    async def subjects(self, namespace: str, q: SubjectListQuery) -> SubjectPage:
        """One page of users, agents or sessions by id, after ``q.cursor``. Raises
        BadRequestError (422) on a malformed cursor or one made with other filters."""
        after = None
        if q.cursor is not None:
            position = cursors.decode(q.cursor, _filters_of(q), ENDPOINT)
            after = position.get("a")
            if not isinstance(after, str):
                raise BadRequestError(f"cursor: not a cursor returned by {ENDPOINT}")
        f = SubjectFilters(namespace, q.kind, q.prefix or None, q.user_id, after)
        rows = await self.repo.subjects(f, q.limit + 1)
        more = len(rows) > q.limit
        rows = rows[: q.limit]
        cursor = cursors.encode({"a": rows[-1].id}, _filters_of(q)) if more and rows else None
        return SubjectPage(rows, cursor)
