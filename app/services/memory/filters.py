"""The filters of a read request (``POST /recall``, ``GET /memories``) as the repositories'
:class:`UnitFilters`: scope, types, entities, the time range and which statuses count."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from app.core.entity_names import name_key
from app.core.vocabulary import UnitStatus
from app.repositories.memory.filters import UnitFilters
from app.services.memory.time_range import effective_range


class FilterRequest(Protocol):
    """The fields recall and listing share (``RecallRequest``, ``MemoryListQuery``)."""

    # Read-only members, so that the request models' narrower field types satisfy them.
    @property
    def user_id(self) -> str | None: ...

    @property
    def agent_id(self) -> str | None: ...

    @property
    def session_id(self) -> str | None: ...

    @property
    def types(self) -> Sequence[str] | None: ...

    @property
    def entities(self) -> Sequence[str] | None: ...

    @property
    def time_range(self) -> str | None: ...

    @property
    def since(self) -> datetime | None: ...

    @property
    def until(self) -> datetime | None: ...

    @property
    def include_superseded(self) -> bool: ...

    @property
    def include_archived(self) -> bool: ...

    @property
    def as_of(self) -> datetime | None: ...


def default_statuses(req: FilterRequest) -> tuple[str, ...]:
    """``active``, plus ``superseded`` / ``archived`` when the request includes them; with
    ``as_of``, superseded units count (they were true until their successor)."""
    statuses = [UnitStatus.ACTIVE]
    if req.include_superseded or req.as_of is not None:
        statuses.append(UnitStatus.SUPERSEDED)
    if req.include_archived:
        statuses.append(UnitStatus.ARCHIVED)
    return tuple(statuses)


def _filter_keys(entities: Sequence[str]) -> list[str]:
    """The keys of a request's ``entities`` filter; a name with nothing left once normalised
    (bidirectional-text controls only) is a BadRequestError, not a filter silently dropped."""
    return list(dict.fromkeys(name_key(e, f"entities[{i}]") for i, e in enumerate(entities)))


def request_filters(
    namespace: str,
    req: FilterRequest,
    clock: datetime,
    statuses: Sequence[str] | None = None,
    **extra: Any,
) -> UnitFilters:
    """The filters of ``req`` in ``namespace``; ``time_range`` ends at ``clock``; ``statuses``
    default to :func:`default_statuses`; ``extra`` sets the other UnitFilters fields."""
    since, until = effective_range(req.since, req.until, req.time_range, clock)
    return UnitFilters(
        namespace=namespace,
        user_id=req.user_id,
        agent_id=req.agent_id,
        session_id=req.session_id,
        types=req.types,
        entity_keys=_filter_keys(req.entities) if req.entities else None,
        since=since,
        until=until,
        statuses=tuple(statuses) if statuses else default_statuses(req),
        as_of=req.as_of,
        **extra,
    )
