"""Query strings are strict on every route (tester finding T12): a parameter the route does
not declare is a 422 ``query.<name>: unknown field`` that changes nothing — on routes with a
path id and on POSTs too, where it used to be dropped without a word. And ``?user_id=`` on
the routes that name a unit or a working-memory session is a scope: another user's unit or
session is a 404, and nothing changes."""

from __future__ import annotations

import re
import uuid

import httpx
import pytest

from app.core.config import Settings
from app.main import create_app
from tests.api.test_validation import assert_problem
from tests.conftest import count_rows


def _routes(settings: Settings) -> list[tuple[str, str]]:
    """(method, path) of every operation of the OpenAPI document, path parameters filled
    with valid values."""
    out = []
    for path, operations in create_app(settings).openapi()["paths"].items():
        path = re.sub(r"\{[a-z_]*id\}", str(uuid.uuid4()), path)
        path = re.sub(r"\{[a-z_]+\}", "x1", path)
        out.extend((method.upper(), path) for method in operations)
    return out


async def test_every_route_refuses_an_unknown_query_parameter(client, engine, settings):
    routes = _routes(settings)
    assert len(routes) > 25
    assert ("PATCH", "/memories/{memory_id}") not in routes  # the paths were filled
    assert {"POST", "PATCH", "DELETE"} <= {method for method, _ in routes}
    for method, path in routes:
        r = await client.request(method, path, params={"bogus": "1"})
        body = assert_problem(r, 422, "invalid_request", "query.bogus: unknown field")
        assert body["errors"][0]["loc"] == ["query", "bogus"], (method, path)
    assert await count_rows(engine) == 0


async def test_every_unknown_parameter_is_named_and_known_ones_still_work(client):
    r = await client.get("/memories", params={"user_id": "u1", "colour": "x", "size": "y"})
    body = assert_problem(r, 422, "invalid_request", "query.colour: unknown field")
    assert [e["loc"] for e in body["errors"]] == [["query", "colour"], ["query", "size"]]
    r = await client.get("/memories", params={"user_id": "u1", "limit": "5", "types": "fact"})
    assert r.status_code == 200, r.text
    r = await client.post("/extract", params={"wait": "nope"}, json={})
    assert_problem(r, 422, "invalid_request", "query.wait")  # declared: validated, not unknown


async def _store(client: httpx.AsyncClient, user: str, value: str) -> str:
    r = await client.post("/store", json={"memories": [{"user_id": user, "value": value}]})
    assert r.status_code == 200, r.text
    return str(r.json()["results"][0]["id"])


async def test_a_post_with_an_unknown_parameter_writes_nothing(client, engine):
    r = await client.post(
        "/store",
        params={"user_id": "zz"},
        json={"memories": [{"user_id": "alice", "value": "Alice likes tea."}]},
    )
    assert_problem(r, 422, "invalid_request", "query.user_id: unknown field")
    assert await count_rows(engine) == 0


async def test_user_id_scopes_the_operations_on_a_unit(client, engine):
    alice = await _store(client, "alice", "Alice keeps a red flowerpot on the balcony.")
    for method, path, kwargs in [
        ("GET", f"/memories/{alice}", {}),
        ("GET", f"/memories/{alice}/history", {}),
        ("PATCH", f"/memories/{alice}", {"json": {"value": "Alice keeps a blue flowerpot."}}),
        ("DELETE", f"/memories/{alice}", {}),
    ]:
        r = await client.request(method, path, params={"user_id": "bob"}, **kwargs)
        assert_problem(r, 404, "not_found", f"no memory unit {alice}")
    unit = (await client.get(f"/memories/{alice}")).json()
    assert unit["value"] == "Alice keeps a red flowerpot on the balcony."
    assert unit["status"] == "active"

    r = await client.get(f"/memories/{alice}/history", params={"user_id": "alice"})
    assert [m["id"] for m in r.json()["memories"]] == [alice]
    r = await client.patch(
        f"/memories/{alice}", params={"user_id": "alice"}, json={"confidence": 0.5}
    )
    assert r.status_code == 200, r.text
    assert r.json()["memory"]["confidence"] == 0.5
    r = await client.delete(f"/memories/{alice}", params={"user_id": "alice"})
    assert r.status_code == 200, r.text
    assert await count_rows(engine) == 0


async def test_store_and_extract_of_messages_refuse_another_users_session(client, engine):
    """Tester B21: `/store` of a unit and `/extract` of inline `messages` naming bob's session
    as mallory's were accepted, so a recall of the session served mallory's units among
    bob's. Now the 404 the working-memory routes give, and nothing is written."""
    assert (await _append(client, "trip-7", "bob")).status_code == 200
    missing = "no working-memory session 'trip-7' of user_id 'mallory'"
    r = await client.post(
        "/store",
        json={"memories": [
            {"user_id": "mallory", "value": "Mallory likes tea."},
            {"user_id": "mallory", "session_id": "trip-7", "value": "Mallory needs a middle seat."},
        ]},
    )  # fmt: skip
    assert_problem(r, 404, "not_found", missing)
    assert "bob" not in r.text
    for body in (
        {"user_id": "mallory", "session_id": "trip-7",
         "messages": [{"role": "user", "content": "I am allergic to sunlight."}]},
        {"user_id": "mallory", "session_id": "trip-7", "mode": "sync",
         "messages": [{"role": "user", "content": "I am allergic to sunlight."}]},
    ):  # fmt: skip
        assert_problem(await client.post("/extract", json=body), 404, "not_found", missing)
    assert await count_rows(engine) == 0
    assert await count_rows(engine, "extraction_jobs") == 0
    # The owner, another session, a session never appended to, or none: written.
    r = await client.post(
        "/store",
        json={"memories": [
            {"user_id": "bob", "session_id": "trip-7", "value": "Bob prefers a window seat."},
            {"user_id": "mallory", "session_id": "trip-8", "value": "Mallory likes tea."},
            {"user_id": "mallory", "value": "Mallory owns a bike."},
        ]},
    )  # fmt: skip
    assert r.status_code == 200, r.text
    r = await client.post(
        "/extract",
        json={"user_id": "bob", "session_id": "trip-7",
              "messages": [{"role": "user", "content": "I am vegetarian."}]},
    )  # fmt: skip
    assert r.status_code == 202, r.text
    r = await client.post("/recall", json={"query": "seat", "session_id": "trip-7", "top_k": 10})
    assert {m["user_id"] for m in r.json()["memories"]} == {"bob"}


async def _append(client: httpx.AsyncClient, session: str, user: str | None, **params: str):
    message = {"role": "user", "content": "I need a flight to Tokyo next Friday."}
    if user:
        message["user_id"] = user
    return await client.post(
        f"/working_memory/{session}/messages", params=params, json={"messages": [message]}
    )


async def test_user_id_scopes_the_operations_on_a_session(client, engine):
    # Another user's session answers as another user's unit does: a 404 naming neither its
    # owner nor anything in it (it was a 409 naming the owner, and GET /context a 200).
    assert (await _append(client, "scope-wm1", "alice")).status_code == 200
    missing = "no working-memory session 'scope-wm1' of user_id 'bob'"
    for method, path, kwargs in [
        ("POST", "/working_memory/scope-wm1/messages", {"json": {"messages": [
            {"role": "user", "content": "I need a flight to Oslo.", "user_id": "bob"}]}}),
        ("GET", "/working_memory/scope-wm1", {}),
        ("GET", "/working_memory/scope-wm1", {"params": {"query": "flight"}}),
        ("POST", "/working_memory/scope-wm1/close", {"json": {}}),
        ("POST", "/working_memory/scope-wm1/close", {"json": {"user_id": "bob"}}),
        ("DELETE", "/working_memory/scope-wm1", {"params": {"purge": "true"}}),
        ("GET", "/context", {"params": {"session_id": "scope-wm1"}}),
        ("GET", "/context", {"params": {"session_id": "scope-wm1", "query": "flight"}}),
    ]:  # fmt: skip
        params = {"user_id": "bob", **kwargs.pop("params", {})}
        r = await client.request(method, path, params=params, **kwargs)
        body = assert_problem(r, 404, "not_found", missing)
        assert "alice" not in r.text and "Tokyo" not in r.text, (method, path)
        assert body["detail"] == missing
    # A message naming its user, no ?user_id=: the same 404 (tester C3: a 409 named the
    # owner, an oracle from session id to user_id).
    r = await _append(client, "scope-wm1", "bob")
    assert_problem(r, 404, "not_found", missing)
    assert "alice" not in r.text
    # The subject of a close or an extraction is a scope too (no ?user_id= there).
    r = await client.post("/working_memory/scope-wm1/close", json={"user_id": "bob"})
    assert_problem(r, 404, "not_found", missing)
    r = await client.post("/extract", json={"user_id": "bob", "session_id": "scope-wm1"})
    assert_problem(r, 404, "not_found", missing)
    # Nothing changed: one message, window intact, no job.
    window = (await client.get("/working_memory/scope-wm1", params={"user_id": "alice"})).json()
    assert window["window_messages"] == 1
    assert (await client.get("/extract", params={"session_id": "scope-wm1"})).json()["jobs"] == []
    ctx = await client.get("/context", params={"user_id": "alice", "session_id": "scope-wm1"})
    assert [m["seq"] for m in ctx.json()["parts"]["window"]] == [1]

    r = await _append(client, "scope-wm1", None, user_id="alice")
    assert r.json()["seqs"] == [2]
    # A request at odds with itself, on a session without an owner yet, is a 409 (no other
    # user's session is involved): the scope against the body's user, or a message's.
    assert (await _append(client, "scope-wm2", None)).status_code == 200
    r = await client.post(
        "/working_memory/scope-wm2/close", params={"user_id": "bob"}, json={"user_id": "alice"}
    )
    assert_problem(r, 409, "conflict", "the body's user_id 'alice' is not the request's user_id")
    r = await _append(client, "scope-wm2", "alice", user_id="bob")
    assert_problem(r, 409, "conflict", "A message names user_id 'alice', but the request's")
    assert (await client.get("/working_memory/scope-wm2")).json()["window_messages"] == 1
    r = await client.post("/working_memory/scope-wm1/close", params={"user_id": "alice"}, json={})
    assert r.json()["closed"] is True
    r = await client.delete("/working_memory/scope-wm1", params={"user_id": "alice"})
    assert r.json()["window_cleared"] is True
    # An unknown session is an empty one whoever asks.
    r = await client.delete("/working_memory/scope-nobody", params={"user_id": "bob"})
    assert r.json()["window_cleared"] is False
    r = await client.get("/context", params={"user_id": "bob", "session_id": "scope-nobody"})
    assert r.status_code == 200 and r.json()["parts"]["window"] == []


@pytest.mark.parametrize("path", ["/health", "/ready"])
async def test_probes_refuse_unknown_parameters_too(client, path):
    assert_problem(await client.get(path, params={"x": "1"}), 422, "invalid_request",
                   "query.x: unknown field")  # fmt: skip


async def test_a_routes_parameters_are_walked_once(client, monkeypatch):
    # declared_query walked the route's dependants on every request with a query string;
    # the route keeps its names after its first such request (FastAPI shares a route
    # object between the apps of this process, so an earlier test may have been first).
    from app.api import strict_query

    walks: list[object] = []
    walk = strict_query._names

    def counted(dependant, repeatable):  # type: ignore[no-untyped-def]
        walks.append(dependant)
        return walk(dependant, repeatable)

    monkeypatch.setattr(strict_query, "_names", counted)
    for path in ("/memories", "/reviews", "/working_memory/s1"):
        r = await client.get(path, params={"user_id": "u1", "bogus": "1"})
        assert_problem(r, 422, "invalid_request", "query.bogus: unknown field")
        walked = len(walks)
        for _ in range(3):
            r = await client.get(path, params={"user_id": "u1", "bogus": "1"})
            assert_problem(r, 422, "invalid_request", "query.bogus: unknown field")
            r = await client.get(path, params={"user_id": "u1"})
            assert r.status_code == 200, r.text
        assert len(walks) == walked, path  # no walk after the route's first request


async def test_a_parameter_given_twice_is_refused_not_the_last_taken(client, engine):
    # Tester B4: ?user_id=alice&user_id=tim answered tim's units (the last one won) while a
    # gateway that checks the first would believe the call scoped to alice.
    await _store(client, "alice", "Alice likes tea.")
    await _store(client, "tim", "Tim likes coffee.")
    before = await count_rows(engine)
    r = await client.get("/memories?user_id=alice&user_id=tim&limit=2")
    body = assert_problem(r, 422, "invalid_request", "query.user_id: given more than once")
    assert body["errors"][0]["loc"] == ["query", "user_id"]
    unit = await _store(client, "alice", "Alice plays chess.")
    r = await client.delete(f"/memories/{unit}?user_id=alice&user_id=tim")
    assert_problem(r, 422, "invalid_request", "query.user_id: given more than once")
    assert (await client.get(f"/memories/{unit}")).status_code == 200  # nothing deleted
    assert await count_rows(engine) == before + 1
    # A parameter that takes a list still takes several values.
    r = await client.get("/memories?user_id=alice&types=fact&types=preference")
    assert r.status_code == 200, r.text
