"""A message's ``created_at`` may lie at most five minutes ahead of the server's clock
(tester finding C21e): "2099-01-01T10:00:00Z" was taken, and "I will visit Kyoto tomorrow"
became a unit dated 2099-01-02 that expires in 2099. Now a 422 that names the field and the
server's time, and nothing is written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.api.test_validation import assert_problem
from tests.conftest import count_rows

FUTURE = "2099-01-01T10:00:00Z"


def _said(at: str | None, text: str = "I will visit Kyoto tomorrow.") -> dict[str, object]:
    message: dict[str, object] = {"role": "user", "content": text}
    return message if at is None else {**message, "created_at": at}


async def test_an_append_refuses_a_message_said_in_the_future(client, engine):
    soon = (datetime.now(UTC) + timedelta(minutes=2)).isoformat()
    r = await client.post(
        "/working_memory/clock-1/messages",
        json={"messages": [_said(soon), _said(FUTURE)]},
        params={"user_id": "clock"},
    )
    body = assert_problem(
        r, 422, "invalid_request",
        "messages.1.created_at: created_at is in the future (2099-01-01T10:00:00Z; the "
        "server's time is 20",
    )  # fmt: skip
    assert body["errors"][0]["type"] == "created_at_future"
    assert body["errors"][0]["loc"] == ["body", "messages", "1", "created_at"]
    moment = body["detail"].split("the server's time is ")[1].split(",")[0]
    assert abs(datetime.fromisoformat(moment) - datetime.now(UTC)) < timedelta(minutes=1)
    assert await count_rows(engine, "transcript_messages") == 0
    # A clock a little ahead (two minutes) is taken.
    r = await client.post("/working_memory/clock-1/messages", json={"messages": [_said(soon)]})
    assert r.status_code == 200, r.text


async def test_extract_refuses_a_message_said_in_the_future(client, engine):
    body = {"user_id": "clock", "messages": [_said(None, "Hi."), _said(FUTURE)]}
    r = await client.post("/extract", params={"wait": "true"}, json=body)
    assert_problem(r, 422, "invalid_request", "messages.1.created_at: created_at is in the future")
    assert await count_rows(engine, "extraction_jobs") == 0
    assert await count_rows(engine) == 0
