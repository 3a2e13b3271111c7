"""A request to forget is not kept verbatim in the job record (tester hbreak7 H16): "Please
forget my address, it is 12 Elm Street" was shown whole by ``GET /extract/{job}`` (the
dropped entry's sentence), the address it asked to forget with it."""

from __future__ import annotations

import json

import pytest

from tests.services.extraction.extracted import NOW, user


@pytest.mark.parametrize(
    ("said", "secret"),
    [
        ("Please forget my address, it is 12 Elm Street", ("12 Elm", "Elm Street")),
        ("Forget my phone number, it's 555-0134.", ("555-0134",)),
        ("忘掉我的地址吧，是建国路88号。", ("建国路", "88号")),
    ],
)
async def test_the_job_record_keeps_no_words_the_request_asked_to_forget(client, said, secret):
    messages = [user("I work as a nurse at St. Mary's."), user(said)]
    body = {"user_id": "h16", "messages": messages, "now": NOW}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    job = r.json()
    assert job["status"] == "succeeded", job
    r = await client.get(f"/extract/{job['id']}")
    assert r.status_code == 200, r.text
    record = json.dumps(r.json(), ensure_ascii=False)
    for words in secret:
        assert words not in record, (words, r.json())
    dropped = [u for u in r.json()["units"] if u["outcome"] == "dropped"]
    assert dropped and all(u["reason"] for u in dropped), r.json()
    r = await client.get("/memories", params={"user_id": "h16"})
    values = " ".join(m["value"] for m in r.json()["memories"])
    assert "nurse" in values and not any(w in values for w in secret), values
