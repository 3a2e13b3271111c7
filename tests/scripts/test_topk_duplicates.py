"""scripts/benchkit/topk_duplicates.py: the pairs of a recall answer that the pair decision
merges (the measure of issue 28's "top-k never holds two units the decision calls
duplicates"), counted per answer; folded hits counted apart."""

from __future__ import annotations

import sys
from pathlib import Path

from app.core.config import Settings

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from benchkit.topk_duplicates import count  # noqa: E402


def hit(value: str, **extra: object) -> dict[str, object]:
    return {"value": value, "type": "fact", "entities": [], "metadata": {}, **extra}


async def test_pairs_the_decision_merges_are_counted_per_answer() -> None:
    answers = [
        [hit("The user is a vegetarian."), hit("The user does not eat meat."), hit("Likes tea.")],
        [hit("The user is allergic to peanuts."), hit("The user is allergic to shellfish.")],
        [hit("The user lives in Berlin.", duplicates=["x"])],
    ]
    found = await count(answers, Settings())
    assert (found.answers, found.with_pair, found.pairs, found.folded_hits) == (3, 1, 1, 1)
    [(a, b, cosine)] = found.examples
    assert {a, b} == {"The user is a vegetarian.", "The user does not eat meat."}
    assert 0.8 < cosine < 1.0
