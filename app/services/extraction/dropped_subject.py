"""A sentence whose subject, the speaker, was left out ("Got the tattoo a few years ago",
"Started hitting the gym last week") gets it back as "I" before the message is written in the
third person, so the unit names who did it ("Gina got the tattoo a few years ago", tester
D11). Only a sentence that opens with a past-tense verb of this closed list; not an idiom
("Got it", "Made it!", "Got your back", "Took some trial and error") nor a question ("Got any
tips?"); imperatives and ambiguous forms (read, hit, left, put) are left alone. English only:
a Chinese sentence without a subject is read by
:func:`app.services.extraction.clauses.predicate_first`."""

from __future__ import annotations

import re

_PAST = (
    r"got|went|started|finished|tried|took|made|bought|saw|met|joined|visited|found|spent|had|"
    r"ran|won|lost|picked|signed|booked|moved|learned|learnt|decided|wrote|painted|built|came|"
    r"watched|played|baked|cooked|adopted|attended|graduated|passed|hiked|travell?ed|"
    r"volunteered|received|gave|celebrated|checked|taught|grabbed|caught|headed|spent"
)
_DROPPED = re.compile(
    r"(?:^|(?<=[.!?]\s))((?:just|finally|also|recently)\s+)?"
    rf"({_PAST})\b(?!\s+(?:it|that|this|you|your|ya|him|her|them|any|to\s+go)\b)"
    r"(?!(?<=took)\s+(?:some|a\s+lot|a\s+while|time|ages|forever|me)\b)"  # it took…
    r"(?=\s+\w[^.!?]*(?:[.!]|$))",  # not a question ("Got any tips?")
    re.IGNORECASE,
)


# "Moving to Austin in March.", "Heading home tomorrow": a plan on the move ("Going to be
# fun" is no move).
_ON_THE_MOVE = re.compile(
    r"(?:^|(?<=[.!?]\s))((?:just|also|finally|soon)\s+)?(moving|heading|flying|going|"
    r"travell?ing|relocating)(?=\s+(?:back\s+)?(?:to|abroad|home|out)\b)"
    r"(?!\s+to\s+(?:be|have|do|get|make|need|try|say|take|go|see|keep)\b)",
    re.IGNORECASE,
)


def with_subject(text: str) -> str:
    """``text`` with "I" before each sentence that opens with a past-tense verb (module
    docstring): "Got the tattoo a few years ago." → "I got the tattoo a few years ago.";
    "I'm" before one that opens with a move ("Moving to Austin in March.")."""
    text = _DROPPED.sub(lambda m: "I " + (m.group(1) or "").lower() + m.group(2).lower(), text)
    return _ON_THE_MOVE.sub(
        lambda m: "I'm " + (m.group(1) or "").lower() + m.group(2).lower(), text
    )
