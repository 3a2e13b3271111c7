"""Abbreviations whose period ends no sentence, for the offline extractor's rules.

The rules split messages into sentences after ". " and read a capitalised word after a
sentence's end as an opener, not a name; so "We climbed Mt. Rainier in July." became "The
user climbed Mt with others. Rainier in July." and "Dr. Emily Stone-Watson" the entities
``Dr`` and ``Stone-Watson`` (tester E30). :func:`protect` writes the period of a title or
place abbreviation before a capitalised name ("Dr. Smith", "Mrs. Lee", "St. Mary's", "Mt.
Rainier"), of an initialism ("M.I.T.", "the U.S.": tester G5), of "e.g." / "i.e." and of
"vs." as U+2024 ONE DOT LEADER, which no rule reads as a sentence's end and which the name
pattern keeps inside a name; :func:`restored` writes it back as a period in what the
extractor produced. The LLM extractor reads the text as written.
"""

from __future__ import annotations

import re
from dataclasses import replace

from app.services.extraction.units import Candidate, Turn

DOT = "\u2024"

_TITLE = re.compile(
    r"\b(Mr|Mrs|Ms|Mx|Dr|Prof|St|Mt|Ft|Sgt|Capt|Lt|Col|Gen|Rev|Hon|Messrs|Mme)\.(?=\s+[A-Z])"
)
_LATIN = re.compile(r"\b(e\.g|i\.e|vs|approx|cf)\.(?=\s)", re.IGNORECASE)
# Initialisms written with periods: "M.I.T.", "the U.S.", "U.K.", "D.C." (tester G5: "I went to
# M.I.T." made no unit, "I live in the U.S." became "lives in the U."). Every period of one is
# kept, also its last: a message that ends on one ends there anyway.
_INITIALISM = re.compile(r"(?<![A-Za-z0-9.])(?:[A-Z]\.){2,}(?![A-Za-z0-9])")


def protect_text(text: str) -> str:
    """``text`` with the periods of the abbreviations above written as :data:`DOT`."""
    if "." not in text:
        return text
    text = _INITIALISM.sub(lambda m: m.group(0).replace(".", DOT), text)
    text = _TITLE.sub(lambda m: m.group(1) + DOT, text)
    return _LATIN.sub(lambda m: m.group(1).replace(".", DOT) + DOT, text)


def protect(turn: Turn) -> Turn:
    """``turn`` with its content protected (:func:`protect_text`); the same turn when
    nothing changed."""
    content = protect_text(turn.content)
    if content == turn.content:
        return turn
    return replace(turn, content=content)


def _back(text: str) -> str:
    # an initialism that ended the sentence got the sentence's own period too: "the U.S.."
    return text.replace(DOT + ".", ".").replace(DOT, ".")


def restored(unit: Candidate) -> Candidate:
    """``unit`` with every :data:`DOT` in its value, trigger scenario and entities written
    back as a period."""
    if (
        DOT not in unit.value
        and DOT not in (unit.query or "")
        and not any(DOT in e for e in unit.entities)
    ):
        return unit
    return unit.model_copy(
        update={
            "value": _back(unit.value),
            "query": _back(unit.query) if unit.query else unit.query,
            "entities": [_back(e) for e in unit.entities],
        }
    )
