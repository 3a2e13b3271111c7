"""A move said in the other language (tester F5): "I live in Boston." then 我搬到上海了。 left
both active — the two values' cosine (0.785) is under the candidate gate (0.80), and above it
the extra words (搬, 现在, 那里) made a review of what the change says itself. Now a pair in
English and Chinese that fills one exclusive slot is decided below the gate by the guards,
and a statement that says the change supersedes the old residence (kept as history). Another
person's move supersedes nothing. Offline ``/extract`` on the embedded PostgreSQL."""

from __future__ import annotations

import pytest

from tests.services.extraction.extracted import NOW
from tests.services.extraction.test_state_endings import LATER, extract, listed


@pytest.mark.parametrize(
    ("home", "move"),
    [
        ("I live in Boston.", "我搬到上海了。"),
        ("我住在北京。", "I moved to Boston."),
    ],
)
async def test_a_move_in_the_other_language_supersedes_the_old_home(client, home, move):
    (old,) = await extract(client, "f5m", home, NOW)
    outcomes = await extract(client, "f5m", move, LATER)
    assert "superseded" in outcomes.values(), outcomes
    every = await listed(client, "f5m", include_superseded="true")
    assert every[old] == "superseded", every
    assert [v for v, s in every.items() if s == "active"] == list(outcomes), every
    reviews = (await client.get("/reviews", params={"user_id": "f5m"})).json()["reviews"]
    assert reviews == [], reviews


@pytest.mark.parametrize(
    ("home", "other"),
    [("I live in Boston.", "我妈妈搬到上海了。"), ("我住在北京。", "My sister moved to Boston.")],
)
async def test_another_persons_move_leaves_the_home(client, home, other):
    (old,) = await extract(client, "f5o", home, NOW)
    await extract(client, "f5o", other, LATER)
    assert (await listed(client, "f5o"))[old] == "active"
