"""Which ``unsure`` pairs of the pair decision (:mod:`.decision`) open a review — a real
candidate for the LLM or a person — and which are flagged as a possible contradiction
(docs/DEDUPE.md, "Which unsure pairs open a review"). Pure."""

from __future__ import annotations

from typing import Protocol

from app.services.memory.pairs import rules
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
                    "kind_changed", "diet_excludes", "thing_swapped")  # fmt: skip
# The share of content words (beyond the subject's) two statements must have in common.
_REVIEW_OVERLAP = 0.5


def flags_contradiction(d: Decided) -> bool:
    """Whether an ``unsure`` pair is flagged as a possible contradiction: a merge is ruled out
    (its review's ``kind`` is ``contradiction``) and its review always opens
    (:data:`_ALWAYS_REVIEWED`) — both units stay active, a person or the LLM supersedes one
    or keeps both."""
    return d.action == "unsure" and not d.merge_allowed and d.reason.startswith(_ALWAYS_REVIEWED)


def review_worthy(
    d: Decided,
    new: Statement,
    old: Statement,
    cosine: float,
    shared_entities: bool = False,
    subject_words: frozenset[str] = frozenset(),
    review_cosine: float = 0.95,
) -> bool:
    """Whether an ``unsure`` pair is a real candidate worth a review (the LLM's or a
    person's); otherwise it stays ``distinct`` and opens nothing (docs/DEDUPE.md, "Which
    unsure pairs open a review"). A real candidate: a reason of :data:`_ALWAYS_REVIEWED`, two
    languages, ``cosine`` at or above ``review_cosine`` (the band where the decision is truly
    unsure), an entity both name beyond the subject's (``shared_entities``), the same
    exclusive slot, or — once ``subject_words`` (the words a subject's every statement
    carries: its name) are set aside — one content word swapped in the same frame, or at
    least half their content words in common."""
    if d.reason.startswith(_ALWAYS_REVIEWED) or new.cjk != old.cjk:
        return True
    if cosine >= review_cosine or shared_entities:
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
