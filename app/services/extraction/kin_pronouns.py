"""Opening pronouns of a relative: a "he" or "she" that opens a sentence or clause after the
speaker named one relative of that gender. "Can you help me plan a party for my son? He's
turning 7 next Saturday." kept "He's turning 7 on 2026-12-12 (Saturday)." — a unit that says
nothing alone (the question it followed is no unit). The pronoun becomes the relative ("My son
is turning 7 …", then "The user's son …"); "His"/"Her" become "My son's"/"My wife's".

Only when the message names exactly one relative of the pronoun's gender before it (a son, a
husband, a father… for "he"; a daughter, a wife, a mother… for "she"); a friend, a colleague
or two such relatives leave the pronoun as it is. English only: a Chinese 他/她 after 我儿子 is
read as written.
"""

from __future__ import annotations

import re

_HE = (
    "son", "husband", "dad", "father", "brother", "boyfriend", "grandfather", "grandpa",
    "uncle", "nephew", "fiancé", "fiance", "stepson", "stepfather", "stepdad",
)  # fmt: skip
_SHE = (
    "daughter", "wife", "mom", "mum", "mother", "sister", "girlfriend", "grandmother",
    "grandma", "aunt", "niece", "fiancée", "fiancee", "stepdaughter", "stepmother", "stepmom",
)  # fmt: skip
_KIN = re.compile(
    r"\bmy\s+(?:(?:little|big|older|younger|eldest|oldest|youngest|baby|\d+-year-old)\s+)?"
    rf"({'|'.join(_HE + _SHE)})\b",
    re.IGNORECASE,
)
# A pronoun opening a sentence or a clause after a comma or semicolon.
_OPENING = re.compile(
    r"(?:(?<=^)|(?<=[.!?]\s)|(?<=[,;]\s))(He|She|he|she|His|Her|his|her)\b(['’]s\b)?"
    r"(\s+been\b)?"
)


def _kin_before(text: str, end: int, she: bool) -> str | None:
    kin = {m.group(1).lower() for m in _KIN.finditer(text, 0, end)}
    kin = {k for k in kin if (k in _SHE) == she}
    return kin.pop() if len(kin) == 1 else None


def resolved(text: str) -> str:
    """``text`` with each opening "he"/"she"/"his"/"her" written as the one relative of that
    gender the text named before it (module docstring)."""
    if not _KIN.search(text):
        return text
    out: list[str] = []
    last = 0
    for m in _OPENING.finditer(text):
        word = m.group(1).lower()
        kin = _kin_before(text, m.start(), she=word in ("she", "her"))
        if kin is None or (word == "her" and m.group(2)):
            continue
        cap = m.start() == 0 or text[m.start() - 2] in ".!?"
        head = f"{'My' if cap else 'my'} {kin}"
        if word in ("his", "her"):
            phrase = head + "'s" + (m.group(3) or "")
        elif m.group(2):  # "He's been" → "My son has been"; "He's turning" → "My son is"
            phrase = head + (" has" if m.group(3) else " is") + (m.group(3) or "")
        else:
            phrase = head + (m.group(3) or "")
        out += [text[last : m.start()], phrase]
        last = m.end()
    out.append(text[last:])
    return "".join(out)
