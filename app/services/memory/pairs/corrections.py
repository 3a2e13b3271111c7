"""A correction that names the value it replaces at its end ("Actually my trip is in April
2027, not May", 其实是四月，不是五月; tester G1): the pair decision compares the statement without
that tail with the old one, so other values in one sentence frame are a contradiction."""

from __future__ import annotations

import re

_NOT_THAT = re.compile(r"[,，]\s*(?:not|rather\s+than|而不是|不是)\s*([^,.，。]{1,20}?)\W*$")


def without_named_tail(new: str, old: str) -> str | None:
    """``new`` without its ", not X" tail when ``old`` names X (case-folded); None when ``new``
    has no such tail."""
    m = _NOT_THAT.search(new)
    if m is None or m.group(1).casefold() not in old.casefold():
        return None
    return new[: m.start()]
