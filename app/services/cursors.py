"""Opaque keyset cursors: a position plus a fingerprint of the filters that produced it, so a
cursor is refused when the filters change while paging."""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
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
