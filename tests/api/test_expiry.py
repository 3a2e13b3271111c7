"""One rule for an expiry sent with a write (tester finding T21): an ``expires_at`` that is not
after the request's arrival is a 422 "expires_at is in the past", at ``POST /store`` (it used
to be stored, already expired, and never recalled) and at ``PATCH /memories/{id}`` (it used to
be a 409 "the unit has expired", about a unit that had not); nothing is written."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.api.test_validation import assert_problem
from tests.conftest import count_rows

PAST = "2020-01-01T00:00:00Z"


def _unit(**fields: object) -> dict[str, object]:
    return {"user_id": "ttl", "value": "The user's gym pass is valid until spring.", **fields}


async def test_store_refuses_a_past_expiry_and_writes_nothing(client, engine):
    batch = [_unit(value="The user likes tea."), _unit(expires_at="2020-01-01T08:00:00+08:00")]
    r = await client.post("/store", json={"memories": batch})
    body = assert_problem(
        r,
        422,
        "invalid_request",
        "memories.1.expires_at: expires_at is in the past (2020-01-01T00:00:00Z; now is 20",
    )  # noqa: E501
    assert body["errors"] == [
        {"loc": ["body", "memories", "1", "expires_at"], "msg": body["errors"][0]["msg"],
         "type": "expires_at_past"}
    ]  # fmt: skip
    assert await count_rows(engine) == 0


async def test_store_accepts_a_future_expiry(client):
    soon = (datetime.now(UTC) + timedelta(minutes=5)).isoformat()
    r = await client.post("/store", json={"memories": [_unit(expires_at=soon)]})
    assert r.status_code == 200, r.text
    r = await client.post("/recall", json={"query": "gym pass", "user_id": "ttl"})
    assert len(r.json()["memories"]) == 1


async def test_patch_refuses_a_past_expiry_with_the_same_422(client):
    r = await client.post("/store", json={"memories": [_unit()]})
    unit = r.json()["results"][0]["memory"]
    r = await client.patch(f"/memories/{unit['id']}", json={"expires_at": PAST, "value": "x y"})
    assert_problem(r, 422, "invalid_request", "expires_at: expires_at is in the past")
    got = (await client.get(f"/memories/{unit['id']}")).json()
    assert (got["value"], got["expires_at"], got["status"]) == (
        unit["value"],
        unit["expires_at"],
        "active",
    )
    # An unknown id with a past expiry: the same 422 (the request is wrong whatever the id).
    r = await client.patch(
        "/memories/00000000-0000-7000-8000-000000000000", json={"expires_at": PAST}
    )
    assert_problem(r, 422, "invalid_request", "expires_at is in the past")


async def test_times_come_back_in_utc_whatever_offset_they_were_sent_with(client):
    """Tester finding T15: `/store` echoed "2026-03-14T09:00:00+08:00" while every other
    answer says Z."""
    sent = _unit(occurred_at="2026-03-14T09:00:00+08:00", expires_at="2099-01-01T08:00:00+08:00")
    r = await client.post("/store", json={"memories": [sent]})
    memory = r.json()["results"][0]["memory"]
    assert memory["occurred_at"] == memory["valid_from"] == "2026-03-14T01:00:00Z"
    assert memory["expires_at"] == "2099-01-01T00:00:00Z"
    assert (await client.get(f"/memories/{memory['id']}")).json()["occurred_at"] == (
        "2026-03-14T01:00:00Z"
    )


async def test_a_number_is_no_time(client, engine):
    """Tester finding T15: numbers (and strings of digits) were read as seconds or
    milliseconds since 1970 by their size; the README promises times are never guessed."""
    for when in [1700000000, 1700000000000, 1.5, "1700000000"]:
        r = await client.post("/store", json={"memories": [_unit(occurred_at=when)]})
        assert_problem(r, 422, "invalid_request", "memories.0.occurred_at: must be an ISO 8601")
    r = await client.post("/recall", json={"query": "q", "user_id": "u", "as_of": 1700000000})
    assert_problem(r, 422, "invalid_request", "as_of: must be an ISO 8601")
    r = await client.post("/recall", json={"query": "q", "user_id": "u", "as_of": "2026-03-14"})
    assert_problem(r, 422, "invalid_request", "as_of: must give its UTC offset")
    assert await count_rows(engine) == 0


async def test_an_unencoded_plus_in_a_query_time_says_to_encode_it(client):
    r = await client.get("/memories?user_id=u&as_of=2025-06-01T00:00:00+02:00")
    assert_problem(r, 422, "invalid_request", "query.as_of:", "encoded as %2B")
    r = await client.get("/memories", params={"user_id": "u", "as_of": "2025-06-01T00:00:00+02:00"})
    assert r.status_code == 200, r.text


async def test_an_unknown_time_zone_is_reported_at_its_field(client):
    r = await client.post(
        "/recall", json={"query": "q", "user_id": "u", "timezone": "Mars/Olympus"}
    )
    body = assert_problem(r, 422, "invalid_request", "timezone: unknown IANA time zone")
    assert body["errors"][0]["loc"] == ["body", "timezone"]


async def test_a_restatement_with_a_later_expiry_extends_the_unit_it_merges_into(client):
    # Tester C4: the same fact stored again with ttl_days 3650 (an agent pinning it) merged
    # and kept the event's 30-day expiry; the asked expiry was dropped without a word.
    fact = {"user_id": "kim", "type": "event", "value": "Kim starts a new job at Acme"}
    first = (await client.post("/store", json={"memories": [fact]})).json()["results"][0]
    default = datetime.fromisoformat(first["memory"]["expires_at"])
    assert default < datetime.now(UTC) + timedelta(days=31)

    pinned = {**fact, "value": "Kim starts a new job at Acme.", "ttl_days": 3650}
    again = (await client.post("/store", json={"memories": [pinned]})).json()["results"][0]
    assert (again["outcome"], again["id"]) == ("merged", first["id"])
    ten_years = datetime.fromisoformat(again["memory"]["expires_at"])
    assert ten_years > datetime.now(UTC) + timedelta(days=3649)
    unit = (await client.get(f"/memories/{first['id']}")).json()
    assert unit["expires_at"] == again["memory"]["expires_at"]

    until = "2040-01-01T00:00:00Z"
    later = {**fact, "value": "Kim starts a new job at Acme!", "expires_at": until}
    third = (await client.post("/store", json={"memories": [later]})).json()["results"][0]
    assert third["outcome"] == "merged"
    assert datetime.fromisoformat(third["memory"]["expires_at"]) == datetime(2040, 1, 1, tzinfo=UTC)
    # A shorter expiry never shortens it (PATCH does that).
    short = {**fact, "ttl_days": 1}
    fourth = (await client.post("/store", json={"memories": [short]})).json()["results"][0]
    assert fourth["outcome"] == "merged"
    assert fourth["memory"]["expires_at"] == third["memory"]["expires_at"]


async def test_a_ttl_under_one_minute_is_refused_like_a_past_expiry(client, engine):
    """Tester finding C21d: `ttl_days: 1e-300` wrote a unit whose expires_at was its
    created_at (already expired, never recalled), the case a past expires_at is refused for."""
    short = "ttl_days is under one minute (1e-300 days; the least is 1/1440 ≈ 0.000695)"
    r = await client.post("/store", json={"memories": [_unit(), _unit(ttl_days=1e-300)]})
    body = assert_problem(r, 422, "invalid_request", f"memories.1.ttl_days: {short}")
    assert "a unit written already expired would never be recalled" in body["detail"]
    assert await count_rows(engine) == 0
    # One minute (the rounded figure the message gives) is the least that is taken.
    r = await client.post("/store", json={"memories": [_unit(ttl_days=0.000695)]})
    memory = r.json()["results"][0]["memory"]
    created, expires = (datetime.fromisoformat(memory[k]) for k in ("created_at", "expires_at"))
    assert timedelta(seconds=60) <= expires - created < timedelta(seconds=61)
    r = await client.patch(f"/memories/{memory['id']}", json={"ttl_days": 1e-9})
    assert_problem(r, 422, "invalid_request", "ttl_days: ttl_days is under one minute (1e-09")
    got = (await client.get(f"/memories/{memory['id']}")).json()
    assert got["expires_at"] == memory["expires_at"]
