"""The working-memory window keeps the session's standing statements first: the user's
constraints, preferences and decisions rank above chatter whatever the query, filler never
takes budget they need, and each message's ``why`` says so (English and Chinese)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from app.services.working_memory.ranking import rank, select, tier
from app.services.working_memory.standing import is_filler, standing_kind
from tests.services.working_memory.test_working_memory import append, msg
from tests.services.working_memory.test_working_memory_ranking import TOK, W, entry


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("I eat vegan food only, and I prefer trains over flights", "constraint"),
        ("I prefer trains over flights", "preference"),
        ("Never book red-eye flights for me", "constraint"),
        ("We decided to fly out on Friday", "decision"),
        ("Let's go with the second hotel", "decision"),
        ("我只吃素，而且我更喜欢坐火车不坐飞机", "constraint"),
        ("我更喜欢坐火车", "preference"),
        ("我们决定周五出发", "decision"),
        ("Do you prefer trains or flights?", None),
        ("ok", None),
        ("The weather in Lisbon is lovely today", None),
        ("好的", None),
    ],
)
def test_standing_kinds_come_from_the_extractors_cues(text: str, kind: str | None) -> None:
    assert standing_kind("user", text) == kind
    # The assistant restating it is not the user saying it.
    assert standing_kind("assistant", text) is None


def test_filler() -> None:
    assert is_filler("ok") and is_filler("thanks!") and is_filler("好的") and is_filler("👍")
    assert not is_filler("I eat vegan food only") and not is_filler("我只吃素")


def classified(seq: int, content: str):  # type: ignore[no-untyped-def]
    e = entry(seq, content)
    return replace(e, standing=standing_kind("user", content), filler=is_filler(content))


@pytest.mark.parametrize(
    ("standing", "chatter"),
    [
        ("I eat vegan food only, and I prefer trains over flights", ["ok", "cool", "sure thing"]),
        ("我只吃素，而且我更喜欢坐火车不坐飞机", ["好的", "嗯嗯", "哈哈"]),
    ],
)
def test_a_tight_budget_keeps_the_standing_statement_not_the_filler(standing, chatter) -> None:
    entries = [classified(1, standing)] + [classified(i + 2, c) for i, c in enumerate(chatter * 3)]
    assert all(e.filler for e in entries[1:]) and entries[0].standing == "constraint"
    ranked = rank(entries, None, W, half_life=2.0)
    # By score alone the newest filler wins (recency, and the statement's density is low).
    assert max(ranked, key=lambda r: r.score).entry.seq != 1
    budget = entries[0].tokens + 4
    chosen = select(ranked, budget, 4, TOK)
    assert [c.ranked.entry.seq for c in chosen.chosen] == [1]
    assert tier(chosen.chosen[0].ranked) == 0 and chosen.chosen[0].rank == 1


async def test_the_window_keeps_standing_statements_first(wm) -> None:
    chatter = [
        "ok",
        "The museum opens at ten and closes at six on weekdays",
        "haha nice",
        "Can you check the weather for the weekend?",
        "sure",
        "thanks!",
        "Parking near the station costs 12 EUR per day",
        "ok",
    ]
    await append(
        wm,
        "standing-en",
        msg("I eat vegan food only, and I prefer trains over flights"),
        *[msg(c, role="user" if i % 2 else "assistant") for i, c in enumerate(chatter)],
    )
    tokens = wm.tokenizer.count("I eat vegan food only, and I prefer trains over flights")
    for query in (None, "what is the weather like this weekend?"):
        params = {"max_tokens": int((tokens + 4) / 0.8) + 2, "include_omitted": "true"}
        if query:
            params["query"] = query
        r = await wm.client.get("/working_memory/standing-en", params=params)
        assert r.status_code == 200, r.text
        window = r.json()
        kept = window["messages"]
        assert [m["seq"] for m in kept] == [1], (query, kept)
        assert kept[0]["scores"]["standing"] == "constraint"
        assert "standing constraint" in kept[0]["why"]
        assert "whatever the query" in kept[0]["why"]
        fillers = [m for m in window["omitted"] if m["scores"]["filler"]]
        assert fillers and all("filler" in m["why"] for m in fillers)


async def test_the_window_keeps_standing_statements_first_in_chinese(wm) -> None:
    statement = "我只吃素，而且我更喜欢坐火车不坐飞机"
    await append(
        wm,
        "standing-zh",
        msg(statement),
        msg("好的", role="assistant"),
        msg("博物馆周一闭馆，门票六十元"),
        msg("嗯嗯"),
        msg("好的"),
    )
    budget = int((wm.tokenizer.count(statement) + 4) / 0.8) + 2
    r = await wm.client.get(
        "/working_memory/standing-zh",
        params={"max_tokens": budget, "query": "周末天气怎么样", "include_omitted": "true"},
    )
    window = r.json()
    assert [m["seq"] for m in window["messages"]] == [1]
    assert window["messages"][0]["scores"]["standing"] == "constraint"
    omitted = {m["seq"]: m for m in window["omitted"]}
    assert omitted[5]["scores"]["filler"] and "filler" in omitted[5]["why"]
    # With room for more, content comes before filler.
    wider = budget + wm.tokenizer.count("博物馆周一闭馆，门票六十元") + 5
    r = await wm.client.get(
        "/working_memory/standing-zh", params={"max_tokens": int(wider / 0.8) + 1}
    )
    assert {1, 3} <= {m["seq"] for m in r.json()["messages"]}
