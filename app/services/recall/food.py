"""Food questions and the user's standing dietary constraints (tester H8): "Can I eat shrimp?"
found "I am allergic to shellfish." with relevance 0.0065 (below the "nothing relevant" line,
app.services.recall.relevance) and "Is there any food I should avoid?" ranked a move above the
allergy — neither question shares a word with the allergy, and e5-small's cosine alone does not
carry it. Two additions to a recall's keyword text, no new weight:

- a question about eating, food or what to avoid (:data:`_ASKS_EN`, :data:`_ASKS_ZH`, or a
  food noun) that asks what the user may or should eat (:data:`_ADVICE`: can, should, avoid,
  能, 可以…; not "What did Nate cook?") also asks for the constraints that rule food out:
  :data:`CONSTRAINT_TERMS` (allergic, allergy, intolerant, vegetarian, vegan; 过敏, 忌口,
  吃素, 素食) — an allergy or a diet holds one of them whether extracted (a ``constraint``)
  or stored as a plain fact — unless it names one kind itself ("any food allergies?" asks
  for allergies, not diets);
- a food noun of such a question brings its kinds in WordNet 3.0 (:func:`food_kinds`, up to
  :data:`HOPS` hypernym steps from a food sense): shrimp → seafood; lobster → shellfish,
  seafood; cheese → dairy; almond → nut — "allergic to nuts" answers "Can I eat almonds?".

A term no unit of the subject holds adds nothing (BM25 and the relevance's keyword coverage
count only the lexemes the subject's units hold). Pure; WordNet is
:mod:`app.services.memory.pairs.taxonomy`'s.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache

from app.core.text import has_cjk
from app.services.memory.pairs import lexicon, taxonomy

CONSTRAINT_TERMS = ("allergic", "allergy", "intolerant", "vegetarian", "vegan")
CONSTRAINT_TERMS_ZH = ("过敏", "忌口", "吃素", "素食")
HOPS = 2
"""How many hypernym steps above a food sense give its kinds (shrimp → seafood → food)."""
SENSES = 2
"""A noun is a food when one of its first this many WordNet senses is (shrimp: the second),
and it is not mainly an adjective ("special") and has three letters or more (not "C",
vitamin C)."""

# Lemmas that make a question about food or what to avoid.
_ASKS_EN = frozenset(
    "eat eating ate drink food meal dish snack cook cooking recipe restaurant menu dinner "
    "lunch breakfast diet avoid".split()
)
_ASKS_ZH = frozenset("吃 喝 食物 饮食 菜 忌口 餐厅 晚饭 午饭 早饭 避免 能吃 可以吃".split())
# A question that asks what the user may or should eat (can, should, safe, avoid, recommend;
# 能, 可以, 应该, 推荐): not "What did Nate cook?" (LoCoMo dev lost MRR on its dessert
# questions when "vegan" was added to them).
_ADVICE = re.compile(
    r"(?i)\b(?:can|could|should|shall|ok|okay|safe|fine|allowed|avoid|recommend)\b"
    r"|能|可以|应该|应当|避免|忌口|推荐|建议|适合"
)
# A question that names a kind of constraint asks for that kind only ("Does the user have any
# food allergies?": not the diet; tester F5's test).
_NAMES_ONE = frozenset(
    "allergic allergy intolerant intolerance vegetarian vegan 过敏 吃素 素食 忌口".split()
)
# Kinds too general to tell anything (and compound parts that name no food).
_GENERAL = frozenset(
    "food nutrient solid matter substance foodstuff nutriment nourishment liquid dish "
    "ingredient fixings produce edible product goods part portion nutrition sustenance aliment "
    "course concoction mixture fare "
    "alimentation victuals".split()
)
# WordNet 3.0 noun synsets under which a sense is food: food (nutrient), food (solid
# food), edible nut (WordNet files almonds and peanuts as plant parts).
_FOOD_ROOTS = ("food", "edible_nut")


def with_terms(tokens: Sequence[str], query: str) -> list[str]:
    """A query's keyword ``tokens`` and then their :func:`keyword_terms` (the other language
    is added to both: app.services.recall.other_language)."""
    return [*tokens, *keyword_terms(tokens, query)]


def keyword_terms(tokens: Sequence[str], query: str) -> list[str]:
    """The terms a food question adds to a recall's keyword text (module docstring), in
    order, none twice, none already a token; [] for a question not about food or that asks
    for no advice (``query``: its text, :data:`_ADVICE`)."""
    if not _ADVICE.search(query):
        return []
    kinds: dict[str, None] = {}
    asks = False
    for tok in tokens:
        if has_cjk(tok):
            asks |= tok in _ASKS_ZH or tok.startswith("吃")
            continue
        word = lexicon.lemma(tok.casefold())
        asks |= tok in _ASKS_EN or word in _ASKS_EN
        if is_food(word):
            asks = True
            kinds.update(dict.fromkeys(food_kinds(word)))
    if not asks:
        return []
    chinese = any(has_cjk(t) for t in tokens)
    named = any(t in _NAMES_ONE or lexicon.lemma(t.casefold()) in _NAMES_ONE for t in tokens)
    constraints = () if named else (*CONSTRAINT_TERMS, *(CONSTRAINT_TERMS_ZH if chinese else ()))
    terms = [*kinds, *constraints]
    return [t for t in dict.fromkeys(terms) if t not in tokens]


@lru_cache(maxsize=4096)
def is_food(word: str) -> bool:
    """Whether one of an English noun's first :data:`SENSES` WordNet senses is a food."""
    if len(word) < 3 or lexicon.main_pos(word) in (2, 3):  # an adjective, an adverb
        return False
    roots = _food_roots()
    return any(_is_food(s, roots) for s in taxonomy.noun_senses(word, SENSES))


@lru_cache(maxsize=4096)
def food_kinds(word: str) -> tuple[str, ...]:
    """The kinds of a food noun (English lemma): the single words (or a compound's telling
    part: dairy product → dairy) first naming the synsets up to :data:`HOPS` hypernym steps above
    its food senses among the first :data:`SENSES`, general ones left out; () when it is not
    a food noun."""
    if not is_food(word):
        return ()
    roots = _food_roots()
    up = lexicon._noun_hypernyms()
    out: dict[str, None] = {}
    for sense in taxonomy.noun_senses(word, SENSES):
        if sense in roots or not _is_food(sense, roots):
            continue
        level = [sense]
        for _ in range(HOPS):
            # only kinds that are food themselves (almond: edible nut, not drupe)
            level = [h for s in level for h in up.get(s, ()) if _is_food(h, roots)]
            for synset in level:
                out.update(dict.fromkeys(_names(synset)))
    return tuple(w for w in out if w != word)


def _is_food(synset: int, roots: frozenset[int]) -> bool:
    return synset in roots or bool(taxonomy.noun_ancestors(synset) & roots)


@lru_cache(maxsize=1)
def _food_roots() -> frozenset[int]:
    return frozenset(s for w in _FOOD_ROOTS for s in taxonomy.noun_senses(w, 2))


def _names(synset: int) -> list[str]:
    """The telling words of a noun synset's first lemma name (a compound: its parts that are
    not general: dairy_product → dairy)."""
    words = [p for name in taxonomy.lemma_names(synset)[:1] for p in name.split("_")]
    return [w for w in dict.fromkeys(words) if w not in _GENERAL and w.isalpha()]
