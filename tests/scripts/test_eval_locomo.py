"""scripts/eval_locomo.py: a variant that isolates one signal ("keyword only", "vector only")
zeroes every other signal the API knows, the answer-type signal included."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from app.schemas.recall import Weights
from app.services.recall.scoring import SIGNALS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def eval_locomo() -> ModuleType:
    if str(ROOT / "scripts") not in sys.path:  # benchkit, as the script run from scripts/
        sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location("eval_locomo", ROOT / "scripts/eval_locomo.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["eval_locomo"] = module
    spec.loader.exec_module(module)
    return module


def test_single_signal_variants_zero_every_other_signal(eval_locomo: ModuleType) -> None:
    assert set(eval_locomo.SIGNALS) == set(SIGNALS)
    assert set(SIGNALS) <= set(Weights.model_fields)
    for variant, signal in (("keyword", "keyword"), ("vector", "semantic")):
        weights = eval_locomo.VARIANTS[variant][1]["weights"]
        Weights.model_validate(weights)
        assert weights == {s: (1.0 if s == signal else 0.0) for s in SIGNALS}
        assert weights["answer_type"] == 0.0
