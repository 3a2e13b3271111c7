"""A long message read in parts: consecutive sentences up to a number of characters, so a
rule that reads the text before each place it applies (a correction reads everything before
it) costs what the parts cost, linear in the message, not the message's length squared.

The parts are slices of the text: joined, they are the text. A message within the limit is
one part (read as before); a sentence longer than the limit is cut at a space.
"""

from __future__ import annotations

import re

# Where a sentence ends: its closing marks and the spaces after them (a space is needed after
# a Latin mark: "3.5", "e.g." go on).
_END = re.compile(r"[.!?…]+[\"'”’)）」』]*\s+|[。！？]+[\"'”’)）」』]*\s*")
# Where a stretch with no sentence end is cut instead: after a space or a comma.
_PAUSES = (" ", "\n", "，", ",", "、", "；", ";")


def parts(text: str, limit: int, keep: re.Pattern[str] | None = None) -> list[str]:
    """``text`` cut after sentence ends into consecutive slices of at most ``limit``
    characters (``"".join(parts(...)) == text``); ``keep`` matched at a sentence's start
    keeps that sentence with the one before (a correction opening it: "… Boston. Sorry,
    Cambridge."), the part may then run up to twice the limit. A stretch with no sentence end
    is cut after its last space or comma before the limit (else at the limit). ``limit`` ≥ 2."""
    if len(text) <= limit:
        return [text]
    out: list[str] = []
    start = 0
    while len(text) - start > limit:
        cut = _cut(text, start, limit, keep)
        out.append(text[start:cut])
        start = cut
    if start < len(text):
        out.append(text[start:])
    return out


def _cut(text: str, start: int, limit: int, keep: re.Pattern[str] | None) -> int:
    """Where the part that starts at ``start`` ends (``start`` < result ≤ start + 2·limit)."""
    best = None
    for m in _END.finditer(text, start + 1, min(len(text), start + 2 * limit)):
        at = m.end()
        if at >= len(text):
            break
        if keep is not None and keep.match(text, at):
            continue  # the next sentence corrects this one: not apart
        if at - start > limit:
            return best if best is not None else at
        best = at
    if best is not None:
        return best
    pause = max(text.rfind(c, start + 1, start + limit) for c in _PAUSES)
    return pause + 1 if pause > start + limit // 2 else start + limit
