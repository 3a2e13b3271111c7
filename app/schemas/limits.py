"""Request size limits (``LIMITS__*``), governed by the app they serve.

The wire models carry markers (:class:`MaxChars`, :class:`MaxItems`, :class:`MaxValue`) that
name a field of :class:`LimitsSettings` instead of a number. The number is looked up when a
value is validated and when the JSON schema is generated, in the limits bound to the current
context: ``create_app(settings)`` binds ``settings.limits`` around every request, its
lifespan (so an in-process worker inherits them) and its OpenAPI document; ``hindsight
worker`` binds its own. Unbound, the defaults apply — which is what importing a schema sees,
so no settings are read at import. The errors are pydantic's own (``too_long``,
``less_than_equal``) with the same messages, and the OpenAPI document shows the bound numbers
(``maxLength``, ``maxItems``, ``maximum``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from pydantic import GetCoreSchemaHandler, GetJsonSchemaHandler
from pydantic_core import PydanticCustomError, PydanticKnownError, core_schema

from app.core.config import LimitsSettings

_DEFAULTS = LimitsSettings()
_CURRENT: ContextVar[LimitsSettings | None] = ContextVar("hindsight_limits", default=None)


def current() -> LimitsSettings:
    """The limits bound to this context (the defaults when none are)."""
    return _CURRENT.get() or _DEFAULTS


@contextmanager
def bound(limits: LimitsSettings) -> Iterator[None]:
    """Validate and describe the wire models with ``limits`` inside the block."""
    token = _CURRENT.set(limits)
    try:
        yield
    finally:
        _CURRENT.reset(token)


def bind(limits: LimitsSettings) -> None:
    """Bind ``limits`` for the rest of this context (a process's main task)."""
    _CURRENT.set(limits)


@dataclass(frozen=True)
class _Limit:
    """A constraint whose number is the ``name`` field of the current limits."""

    name: str

    def value(self) -> int:
        return int(getattr(current(), self.name))

    json_key = ""

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        json_schema = handler(schema)
        json_schema[self.json_key] = self.value()
        return json_schema


class MaxChars(_Limit):
    """At most that many characters (checked after the string's own validators, as
    pydantic's ``max_length`` is on a validated string type)."""

    json_key = "maxLength"

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def check(value: Any) -> Any:
            limit = self.value()
            if len(value) > limit:
                raise _too_long("Value", limit, len(value))
            return value

        return core_schema.no_info_after_validator_function(check, handler(source))


class MaxItems(_Limit):
    """At most that many items, checked before the items are (as pydantic's list
    ``max_length``): an oversized list is refused without validating its items."""

    json_key = "maxItems"

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def check(value: Any) -> Any:
            limit = self.value()
            if isinstance(value, list | tuple) and len(value) > limit:
                raise _too_long("List", limit, len(value))
            return value

        return core_schema.no_info_before_validator_function(check, handler(source))


class MaxValue(_Limit):
    """A number at most that large."""

    json_key = "maximum"

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def check(value: Any) -> Any:
            limit = self.value()
            if value > limit:
                raise PydanticKnownError("less_than_equal", {"le": limit})
            return value

        return core_schema.no_info_after_validator_function(check, handler(source))


def json_bytes(value: Any) -> int:
    """The size of ``value`` as compact UTF-8 JSON, in bytes (what ``LIMITS__METADATA_BYTES``
    counts)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode())


class MaxJsonBytes(_Limit):
    """A JSON value of at most that many bytes as compact UTF-8 JSON (checked after its own
    validators); JSON Schema has no keyword for it: the field's description says it."""

    def __get_pydantic_core_schema__(
        self, source: Any, handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        def check(value: Any) -> Any:
            limit = self.value()
            size = json_bytes(value)
            if size > limit:
                raise PydanticCustomError(
                    "json_too_large",
                    "must be at most {limit} bytes as JSON (LIMITS__{setting}), got {size}",
                    {"limit": f"{limit:,}", "size": f"{size:,}", "setting": self.name.upper()},
                )
            return value

        return core_schema.no_info_after_validator_function(check, handler(source))

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> dict[str, Any]:
        return handler(schema)


def _too_long(field_type: str, limit: int, length: int) -> PydanticKnownError:
    ctx = {"field_type": field_type, "max_length": limit, "actual_length": length}
    return PydanticKnownError("too_long", ctx)


class LimitsContext:
    """ASGI middleware: every request and the lifespan of the app run with ``limits``."""

    def __init__(self, app: Callable[..., Any], limits: LimitsSettings) -> None:
        self.app = app
        self.limits = limits

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        with bound(self.limits):
            await self.app(scope, receive, send)
