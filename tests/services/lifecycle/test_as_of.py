"""Valid time and "as of" reads: a superseded unit is true until its successor became true
(``valid_to``: the successor's ``occurred_at``, or when it was stored if that is earlier);
``/recall`` and ``GET /memories`` with ``as_of`` return the units true at that moment;
``as_of`` without an offset is a 422 that changes nothing."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from app.core.config import ConflictSettings
from app.services.memory.resolution import fit_backfill, resolve
from tests.api.test_validation import assert_problem
from tests.conftest import count_rows
from tests.services.memory.test_conflicts import T0, store, unit


def test_resolve_sets_valid_to_to_the_successors_time():
    old = unit("The user lives in Shanghai.", T0)
    new = unit("The user lives in Beijing.", T0 + timedelta(days=30))
    assert resolve(new, old, ConflictSettings(), T0, "slot") == "superseded"
    assert old.valid_to == new.occurred_at and new.valid_to is None


def test_a_backfilled_older_statement_ends_where_the_newer_begins():
    old = unit("The user lives in Beijing.", T0)
    new = unit("The user lived in Shanghai.", T0 - timedelta(days=60))
    assert resolve(new, old, ConflictSettings(), T0, "slot") == "superseded"
    assert new.valid_to == old.occurred_at


async def _moved(client) -> tuple[dict, dict]:
    first = await store(client, "The user lives in Shanghai.", "2025-01-10T00:00:00Z",
                        entities=["Shanghai"])  # fmt: skip
    second = await store(client, "The user moved to Beijing and now lives there.",
                         "2025-06-01T00:00:00Z", entities=["Beijing"])  # fmt: skip
    assert second["outcome"] == "superseded"
    return first, second


async def test_recall_as_of_returns_the_old_value_and_not_the_new(client):
    first, second = await _moved(client)
    old = (await client.get(f"/memories/{first['id']}")).json()
    assert old["valid_from"] == old["occurred_at"]
    assert datetime.fromisoformat(old["valid_to"]) == datetime(2025, 6, 1, tzinfo=UTC)
    query = {"query": "where does the user live?", "user_id": "u1", "top_k": 5}

    march = await client.post("/recall", json={**query, "as_of": "2025-03-15T12:00:00+08:00"})
    assert march.status_code == 200, march.text
    assert [h["id"] for h in march.json()["memories"]] == [first["id"]]

    july = (await client.post("/recall", json={**query, "as_of": "2025-07-01T00:00:00Z"})).json()
    assert [h["id"] for h in july["memories"]] == [second["id"]]
    # before anything was true: nothing
    early = (await client.post("/recall", json={**query, "as_of": "2024-12-31T00:00:00Z"})).json()
    assert early["memories"] == []
    # the switch itself: the successor holds from its occurred_at on
    at = (await client.post("/recall", json={**query, "as_of": "2025-06-01T00:00:00Z"})).json()
    assert [h["id"] for h in at["memories"]] == [second["id"]]


async def test_list_as_of(client):
    first, second = await _moved(client)
    page = await client.get("/memories", params={"user_id": "u1", "as_of": "2025-03-15T00:00:00Z"})
    assert page.status_code == 200, page.text
    assert [m["id"] for m in page.json()["memories"]] == [first["id"]]
    page = await client.get("/memories", params={"user_id": "u1", "as_of": "2025-08-01T00:00:00Z"})
    assert [m["id"] for m in page.json()["memories"]] == [second["id"]]


async def test_as_of_without_an_offset_is_a_422_that_changes_nothing(client, engine):
    await _moved(client)
    before = await count_rows(engine)
    for bad in ("2025-03-15T00:00:00", "March 2025", "2025-13-01T00:00:00Z"):
        r = await client.post("/recall", json={"query": "where?", "user_id": "u1", "as_of": bad})
        assert_problem(r, 422, "invalid_request", "as_of")
        r = await client.get("/memories", params={"user_id": "u1", "as_of": bad})
        assert_problem(r, 422, "invalid_request", "as_of")
    assert await count_rows(engine) == before


def test_a_backfill_takes_its_place_in_the_chain_by_event_time():
    # Tester F8: Shanghai (Jan) superseded by Beijing (Jun); Hangzhou (Mar) arrives last.
    shanghai = unit("The user lives in Shanghai.", T0)
    beijing = unit("The user lives in Beijing.", T0 + timedelta(days=150))
    assert resolve(beijing, shanghai, ConflictSettings(), T0, "slot") == "superseded"
    hangzhou = unit("The user lived in Hangzhou.", T0 + timedelta(days=60))
    assert resolve(hangzhou, beijing, ConflictSettings(), T0, "slot") == "superseded"
    fit_backfill(hangzhou, beijing, [shanghai])
    assert shanghai.valid_to == hangzhou.occurred_at
    assert hangzhou.valid_to == beijing.occurred_at
    # older than the whole chain: true until its first version, which keeps its end
    wuhan = unit("The user lived in Wuhan.", T0 - timedelta(days=60))
    assert resolve(wuhan, beijing, ConflictSettings(), T0, "slot") == "superseded"
    fit_backfill(wuhan, beijing, [shanghai, hangzhou])
    assert wuhan.valid_to == shanghai.occurred_at
    assert shanghai.valid_to == hangzhou.occurred_at


async def test_as_of_holds_one_version_of_a_chain_with_late_older_values(client):
    first = await store(client, "The user lives in Shanghai.", "2025-01-10T00:00:00Z",
                        entities=["Shanghai"])  # fmt: skip
    second = await store(client, "The user lives in Beijing.", "2025-06-01T00:00:00Z",
                         entities=["Beijing"])  # fmt: skip
    assert second["outcome"] == "superseded", second
    late = await store(client, "The user lives in Hangzhou.", "2025-03-01T00:00:00Z",
                       entities=["Hangzhou"])  # fmt: skip
    assert late["outcome"] == "superseded", late
    oldest = await store(client, "The user lives in Wuhan.", "2024-10-01T00:00:00Z",
                         entities=["Wuhan"])  # fmt: skip
    assert oldest["outcome"] == "superseded", oldest
    query = {"query": "where does the user live?", "user_id": "u1", "top_k": 10}
    expected = {
        "2024-09-01T00:00:00Z": [],
        "2024-11-15T00:00:00Z": [oldest["id"]],
        "2025-01-10T00:00:00Z": [first["id"]],
        "2025-02-01T00:00:00Z": [first["id"]],
        "2025-03-01T00:00:00Z": [late["id"]],
        "2025-04-15T00:00:00Z": [late["id"]],
        "2025-06-01T00:00:00Z": [second["id"]],
        "2025-09-01T00:00:00Z": [second["id"]],
    }
    for at, ids in expected.items():
        r = await client.post("/recall", json={**query, "as_of": at})
        assert r.status_code == 200, r.text
        assert [h["id"] for h in r.json()["memories"]] == ids, at
        page = await client.get("/memories", params={"user_id": "u1", "as_of": at})
        assert [m["id"] for m in page.json()["memories"]] == ids, at


async def test_a_unit_about_a_date_to_come_is_true_from_when_it_was_stored(client):
    # Tester B1: "the passport expires on 2027-03-14" stated today is known today; as_of = now
    # used to drop it (valid_from was the date it names).
    soon = (datetime.now(UTC) + timedelta(days=100)).isoformat()
    plan = await store(client, "The user's passport expires in the spring.", soon,
                       entities=["passport"])  # fmt: skip
    unit = (await client.get(f"/memories/{plan['id']}")).json()
    assert datetime.fromisoformat(unit["valid_from"]) == datetime.fromisoformat(unit["created_at"])
    assert datetime.fromisoformat(unit["valid_from"]) < datetime.fromisoformat(unit["occurred_at"])
    query = {"query": "when does the passport expire?", "user_id": "u1", "top_k": 5}
    now = (datetime.now(UTC) + timedelta(minutes=1)).isoformat()
    hits = (await client.post("/recall", json={**query, "as_of": now})).json()["memories"]
    assert [h["id"] for h in hits] == [plan["id"]]
    page = await client.get("/memories", params={"user_id": "u1", "as_of": now})
    assert [m["id"] for m in page.json()["memories"]] == [plan["id"]]
    # before it was stated, nothing was known
    before = (datetime.now(UTC) - timedelta(days=1)).isoformat()
    assert (await client.post("/recall", json={**query, "as_of": before})).json()["memories"] == []


def test_a_successor_about_a_date_to_come_ends_the_old_value_when_it_was_stated():
    # "The flight moved to Friday", said on Monday about Thursday's flight: the Thursday value
    # ends on Monday (when the successor became true), not on Friday, so that as_of Wednesday
    # shows one version.
    monday = T0
    old = unit("The user's flight leaves on Thursday.", monday + timedelta(days=3))
    old.created_at = monday - timedelta(days=1)
    new = unit("The user's flight moved to Friday.", monday + timedelta(days=4))
    new.created_at = monday
    assert resolve(new, old, ConflictSettings(), monday, "slot") == "superseded"
    assert old.valid_to == monday


async def test_as_of_shows_one_version_when_the_successor_names_a_date_to_come(client):
    now = datetime.now(UTC)
    first = await store(client, "The user lives in Shanghai.",
                        (now - timedelta(days=10)).isoformat(), entities=["Shanghai"])  # fmt: skip
    second = await store(client, "The user moved to Beijing and now lives there.",
                         (now + timedelta(days=30)).isoformat(), entities=["Beijing"])  # fmt: skip
    assert second["outcome"] == "superseded"
    old = (await client.get(f"/memories/{first['id']}")).json()
    new = (await client.get(f"/memories/{second['id']}")).json()
    assert old["valid_to"] == new["valid_from"] == new["created_at"]
    query = {"query": "where does the user live?", "user_id": "u1", "top_k": 5}
    soon = (now + timedelta(days=1)).isoformat()
    hits = (await client.post("/recall", json={**query, "as_of": soon})).json()["memories"]
    assert [h["id"] for h in hits] == [second["id"]]
    before = (now - timedelta(days=1)).isoformat()
    hits = (await client.post("/recall", json={**query, "as_of": before})).json()["memories"]
    assert [h["id"] for h in hits] == [first["id"]]


async def test_a_superseded_value_is_history_a_patch_cannot_rewrite(client):
    """Tester hbreak5 F29: PATCH {"value": …} of a superseded unit answered 200 and the
    history (`as_of`, `include_superseded`, /history) then said the user lived somewhere they
    never did; its status change was already a 409."""
    first, second = await _moved(client)
    r = await client.patch(f"/memories/{first['id']}", json={"value": "The user lives in Xi'an."})
    assert r.status_code == 409, r.text
    assert second["id"] in r.json()["detail"] and "history" in r.json()["detail"]
    old = (await client.get(f"/memories/{first['id']}")).json()
    assert old["value"] == "The user lives in Shanghai." and old["status"] == "superseded"
    r = await client.patch(f"/memories/{first['id']}", json={"confidence": 0.5})
    assert r.status_code == 200, r.text  # what the value says is left as it was
