"""An extraction's ``now`` (the conversation's clock: what "tomorrow" resolves against) is
bounded as a message's ``created_at`` is: from 1900-01-01 to at most 5 minutes ahead of the
server's clock. ``"now": "8999-06-01T00:00:00Z"`` dated the units of a job in year 8999 (they
would never expire); now it is a 422 problem+json that queues nothing, on ``POST /extract``
and on a session's close alike."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import count_rows

MESSAGES = [{"role": "user", "content": "I will visit Kyoto tomorrow."}]
SOON = (datetime.now(UTC) + timedelta(days=2)).isoformat().replace("+00:00", "Z")
FAR = ["8999-06-01T00:00:00Z", "2999-01-01T00:00:00+08:00", pytest.param(SOON, id="in-2-days"),
       "1899-12-31T23:00:00Z", "1200-03-01T00:00:00Z"]  # fmt: skip


def _assert_out_of_range(r) -> None:
    assert r.status_code == 422, r.text
    assert r.headers["content-type"].startswith("application/problem+json")
    problem = r.json()
    assert problem["code"] == "invalid_request"
    assert problem["detail"].startswith("now: now is out of range"), problem
    assert "1900-01-01T00:00:00Z" in problem["detail"] and "5 minutes" in problem["detail"]
    assert problem["errors"][0]["loc"] == ["body", "now"]
    assert problem["errors"][0]["type"] == "now_out_of_range"


@pytest.mark.parametrize("now", FAR)
async def test_extract_refuses_a_now_out_of_range(client, engine, now):
    body = {"user_id": "u-now", "messages": MESSAGES, "now": now}
    _assert_out_of_range(await client.post("/extract?wait=true", json=body))
    _assert_out_of_range(await client.post("/extract", json=body))
    assert await count_rows(engine, "extraction_jobs") == 0
    assert await count_rows(engine) == 0


@pytest.mark.parametrize("now", [FAR[0], FAR[1], FAR[3]])
async def test_close_refuses_a_now_out_of_range(client, engine, now):
    r = await client.post(
        "/working_memory/s-now/messages",
        json={"messages": [{**MESSAGES[0], "user_id": "u-now"}]},
    )
    assert r.status_code == 200, r.text
    r = await client.post("/working_memory/s-now/close", json={"now": now})
    _assert_out_of_range(r)
    assert await count_rows(engine, "extraction_jobs") == 0


@pytest.mark.parametrize("now", ["1900-01-01T00:00:00Z", "2023-05-08T13:56:00Z", None])
async def test_a_now_in_range_is_taken(client, now):
    body = {"user_id": "u-now", "messages": MESSAGES, **({"now": now} if now else {})}
    r = await client.post("/extract?wait=true", json=body)
    assert r.status_code == 200, r.text
    assert r.json()["status"] == "succeeded"
