"""Tool arguments: their one-line summary in each tool's description, and the tool error a
call with wrong, missing or unknown arguments gets.

Such a call is answered like any failed call (app/mcp/tools.py): a tool error whose text
starts with a stable code, ``invalid_arguments: memory_store: what_to_remember: required;
unknown argument 'value' (this tool calls it what_to_remember)``, and whose structured
content is ``{"error": {"code", "status", "title", "detail", "request_id"}}`` (status 422, as
the REST API's ``invalid_request``; request_id null: no API request was made). An unknown
tool is ``unknown_tool`` (404).

A call the API refuses (``invalid_request``, 422) names the tool's arguments too: the API's
detail starts with the REST field ("memories.0.occurred_at: …", "top_k: …"), which
:func:`in_tool_terms` renames to the argument that fills it ("when_it_happened: …").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from mcp.types import CallToolResult, TextContent

# REST field names (and other likely guesses) → the tool argument that means the same.
ALIASES: dict[str, dict[str, str]] = {
    "memory_store": {
        "value": "what_to_remember", "text": "what_to_remember", "memory": "what_to_remember",
        "content": "what_to_remember", "type": "kind", "query": "when_it_will_matter",
        "entities": "named_things", "confidence": "how_sure", "occurred_at": "when_it_happened",
        "ttl_days": "forget_after_days",
    },
    "memory_recall": {
        "query": "what_am_i_looking_for", "question": "what_am_i_looking_for",
        "top_k": "how_many_results", "limit": "how_many_results", "types": "only_kinds",
        "entities": "about_named_things", "include_superseded": "include_outdated",
    },
    "memory_update": {
        "id": "memory_id", "value": "corrected_text", "query": "when_it_will_matter",
        "entities": "named_things", "confidence": "how_sure", "type": "kind",
        "status": "mark_as",
    },
    "memory_forget": {"id": "memory_id"},
    "memory_extract": {
        "messages": "conversation", "transcript": "conversation", "timezone": "users_time_zone",
        "wait": "wait_for_result", "id": "job_id",
    },
    "memory_summarize": {"entity": "about_named_thing", "types": "only_kinds"},
    "memory_reviews": {"limit": "how_many", "subject": "user_id"},
    # The REST body says {"action": …}; the tool's word for it is decision.
    "memory_review_decide": {"action": "decision", "id": "review_id"},
}  # fmt: skip


# REST field (as the API's 422 detail names it) → the tool argument that fills it. Fields the
# tool passes under their own name (user_id, agent_id, time_range, rerank…) need no entry.
REST_FIELDS: dict[str, dict[str, str]] = {
    "memory_store": {
        "memories": "what_to_remember", "value": "what_to_remember", "type": "kind",
        "query": "when_it_will_matter", "entities": "named_things", "confidence": "how_sure",
        "occurred_at": "when_it_happened", "ttl_days": "forget_after_days",
    },
    "memory_recall": {
        "query": "what_am_i_looking_for", "top_k": "how_many_results", "types": "only_kinds",
        "entities": "about_named_things", "include_superseded": "include_outdated",
    },
    "memory_update": {
        "value": "corrected_text", "query": "when_it_will_matter", "entities": "named_things",
        "confidence": "how_sure", "type": "kind", "status": "mark_as",
    },
    "memory_extract": {
        "messages": "conversation", "timezone": "users_time_zone", "mode": "wait_for_result",
    },
    "memory_summarize": {"entity": "about_named_thing", "types": "only_kinds"},
    "memory_about": {"mentioned_in": "who_or_what", "name": "who_or_what", "limit": "how_many"},
    "memory_reviews": {"limit": "how_many"},
    "memory_review_decide": {"action": "decision"},
}  # fmt: skip

# The field a 422 detail starts with: ``body.`` / ``query.`` / ``path.`` (where FastAPI found
# it), the item of a /store batch, then the field and its list index (``entities[1]``).
_WHERE = re.compile(
    r"^(?:(?:body|query|path)\.)?(?:memories\.\d+\.)?(?P<field>[a-z_]+)(?:\.(?P<index>\d+))?"
    r"(?=[.:\[])"
)


def renamed(tool: str, detail: str) -> str:
    """``detail`` with the REST field it starts with renamed to ``tool``'s argument
    (``messages.2.content: …`` → ``conversation[2].content: …``, ``body.user_id: …`` →
    ``user_id: …``); a problem of the whole body loses its ``body: `` (``body: give at least
    one of user_id, agent_id, session_id``: those are the tool's argument names too); else
    unchanged when it starts with no field."""
    if detail.startswith("body: "):
        return detail.removeprefix("body: ")
    m = _WHERE.match(detail)
    if m is None:
        return detail
    field, index = m.group("field"), m.group("index")
    argument = REST_FIELDS.get(tool, {}).get(field, field)
    # A /store batch item ("memories.0") is the tool's one memory: no index.
    where = argument if index is None or field == "memories" else f"{argument}[{index}]"
    return where + detail[m.end() :]


def in_tool_terms(tool: str, result: Any) -> Any:
    """A tool's result, with the detail of an API refusal (422) naming the tool's arguments
    (:func:`renamed`) in its text and its structured error."""
    if not isinstance(result, CallToolResult) or not result.is_error:
        return result
    error = (result.structured_content or {}).get("error")
    if not isinstance(error, dict) or error.get("status") != 422:
        return result
    detail = str(error.get("detail") or "")
    new = renamed(tool, detail)
    if new == detail:
        return result
    content = [
        TextContent(text=c.text.replace(detail, new, 1)) if isinstance(c, TextContent) else c
        for c in result.content
    ]
    return CallToolResult(
        content=content,
        structured_content={"error": {**error, "detail": new}},
        is_error=True,
    )


def summary(parameters: Mapping[str, Any]) -> str:
    """``Arguments: what_to_remember (string, required), kind (one of …), …`` from a tool's
    input JSON schema."""
    required = set(parameters.get("required", ()))
    parts = []
    for name, prop in parameters.get("properties", {}).items():
        kind = _kind(prop)
        parts.append(f"{name} ({kind}{', required' if name in required else ''})")
    return "Arguments: " + ", ".join(parts) + "."


def _kind(prop: Mapping[str, Any]) -> str:
    options = [p for p in prop.get("anyOf", [prop]) if p.get("type") != "null"]
    prop = options[0] if options else prop
    if "enum" in prop:
        return "one of " + "/".join(str(v) for v in prop["enum"])
    kind = str(prop.get("type", "object"))
    if kind == "array":
        item = _kind(prop.get("items", {}))
        # "list of strings", but "list of (one of a/b/c)": an enum's values are not pluralised.
        return f"list of ({item})" if item.startswith("one of ") else f"list of {item}s"
    return {"integer": "whole number", "boolean": "true or false"}.get(kind, kind)


def unknown(name: str, parameters: Mapping[str, Any], arguments: Iterable[str]) -> list[str]:
    """Messages for the arguments the tool does not take, with the right name if known."""
    known = parameters.get("properties", {})
    out = []
    for arg in sorted(set(arguments) - set(known)):
        right = ALIASES.get(name, {}).get(arg)
        hint = f" (this tool calls it {right})" if right else ""
        out.append(f"unknown argument {arg!r}{hint}")
    return out


def problems(errors: Iterable[Mapping[str, Any]]) -> list[str]:
    """``what_to_remember: required`` for each pydantic error of the argument model."""
    out = []
    for e in errors:
        where = ".".join(str(p) for p in e.get("loc", ()))
        msg = "required" if e.get("type") == "missing" else str(e.get("msg", "invalid"))
        out.append(f"{where}: {msg.removeprefix('Value error, ')}" if where else msg)
    return out


def tool_error(code: str, status: int, title: str, detail: str) -> CallToolResult:
    """A tool error in the shape every failed call of these tools has."""
    error = {"code": code, "status": status, "title": title, "detail": detail, "request_id": None}
    return CallToolResult(
        content=[TextContent(text=f"{code}: {detail}")],
        structured_content={"error": error},
        is_error=True,
    )


def invalid_arguments(
    name: str, messages: list[str], parameters: Mapping[str, Any]
) -> CallToolResult:
    """``invalid_arguments`` listing every problem and what the tool takes."""
    detail = f"{name}: " + "; ".join(messages) + f". {summary(parameters)}"
    return tool_error("invalid_arguments", 422, "Invalid tool arguments", detail)
