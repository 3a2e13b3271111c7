"""The write path's plan for a new unit against all its neighbours (most similar first): the
first ``merge`` wins; else the contradictions to apply and the unsure pairs that open a review
(:func:`plan`). Each pair is decided by :mod:`.decision`. Pure: no I/O."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date

from app.core.chinese_script import simplified
from app.services.memory.pairs.below import decided as decided_below
from app.services.memory.pairs.canonical import canonical
from app.services.memory.pairs.decision import PairDecision, Thresholds, decide, p_same
from app.services.memory.pairs.entities import entities_tell_apart
from app.services.memory.pairs.features import Statement, features, statement
from app.services.memory.pairs.former import other_time
from app.services.memory.pairs.gate import (
    flags_contradiction,
    merge_ruled_out,
    review_worthy,
    subject_words,
)


@dataclass(frozen=True)
class Candidate:
    """An existing unit as the decision sees it: value, type, case-folded entities and the
    cosine similarity of its value to the new one."""

    value: str
    type: str
    entity_keys: frozenset[str]
    cosine: float
    occurred: date | None = None  # the day (UTC) it happened, for an event
    said_later: bool = False  # said after the new unit (an older session extracted late)


# What keeps two events on different days one event: it moved, was called off, or only its
# day was told otherwise (a possible correction, flagged).
ONE_EVENT = frozenset({"event_moved", "event_cancelled", "event_day_changed"})


@dataclass(frozen=True)
class Plan:
    """What to do with a new unit given its neighbours (indexes into the candidates):
    ``merge_into`` (or None), the ones it ``contradicts`` and the ``unsure`` ones that are
    real candidates (:func:`review_worthy`; at most ``max_unsure``, most similar first, and
    every possible contradiction: :func:`~.gate.flags_contradiction`), each
    with its :class:`PairDecision`; ``not_reviewed``: unsure pairs left ``distinct``."""

    merge_into: int | None
    contradicts: list[tuple[int, PairDecision]]
    unsure: list[tuple[int, PairDecision]]
    not_reviewed: int = 0


def plan(
    value: str,
    type_: str,
    entity_keys: frozenset[str],
    candidates: list[Candidate],
    thresholds: Thresholds | None = None,
    max_unsure: int = 3,
    occurred: date | None = None,
) -> Plan:
    """Decide a new unit against every neighbour (most similar first). The first ``merge``
    wins and nothing else is applied; two units naming disjoint entities never merge
    offline (``unsure``). ``occurred``: the day the new unit's event happened, when its writer
    said so — two events on different days are two occurrences (``distinct`` as
    ``other_occurrence``: "ran 5 km" on Monday and "ran 8 km" on Tuesday, a second migraine;
    tester hbreak6 G28) unless the pair says one event moved or was called off. Traditional
    characters are read as simplified (:func:`read`)."""
    t = thresholds or Thresholds()
    value, entity_keys, candidates = simplified(value), _keys(entity_keys), read(candidates)
    key = canonical(value).key
    new: Statement | None = None  # built when a pair needs more than the canonical form
    contradicts: list[tuple[int, PairDecision]] = []
    unsure: list[tuple[int, PairDecision]] = []
    skipped = 0
    common: tuple[frozenset[str], frozenset[str]] | None = None  # the subject's words, keys
    for k in sorted(range(len(candidates)), key=lambda i: -candidates[i].cosine):
        c = candidates[k]
        d = pair_decision(value, type_, entity_keys, c, t, occurred, key)
        if c.said_later and d.action in ("unsure", "distinct"):
            d = said_before(value, type_, entity_keys, c, t, occurred) or d
        if d.action == "merge":
            return Plan(k, [], [])
        if d.action == "contradicts":
            contradicts.append((k, d))
        elif d.action == "unsure" and (len(unsure) < max_unsure or flags_contradiction(d)):
            new = new or statement(value)
            old = statement(c.value)
            if d.merge_allowed and (why := merge_ruled_out(new, old)):  # it would lose a fact
                d = PairDecision("unsure", why, d.p_same, False)  # kind contradiction
            common = common or _common(new, entity_keys, candidates)
            shared = _named_in_both(value, c.value, (entity_keys & c.entity_keys) - common[1])
            p = d.p_same or p_same(features(new, old, c.cosine, type_ == c.type))
            if review_worthy(d, new, old, c.cosine, shared, common[0], t.review_cosine, p,
                             t.review_p, t.review_unmatched):  # fmt: skip
                unsure.append((k, d))
            else:
                skipped += 1
    return Plan(None, contradicts, unsure, skipped)


def pair_decision(
    value: str,
    type_: str,
    entity_keys: frozenset[str],
    c: Candidate,
    thresholds: Thresholds,
    occurred: date | None = None,
    key: str | None = None,
) -> PairDecision:
    """The decision :func:`plan` makes for the new unit against one neighbour ``c``, before
    its review rules (which ``unsure`` pair opens a review): ``merge`` exactly when
    :func:`plan` with ``c`` alone merges. ``key``: the new value's canonical key, when the
    caller has it."""
    t = thresholds
    value, entity_keys, c = simplified(value), _keys(entity_keys), read([c])[0]
    key = canonical(value).key if key is None else key
    # decide()'s first two steps on the canonical forms alone (no stemming, no slots):
    # the same result, and most neighbours of a chat turn stop here.
    if key == canonical(c.value).key:
        d = PairDecision("merge", "canonical_equal", 1.0, True)
    elif c.cosine < t.candidate_cosine and not decided_below(value, c.value):
        d = PairDecision("distinct", "below_candidate_cosine", 0.0, True)
    else:
        d = decide(statement(value), statement(c.value), c.cosine, type_equal=type_ == c.type,
                   thresholds=t)  # fmt: skip
    if d.action == "merge" and entities_tell_apart(value, entity_keys, c.value, c.entity_keys):
        d = PairDecision("unsure", "entities_differ", d.p_same, True)
    if (
        d.action != "distinct"
        and d.reason not in ONE_EVENT
        and other_occurrence(type_, occurred, c.type, c.occurred)
    ):
        d = PairDecision("distinct", "other_occurrence", d.p_same, False)
    if d.action != "distinct" and other_time(value, c.value, d.reason):  # "used to" (G33)
        d = PairDecision("distinct", "former_value", d.p_same, False)
    return d


# The reason prefix of a contradiction decided in the order things were said (:func:`said_before`).
SAID_BEFORE = "said_before:"


def said_before(
    value: str,
    type_: str,
    entity_keys: frozenset[str],
    c: Candidate,
    thresholds: Thresholds,
    occurred: date | None = None,
) -> PairDecision | None:
    """The pair decided in the order its two sides were said, for a neighbour ``c`` said after
    the new unit (tester hbreak7 H17: "I live in Oslo." at 08:00, extracted after "I moved to
    Bergen." at 09:00, stayed active beside the move): when ``c`` contradicts the new unit as
    if it had arrived last, a contradiction whose reason starts with :data:`SAID_BEFORE` (the
    write path resolves it as ``c`` against the new unit:
    :func:`app.services.memory.resolution.order`); else None."""
    new = Candidate(value, type_, entity_keys, c.cosine, occurred)
    d = pair_decision(c.value, c.type, c.entity_keys, new, thresholds, c.occurred)
    if d.action != "contradicts":
        return None
    return PairDecision("contradicts", SAID_BEFORE + d.reason, d.p_same, False)


def read(candidates: list[Candidate]) -> list[Candidate]:
    """``candidates`` as the decision reads them: values and entity keys in simplified
    characters (我對花生過敏 is 我对花生过敏: :mod:`app.core.chinese_script`)."""
    out = []
    for c in candidates:
        value, keys = simplified(c.value), _keys(c.entity_keys)
        same = value == c.value and keys == c.entity_keys
        out.append(c if same else replace(c, value=value, entity_keys=keys))
    return out


def _keys(keys: frozenset[str]) -> frozenset[str]:
    return frozenset(simplified(k) for k in keys)


def other_occurrence(type_a: str, day_a: date | None, type_b: str, day_b: date | None) -> bool:
    """Two events whose days are known and differ: two occurrences, never one unit."""
    return type_a == "event" == type_b and None not in (day_a, day_b) and day_a != day_b


def _named_in_both(a: str, b: str, keys: frozenset[str]) -> bool:
    """Whether some entity of ``keys`` is named in both texts past their first word (a
    transcript's "Speaker: …" names the speaker of every turn)."""
    rest_a, rest_b = a.casefold().partition(" ")[2], b.casefold().partition(" ")[2]
    return any(k in rest_a and k in rest_b for k in keys)


def _common(
    new: Statement, keys: frozenset[str], candidates: list[Candidate]
) -> tuple[frozenset[str], frozenset[str]]:
    """The subject's words (:func:`subject_words`) and the entity keys the new unit shares
    with at least half of its neighbours (two at least: the speaker of every turn)."""
    words = subject_words(new, [statement(c.value) for c in candidates])
    if len(candidates) < 2:
        return words, frozenset()
    counts: dict[str, int] = {}
    for c in candidates:
        for k in keys & c.entity_keys:
            counts[k] = counts.get(k, 0) + 1
    return words, frozenset(k for k, n in counts.items() if 2 * n >= len(candidates))
