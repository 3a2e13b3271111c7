"""Whether the entities two units were given tell them apart (the ``entities_differ`` rule of
:func:`app.services.memory.pairs.plan.pair_decision`): a merge the words decide is held for
review when the units name no entity in common. Entity keys are names as each writer gave
them, so two agents can key one thing two ways — ``peanuts`` and ``花生``, ``peanuts`` and
``peanut allergy`` (tester hbreak9 K22: such pairs were never linked across agents). When
every key of each unit is named in that unit's own value and in no other's, the values carry
the entities and the decision on the words already compared them; the keys tell the units
apart when one names something its value does not say, or something the other unit names
without taking it as its entity.
"""

from __future__ import annotations

from app.core.text import stems


def named(key: str, value: str) -> bool:
    """Whether ``value`` names the entity ``key`` (case-folded; Chinese in simplified
    characters): the key as written, or one of its words (stemmed; a Chinese word as jieba
    cuts it)."""
    if key in value.casefold():
        return True
    words = stems(key)
    return bool(words) and bool(words & stems(value))


def entities_tell_apart(
    value: str, keys: frozenset[str], other_value: str, other_keys: frozenset[str]
) -> bool:
    """Whether two units' entity ``keys`` (both given, none shared) say they are about
    different things: some key is not named in its own unit's value, or is named in the other
    unit's value, whose writer did not take it as what the unit is about (two speakers'
    turns: "Maria: Thanks, John." keyed ``maria``, "John: Thanks, Maria." keyed ``john``)."""
    if not keys or not other_keys or keys & other_keys:
        return False
    own = all(named(k, value) for k in keys) and all(named(k, other_value) for k in other_keys)
    crossed = any(named(k, other_value) for k in keys) or any(named(k, value) for k in other_keys)
    return not own or crossed
