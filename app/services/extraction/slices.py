"""Long transcripts in slices: consecutive messages up to a token budget
(``EXTRACTION__WINDOW_TOKENS``, a name kept for compatibility), so one job's extraction works
on a bounded part at a time (an LLM prompt that fits, offline rules over a bounded list)
whatever the transcript's length, and nothing after the first slice is lost. ("Slice" here;
"window" is only the working-memory window.)

Each slice comes with the last few messages before it (``preceding``), given to the
extractor as context only: a reply that opens a slice still knows what it answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from app.clients.tokenizer import Tokenizer
from app.services.extraction.units import Turn


@dataclass(frozen=True)
class Slice:
    """Consecutive turns to extract from, and the turns just before them (context only)."""

    turns: list[Turn]
    preceding: tuple[Turn, ...]


def slices(
    turns: list[Turn], tokenizer: Tokenizer, max_tokens: int, context_turns: int = 2
) -> Iterator[Slice]:
    """``turns`` cut at message bounds into slices of at most ``max_tokens`` content tokens
    (a single longer message is a slice of its own), in order; each slice's ``preceding``
    holds up to ``context_turns`` turns before it."""
    current: list[Turn] = []
    used = 0
    start = 0
    for i, turn in enumerate(turns):
        tokens = tokenizer.count(turn.content)
        if current and used + tokens > max_tokens:
            yield Slice(current, tuple(turns[max(0, start - context_turns) : start]))
            current, used, start = [], 0, i
        current.append(turn)
        used += tokens
    if current:
        yield Slice(current, tuple(turns[max(0, start - context_turns) : start]))
