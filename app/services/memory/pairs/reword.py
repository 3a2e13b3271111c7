r"""A rewording that shares few words, told apart by the embedding alone (issue 28, step 1):
"Max became part of Nate's family in May 2022" / "Nate welcomed Max into his home in May
2022", 用户的母亲去年去世了 / 用户的妈妈去年走了. :mod:`.decision` merges such a pair when its
cosine is above every training pair of other facts (``reword_cosine``, fitted with grouped
k-fold CV by scripts/eval_dedupe_unseen.py: English and Chinese apart) and — since a cosine
this high still holds "Matt Patterson sang at the concert" / "Taylor Swift sang at the
concert" (0.956) — only when what would make them two facts is ruled out here first:

- the names agree: the people, places and companies each names (capitalised words, and a
  sentence's first word when it is a name; in Chinese jieba's person, place and organisation
  words and the words written in Latin capitals), months and weekdays aside (they are values);
- the values agree: the same canonical numbers, dates, times and amounts on both sides;
- no slot swapped: not one sentence frame with one or two words replaced ("is writing" /
  "is reading a fantasy novel", 每天骑自行车上班 / 去健身房);
- not two events: two past events whose actions and things are not matched (a support group
  / a talk at a school on the same day);
- a content word in common beyond the names, values and times (not "can't swim" / "can't
  ride a bike", "meditates for ten minutes every morning" / "walks ten minutes to the
  station every morning", 每月5号交房租 / 每月5号还花呗);
- the same moods (past, plan, wish, possibility: not "is training for a marathon" / "ran a
  marathon") and the same person opening both ("The user's sister lives in Boston" / "The
  user lives near his sister in Boston").

The cosine is fitted above every training pair of other facts with no slot swapped, whether
or not these checks would stop it: they are extra safety, never a reason for a lower cosine.

The survivor of a merge keeps the other wording in ``metadata.restated_as`` (merge.py), so a
wrong merge still loses no text. Pure: word lists from :mod:`.lexicon`, jieba's tags.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

import rjieba

from app.core import text
from app.services.memory.pairs import frames, lexical, lexicon, referents
from app.services.memory.pairs.features import Statement

_CAPITAL = re.compile(r"\b([A-Z][A-Za-z]+)")
_DATES = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday wednesday thursday "
    "friday saturday sunday mon tue tues wed thu thur thurs fri sat sun".split()
)
_ZH_NAMED = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz"})
_ZH_LATIN_NAME = re.compile(r"\b[A-Z][A-Za-z]+\b")


class Limits(Protocol):
    """The thresholds the rule reads (the decision's ``Thresholds``)."""

    @property
    def reword_cosine(self) -> float | None: ...
    @property
    def reword_things(self) -> int: ...
    @property
    def reword_cosine_zh(self) -> float | None: ...
    @property
    def reword_cover_zh(self) -> float: ...


def merges(new: Statement, old: Statement, cosine: float, t: Limits) -> bool:
    """The decision's rewording rule: a same-language pair at or above its language's cosine
    (``t.reword_cosine``, Chinese ``t.reword_cosine_zh``; None: off) that :func:`safe` lets
    through, with at most ``t.reword_things`` things unmatched on a side (English) or at least
    ``t.reword_cover_zh`` of the words matched both ways (Chinese)."""
    floor = t.reword_cosine_zh if new.cjk else t.reword_cosine
    if floor is None or cosine < floor or new.cjk != old.cjk:
        return False
    a = safe(new, old)
    if a is None:
        return False
    return a.low >= t.reword_cover_zh if new.cjk else a.things <= t.reword_things


def safe(new: Statement, old: Statement) -> lexical.Alignment | None:
    """The content-word alignment of a same-language pair when nothing says they are two
    facts (the module docstring's checks), else None."""
    a = shaped(new, old)
    if a is None or not agree(new, old, a):
        return None
    return a


def shaped(new: Statement, old: Statement) -> lexical.Alignment | None:
    """The content-word alignment of a same-language pair with no slot swapped and neither
    side saying all the other does and naming more ("plays piano" / "plays piano and violin":
    more, not other words; the merge kept "piano", tester hbreak5 F25) — the shape a rewording
    has; the fitted cosine lies above every training pair of other facts of this shape —, else
    None."""
    if new.cjk != old.cjk or _swapped(new.value, old.value, new.cjk):
        return None
    a = lexical.align(new.value, old.value)
    if (a.cover_a >= 1.0 and a.things_b) or (a.cover_b >= 1.0 and a.things_a):
        return None  # one says all the other does and more: "plays piano" / "piano and violin"
    return a


def agree(new: Statement, old: Statement, a: lexical.Alignment) -> bool:
    """The extra safety, which never lowers the fitted cosine: the same names and canonical
    values, a content word in common beyond the names, values and times ("can't swim" / "can't
    ride a bike", "is self-employed" / "works from home": none; 每月5号交房租 / 每月5号还花呗:
    only the day), the same moods
    (:func:`.referents.moods`: "is training for a marathon" / "ran a marathon"), the same
    person opening both ("The user's sister lives in Boston" / "The user lives near his
    sister in Boston"), and not two events."""
    if new.canonical.values != old.canonical.values:
        return False
    if _names(new.value, old.value) != _names(old.value, new.value):
        return False
    if (not new.cjk and a.low <= 0.0) or a.values_only:
        return False  # nothing, or only values and times, in common (sixteenth run)
    if referents.moods(new.value) != referents.moods(old.value):
        return False
    if _subject_person(new.value) != _subject_person(old.value):
        return False
    return not _two_events(new.value, old.value, a)


_EN_OPENING = re.compile(
    r"^\s*(?:the\s+user['’]s|my|his|her|their|our|[A-Z][a-z]+['’]s)\s+"
    r"(?:(?:older|younger|elder|little|big|best|new|old)\s+)?([a-z-]+)",
    re.IGNORECASE,
)


def _subject_person(value: str) -> str | None:
    """The person a statement opens with after a possessive ("The user's sister lives …",
    用户的妈妈…): whose fact it is, when not the subject's own; None otherwise."""
    m = _EN_OPENING.match(value)
    if m is not None:
        return referents._person_en(m.group(1))
    people = referents.people(value[:8]) if text.has_cjk(value) else frozenset()
    return min(people) if people else None


def _names(value: str, other: str) -> frozenset[str]:
    """The names ``value`` gives, case-folded; a sentence's capitalised first word counts when
    it is a name (:func:`_is_name`) or ``other`` writes it as one past its start."""
    if text.has_cjk(value):
        found = {w for w, tag in rjieba.tag(value) if tag in _ZH_NAMED}
        return frozenset(found | {w.casefold() for w in _ZH_LATIN_NAME.findall(value)})
    out: set[str] = set()
    inner_other = _inner(other)
    for m in _CAPITAL.finditer(value.strip()):
        word = m.group(1).casefold()  # not lemmatised: Maria is no plural of "mare"
        if word in _DATES:
            continue
        opens = m.start() == 0 or value.strip()[: m.start()].rstrip().endswith((".", "!", "?"))
        if opens and text.is_stop_word(word):
            continue  # "The", "In", "For"
        if opens and lexicon.lemma(word) in _lower(other):
            continue  # "Dogs scare the user" / "… afraid of dogs"
        if not opens or _is_name(word) or word in inner_other:
            out.add(word)
    return frozenset(out)


@lru_cache(maxsize=8192)
def _lower(value: str) -> frozenset[str]:
    """The lemmas of the words a statement writes in lower case."""
    return frozenset(lexicon.lemma(w) for w in re.findall(r"\b[a-z]+\b", value))


@lru_cache(maxsize=8192)
def _inner(value: str) -> frozenset[str]:
    """The capitalised words past a sentence's start, case-folded."""
    v = value.strip()
    return frozenset(
        m.group(1).casefold()
        for m in _CAPITAL.finditer(v)
        if m.start() > 0 and not v[: m.start()].rstrip().endswith((".", "!", "?"))
    )


@lru_cache(maxsize=4096)
def _is_name(word: str) -> bool:
    """A given name CC-CEDICT transliterates (Maria, Mike), a person in WordNet's first
    sense, or a word WordNet has no noun, verb or adverb for (Patel, Nate, Caroline)."""
    if word in referents._given_names():
        return True
    first = lexicon._first_noun_senses().get(word)
    if first:
        return lexicon._descends(first[0], ("person",))
    return lexicon.main_pos(word) not in (1, 3)


def _swapped(a: str, b: str, cjk: bool) -> bool:
    """One sentence frame with one or two words replaced on each side."""
    if not cjk:
        return frames.one_slot_swapped(a, b)
    ta, tb = [w for w, _t in rjieba.tag(a.strip())], [w for w, _t in rjieba.tag(b.strip())]
    start = 0
    while start < min(len(ta), len(tb)) and ta[start] == tb[start]:
        start += 1
    end = 0
    while end < min(len(ta), len(tb)) - start and ta[-1 - end] == tb[-1 - end]:
        end += 1
    mid_a, mid_b = len(ta) - start - end, len(tb) - start - end
    # ... or so in their canonical forms (用户每周游三次泳 / 用户每周跑步3次: 游泳 3次)
    return (start + end > 0 and mid_a <= 2 and mid_b <= 2) or lexical.zh_place_swapped(a, b)


def _two_events(a: str, b: str, al: lexical.Alignment) -> bool:
    """Both past events, each leaving an action (a verb WordNet reads first as one) and a
    thing unmatched: another thing done, not one told twice."""
    if "past" not in referents.moods(a) or "past" not in referents.moods(b):
        return False
    if not al.things_both:
        return False
    return _has_verb(al.unmatched_a) and _has_verb(al.unmatched_b)


def _has_verb(words: tuple[str, ...]) -> bool:
    return any(lexicon.main_pos(w) == 1 for w in words)
