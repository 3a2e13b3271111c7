"""When a unit became true (docs/LIFECYCLE.md "Valid time and 'as of'"), one rule for the
answers (``valid_from``), the write path and the ``as_of`` filter in SQL
(``app.repositories.memory.filters.valid_from_clause``): the earliest of its ``occurred_at``,
its ``created_at`` and when it was said (``metadata.said_at``, which extraction records for a
unit anchored at another time than its message). A plan is true, as a statement, from when it
was said: "I'm flying to Tokyo on 2026-03-01" said on 2026-01-10 is what the user planned on
2026-02-01, however late the transcript was extracted (tester hbreak6 G7: ``as_of``
2026-02-01 hid it, as it counted from 2026-03-01 or from the extraction)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any

# An ISO 8601 date-time with a UTC offset; anything else in a client's metadata is ignored
# (PostgreSQL reads the same pattern, and pg_input_is_valid, before its cast).
SAID_AT_PATTERN = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2}|Z)$"
_SAID_AT = re.compile(SAID_AT_PATTERN)


def said_moment(metadata: Mapping[str, Any] | None) -> datetime | None:
    """``metadata.said_at`` as an aware datetime, or None when absent or not an ISO 8601
    date-time with a UTC offset."""
    said = metadata.get("said_at") if metadata else None
    if not isinstance(said, str) or not _SAID_AT.match(said):
        return None
    try:
        return datetime.fromisoformat(said)
    except ValueError:
        return None


def valid_from(
    occurred_at: datetime, created_at: datetime | None, metadata: Mapping[str, Any] | None
) -> datetime:
    """The start of a unit's valid time: the earliest of ``occurred_at``, ``created_at``
    (None: not written yet) and :func:`said_moment`."""
    moments = [occurred_at, created_at, said_moment(metadata)]
    return min(m for m in moments if m is not None)
