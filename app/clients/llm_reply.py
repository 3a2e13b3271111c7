"""Reading JSON out of a chat model's reply, which is untrusted input.

A reply may wrap its JSON in Markdown code fences, put a ``<think>`` block first, or add prose
around one JSON value. A reply that holds no usable JSON (empty, truncated, prose) raises
:class:`ReplyParseError`; callers ask again a bounded number of times.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)
_THINK = re.compile(r"<think>.*?</think>", re.DOTALL)


class ReplyParseError(ValueError):
    """The reply is not JSON of the expected shape."""


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


def loads_reply(reply: str) -> Any:
    """The one JSON value of a reply, wrapping removed. Raises ReplyParseError."""
    return _loads(strip_wrapping(reply))


def parse_json_object(reply: str) -> dict[str, Any]:
    """A small JSON object reply (pre-filter, judge). Raises ReplyParseError."""
    data = loads_reply(reply)
    if not isinstance(data, dict):
        raise ReplyParseError("expected a JSON object")
    return data
