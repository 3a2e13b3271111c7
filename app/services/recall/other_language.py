"""A query's keywords in the other language (tester F5): "Does the user have any food
allergies?" shares no keyword with 用户对花生过敏。, so the Chinese allergy had the keyword
signal's 0 against "The user likes spicy food."'s "food" and ranked below it; 用户对什么过敏？
missed "The user is allergic to peanuts." the same way. The keyword text of a recall gets,
for each query word, the words of the other language that CC-CEDICT makes it of one word
alone (allergy: 过敏, 变态反应; 过敏: allergic, allergy, oversensitive), unless there are more
than :data:`MAX_WORDS` of them (food: 18 Chinese words, too general to tell anything). A
term no unit of the subject holds adds nothing (BM25 and the relevance's keyword coverage
count only the lexemes the subject's units hold), so an English-only store ranks as before.
Pure; the dictionary is :mod:`app.services.memory.pairs.lexicon`'s."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from app.core.text import has_cjk
from app.services.memory.pairs import lexicon

MAX_WORDS = 4
"""A query word with more words than this in the other language is left alone."""
MAX_TERMS = 8
"""At most this many other-language terms per query."""
# Question words ask; they name nothing a unit holds (where: 何处, 什么: something).
_ASKING = frozenset(
    "what where when who whom whose which why how any anything something "
    "什么 哪里 哪儿 哪 谁 怎么 怎样 为什么 多少 几 吗 呢".split()
)


def with_other_language(tokens: Sequence[str]) -> str:
    """The keyword text of a recall: its ``tokens`` and then :func:`keyword_terms`."""
    return " ".join([*tokens, *keyword_terms(tokens)])


def keyword_terms(tokens: Sequence[str]) -> list[str]:
    """The other-language words of a query's keyword ``tokens`` (see the module docstring),
    in query order, none twice, none already a token."""
    out: dict[str, None] = {}
    for tok in tokens:
        if tok.casefold() in _ASKING:
            continue
        words = _english(tok) if has_cjk(tok) else _chinese(lexicon.lemma(tok.casefold()))
        if 0 < len(words) <= MAX_WORDS:
            out.update(dict.fromkeys(sorted(words)))
    return [w for w in out if w not in tokens and w not in _ASKING][:MAX_TERMS]


def _chinese(lemma: str) -> frozenset[str]:
    """The Chinese words with a CC-CEDICT definition that is ``lemma`` alone."""
    return lexicon._pivot().get(lemma, frozenset())


def _english(word: str) -> frozenset[str]:
    """The one-word CC-CEDICT definitions of a Chinese word (lemmas)."""
    return _english_of().get(word, frozenset())


@lru_cache(maxsize=1)
def _english_of() -> dict[str, frozenset[str]]:
    """Chinese word → its one-word definitions: :func:`lexicon._pivot` turned around."""
    out: dict[str, set[str]] = {}
    for english, words in lexicon._pivot().items():
        for word in words:
            out.setdefault(word, set()).add(english)
    return {k: frozenset(v) for k, v in out.items()}
