"""Validation errors in words that say what to fix: :func:`friendly` rewrites one pydantic
error for app.api.errors' 422s, with :func:`json_type` naming a value's JSON type.

pydantic's messages describe the check ("String should have at most 2000 characters");
these say what the caller sent and what is allowed ("at most 2,000 characters, got 2,001"),
for the ``detail`` and each ``errors[].msg`` of a 422 problem. Unknown error types keep
pydantic's message. The echoed input is never returned (it may be huge or private); only its
JSON type or length is named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def json_type(value: Any) -> str:
    """The JSON name of a decoded value's type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _size(value: Any) -> int | None:
    try:
        return len(value)
    except TypeError:
        return None


Rewrite = Callable[[dict[str, Any], Any], str]


def _unit(value: Any, unit: str) -> str:
    # A length checked after another validator is reported as "too_long" even for text.
    return "character" if isinstance(value, str) else unit


def _too_long(unit: str) -> Rewrite:
    def rewrite(ctx: dict[str, Any], value: Any) -> str:
        got = ctx.get("actual_length", _size(value))
        tail = f", got {got:,}" if isinstance(got, int) else ""
        return f"at most {_plural(int(ctx['max_length']), _unit(value, unit))}{tail}"

    return rewrite


def _too_short(unit: str) -> Rewrite:
    def rewrite(ctx: dict[str, Any], value: Any) -> str:
        low, unit_ = int(ctx["min_length"]), _unit(value, unit)
        got = ctx.get("actual_length", _size(value))
        if low == 1 and got == 0:
            return f"must not be empty (at least 1 {unit_})"
        tail = f", got {got:,}" if isinstance(got, int) else ""
        return f"at least {_plural(low, unit_)}{tail}"

    return rewrite


def _bound(word: str, key: str) -> Rewrite:
    def rewrite(ctx: dict[str, Any], value: Any) -> str:
        return f"{word} {ctx[key]}, got {value}"

    return rewrite


def _kind(expected: str) -> Rewrite:
    def rewrite(ctx: dict[str, Any], value: Any) -> str:
        return f"must be {expected}, got {json_type(value)}"

    return rewrite


_REWRITES: dict[str, Rewrite] = {
    "string_too_long": _too_long("character"),
    "string_too_short": _too_short("character"),
    "too_long": _too_long("item"),
    "too_short": _too_short("item"),
    "less_than_equal": _bound("at most", "le"),
    "less_than": _bound("less than", "lt"),
    "greater_than_equal": _bound("at least", "ge"),
    "greater_than": _bound("greater than", "gt"),
    "float_type": _kind("a number"),
    "float_parsing": _kind("a number"),
    "int_type": _kind("an integer"),
    "int_parsing": _kind("an integer"),
    "int_from_float": _kind("an integer"),
    "bool_type": _kind("true or false"),
    "bool_parsing": _kind("true or false"),
    "string_type": _kind("a string"),
    "list_type": _kind("an array"),
    "dict_type": _kind("an object"),
    "model_type": _kind("an object"),
    "model_attributes_type": _kind("an object"),
    "finite_number": lambda ctx, value: f"not a finite number, got {value}",
    "missing": lambda ctx, value: "required",
    "extra_forbidden": lambda ctx, value: "unknown field (see the OpenAPI document)",
}


def friendly(error: dict[str, Any]) -> str:
    """The message for one pydantic error dict (``type``, ``msg``, ``ctx``, ``input``)."""
    rewrite = _REWRITES.get(str(error.get("type", "")))
    ctx = error.get("ctx") or {}
    if rewrite is not None:
        try:
            return rewrite(ctx, error.get("input"))
        except (KeyError, TypeError, ValueError):
            pass
    msg = str(error.get("msg", "invalid"))
    return msg.removeprefix("Value error, ")
