"""When is a new unit the same memory as an existing one? (DESIGN §6)

Cosine alone is not enough with multilingual-e5-small: unrelated facts about one user reach
0.91 ("用户住在上海。" / "用户对花生过敏。") and negations 0.92–0.96. So a merge needs:

- the same text after normalisation (case, width, whitespace, punctuation) — always, or
- cosine ≥ ``merge_cosine`` **and** the same negation polarity **and** the same numbers
  **and** no disagreeing entities **and** lexical agreement: Jaccard of stemmed tokens ≥
  ``merge_min_overlap`` (default 1.0: the same words, in any form or order), or
  cosine ≥ :data:`NEAR_IDENTICAL` (spelling variants such as favorite/favourite).

Thresholds come from the labelled pairs in ``tests/test_dedupe_calibration.py``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from app.core import text

# Above this cosine, spelling variants (favorite/favourite) merge without token agreement.
# In the labelled set a one-word substitution reaches 0.987 ("绿茶"/"红茶" 0.981, a changed
# date 0.987 stopped by the number check), so this tier starts above them.
NEAR_IDENTICAL = 0.99


def value_hash(value: str) -> str:
    """SHA-256 of the normalised value: equal hashes are the same statement."""
    return hashlib.sha256(text.normalize(value).encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Verdict:
    """Whether to merge, and why (kept in the unit's metadata for audit)."""

    merge: bool
    reason: str


def same_memory(
    new_value: str,
    old_value: str,
    cosine: float,
    *,
    merge_cosine: float,
    min_overlap: float,
    new_entities: frozenset[str] = frozenset(),
    old_entities: frozenset[str] = frozenset(),
) -> Verdict:
    """Decide whether ``new_value`` restates ``old_value`` (given their cosine similarity)."""
    if text.normalize(new_value) == text.normalize(old_value):
        return Verdict(True, "normalised_equal")
    if cosine < merge_cosine:
        return Verdict(False, "cosine_below_threshold")
    if text.negation_polarity(new_value) != text.negation_polarity(old_value):
        return Verdict(False, "negation_differs")
    if text.numbers(new_value) != text.numbers(old_value):
        return Verdict(False, "numbers_differ")
    if new_entities and old_entities and not (new_entities & old_entities):
        return Verdict(False, "entities_differ")
    if cosine >= NEAR_IDENTICAL:
        return Verdict(True, "near_identical")
    if text.content_overlap(new_value, old_value) >= min_overlap:
        return Verdict(True, "cosine_and_lexical")
    return Verdict(False, "lexical_disagreement")
