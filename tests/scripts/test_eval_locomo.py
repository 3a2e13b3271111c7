"""scripts/eval_locomo.py: a variant that isolates one signal ("keyword only", "vector only")
zeroes every other signal the API knows, the answer-type signal included."""

from __future__ import annotations

from types import ModuleType

import pytest

from app.schemas.recall import Weights
from app.services.recall.scoring import SIGNALS
from tests.scripts import load_script


@pytest.fixture(scope="module")
def eval_locomo() -> ModuleType:
    return load_script("eval_locomo")


def test_single_signal_variants_zero_every_other_signal(eval_locomo: ModuleType) -> None:
    assert set(eval_locomo.SIGNALS) == set(SIGNALS)
    assert set(SIGNALS) <= set(Weights.model_fields)
    for variant, signal in (("keyword", "keyword"), ("vector", "semantic")):
        weights = eval_locomo.VARIANTS[variant][1]["weights"]
        Weights.model_validate(weights)
        assert weights == {s: (1.0 if s == signal else 0.0) for s in SIGNALS}
        assert weights["answer_type"] == 0.0
