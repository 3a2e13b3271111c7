"""scripts/eval_pair_signals.py: the in-fold threshold merges no training pair of other facts,
the folds never test a calibration pair nor split a group, and the word-alignment rule keeps a
thing named on both sides apart unless the word vectors match it. Nothing is embedded here."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from tests.dedupe_pairs import Pair
from tests.scripts import load_script


@pytest.fixture(scope="module")
def script() -> ModuleType:
    return load_script("eval_pair_signals")


def test_the_threshold_sits_above_every_training_pair_of_other_facts(script: ModuleType) -> None:
    scores = np.array([0.99, 0.97, 0.95, 0.90])
    same = np.array([True, False, True, False])
    th = script.zero_fm_threshold(scores, same)
    assert 0.97 < th < 0.99  # the duplicate at 0.99 merges, the other fact at 0.97 does not
    assert script.zero_fm_threshold(np.array([0.9, 0.95]), np.array([True, False])) == np.inf


def _row(script: ModuleType, group: int, expect: str = "same") -> object:
    return script.Open(group, Pair("k", expect, f"old {group}", f"new {group}"))  # type: ignore[arg-type]


def test_folds_hold_out_whole_groups_and_never_the_calibration_set(script: ModuleType) -> None:
    rows = [_row(script, g) for g in (-1, -1, 3, 3, 5, 8, 13, 21)]
    folds = script.folds_of(rows, 3)
    assert set().union(*folds) == {3, 5, 8, 13, 21}
    assert all(-1 not in f for f in folds)
    assert sum(len(f) for f in folds) == 5  # each group in exactly one fold


def test_a_thing_on_both_sides_stays_apart_unless_the_word_vectors_match_it(
    script: ModuleType,
) -> None:
    r = _row(script, 1)
    r.values = {"cos": 0.99}
    r.n = (2, 2)
    r.unmatched = ([(True, 0, 0.99)], [(True, 0, 0.99)])  # dog / cat: nearest words
    assert script.aligned_by_words(r, 0.9, 0.5, 0, 0.95, 1)  # matched by the vectors
    assert not script.aligned_by_words(r, 0.9, 0.5, -1, 1.1, 1)  # by nothing: apart
