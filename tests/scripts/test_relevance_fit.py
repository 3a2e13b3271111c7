"""scripts/relevance_fit.py: what a threshold costs and how it is chosen (tester finding T7:
the documented 0.1 cut answers). The held-out fold never takes part in choosing its own
threshold, and each use is charged what it costs."""

from __future__ import annotations

from types import ModuleType

import numpy as np
import pytest

from tests.scripts import load_script


@pytest.fixture(scope="module")
def fit() -> ModuleType:
    return load_script("relevance_fit")


def _rows(fit: ModuleType, questions: list[tuple[str, str, list[tuple[float, float]]]]):  # type: ignore[no-untyped-def]
    """Rows of (conversation, category, [(relevance, evidence), …] in rank order); the
    relevance goes in as ``shipped`` and is read back from it."""
    rows = fit.Rows.empty()
    for n, (conv, category, hits) in enumerate(questions):
        for rank, (p, y) in enumerate(hits):
            rows.conversation.append(conv)
            rows.question.append(f"{conv}/q{n}")
            rows.category.append(category)
            rows.rank.append(rank)
            rows.x.append([0.0, 0.0, 0.0, 0.0])
            rows.y.append(y)
            rows.shipped.append(p)
    return rows


def test_a_threshold_is_charged_the_answers_it_cuts_and_the_questions_it_flags(fit):
    rows = _rows(fit, [
        ("c1", "single_hop", [(0.5, 1.0), (0.2, 0.0)]),   # answer well above
        ("c1", "single_hop", [(0.3, 0.0), (0.08, 1.0)]),  # the T7 case: the answer at 0.08
        ("c1", "adversarial", [(0.02, 0.0), (0.01, 0.0)]),
        ("c1", "adversarial", [(0.2, 0.0)]),
    ])  # fmt: skip
    p = np.array(rows.shipped)
    everything = np.ones(len(p), dtype=bool)
    at = fit.at_threshold(p, rows, 0.1, everything)
    assert at.answer_lost == 0.5  # the cut drops the second question's answer
    assert at.nothing_ans == 0.0 and at.nothing_adv == 0.5 and at.nothing_precision == 1.0
    assert at.evidence_kept == 0.5
    low = fit.at_threshold(p, rows, 0.05, everything)
    assert low.answer_lost == 0.0 and low.nothing_adv == 0.5
    assert fit.choose_threshold(p, rows, everything, "answer_lost") == 0.08
    assert fit.choose_threshold(p, rows, everything, "nothing_ans") == 0.3


def test_each_fold_is_scored_at_a_threshold_chosen_without_it(fit, monkeypatch):
    # Conversation c1 alone would choose 0.08 (its answer sits at 0.08); c2 has its answers
    # at 0.5: chosen on c2, c1 is scored at c2's choice and loses its answer.
    rows = _rows(fit, [
        ("c1", "single_hop", [(0.3, 0.0), (0.08, 1.0)]),
        ("c2", "single_hop", [(0.5, 1.0), (0.01, 0.0)]),
    ])  # fmt: skip
    monkeypatch.setattr(fit, "cross_validated", lambda r: np.array(r.shipped))
    folds, pooled = fit.threshold_cv(rows, "answer_lost")
    chosen = {conv: t for conv, t, _ in folds}
    assert chosen == {"c1": 0.3, "c2": 0.08}
    assert {conv: a.answer_lost for conv, _, a in folds} == {"c1": 1.0, "c2": 0.0}
    assert pooled.answer_lost == 0.5
