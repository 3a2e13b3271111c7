"""Identifiers (user, agent, session and task ids, namespaces) that show as what they are.

An id is shown to people (the console, logs, `GET /subjects`) and compared byte for byte, so
characters that change how the text around them is displayed, or that display as nothing,
let two different ids look the same or one id look like another: ``alice\\u202egnp.exe``
shows as ``aliceexe.png``, ``bob\\u200b`` as ``bob``. Ids refuse them; values (memory
content, messages) keep them, since there they are text, and the console isolates them.

Refused (:func:`forbidden_character`):

- control characters (Unicode category Cc, C0 and C1), line and paragraph separators;
- format characters (category Cf): every bidi control (U+061C, U+200E/F, U+202A..U+202E,
  U+2066..U+2069), zero-width space, joiners and no-break space (U+200B..U+200D, U+2060,
  U+FEFF), soft hyphen, invisible operators, tag characters;
- the other default-ignorable code points (Unicode's ``Default_Ignorable_Code_Point``:
  variation selectors, the combining grapheme joiner, Hangul fillers, …), which render as
  nothing;
- noncharacters (U+FDD0..U+FDEF and the last two code points of every plane);
- unpaired surrogates.
"""

from __future__ import annotations

import unicodedata

import regex

_FORBIDDEN = regex.compile(
    r"[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}\p{Noncharacter_Code_Point}]"
)

_KINDS = {
    "Cc": "a control character",
    "Cf": "an invisible format character",
    "Cs": "an unpaired surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
_BIDI = frozenset([0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)])


def describe(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE (a bidi control)``: the code point, its name and why
    an identifier refuses it."""
    code = ord(char)
    name = unicodedata.name(char, "")
    if code in _BIDI:
        kind = "a bidi control"
    elif (0xFDD0 <= code <= 0xFDEF) or (code & 0xFFFE) == 0xFFFE:
        kind = "a noncharacter"
    else:
        kind = _KINDS.get(unicodedata.category(char), "an invisible character")
    return f"U+{code:04X}{' ' + name if name else ''} ({kind})"


def forbidden_character(value: str) -> tuple[int, str] | None:
    """The first character an identifier may not hold, as (0-based index, character), or
    None when there is none."""
    match = _FORBIDDEN.search(value)
    if match is None:
        return None
    return match.start(), match.group()


def identifier_problem(value: str) -> str | None:
    """Why ``value`` is not a valid identifier, in words (None when it is valid), e.g.
    ``must not contain U+202E RIGHT-TO-LEFT OVERRIDE (a bidi control), found at position 5
    (0-based)``."""
    found = forbidden_character(value)
    if found is None:
        return None
    index, char = found
    return (
        f"must not contain {describe(char)}, found at position {index} (0-based): ids refuse "
        "control, bidi, invisible and noncharacters"
    )
