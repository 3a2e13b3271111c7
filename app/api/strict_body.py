"""A JSON body is UTF-8 and gives each key of an object once.

A key given twice in an object is a 422, as a query parameter given twice is
(app/api/strict_query.py).

``json.loads`` keeps the last of duplicate keys, so ``{"user_id": "alice", "user_id": "bob"}``
was served as bob's, while a gateway or proxy that authorises on the first value reads alice
(parameter pollution in the body; tester finding C1). One app-wide dependency parses the body
FastAPI already read (Starlette keeps its bytes) again with an ``object_pairs_hook`` that
notes duplicate keys at any depth, and refuses the request before any other dependency runs
(no key lookup, no transaction): ``memories.0.user_id: given more than once …``. Cost: one
more parse of the body: 7 µs for a recall body, 0.22 ms for a store of 100 units (24 kB;
plain ``json.loads`` 4 µs and 0.13 ms; measured 2026-12-06 on this project's 2-core machine).

The body is read as UTF-8 only (RFC 8259 §8.1; a UTF-8 byte order mark is tolerated):
``json.loads`` on bytes also takes UTF-16 and UTF-32, which a gateway or filter that reads the
body as UTF-8 text cannot inspect (tester finding C6), so such a body is the 400
``malformed_json`` of any body that is not UTF-8. A ``Content-Encoding`` (gzip, …) is a 415:
bodies are sent uncompressed (it used to be called "not valid UTF-8").
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.routing import APIRoute


class _Object(dict[str, Any]):
    """A parsed JSON object that remembers the keys it was given more than once."""

    twice: tuple[str, ...] = ()


def _pairs(found: list[bool]) -> Any:
    def hook(pairs: list[tuple[str, Any]]) -> _Object:
        obj = _Object(pairs)
        if len(obj) < len(pairs):
            keys = [k for k, _ in pairs]
            obj.twice = tuple(dict.fromkeys(k for k in keys if keys.count(k) > 1))
            found.append(True)
        return obj

    return hook


def _where(value: Any, path: tuple[str | int, ...]) -> list[tuple[tuple[str | int, ...], str]]:
    """Every (path of an object, key it repeats) in ``value``."""
    out: list[tuple[tuple[str | int, ...], str]] = []
    if isinstance(value, _Object):
        out += [(path, key) for key in value.twice]
        for key, item in value.items():
            out += _where(item, (*path, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _where(item, (*path, i))
    return out


def content_encoding(request: Request) -> str | None:
    """The request's Content-Encoding when it is one (gzip, br, …), else None (none, or
    ``identity``); at most 40 characters."""
    encoding = request.headers.get("content-encoding", "").strip().lower()
    return encoding[:40] if encoding not in ("", "identity") else None


class NotUtf8Error(ValueError):
    """A body that FastAPI parsed as JSON but that is not UTF-8 JSON (UTF-16 or UTF-32)."""


def duplicate_keys(body: bytes) -> list[tuple[tuple[str | int, ...], str]]:
    """Where ``body`` (JSON) gives a key twice in one object: (the object's path, the key);
    empty for a body without duplicates or one that is not JSON (FastAPI reports that).

    Raises UnicodeDecodeError when ``body`` is not UTF-8, :class:`NotUtf8Error` when it is
    JSON only in another encoding (UTF-16 or UTF-32 without a byte order mark)."""
    text = body.decode("utf-8")
    found: list[bool] = []
    try:
        parsed = json.loads(text.removeprefix("\ufeff"), object_pairs_hook=_pairs(found))
    except ValueError:
        try:
            json.loads(body)
        except ValueError:
            return []  # not JSON in any encoding: FastAPI's own 400
        raise NotUtf8Error from None
    return _where(parsed, ()) if found else []


async def reject_duplicate_keys(request: Request) -> None:
    """Raise a RequestValidationError (422 ``invalid_request``, ``<path>.<key>: given more
    than once``) when the JSON body repeats a key in one object; an HTTPException 400
    (``malformed_json``) when the body is not UTF-8, 415 when it has a Content-Encoding."""
    route = request.scope.get("route")
    if not isinstance(route, APIRoute) or not route.include_in_schema:
        return
    body = await request.body()
    if not body:
        return
    encoding = content_encoding(request)
    if encoding is not None:
        raise HTTPException(
            415, f"Content-Encoding {encoding!r} is not accepted: send the body uncompressed"
        )
    try:
        twice = duplicate_keys(body)
    except UnicodeDecodeError as error:  # errors.py words it: the byte and its offset
        raise HTTPException(400) from error
    except NotUtf8Error as error:
        raise HTTPException(400) from error
    if twice:
        raise RequestValidationError(
            [
                {
                    "type": "value_error",
                    "loc": ("body", *path, key),
                    "msg": "given more than once in one JSON object; each key takes one value",
                    "input": None,
                }
                for path, key in twice
            ]
        )
