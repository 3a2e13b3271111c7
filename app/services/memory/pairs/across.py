"""Contradictions between a statement in English and one in Chinese (issue 28, docs/DEDUPE.md):
their words are compared through the content-word alignment
(:mod:`~app.services.memory.pairs.lexical`: lemmas, CC-CEDICT glosses, canonical values), and
a guard of :func:`~app.services.memory.pairs.decision.decide` holds across languages when the
rest of the two statements agrees word for word:

- a negation of the same statement ("用户喜欢香菜" / "The user doesn't like cilantro"): one
  side's words all matched, half the other's at least (:func:`negation_matches`);
- other values (June 5 / 7月5日): every content word matched but the values
  (:func:`only_values_differ`);
- another value of one exclusive slot (lives in Hangzhou / 住在苏州: the Chinese value's
  glosses do not name the English one; :func:`slot_differs`), decided below the candidate
  gate too (:func:`same_slot`: the two languages' cosine is low).

Pure functions over :class:`~app.services.memory.pairs.features.Statement`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from app.core import text
from app.services.memory.pairs import job_left, lexical, lexicon, rules, synonymy
from app.services.memory.pairs.features import Statement

NEGATION_COVER = 0.5
"""A negation across languages: one side's words all matched, at least this share of the
other's (the same-language guard asks half the words in common)."""


def negation_matches(new: Statement, old: Statement) -> bool:
    """Whether two statements of opposite polarity say the same thing otherwise."""
    a = lexical.align(new.value, old.value)
    return a.high == 1.0 and a.low >= NEGATION_COVER


def _only_unmatched(new: Statement, old: Statement, value: Callable[[str], bool]) -> bool:
    """Every content word of each side is matched by the other but for at least one that
    ``value`` accepts on each side, and one matched word at least on each side."""
    a = lexical.align(new.value, old.value)
    return (
        bool(a.unmatched_a and a.unmatched_b)
        and all(value(w) for w in (*a.unmatched_a, *a.unmatched_b))
        and a.n_a > len(a.unmatched_a)
        and a.n_b > len(a.unmatched_b)
    )


def only_values_differ(new: Statement, old: Statement) -> bool:
    """Whether the two differ only by their values (numbers, dates, amounts)."""
    return _only_unmatched(new, old, lambda w: any(c.isdigit() for c in w))


def only_days_differ(new: Statement, old: Statement) -> bool:
    """Whether the two differ only by their days (dates, weekdays, months of a year: one
    event told with another day, "on 19 January 2023" / 2023年3月19日)."""
    from app.services.memory.pairs.referents import is_day

    return _only_unmatched(new, old, is_day)


def day_moved(new: str, old: str) -> bool:
    """Whether ``new``, in the other language, moves what ``old`` tells to another day ("plays
    badminton every Thursday night" / 羽毛球改到每周三晚上打了): a word of change in ``new``
    (:data:`.plans.CHANGE`), days on both sides with none in common, and a content word matched
    through the dictionaries on each side beyond them. Decided below the candidate gate too."""
    from app.services.memory.pairs import plans
    from app.services.memory.pairs.referents import is_day

    if text.has_cjk(new) == text.has_cjk(old) or plans.CHANGE.search(new) is None:
        return False
    a = lexical.align(new, old)
    days_a = {w for w in a.unmatched_a if is_day(w)}
    days_b = {w for w in a.unmatched_b if is_day(w)}
    matched = a.n_a > len(a.unmatched_a) and a.n_b > len(a.unmatched_b)
    return bool(days_a and days_b) and matched


def same_slot(a: str, b: str) -> bool:
    """Whether two values in two languages fill one exclusive slot (lives in Boston /
    搬到了上海), one leaves the employer the other names, or — in one language — the two give
    a home or an employer two values and one says it changed: a pair to decide below the
    candidate gate (tester F5: a Chinese move's cosine to the English residence was 0.785,
    under the gate's 0.80, and both stayed active). Their slot values are then compared by
    :func:`slot_differs` (two languages) or the guards of the decision."""
    if job_left.left_employer(a, b) or job_left.left_employer(b, a):
        return True  # 在阿里巴巴做产品经理 / "left Alibaba" (tester hbreak7 H2)
    slots_a, slots_b = _exclusive(a), _exclusive(b)
    if text.has_cjk(a) == text.has_cjk(b):  # one language: a home or job said changed
        return any(  # "I live in Oslo." / "moved to Bergen" at 0.795 (tester hbreak7 H7)
            k in _CHANGEABLE and not rules.same_slot_value(v, slots_b[k])
            for k, v in slots_a.items() if k in slots_b
        ) and (rules.says_change(a) or rules.says_change(b))  # fmt: skip
    return bool(slots_a.keys() & slots_b.keys())


# The slots a move or a new job changes, decided below the gate in one language too.
_CHANGEABLE = frozenset({"residence", "employer"})


@lru_cache(maxsize=4096)
def _exclusive(value: str) -> dict[str, str]:
    return rules.slots(value)


def slot_differs(new: Statement, old: Statement) -> tuple[str, bool] | None:
    """An exclusive slot both fill with values the dictionary tells apart, and whether every
    other word is matched (a contradiction; else a real candidate for review); None when no
    slot differs. A keyed slot's key is matched through the dictionary ("the user's cat is
    called Mochi" / 用户的猫叫 Tofu: named:cat, named:猫), its values in Latin letters as
    they are written."""
    zh, en = (new, old) if new.cjk else (old, new)
    for zk, zv in sorted(zh.slots.items()):
        kind, _, key = zk.partition(":")
        for ek, ev in sorted(en.slots.items()):
            other, _, eng = ek.partition(":")
            if not key or zk == ek or kind != other or not synonymy.synonyms(key, eng):
                continue
            if not text.has_cjk(zv) and zv != ev:
                return zk, _only_unmatched(new, old, (zv + " " + ev).__contains__)
    for slot in sorted(zh.slots.keys() & en.slots.keys()):
        zv, ev = zh.slots[slot], en.slots[slot]
        if not text.has_cjk(zv) or text.has_cjk(ev):
            continue
        glossed = lexicon.glosses(zv) | lexicon.gloss_heads(zv)
        if not glossed or ev in glossed or ev.replace(" ", "_") in glossed:
            continue  # unknown to the dictionary, or the same value
        values = zv + " " + ev
        return slot, _only_unmatched(new, old, values.__contains__)
    return None
