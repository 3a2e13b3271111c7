"""Whether two words are synonyms (:func:`synonyms`), and whether a word is a synonym of any
word of a statement (:class:`Vocabulary`), from the word lists of
:mod:`~app.services.memory.pairs.lexicon`:

- English: one of the first :data:`~.lexicon.WN_SENSES` WordNet senses of each word is the same
  synset, or one step away (a verb's hypernym, a derived form, a pertainym, a similar
  adjective: attend / go, wedding / marry, fluently / fluent) — never a noun's hypernym (a
  birthday is an anniversary: another fact) nor two co-hyponyms (coffee / tea); or a noun one
  hypernym step below another that one Chinese word of CC-CEDICT translates both ways (mom /
  mother: 妈妈), where a hypernym alone is not one thing nor a shared translation (汽车: car,
  bus);
- Chinese / English: the English word, or a WordNet synonym of it, is a CC-CEDICT gloss of the
  Chinese word (住 / live, 流利 / fluently);
- two Chinese words: a CC-CEDICT gloss head in common (孩子 / 小孩: child), or one's
  one-word head the last word of the other's (上午 "morning" / 早上 "early morning").

The alignment of two statements asks this of every content word of one against every one of
the other, over and over for the same words (a chat turn against its neighbours): each word's
look-ups are made once (:func:`senses`), and a statement's English words are pooled
(:class:`Vocabulary`), so that one word against all of them is a few set intersections; the
answers are the same as word by word (tests/services/memory/test_pair_alignment.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from app.core import text
from app.services.memory.pairs.lexicon import (
    _first_noun_senses,
    _noun_hypernyms,
    _pivot,
    _wordnet,
    _wordnet_near,
    gloss_heads,
    glosses,
)

__all__ = ["Senses", "Vocabulary", "senses", "synonyms"]


@dataclass(frozen=True, slots=True)
class Senses:
    """What synonymy reads of one word: whether it is Chinese (or Japanese, Korean); the
    synsets of its first senses (``synsets``) and those one near pointer away (``near``,
    :func:`~.lexicon._wordnet_near`); its first noun senses (``nouns``), their hypernyms
    (``above``), and the Chinese words whose one definition is this word (``pivot``)."""

    cjk: bool
    synsets: frozenset[int]
    near: frozenset[int]
    nouns: frozenset[int]
    above: frozenset[int]
    pivot: frozenset[str]


@lru_cache(maxsize=32768)
def senses(word: str) -> Senses:
    """The :class:`Senses` of a word (lemma), looked up once per process and word."""
    synsets = _wordnet().get(word, frozenset())
    near_of = _wordnet_near()
    nouns = _first_noun_senses().get(word, ())
    up = _noun_hypernyms()
    return Senses(
        cjk=text.has_cjk(word),
        synsets=synsets,
        near=frozenset(n for s in synsets for n in near_of.get(s, frozenset())),
        nouns=frozenset(nouns),
        above=frozenset(h for s in nouns for h in up.get(s, ())),
        pivot=_pivot().get(word, frozenset()),
    )


def _wordnet_related(a: Senses, b: Senses) -> bool:
    """A synset shared by two English words' first senses, or one near step apart."""
    return bool(a.synsets & b.synsets or a.near & b.synsets or b.near & a.synsets)


def _one_kind(a: Senses, b: Senses) -> bool:
    """One noun a hypernym step below the other (either way), and one Chinese word whose
    definition is either alone (mom / mother: 妈妈)."""
    return bool((a.above & b.nouns or b.above & a.nouns) and a.pivot & b.pivot)


def _head_of(heads: frozenset[str], others: frozenset[str]) -> bool:
    """Whether a one-word gloss head of one Chinese word is the last word of a longer gloss
    head of the other (上午 "morning" / 早上 "early morning"), as video_game matches game."""
    return any(h.rsplit(" ", 1)[-1] in heads for h in others if " " in h)


def synonyms(a: str, b: str) -> bool:
    """Whether two words (lemmas) are synonyms: a shared synset among the first senses
    (English, WordNet), a CC-CEDICT gloss (Chinese / English) or a gloss head in common
    (two Chinese words); the module docstring says which relations count."""
    if a == b:
        return True
    sa, sb = senses(a), senses(b)
    if sa.cjk and sb.cjk:
        ha, hb = gloss_heads(a), gloss_heads(b)
        return bool(ha & hb or _head_of(ha, hb) or _head_of(hb, ha))
    if sa.cjk or sb.cjk:  # Chinese / English: the English word or a synonym in the glosses
        zh, en, mine = (a, b, sb.synsets) if sa.cjk else (b, a, sa.synsets)
        g = glosses(zh)
        if en in g or (en.endswith("ly") and en[:-2] in g):  # fluently / 流利: fluent
            return True
        if text.stem(en) in {text.stem(x) for x in g}:
            return True
        # a gloss related as two English synonyms are: one synset, or one near step (banker /
        # 银行 "bank": a derived form)
        return bool(mine) and any(_wordnet_related(senses(en), senses(x)) for x in g)
    return _wordnet_related(sa, sb) or _one_kind(sa, sb)


@dataclass(frozen=True)
class Vocabulary:
    """Words to look for a synonym among: :meth:`has_synonym` is ``any(synonyms(w, v) for v
    in words)``, with the English words' senses pooled (a union of their synsets, near
    synsets, noun senses and hypernyms), so that a word against all of them is a few set
    intersections; only a word whose pooled look-up says a hypernym step may hold is compared
    word by word (and Chinese words always are)."""

    words: tuple[str, ...]

    @cached_property
    def _english(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        latin = tuple(w for w in self.words if not senses(w).cjk)
        return latin, tuple(w for w in self.words if senses(w).cjk)

    @cached_property
    def _pooled(self) -> Senses:
        parts = [senses(w) for w in self._english[0]]
        return Senses(
            cjk=False,
            synsets=frozenset().union(*(p.synsets for p in parts)),
            near=frozenset().union(*(p.near for p in parts)),
            nouns=frozenset().union(*(p.nouns for p in parts)),
            above=frozenset().union(*(p.above for p in parts)),
            pivot=frozenset().union(*(p.pivot for p in parts)),
        )

    def has_synonym(self, word: str) -> bool:
        """Whether some word of the vocabulary is a synonym of ``word`` (:func:`synonyms`)."""
        latin, cjk = self._english
        s = senses(word)
        if s.cjk:
            return any(synonyms(word, v) for v in self.words)
        if word in latin:
            return True
        pool = self._pooled
        if _wordnet_related(s, pool):
            return True  # a synset in common or a near step: one word of the pool has it
        if _one_kind(s, pool) and any(_one_kind(s, senses(v)) for v in latin):
            return True  # the pooled test is necessary, not sufficient: word by word
        return any(synonyms(word, v) for v in cjk)
