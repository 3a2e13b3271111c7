"""Traditional Chinese read as simplified, and written back in the user's own characters.

The Chinese rules (extraction's cue rules and date readers, ``/store``'s type inference, the
pair decision, recall's question readers, working memory's cue rules) are written in
simplified characters. A reader converts the text it reads with :func:`simplified` (OpenCC's
``t2s``: character and phrase tables, Apache-2.0, the ``opencc`` wheel ships its
dictionaries) and stores nothing of that reading: what it keeps is written back in the
user's script with :class:`Script` (the user's own character wherever the message has it;
a character the message does not have, as in 用户 of a statement the extractor writes, by
OpenCC's ``s2t``).

``t2s`` keeps the length (one character for one: checked on CC-CEDICT's 118,961 words), so a
span of the reading is the same span of the text; a conversion that would change the length
is not used (the text is read as written). A text with no Han character, or with kana or
hangul (Japanese, Korean: not Chinese), is returned as is without calling OpenCC. Cost: about
50 µs per 1,000 characters of Chinese (docs/EXTRACTION.md, "Traditional characters").
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

import opencc

_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_NOT_CHINESE = re.compile(r"[\u3040-\u30ff\uac00-\ud7af]")  # kana, hangul


@lru_cache(maxsize=2)
def _converter(config: str) -> opencc.OpenCC:
    """One OpenCC converter per configuration, built once per process (its dictionaries load
    in a few milliseconds)."""
    return opencc.OpenCC(config)


def _convert(text: str, config: str) -> str:
    if _HAN.search(text) is None or _NOT_CHINESE.search(text) is not None:
        return text
    out = str(_converter(config).convert(text))
    return out if len(out) == len(text) else text


def simplified(text: str) -> str:
    """``text`` in simplified characters (OpenCC ``t2s``), same length; ``text`` itself when
    it holds no Han character, holds kana or hangul, or is simplified already."""
    return _convert(text, "t2s")


class Script:
    """How the user writes: built from their texts, it writes a text read in simplified
    characters back in their characters (:meth:`written`). Nothing changes for a user who
    wrote no traditional character."""

    def __init__(self, texts: Iterable[str]) -> None:
        read = [(simplified(text), text) for text in texts]
        self.traditional = any(r != t for r, t in read)
        own: dict[str, set[str]] = {}  # simplified character → the user's characters for it
        for r, t in read if self.traditional else ():
            for ch, theirs in zip(r, t, strict=True):
                own.setdefault(ch, set()).add(theirs)
        # one character of theirs for a simplified one; two (发 for 發 and 髮): OpenCC's choice
        self._own = {ch: next(iter(c)) for ch, c in own.items() if len(c) == 1}

    def written(self, text: str) -> str:
        """``text`` (a reading in simplified characters, or the extractor's own words about
        it) in the user's characters: each character the user wrote as theirs, any other as
        OpenCC's ``s2t`` writes it. ``text`` unchanged when the user wrote no traditional
        character."""
        if not self.traditional or _HAN.search(text) is None:
            return text
        converted = _convert(text, "s2t")
        return "".join(self._own.get(ch, other) for ch, other in zip(text, converted, strict=True))
