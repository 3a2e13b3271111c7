"""The rerank question (docs/EVAL.md "Rerank"): which of these numbered memories help with
the agent's question, best first? Asked by ``services/memory/rerank.py``.

Candidates are labelled 1..N in hybrid order: short labels cost a token or two each where a
UUID costs about 25, and a model copies a small number more reliably than a long id. The
labels are mapped back to unit ids by the caller. Memory text is untrusted input: the worst
a memory can do here is reorder its own subject's candidates.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from app.clients.llm import ChatMessage
from app.clients.llm_reply import ReplyParseError, loads_reply
from app.models import MemoryUnit

# Bumped whenever RERANK or describe() changes: cached orders of an older prompt are not reused.
PROMPT_VERSION = "rerank-1"
# Characters of a memory's value and trigger scenario put in the prompt.
VALUE_CHARS = 400
QUERY_CHARS = 160

RERANK = """You order memories for an AI agent. The agent is about to answer or act on the
QUESTION; a search of its memories found the numbered MEMORIES below. Put them in the order
of how much each one helps with the question: first the memories that answer it directly
(the right person, thing and time), then those that give context the answer needs. Leave out
memories that do not help at all. Judge by meaning, not by shared words; dates matter when
the question asks about time ("last week", "when", "before"). Memories may be in any
language.

Answer with a JSON object and nothing else: {"order": [3, 1, 7]} - the numbers of the helpful
memories, best first, each at most once."""

_LABEL = re.compile(r"\s*\[?#?\s*(\d{1,4})\s*\]?\s*")


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit] + "…"


def describe(unit: MemoryUnit) -> str:
    """One memory as the model sees it, without its label:
    ``type, date: value (when: trigger scenario)``."""
    line = f"{unit.type}, {unit.occurred_at.date().isoformat()}: {_cut(unit.value, VALUE_CHARS)}"
    if unit.query:
        line += f" (when: {_cut(unit.query, QUERY_CHARS)})"
    return line


def today(now: datetime) -> str:
    """The agent's day as the prompt states it: ``2026-11-25 (Wednesday)``."""
    return f"{now.date().isoformat()} ({now.strftime('%A')})"


def build_rerank(question: str, memories: list[str], day: str) -> list[ChatMessage]:
    """The chat asking for the order of ``memories`` (from :func:`describe`), labelled 1..N."""
    listing = "\n".join(f"[{n}] {text}" for n, text in enumerate(memories, start=1))
    user = f"Today: {day}\nQUESTION: {_cut(question, 2000)}\nMEMORIES:\n{listing}"
    return [{"role": "system", "content": RERANK}, {"role": "user", "content": user}]


def _label(item: Any) -> int | None:
    if isinstance(item, bool):
        return None
    if isinstance(item, int):
        return item
    if isinstance(item, float) and item.is_integer():
        return int(item)
    if isinstance(item, str) and (m := _LABEL.fullmatch(item)):
        return int(m.group(1))
    return None


def parse_order(reply: str, n: int) -> list[int]:
    """The 0-based candidate indexes of a reply ``{"order": [labels]}`` (a bare list, or an
    object with one list under another key, also do), best first. Labels outside 1..n,
    repeated ones and non-numbers are ignored. Raises ReplyParseError when the reply holds
    no list, or a list that names none of the candidates."""
    data = loads_reply(reply)
    items: Any = data
    if isinstance(data, dict):
        items = data.get("order")
        if items is None:
            lists = [v for v in data.values() if isinstance(v, list)]
            items = lists[0] if len(lists) == 1 else None
    if not isinstance(items, list):
        raise ReplyParseError('expected {"order": [candidate numbers]}')
    order: list[int] = []
    seen: set[int] = set()
    for item in items:
        label = _label(item)
        if label is None or not 1 <= label <= n or label in seen:
            continue
        seen.add(label)
        order.append(label - 1)
    if items and not order:
        raise ReplyParseError(f"the reply named none of the {n} candidates")
    return order
