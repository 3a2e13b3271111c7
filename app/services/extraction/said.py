"""A message as the offline extractor reads it (:class:`Said`): who said it, what it says
(:class:`app.services.extraction.filler.Reading`), whether it became a unit of its own, and
how it reads as the trigger scenario of the reply to it."""

from __future__ import annotations

from dataclasses import dataclass

from app.core.text import has_cjk
from app.services.extraction.date_labels import resolve_dates
from app.services.extraction.dates import find_dates, local_now
from app.services.extraction.filler import Reading, addressees, join
from app.services.extraction.statements import third_person_en, third_person_zh
from app.services.extraction.units import ExtractionContext, Turn

# Longest trigger scenario taken from the previous message (its end, where a question is).
MAX_TRIGGER_CHARS = 300


@dataclass
class Said:
    """A message as read for extraction: who said it, what it says, whether it became a unit
    of its own (a reply's trigger scenario comes from the message before it)."""

    turn: Turn
    reading: Reading
    has_unit: bool = False

    @property
    def who(self) -> str | None:
        """The speaker's name, else None for the user and the role for anyone else."""
        if self.turn.name:
            return self.turn.name
        return None if self.turn.role == "user" else self.turn.role

    def trigger(self, addressee: str | None, ctx: ExtractionContext) -> str | None:
        """This message as a trigger scenario for its reply (its dates resolved too)."""
        text = join(self.reading.sentences)
        if not text:
            return None
        if len(text) > MAX_TRIGGER_CHARS:
            text = "…" + text[-MAX_TRIGGER_CHARS:].split(" ", 1)[-1]
        zh = has_cjk(text)
        now = local_now(self.turn.created_at or ctx.now, ctx.timezone)
        text = resolve_dates(text, find_dates(text, now), zh=zh)
        who = display(self.who, zh)
        if self.reading.kinds[-1] == "question" and not text.endswith(("?", "？")):
            text += "？" if zh else "?"
        if zh:
            return f"回复{who}：“{third_person_zh(text, who, addressee).removeprefix(who + '：')}”"
        return f'Reply to {who}: "{third_person_en(text, who, addressee)}"'


def replies(said: Said, before: Said) -> bool:
    """``said`` answers ``before``: someone else wrote it."""
    return before.turn.role != said.turn.role or before.who != said.who


def display(who: str | None, zh: bool) -> str:
    """A speaker as written in a unit: the name, else the user or the assistant."""
    if who and who not in ("assistant", "tool", "system"):
        return who
    if zh:
        return "助手" if who == "assistant" else "用户"
    return "the assistant" if who == "assistant" else "the user"


def addressee_of(said: Said, before: Said | None, named: frozenset[str]) -> str | None:
    """Whom ``said`` speaks to: the speaker of the message before (someone else), else a
    name it calls ("Thanks, Maria!"), else the one other speaker of a two-person chat."""
    speaker = said.turn.name
    if before is not None and before.who != speaker and before.who is not None:
        return before.who
    vocatives = addressees(said.turn.content)
    if vocatives:
        return vocatives[0]
    others = named - {speaker}
    return next(iter(others)) if speaker and len(others) == 1 else None
