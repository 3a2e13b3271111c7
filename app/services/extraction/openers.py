"""A name that opens a sentence (tester hbreak9 K11): "Tom is the user's brother.", "Priya
works at Google.", "Chen Wei is the user's manager." A capitalised first word is most often
no name at all ("Definitely…", "Last week…"), so :func:`app.services.extraction.statements
.en_entities` keeps a sentence opener only when it is capitalised mid-sentence too — which a
short unit never gives; "Chen Wei" lost "Chen" and "Tom" was no entity.

An opener is a name here when:

- two or more capitalised words open the sentence and the first is a given name (WordNet
  persons, CC-CEDICT's given names: "David Wang"), no English word ("Jean-Luc Picard"), or the
  first two are both syllables of pinyin ("Chen Wei", "Li Na": CC-CEDICT's readings);
- one capitalised word opens it, is a given name or no English word ("Tom", "Priya"), and
  what follows reads as its sentence's subject: a possessive ('s), a verb of being, having or
  saying, "and" another subject, or a past verb ("Priya fixed…").

Pure; the word lists are the pair decision's (:mod:`app.services.memory.pairs.lexicon`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.services.extraction.tense import is_past_verb
from app.services.memory.pairs import lexicon
from app.services.memory.pairs.holders import given_name
from app.services.memory.pairs.names import readings

_SUBJECT_NEXT = re.compile(
    r"^(?:['’]s\b|\s+(?:is|was|has|had|and|will|would|can|could|just|also|still|never|"
    r"always|often|works|lives|loves|likes|hates|prefers|wants|needs|says|said|told|asks|"
    r"asked|called|texted|emailed|plays|runs|teaches|studies|manages|owns|drives|"
    r"recommended|helped|sent|gave|got|made)\b)"
)
_NEXT_WORD = re.compile(r"^\s+([a-z]+)\b")


@lru_cache(maxsize=1)
def _pinyin() -> frozenset[str]:
    return frozenset(s for spelled in readings().values() for s in spelled)


def _no_english_word(word: str) -> bool:
    return word not in lexicon._wordnet()


def _named_person(word: str) -> bool:
    return given_name(word) or _no_english_word(word)


def opens_with_name(words: list[str], after: str) -> bool:
    """Whether ``words`` (the capitalised run that opens a sentence, as written) start with a
    name; ``after``: the text right after the run."""
    possessive = words[-1].endswith(("'s", "’s"))
    words = [w.removesuffix("'s").removesuffix("’s") for w in words]
    first = words[0].casefold()
    if len(words) > 1:
        second = words[1].casefold()
        return _named_person(first) or {first, second} <= _pinyin()
    if not _named_person(first):
        return False
    if possessive or _SUBJECT_NEXT.match(after):
        return True
    nxt = _NEXT_WORD.match(after)
    return nxt is not None and is_past_verb(nxt.group(1))
