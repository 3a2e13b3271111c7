"""Parse an LLM reply into candidate units. The reply is untrusted input.

Accepted shapes: ``{"memories": [...]}`` (also ``units``), a bare array, or one unit object,
optionally inside Markdown code fences or after a ``<think>`` block. A reply that is not
JSON (empty, truncated, prose) raises :class:`ReplyParseError`; the caller asks again a
bounded number of times. Units that fail the schema are rejected one by one and reported,
never written half-parsed; a reply whose every unit fails counts as unparseable.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.services.extraction.units import Candidate

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


class ReplyParseError(ValueError):
    """The reply is not JSON of the expected shape."""


@dataclass
class ParsedReply:
    """Valid units and, per rejected unit, why (``{"index", "error"}``)."""

    units: list[Candidate] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)


def strip_wrapping(reply: str) -> str:
    """The JSON text inside a reply: think blocks dropped, code fences unwrapped."""
    text = _THINK.sub("", reply).strip()
    fenced = _FENCE.search(text)
    if fenced:
        return fenced.group(1).strip()
    if text.startswith("```"):  # an opening fence without its closing one (truncated)
        text = text.split("\n", 1)[1] if "\n" in text else ""
    return text.strip()


def _loads(text: str) -> Any:
    if not text:
        raise ReplyParseError("the reply is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        pass
    # Prose around one JSON value: take the outermost object or array.
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    if starts:
        start = min(starts)
        end = max(text.rfind("}"), text.rfind("]"))
        if end > start:
            try:
                return json.loads(text[start : end + 1])
            except json.JSONDecodeError as exc:
                raise ReplyParseError(f"the reply is not valid JSON ({exc.msg})") from exc
    raise ReplyParseError("the reply is not valid JSON (truncated or prose)")


def _items(data: Any) -> list[Any]:
    if isinstance(data, list):
        return data
    if isinstance(data, dict):
        for key in ("memories", "units", "items", "results"):
            if key in data:
                items = data[key]
                if not isinstance(items, list):
                    raise ReplyParseError(f'"{key}" is not a list')
                return items
        if "value" in data and "type" in data:
            return [data]
    raise ReplyParseError('expected {"memories": [...]} or a JSON array')


def parse_reply(reply: str) -> ParsedReply:
    """Validated units of an extraction reply. Raises ReplyParseError (see module doc)."""
    items = _items(_loads(strip_wrapping(reply)))
    parsed = ParsedReply()
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            parsed.rejected.append({"index": index, "error": "not an object"})
            continue
        try:
            parsed.units.append(Candidate.model_validate(item))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            parsed.rejected.append({"index": index, "error": f"{where}: {first.get('msg')}"})
    if items and not parsed.units:
        raise ReplyParseError(f"no unit matched the schema ({parsed.rejected[0]['error']})")
    return parsed


def parse_json_object(reply: str) -> dict[str, Any]:
    """A small JSON object reply (pre-filter, judge). Raises ReplyParseError."""
    data = _loads(strip_wrapping(reply))
    if not isinstance(data, dict):
        raise ReplyParseError("expected a JSON object")
    return data
