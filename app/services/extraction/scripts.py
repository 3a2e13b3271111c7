"""Turns read in simplified characters, and what is kept written back in the user's own
(:mod:`app.core.chinese_script`): the rules of extraction are written in simplified
characters, so 我對花生過敏, 別記這個 and 下週三 are read as 我对花生过敏, 别记这个 and 下周三;
a unit read from a traditional message keeps the message's characters (用户對花生過敏。, its
words 用户 written by OpenCC ``s2t``: 用戶對花生過敏。). Used where turns enter a reader: the
withholding screen, "I meant X" corrections, the offline extractor."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from app.core.chinese_script import Script, simplified
from app.services.extraction.units import Candidate, Turn


class Scripts:
    """How each turn of a transcript was written (by turn index), and the whole of it."""

    def __init__(self, turns: Iterable[Turn]) -> None:
        self._texts = {t.index: t.content for t in turns}
        self._all = Script(self._texts.values())
        self.traditional = self._all.traditional

    def read(self, turns: Sequence[Turn]) -> list[Turn]:
        """``turns`` with their content in simplified characters (the same turns when none
        is written in traditional ones)."""
        if not self.traditional:
            return list(turns)
        return [replace(t, content=simplified(t.content)) for t in turns]

    def written(self, text: str, indexes: Iterable[int] = ()) -> str:
        """``text`` in the characters of the turns ``indexes`` (of the whole transcript when
        none of them is known)."""
        if not self.traditional:
            return text
        known = [self._texts[i] for i in dict.fromkeys(indexes) if i in self._texts]
        return (Script(known) if known else self._all).written(text)

    def turn(self, turn: Turn) -> Turn:
        """A turn of :meth:`read` (its content maybe edited) in its own characters."""
        content = self.written(turn.content, [turn.index])
        return turn if content == turn.content else replace(turn, content=content)

    def unit(self, unit: Candidate) -> Candidate:
        """``unit``'s value, trigger scenario and entities in the characters of the turns
        it came from."""
        if not self.traditional:
            return unit
        turns = unit.source_turns
        return unit.model_copy(
            update={
                "value": self.written(unit.value, turns),
                "query": None if unit.query is None else self.written(unit.query, turns),
                "entities": [self.written(e, turns) for e in unit.entities],
            }
        )

    def entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        """An outcome entry whose ``value`` (when a text) is written back."""
        value = entry.get("value")
        if not self.traditional or not isinstance(value, str):
            return entry
        return {**entry, "value": self.written(value)}
