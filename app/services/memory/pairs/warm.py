"""Load the pair decision's word lists at start-up (issue 31).

The decision (:mod:`~app.services.memory.pairs.decision`) reads WordNet, CC-CEDICT, the
English lemmatiser and the Chinese tagger (:mod:`~app.services.memory.pairs.lexicon`), each
loaded on first use and cached per process: the first ``/store`` after start paid it (1,079
ms for the first English pair, 718 ms for the first Chinese one, docs/RELIABILITY.md). The
lifespan calls :func:`load` on a worker thread before the first request instead.
"""

from __future__ import annotations

from app.services.memory.pairs import converse, definition, lexicon, names, taxonomy
from app.services.memory.pairs.decision import decide
from app.services.memory.pairs.features import statement

# Pairs that take the decision through every word list: English (lemmas, synonyms, an
# occupation slot), Chinese (segmenter, tagger, CC-CEDICT synonyms) and across the two.
_PAIRS = (
    ("The user works as a nurse in Berlin", "The user went to work as a teacher in Munich"),
    ("用户住在北京，对花生过敏", "用户搬到上海住了，不吃花生"),
    ("The user lives in Beijing", "用户住在北京"),
    ("Caroline lives in Beijing", "卡罗琳住在北京"),  # a name in pinyin readings
    ("The user is a vegetarian", "The user does not eat meat"),  # WordNet glosses
)


def load() -> None:
    """Load every word list, then decide a few pairs so that what else the decision loads
    lazily (the lemmatiser's and the tagger's data) is loaded too (blocking: ~2-3 s the
    first time in a process, then microseconds)."""
    lexicon.load()
    taxonomy.load()
    definition.load()
    names.readings()
    converse.load()
    for a, b in _PAIRS:
        decide(statement(a), statement(b), 0.95)
