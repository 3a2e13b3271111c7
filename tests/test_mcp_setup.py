"""Every `mcpServers`/`servers` block of docs/MCP.md works as pasted: the server is started
exactly as the block says (its placeholders filled in: the clone's path, the API's port, a
real key) and the official MCP client lists the seven tools through it; the keyed blocks also
store and recall. `/mcp` on the API's own port refuses a missing or wrong key with the REST
API's 401 before any MCP exchange."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from app.core.config import AuthSettings, Settings
from app.main import create_app
from tests.live_api import serve

ROOT = Path(__file__).resolve().parents[1]
MCP_DOC = ROOT / "docs" / "MCP.md"
HINDSIGHT = ROOT / ".venv" / "bin" / "hindsight"
TOOLS = {"memory_store", "memory_recall", "memory_update", "memory_forget", "memory_extract",
         "memory_summarize", "memory_about", "memory_reviews", "memory_review_decide"}  # fmt: skip
BLOCK = re.compile(r"<!-- mcp-config: ([\w -]+?) -->\n```json\n(.*?)\n```", re.S)


def blocks() -> list[tuple[str, dict[str, Any]]]:
    """(label, parsed JSON) of each marked block of docs/MCP.md, in order."""
    found = [(label, json.loads(body)) for label, body in BLOCK.findall(MCP_DOC.read_text())]
    assert len(found) >= 10, "docs/MCP.md lost its marked blocks"
    return found


@pytest.fixture(scope="module")
def keyless_url(settings: Settings) -> Iterator[str]:
    app = create_app(settings.model_copy(update={"auth": AuthSettings(required="false")}))
    with serve(app) as url:
        yield url


@pytest.fixture(scope="module")
def keyed_url(settings: Settings) -> Iterator[str]:
    app = create_app(
        settings.model_copy(update={"auth": AuthSettings(required="true", cache_ttl_s=0)})
    )
    with serve(app) as url:
        yield url


def fill(value: Any, api_url: str, key: str) -> Any:
    """The block with its placeholders replaced, as a user would."""
    text = json.dumps(value)
    text = text.replace("/ABSOLUTE/PATH/TO/hindsight", str(ROOT))
    text = text.replace("http://127.0.0.1:8000", api_url)
    text = text.replace("hs_YOUR_KEY", key).replace("${input:hindsight-key}", key)
    return json.loads(text)


@asynccontextmanager
async def connect(entry: dict[str, Any]) -> AsyncIterator[ClientSession]:
    """Start or reach the server as an MCP host reads `entry`."""
    if "command" in entry:
        assert entry.get("type", "stdio") == "stdio"
        params = StdioServerParameters(
            command=entry["command"], args=entry.get("args", []), env=entry.get("env")
        )
        async with stdio_client(params) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            yield s
        return
    assert entry.get("type", "http") == "http"
    async with (
        httpx.AsyncClient(headers=entry.get("headers", {}), timeout=30) as http,
        streamable_http_client(entry["url"], http_client=http) as (read, write),
        ClientSession(read, write) as s,
    ):
        await s.initialize()
        yield s


@pytest.mark.parametrize("label", [label for label, _ in blocks()])
async def test_mcp_doc_block_starts_and_lists_tools(label, keyless_url, keyed_url, make_api_key):
    config = dict(blocks())[label]
    keyed = label.endswith(" key")
    key = await make_api_key("mcp-doc") if keyed else ""
    servers = config.get("mcpServers") or config.get("servers")
    assert ("servers" in config) == label.startswith("vscode"), "VS Code's key is `servers`"
    entry = fill(servers["hindsight"], keyed_url if keyed else keyless_url, key)
    if "command" in entry:
        assert Path(entry["command"]) == HINDSIGHT and HINDSIGHT.exists(), entry["command"]
        if "MCP__API_BASE_URL" not in entry.get("env", {}):
            # The block relies on the default API URL (127.0.0.1:8000): point it at this test's
            # API the way the user's environment would not need to.
            entry["env"] = {**entry.get("env", {}), "MCP__API_BASE_URL": keyed_url if keyed
                            else keyless_url}  # fmt: skip
    pinned = " pinned" in label  # pinned to user-42: the tools take no user_id
    subject = {} if pinned else {"user_id": "doc"}
    async with connect(entry) as session:
        tools = (await session.list_tools()).tools
        assert {t.name for t in tools} == TOOLS
        assert pinned == all("user_id" not in t.input_schema["properties"] for t in tools)
        if keyed:
            stored = await session.call_tool(
                "memory_store", {"what_to_remember": f"{label} works", **subject}
            )
            assert not stored.is_error, stored.content
            found = await session.call_tool(
                "memory_recall", {"what_am_i_looking_for": f"does {label} work?", **subject}
            )
            assert found.structured_content["memories"][0]["id"] == stored.structured_content["id"]
            if pinned:
                other = await session.call_tool(
                    "memory_recall", {"what_am_i_looking_for": "anything", "user_id": "doc"}
                )
                assert other.structured_content["error"]["code"] == "pinned_user"


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer hs_not-a-key"}])
def test_mcp_on_the_api_port_refuses_a_missing_or_wrong_key(keyed_url, headers):
    answer = httpx.post(
        f"{keyed_url}/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"accept": "application/json, text/event-stream", **headers},
        timeout=10,
    )
    assert answer.status_code == 401
    assert answer.headers["content-type"].startswith("application/problem+json")
    assert answer.json()["code"] == ("invalid_api_key" if headers else "missing_api_key")


def test_mcp_on_the_api_port_answers_a_plain_tools_list(keyless_url):
    """The README's curl check: one JSON-RPC POST, one JSON answer (stateless mode)."""
    answer = httpx.post(
        f"{keyless_url}/mcp",
        json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
        headers={"accept": "application/json, text/event-stream"},
        timeout=10,
    )
    assert answer.status_code == 200, answer.text
    assert {t["name"] for t in answer.json()["result"]["tools"]} == TOOLS
