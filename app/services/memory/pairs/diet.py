"""A diet against a food it excludes (tester C18): "The user stopped eating meat, vegetarian
now" beside "The user loves steak" — neither one sentence frame nor one slot, so no other
guard of the pair decision sees them disagree. :func:`excludes` says when one side states a
diet (vegetarian, vegan, pescatarian; "doesn't eat meat", "gave up fish", "no more dairy",
"no longer has cheese"; 吃素, 不吃肉, 不再吃乳制品) and the other a liking or habit (loves, eats,
drinks; 爱吃, 喝) of a food that diet rules out ("drinks milk every morning"); the decision
flags the pair as a possible contradiction (both kept; a person or the LLM decides which
holds now).

Foods are read through WordNet 3.0's noun taxonomy (:mod:`.taxonomy`): a word whose first
sense falls under meat, poultry, fish or seafood as food, dairy products or eggs as food — or
whose first sense is an animal and a later one its meat (lamb, turkey, duck) —, on either
side (a food given up by name: "stopped eating cheese"); a noun before it that names no such
food makes another thing (oat, almond, soy milk); for Chinese, short lists of dish and
category words. Pure and offline.
"""

from __future__ import annotations

import re
from functools import lru_cache

from app.core.text import is_stop_word as text_is_stop
from app.services.memory.pairs import taxonomy

# WordNet 3.0 noun synsets (offsets): meat (food), poultry (food), fish (food), seafood,
# dairy product, egg (food), animal.
_CATEGORIES = {"meat": 7649854, "poultry": 7644706, "fish": 7775375, "seafood": 7776866,
               "dairy": 7843775, "egg": 7840804}  # fmt: skip
_ANIMAL = 15388
_FLESH = frozenset({"meat", "poultry", "fish", "seafood"})
_DIETS = {
    "vegetarian": _FLESH,
    "vegan": _FLESH | {"dairy", "egg"},
    "pescatarian": frozenset({"meat", "poultry"}),
}
# What "no X" rules out, by the word X.
_AVOIDED = {"meat": frozenset({"meat", "poultry"}), "red meat": frozenset({"meat"}),
            "fish": frozenset({"fish", "seafood"}), "seafood": frozenset({"fish", "seafood"}),
            "dairy": frozenset({"dairy"}), "eggs": frozenset({"egg"}),
            "animal products": _DIETS["vegan"]}  # fmt: skip

_EN_LABEL = re.compile(
    r"\b(?:is|am|'m|are|became|becomes|become|turned|went|gone|been|now)\s+"
    r"(?:(?:a|fully|strictly|completely|now)\s+){0,2}(vegetarian|vegan|pescatarian)\b"
    # not a dish or a place: "is vegan ice cream", "went vegetarian restaurant hunting"
    r"(?!\s+(?:food|foods|restaurants?|recipes?|dish(?:es)?|meals?|options?|menu|ice|cheese|"
    r"burgers?|cafe|cookbook|cooking|diet|group|community|place|products?|versions?|snacks?)\b)",
    re.IGNORECASE,
)
_EAT = r"(?:eats?|drinks?|has|have|consumes?|touch(?:es)?)"
_EN_AVOIDS = re.compile(
    rf"\b(?:stopped|quit|gave\s+up|give\s+up|cut\s+out|no\s+longer\s+{_EAT}|doesn't\s+{_EAT}|"
    rf"does\s+not\s+{_EAT}|don't\s+{_EAT}|do\s+not\s+{_EAT}|never\s+{_EAT}|{_EAT}\s+no|"
    r"avoids?|no\s+more)\s+"
    r"(?:eating\s+|drinking\s+|having\s+)?(?:any\s+|all\s+)?"
    r"(red\s+meat|animal\s+products|[a-z]+)\b",
    re.IGNORECASE,
)
_EN_NOT_LABEL = re.compile(r"\b(?:not|n't|no\s+longer|never|stopped\s+being)\s+(?:a\s+)?ve", re.I)
_EN_LIKES = re.compile(
    r"\b(?:loves?|likes?|enjoys?|adores?|favou?rite|eats?|drinks?|craves?|orders?|grills?)\b",
    re.I,
)
_EN_NEGATED = re.compile(r"\b(?:not|no|never|stopped|quit|gave\s+up)\b|n't\b", re.I)

_ZH_LABEL = re.compile(r"吃素|素食主义者|素食者|纯素")
_ZH_AVOIDS = re.compile(
    r"(?:不|不再|戒了?|戒掉了?)(?:吃|喝|碰)?(?:任何)?(肉类|肉|荤|海鲜|鱼|乳制品|奶制品|牛奶|蛋类|鸡蛋)"
)
_ZH_FOODS = {"牛排": "meat", "牛肉": "meat", "猪肉": "meat", "羊肉": "meat", "鸡肉": "poultry",
             "鸭肉": "poultry", "烤鸭": "poultry", "火腿": "meat", "培根": "meat", "香肠": "meat",
             "烤肉": "meat", "排骨": "meat", "红烧肉": "meat", "海鲜": "seafood", "虾": "seafood",
             "螃蟹": "seafood", "鱼": "fish", "奶酪": "dairy", "芝士": "dairy", "牛奶": "dairy",
             "酸奶": "dairy", "黄油": "dairy", "鸡蛋": "egg"}  # fmt: skip
_ZH_AVOIDED = {"肉": "meat", "肉类": "meat", "荤": "meat", "海鲜": "seafood", "鱼": "fish",
               "乳制品": "dairy", "奶制品": "dairy", "牛奶": "dairy", "蛋类": "eggs",
               "鸡蛋": "eggs"}  # fmt: skip
_ZH_LIKES = re.compile(r"喜欢|爱吃|最爱|常吃|经常吃|特别爱|[吃喝]")
_ZH_NEGATED = re.compile(r"不|没|戒|别")
_WORD = re.compile(r"[a-z]+", re.IGNORECASE)


def _diet(text: str) -> frozenset[str]:
    """What the diet ``text`` states rules out (categories); empty when it states none."""
    out: set[str] = set()
    for m in _EN_LABEL.finditer(text):
        if not _EN_NOT_LABEL.search(text[max(0, m.start() - 30) : m.end()]):
            out |= _DIETS[m.group(1).lower()]
    for m in _EN_AVOIDS.finditer(text):
        food = " ".join(m.group(1).lower().split())
        out |= _AVOIDED.get(food) or _food_categories(food) or _food_categories(_singular(food))
    if _ZH_LABEL.search(text):
        out |= _DIETS["vegetarian"]
    for m in _ZH_AVOIDS.finditer(text):
        out |= _AVOIDED[_ZH_AVOIDED[m.group(1)]]
    return frozenset(out)


@lru_cache(maxsize=4096)
def _food_categories(word: str) -> frozenset[str]:
    """The categories an English noun names as food (its first sense, or an animal's meat)."""
    senses = taxonomy.noun_senses(word, 6)
    if not senses:
        return frozenset()

    def under(offset: int) -> set[str]:
        above = taxonomy.noun_ancestors(offset) | {offset}
        return {name for name, cat in _CATEGORIES.items() if cat in above}

    first = under(senses[0])
    if first or _ANIMAL not in taxonomy.noun_ancestors(senses[0]):
        return frozenset(first)
    return frozenset(set().union(*(under(s) for s in senses[1:])))


def _singular(word: str) -> str:
    return word.removesuffix("s")


def _another_kind(word: str) -> bool:
    """Whether a word before a food noun makes another kind of it: a noun (WordNet's main
    part of speech) that names no food of the categories itself (oat, almond, soy, coconut
    milk; not "drinks milk", "goat's", "fresh milk")."""
    from app.services.memory.pairs import lexicon  # the word lists load on first use

    if _EN_LIKES.fullmatch(word) or text_is_stop(word):
        return False
    return lexicon.main_pos(lexicon.lemma(word)) == 0 and not _food_categories(word)


def _foods_liked(text: str) -> frozenset[str]:
    """The food categories ``text`` says its subject likes or eats (not negated)."""
    out: set[str] = set()
    if _EN_LIKES.search(text) and not _EN_NEGATED.search(text):
        words = [w.lower() for w in _WORD.findall(text)]
        for k, lemma in enumerate(words):
            found = _food_categories(lemma) or _food_categories(_singular(lemma))
            if found and k and _another_kind(words[k - 1]):
                continue  # oat milk, almond milk, soy cheese: another thing than the food
            out |= found
    if _ZH_LIKES.search(text) and not _ZH_NEGATED.search(text):
        out |= {cat for food, cat in _ZH_FOODS.items() if food in text}
    return frozenset(out)


def excludes(a: str, b: str) -> bool:
    """Whether one of the two statements states a diet that rules out a food the other says
    its subject likes or eats ("is vegetarian now" / "loves steak", 吃素 / 爱吃牛排)."""
    for diet_side, food_side in ((a, b), (b, a)):
        ruled_out = _diet(diet_side)
        if ruled_out and not _diet(food_side) and ruled_out & _foods_liked(food_side):
            return True
    return False


# "X is allergic to A." / "X is allergic to B." (X对A过敏 / X对B过敏): one may have many allergies.
_EN_ALLERGY = re.compile(r"^(.{1,60}?)\s+(?:is|am|are)\s+allergic\s+to\s+([^.,;!?]{1,60})[.!]?$")
_ZH_ALLERGY = re.compile(r"^([^，。对]{1,20}?)对([^，。]{1,20})过敏[。！]?$")


def other_allergens(new: str, old: str) -> bool:
    """Both say the same subject is allergic to something, with no word of the allergens in
    common ("allergic to shellfish" / "to peanuts", 对海鲜过敏 / 对花生过敏): two allergies,
    two facts (an allergy list is kept as a unit per allergen, none of them a change)."""
    for pattern in (_EN_ALLERGY, _ZH_ALLERGY):
        a, b = pattern.match(new.strip()), pattern.match(old.strip())
        if a is not None and b is not None:
            if a.group(1).casefold() != b.group(1).casefold():
                return False
            if pattern is _ZH_ALLERGY:
                return not set(a.group(2)) & set(b.group(2))
            return not set(a.group(2).casefold().split()) & set(b.group(2).casefold().split())
    return False
