"""The diversity step of the final list (app.services.recall.collapse.diversify): a hit that
nearly repeats a better-placed one loses DIVERSITY_WEIGHT × how far their cosine exceeds
DIVERSITY_FLOOR; the list stays sorted by score; nothing moves without close pairs."""

from __future__ import annotations

import uuid

import pytest

from app.services.recall.collapse import (
    DIVERSITY_FLOOR,
    DIVERSITY_WEIGHT,
    diversify,
    redirect_redundancy,
)
from app.services.recall.scoring import Ranked


def hit(score: float) -> Ranked:
    return Ranked(uuid.uuid4(), score, {})


def both(a: Ranked, b: Ranked, cos: float) -> dict[tuple[uuid.UUID, uuid.UUID], float]:
    return {(a.id, b.id): cos, (b.id, a.id): cos}


def test_a_near_repeat_moves_below_a_distinct_hit():
    first, repeat, other = hit(0.80), hit(0.79), hit(0.77)
    out = diversify([first, repeat, other], both(first, repeat, 0.97))
    assert [r.id for r in out] == [first.id, other.id, repeat.id]
    penalty = DIVERSITY_WEIGHT * (0.97 - DIVERSITY_FLOOR)
    assert out[2].score == pytest.approx(0.79 - penalty)
    # The penalty and its cause are on the hit (the answer's `redundancy`, `redundant_with`).
    assert out[2].redundancy == pytest.approx(penalty)
    assert out[2].redundant_with == first.id
    assert (out[0].redundancy, out[0].redundant_with) == (0.0, None)
    assert out[0] == first and out[1] == other  # unpenalised hits are unchanged
    scores = [r.score for r in out]
    assert scores == sorted(scores, reverse=True)


def test_pairs_at_or_below_the_floor_and_no_pairs_change_nothing():
    a, b, c = hit(0.9), hit(0.8), hit(0.7)
    assert diversify([a, b, c], {}) == [a, b, c]
    assert diversify([a, b, c], both(a, b, DIVERSITY_FLOOR)) == [a, b, c]


def test_the_largest_penalty_counts_and_ties_keep_the_given_order():
    a, b, c, d = hit(0.9), hit(0.85), hit(0.85), hit(0.83)
    cos = both(a, b, 0.93) | both(c, b, 0.99) | both(a, c, 0.91)
    out = diversify([a, b, c, d], cos)
    # after a: b loses 0.03 (0.82), c 0.01 (0.84) -> c, then d (0.83)
    assert [r.id for r in out[:3]] == [a.id, c.id, d.id]
    # b's penalty is now the larger one, from c (0.09)
    assert out[3].id == b.id
    assert out[3].score == pytest.approx(0.85 - DIVERSITY_WEIGHT * (0.99 - DIVERSITY_FLOOR))
    assert out[3].redundant_with == c.id  # the largest penalty's cause, not the first
    assert out[3].score + out[3].redundancy == pytest.approx(0.85)
    e, f = hit(0.8), hit(0.8)
    assert diversify([a, e, f], both(a, b, 0.99)) == [a, e, f]


def test_a_repeat_of_a_collapsed_unit_names_the_hit_that_stands_for_it():
    # c nearly repeats b, which the collapse folded into a: c's cause becomes a, in the answer.
    a, b, c = hit(0.9), hit(0.85), hit(0.8)
    out = diversify([a, b, c], both(b, c, 0.97))
    assert out[2].redundant_with == b.id
    kept = redirect_redundancy([out[0], out[2]], {a.id: a.id, b.id: a.id, c.id: c.id})
    assert [r.id for r in kept] == [a.id, c.id]
    assert kept[1].redundant_with == a.id and kept[1].redundancy == out[2].redundancy
    assert kept[0] == out[0]
