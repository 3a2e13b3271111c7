"""The filters of a read request (``POST /recall``, ``GET /memories``) as the repositories'
:class:`UnitFilters`: scope, types, entities, the time window and which statuses count."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from app.core.text import entity_keys
from app.core.vocabulary import UnitStatus
from app.repositories.memory.filters import UnitFilters
from app.services.memory.time_window import window


class FilterRequest(Protocol):
    """The fields recall and listing share (``RecallRequest``, ``MemoryListQuery``)."""

    user_id: str | None
    agent_id: str | None
    session_id: str | None
    types: Sequence[str] | None
    entities: Sequence[str] | None
    time_range: str | None
    since: datetime | None
    until: datetime | None
    include_superseded: bool
    include_archived: bool


def default_statuses(req: FilterRequest) -> tuple[str, ...]:
    """``active``, plus ``superseded`` / ``archived`` when the request includes them."""
    statuses = [UnitStatus.ACTIVE]
    if req.include_superseded:
        statuses.append(UnitStatus.SUPERSEDED)
    if req.include_archived:
        statuses.append(UnitStatus.ARCHIVED)
    return tuple(statuses)


def request_filters(
    namespace: str,
    req: FilterRequest,
    clock: datetime,
    statuses: Sequence[str] | None = None,
    **extra: Any,
) -> UnitFilters:
    """The filters of ``req`` in ``namespace``; ``time_range`` ends at ``clock``; ``statuses``
    default to :func:`default_statuses`; ``extra`` sets the other UnitFilters fields."""
    since, until = window(req.since, req.until, req.time_range, clock)
    return UnitFilters(
        namespace=namespace,
        user_id=req.user_id,
        agent_id=req.agent_id,
        session_id=req.session_id,
        types=req.types,
        entity_keys=entity_keys(list(req.entities)) if req.entities else None,
        since=since,
        until=until,
        statuses=tuple(statuses) if statuses else default_statuses(req),
        **extra,
    )
