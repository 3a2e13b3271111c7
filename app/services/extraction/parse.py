"""Parse an LLM reply into candidate units. The reply is untrusted input.

Accepted shapes: ``{"memories": [...]}`` (also ``units``), a bare array, or one unit object,
optionally inside Markdown code fences or after a ``<think>`` block. A reply that is not
JSON (empty, truncated, prose) raises :class:`ReplyParseError`; the caller asks again a
bounded number of times. A malformed optional field (``entities``, ``confidence``,
``occurred_at``, ``expires_at``, ``source_turns``, ``query``) is left out and the unit kept
(its defaults apply; ``ParsedReply.repaired`` says which): one bad field no longer fails a job
(tester hbreak7 H12). Units whose ``type`` or ``value`` fail the schema are rejected one by one
and reported, never written half-parsed; a reply whose every unit fails counts as unparseable.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from app.clients.llm_reply import ReplyParseError, loads_reply
from app.services.extraction.units import Candidate

# Fields a unit stands without: a malformed one is left out, not the unit.
OPTIONAL_FIELDS = frozenset(
    {"entities", "confidence", "occurred_at", "time_anchor", "date", "expires_at",
     "source_turns", "query"}
)  # fmt: skip


@dataclass
class ParsedReply:
    """Valid units; per rejected unit, why (``{"index", "error"}``); per kept unit whose
    malformed optional fields were left out, which (``{"index", "fields"}``)."""

    units: list[Candidate] = field(default_factory=list)
    rejected: list[dict[str, Any]] = field(default_factory=list)
    repaired: list[dict[str, Any]] = field(default_factory=list)


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
    items = _items(loads_reply(reply))
    parsed = ParsedReply()
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            parsed.rejected.append({"index": index, "error": "not an object"})
            continue
        try:
            parsed.units.append(Candidate.model_validate(item))
        except ValidationError as exc:
            bad = {str(e["loc"][0]) for e in exc.errors() if e.get("loc")}
            if bad and bad <= OPTIONAL_FIELDS:
                try:  # the unit without its malformed optional fields
                    unit = Candidate.model_validate({k: v for k, v in item.items() if k not in bad})
                except ValidationError:
                    pass
                else:
                    parsed.units.append(unit)
                    parsed.repaired.append({"index": index, "fields": sorted(bad)})
                    continue
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            parsed.rejected.append({"index": index, "error": f"{where}: {first.get('msg')}"})
    if items and not parsed.units:
        raise ReplyParseError(f"no unit matched the schema ({parsed.rejected[0]['error']})")
    return parsed
