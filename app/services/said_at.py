"""When a message was said: a ``created_at`` sent with a message (an append, ``POST
/extract``) may lie at most :data:`CLOCK_SKEW` ahead of the server's clock.

Tester finding C21e: ``"created_at": "2099-01-01T10:00:00Z"`` was taken, and "I will visit
Kyoto tomorrow" became a unit dated 2099-01-02 that expires in 2099 — a client with a wrong
clock made memory that never expires, and the session's relative dates read against a time
that has not come. A message is refused (422, nothing written) rather than moved to now:
a time changed without a word would move every date extraction reads from it. Five minutes
allow for clocks that differ a little.

The conversation's clock an extraction is given (``now`` of ``POST /extract`` and of a
session's close: what "tomorrow" resolves against) is bounded alike (:func:`refuse_far_now`):
not after the server's clock by more than :data:`CLOCK_SKEW`, nor before
:data:`EARLIEST_NOW` (1900-01-01: no transcript is older). ``"now": "9999-…"`` dated every
unit of a job in that year, never to expire."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from app.core.errors import BadRequestError

CLOCK_SKEW = timedelta(minutes=5)
EARLIEST_NOW = datetime(1900, 1, 1, tzinfo=UTC)


def _z(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def refuse_future_messages(
    created_at: Sequence[datetime | None], now: datetime, field: str
) -> None:
    """Raise BadRequestError (422, type ``created_at_future``) naming the first of
    ``created_at`` more than :data:`CLOCK_SKEW` after ``now`` (the request's arrival) as
    ``field`` with ``{i}`` for its index, and the server's time."""
    late = [(i, t) for i, t in enumerate(created_at) if t is not None and t > now + CLOCK_SKEW]
    if not late:
        return
    index, moment = late[0]
    where = field.format(i=index)
    msg = (
        f"created_at is in the future ({_z(moment)}; the server's time is {_z(now)}, and at "
        "most 5 minutes ahead is taken): send when the message was said, or leave "
        "created_at out (the time it arrives)"
    )
    error = {"loc": ["body", *where.split(".")], "msg": msg, "type": "created_at_future"}
    raise BadRequestError(f"{where}: {msg}", extra={"errors": [error]})


def refuse_far_now(now: datetime | None, server_now: datetime, field: str = "now") -> None:
    """Raise BadRequestError (422, type ``now_out_of_range``) when an extraction's ``now``
    (the conversation's clock) lies more than :data:`CLOCK_SKEW` after ``server_now`` or
    before :data:`EARLIEST_NOW`; None (the default clock) passes."""
    if now is None or EARLIEST_NOW <= now <= server_now + CLOCK_SKEW:
        return
    msg = (
        f"now is out of range ({_z(now)}): it must lie between 1900-01-01T00:00:00Z and the "
        f"server's time ({_z(server_now)}) plus 5 minutes: send the time the conversation "
        "took place, or leave now out (the last message's time)"
    )
    error = {"loc": ["body", field], "msg": msg, "type": "now_out_of_range"}
    raise BadRequestError(f"{field}: {msg}", extra={"errors": [error]})
