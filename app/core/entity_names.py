"""Entity names, normalised once (docs/ARCHITECTURE.md, "The entity graph").

Two spellings are the same entity when their *keys* are equal: NFKC (full- and half-width
forms, compatibility characters), bidirectional-text controls and zero-width characters
removed (invisible, and a way to make one name look like another), case folded, runs of
whitespace collapsed to one space, trimmed. Nothing else: CJK names are kept verbatim (no
segmentation, no simplified/traditional mapping), punctuation stays ("C#" is not "C"), and
two different names are only the same entity through an alias a unit declared
(:mod:`app.services.entities.aliases`). The migration that backfills the graph uses these
functions too, so stored keys and new keys agree (zero-width characters are removed since
2026-12-07: a key stored with one before keeps it until its unit is written again).
"""

from __future__ import annotations

import re
import unicodedata

from app.core.errors import BadRequestError

# U+061C ALM, U+200E/F LRM/RLM, U+202A..E embeddings and overrides, U+2066..9 isolates.
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# Zero-width characters: invisible, and "\u200bpeanuts" is "peanuts" (tester hbreak5 F39).
ZERO_WIDTH = re.compile("[\u200b-\u200d\u2060\ufeff]")
_SPACE = re.compile(r"\s+")


def display_name(name: str) -> str:
    """The form shown for a name: bidi controls removed, whitespace collapsed and trimmed
    (case, width and script kept as written)."""
    return _SPACE.sub(" ", ZERO_WIDTH.sub("", BIDI_CONTROLS.sub("", name))).strip()


def entity_key(name: str) -> str:
    """The normalised key of an entity name ('' when nothing is left: not a name)."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    folded = unicodedata.normalize("NFKC", ZERO_WIDTH.sub("", BIDI_CONTROLS.sub("", folded)))
    return _SPACE.sub(" ", folded).strip()


def name_key(name: str, field: str = "entity name") -> str:
    """The key of an entity name a request gives (``field`` names it in the error). Raises
    BadRequestError when nothing is left once normalised (whitespace or bidirectional-text
    controls only) or when it holds a NUL byte or an unpaired surrogate (PostgreSQL stores
    neither: tester B3, a 500 before)."""
    if "\x00" in name:
        raise BadRequestError(f"{field}: must not contain NUL bytes (\\u0000)")
    if any("\ud800" <= c <= "\udfff" for c in name):
        raise BadRequestError(f"{field}: must be valid Unicode (found an unpaired surrogate)")
    key = entity_key(name)
    if not key:
        shown = "bidirectional-text controls" if BIDI_CONTROLS.search(name) else "whitespace"
        raise BadRequestError(f"{field}: nothing but {shown}; name an entity")
    return key
