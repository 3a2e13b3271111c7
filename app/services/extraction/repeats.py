"""No unit of a message repeats another of it: the offline extractor's typed unit and the
event of the same sentence ("The user has two kids." beside "The user has two kids and a
dog."), a standing statement and its exception ("The user is vegetarian." beside "… but the
user eats eggs."; tester C8, C11)."""

from __future__ import annotations

import re

from app.services.extraction.statements import unique
from app.services.extraction.units import Candidate

# Types by how long what they hold lasts: the unit that absorbs a shorter one keeps the longer.
_LASTING = {"constraint": 3, "fact": 2, "preference": 1}
# What may follow a unit's words in a longer unit of the same message that goes on from them.
_GOES_ON = re.compile(r"[\s,，;；:：、.。!！-]|和|与|跟|及|以及|并且|而且|但|不过")


def without_repeats(units: list[Candidate]) -> list[Candidate]:
    """The units of one message without one whose words open another ("The user has two
    kids." beside "The user has two kids and a dog."; "The user is vegetarian." beside "The
    user is vegetarian, but the user eats eggs."; tester C8, C11): the longer one stays,
    with the more lasting type, the shorter one's trigger scenario when it has none, and
    both's entities."""
    out = list(units)
    for short in units:
        words = short.value.rstrip(" .。!！").casefold()
        longer = next(
            (
                u
                for u in out
                if u is not short
                and len(u.value) > len(words)
                and u.value.casefold().startswith(words)
                and _GOES_ON.match(u.value[len(words) :])
            ),
            None,
        )
        if longer is None or not words:
            continue
        if _LASTING.get(short.type, 0) > _LASTING.get(longer.type, 0):
            longer.type = short.type
            longer.query = short.query if short.type != "preference" else longer.query
        longer.query = longer.query or short.query
        longer.entities = unique([*longer.entities, *short.entities])
        longer.confidence = max(longer.confidence, short.confidence)
        out.remove(short)
    return out
