"""``GET /context``: what an agent puts in its system prompt when a session starts or a turn
begins — the subject's strongest preferences and constraints, the units recalled for the
turn, and the working-memory window — fitted to one token budget.

The usable budget is ``max_tokens`` minus the answer headroom (applied once, here). It is
split by configurable shares; a part's unused tokens pass on in the order preferences →
memories → window, so a subject with no stored units gets a longer window, and what the
memories and the window leave unused goes back to the standing preferences and constraints
(constraints first) before any of them is left out. Without a query
the session's latest user message stands in for it; with neither, nothing is recalled.

A placed unit flagged as contradicting another still active (``conflicts_with``: stored close
in time; or an open review of kind ``contradiction``: no one has decided which holds) is
marked on its line — the other side quoted, and which of the two is newer, or that both were
said at the same time — so an agent does not take both as true (tester B16, E16).
"""

from __future__ import annotations

import math
import time
import uuid
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfoNotFoundError

from app.clients.tokenizer import Tokenizer
from app.core.config import ContextSettings
from app.models import MemoryUnit
from app.repositories.memory.context import ContextRepository
from app.repositories.recall.sql import RecalledUnit
from app.schemas.context import QuerySource
from app.schemas.recall import RecallRequest
from app.schemas.working_memory import MAX_QUERY_CHARS
from app.services.extraction.dates import zone
from app.services.recall.service import RecallService
from app.services.session_owner import check_scope
from app.services.working_memory.ranking import Chosen, Selection
from app.services.working_memory.window import WorkingMemoryService


@dataclass(frozen=True)
class PlacedUnit:
    """A unit placed in the block (``score`` for recalled ones)."""

    unit: MemoryUnit | RecalledUnit
    score: float | None = None


@dataclass
class ContextResult:
    """The block and its parts."""

    text: str
    tokens: int
    budget_tokens: int
    query: str | None
    query_source: QuerySource | None
    preferences: list[PlacedUnit] = field(default_factory=list)
    memories: list[PlacedUnit] = field(default_factory=list)
    window: list[Chosen] = field(default_factory=list)
    used_preferences: int = 0
    used_memories: int = 0
    used_window: int = 0
    degraded: bool = False
    took_ms: float = 0.0
    # Per placed unit, the active units it is flagged as contradicting (``conflicts_with``).
    conflicts: dict[uuid.UUID, list[MemoryUnit]] = field(default_factory=dict)

    def conflict_ids(self, unit_id: uuid.UUID) -> list[uuid.UUID]:
        """The ids of the active units ``unit_id`` is flagged as contradicting."""
        return [u.id for u in self.conflicts.get(unit_id, [])]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def unit_day(unit: MemoryUnit | RecalledUnit) -> date:
    """The day of the unit's ``occurred_at`` in the zone its dates were resolved in (an
    extracted unit's ``metadata.timezone``), else in UTC. Tester finding C12: a unit
    extracted in Asia/Shanghai about the 16th was listed as of the 15th (its UTC day),
    contradicting its own text."""
    tz = unit.metadata_.get("timezone") if isinstance(unit.metadata_, dict) else None
    if isinstance(tz, str) and tz:
        try:
            return unit.occurred_at.astimezone(zone(tz)).date()
        except (ZoneInfoNotFoundError, ValueError):
            pass
    return unit.occurred_at.astimezone(UTC).date()


Placed = MemoryUnit | RecalledUnit
# How much of the other side's value a conflict mark quotes (characters).
QUOTE_CHARS = 80


def _order(unit: Placed) -> tuple[datetime, datetime]:
    return (unit.occurred_at, unit.created_at)


def _conflict_mark(unit: Placed, other: MemoryUnit) -> str:
    """The mark on a unit flagged as contradicting ``other`` (tester B16: "likes X" and
    "hates X" side by side, unmarked, read as both true): the other side quoted, its date,
    and which of the two was stated later — or, when both have the same ``occurred_at`` and
    ``created_at`` (one message: "I live in Denver. Actually no, I live in Boulder."),
    that they were said at the same time (tester E16: each side said "this one is newer")."""
    value = _one_line(other.value)
    if len(value) > QUOTE_CHARS:
        value = value[: QUOTE_CHARS - 1].rstrip() + "…"
    said = unit_day(other).isoformat()
    mine, theirs = _order(unit), _order(other)
    if mine == theirs:
        return f' [unresolved conflict with "{value}" ({said}); said at the same time]'
    later = "that one" if theirs > mine else "this one"
    return f' [unresolved conflict with "{value}" ({said}); {later} is newer]'


def _unit_line(unit: Placed, conflicts: dict[uuid.UUID, list[MemoryUnit]] | None = None) -> str:
    day = unit_day(unit).isoformat()
    if (unit.metadata_ or {}).get("time_anchor") == "unknown":  # "a while back" (B27)
        day = f"date unknown, said {day}"
    line = f"- [{unit.type}, {day}] {_one_line(unit.value)}"
    for other in (conflicts or {}).get(unit.id, []):
        line += _conflict_mark(unit, other)
    return line


def speaker(role: str, metadata: dict[str, Any]) -> str:
    """Who said a message, for the block: ``Caroline (user)`` when the message carries a
    speaker's name (``MessageCreate.name``, kept as ``metadata.name``: several people speak
    as ``user`` in a group chat), else the role alone. The name is put on one line and cut
    to 64 characters, the limit of ``name``, so no metadata reshapes the block."""
    name = metadata.get("name")
    if isinstance(name, str) and (name := _one_line(name)[:64].strip()):
        return f"{name} ({role})"
    return role


def _message_line(chosen: Chosen) -> str:
    mark = " [truncated]" if chosen.truncated else ""
    entry = chosen.ranked.entry
    return f"{speaker(entry.role, entry.metadata)}{mark}: {chosen.content}"


# Fewer content tokens than this is no longer the message (ranking.select's floor too).
MIN_CUT_TOKENS = 8

PREFERENCES_HEADER = "## Standing preferences and constraints"
MEMORIES_HEADER = "## Recalled memories (most relevant first)"
WINDOW_HEADER = "## Current conversation (selected messages, oldest first)"


def _render(result: ContextResult) -> str:
    sections: list[str] = []
    c = result.conflicts
    if result.preferences:
        sections.append(
            "\n".join([PREFERENCES_HEADER, *(_unit_line(p.unit, c) for p in result.preferences)])
        )
    if result.memories:
        sections.append(
            "\n".join([MEMORIES_HEADER, *(_unit_line(p.unit, c) for p in result.memories)])
        )
    if result.window:
        sections.append("\n".join([WINDOW_HEADER, *(_message_line(c) for c in result.window)]))
    return "\n\n".join(sections)


class ContextService:
    """Assembles the context block; collaborators are passed in."""

    def __init__(
        self,
        working_memory: WorkingMemoryService,
        recall: RecallService,
        repo: ContextRepository,
        tokenizer: Tokenizer,
        settings: ContextSettings,
    ) -> None:
        self.working_memory = working_memory
        self.recall = recall
        self.repo = repo
        self.tokenizer = tokenizer
        self.settings = settings

    def _fit_lines(self, header: str, lines: list[str], budget: int) -> tuple[list[int], int]:
        """Indexes of ``lines`` that fit under ``header`` in ``budget`` tokens (in order,
        skipping lines too long), and the tokens used (0 when none fits)."""
        used = self.tokenizer.count(header + "\n")
        taken: list[int] = []
        for i, line in enumerate(lines):
            cost = self.tokenizer.count(line + "\n")
            if used + cost <= budget:
                taken.append(i)
                used += cost
        return (taken, used) if taken else ([], 0)

    async def build(
        self,
        namespace: str,
        user_id: str,
        session_id: str | None,
        query: str | None,
        max_tokens: int | None,
        now: datetime,
        embed_tokens: int | None = None,
        agent_id: str | None = None,
    ) -> ContextResult:
        """The block for ``user_id`` (and ``session_id``'s window); with ``agent_id`` its
        preferences and recalled units are that agent's only, as ``/recall``'s. Raises NotFoundError
        when the session's owner is another user. ``embed_tokens``: model tokens this request
        may still have embedded (None: no bound): a query taken from the session (its latest
        user message, cut to its first ``LIMITS__TEXT_TOKENS``) counts against it, and the
        window read embeds itself the messages still without a vector only within what is
        left (the others are ranked without relevance). Raises ProviderError when embedding
        fails."""
        start = time.perf_counter()
        usable = self.working_memory.budget_for(max_tokens)
        s = self.settings
        shares = s.share_preferences + s.share_memories + s.share_window or 1.0

        entries = []
        # One deadline for the request's waits on the background's embeddings.
        deadline = self.working_memory.embed_deadline()
        if session_id is not None:
            # Another user's session is a 404, as another user's unit is (session_owner.py); asked
            # of the transcript, which outlives the window.
            await self.working_memory.check_scope(namespace, session_id, user_id)
            # Stored vectors first (no waiting: deadline 0); what the read may embed itself
            # is known once the query is, and it waits once, until `deadline`, below.
            bounded = embed_tokens is not None
            snapshot = await self.working_memory.read(
                namespace,
                session_id,
                with_embeddings=True,
                embed_tokens=0 if bounded else None,
                deadline=0.0 if bounded else deadline,
            )
            check_scope(session_id, snapshot.owner, user_id)  # owned since the check above
            entries = snapshot.entries
        query_source: QuerySource | None = "request" if query else None
        if query is None:
            last_user = next((e for e in reversed(entries) if e.role == "user"), None)
            if last_user is not None:
                query, spent = self.working_memory.default_query(
                    last_user.content[:MAX_QUERY_CHARS]
                )
                query_source = "last_user_message"
                if embed_tokens is not None:
                    embed_tokens -= spent
        if entries and embed_tokens is not None and session_id is not None:
            snapshot = await self.working_memory.with_vectors(
                namespace, session_id, snapshot, max(0, embed_tokens), deadline
            )
            entries = snapshot.entries

        result = ContextResult(
            text="", tokens=0, budget_tokens=usable, query=query, query_source=query_source
        )
        preferences = await self.repo.strongest_units(
            namespace, user_id, now, agent_id=agent_id, limit=s.max_preferences
        )
        # Constraints (an allergy, a medication) before preferences; strongest first in each.
        preferences.sort(key=lambda u: u.type != "constraint")
        recalled: list[PlacedUnit] = []
        if query:
            hits = await self.recall.recall(
                namespace,
                RecallRequest(query=query, user_id=user_id, agent_id=agent_id, top_k=s.top_k),
                now,
            )
            result.degraded = hits.degraded
            shown = {u.id for u in preferences}
            recalled = [PlacedUnit(u, r.score) for u, r in hits.hits if u.id not in shown]

        result.conflicts = await self._conflicts(
            namespace, user_id, [*preferences, *(p.unit for p in recalled)], now
        )
        budget = math.floor(usable * s.share_preferences / shares)
        standing = [_unit_line(u, result.conflicts) for u in preferences]
        taken, used = self._fit_lines(PREFERENCES_HEADER, standing, budget)
        result.preferences = [PlacedUnit(preferences[i]) for i in taken]
        result.used_preferences = used

        budget = budget - used + math.floor(usable * s.share_memories / shares)
        lines = [_unit_line(p.unit, result.conflicts) for p in recalled]
        taken, used = self._fit_lines(MEMORIES_HEADER, lines, budget)
        result.memories = [recalled[i] for i in taken]
        result.used_memories = used

        # Two tokens per section break ("\n\n") are kept aside for the joins.
        remaining = usable - result.used_preferences - result.used_memories - 4
        header_cost = self.tokenizer.count(WINDOW_HEADER + "\n")
        if entries and remaining > header_cost:
            selection = await self.working_memory.choose(entries, query, remaining - header_cost)
            result.window, result.used_window = self._window_lines(selection, remaining)
        self._standing_takes_the_rest(result, preferences, standing, usable)

        result.text = _render(result)
        result.tokens = self.tokenizer.count(result.text)
        # The parts were priced one by one; the joined text is checked, and trimmed from the
        # least important end, so the block never exceeds the budget.
        while result.tokens > usable and (result.window or result.memories or result.preferences):
            if result.window:
                result.window.remove(min(result.window, key=lambda c: c.ranked.score))
            elif result.memories:
                result.memories.pop()
            else:
                result.preferences.pop()
            result.text = _render(result)
            result.tokens = self.tokenizer.count(result.text)
        result.took_ms = (time.perf_counter() - start) * 1000.0
        return result

    async def _conflicts(
        self, namespace: str, user_id: str, units: list[Placed], now: datetime
    ) -> dict[uuid.UUID, list[MemoryUnit]]:
        """Per unit of ``units`` flagged as contradicting others — ``conflicts_with`` (their
        order was unclear when stored) or an open review of kind ``contradiction`` (tester
        E16: "prefers window seats" / "prefers aisle seats", pending, went unmarked); no one
        has decided the pair yet — those others still active, oldest first; two reads for
        all."""
        sides: dict[uuid.UUID, set[uuid.UUID]] = {u.id: set(u.conflicts_with) for u in units}
        pairs = await self.repo.open_contradictions(namespace, user_id, list(sides))
        for a, b in pairs:
            for this, other in ((a, b), (b, a)):
                if this in sides:
                    sides[this].add(other)
        wanted = set().union(*sides.values()) if sides else set()
        if not wanted:
            return {}
        found = await self.repo.active_among(namespace, user_id, list(wanted), now)
        others = {u.id: u for u in sorted(found, key=_order)}
        return {
            uid: [others[i] for i in others if i in linked]
            for uid, linked in sides.items()
            if any(i in others for i in linked)
        }

    def _standing_takes_the_rest(
        self, result: ContextResult, units: list[MemoryUnit], lines: list[str], usable: int
    ) -> None:
        """Tokens the recalled memories and the window left unused go back to the standing
        part (tester finding B30: 2 of 5 constraints shown with 311 of 400 tokens unused);
        its share is what it gets when the others need theirs. A share of 0 keeps it off."""
        if self.settings.share_preferences <= 0 or len(result.preferences) == len(units):
            return
        spare = usable - result.used_preferences - result.used_memories - result.used_window - 4
        if spare <= 0:
            return
        taken, used = self._fit_lines(PREFERENCES_HEADER, lines, result.used_preferences + spare)
        if len(taken) > len(result.preferences):
            result.preferences = [PlacedUnit(units[i]) for i in taken]
            result.used_preferences = used

    def _window_lines(self, selection: Selection, remaining: int) -> tuple[list[Chosen], int]:
        """Keep the chosen messages whose rendered lines fit ``remaining`` tokens with the
        section header (the overhead estimate is checked against the real count). Over it, a
        message cut to fit is cut further by the excess; only when none can give that much
        is the lowest-scoring message dropped (tester finding C26: a session's only message,
        a long pasted log, was cut to the budget and then dropped for its speaker prefix)."""
        chosen = list(selection.chosen)
        while chosen:
            text = "\n".join([WINDOW_HEADER, *(_message_line(c) for c in chosen)]) + "\n"
            used = self.tokenizer.count(text)
            if used <= remaining:
                return chosen, used
            over = used - remaining
            cut = max((c for c in chosen if c.truncated), key=lambda c: c.tokens, default=None)
            if cut is not None and cut.tokens - over - 2 >= MIN_CUT_TOKENS:
                # Two tokens of slack: a cut can tokenise differently where it joins.
                content = self.tokenizer.truncate(cut.ranked.entry.content, cut.tokens - over - 2)
                shorter = replace(cut, content=content, tokens=self.tokenizer.count(content))
                chosen[chosen.index(cut)] = shorter
                continue
            # Drop the lowest-scoring message and try again.
            chosen.remove(min(chosen, key=lambda c: c.ranked.score))
        return [], 0
