"""Chat English typed without apostrophes or capitals, written as the rules read it: "i cant
have dairy" → "I can't have dairy", "i dont eat pork", "im vegan" → "I'm vegan" (tester
hbreak8 H33: "cant" and "wont" were read as verbs, "The user cants have dairy.", and the
constraint became an event that expires in 30 days). A lone lower-case "i" is the speaker; a
negation written without its apostrophe gets it back ("wont" only in a message that writes no
apostrophe at all: "wont" is also a word); "im" and "ive" (not "ill", "id": words) are "I'm"
and "I've". Text that has its apostrophes and capitals is returned as it is."""

from __future__ import annotations

import re

_NOT = re.compile(
    r"\b(can|don|doesn|didn|isn|aren|wasn|weren|haven|hasn|hadn|wouldn|shouldn|couldn|mustn)t\b",
    re.IGNORECASE,
)
_WONT = re.compile(r"\b(won)t\b", re.IGNORECASE)
_I = re.compile(r"(?<![\w'’.\-])i(?=[\s,;!?'’]|$)")
_I_CONTRACTED = re.compile(r"(?<![\w'’.\-])i(m|ve)\b")


def apostrophes(text: str) -> str:
    """``text`` with the speaker's "i" capitalised and the apostrophes of "cant", "dont",
    "im", … put back (module docstring)."""
    if not re.search(r"[a-z]", text):
        return text
    out = _NOT.sub(lambda m: f"{m.group(1)}'t", text)
    if "'" not in text and "’" not in text:
        out = _WONT.sub(lambda m: f"{m.group(1)}'t", out)
    out = _I_CONTRACTED.sub(lambda m: f"I'{m.group(1)}", out)
    return _I.sub("I", out)
