"""The other thing of the same kind (tester H21): across languages the embedding carries the
language more than the noun, and BM25 the rarer word ("What is my dog's name?" → "The user has
a cat named Luna." first, "name" its only shared word, above 用户有一只叫旺财的狗。). A hit that
names only another thing of the kind the query asks about (cat, 猫: WordNet 3.0 co-hyponyms, a
common ancestor at most :data:`HOPS` steps above both first senses and at least
:data:`MIN_DEPTH` deep: dog and cat under carnivore, sister and brother under sibling; not a
kind of the other) is scored at most the lowest of the hits naming the thing itself (dog, 狗)
in the other language, as a superseded hit's is at its successor's. Within one language the
keyword and the embedding already tell the two apart (applied there too, LoCoMo dev lost
0.002 recall@10). Nothing moves when no hit of the head names the query's thing, nor after an
LLM rerank (its order stands). A rule, no weight. Pure; WordNet and CC-CEDICT are
:mod:`app.services.memory.pairs`'s.
"""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Mapping, Sequence
from functools import lru_cache

from app.core.text import has_cjk, tokenize
from app.repositories.recall.sql import RecalledUnit
from app.services.memory.pairs import lexicon, taxonomy
from app.services.recall.scoring import Ranked

HOPS = 3
MIN_DEPTH = 7  # deeper than animal and person (6): carnivore 11, sibling 8


def reorder(top: list[Ranked], units: Mapping[uuid.UUID, RecalledUnit], query: str) -> list[Ranked]:
    """``top`` (best first) with each hit that names only another thing of the kind of a noun
    of ``query`` scored at most the lowest score of the hits naming that noun, and sorted
    again (by score, a capped hit after the hits it was capped by, else in the given order):
    the rule of the module docstring, the way a superseded hit is capped at its successor's
    (app.services.recall.history). ``units``: the head's units (their value)."""
    asked = nouns(query)
    if not asked or len(top) < 2:
        return top
    words = [nouns(units[r.id].value) if r.id in units else frozenset() for r in top]
    for noun in sorted(asked):
        names = [noun in w for w in words]
        other = [
            not n and any(siblings(noun, x) for x in w) for n, w in zip(names, words, strict=True)
        ]
        if not any(names) or not any(other):
            continue
        # across languages only: within one, the keyword and the embedding already tell the
        # dog from the cat (LoCoMo dev lost 0.002 recall@10 when it applied there too)
        zh = [has_cjk(units[r.id].value) if r.id in units else False for r in top]
        named_zh = {z for z, n in zip(zh, names, strict=True) if n}
        other = [o and (not z) in named_zh for o, z in zip(other, zh, strict=True)]
        if not any(other):
            continue
        floor = {  # by language: the lowest score of the hits naming the noun in the other
            z: min((r.score for r, n, y in zip(top, names, zh, strict=True) if n and y != z),
                   default=0.0)
            for z in (False, True)
        }  # fmt: skip
        scores = [
            min(r.score, floor[z]) if o else r.score for r, o, z in zip(top, other, zh, strict=True)
        ]
        order = sorted(range(len(top)), key=lambda i: (-scores[i], other[i], i))
        return [
            dataclasses.replace(top[i], score=scores[i]) if scores[i] != top[i].score else top[i]
            for i in order
        ]
    return top


def nouns(text: str) -> frozenset[str]:
    """The English noun lemmas of ``text``: its English nouns, and the one-word nouns that
    CC-CEDICT glosses its Chinese words with (狗 → dog)."""
    return _nouns(tuple(tokenize(text)))


@lru_cache(maxsize=4096)
def _nouns(tokens: Sequence[str]) -> frozenset[str]:
    out: set[str] = set()
    for tok in tokens:
        if has_cjk(tok):  # 狗叫 (jieba's word in 我的狗叫什么名字, not in CC-CEDICT): 狗, 叫
            parts = (tok,) if lexicon.gloss_heads(tok) or len(tok) == 1 else tuple(tok)
            heads = (g for p in parts for g in lexicon.gloss_heads(p))
            out.update(g for g in heads if " " not in g and len(g) > 1 and taxonomy.is_noun(g))
        else:
            word = lexicon.lemma(tok)
            if taxonomy.is_noun(word):
                out.add(word)
    return frozenset(out)


@lru_cache(maxsize=16384)
def siblings(a: str, b: str) -> bool:
    """Whether two nouns' first senses are different things of one kind (module docstring)."""
    sa, sb = taxonomy.noun_senses(a, 1), taxonomy.noun_senses(b, 1)
    if a == b or not sa or not sb or sa == sb:
        return False
    up_a, up_b = _near_ancestors(sa[0]), _near_ancestors(sb[0])
    if sa[0] in up_b or sb[0] in up_a:  # one a kind of the other
        return False
    return any(taxonomy.noun_depth(s) >= MIN_DEPTH for s in up_a & up_b)


@lru_cache(maxsize=16384)
def _near_ancestors(synset: int) -> frozenset[int]:
    up = lexicon._noun_hypernyms()
    level, seen = [synset], set()
    for _ in range(HOPS):
        level = [h for s in level for h in up.get(s, ())]
        seen.update(level)
    return frozenset(seen)
