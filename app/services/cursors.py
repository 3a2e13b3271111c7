"""Opaque keyset cursors: a position plus a fingerprint of the filters that produced it, so a
cursor is refused when the filters change while paging."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import uuid
from datetime import datetime
from typing import Any

from app.core.errors import BadRequestError


def fingerprint(filters: dict[str, Any]) -> str:
    """16 hex digits of SHA-256 over the filters as sorted JSON."""
    raw = json.dumps(filters, sort_keys=True, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def encode(position: dict[str, Any], filters: dict[str, Any]) -> str:
    """``position`` (JSON-able) and the filters' fingerprint as unpadded base64url JSON."""
    raw = json.dumps({**position, "f": fingerprint(filters)}, separators=(",", ":"))
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode(cursor: str, filters: dict[str, Any], endpoint: str) -> dict[str, Any]:
    """The position of a cursor made by :func:`encode` with the same ``filters``. Raises
    BadRequestError (422) naming ``endpoint`` when it is malformed or the filters differ."""
    try:
        data = json.loads(base64.urlsafe_b64decode((cursor + "=" * (-len(cursor) % 4)).encode()))
        if not isinstance(data, dict):
            raise TypeError("not an object")
        made_with = data.pop("f")
    except (ValueError, KeyError, TypeError, binascii.Error) as exc:
        raise BadRequestError(f"cursor: not a cursor returned by {endpoint}") from exc
    if made_with != fingerprint(filters):
        raise BadRequestError("cursor: made with other filters; keep the filters while paging")
    return data


def encode_keyset(created_at: datetime, id_: uuid.UUID, filters: dict[str, Any]) -> str:
    """A cursor at the position ``(created_at, id)``: the keyset of time-ordered lists."""
    return encode({"t": created_at.isoformat(), "i": str(id_)}, filters)


def decode_keyset(
    cursor: str, filters: dict[str, Any], endpoint: str
) -> tuple[datetime, uuid.UUID]:
    """The ``(created_at, id)`` of a cursor made by :func:`encode_keyset` with the same
    ``filters``. Raises BadRequestError (422) otherwise."""
    data = decode(cursor, filters, endpoint)
    try:
        created_at, id_ = datetime.fromisoformat(data["t"]), uuid.UUID(data["i"])
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BadRequestError(f"cursor: not a cursor returned by {endpoint}") from exc
    if created_at.tzinfo is None:
        raise BadRequestError(f"cursor: not a cursor returned by {endpoint}")
    return created_at, id_
