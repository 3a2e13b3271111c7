"""GET /context under a small budget: the standing constraints come first (tester F16: with
``max_tokens=200`` and the query "allergy" the block held a preference and a filler unit
while both allergies were left out, each too long for the standing share with its conflict
mark, and kept out of the recalled part as "already standing")."""

from __future__ import annotations

from typing import Any

PEANUTS, SHELLFISH = "The user is allergic to peanuts.", "The user is allergic to shellfish."
NOT_PEANUTS = "The user is not allergic to peanuts."
COFFEE, FILLER = "The user prefers coffee.", "Quick setup for the user's assistant profile."


async def seed(wm: Any, user: str) -> None:
    for batch in (
        [{"user_id": user, "type": "constraint", "value": PEANUTS}],
        [{"user_id": user, "type": "constraint", "value": NOT_PEANUTS}],
        [
            {"user_id": user, "type": "constraint", "value": SHELLFISH},
            {"user_id": user, "type": "preference", "value": COFFEE, "confidence": 0.95},
            {"user_id": user, "type": "fact", "value": FILLER},
        ],
    ):
        r = await wm.client.post("/store", json={"memories": batch})
        assert r.status_code == 200, r.text
    r = await wm.client.post(
        f"/working_memory/{user}-s/messages",
        json={"messages": [
            {"role": "user", "content": "Let's plan dinner for Saturday with friends.",
             "user_id": user},
            {"role": "assistant", "content": "Sure, how many people and which cuisine?"},
            {"role": "user", "content": "Six of us, maybe Thai food this time."},
        ]},
    )  # fmt: skip
    assert r.status_code == 200, r.text


async def block(wm: Any, user: str, max_tokens: int) -> dict[str, Any]:
    params = {"user_id": user, "session_id": f"{user}-s", "query": "allergy"}
    r = await wm.client.get("/context", params={**params, "max_tokens": max_tokens})
    assert r.status_code == 200, r.text
    ctx: dict[str, Any] = r.json()
    assert wm.tokenizer.count(ctx["text"]) == ctx["tokens"] <= ctx["budget_tokens"]
    return ctx


async def test_a_small_budget_keeps_the_allergies_before_a_preference(wm):
    await seed(wm, "f16")
    constraints = {PEANUTS, SHELLFISH, NOT_PEANUTS}
    for max_tokens in (120, 160, 200, 260, 400):
        ctx = await block(wm, "f16", max_tokens)
        standing = [p["value"] for p in ctx["parts"]["preferences"]]
        placed = standing + [m["value"] for m in ctx["parts"]["memories"]]
        assert SHELLFISH in standing, (max_tokens, ctx["text"])
        if max_tokens >= 200:  # only the shellfish allergy and the preference were in
            assert constraints <= set(placed), (max_tokens, ctx["text"])
        if max_tokens >= 160:
            assert len(constraints & set(placed)) >= 2, (max_tokens, ctx["text"])
        if not constraints <= set(placed):  # no preference or filler while one is out
            assert COFFEE not in placed and FILLER not in placed, (max_tokens, ctx["text"])
        if COFFEE in standing:
            assert constraints <= set(standing)
        if FILLER in placed:
            assert ctx["text"].index(FILLER) > ctx["text"].index(PEANUTS)
        assert ctx["parts"]["window"], (max_tokens, ctx["text"])  # the conversation stays
    # with room for all, every conflict mark is the full one
    assert ctx["text"].count('[unresolved conflict with "') == 2 and COFFEE in standing
    assert ctx["parts"]["memories"] == [
        {**ctx["parts"]["memories"][0], "value": FILLER}
    ]  # a unit appears once
