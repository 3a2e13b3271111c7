"""Who writes a summary (``POST /summarize``): the units of one entity's group become one
text — by an LLM when configured, else by :class:`OfflineSummarizer`'s digest.

The offline digest is one claim per line under the entity's name: each source value split
into sentences, greetings and other filler dropped ("Hi, …", "Thanks!"), repeated claims
(equal once normalised, or contained in a longer one) written once, in time order.
"""

from __future__ import annotations

import logging
import re
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Protocol

from app.clients.llm import ChatMessage, LLMClient
from app.clients.llm_reply import ReplyParseError, parse_json_object
from app.clients.model_tokens import ModelTokens
from app.core.entity_names import entity_key
from app.core.text import has_cjk, normalize
from app.core.vocabulary import SemanticType, is_semantic_type
from app.models import MemoryUnit
from app.schemas import limits
from app.schemas.lifecycle import SummaryMode
from app.services.extraction.filler import is_filler, sentences
from app.services.extraction.llm import BadReplyError

log = logging.getLogger(__name__)

# Units per group sent to the summariser (the rest of a large group stays active).
MAX_GROUP = 50
# "Hi, the user needs…" → "The user needs…": an opener that carries nothing.
_OPENER = re.compile(
    r"^(?:(?:hi|hello|hey|ok|okay|so|well|oh|wow|yes|yeah|sure|thanks|thank\s+you)\b[,!.:]?\s+)+",
    re.IGNORECASE,
)
_ZH_OPENER = re.compile(r"^(?:(?:你好|您好|嗨|好的|嗯|哦|谢谢)[，,！!。\s]*)+")


@dataclass
class Group:
    """Units sharing one entity (``key`` case-folded, ``entity`` as first written)."""

    key: str
    entity: str
    units: list[MemoryUnit] = field(default_factory=list)


@dataclass(frozen=True)
class Summary:
    """The text a summariser wrote for one group."""

    value: str
    query: str | None
    type: SemanticType


class Summarizer(Protocol):
    """Writes the summary of one group."""

    mode: SummaryMode

    async def summarize(self, entity: str, units: list[MemoryUnit]) -> Summary:
        """A semantic unit's text for ``units`` (all naming ``entity``)."""
        ...


def group_type(units: list[MemoryUnit]) -> SemanticType:
    """The sources' type when they share a semantic one, else ``fact``."""
    types = {u.type for u in units}
    only = types.pop() if len(types) == 1 else None
    return only if is_semantic_type(only) else "fact"


def group_by_entity(
    units: list[MemoryUnit], min_group: int, only: str | None = None
) -> list[Group]:
    """Assign each unit to at most one group. With ``only`` (a case-folded entity), one
    group of the units naming it. Otherwise greedily by entity frequency (most frequent
    first, ties alphabetical): a unit joins the first group whose entity it names; groups
    smaller than ``min_group`` release their units to later entities. Groups keep the units'
    order and at most :data:`MAX_GROUP` units."""
    naming: dict[str, list[MemoryUnit]] = {}  # per entity key, its units in order
    for u in units:
        for k in dict.fromkeys(u.entity_keys):
            naming.setdefault(k, []).append(u)
    counts = Counter({k: len(us) for k, us in naming.items()})
    keys = [only] if only is not None else sorted(counts, key=lambda k: (-counts[k], k))
    taken: set[uuid.UUID] = set()
    groups: list[Group] = []
    for key in keys:  # each unit looked at once per entity it names, not once per entity
        members = [u for u in naming.get(key, []) if u.id not in taken]
        if len(members) < min_group:
            continue
        members = members[:MAX_GROUP]
        first = members[0]
        name = next((e for e in first.entities if entity_key(e) == key), key)
        groups.append(Group(key, name, members))
        taken.update(u.id for u in members)
    return groups


class OfflineSummarizer:
    """Deterministic digest (module docstring), cut at ``LIMITS__VALUE_CHARS`` and, given the
    embedding model's ``tokens``, at ``max_tokens`` (``LIMITS__TEXT_TOKENS``: what ``/store``
    accepts and the model embeds; tester finding B8: a 514-token digest was embedded by its
    first 384 tokens, so the claims after them could not be recalled while their sources were
    archived). Sources whose claims do not fit stay active."""

    mode: SummaryMode = "offline"

    def __init__(self, tokens: ModelTokens | None = None, max_tokens: int = 384) -> None:
        self.tokens = tokens
        self.max_tokens = max_tokens

    def _fits(self, lines: list[str]) -> bool:
        return self.tokens is None or self.tokens.count("\n".join(lines)) <= self.max_tokens

    def _fitting(self, lines: list[str]) -> int:
        """How many of ``lines`` (the heading first) fit ``max_tokens``: the longest prefix,
        found by bisection (a line more never takes a token away), so a digest of n claims
        costs O(log n) counts of its text, not n (tester finding K9). The heading always."""
        if self._fits(lines):
            return len(lines)
        fits, over = 1, len(lines)  # lines[:fits] fit, lines[:over] do not
        while over - fits > 1:
            mid = (fits + over) // 2
            fits, over = (mid, over) if self._fits(lines[:mid]) else (fits, mid)
        return fits

    async def summarize(self, entity: str, units: list[MemoryUnit]) -> Summary:
        """``"<entity>:\\n- <claim>\\n- <claim>…"``; the query names the entity."""
        zh = any(has_cjk(u.value) for u in units)
        head = f"{entity}：" if zh else f"{entity}:"
        found = [c for u in units for c in claims(u.value)]
        keys = [normalize(c) for c in found]
        lines, length = [head], len(head)
        for i, (claim, key) in enumerate(zip(found, keys, strict=True)):
            # Written once: skip an earlier copy, or a claim a longer one already holds.
            if key in keys[:i] or any(key in k and key != k for k in keys):
                continue
            if length + len(claim) + 3 > limits.current().value_chars:
                break
            lines.append(f"- {claim}")
            length += len(claim) + 3
        lines = lines[: self._fitting(lines)]
        query = f"当谈到{entity}时" if zh else f"When the conversation turns to {entity}"
        return Summary("\n".join(lines), query, group_type(units))

    @staticmethod
    def covered(summary: Summary, units: list[MemoryUnit]) -> list[MemoryUnit]:
        """The units every claim of which the digest holds (the rest stay active)."""
        written = [normalize(line[2:]) for line in summary.value.split("\n")[1:]]
        return [
            u
            for u in units
            if all(any(normalize(c) in w for w in written) for c in claims(u.value))
        ]


# A digest's own lines (a digest consolidated again): "- <claim>" under "<entity>:".
_BULLET = re.compile(r"^\s*[-•*]\s+")
_HEAD = re.compile(r"^[^.!?。！？:：]{1,200}[:：]$")


def claims(value: str) -> list[str]:
    """The sentences of ``value`` that say something, without a greeting in front; a
    digest's bullets and its heading line (``<entity>:``) are not claims."""
    lines = [_BULLET.sub("", line).strip() for line in value.split("\n")]
    out: list[str] = []
    for sentence in (s for line in lines if not _HEAD.match(line) for s in sentences(line)):
        if is_filler(sentence):
            continue
        zh = has_cjk(sentence)
        text = (_ZH_OPENER if zh else _OPENER).sub("", sentence).strip()
        if text and not is_filler(text):
            if not text.endswith((".", "!", "?", "。", "！", "？", "…")):
                text += "。" if zh else "."
            out.append(text[:1].upper() + text[1:])
    return out


SYSTEM = """You consolidate an AI agent's long-term memory about one user.
You get several memory units that all concern "{entity}". Write ONE consolidated memory that
keeps every durable detail (names, numbers, dates, negations and conditions exactly), drops
repetition, and is written in the language of the units, in the third person.

Answer with a JSON object and nothing else:
{{"value": "<at most 400 characters>", "query": "<when this memory should come to mind, as a
situation>", "type": "fact" | "preference" | "constraint"}}"""

REPAIR = """Your previous reply could not be used: {error}. Reply again with ONLY the JSON
object {{"value": "...", "query": "...", "type": "..."}}; no prose, no code fences."""


def _messages(entity: str, units: list[MemoryUnit]) -> list[ChatMessage]:
    lines = [
        f"[{i}] ({u.type}, {u.occurred_at.date().isoformat()}) {u.value}"
        for i, u in enumerate(units)
    ]
    return [
        {"role": "system", "content": SYSTEM.format(entity=entity)},
        {"role": "user", "content": "\n".join(lines)},
    ]


def parse_summary(reply: str, default_type: SemanticType) -> Summary:
    """A validated summary from an LLM reply. Raises ReplyParseError."""
    data = parse_json_object(reply)
    value = data.get("value")
    if not isinstance(value, str) or not value.strip():
        raise ReplyParseError('"value" must be a non-empty string')
    value = value.replace("\x00", "").strip()
    if len(value) > limits.current().value_chars:
        raise ReplyParseError(f'"value" is longer than {limits.current().value_chars} characters')
    query = data.get("query")
    if query is not None and not isinstance(query, str):
        raise ReplyParseError('"query" must be a string')
    query = query.replace("\x00", "").strip()[: limits.current().value_chars] if query else None
    kind = data.get("type")
    kind = kind.strip().lower() if isinstance(kind, str) else default_type
    return Summary(value, query or None, kind if is_semantic_type(kind) else default_type)


class LLMSummarizer:
    """Summaries by an OpenAI-compatible chat model; replies validated, bounded re-asks."""

    mode: SummaryMode = "llm"

    def __init__(self, client: LLMClient, parse_retries: int = 2) -> None:
        self.client = client
        self.parse_retries = parse_retries

    async def summarize(self, entity: str, units: list[MemoryUnit]) -> Summary:
        """Raises ProviderError / ProviderTimeoutError from the client, BadReplyError when
        every reply was unusable."""
        messages = _messages(entity, units)
        error = ""
        for _ in range(self.parse_retries + 1):
            reply = await self.client.complete(messages)
            try:
                return parse_summary(reply, group_type(units))
            except ReplyParseError as exc:
                error = str(exc)
                log.info("unusable summary reply (%s); asking again", error)
                messages = [
                    *_messages(entity, units),
                    {"role": "assistant", "content": reply[:4000]},
                    {"role": "user", "content": REPAIR.format(error=error)},
                ]
        raise BadReplyError(
            f"LLM summary reply unusable after {self.parse_retries + 1} tries: {error}"
        )


def summarizer_for(
    client: LLMClient | None,
    parse_retries: int = 2,
    tokens: ModelTokens | None = None,
    max_tokens: int = 384,
) -> Summarizer:
    """The LLM summariser when a client is configured, else the offline one (its digest cut
    at ``max_tokens`` of the embedding model's ``tokens``)."""
    if client is None:
        return OfflineSummarizer(tokens, max_tokens)
    return LLMSummarizer(client, parse_retries)
