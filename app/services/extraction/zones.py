"""The time zone a transcript's relative dates resolve in when the request names none
(tester B20): the newest valid IANA zone a message's metadata names (``{"timezone":
"Asia/Shanghai"}``), else the UTC offset the newest message was sent with — its
``metadata.utc_offset`` (working memory keeps it at append: the transcript's timestamps keep
only the instant) or, for a transcript given inline, the offset of its own ``created_at`` —
as the fixed zone "UTC+08:00" (:func:`app.services.extraction.dates.zone` reads it), else UTC.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

_OFFSET = re.compile(r"^[+-](?:0\d|1[0-4]):[0-5]\d$")


def _field(message: Any, name: str) -> Any:
    if isinstance(message, Mapping):
        return message.get(name)
    if name == "metadata":
        return getattr(message, "metadata_", None) or getattr(message, "metadata", None)
    return getattr(message, name, None)


def _named_zone(messages: list[Any]) -> str | None:
    for message in reversed(messages):
        meta = _field(message, "metadata") or {}
        zone = meta.get("timezone") if isinstance(meta, Mapping) else None
        if isinstance(zone, str) and zone:
            try:
                ZoneInfo(zone)
            except (ZoneInfoNotFoundError, ValueError):
                continue
            return zone
    return None


def _offset(message: Any, own_times: bool) -> str | None:
    """The message's UTC offset ("+08:00"): its ``metadata.utc_offset``, else (``own_times``:
    its ``created_at`` is as the client sent it) the offset of its ``created_at``."""
    meta = _field(message, "metadata") or {}
    offset = meta.get("utc_offset") if isinstance(meta, Mapping) else None
    if isinstance(offset, str) and _OFFSET.match(offset):
        return offset
    created = _field(message, "created_at") if own_times else None
    delta = created.utcoffset() if isinstance(created, datetime) else None
    if delta is None:
        return None
    minutes = int(delta.total_seconds()) // 60
    return f"{'-' if minutes < 0 else '+'}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"


def transcript_zone(messages: list[Any], *, own_times: bool = False) -> str:
    """The zone ``messages`` (dicts, wire models or transcript rows, oldest first) were
    written in (module docstring). ``own_times``: their ``created_at`` keep the offset the
    client sent (a transcript given inline to ``/extract``), not the database's UTC."""
    zone = _named_zone(messages)
    if zone is not None:
        return zone
    for message in reversed(messages):
        offset = _offset(message, own_times)
        if offset is not None:
            return "UTC" if offset in ("+00:00", "-00:00") else "UTC" + offset
    return "UTC"
