"""Which ``unsure`` pairs of the pair decision (:mod:`.decision`) open a review — a real
candidate for the LLM or a person — and which are flagged as a possible contradiction
(docs/DEDUPE.md, "Which unsure pairs open a review"). Pure."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Protocol

from app.core import text
from app.services.memory.pairs import lexical, lexicon, persons_zh, referents, rules
from app.services.memory.pairs.features import Statement


class Decided(Protocol):
    """What the gate reads of :class:`.decision.PairDecision` (which imports this module)."""

    @property
    def action(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def merge_allowed(self) -> bool: ...


# Unsure reasons that name a real candidate whatever the cosine: words cannot be compared
# across languages, a merge held back only by entities or types, the same exclusive slot, one
# past event told with another day (a corrected date, or the same thing done again), another
# kind of the one thing a sentence is about (coconut / almond milk: .frames.kind_swapped), a
# diet against a food it rules out (vegetarian now / loves steak: .diet.excludes), one name,
# place or colour swapped for another in the same sentence (yoga with Rob / with Mike:
# .swaps.thing_swapped).
_ALWAYS_REVIEWED = ("other_language", "negation_other_language", "entities_differ",
                    "type_differs", "slot_differs", "event_day_changed",
                    "kind_changed", "diet_excludes", "relationship_ended",
                    "thing_swapped", "opposite_verb", "given_up", "changed_from", "changed_to",
                    "values_changed_elsewhere", "event_moved_undated", "unit_differs",
                    "focus_differs", "rate_changed", "placing_changed",
                    "event_moved_other_language", "parted_otherwise",
                    "changed_other_language", "called_off_elsewhere")  # fmt: skip
# The share of content words (beyond the subject's) two statements must have in common.
_REVIEW_OVERLAP = 0.5
# An entity both name (beyond the subject's) makes a pair a real candidate only when the
# classifier's P(same) of the pair reaches this (tester E13: on a replayed conversation, "Tim"
# or "Harry Potter" named in two unrelated turns opened ~29 reviews per 100 stores at P(same)
# 0.29-0.39). Fitted with grouped k-fold CV by scripts/eval_dedupe_unseen.py (docs/DEDUPE.md,
# "The entity clause, checked with the same grouped CV").
REVIEW_P = 0.36
# The band (a cosine at or above the review cosine, no other reason) opens a review only for
# two statements that say little the other does not: at most this many content words
# unmatched on either side (:func:`.lexical.align`; a name both give is set aside). On a
# transcript ingested turn by turn, chit-chat ("Thanks, Maria! Your support means a lot" /
# "Sure thing, Maria. Thanks for the support!") sits at cosine 0.95-0.99 with many words on
# each side the other lacks: ~18 of 20 reviews per 100 stores were such pairs, opened by the
# band alone. Fitted on LoCoMo conversations, reported on the others by
# scripts/fit_review_band.py (docs/DEDUPE.md, "The band's words").
REVIEW_UNMATCHED = 4
# A question asks; it states no fact to restate or change ("What's up? Anything new?").
_QUESTION = re.compile(r"[?？]")
# A transcript turn stored as "Speaker: text" (the LoCoMo ingest, a chat log): its words are
# the speaker's own ("Maria: Thanks, John. I definitely will!" / "John: Got it! Thanks,
# Maria. I definitely will.": two people, not one fact told twice).
_SPEAKER = re.compile(
    r"^\s*([A-Z][\w'’.-]*(?:\s[A-Z][\w'’.-]*)?|[\u4e00-\u9fff]{1,4})\s*(?::\s|：)"
)

# A correction said as one ("correction:", "I meant", "纠正一下", "说错了", "不是 A，是 B", "not A
# but B"): with a negation on one side only, the newer unit corrects the older, never restates it.
_CORRECTION = re.compile(
    r"\b(?:correction|corrected|correcting|I\s+meant)\b|\bnot\b[^.;!?]{1,60}?\bbut\b"
    r"|纠正|更正|说错|不是[^。；！？]{1,30}?(?:而|，|,)\s*是",
    re.IGNORECASE,
)
# A name given to someone or something ("a dog named Rex", "一只猫，叫咪咪"): two different
# ones are two pets, people or things, never one fact (tester E8: a merge of the cat into
# the dog was offered).
_GIVEN_NAME = re.compile(
    r"\b(?:named|called)\s+([A-Z][\w'’-]*(?:\s+[A-Z][\w'’-]*)*)"
    r"|(?:名叫|叫做|叫|名字是|名字叫)([\u4e00-\u9fff]{1,4}?)(?=[，。,.！!；;、\s]|$)"
)


def flags_contradiction(d: Decided) -> bool:
    """Whether an ``unsure`` pair is flagged as a possible contradiction: a merge is ruled out
    (its review's ``kind`` is ``contradiction``) and its review always opens
    (:data:`_ALWAYS_REVIEWED`) — both units stay active, a person or the LLM supersedes one
    or keeps both."""
    return d.action == "unsure" and not d.merge_allowed and d.reason.startswith(_ALWAYS_REVIEWED)


def other_speakers(a: str, b: str) -> bool:
    """Whether two transcript turns ("Speaker: text") were said by two speakers, each named
    (:func:`speaker`)."""
    sa, sb = speaker(a), speaker(b)
    return sa is not None and sb is not None and sa != sb


@lru_cache(maxsize=8192)
def speaker(value: str) -> str | None:
    """The name a transcript turn opens with ("Maria: …", "张三：…"), case-folded; None when
    there is none or the label is a word, not a name ("Note:", "Update:", "User:" — a
    WordNet noun that no CC-CEDICT entry gives as an English name; Chinese: a name of jieba's,
    :func:`.persons_zh.opening_name`)."""
    m = _SPEAKER.match(value)
    if m is None:
        return None
    label = m.group(1)
    if text.has_cjk(label):
        return label if persons_zh.opening_name(label) == label else None  # 约翰: nrt
    word = label.split()[0].casefold()
    known = word in lexicon._first_noun_senses() and word not in referents._given_names()
    return None if known else label.casefold()


def given_names(value: str) -> frozenset[str]:
    """The names a statement gives to someone or something ("named Rex", "叫咪咪"),
    case-folded."""
    return frozenset((m.group(1) or m.group(2)).casefold() for m in _GIVEN_NAME.finditer(value))


def _script(names: frozenset[str]) -> frozenset[bool]:
    """Whether each name is written in Chinese characters."""
    return frozenset(any("\u4e00" <= ch <= "\u9fff" for ch in n) for n in names)


def merge_ruled_out(new: Statement, old: Statement) -> str | None:
    """Why a merge of an ``unsure`` pair would lose a fact, or None: each gives another name
    (``names_differ``: "a dog named Rex" / "a cat named Tom", "叫豆豆" / "叫咪咪"), or the newer
    corrects the older — a negation on one side only, said as a correction (``corrects``:
    "纠正一下，用户不是对花生过敏，是对芒果过敏" / "对花生过敏") — a change or another fact,
    never one fact told twice (tester E8: one click on ``merge`` folded the cat into the dog, the
    corrected allergy into the old one). A negation alone is not enough: "is a teetotaler" /
    "never drinks alcohol" is one fact (on the labelled pairs, contradictions aside, 17 of the
    19 with a negation on one side only are restatements)."""
    a, b = given_names(new.value), given_names(old.value)
    if a and b and not a & b and _script(a) == _script(b):  # Melanie / 梅兰妮 may be one
        return "names_differ"
    if new.polarity != old.polarity and _CORRECTION.search(new.value):
        return "corrects"
    return None


def review_worthy(
    d: Decided,
    new: Statement,
    old: Statement,
    cosine: float,
    shared_entities: bool = False,
    subject_words: frozenset[str] = frozenset(),
    review_cosine: float = 0.95,
    p_same: float = 1.0,
    review_p: float = REVIEW_P,
    review_unmatched: int | None = REVIEW_UNMATCHED,
) -> bool:
    """Whether an ``unsure`` pair is a real candidate worth a review (the LLM's or a
    person's); otherwise it stays ``distinct`` and opens nothing (docs/DEDUPE.md, "Which
    unsure pairs open a review"). A real candidate: a reason of :data:`_ALWAYS_REVIEWED`, two
    languages, ``cosine`` at or above ``review_cosine`` (the band where the decision is truly
    unsure), an entity both name beyond the subject's (``shared_entities``) when the pair's
    classifier P(same) (``p_same``, computed also for a guarded pair) reaches ``review_p``,
    the same exclusive slot, or — once ``subject_words`` (the words a subject's every
    statement carries: its name) are set aside — one content word swapped in the same frame,
    or at least half their content words in common. Two names given to two things
    (``names_differ``) are two facts unless they fill the same slot. The band alone opens
    a review only for two statements, neither a question, with at most
    ``review_unmatched`` content words unmatched on either side (:func:`in_band`; None:
    any)."""
    if d.reason == "names_differ":
        return bool(new.slots.keys() & old.slots.keys())
    if other_speakers(new.value, old.value) and not flags_contradiction(d):
        return False  # two turns of two speakers: each says their own (docs/DEDUPE.md)
    if d.reason.startswith(_ALWAYS_REVIEWED) or new.cjk != old.cjk:
        return True
    if in_band(new, old, cosine, review_cosine, review_unmatched):
        return True
    if shared_entities and p_same >= review_p:
        return True
    if new.slots.keys() & old.slots.keys():
        differ = frozenset(new.words) ^ frozenset(old.words)
        if new.cjk and old.cjk:
            differ |= new.chars ^ old.chars
        if not rules.names_a_relation(differ):
            return True  # the same slot of one person (not "'s sister is a dentist")
    if new.cjk and old.cjk and not (new.latin and old.latin):
        a, b = new.chars - subject_words, old.chars - subject_words
    else:
        a, b = frozenset(new.words) - subject_words, frozenset(old.words) - subject_words
    if len(a - b) == 1 and len(b - a) == 1 and a & b:
        return True  # one word swapped in the same frame: a change of value, or a restatement
    return bool(a and b) and len(a & b) / len(a | b) >= _REVIEW_OVERLAP


def in_band(
    new: Statement,
    old: Statement,
    cosine: float,
    review_cosine: float = 0.95,
    review_unmatched: int | None = REVIEW_UNMATCHED,
) -> bool:
    """Whether a pair is a real candidate by its cosine alone: at or above ``review_cosine``,
    neither side a question, and at most ``review_unmatched`` content words on either side
    that the other does not match (None: no limit) — one fact told twice, not two turns of
    a chat that share its tone."""
    if cosine < review_cosine:
        return False
    if review_unmatched is None:
        return True
    if _QUESTION.search(new.value) or _QUESTION.search(old.value):
        return False
    a = lexical.align(new.value, old.value)
    return max(len(a.unmatched_a), len(a.unmatched_b)) <= review_unmatched


def subject_words(new: Statement, olds: list[Statement]) -> frozenset[str]:
    """The words (Chinese: characters) the new statement shares with at least half of its
    neighbours, two at least: what every statement of the subject says (its name,
    "Caroline:"), not what ties two facts together."""
    if len(olds) < 2:
        return frozenset()
    mine = frozenset(new.words) | new.chars
    counts: dict[str, int] = {}
    for o in olds:
        for w in mine & (frozenset(o.words) | o.chars):
            counts[w] = counts.get(w, 0) + 1
    return frozenset(w for w, n in counts.items() if 2 * n >= len(olds))
