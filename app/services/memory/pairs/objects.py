"""What a statement is about, where a merge would lose a fact (tester F4, F15, F19): the pair
decision (:mod:`.decision`) reads three things here that no other guard sees.

- :func:`other_thing`: the same statement about two different things — every content word
  of one side matched by the other (lemmas, WordNet synonyms, CC-CEDICT glosses: the
  alignment of :mod:`.lexical`) but for one or two nouns on each side that nothing matches
  ("is allergic to peanuts" / "to kiwi", "is allergic to shellfish" / 用户对花生过敏, "is not
  allergic to shellfish" / "is allergic to shrimp", "has a dog" / "a cat"). Two facts: a merge
  would drop one (one "same" from a weak LLM, or one click on ``merge``, deleted an allergy),
  and a negation of one thing is no contradiction of the other. ``distinct``, never merged.
- :func:`same_avoidance`: a negation on one side only where the positive side says the
  subject keeps away from the thing the other side does not take — an allergy, an intolerance
  or an avoidance (WordNet's synonyms and derived forms of allergic, intolerant, avoid,
  abstain; a Chinese word whose CC-CEDICT glosses say so: 过敏, 忌口) — "Alice eats no
  peanuts" / "Alice is allergic to peanuts" agree (README's two examples: a false conflict).
  ``distinct``: both kept, never merged (the merge would drop the allergy).
- :func:`preference_flipped`: a preference for one thing against one for the thing it was
  preferred over ("prefers tea over coffee" / "prefers coffee", "prefers tea" / "now prefers
  coffee instead of tea", 更喜欢茶而不是咖啡 / 更喜欢咖啡): a contradiction, superseded or
  flagged by time (:mod:`app.services.memory.resolution`), never a rewording to merge.

Pure: word lists from :mod:`.lexicon` (WordNet 3.0, CC-CEDICT) and :mod:`.lexical`.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

import rjieba

from app.core import text
from app.services.memory.pairs import frames, lexical, lexicon, referents, synonymy
from app.services.memory.pairs.features import Statement, statement

# At most this many unmatched nouns on a side: "allergic to peanuts" / "to tree nuts".
_MAX_THINGS = 2

# Words whose WordNet synonyms and derived forms (or, for Chinese, CC-CEDICT glosses) say the
# subject keeps away from something.
_AVOID_SEEDS = ("allergic", "allergy", "intolerant", "intolerance", "avoid", "abstain")


def other_thing(new: Statement, old: Statement) -> bool:
    """Whether ``new`` and ``old`` say the same about different things (module docstring):
    one sentence frame with one slot filled otherwise (negation words aside; across English
    and Chinese, where no frame can be compared: one word each), each side's words there
    common nouns the other does not match (no number, no name, no place: :mod:`.swaps` and
    the values' guards read those), no two of them related in WordNet or CC-CEDICT, and at
    least one other content word matched on each side."""
    a = lexical.align(new.value, old.value)
    ua, ub = a.unmatched_a, a.unmatched_b
    width = 1 if new.cjk != old.cjk else _MAX_THINGS
    if not (0 < len(ua) <= width and 0 < len(ub) <= width):
        return False
    if a.n_a <= len(ua) or a.n_b <= len(ub):
        return False  # nothing said in common beyond the subject
    if not all(_noun(w, new.value) for w in ua) or not all(_noun(w, old.value) for w in ub):
        return False
    if new.cjk == old.cjk and not _one_slot(new, old, ua, ub):
        return False  # "paints in her free time" / "painting is her hobby": other frames
    return not any(_related(x, y) for x in ua for y in ub)


_NEGATION = re.compile(r"\b(?:not|no|never|n't)\b|n't\b|[不没]", re.IGNORECASE)


def _one_slot(new: Statement, old: Statement, ua: tuple[str, ...], ub: tuple[str, ...]) -> bool:
    """Whether the two values, negation words removed, are one frame with one place filled
    otherwise (:func:`.frames.one_slot_swapped`; Chinese: the characters around the unmatched
    words the same)."""
    a, b = _NEGATION.sub(" ", new.value), _NEGATION.sub(" ", old.value)
    if not new.cjk:
        return frames.one_slot_swapped(a, b)
    a, b = re.sub(r"[\s。，,.!！?？]", "", a), re.sub(r"[\s。，,.!！?？]", "", b)
    start = 0
    while start < min(len(a), len(b)) and a[start] == b[start]:
        start += 1
    end = 0
    while end < min(len(a), len(b)) - start and a[-1 - end] == b[-1 - end]:
        end += 1
    mid_a, mid_b = a[start : len(a) - end], b[start : len(b) - end]
    return (
        start > 0
        and all(w in a for w in ua)
        and all(w in b for w in ub)
        and (0 < len(mid_a) <= 4 and 0 < len(mid_b) <= 4)
    )


def _noun(word: str, value: str) -> bool:
    """A common noun of ``value``: WordNet's main part of speech of the lemma (a compound by
    its head) and not capitalised there, or jieba's plain ``n`` tag for a Chinese word known
    to CC-CEDICT; never a number, a name or a place (another city may be a change: "works in
    Hangzhou" / 在苏州工作, read by the slots and the LLM)."""
    if any(ch.isdigit() for ch in word):
        return False
    if text.has_cjk(word):  # jieba may tag a thing as a place (海鲜: ns); CC-CEDICT writes
        tags = rjieba.tag(word)  # a place or a name with a capital (苏州: Suzhou)
        first = next(iter(lexicon._cedict().get(word, ())), "")
        return (
            len(tags) == 1
            and tags[0][1].startswith("n")
            and not tags[0][1].startswith("nr")
            and first[:1].islower()
        )
    if re.search(rf"\b{re.escape(word.split('_')[0][:4])}", value) is None:
        return False  # written with a capital (a name, a place) or not found as written
    return lexicon.main_pos(word.rsplit("_", 1)[-1]) == 0


def _related(a: str, b: str) -> bool:
    """Two words that may name one thing: synonyms (:func:`.synonymy.synonyms`), one inside
    the other (a compound and its head: tree_nut / nut), or a Chinese word glossed by a word
    WordNet relates to the English one."""
    if synonymy.synonyms(a, b) or a in b or b in a:
        return True
    zh, en = (a, b) if text.has_cjk(a) else (b, a)
    if text.has_cjk(zh) and not text.has_cjk(en):  # 银行 (bank) / banker
        return any(synonymy.synonyms(g, en) or g in en or en in g for g in lexicon.glosses(zh))
    return False


@lru_cache(maxsize=4096)
def _keeps_away(word: str) -> bool:
    """Whether a content word says the subject keeps away from something (module docstring)."""
    if text.has_cjk(word):
        return bool(lexicon.glosses(word) & frozenset(_AVOID_SEEDS))
    return any(synonymy.synonyms(word, seed) for seed in _AVOID_SEEDS)


def same_avoidance(new: Statement, old: Statement) -> bool:
    """Whether a pair with a negation on one side only agrees (module docstring): the
    positive side has a word of avoidance the negative side lacks, and the two name the same
    things (no noun unmatched on either side)."""
    if new.polarity == old.polarity:
        return False
    pos, neg = (new, old) if new.polarity < old.polarity else (old, new)  # 0: affirmative
    wp, wn = lexical.content_words(pos.value).words, lexical.content_words(neg.value).words
    if not any(_keeps_away(w) for w in wp) or any(_keeps_away(w) for w in wn):
        return False
    a = lexical.align(pos.value, neg.value)
    things = [w for w in (*a.unmatched_a, *a.unmatched_b) if lexicon.is_thing(w)]
    return not [w for w in things if not _keeps_away(w)] and a.n_a > len(a.unmatched_a)


# "prefers X over / to / rather than / instead of / more than Y", "would rather X than Y",
# "likes X more / better than Y"; Chinese 更喜欢 / 偏好 / 宁愿 X 而不是 / 胜过 / 多于 Y,
# 比起 Y 更喜欢 X.
_EN_PREFER = re.compile(
    r"\b(?:prefers?|preferred|preferring|would\s+rather|'d\s+rather|likes?\s+(?=.+?\b(?:more|"
    r"better)\s+than\b))\s+(?P<x>[^.;,!?]+?)(?:\s+(?:more|better))?(?:\s+(?:over|to|rather\s+than|"
    r"instead\s+of|than)\s+(?P<y>[^.;,!?]+?))?\s*(?:[.;,!?]|$)",
    re.IGNORECASE,
)
_EN_INSTEAD = re.compile(r"\binstead\s+of\s+(?P<y>[^.;,!?]+?)\s*(?:[.;,!?]|$)", re.IGNORECASE)
_ZH_PREFER = re.compile(
    r"(?:比起(?P<y0>[^，。,.；;！!？?]+?)[，,]?\s*(?:用户|我|他|她)?)?"
    r"(?:更喜欢|更爱|偏好|更偏爱|偏爱|宁愿|宁可|更想要)(?P<x>[^，。,.；;！!？?]+?)"
    r"(?:[，,]?\s*(?:而不是|而非|不是|胜过|多于|多过)(?P<y>[^，。,.；;！!？?]+?))?(?=[，。,.；;！!？?]|$)"
)


def _preference(value: str) -> tuple[frozenset[str], frozenset[str]] | None:
    """The content words of what a statement prefers and of what it is preferred over (empty
    when unsaid), or None when it states no preference."""
    m = _EN_PREFER.search(value)
    if m is not None:
        x, y = m.group("x"), m.group("y")
        if y is None and (i := _EN_INSTEAD.search(value)) is not None:
            y = i.group("y")
            x = x[: x.casefold().find(" instead of")] if " instead of" in x.casefold() else x
    else:
        z = _ZH_PREFER.search(value)
        if z is None:
            return None
        x, y = z.group("x"), z.group("y") or z.group("y0")
    return _words(x), _words(y) if y else frozenset()


def _words(phrase: str) -> frozenset[str]:
    return frozenset(lexical.content_words(phrase).words)


def _matches(a: frozenset[str], b: frozenset[str]) -> bool:
    """Whether every word of the smaller set is matched by a word of the other (the same lemma,
    a synonym, a gloss across English and Chinese)."""
    if not a or not b:
        return False
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return all(any(x == y or synonymy.synonyms(x, y) for y in large) for x in small)


def preference_flipped(new: Statement, old: Statement) -> bool:
    """Whether one side prefers what the other side prefers something over, and the two do not
    prefer the same thing (module docstring)."""
    pn, po = _preference(new.value), _preference(old.value)
    if pn is None or po is None:
        return False
    (xn, yn), (xo, yo) = pn, po
    if not xn or not xo or _matches(xn, xo):
        return False
    return _matches(xn, yo) or _matches(xo, yn)


def same_preference(new: Statement, old: Statement) -> bool:
    """Whether both prefer the same thing and neither prefers what the other prefers it over:
    the 不 of 而不是 ("更喜欢茶而不是咖啡" / "更喜欢茶") negates nothing both say."""
    pn, po = _preference(new.value), _preference(old.value)
    if pn is None or po is None:
        return False
    if text.negation_polarity(_unopposed(new.value)) != text.negation_polarity(
        _unopposed(old.value)
    ):
        return False  # "no longer prefers tea": a negation of the preference itself
    return _matches(pn[0], po[0]) and not preference_flipped(new, old)


def _unopposed(value: str) -> str:
    """A preference without what it is preferred over (its 不 is no negation)."""
    m = _EN_PREFER.search(value) or _ZH_PREFER.search(value)
    if m is None or m.group("y") is None:
        return value
    return value[: m.end("x")] + value[m.end("y") :]  # the connector too: 而不是


def preferred_over_on_one_side(new: Statement, old: Statement) -> bool:
    """Whether one side says what it prefers something over and the other does not: a merge
    would lose the comparison ("prefers tea over coffee" / "likes drinking tea", 用户喜欢喝茶)."""
    said = [bool(p and p[1]) for p in (_preference(new.value), _preference(old.value))]
    if said[0] == said[1]:
        return False
    other = old.value if said[0] else new.value  # "likes tea more than coffee" compares too
    return _COMPARES.search(other) is None


_COMPARES = re.compile(
    r"\b(?:over|than|instead\s+of)\b|而不是|而非|胜过|多于|多过|比", re.IGNORECASE
)


def merge_loses_fact(new_value: str, old_value: str) -> str | None:
    """Why merging ``new_value`` into ``old_value`` would lose a fact — ``preference_flipped``,
    ``same_avoidance``, ``other_thing`` (module docstring) — or None. Checked again when a
    merge is applied (``POST /reviews/{id}``, the reconciliation job), so a review opened
    before these guards existed cannot merge such a pair either."""
    new, old = statement(new_value), statement(old_value)
    if preference_flipped(new, old):
        return "preference_flipped"
    if same_avoidance(new, old):
        return "same_avoidance"
    if other_thing(new, old):
        return "other_thing"
    return None


def apart(new: Statement, old: Statement) -> tuple[Literal["distinct", "unsure"], str] | None:
    """The pair decision's action and reason for two facts a merge would lose one of (tester
    F4, F15, F19): an allergy beside "eats no" the same thing (``same_avoidance``), the same
    statement about another thing (``other_thing``; two past events with another thing, "hurt
    his ankle" / "his knee", may be a correction: ``unsure``); None when neither holds."""
    if same_avoidance(new, old):
        return "distinct", "same_avoidance"
    if preferred_over_on_one_side(new, old):  # "prefers tea over coffee" / 用户喜欢喝茶
        return "unsure", "preferred_over"
    if other_thing(new, old):
        if "past" in referents.moods(new.value) & referents.moods(old.value):
            return "unsure", "other_thing"
        if _units(new, old):  # "wants distances in kilometres" / "in miles": one of two
            return "unsure", "unit_differs"  # flagged
        return "distinct", "other_thing"
    return None


def _units(new: Statement, old: Statement) -> bool:
    """The words only each side has are all units of measurement (WordNet's first noun
    senses: mile, kilometre, pound, kilogram): one measure given in another unit."""
    a = lexical.align(new.value, old.value)
    senses = lexicon._first_noun_senses()
    return all(
        any(lexicon._descends(s, ("unit_of_measurement",)) for s in senses.get(w, ())[:1])
        for w in a.unmatched_a + a.unmatched_b
    )
