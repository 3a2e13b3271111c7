"""A negation in one language against a statement in the other (tester K1): how much of what
the negated statement talks about the other one talks about too (docs/DEDUPE.md, sixteenth
run). "The user doesn't have a car" / 用户有一只猫 opened a contradiction review: a car is no
cat, and nothing else the negation names is in the other statement; "The user has no
siblings" / 用户有一个哥哥 is a contradiction: a brother (哥哥, CC-CEDICT "older brother") is a
sibling in WordNet.

:func:`related_share` is the share of the negated side's content words (values aside) that a
word of the other side matches: the content-word alignment's own match (lemmas, synonyms,
CC-CEDICT glosses: :func:`.lexical.align`) or, for nouns, one WordNet noun sense of each
(through CC-CEDICT's glosses for a Chinese word) that is the other or above or below it in the
hypernym tree (alcohol / 红酒: red wine), or whose WordNet gloss names the other (sibling: "a
person's brother or sister" / 哥哥). Below :data:`RELATED` (fitted with grouped k-fold CV by
scripts/eval_dedupe_unseen.py) the pair is ``distinct`` (``negation_other_fact``): no review.
Pure, cached."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

from app.core import text
from app.services.memory.pairs import lexical, lexicon, taxonomy
from app.services.memory.pairs.across import negation_matches
from app.services.memory.pairs.features import Statement

Action = Literal["contradicts", "distinct", "unsure"]

_SENSES = 3  # a noun's first WordNet senses compared
_NEGATION_WORDS = frozenset({"not", "no", "never", "none", "nothing", "any", "n't"})

RELATED = 0.1
"""Below this share (:func:`related_share`) a negation across languages is of another fact:
``distinct``, no review. Fitted with grouped 5-fold CV by scripts/eval_dedupe_unseen.py on the
labelled pairs that reach this reading (docs/DEDUPE.md, sixteenth run): the most other facts
kept out of review, a contradiction kept out costing four, a duplicate one; ties: the lowest."""


def across(new: Statement, old: Statement, related: float = RELATED) -> tuple[Action, str]:
    """A pair in English and Chinese of opposite polarity: ``contradicts`` as
    ``negation_flip_other_language`` when the words match through the dictionaries
    (:func:`.across.negation_matches`), ``distinct`` as ``negation_other_fact`` when less than
    ``related`` of what the negated side names is in the other (tester K1: "doesn't have a car"
    / 用户有一只猫), else ``unsure`` as ``negation_other_language`` (flagged for review)."""
    if negation_matches(new, old):
        return "contradicts", "negation_flip_other_language"
    negated, other = (new, old) if new.polarity else (old, new)
    if related_share(negated.value, other.value) < related:
        return "distinct", "negation_other_fact"
    return "unsure", "negation_other_language"


def related_share(negated: str, other: str) -> float:
    """The share (0…1) of ``negated``'s content words, values aside, that a word of ``other``
    matches or relates to by the WordNet hypernym tree (module docstring); 1.0 when the negated
    side has no such word (nothing to tell them apart by)."""
    a = lexical.align(negated, other)
    words = _words(negated)
    mine = tuple(w for w in words if lexicon.is_thing(w)) or words  # the things it names
    if not mine:
        return 1.0
    theirs = _words(other)
    unmatched = set(a.unmatched_a)
    hits = sum(w not in unmatched or any(_related(w, u) for u in theirs) for w in mine)
    return hits / len(mine)


def _words(value: str) -> tuple[str, ...]:
    return tuple(w for w in lexical.content_words(value).words
                 if not any(c.isdigit() for c in w) and w not in _NEGATION_WORDS)  # fmt: skip


@lru_cache(maxsize=16384)
def _related(a: str, b: str) -> bool:
    """Whether a noun sense of ``a`` is one of ``b``'s, above or below it (either word English
    or Chinese: a Chinese word through its CC-CEDICT glosses)."""
    sa, sb = _senses(a), _senses(b)
    if not sa or not sb or sa & sb:
        return bool(sa & sb)
    return any(x in taxonomy.noun_ancestors(y) or y in taxonomy.noun_ancestors(x)
               or _defined_by(x, y) or _defined_by(y, x) for x in sa for y in sb)  # fmt: skip


def _defined_by(x: int, y: int) -> bool:
    """Whether WordNet's gloss of noun sense ``x`` names sense ``y`` by one of its lemmas
    (sibling: "a person's brother or sister")."""
    from app.services.memory.pairs.definition import _glosses

    gloss = _glosses().get(x * 4, ((), ""))[1].casefold()
    words = set(re.findall(r"[a-z]+", gloss))
    return any(name in words for name in taxonomy.lemma_names(y) if "_" not in name)


@lru_cache(maxsize=16384)
def _senses(word: str) -> frozenset[int]:
    """The first noun senses of an English word, or of a Chinese word's gloss heads (their
    last word, or the whole head when WordNet has it: "older brother" → brother)."""
    if not text.has_cjk(word):
        return frozenset(taxonomy.noun_senses(word, _SENSES)) if _noun(word) else frozenset()
    out: set[int] = set()
    for head in lexicon.gloss_heads(word):
        joined = head.replace(" ", "_")
        words = head.split()
        if not taxonomy.noun_senses(joined, 1) and any(_noun(w) for w in words[:-1]):
            continue  # "spanish language": not any language
        name = joined if taxonomy.noun_senses(joined, 1) else words[-1]  # older brother
        if _noun(name):
            out.update(taxonomy.noun_senses(name, _SENSES))
    return frozenset(out)


def _noun(word: str) -> bool:
    return lexicon.main_pos(word) == 0 or ("_" in word and bool(taxonomy.noun_senses(word, 1)))
