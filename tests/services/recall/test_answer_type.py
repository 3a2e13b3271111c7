"""The answer-type signal (app.services.recall.answer_type): a question that asks for a kind of
thing ("Which cities has John been to?", "约翰去过哪些城市？") lifts the units that name one
("I was in Chicago"), which the vectors place among the chatter about the topic; questions
that ask for no kind, and units that name none, are left as they were."""

from __future__ import annotations

import pytest

from app.core.config import RecallSettings
from app.repositories.recall.repository import RecallRepository
from app.services.recall.answer_type import answer_type, names_instance
from app.services.recall.scoring import SIGNALS
from tests.services.lifecycle.test_lifecycle import store


@pytest.mark.parametrize(
    ("question", "words"),
    [
        ("Which cities has John been to?", ("city",)),
        ("What European countries has Maria been to?", ("european_country",)),
        ("What kind of art does Caroline make?", ("art",)),
        ("What are Joanna's hobbies?", ("hobby",)),
        ("What musical artists/bands has Melanie seen?", ("artist", "band")),
        ("What martial arts has John done?", ("martial_art",)),
        # title case: a capital marks no name; "Countries" is the head, not "European"
        ("Which European Countries Has Maria Visited?", ("european_country",)),
        ("Which US cities does John mention visiting to Tim?", ("city",)),  # US: no pronoun
        ("What pets wouldn't cause any discomfort to Joanna?", ("pet",)),
        ("What attributes describe John?", ("attribute",)),  # a plural noun, then its verb
        # the -ing noun stays itself (simplemma's lemma is the verb: light)
        ("What kind of lighting does Nate's gaming room have?", ("lighting",)),
        ("What type of volunteering have John and Maria both done?", ("volunteer",)),
        ("约翰去过哪些城市？", ("city", "town")),
        ("她会弹什么乐器？", ("musical_instrument",)),
    ],
)
def test_the_kind_a_question_asks_for(question: str, words: tuple[str, ...]) -> None:
    kind = answer_type(question)
    assert kind is not None and kind.words == words


@pytest.mark.parametrize(
    "question",
    [
        "What did Caroline research?",  # asks for no kind
        "When did Melanie paint a sunrise?",
        "What activities does Melanie partake in?",  # too general: most nouns are activities
        "What events has Caroline attended?",
        "How is the weather?",
        "",
        "她昨天做了什么？",
        "我喜欢喝咖啡",
        # a verb after what/which asks for no kind
        "What made John quit his job?",
        "What makes Maria happy?",
        "What led Gina to open a store?",
        "What helped Jon relax?",
        "What keeps Tim busy?",
        "What caused the accident?",
        "What sparked John's interest in education?",
        "Which activity helps Nate escape?",  # "activity", too general; not "help"
        # the head, not its modifier: "experience" (too general), not "professional" (a person)
        "What kind of professional experience did Gina get accepted for?",
        "What items des John mention having as a child?",  # items (too general), not "des"
        # 为什么 (why), 什么时候 (when): no kind; 约翰 is a name, not a category
        "为什么约翰去了芝加哥？",
        "什么时候约翰去了芝加哥？",
        "约翰为什么去芝加哥？",
    ],
)
def test_questions_without_a_specific_kind(question: str) -> None:
    assert answer_type(question) is None


@pytest.mark.parametrize(
    ("question", "text", "named"),
    [
        ("Which cities has John been to?", "John: I was in Chicago, it was awesome!", True),
        ("Which cities has John been to?", "John: We flew into New York last May.", True),
        # the topic is not an instance of it, nor is a word that only starts a sentence
        ("Which cities has John been to?", "John: I love exploring big cities!", False),
        ("Which cities has John been to?", "Nice to see you! Travel is the best.", False),
        ("What instruments does Tim play?", "I'm learning how to play the violin now.", True),
        ("What instruments does Tim play?", "Watch this, I bought a new watch.", False),
        ("What sports does John like?", "An awesome summer, surfing with friends.", True),
        ("What states has Maria vacationed at?", "Oh ok, me or you? A trip to Florida.", True),
        ("What states has Maria vacationed at?", "Oh ok, me or you? Let's go.", False),
        ("约翰去过哪些城市？", "我上个月去了芝加哥，太棒了", True),
        ("约翰去过哪些城市？", "我很喜欢旅行，到处看看", False),
        ("Which cities has John been to?", "我上个月去了芝加哥", True),
        ("约翰去过哪些城市？", "I was in Chicago last week", True),
        # place names through CC-CEDICT's definitions: "Shanghai municipality" (WordNet's
        # Shanghai, a city), "Suzhou prefecture level city in Jiangsu" (unknown to WordNet)
        ("约翰去过哪些城市？", "我上周去了上海", True),
        ("约翰去过哪些城市？", "我上周去了苏州", True),
        ("Which cities has John been to?", "我上周去了杭州", True),
        ("约翰去过哪些城市？", "我上周去了浙江", False),  # a province
        ("她去过哪些省份？", "我上周去了浙江", True),
        ("约翰去过哪些城市？", "我养了一只宠物", False),  # "house pet": no name
    ],
)
def test_which_units_name_one(question: str, text: str, named: bool) -> None:
    kind = answer_type(question)
    assert kind is not None
    assert names_instance(text, kind) is named


# ---- through the API ----------------------------------------------------------------------

TRAVEL = [
    "John: I have been to so many places this year, travelling non-stop!",
    "John: I have been travelling a lot lately, it has been great.",
    "John: Been on the road for weeks, visiting friends everywhere.",
    "John: Travel has been amazing, so many new places to see.",
    "John: I want to go somewhere new next month, any ideas?",
    "John: Trips with friends are the best, we always have a great time exploring.",
]
CHICAGO = "John: I was in Chicago, it was awesome!"


async def _recall(client, user: str, query: str, **extra):  # type: ignore[no-untyped-def]
    r = await client.post("/recall", json={"query": query, "user_id": user, "top_k": 3} | extra)
    assert r.status_code == 200, r.text
    return r.json()


async def test_a_unit_naming_an_asked_kind_is_lifted(client) -> None:
    await store(
        client,
        *({"user_id": "at", "value": v, "occurred_at": f"2024-05-{i + 1:02d}T10:00:00Z"}
          for i, v in enumerate([*TRAVEL, CHICAGO])),
    )  # fmt: skip
    query = "Which cities has John been to?"
    without = await _recall(client, "at", query, weights={"answer_type": 0})
    # behind talk about travel, which names no city: not in the top 3
    assert CHICAGO not in [m["value"] for m in without["memories"]]
    assert {m["scores"]["answer_type"] for m in without["memories"]} == {0.0}
    assert "answer_type" not in without["stages_ms"]

    answer = await _recall(client, "at", query)
    kinds = {m["value"]: m["scores"]["answer_type"] for m in answer["memories"]}
    assert kinds.pop(CHICAGO) == 1.0 and set(kinds.values()) == {0.0}
    assert answer["weights"]["answer_type"] == RecallSettings().weight_answer_type
    assert "answer_type" in answer["stages_ms"]
    for m in answer["memories"]:  # the score is still the weighted sum of the signals
        total = sum(answer["weights"][s] * m["scores"][s] for s in SIGNALS)
        assert m["score"] + m["redundancy"] == pytest.approx(total, abs=1e-9)


async def test_chinese_kind_and_no_kind_at_all(client) -> None:
    turns = ["我很喜欢旅行，到处看看新的地方。", "旅行让我放松，也能认识新朋友。",
             "下次旅行去哪里呢？我还没想好。", "和朋友一起旅行总是很开心。",
             "我上个月去了芝加哥，太棒了！"]  # fmt: skip
    await store(
        client,
        *({"user_id": "zh", "value": v, "occurred_at": f"2024-05-0{i + 1}T10:00:00Z"}
          for i, v in enumerate(turns)),
    )  # fmt: skip
    answer = await _recall(client, "zh", "约翰去过哪些城市？")
    hits = {m["value"]: m["scores"]["answer_type"] for m in answer["memories"]}
    assert hits.get("我上个月去了芝加哥，太棒了！") == 1.0
    assert sum(hits.values()) == 1.0

    # A question that asks for no kind: the signal stays off, and the order is the same as
    # with its weight at 0 (nothing read for it).
    plain = await _recall(client, "zh", "我上次旅行怎么样？")
    off = await _recall(client, "zh", "我上次旅行怎么样？", weights={"answer_type": 0})
    assert [m["id"] for m in plain["memories"]] == [m["id"] for m in off["memories"]]
    assert [m["score"] for m in plain["memories"]] == [m["score"] for m in off["memories"]]
    assert "answer_type" not in plain["stages_ms"]


async def test_the_values_come_with_the_candidates(client, monkeypatch) -> None:
    """On the exact path the texts the signal reads come with the candidates statement: no
    statement of their own, and the same answer as when they were read apart."""
    await store(
        client,
        *({"user_id": "at2", "value": v, "occurred_at": f"2024-05-{i + 1:02d}T10:00:00Z"}
          for i, v in enumerate([*TRAVEL, CHICAGO])),
    )  # fmt: skip
    query, now = "Which cities has John been to?", "2024-06-01T00:00:00Z"  # the same recency
    before = await _recall(client, "at2", query, now=now)

    async def no_values(self, ids):  # type: ignore[no-untyped-def]
        raise AssertionError("the values were read apart")

    monkeypatch.setattr(RecallRepository, "values", no_values)
    after = await _recall(client, "at2", query, now=now)
    assert [(m["id"], m["score"], m["scores"]) for m in after["memories"]] == [
        (m["id"], m["score"], m["scores"]) for m in before["memories"]
    ]
    assert any(m["scores"]["answer_type"] == 1.0 for m in after["memories"])


LIFE = ["Jonas got a new job at Siemens, he starts in September 2026.",
        "The user lives in Hamburg with the user's boyfriend Jonas.",
        "The user moved to Munich in October 2026 and now lives there.",
        "The user has a cat named Mimi.",
        "The user's name is Lena.",
        "The user now works as a midwife at a clinic in Munich."]  # fmt: skip


@pytest.mark.parametrize(
    ("user", "question", "answer"),
    [
        ("job-en", "What is my job?", LIFE[-1]),
        ("job-en2", "What do I do for a living?", LIFE[-1]),
        ("job-zh", "我的工作是什么？", "用户是一名助产士，在慕尼黑的诊所工作。"),
    ],
)
async def test_a_job_question_lifts_the_unit_that_names_the_job(client, user, question, answer):
    """A four-session life (tester hbreak7 H14): "What is my job?" ranked the move and the
    home first, the midwife fourth — e5's vectors put "job" nearer "moved to Munich" than
    "works as a midwife". A question about someone's job asks for a unit that fills the
    occupation or employer slot — the user's own when the question says "my" ("Jonas got a
    new job at Siemens" is Jonas's); "What made John quit his job?" asks for none."""
    values = [*LIFE[:-1], answer]
    await store(client, *({"user_id": user, "value": v} for v in values))
    hits = (await _recall(client, user, question))["memories"]
    assert hits[0]["value"] == answer and hits[0]["scores"]["answer_type"] == 1.0, hits
    assert answer_type("What made John quit his job?") is None
