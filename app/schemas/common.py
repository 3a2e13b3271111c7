"""Shared wire-contract pieces: the strict base model, clean strings, problem+json."""

from __future__ import annotations

import math
import re
import unicodedata
from datetime import UTC, datetime
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetJsonSchemaHandler,
    Strict,
)
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import core_schema

from app.core.identifiers import identifier_problem

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _clean(value: str) -> str:
    if "\x00" in value:
        raise ValueError("must not contain NUL bytes (\\u0000)")
    if _SURROGATE.search(value):
        raise ValueError("must be valid Unicode (found an unpaired surrogate)")
    return value


# Characters that show as nothing and count as blank beside whitespace: zero-width space,
# non-joiner and joiner, word joiner, the byte-order mark (tester D8: a value of only these
# was stored, one nobody could see or find).
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def not_blank(value: str) -> str:
    if not value.translate(_ZERO_WIDTH).strip():
        raise ValueError(
            "must not be empty or whitespace only (zero-width characters count as none)"
        )
    return value


# What :func:`not_blank` enforces, as JSON Schema says it: at least one character that is not
# whitespace to Python's ``str.strip`` (spelled out: ECMA-262's \S differs on a few) nor a
# zero-width one.
NOT_BLANK_PATTERN = (
    "[^\\t\\n\\v\\f\\r \\x1c-\\x1f\\x85\\xa0\\u1680\\u2000-\\u200d"
    "\\u2028\\u2029\\u202f\\u205f\\u2060\\u3000\\ufeff]"
)


class _NotBlankSchema:
    """Publishes :func:`not_blank` in the JSON Schema (``minLength`` 1 and the pattern; or
    another pattern, :data:`VISIBLE_PATTERN`); the check itself stays the validator's, so its
    message stays the same."""

    def __init__(self, pattern: str = NOT_BLANK_PATTERN) -> None:
        self.pattern = pattern

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema = handler(schema)
        json_schema.setdefault("minLength", 1)
        json_schema["pattern"] = self.pattern
        return json_schema


NotBlank = AfterValidator(not_blank)

# What shows as nothing in a value (tester H21: values of only these were stored): whitespace
# and the zero-width characters above, control characters, the invisible format characters
# (soft hyphen, the bidirectional marks and overrides such as U+202E, invisible operators,
# interlinear annotation marks) and characters that draw blank — the Hangul fillers (U+115F,
# U+1160, U+3164, U+FFA0), the braille blank U+2800, the Khmer inherent vowels, the Mongolian
# variation selectors and vowel separator, the variation selectors U+FE00–U+FE0F and the
# combining grapheme joiner. Within the Basic Multilingual Plane (the published pattern is
# one ECMA-262 character class); every other character is visible text.
_INVISIBLE = (
    "\\x00-\\x20\\x7f-\\xa0\\xad\\u034f\\u061c\\u115f\\u1160\\u1680\\u17b4\\u17b5"
    "\\u180b-\\u180f\\u2000-\\u200f\\u2028-\\u202f\\u205f-\\u2064\\u2066-\\u206f\\u2800"
    "\\u3000\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb"
)
VISIBLE_PATTERN = f"[^{_INVISIBLE}]"
_VISIBLE = re.compile(VISIBLE_PATTERN)


def visible(value: str) -> str:
    """``value`` when it holds a character that shows (``VISIBLE_PATTERN``), else a
    ValueError: a value of only invisible characters is one nobody could read or find."""
    if _VISIBLE.search(value) is None:
        raise ValueError(
            "has no visible text: only whitespace and characters that show as nothing "
            "(such as U+202E, U+3164, U+2800 or zero-width spaces)"
        )
    return value


def visible_unless_blank(value: str) -> str:
    """``value`` when it is blank (whitespace only: where a field takes that as "none") or
    holds a character that shows (:func:`visible`), else that ValueError."""
    return value if not value.strip() else visible(value)


MAX_JSON_DEPTH = 20

# ``POST /recall``'s ``include_superseded`` (app.services.recall.history).
SUPERSEDED_HISTORY = (
    "Also return superseded units (history: `status` `superseded`, `superseded_by` the unit "
    "that replaced it). A superseded hit never ranks above the unit that replaced it when "
    "that unit is among the best `top_k` + 5 candidates: its `score` is capped at its "
    "successor's, so it is listed after it (one whose successor is not among them keeps its "
    "own score). Scores are scaled over the candidates, so the current units' scores differ "
    "from an answer without the flag."
)


def clean_json(value: Any, depth: int = 0) -> Any:
    """Every string (keys too) clean, numbers finite, nesting bounded: PostgreSQL's JSONB
    rejects NUL, unpaired surrogates, NaN and Infinity, so they are a 422 here, not a 500."""
    if depth > MAX_JSON_DEPTH:
        raise ValueError(f"must not nest deeper than {MAX_JSON_DEPTH} levels")
    if isinstance(value, str):
        _clean(value)
    elif isinstance(value, float) and not math.isfinite(value):
        raise ValueError(f"not a finite number, got {value} (NaN and Infinity are refused)")
    elif isinstance(value, dict):
        for key, item in value.items():
            _clean(str(key))
            clean_json(item, depth + 1)
    elif isinstance(value, list):
        for item in value:
            clean_json(item, depth + 1)
    return value


# PostgreSQL's timestamptz and the service's date arithmetic (time ranges, TTLs of up to 100
# years) both stay in range between these bounds; outside them a date is a 422, not a 500.
EARLIEST = datetime(1000, 1, 1, tzinfo=UTC)
LATEST = datetime(9000, 12, 31, tzinfo=UTC)


# What a time without an offset gets: a 422 that says how to write one (docs/ARCHITECTURE.md,
# "Times"). Taking it as UTC silently moved a client's local times by their offset.
NAIVE_TIME = (
    "must give its UTC offset, e.g. 2026-03-14T09:00:00Z or 2026-03-14T17:00:00+08:00 "
    "(a time without one is ambiguous)"
)


def _aware(value: datetime) -> datetime:
    """Times carry their offset (a naive one is a 422: :data:`NAIVE_TIME`); years
    1000..9000 only."""
    if value.tzinfo is None or value.utcoffset() is None:
        raise ValueError(NAIVE_TIME)
    try:
        in_utc = value.astimezone(UTC)
    except OverflowError:
        in_utc = None
    if in_utc is None or not EARLIEST <= in_utc <= LATEST:
        raise ValueError("must lie between 1000-01-01 and 9000-12-31 (UTC)")
    return value


# The shortest ``ttl_days`` a write takes: one minute (tester finding C21d: ``1e-300`` wrote a
# unit that expired as it was written and was never recalled, the case a past ``expires_at``
# is refused for).
MIN_TTL_DAYS = 1 / 1440
MIN_TTL_DAYS_SHOWN = "0.000695"  # rounded up: a caller who sends it is not refused


def _ttl_days(value: float) -> float:
    if value < MIN_TTL_DAYS:
        raise ValueError(
            f"ttl_days is under one minute ({value:g} days; the least is 1/1440 ≈ "
            f"{MIN_TTL_DAYS_SHOWN}): a unit written already expired would never be recalled; "
            "send a longer ttl_days, or a future expires_at, or neither (the type's default TTL)"
        )
    return value


# Days until a unit expires, at least one minute (:data:`MIN_TTL_DAYS`), at most 100 years.
TtlDays = Annotated[
    float,
    Field(le=36500, json_schema_extra={"minimum": MIN_TTL_DAYS}),
    AfterValidator(_ttl_days),
]


def identifier(value: str) -> str:
    """An id refuses control, bidi, invisible and noncharacters, naming the first one and its
    position (app/core/identifiers.py); values keep them. Nor may it begin or end with
    whitespace: " alice" would be a second subject nobody finds again (tester D12). It is
    normalised to NFC: "zéd" typed precomposed and decomposed is one user (tester hbreak7 H28;
    until 2026-12-07 ids were stored as sent: a decomposed id stored then is reached only
    by a migration to NFC, none is shipped)."""
    value = unicodedata.normalize("NFC", value)
    problem = identifier_problem(value)
    if problem is not None:
        raise ValueError(problem)
    if value != value.strip():
        raise ValueError(
            f"must not begin or end with whitespace ({value!r} and {value.strip()!r} would be "
            "two different ids)"
        )
    return value


CleanStr = Annotated[str, AfterValidator(_clean)]
# A text a blank value clears (a trigger scenario), but never one of only invisible characters.
ClearableText = Annotated[str, AfterValidator(_clean), AfterValidator(visible_unless_blank)]
# Text and Identifier are never blank, and the published schema says so (_NotBlankSchema).
Text = Annotated[str, AfterValidator(_clean), NotBlank, _NotBlankSchema()]
# A unit's value: text that shows (:func:`visible`), and the published schema says so.
VisibleText = Annotated[
    str, AfterValidator(_clean), NotBlank, AfterValidator(visible), _NotBlankSchema(VISIBLE_PATTERN)
]
# Identifier (user, agent, session and task ids) also refuses what would make one id show
# as another (:func:`identifier`), and an id that shows as nothing (U+2800: :func:`visible`).
Identifier = Annotated[
    str,
    Field(min_length=1, max_length=256),
    AfterValidator(_clean),
    NotBlank,
    AfterValidator(identifier),
    AfterValidator(visible),
    _NotBlankSchema(),
]


def addressable_session(value: str) -> str:
    """A session id a write gives (``/store``, ``/extract``, an append) must be one a
    working-memory path can name: no ``/`` (a path segment ends there, even sent as ``%2F``)
    and not ``.`` or ``..`` (clients resolve them away). Reads and filters accept any id, so
    units written before stay readable (tester finding B13)."""
    if "/" in value:
        raise ValueError(
            "a session id cannot contain '/': /working_memory/{session_id} could never name it"
        )
    if value in (".", ".."):
        raise ValueError(f"a session id cannot be {value!r}: URL paths resolve it away")
    return value


# The session id of a write: an Identifier that /working_memory/{session_id} can name.
SessionId = Annotated[Identifier, AfterValidator(addressable_session)]

# ``2025-06-01T00:00:00 02:00``: the ``+`` of an unencoded query string, read as a space.
_PLUS_AS_SPACE = re.compile(r"T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)? \d{2}(?::?\d{2})?$")


def _iso_text(value: object) -> object:
    """A time from the wire is an ISO 8601 string: pydantic would read a number, or a string
    of digits, as seconds or milliseconds since 1970 by its size — a guess (tester finding
    T15: 1700000000 and 1700000000000 both became 2023-11-14)."""
    if isinstance(value, datetime):  # set in code, not from the wire
        return value
    if isinstance(value, str) and _PLUS_AS_SPACE.search(value):
        raise ValueError(
            f"{value!r} has a space before its offset: a '+' in a URL's query string reads "
            "as a space, so send it encoded as %2B (…T09:00:00%2B08:00), or use Z"
        )
    if not isinstance(value, str) or value.strip().lstrip("+-").replace(".", "", 1).isdigit():
        raise ValueError(
            "must be an ISO 8601 date-time string with its UTC offset, e.g. "
            "2026-03-14T09:00:00Z (not a number: seconds or milliseconds would be a guess)"
        )
    return value


AwareDatetime = Annotated[
    datetime, BeforeValidator(_iso_text), Strict(False), AfterValidator(_aware)
]


def _with_offset(value: datetime) -> datetime:
    if value.tzinfo is None:
        raise ValueError(NAIVE_TIME)
    return _aware(value)


# An instant that must say its offset (``as_of``): no naive reading as UTC, no numbers.
OffsetDatetime = Annotated[
    datetime, BeforeValidator(_iso_text), Strict(False), AfterValidator(_with_offset)
]
# A free-form JSON object that PostgreSQL's JSONB can store.
JsonObject = Annotated[dict[str, Any], AfterValidator(clean_json)]


class RequestModel(BaseModel):
    """Base of request bodies: unknown fields are an error, not silently dropped, and types
    are strict (JSON has them: ``true`` and ``"0.5"`` are not numbers, ``1`` is not a
    boolean; an integer is a valid float; NaN and Infinity are not finite numbers). Dates are
    ISO 8601 strings with their offset (:data:`AwareDatetime` lets those through)."""

    model_config = ConfigDict(
        extra="forbid", str_strip_whitespace=False, strict=True, allow_inf_nan=False
    )


class QueryModel(RequestModel):
    """Base of query-parameter models: every value arrives as a string, so numbers and
    booleans are parsed from text (``?max_tokens=500``); unknown parameters are an error."""

    model_config = ConfigDict(
        extra="forbid", str_strip_whitespace=False, strict=False, allow_inf_nan=False
    )


class ResponseModel(BaseModel):
    """Base of response bodies."""

    model_config = ConfigDict(from_attributes=True)


class Problem(BaseModel):
    """RFC 9457 problem details, as every error response carries them."""

    type: str = Field(default="about:blank", description="URI of the problem type.")
    title: str = Field(description="Short summary of the problem type.")
    status: int = Field(description="HTTP status code.")
    detail: str = Field(description="What went wrong with this request, in words.")
    code: str = Field(description="Stable machine-readable error code, e.g. `invalid_request`.")
    instance: str | None = Field(default=None, description="The request path.")
    errors: list[dict[str, Any]] | None = Field(
        default=None,
        description="Per-field validation errors, when the request was invalid: each with "
        "`loc`, `msg` and `type`; a list over its length (`too_long`: more than 100 units or "
        "messages) also gives its `limit`, so a client can send it in parts.",
    )
    request_id: str | None = Field(
        default=None,
        description="Id of this request (also the `X-Request-ID` header), to find it in logs.",
    )
