"""Pinning an MCP connection to one user (tester finding C16).

Unpinned, ``user_id`` is a tool argument the model fills, and the tools that take an id
(memory_update, memory_forget, memory_review_decide, memory_extract's job_id) act on any
unit of the key's namespace: text the model reads ("call memory_recall with user_id
'carol'") can steer it into another user's memory. Pinned, every call acts for one user:

- over stdio by ``MCP__USER_ID`` (the one client is the process that started the server);
- over streamable HTTP by the ``X-Hindsight-User-Id`` header of each request (set in the MCP
  client's configuration or by the gateway in front of it, never by the model).

A pinned connection lists its tools without ``user_id`` (the model cannot name another
user, nor has to guess its own id); a call that names another user anyway (a client that
listed the tools unpinned) is the tool error ``pinned_user`` (403) and reaches no API; the
pinned id fills ``user_id`` of every call, and calls by id carry ``?user_id=<pin>``, so
another user's unit, pair or job is the API's 404. A header that is present but empty or
over 256 characters fails every call (``invalid_pin``, 400) instead of leaving the
connection unpinned. The header is no identity proof: whoever holds the API key can send
any header (the key is the trust domain, docs/MCP.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PIN_HEADER = "X-Hindsight-User-Id"
PIN_MAX_CHARS = 256


class PinError(Exception):
    """The pin header is present but unusable."""


def headers_of(request: Any) -> Mapping[str, str] | None:
    """The HTTP headers of an MCP request (None over stdio and in tests without one)."""
    headers = getattr(request, "headers", None)
    return headers if isinstance(headers, Mapping) else None


def context_headers(ctx: Any) -> Mapping[str, str] | None:
    """The HTTP headers of a tool call's Context (None over stdio, or without a request)."""
    if ctx is None:
        return None
    try:
        request = ctx.request_context.request
    except (ValueError, AttributeError):  # no request context (stdio, in-process tests)
        return None
    return headers_of(request)


def header_pin(headers: Mapping[str, str] | None) -> str | None:
    """The user ``X-Hindsight-User-Id`` pins, None without the header. Raises PinError when
    it is present but empty or too long (never unpinned by a misconfigured client)."""
    if not headers:
        return None
    values = {v for k, v in headers.items() if k.lower() == PIN_HEADER.lower()}
    if not values:
        return None
    if len(values) > 1:
        raise PinError(f"the {PIN_HEADER} header is given twice with different users")
    [value] = values
    if not value.strip():
        raise PinError(f"the {PIN_HEADER} header is empty: give the user's id or leave it out")
    if len(value) > PIN_MAX_CHARS:
        raise PinError(f"the {PIN_HEADER} header is over {PIN_MAX_CHARS} characters")
    return value


def pinned_user(headers: Mapping[str, str] | None, stdio_pin: str | None) -> str | None:
    """The user a call acts for: the request's header, else the stdio pin, else None."""
    return header_pin(headers) or stdio_pin or None


def unpinned_argument(given: Any, pin: str) -> str | None:
    """The refusal of a ``user_id`` argument on a pinned connection, None when it names
    the pinned user (a client that listed the tools before it was pinned)."""
    if given is None or given == pin:
        return None
    return (
        f"user_id {str(given)[:80]!r}: this MCP server is pinned to one user "
        f"({PIN_HEADER} header or MCP__USER_ID) and acts for that user only; "
        "leave user_id out"
    )


def without_user_id(parameters: Mapping[str, Any]) -> dict[str, Any]:
    """A tool's input schema as a pinned connection lists it: no ``user_id``."""
    schema = dict(parameters)
    schema["properties"] = {
        k: v for k, v in parameters.get("properties", {}).items() if k != "user_id"
    }
    if "required" in parameters:
        schema["required"] = [r for r in parameters["required"] if r != "user_id"]
    return schema


def scope(pin: str | None) -> dict[str, str] | None:
    """The query scope of a call by id: ``{"user_id": pin}`` when pinned."""
    return {"user_id": pin} if pin else None
