"""Time to live of memory units (docs/LIFECYCLE.md): the per-type expiry set at write, the expiry
extension of units that keep being recalled, and the archival sweep.

Rules (settings ``TTL__*``):

- At write, a unit without its own ``ttl_days`` / ``expires_at`` expires
  ``TTL__<TYPE>_DAYS`` after the later of the write time and its time anchor
  (``occurred_at``). Defaults from docs/LIFECYCLE.md: constraint and fact 180 d, preference 90 d,
  action and result 30 d, event 30 d. So an upcoming event or time-bound fact expires that many
  days past its anchor, and a past event stored late (a backfill) is not expired on arrival —
  counting from the anchor alone would hide it from recall immediately. An event anchored more
  than a day before its write (what happened: "went to a support group on 2023-05-07") lives
  ``TTL__PAST_EVENT_DAYS`` (180 d) from the write, as a fact: on the 30-day clock of plans and
  appointments a replayed history was 90% gone from recall a month later (tester hbreak5
  F35). 0 = never expires.
- Each recall that returns a unit logs the access; the archival sweep then sets the unit's
  ``last_accessed_at`` and pushes the expiry of an active, expiring unit whose writer did not
  give it (``expiry_fixed``: ``ttl_days`` / ``expires_at`` at /store or PATCH) to at least
  ``access time + TTL__EXTEND_ON_ACCESS_DAYS`` (default 30 d, never shortening it): units in
  use stay; units nobody recalls expire on schedule. Recall itself rewrites no unit (a unit
  about to expire excepted: app.repositories.memory.access_log).
- The archival job first folds the access log in, then moves active units whose
  ``expires_at`` has passed to ``archived`` (out of default recall, readable with
  ``include_archived``) and prunes access-log rows older than
  ``TTL__ACCESS_LOG_RETENTION_DAYS``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from app.core.config import LifecycleSettings, TtlSettings
from app.core.errors import BadRequestError
from app.repositories.idempotency import IdempotencyRepository
from app.repositories.memory.access_log import AccessLogRepository
from app.repositories.memory.lifecycle import LifecycleRepository


def ttl_days(memory_type: str, settings: TtlSettings) -> float:
    """The configured TTL of a unit type in days (0: never expires)."""
    return float(getattr(settings, f"{memory_type}_days", settings.fact_days))


# An event anchored more than a day before its write happened (not a plan, not today's).
_PAST = timedelta(days=1)


def default_expiry(
    memory_type: str,
    occurred_at: datetime | None,
    now: datetime,
    settings: TtlSettings,
    *,
    happened: bool = False,
) -> datetime | None:
    """When a unit of this type written at ``now`` with time anchor ``occurred_at`` expires
    by default: ``max(now, occurred_at) + TTL(type)``, with ``TTL__PAST_EVENT_DAYS`` for an
    event anchored more than a day before ``now`` or one that ``happened`` at a time nobody
    said (extraction's ``metadata.happened``: "I ran a marathon"); None when the type never
    expires."""
    days = ttl_days(memory_type, settings)
    past = happened or (occurred_at is not None and occurred_at < now - _PAST)
    if memory_type == "event" and past:
        days = settings.past_event_days  # what happened is part of a life (tester F35)
    if days <= 0:
        return None
    anchor = max(now, occurred_at) if occurred_at is not None else now
    return anchor + timedelta(days=days)


def expiry_for(
    memory_type: str,
    occurred_at: datetime | None,
    now: datetime,
    settings: TtlSettings,
    *,
    ttl_days_override: float | None = None,
    expires_at: datetime | None = None,
    happened: bool = False,
) -> datetime | None:
    """A unit's expiry at write: its own ``expires_at``, else ``now + ttl_days_override``,
    else :func:`default_expiry` (``happened``: an undated event that happened)."""
    if expires_at is not None:
        return expires_at
    if ttl_days_override is not None:
        return now + timedelta(days=ttl_days_override)
    return default_expiry(memory_type, occurred_at, now, settings, happened=happened)


def _z(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def refuse_past_expiry(expires_at: Sequence[datetime | None], now: datetime, field: str) -> None:
    """The one rule of ``POST /store`` and ``PATCH /memories/{id}`` (tester finding T21): an
    ``expires_at`` sent with a write must lie after the request's ``now`` (the server's
    clock when it arrived), else a 422 naming the first such one (``field`` with ``{i}``
    for its index) and nothing is written. A unit written already expired would be
    invisible to recall from the start."""
    late = [(i, e) for i, e in enumerate(expires_at) if e is not None and e <= now]
    if not late:
        return
    index, moment = late[0]
    where = field.format(i=index)
    msg = (
        f"expires_at is in the past ({_z(moment)}; now is {_z(now)}): send a future "
        "expires_at, or ttl_days, or neither (the type's default TTL)"
    )
    error = {"loc": ["body", *where.split(".")], "msg": msg, "type": "expires_at_past"}
    raise BadRequestError(f"{where}: {msg}", extra={"errors": [error]})


class AccessTracker:
    """How a recall's access extends its hits' expiry. Recall writes the access log itself
    (``RecallRepository.record_access``; after the answer over HTTP); the sweep folds it into
    the units."""

    def __init__(self, settings: TtlSettings) -> None:
        self.settings = settings

    def extend_to(self, at: datetime) -> datetime | None:
        """How far an access at ``at`` extends an expiring unit (None: no extension)."""
        days = self.settings.extend_on_access_days
        return at + timedelta(days=days) if days > 0 else None


@dataclass(frozen=True)
class ArchiveReport:
    """What one archival sweep did."""

    archived: int
    access_log_pruned: int
    accesses_folded: int = 0  # access-log rows applied to their units
    units_touched: int = 0  # units whose last_accessed_at / expiry the fold changed
    idempotency_pruned: int = 0  # stored Idempotency-Key answers past their retention


class Archiver:
    """The scheduled archival sweep; collaborators are passed in."""

    def __init__(
        self,
        repo: LifecycleRepository,
        access_log: AccessLogRepository,
        ttl: TtlSettings,
        lifecycle: LifecycleSettings,
        idempotency: IdempotencyRepository | None = None,
    ) -> None:
        self.repo = repo
        self.access_log = access_log
        self.idempotency = idempotency
        self.ttl = ttl
        self.lifecycle = lifecycle

    async def archive_expired(self, now: datetime) -> ArchiveReport:
        """Fold the access log into the units (so a unit recalled since the last sweep is
        extended before it could be archived), archive every active unit with
        ``expires_at <= now`` (in batches of ``LIFECYCLE__ARCHIVE_BATCH``) and prune old
        access-log rows and stored Idempotency-Key answers (tester finding C27: kept forever,
        a copy of every client write's answer). Runs in the caller's transaction; the caller
        commits."""
        days = self.ttl.extend_on_access_days
        folded, touched = await self.access_log.fold(timedelta(days=days) if days > 0 else None)
        batch = self.lifecycle.archive_batch
        archived = 0
        while True:
            n = await self.repo.archive_expired(now, batch)
            archived += n
            if n < batch:
                break
        pruned = await self.access_log.prune(
            now - timedelta(days=self.ttl.access_log_retention_days)
        )
        keys = 0
        if self.idempotency is not None:
            hours = self.ttl.idempotency_retention_hours
            keys = await self.idempotency.prune(now - timedelta(hours=hours))
        return ArchiveReport(
            archived=archived,
            access_log_pruned=pruned,
            accesses_folded=folded,
            units_touched=touched,
            idempotency_pruned=keys,
        )
