"""The lines of ``GET /context``'s block (app.services.context) and the fit of its standing
part: a unit's line (type, day, value, and a mark for each unresolved conflict), a window
message's line, and which standing constraints and preferences a token budget holds.

A unit flagged as contradicting another still active is marked on its line — the other side
quoted, and which of the two is newer, or that both were said at the same time — so an
agent does not take both as true (tester B16, E16). Where the full mark does not fit, a line
carries the compact one (``[unresolved conflict with a newer unit]``), so the marks never
crowd a constraint out of the block (tester F16).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any
from zoneinfo import ZoneInfoNotFoundError

from app.models import MemoryUnit
from app.repositories.recall.sql import RecalledUnit
from app.services.extraction.dates import zone
from app.services.working_memory.ranking import Chosen

Placed = MemoryUnit | RecalledUnit
Conflicts = dict[uuid.UUID, list[MemoryUnit]]  # unit id → the active units it contradicts
# How much of the other side's value a conflict mark quotes (characters).
QUOTE_CHARS = 80

PREFERENCES_HEADER = "## Standing preferences and constraints"
MEMORIES_HEADER = "## Recalled memories (most relevant first)"
WINDOW_HEADER = "## Current conversation (selected messages, oldest first)"


def one_line(text: str) -> str:
    """``text`` with every run of whitespace (newlines too) one space."""
    return " ".join(text.split())


def unit_day(unit: Placed) -> date:
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


def said_order(unit: Placed) -> tuple[datetime, datetime]:
    """What "newer" compares: (``occurred_at``, ``created_at``)."""
    return (unit.occurred_at, unit.created_at)


def conflict_mark(unit: Placed, other: MemoryUnit, compact: bool = False) -> str:
    """The mark on a unit flagged as contradicting ``other`` (tester B16: "likes X" and
    "hates X" side by side, unmarked, read as both true): the other side quoted, its date,
    and which of the two was stated later — or, when both have the same ``occurred_at`` and
    ``created_at`` (one message: "I live in Denver. Actually no, I live in Boulder."),
    that they were said at the same time (tester E16: each side said "this one is newer").
    ``compact``: without the quote and the date (for a budget the full mark does not fit)."""
    mine, theirs = said_order(unit), said_order(other)
    if compact:
        if mine == theirs:
            return " [unresolved conflict with a unit said at the same time]"
        return f" [unresolved conflict with {'a newer' if theirs > mine else 'an older'} unit]"
    value = one_line(other.value)
    if len(value) > QUOTE_CHARS:
        value = value[: QUOTE_CHARS - 1].rstrip() + "…"
    said = unit_day(other).isoformat()
    if mine == theirs:
        return f' [unresolved conflict with "{value}" ({said}); said at the same time]'
    later = "that one" if theirs > mine else "this one"
    return f' [unresolved conflict with "{value}" ({said}); {later} is newer]'


def unit_line(unit: Placed, conflicts: Conflicts | None = None, compact: bool = False) -> str:
    """``- [type, day] value`` and a :func:`conflict_mark` per unresolved conflict."""
    day = unit_day(unit).isoformat()
    if (unit.metadata_ or {}).get("time_anchor") == "unknown":  # "a while back" (B27)
        day = f"date unknown, said {day}"
    line = f"- [{unit.type}, {day}] {one_line(unit.value)}"
    for other in (conflicts or {}).get(unit.id, []):
        line += conflict_mark(unit, other, compact)
    return line


def speaker(role: str, metadata: dict[str, Any]) -> str:
    """Who said a message, for the block: ``Caroline (user)`` when the message carries a
    speaker's name (``MessageCreate.name``, kept as ``metadata.name``: several people speak
    as ``user`` in a group chat), else the role alone. The name is put on one line and cut
    to 64 characters, the limit of ``name``, so no metadata reshapes the block."""
    name = metadata.get("name")
    if isinstance(name, str) and (name := one_line(name)[:64].strip()):
        return f"{name} ({role})"
    return role


def message_line(chosen: Chosen) -> str:
    """``<speaker>[ truncated]: <content>`` of a window message."""
    mark = " [truncated]" if chosen.truncated else ""
    entry = chosen.ranked.entry
    return f"{speaker(entry.role, entry.metadata)}{mark}: {chosen.content}"


@dataclass(frozen=True)
class Fit:
    """Which units a part holds: their indexes (in the given order), whether each carries
    the compact marks (by index), and the tokens used with the header (0 when none)."""

    taken: list[int]
    compact: dict[int, bool]
    used: int

    def rank(self, units: Sequence[Placed]) -> tuple[int, int, int]:
        """Better fits first: more constraints, more units, more full marks."""
        held = sum(units[i].type == "constraint" for i in self.taken)
        return (held, len(self.taken), sum(not c for c in self.compact.values()))


def fit_standing(
    units: Sequence[Placed],
    conflicts: Conflicts,
    count: Callable[[str], int],
    budget: int,
    constraint_budget: int | None = None,
) -> Fit:
    """The standing units (constraints first) that ``budget`` tokens hold under the header:
    first every constraint that fits with compact marks (within ``constraint_budget``,
    default ``budget``: constraints may take more than the part's share), then the full
    marks of those taken, as far as ``budget`` allows; preferences only when no constraint
    was left out (a constraint that does not fit is not displaced by a preference), each
    with its full marks, else the compact ones, else left out. ``count``: tokens of a text.
    Tester F16: at ``max_tokens=200`` the allergies, long with their conflict marks, were
    skipped and a preference took their place."""
    wide = budget if constraint_budget is None else max(budget, constraint_budget)
    used = count(PREFERENCES_HEADER + "\n")
    full = [count(unit_line(u, conflicts) + "\n") for u in units]
    short = [count(unit_line(u, conflicts, compact=True) + "\n") for u in units]
    compact: dict[int, bool] = {}
    constraints = [i for i, u in enumerate(units) if u.type == "constraint"]
    for i in constraints:
        if used + short[i] <= wide:
            compact[i] = True
            used += short[i]
    for i in list(compact):
        if used - short[i] + full[i] <= budget:
            compact[i] = False
            used += full[i] - short[i]
    if len(compact) == len(constraints):
        for i, u in enumerate(units):
            if u.type == "constraint":
                continue
            if used + full[i] <= budget:
                compact[i], used = False, used + full[i]
            elif used + short[i] <= budget:
                compact[i], used = True, used + short[i]
    taken = sorted(compact)
    return Fit(taken, compact, used) if taken else Fit([], {}, 0)
