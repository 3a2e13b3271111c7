from tests.conftest import count_rows


async def test_store_and_recall_round_trip(client, engine):
    r = await client.post(
        "/store",
        json={
            "memories": [
                {
                    "user_id": "u1",
                    "value": "The user is allergic to peanuts",
                    "type": "constraint",
                    "entities": ["peanuts"],
                },
                {"user_id": "u1", "value": "用户住在上海。", "entities": ["上海"]},
            ]
        },
    )
    assert r.status_code == 200, r.text
    body = r.json()
    assert [x["outcome"] for x in body["results"]] == ["created", "created"]
    assert await count_rows(engine) == 2
    r = await client.post(
        "/recall", json={"query": "what food can't the user eat?", "user_id": "u1"}
    )
    assert r.status_code == 200, r.text
    hits = r.json()["memories"]
    assert hits[0]["value"] == "The user is allergic to peanuts"
    r = await client.post("/recall", json={"query": "用户在哪个城市生活", "user_id": "u1"})
    assert r.json()["memories"][0]["value"] == "用户住在上海。"
