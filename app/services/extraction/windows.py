"""Long transcripts in windows: consecutive messages up to a token budget, so one job's
extraction works on a bounded slice at a time (an LLM prompt that fits, offline rules over a
bounded list) whatever the transcript's length, and nothing after the first window is lost.

Each window comes with the last few messages before it (``preceding``), given to the
extractor as context only: a reply that opens a window still knows what it answers.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from app.clients.tokenizer import Tokenizer
from app.services.extraction.units import Turn


@dataclass(frozen=True)
class Window:
    """Consecutive turns to extract from, and the turns just before them (context only)."""

    turns: list[Turn]
    preceding: tuple[Turn, ...]


def windows(
    turns: list[Turn], tokenizer: Tokenizer, max_tokens: int, context_turns: int = 2
) -> Iterator[Window]:
    """``turns`` cut at message bounds into windows of at most ``max_tokens`` content tokens
    (a single longer message is a window of its own), in order; each window's ``preceding``
    holds up to ``context_turns`` turns before it."""
    current: list[Turn] = []
    used = 0
    start = 0
    for i, turn in enumerate(turns):
        tokens = tokenizer.count(turn.content)
        if current and used + tokens > max_tokens:
            yield Window(current, tuple(turns[max(0, start - context_turns) : start]))
            current, used, start = [], 0, i
        current.append(turn)
        used += tokens
    if current:
        yield Window(current, tuple(turns[max(0, start - context_turns) : start]))
