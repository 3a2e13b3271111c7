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
marked on its line (app.services.context_lines) so an agent does not take both as true.

The standing constraints come first (tester F16): they may take the memories' share too, a
constraint left out keeps every preference out of the standing part, a conflict mark that
does not fit is shortened rather than the constraint dropped, and a standing unit that is
not placed there may still be placed among the recalled memories.
"""

from __future__ import annotations

import asyncio
import math
import time
import uuid
from dataclasses import dataclass, field, replace
from datetime import datetime

import numpy as np

from app.clients.tokenizer import Tokenizer
from app.core.config import ContextSettings
from app.models import MemoryUnit
from app.repositories.memory.context import ContextRepository
from app.repositories.recall.sql import RecalledUnit
from app.schemas.context import QuerySource
from app.schemas.recall import RecallRequest
from app.schemas.working_memory import MAX_QUERY_CHARS
from app.services.context_lines import (
    MEMORIES_HEADER,
    PREFERENCES_HEADER,
    WINDOW_HEADER,
    Conflicts,
    Fit,
    Placed,
    fit_standing,
    message_line,
    said_order,
    unit_line,
)
from app.services.recall.service import RecallService
from app.services.session_owner import check_scope
from app.services.working_memory.ranking import Chosen, Selection
from app.services.working_memory.window import WorkingMemoryService


@dataclass(frozen=True)
class PlacedUnit:
    """A unit placed in the block (``score`` for recalled ones)."""

    unit: MemoryUnit | RecalledUnit
    score: float | None = None
    compact: bool = False  # its conflict marks shortened to fit (context_lines.conflict_mark)


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


def _settled(task: asyncio.Future[np.ndarray]) -> None:
    """Retrieve the outcome of an embedding nobody may wait for any more."""
    if not task.cancelled():
        task.exception()


def _placed(units: list[MemoryUnit], fit: Fit) -> list[PlacedUnit]:
    return [PlacedUnit(units[i], compact=fit.compact[i]) for i in fit.taken]


# Fewer content tokens than this is no longer the message (ranking.select's floor too).
MIN_CUT_TOKENS = 8


def _render(result: ContextResult) -> str:
    sections: list[str] = []
    c = result.conflicts
    for header, part in (
        (PREFERENCES_HEADER, result.preferences),
        (MEMORIES_HEADER, result.memories),
    ):
        if part:
            lines = (unit_line(p.unit, c, p.compact) for p in part)
            sections.append("\n".join([header, *lines]))
    if result.window:
        sections.append("\n".join([WINDOW_HEADER, *(message_line(c) for c in result.window)]))
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

    def _fit_memories(self, units: list[Placed], conflicts: Conflicts, budget: int) -> Fit:
        """The recalled units that fit under their header in ``budget`` tokens, in order, each
        with its full conflict marks, else the compact ones, else skipped."""
        used = self.tokenizer.count(MEMORIES_HEADER + "\n")
        compact: dict[int, bool] = {}
        for i, unit in enumerate(units):
            for short in (False, True):
                cost = self.tokenizer.count(unit_line(unit, conflicts, short) + "\n")
                if used + cost <= budget:
                    compact[i], used = short, used + cost
                    break
        return Fit(sorted(compact), compact, used) if compact else Fit([], {}, 0)

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
        early = None  # the default query's embedding, begun before the wait (tester H34)
        if query and entries and query_source == "last_user_message":
            early = asyncio.ensure_future(self.working_memory.query_vector(query))
            early.add_done_callback(_settled)  # shared with recall, kept if the read fails
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
        recalled: list[PlacedUnit] = []  # standing units too: placed below only if not above
        if query:
            hits = await self.recall.recall(
                namespace,
                RecallRequest(query=query, user_id=user_id, agent_id=agent_id, top_k=s.top_k),
                now,
            )
            result.degraded = hits.degraded
            recalled = [PlacedUnit(u, r.score) for u, r in hits.hits]

        result.conflicts = await self._conflicts(namespace, user_id, preferences, recalled, now)
        budget = math.floor(usable * s.share_preferences / shares)
        # Constraints may take the recalled memories' share too: they come first (F16).
        both = budget + math.floor(usable * s.share_memories / shares)
        count = self.tokenizer.count
        fit = fit_standing(preferences, result.conflicts, count, budget, both if budget else 0)
        result.preferences = _placed(preferences, fit)
        result.used_preferences = fit.used

        shown = {p.unit.id for p in result.preferences}
        recalled = [p for p in recalled if p.unit.id not in shown]
        fit = self._fit_memories([p.unit for p in recalled], result.conflicts, both - fit.used)
        result.memories = [replace(recalled[i], compact=fit.compact[i]) for i in fit.taken]
        result.used_memories = fit.used

        # Two tokens per section break ("\n\n") are kept aside for the joins.
        remaining = usable - result.used_preferences - result.used_memories - 4
        header_cost = self.tokenizer.count(WINDOW_HEADER + "\n")
        if entries and remaining > header_cost:
            selection = await self.working_memory.choose(
                entries, query, remaining - header_cost, await early if early else None
            )
            result.window, result.used_window = self._window_lines(selection, remaining)
        self._standing_takes_the_rest(result, preferences, usable)

        result.text = _render(result)
        result.tokens = self.tokenizer.count(result.text)
        # The parts were priced one by one; the joined text is checked, and trimmed from the
        # least important end, so the block never exceeds the budget.
        while result.tokens > usable and (result.window or result.memories or result.preferences):
            if result.window:
                result.window.remove(max(result.window, key=lambda c: c.rank))
            elif result.memories:
                result.memories.pop()
            else:
                result.preferences.pop()
            result.text = _render(result)
            result.tokens = self.tokenizer.count(result.text)
        result.took_ms = (time.perf_counter() - start) * 1000.0
        return result

    async def _conflicts(
        self,
        namespace: str,
        user_id: str,
        standing: list[MemoryUnit],
        recalled: list[PlacedUnit],
        now: datetime,
    ) -> Conflicts:
        """Per unit of ``standing`` and ``recalled`` flagged as contradicting others —
        ``conflicts_with`` (their order was unclear when stored) or an open review of kind
        ``contradiction`` (tester E16: "prefers window seats" / "prefers aisle seats",
        pending, went unmarked); no one has decided the pair yet — those others still
        active, oldest first; two reads for all."""
        units: list[Placed] = [*standing, *(p.unit for p in recalled)]
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
        others = {u.id: u for u in sorted(found, key=said_order)}
        return {
            uid: [others[i] for i in others if i in linked]
            for uid, linked in sides.items()
            if any(i in others for i in linked)
        }

    def _standing_takes_the_rest(
        self, result: ContextResult, units: list[MemoryUnit], usable: int
    ) -> None:
        """Tokens the recalled memories and the window left unused go back to the standing
        part (tester finding B30: 2 of 5 constraints shown with 311 of 400 tokens unused);
        its share is what it gets when the others need theirs. A share of 0 keeps it off.
        A unit it takes leaves the recalled memories (tokens counted twice until then)."""
        now = result.preferences
        complete = len(now) == len(units) and not any(p.compact for p in now)
        if self.settings.share_preferences <= 0 or complete:
            return
        spare = usable - result.used_preferences - result.used_memories - result.used_window - 4
        if spare <= 0:
            return
        fit = fit_standing(
            units, result.conflicts, self.tokenizer.count, result.used_preferences + spare
        )
        index = {u.id: i for i, u in enumerate(units)}
        held = Fit([index[p.unit.id] for p in now], {index[p.unit.id]: p.compact for p in now}, 0)
        if fit.rank(units) > held.rank(units):
            result.preferences = _placed(units, fit)
            result.used_preferences = fit.used
            shown = {p.unit.id for p in result.preferences}
            if any(p.unit.id in shown for p in result.memories):
                result.memories = [p for p in result.memories if p.unit.id not in shown]
                lines = [unit_line(p.unit, result.conflicts, p.compact) for p in result.memories]
                text = "\n".join([MEMORIES_HEADER, *lines]) + "\n"
                result.used_memories = self.tokenizer.count(text) if lines else 0

    def _window_lines(self, selection: Selection, remaining: int) -> tuple[list[Chosen], int]:
        """Keep the chosen messages whose rendered lines fit ``remaining`` tokens with the
        section header (the overhead estimate is checked against the real count). Over it, a
        message cut to fit is cut further by the excess; only when none can give that much
        is the message placed last in fill order dropped (tester finding C26: a session's
        only message, a long pasted log, was cut to the budget and then dropped for its
        speaker prefix)."""
        chosen = list(selection.chosen)
        while chosen:
            text = "\n".join([WINDOW_HEADER, *(message_line(c) for c in chosen)]) + "\n"
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
            # Drop the message placed last (fill order: standing statements and their lifts
            # stay longest, tester H19) and try again.
            chosen.remove(max(chosen, key=lambda c: c.rank))
        return [], 0
