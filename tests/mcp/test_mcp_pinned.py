"""An MCP connection pinned to one user (tester finding C16): over stdio by MCP__USER_ID,
over streamable HTTP by the X-Hindsight-User-Id header. The model can neither read, change
nor forget another user's memory of the key's namespace, and still serves its own user.
Driven by the official MCP client against the REST API on a real port (keys required)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.mcp.test_mcp import ROOT, _env, mcp_http


@pytest.fixture(scope="module")
def api_url(keyed_api_url: str) -> str:
    return keyed_api_url


@pytest.fixture(scope="module")
def mcp_http_url(api_url: str) -> Iterator[str]:
    with mcp_http(api_url, "") as url:
        yield url


@asynccontextmanager
async def stdio_pinned(api_url: str, key: str, user: str) -> AsyncIterator[ClientSession]:
    env = _env(MCP__API_BASE_URL=api_url, MCP__API_KEY=key, MCP__USER_ID=user)
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "app.cli", "mcp"], env=env, cwd=str(ROOT)
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def http_pinned(url: str, key: str, user: str | None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {key}"}
    if user is not None:
        headers["X-Hindsight-User-Id"] = user
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


class Carol:
    """Carol's memory, written through the REST API with the same key the MCP server uses:
    a unit, an open pair review and an extraction job."""

    def __init__(self, api: httpx2.Client) -> None:
        self.api = api
        self.unit = self._store("Carol's desk number is 9912")
        self._store("The user is bilingual in English and French")
        self._store("The user speaks English and French fluently")
        reviews = api.get("/reviews", params={"user_id": "carol"}).json()["reviews"]
        [self.review] = [r["id"] for r in reviews]
        messages = [{"role": "user", "content": "Please remember that I live in Lyon."}]
        job = api.post("/extract", json={"user_id": "carol", "messages": messages, "mode": "sync"})
        assert job.status_code in (200, 201, 202), job.text
        self.job = job.json()["id"]

    def _store(self, value: str) -> str:
        r = self.api.post("/store", json={"memories": [{"user_id": "carol", "value": value}]})
        assert r.status_code == 200, r.text
        return str(r.json()["results"][0]["id"])

    def intact(self) -> None:
        unit = self.api.get(f"/memories/{self.unit}")
        assert unit.status_code == 200 and unit.json()["value"] == "Carol's desk number is 9912"
        assert unit.json()["status"] == "active"
        review = self.api.get(f"/reviews/{self.review}").json()
        assert review["status"] == "pending" and review["decision"] is None


def _error(result: Any) -> str:
    assert result.is_error, result.content
    return str(result.structured_content["error"]["code"])


async def _cannot_touch_carol(session: ClientSession, carol: Carol) -> None:
    """What injected text could ask of a session pinned to ann, refused each time."""
    tools = (await session.list_tools()).tools
    for tool in tools:
        assert "user_id" not in tool.input_schema["properties"], tool.name
        assert "user_id" not in tool.input_schema.get("required", []), tool.name
        assert "user_id (" not in tool.description, tool.name
    named = await session.call_tool(
        "memory_recall", {"what_am_i_looking_for": "desk number", "user_id": "carol"}
    )
    assert _error(named) == "pinned_user"
    assert "pinned to one user" in named.content[0].text
    assert "9912" not in named.content[0].text
    for tool, args in (
        ("memory_about", {"who_or_what": "Carol", "user_id": "carol"}),
        ("memory_reviews", {"user_id": "carol"}),
        ("memory_store", {"what_to_remember": "Carol's desk number is 0000", "user_id": "carol"}),
    ):
        assert _error(await session.call_tool(tool, args)) == "pinned_user", tool
    # By id: the API's 404 for another user's unit, pair and job.
    for tool, args in (
        ("memory_update", {"memory_id": carol.unit, "corrected_text": "The desk number is 0000"}),
        ("memory_update", {"memory_id": carol.unit, "mark_as": "invalid"}),
        ("memory_forget", {"memory_id": carol.unit}),
        ("memory_review_decide", {"review_id": carol.review, "decision": "merge"}),
        ("memory_extract", {"job_id": carol.job}),
    ):
        assert _error(await session.call_tool(tool, args)) == "not_found", (tool, args)
    # Without user_id: ann's memory only, though the agent's or session's filter alone would
    # have taken every user's.
    recalled = await session.call_tool("memory_recall", {"what_am_i_looking_for": "desk number"})
    assert not recalled.is_error, recalled.content
    assert carol.unit not in [m["id"] for m in recalled.structured_content["memories"]]
    carol.intact()


async def _serves_ann(session: ClientSession, api: httpx2.Client) -> None:
    stored = await session.call_tool(
        "memory_store", {"what_to_remember": "Ann's desk number is 4471", "kind": "fact"}
    )
    assert not stored.is_error, stored.content
    ann = stored.structured_content["id"]
    assert api.get(f"/memories/{ann}").json()["user_id"] == "ann"
    again = await session.call_tool(  # naming the pinned user itself is no error
        "memory_recall", {"what_am_i_looking_for": "desk number", "user_id": "ann"}
    )
    assert [m["id"] for m in again.structured_content["memories"]] == [ann]
    updated = await session.call_tool(
        "memory_update", {"memory_id": ann, "corrected_text": "Ann's desk number is 4472"}
    )
    assert not updated.is_error, updated.content
    forgotten = await session.call_tool("memory_forget", {"memory_id": ann})
    assert forgotten.structured_content["removed"]["memory_units"] == 1
    assert api.get(f"/memories/{ann}").status_code == 404


@pytest.fixture
async def tenant(api_url: str, make_api_key: Any) -> AsyncIterator[tuple[str, httpx2.Client]]:
    key = await make_api_key(f"tenant-pin-{id(object())}")
    headers = {"Authorization": f"Bearer {key}"}
    with httpx2.Client(base_url=api_url, headers=headers, timeout=30) as api:
        yield key, api


async def test_stdio_pinned_by_mcp_user_id(api_url, tenant):
    key, api = tenant
    carol = Carol(api)
    async with stdio_pinned(api_url, key, "ann") as session:
        await _cannot_touch_carol(session, carol)
        await _serves_ann(session, api)


@pytest.mark.parametrize("where", ["standalone", "in_process"])
async def test_streamable_http_pinned_by_header(where, api_url, mcp_http_url, tenant):
    key, api = tenant
    carol = Carol(api)
    url = mcp_http_url if where == "standalone" else f"{api_url}/mcp"
    async with http_pinned(url, key, "ann") as session:
        await _cannot_touch_carol(session, carol)
        await _serves_ann(session, api)
    # The pin is the request's, not the server's: the same server unpinned still lists
    # user_id (and acts for whoever the model names: the trust domain is the key).
    async with http_pinned(url, key, None) as session:
        recall = next(t for t in (await session.list_tools()).tools if t.name == "memory_recall")
        assert "user_id" in recall.input_schema["properties"]
        named = await session.call_tool(
            "memory_recall", {"what_am_i_looking_for": "desk number", "user_id": "carol"}
        )
        assert carol.unit in [m["id"] for m in named.structured_content["memories"]]
    # A header that is there but empty fails closed, not unpinned.
    async with http_pinned(url, key, "") as session:
        refused = await session.call_tool(
            "memory_recall", {"what_am_i_looking_for": "desk number", "user_id": "carol"}
        )
        assert _error(refused) == "invalid_pin"
    carol.intact()
