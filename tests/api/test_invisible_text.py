"""Text nobody could read is refused wherever it names or says something (tester hbreak9 K7,
after H21 for values): ids, entities, trigger scenarios, recall questions and messages of only
characters that show as nothing (U+2800 braille blank, U+3164 Hangul filler, zero-width
spaces, U+202E) were accepted. Each is a 422 problem+json that writes nothing; a blank
trigger scenario still clears it, and visible text among such characters is kept."""

from __future__ import annotations

import pytest

from tests.api.test_validation import assert_problem, unit
from tests.conftest import count_rows

BLANKS = ["\u2800", "\u3164\u200b", "\u202e\u2800\ufe0f"]


@pytest.mark.parametrize("blank", BLANKS)
@pytest.mark.parametrize(
    ("fields", "where"),
    [
        ({"user_id": "{}"}, "memories.0.user_id"),
        ({"agent_id": "{}"}, "memories.0.agent_id"),
        ({"entities": ["Anna", "{}"]}, "memories.0.entities.1"),
        ({"query": "{}"}, "memories.0.query"),
    ],
)
async def test_store_refuses_fields_that_show_nothing(client, engine, blank, fields, where):
    given = {k: ([x.format(blank) for x in v] if isinstance(v, list) else v.format(blank))
             for k, v in fields.items()}  # fmt: skip
    r = await client.post("/store", json={"memories": [unit(value="The user likes tea", **given)]})
    # An id names the first invisible character when it has one it refuses anywhere (U+3164,
    # U+202E); one of only U+2800 has no visible text.
    why = "" if where.endswith("_id") and blank != "\u2800" else "no visible text"
    assert_problem(r, 422, "invalid_request", where, why)
    assert await count_rows(engine) == 0


async def test_a_blank_trigger_scenario_is_still_none_and_visible_text_is_kept(client):
    r = await client.post(
        "/store", json={"memories": [unit(value="The user likes tea", query="  ")]}
    )
    assert r.status_code == 200, r.text
    assert r.json()["results"][0]["memory"]["query"] is None
    name = "\u2800Anna\u200b"
    r = await client.post(
        "/store", json={"memories": [unit(value="Anna is the user's sister", entities=[name])]}
    )
    assert r.status_code == 200, r.text


async def test_a_correction_refuses_invisible_entities_and_scenario(client):
    r = await client.post("/store", json={"memories": [unit(value="The user likes green tea")]})
    unit_id = r.json()["results"][0]["memory"]["id"]
    for body, where in (({"entities": ["\u2800"]}, "entities.0"), ({"query": "\u3164"}, "query")):
        r = await client.patch(f"/memories/{unit_id}", json=body)
        assert_problem(r, 422, "invalid_request", where, "no visible text")
    after = (await client.get(f"/memories/{unit_id}")).json()
    assert after["entities"] == [] and after["query"] is None


async def test_recall_refuses_a_question_or_entity_filter_that_shows_nothing(client):
    r = await client.post("/recall", json={"query": "\u2800\u200b", "user_id": "u1"})
    assert_problem(r, 422, "invalid_request", "query", "no visible text")
    r = await client.post("/recall", json={"query": "tea", "user_id": "u1", "entities": ["\u3164"]})
    assert_problem(r, 422, "invalid_request", "entities.0", "no visible text")


async def test_messages_that_show_nothing_are_refused(client, engine):
    message = {"role": "user", "content": "\u2800\u3164", "user_id": "u1"}
    r = await client.post("/working_memory/s-blank/messages", json={"messages": [message]})
    assert_problem(r, 422, "invalid_request", "content", "no visible text")
    r = await client.get("/working_memory/s-blank")
    assert r.status_code == 404 or r.json().get("messages") == [], r.text
    r = await client.post(
        "/extract", json={"user_id": "u1", "messages": [{"role": "user", "content": "\u2800"}]}
    )
    assert_problem(r, 422, "invalid_request", "content", "no visible text")
    assert await count_rows(engine, "extraction_jobs") == 0
