"""Offline extraction keeps a conversation recallable: filler dropped (English, Chinese),
informative turns kept as events (speaker named, the question they answer as trigger
scenario, relative dates resolved against the message's own time), long transcripts
extracted in slices, and a fact restated in a later session merged, not added."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta

import httpx
import pytest

from app.clients.tokenizer import create_tokenizer
from app.core.config import ExtractionSettings, LimitsSettings, Settings, WorkerSettings
from tests.conftest import count_rows, running_app

# Wednesday 2026-11-25, 10:00 in Shanghai (the conversation's clock).
NOW = "2026-11-25T02:00:00Z"


async def extract(client: httpx.AsyncClient, messages: list[dict], **extra) -> dict:
    body = {"user_id": "u1", "messages": messages, "now": NOW, **extra}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["status"] == "succeeded", job
    return job


def user(content: str, **extra) -> dict:
    return {"role": "user", "content": content, **extra}


async def memory(client: httpx.AsyncClient, unit: dict) -> dict:
    return (await client.get(f"/memories/{unit['memory_id']}")).json()


@pytest.mark.parametrize(
    ("filler", "informative", "expected"),
    [
        (
            ["Hi!", "Hello there 👋", "Thanks!", "ok", "👍🙂", "How are you?",
             "What about you?", "Sounds great, thanks!", "Bye, take care!"],
            "I fixed the login bug yesterday.",
            "The user fixed the login bug on 2026-11-24 (Tuesday).",
        ),
        (
            ["你好", "谢谢！", "好的", "嗯嗯", "😂😂", "你呢？", "最近怎么样？", "哈哈，太好了"],
            "我昨天修好了登录的bug。",
            "用户2026年11月24日（周二）修好了登录的bug。",
        ),
    ],
)  # fmt: skip
async def test_filler_is_dropped_and_an_informative_turn_kept(
    client, engine, filler, informative, expected
):
    messages = [user(text) for text in filler[:4]] + [user(informative)]
    messages += [user(text) for text in filler[4:]]
    job = await extract(client, messages, timezone="Asia/Shanghai")
    assert [u["value"] for u in job["units"]] == [expected]
    assert await count_rows(engine) == 1
    mem = await memory(client, job["units"][0])
    assert mem["type"] == "event"
    assert mem["raw_ref"] == [f"job:{job['id']}#4"]
    assert mem["occurred_at"].startswith("2026-11-23T16:00:00")  # 24 Nov, midnight Shanghai


async def test_relative_dates_resolve_against_the_message_time(client):
    # The messages were written on Monday 2026-11-16; the job runs nine days later.
    said = "2026-11-16T02:00:00Z"  # 10:00 in Shanghai
    messages = [
        user("I fixed the login bug yesterday.", created_at=said),
        user("The demo for the client is next Friday.", created_at=said),
        user("上周五我交了季度报告。", created_at=said),
        user("明天我要去北京见客户。", created_at=said),
    ]
    job = await extract(client, messages, timezone="Asia/Shanghai")
    values = [u["value"] for u in job["units"]]
    assert values == [
        "The user fixed the login bug on 2026-11-15 (Sunday).",
        "The demo for the client is on 2026-11-27 (Friday).",  # Friday of next week
        "2026年11月13日（周五）用户交了季度报告。",
        "2026年11月17日（周二）用户要去北京见客户。",
    ]
    days = [(await memory(client, u))["occurred_at"][:10] for u in job["units"]]
    # occurred_at is local midnight in Shanghai, i.e. 16:00 UTC the day before.
    assert days == ["2026-11-14", "2026-11-26", "2026-11-12", "2026-11-16"]


async def test_without_a_message_time_dates_resolve_against_the_transcript(client):
    job = await extract(client, [user("I fixed the login bug yesterday.")], timezone="UTC")
    assert job["units"][0]["value"] == "The user fixed the login bug on 2026-11-24 (Tuesday)."


async def test_a_reply_names_its_speaker_and_keeps_the_question_as_trigger(client):
    messages = [
        user("Did you run the marathon last weekend?", name="Alice"),
        user("Yes! It was brutal, my legs still hurt.", name="Bob"),
        user("Wow, that's amazing!", name="Alice"),
    ]
    job = await extract(client, messages)
    [unit] = job["units"]  # the question lives in the reply; the reaction is filler
    mem = await memory(client, unit)
    assert mem["value"] == "The marathon was brutal, Bob's legs still hurt."  # "It": the marathon
    assert (
        mem["query"] == 'Reply to Alice: "Did Bob run the marathon on the weekend of 2026-11-21?"'
    )
    assert mem["entities"] == ["Bob"]
    assert mem["raw_ref"] == [f"job:{job['id']}#0", f"job:{job['id']}#1"]

    r = await client.post("/recall", json={"user_id": "u1", "query": "Did Bob run a marathon?"})
    assert r.json()["memories"][0]["id"] == unit["memory_id"]


async def test_a_working_memory_message_names_its_speaker(client):
    # README: "In a group chat give each message the speaker's `name`": a working-memory
    # append took no `name` (422 unknown field), only /extract did.
    said = "2023-05-08T13:56:00Z"  # Monday
    r = await client.post(
        "/working_memory/group-1/messages",
        json={
            "messages": [
                user("Hey Mel! I went to a support group yesterday.", name="Caroline",
                     user_id="u1", created_at=said),
                user("Wow, that's amazing!", name="Melanie", created_at=said),
            ]
        },
    )  # fmt: skip
    assert r.status_code == 200, r.text
    window = (await client.get("/working_memory/group-1")).json()
    assert [m["metadata"] for m in window["messages"]] == [
        {"name": "Caroline"},
        {"name": "Melanie"},
    ]
    r = await client.post("/extract?wait=true", json={"user_id": "u1", "session_id": "group-1"})
    assert r.status_code == 200, r.text
    [unit] = r.json()["units"]
    assert unit["value"] == "Caroline went to a support group on 2023-05-07 (Sunday)."


async def test_an_elliptical_statement_is_not_an_instruction_to_the_assistant(client):
    # LoCoMo replay: "Never had a chance to visit it." became the constraint "Gina asked the
    # assistant never to had a chance to visit it.", "Always here to help." one "to always
    # here to help": the subject (I, I'm) left out, not an imperative.
    job = await extract(
        client,
        [
            user("Paris?! That is really great Jon! Never had a chance to visit it.", name="Gina"),
            user("No prob! Always here to help.", name="Gina"),
            user("Never book me on a flight before 8 am."),
            user("Always answer in French."),
        ],
    )
    values = [u["value"] for u in job["units"] if u["type"] == "constraint"]
    assert values == [
        "The user asked the assistant never to book them on a flight before 8 am.",
        "The user asked the assistant to always answer in French.",
    ]


async def test_a_like_without_a_liked_thing_is_no_preference(client):
    # LoCoMo replay: "I love it." became "Melanie loves to.", "doing something I love is
    # awesome" became "Gina loves is awesome.".
    job = await extract(
        client,
        [
            user("I love it. Showing off our true selves is the best thing ever.", name="Mel"),
            user("Being my own boss and doing something I love is awesome!", name="Gina"),
            user("I love to paint landscapes.", name="Mel"),
            user("I love it when you cook for me.", name="Gina"),
        ],
    )
    values = [u["value"] for u in job["units"] if u["type"] == "preference"]
    assert values == ["Mel loves to paint landscapes.", "Gina loves it when you cook for them."]


async def test_restating_a_fact_in_a_later_session_merges_it(client, engine):
    first = await extract(
        client,
        [user("Hi! I'm allergic to peanuts.", created_at="2026-11-20T09:00:00Z")],
        session_id="s1",
    )
    later = await extract(
        client,
        [user("Just so you know, I'm allergic to peanuts.", created_at="2026-11-25T09:00:00Z")],
        session_id="s2",
    )
    [created] = first["units"]
    [again] = later["units"]
    assert created["outcome"] == "created" and again["outcome"] == "merged"
    assert again["memory_id"] == created["memory_id"]
    assert await count_rows(engine) == 1
    mem = await memory(client, created)
    assert mem["type"] == "constraint" and mem["value"] == "The user is allergic to peanuts."


# ---- a 200k-token transcript ---------------------------------------------------------------

TOTAL_TOKENS = 200_000


@pytest.fixture(scope="module")
async def big_client(database_url: str) -> AsyncIterator[httpx.AsyncClient]:
    """The app with a request body limit and a transcript limit (LIMITS__EXTRACT_CHARS)
    that fit a 200k-token transcript (~1 MB)."""
    settings = Settings(
        database_url=database_url,
        redis_url=None,
        max_body_bytes=4 * 1024 * 1024,
        limits=LimitsSettings(extract_chars=2_000_000),
        extraction=ExtractionSettings(window_tokens=6000),
        worker=WorkerSettings(in_process=False),
    )
    async with running_app(settings) as (_, c):
        yield c


def long_transcript() -> list[dict]:
    """~200k tokens: a user who says where they live, ~400 long tool reports by the
    assistant, and the passport's expiry in the very last message."""
    start = datetime(2026, 11, 1, 8, 0, tzinfo=UTC)
    report = " ".join(f"row {i} status nominal checksum {i * 7919 % 100_003}" for i in range(60))
    messages = [user("I live in Lisbon.", created_at=start.isoformat())]
    tokens, i = 0, 0
    tokenizer = create_tokenizer("o200k_base")
    per_report = tokenizer.count(report)
    while tokens + per_report < TOTAL_TOKENS:
        at = (start + timedelta(minutes=i)).isoformat()
        messages.append({"role": "assistant", "content": f"Report {i}: {report}", "created_at": at})
        tokens += per_report
        i += 1
    last = (start + timedelta(minutes=i + 1)).isoformat()
    messages.append(user("By the way, my passport expires on 14 March 2027.", created_at=last))
    assert tokenizer.count(" ".join(m["content"] for m in messages)) >= TOTAL_TOKENS * 0.95
    return messages


async def test_a_200k_token_transcript_is_extracted_to_its_last_slice(big_client, engine):
    messages = long_transcript()
    assert len(messages) <= 500  # one request (LIMITS__EXTRACT_MESSAGES)
    r = await big_client.post(
        "/extract?wait=true", json={"user_id": "traveller", "messages": messages}
    )
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["status"] == "succeeded" and job["transcript_messages"] == len(messages)
    values = [u["value"] for u in job["units"]]
    assert "The user lives in Lisbon." in values  # the first slice
    passport = next(u for u in job["units"] if "passport" in u["value"])  # the last one
    assert "2027" in passport["value"]

    r = await big_client.post(
        "/recall", json={"user_id": "traveller", "query": "When does my passport expire?"}
    )
    assert r.json()["memories"][0]["id"] == passport["memory_id"]


@pytest.mark.parametrize(
    ("said", "value"),
    [
        # Tester F12: English inside a Chinese message kept its "I".
        ("我下周要去上海出差，I am so excited。",
         "用户2026年11月30日那一周要去上海出差，The user is so excited。"),
        ("I think 我应该多运动。", "The user thinks 用户应该多运动。"),
        ("我用的是 iPhone，my phone is brand new。",
         "用户用的是 iPhone，the user's phone is brand new。"),
    ],
)  # fmt: skip
async def test_english_inside_a_chinese_message_is_in_the_third_person(client, said, value):
    job = await extract(client, [user(said)], timezone="Asia/Shanghai")
    assert [u["value"] for u in job["units"]] == [value]


@pytest.mark.parametrize(
    ("said", "entities"),
    [
        # Tester F16: a liked object's time or place made the whole phrase an entity.
        ("I love Hamburg in May.", ["Hamburg"]),
        ("我喜欢五月的汉堡。", ["汉堡"]),
        ("I like hiking in the Alps in summer.", ["Alps"]),
        ("I prefer window seats on long flights.", ["window seats"]),
        ("I love it when you cook pasta.", []),
    ],
)
async def test_a_liked_thing_is_the_entity_not_its_phrase(client, said, entities):
    job = await extract(client, [user(said)])
    [unit] = job["units"]
    assert (await memory(client, unit))["entities"] == entities
