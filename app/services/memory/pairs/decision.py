"""The pair decision of the write path: is a new unit the same memory as an existing one
(``merge``), does it contradict it (``contradicts``: superseded or flagged by
:mod:`app.services.memory.resolution`), is it another fact (``distinct``), or can the local
evidence not tell (``unsure``: the LLM reconciles it after the response, see
:mod:`app.services.memory.reconcile`)? The store service fetches the subject's active
neighbours down to the candidate gate (``CONFLICTS__MIN_COSINE_BY_MODEL``); this module
decides each pair from :mod:`~app.services.memory.pairs.features` (docs/DEDUPE.md):

1. the same canonical form (numbers, dates, times, units in one notation) → ``merge``;
2. below the candidate gate → ``distinct`` (a pair in two languages that fills one exclusive
   slot, or a diet against a food, :func:`.below.decided`: by the guards of step 3 only);
3. *guards* — a birth against the count of the user's children (:mod:`.children`:
   ``contradicts``), what each is about (:mod:`.referents`: another person, identifier, ordinal or
   direction → ``distinct``; another modality or tense, a past event on another day →
   ``unsure``), a state the new statement ends (:mod:`.endings`: quit smoking, divorced,
   retired, sold the house), a negation of the same statement, other values in one sentence
   frame (:mod:`.corrections`: "…, not May" aside), an antonym swap, roles that changed sides,
   another value of an exclusive slot (an employer left: :mod:`.job_left`), an exclusive
   one-word swap — are ``contradicts`` when the rest of the sentence agrees (across
   languages: every other word matched through the dictionaries, :mod:`.across`), else
   ``unsure``; another kind of one thing (:mod:`.frames`), a diet against a food it rules out
   (:mod:`.diet`), one name, place or colour swapped for another (:mod:`.swaps`) are
   ``unsure`` and flagged as possible contradictions (:func:`.gate.flags_contradiction`);
   what a merge would lose (:mod:`.objects`): a preference for what the other preferred
   something over → ``contradicts``; the same statement about another thing, or an allergy
   beside "eats no" the same thing → ``distinct``; two allergies of one subject
   (:func:`.diet.other_allergens`) are ``distinct``; two Chinese past events told with
   another verb (:mod:`.acts`) and, across the languages, two acts on one thing
   (:func:`.lexical.other_acts`) are ``unsure``; a new occupation against an old one told with
   an employer the new one does not name is ``unsure``, flagged (superseding it would drop
   the employer); a guarded pair never merges, whatever the LLM answers (``merge_allowed``);
4. a pair in two languages → ``merge`` when its content words align (step 5's rule with the
   ``*_xl`` thresholds), else ``unsure``;
5. otherwise a logistic score P(same) (word overlap after canonical forms, stemming, CJK
   characters and synonyms; containment; the same words in an order that keeps roles):
   ≥ ``merge_p`` → ``merge``; below it, content-word alignment (:func:`aligned`: lemmas,
   synonyms, glosses, values, both ways; ``align_*``), a label and its definition
   (:mod:`.definition`, ``define_*``) or a rewording the embedding alone tells, names and
   values agreeing (:func:`.reword.merges`, ``reword_*``) → ``merge`` (``unsure``
   when the types differ);
   ≥ ``unsure_p`` → ``unsure``, else ``distinct``.

Weights: scripts/calibrate_dedupe.py on tests/dedupe_pairs.py; ``align_*``, ``define_*``,
``reword_*``: scripts/eval_dedupe_unseen.py --fit (grouped k-fold CV). Pure: no I/O (word
lists: packages).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from app.services.memory.pairs import (
    across,
    acts,
    children,
    converse,
    corrections,
    definition,
    diet,
    endings,
    frames,
    job_left,
    kept_apart,
    lexical,
    moves,
    negated,
    negations,
    objects,
    prior,
    referents,
    restated,
    retold,
    rules,
    ways,
)
from app.services.memory.pairs.below import decided as decided_below
from app.services.memory.pairs.features import Features, Statement, features, frame_of, statement
from app.services.memory.pairs.gate import REVIEW_P, REVIEW_UNMATCHED
from app.services.memory.pairs.holders import apart as held_apart
from app.services.memory.pairs.reword import _subject_person as opening_person
from app.services.memory.pairs.reword import merges as reworded
from app.services.memory.pairs.swaps import thing_swapped

Action = Literal["merge", "contradicts", "distinct", "unsure"]

# Logistic weights over classifier_inputs() (intercept first), fitted by
# scripts/calibrate_dedupe.py --fit on tests/dedupe_pairs.py; see docs/DEDUPE.md.
WEIGHTS: tuple[float, ...] = (-1.24, 0.39, 1.09, -0.15, 2.22)
FEATURE_NAMES = ("intercept", "cosine", "overlap", "containment", "same_words")


@dataclass(frozen=True)
class Thresholds:
    """Where the score's zones begin (``DEDUPE__*`` settings)."""

    candidate_cosine: float = 0.80
    merge_p: float = 0.85
    unsure_p: float = 0.25
    # An unsure pair opens a review only when it is a real candidate (:func:`review_worthy`):
    # this cosine or above, or the same slot, entity or wording beyond the subject.
    review_cosine: float = 0.95
    # ... or, for a pair whose only tie is an entity both name, a P(same) of at least this
    # (:data:`.gate.REVIEW_P`, fitted with grouped k-fold CV by scripts/eval_dedupe_unseen.py).
    review_p: float = REVIEW_P
    # ... and the band alone only for two statements (no question) with at most this many
    # content words unmatched on a side (:data:`.gate.REVIEW_UNMATCHED`); None: any.
    review_unmatched: int | None = REVIEW_UNMATCHED
    # Content-word alignment (:mod:`.lexical`): a same-language pair the guards let through
    # merges at cosine ≥ ``align_cosine`` when each side has ≥ ``align_cover`` of its content
    # words matched and neither names a thing the other does not. Fitted with grouped k-fold
    # CV by scripts/eval_dedupe_unseen.py --fit (docs/DEDUPE.md); None switches it off.
    align_cosine: float | None = 0.97
    align_cover: float = 0.6
    # The same in two languages (words matched through CC-CEDICT): lower cosines.
    align_cosine_xl: float | None = 0.805
    align_cover_xl: float = 0.3
    # Unmatched things (nouns, names, numbers) allowed on one side, none on the other.
    align_things: int = 1
    # Same language, every content word matched both ways: merges from this cosine (fitted
    # with the same CV; "I work as a nurse" / "The user is a nurse"). None: off.
    align_cosine_full: float | None = 0.925
    # A label and its definition (:func:`.definition.merges`), fitted by the same CV; None: off.
    define_cosine: float | None = 0.835
    define_cover: float = 0.5
    # A rewording told by the embedding alone (:func:`.reword.merges`), fitted by the same CV
    # above every training pair of other facts; None: off.
    reword_cosine: float | None = 0.955
    reword_things: int = 3
    reword_cosine_zh: float | None = 0.985
    reword_cover_zh: float = 0.5


@dataclass(frozen=True)
class PairDecision:
    """The action for one (new, old) pair, a stable reason code, the classifier's P(same)
    (0..1; 1.0 for a canonical match, 0.0 for guarded pairs), and whether a merge may ever
    be applied (false for guarded pairs: the LLM cannot overrule a negation)."""

    action: Action
    reason: str
    p_same: float
    merge_allowed: bool


def classifier_inputs(f: Features) -> tuple[float, ...]:
    """The classifier's input vector for a pair, in :data:`FEATURE_NAMES` order."""
    # The same words in an order that keeps roles — and at least two of them: one word left
    # after stop words ("code am" / "code an") is too little evidence.
    same_words = float(
        f.overlap == 1.0 and f.order in ("same", "moved", "inverted") and f.words >= 2
    )
    return (1.0, f.cosine, f.overlap, f.containment, same_words)


def p_same(f: Features, weights: tuple[float, ...] = WEIGHTS) -> float:
    """The logistic P(same fact) of a pair without guards."""
    z = sum(w * x for w, x in zip(weights, classifier_inputs(f), strict=True))
    return 1.0 / (1.0 + math.exp(-z))


def _guard(f: Features, new: Statement, old: Statement) -> PairDecision | None:
    """A contradiction, or an unsure pair (most may never merge); None when no guard holds."""

    def contradicts(reason: str) -> PairDecision:
        return PairDecision("contradicts", reason, 0.0, False)

    def unsure(reason: str, merge_allowed: bool = False) -> PairDecision:
        return PairDecision("unsure", reason, 0.0, merge_allowed)

    if children.changed(new.value, old.value):  # had our 3rd baby / have two kids
        return contradicts(children.REASON)  # before the baby is read as another person
    if endings.died(new.value, old.value):  # "My cat Mochi died" / "has a cat named Mochi"
        return contradicts(f"{endings.REASON}:death")  # tester G14
    if (first := prior.decided(new.value, old.value)) is not None:  # 女朋友叫林悦 / 和林悦分手了
        return PairDecision(first[0], first[1], 0.0, False)  # "It was Maria's aunt who…"
    if (kept := referents.apart(new.value, old.value)) is not None:  # whose, which, how real
        action, reason, merge_allowed = kept
        if reason == "other_event_day" and rules.two_homes(new.value, old.value):
            return contradicts("slot_differs:residence")  # moved in 2023 / in 2025 (G9)
        if reason == "other_event_day" and (
            retold.only_the_day_differs(f)
            or (f.cross_lingual and across.only_days_differ(new, old))
        ):
            reason = "event_day_changed"  # a corrected date or the same thing done again
        return PairDecision(action, reason, 0.0, merge_allowed)
    if (held := held_apart(new.value, old.value)) is not None:  # tester D32
        return PairDecision(held, "other_holder", 0.0, False)  # the user / a name: unsure
    if (lost := kept_apart.contact(new.value, old.value)) is not None:  # tester H24
        return PairDecision(lost[0], lost[1], 0.0, False)
    if (kind := endings.ended(new.value, old.value)) is not None:  # quit smoking (tester F3)
        return contradicts(f"{endings.REASON}:{kind}")
    if diet.excludes(new.value, old.value):
        return unsure("diet_excludes")  # vegetarian now / loves steak: flagged, never merged
    if objects.preference_flipped(new, old):  # tea over coffee / coffee (tester F4, F19)
        return contradicts("preference_flipped")
    if (went := moves.changed(new.value, old.value)) is not None:  # from Lisbon to Porto, 换了
        return PairDecision(went[0], went[1], 0.0, False)  # lives in Lisbon / 用苹果手机
    if f.polarity_differs and not objects.same_preference(new, old):  # 而不是: no negation
        if (apart := _apart(new, old)) is not None:  # not allergic to shellfish / to shrimp
            return apart
        if f.cross_lingual:  # the words matched through the dictionaries, or another fact
            return PairDecision(*negated.across(new, old), 0.0, False)  # (tester K1)
        if negations.flipped(f, new, old):  # or an act stopped: 现在不喝咖啡了 (tester H15)
            return contradicts("negation_flip")
    if f.values_differ:
        if f.frame_equal and not f.cross_lingual:
            return contradicts("values_differ")
        if (head := corrections.without_named_tail(new.value, old.value)) is not None:
            g = features(statement(head), old, f.cosine)  # "…, not May" off (tester G1)
            if g.values_differ and g.frame_equal:  # "in April 2027, not May" / "in May"
                return contradicts("values_differ")
        if f.cross_lingual and across.only_values_differ(new, old):
            return contradicts("values_differ_other_language")  # June 5 / 7月5日
        if not f.cross_lingual and rules.says_change(new.value) and _only_change_words(new, old):
            return contradicts("values_changed")  # two cats / just one cat now (tester D26)
        if (told := retold.changed(f, new, old)) is not None:  # 目标是7分 / 目标改成6.5分了
            return unsure(told)  # flagged, both kept (passed away in 2019 / in March 2023)
        return unsure("values_differ_elsewhere")
    if job_left.left_employer(new.value, old.value):  # works at X / left X, 从X离职
        return contradicts("slot_differs:employer")
    if f.cross_lingual and rules.relationship_ended(new.value, old.value):
        return unsure("relationship_ended")  # "is single" / 已经结婚了: flagged
    if f.cross_lingual and (turned := _converse(new, old)) is not None:
        return turned  # bought a car / 卖了一辆车
    if f.cross_lingual and (lost := kept_apart.exception_or_compound(new.value, old.value)):
        return PairDecision(lost[0], lost[1], 0.0, False)  # 热狗 / "dogs" (tester H22)
    if f.cross_lingual:
        differs = across.slot_differs(new, old)  # lives in Hangzhou / 住在苏州
        if differs is None:  # words cannot be compared across languages, but for another
            return _apart(new, old)  # thing: allergic to shellfish / 对花生过敏 (tester F19)
        name, every_other_word_matched = differs
        if every_other_word_matched or rules.says_change(new.value):  # 搬到了上海 (tester F5)
            return contradicts(f"slot_differs_other_language:{name}")
        return unsure(f"slot_differs:{name}")
    if f.slot_conflict is not None:
        slot = f.slot_conflict
        if slot == "occupation" and "employer" in old.slots and "employer" not in new.slots:
            # "works as an engineer at Airbus" / "was promoted to senior engineer": superseded,
            # the employer the new statement does not say would be lost from the active state
            return unsure("slot_differs_keeps:employer")  # flagged; both kept until decided
        extra = (f.only_new | f.only_old) - _slot_words(new, old, slot)
        if new.cjk and old.cjk:  # characters: segmentation differs ("叫小红" / "叫小明")
            filled = ways.slot_text(new.value, slot, new.slots[slot])
            extra = frozenset(
                (new.chars ^ old.chars)
                - set(filled + ways.slot_text(old.value, slot, old.slots[slot]))
            )
        if not extra or rules.says_change(new.value):
            return contradicts(f"slot_differs:{f.slot_conflict}")
        if not rules.names_a_relation(extra):  # else another person's ("'s sister is a …")
            return unsure(f"slot_differs_elsewhere:{f.slot_conflict}")
    if f.antonym:
        return contradicts("antonym_swap") if f.one_word_swap else unsure("antonym_elsewhere")
    if f.order == "swapped" and f.overlap == 1.0:
        return contradicts("roles_swapped")
    if f.order == "passive":
        return unsure("voice_differs", merge_allowed=True)
    if f.exclusive and f.one_word_swap:
        return contradicts("exclusive_swap")
    if not new.cjk and not old.cjk and frames.kind_swapped(new.value, old.value):
        return unsure("kind_changed")  # coconut / almond milk: flagged, never merged
    if rules.relationship_ended(new.value, old.value):
        return unsure("relationship_ended")  # dating Sam / broke up: flagged (tester D26)
    if converse.given_up(new.value, old.value):
        return unsure("given_up")  # on a keto diet / gave up keto: flagged, never merged
    if (kind := thing_swapped(new.value, old.value)) is not None:
        return unsure(f"thing_swapped:{kind}")  # yoga with Rob / with Mike: flagged, kept
    if (lost := kept_apart.another_thing(new.value, old.value)) is not None:  # tester H22
        return PairDecision(lost[0], lost[1], 0.0, False)
    if (turned := _converse(new, old)) is not None:
        return turned
    if acts.other_event(new.value, old.value):
        return unsure("other_event")  # 猫死了 / 猫丢了: two events, never merged
    return _apart(new, old)


def _guarded(f: Features, new: Statement, old: Statement) -> PairDecision | None:
    """:func:`_guard`, then a second look at a pair left apart or open (:mod:`.restated`)."""
    d = _guard(f, new, old)
    again = restated.revisit(None if d is None else d.reason, f, new, old)
    return d if again is None else PairDecision("unsure", again, 0.0, False)


def _converse(new: Statement, old: Statement) -> PairDecision | None:
    """Converse or opposite verbs, an attempt against done, roles around a possessive
    (:mod:`.converse`): never merged."""
    found = converse.apart(new.value, old.value)
    return None if found is None else PairDecision(found[0], found[1], 0.0, False)


def _apart(new: Statement, old: Statement) -> PairDecision | None:
    """Two facts a merge would lose one of (:func:`.objects.apart`): never merged."""
    found = objects.apart(new, old)
    return None if found is None else PairDecision(found[0], found[1], 0.0, False)


def _only_change_words(new: Statement, old: Statement) -> bool:
    """The two frames (role words without values) differ only by words that mark a change or
    a count ("now", "just", "only", 现在, 只): "has two cats" / "has just one cat now"."""
    return rules.only_change_words(frame_of(new), frame_of(old))  # and a period (K20)


def _slot_words(new: Statement, old: Statement, slot: str) -> frozenset[str]:
    """Content words of the two values an exclusive slot holds (they may differ)."""
    a = ways.slot_text(new.value, slot, new.slots[slot])
    b = ways.slot_text(old.value, slot, old.slots[slot])
    return frozenset(statement(a).words) | frozenset(statement(b).words)


def decide(
    new: Statement,
    old: Statement,
    cosine: float,
    *,
    type_equal: bool = True,
    thresholds: Thresholds | None = None,
    weights: tuple[float, ...] = WEIGHTS,
) -> PairDecision:
    """Decide one pair (see the module docstring); ``cosine`` is the cosine similarity
    (−1..1) of the two values' passage embeddings."""
    t = thresholds or Thresholds()
    if new.canonical.key == old.canonical.key:
        return PairDecision("merge", "canonical_equal", 1.0, True)
    below = cosine < t.candidate_cosine  # only a guard decides a pair in two languages
    if below and not decided_below(new.value, old.value):  # that fills one slot (F5)
        return PairDecision("distinct", "below_candidate_cosine", 0.0, True)
    f = features(new, old, cosine, type_equal)
    guarded = _guarded(f, new, old)
    if guarded is not None:
        return guarded
    if below:
        return PairDecision("distinct", "below_candidate_cosine", 0.0, True)
    if diet.other_allergens(new.value, old.value):
        return PairDecision("distinct", "other_allergen", 0.0, True)  # shellfish / peanuts
    if f.cross_lingual:
        if lexical.other_acts(new.value, old.value):  # works at a bank / 在银行存钱
            return PairDecision("unsure", "other_act_other_language", 0.0, False)
        if aligned(new, old, cosine, t) and f.type_equal:
            return PairDecision("merge", "aligned_other_language", t.merge_p, True)
        return PairDecision("unsure", "other_language", 0.0, True)
    p = p_same(f, weights)
    reason = "classifier" if p >= t.merge_p else "aligned" if aligned(new, old, cosine, t) else ""
    reason = reason or ("defined" if definition.merges(new.value, old.value, cosine, t) else "")
    reason = reason or ("reworded" if reworded(new, old, cosine, t) else "")
    if reason:
        if not f.type_equal:
            return PairDecision("unsure", "type_differs", p, True)
        return PairDecision("merge", reason, max(p, t.merge_p), True)
    if p >= t.unsure_p:
        return PairDecision("unsure", "classifier", p, True)
    return PairDecision("distinct", "classifier", p, True)


def classifier_features(
    new: Statement, old: Statement, cosine: float, t: Thresholds
) -> Features | None:
    """The features of a pair that the logistic score decides (stage 5 of :func:`decide`), or
    None when an earlier stage does; scripts/calibrate_dedupe.py fits the weights on these."""
    if new.canonical.key == old.canonical.key or cosine < t.candidate_cosine:
        return None
    f = features(new, old, cosine)
    return None if _guarded(f, new, old) is not None or f.cross_lingual else f


def aligned(new: Statement, old: Statement, cosine: float, t: Thresholds) -> bool:
    """The alignment rule of :class:`Thresholds` (``align_cosine``, ``align_cover``): close
    embeddings, most content words matched both ways, no thing named on one side only."""
    same_language = new.cjk == old.cjk
    floor = t.align_cosine if same_language else t.align_cosine_xl
    full = t.align_cosine_full if same_language and floor is not None else None
    if floor is None or cosine < min(floor, full if full is not None else floor):
        return False
    a = lexical.align(new.value, old.value)
    if a.things_both or a.things > t.align_things or a.values_only:
        return False  # only values and times in common: 每月5号交房租 / 每月5号还花呗
    if a.things and opening_person(new.value) != opening_person(old.value):
        return False  # a thing one side adds, but whose: "The user's sister lives in Boston"
    if (
        new.cjk == old.cjk
        and a.unmatched_a
        and a.unmatched_b
        and (
            frames.one_slot_swapped(new.value, old.value)
            if not new.cjk
            else a.things and lexical.zh_place_swapped(new.value, old.value)
        )
    ):
        # The same sentence frame with one or two words swapped for others the dictionaries
        # do not match ("bought" / "sold a house", "leaves from" / "arrives at", "wifi" /
        # "email password"): another fact or a change, not a rewording (tester B9: merged
        # silently, the second text lost). In Chinese (jieba's words) when a thing is among
        # them: 骑自行车上班 / 骑自行车去健身房 (another place).
        return False
    if full is not None and cosine >= full and a.low >= 1.0:
        return True  # every content word matched both ways
    return cosine >= floor and a.low >= (t.align_cover if same_language else t.align_cover_xl)
