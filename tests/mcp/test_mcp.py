"""The MCP server, driven by the official MCP client over stdio and streamable HTTP, against
the REST API served over real HTTP on 127.0.0.1 (keys required)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import httpx2
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client
from sqlalchemy import text

from app.main import create_app
from app.mcp.arguments import in_tool_terms, renamed
from app.mcp.client import ApiError
from app.mcp.results import error_result
from tests.conftest import count_rows
from tests.live_api import free_port

ROOT = Path(__file__).resolve().parents[2]
EXPECTED_TOOLS = {
    "memory_store",
    "memory_recall",
    "memory_update",
    "memory_forget",
    "memory_extract",
    "memory_summarize",
    "memory_about",
    "memory_reviews",
    "memory_review_decide",
}


@pytest.fixture(scope="module")
def api_url(keyed_api_url: str) -> str:
    """The REST API on a real loopback port, API keys required."""
    return keyed_api_url


def _env(**extra: str) -> dict[str, str]:
    return {"LOG_FORMAT": "text", "LOG_LEVEL": "WARNING", **extra}


@asynccontextmanager
async def stdio_session(api_url: str, api_key: str) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "app.cli", "mcp"],
        env=_env(MCP__API_BASE_URL=api_url, MCP__API_KEY=api_key),
        cwd=str(ROOT),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@pytest.fixture(scope="module")
def mcp_http_url(api_url: str) -> Iterator[str]:
    """`hindsight mcp --transport streamable-http` as a subprocess, with no key of its own:
    each caller's Authorization header passes through."""
    with mcp_http(api_url, "") as url:
        yield url


@contextmanager
def mcp_http(api_url: str, own_key: str) -> Iterator[str]:
    """The streamable HTTP MCP server as a subprocess with ``MCP__API_KEY=own_key``."""
    port = free_port()
    command = [sys.executable, "-m", "app.cli", "mcp", "--transport", "streamable-http"]
    with tempfile.TemporaryFile() as log:
        proc = subprocess.Popen(
            [*command, "--port", str(port)],
            env={**os.environ, **_env(MCP__API_BASE_URL=api_url, MCP__API_KEY=own_key)},
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=log,
        )
        try:
            deadline = time.monotonic() + 30
            while not _port_open(port):
                if proc.poll() is not None:
                    log.seek(0)
                    raise RuntimeError(f"MCP server exited: {log.read().decode()[-2000:]}")
                if time.monotonic() > deadline:
                    raise RuntimeError("MCP server did not open its port in 30 s")
                time.sleep(0.1)
            health = httpx2.get(f"http://127.0.0.1:{port}/health", timeout=5)
            assert health.status_code == 200 and health.json() == {"status": "ok"}
            yield f"http://127.0.0.1:{port}/mcp"
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


@asynccontextmanager
async def http_session(url: str, api_key: str | None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=30) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


STORE_ARGS = {
    "what_to_remember": "The user is allergic to peanuts",
    "user_id": "u1",
    "kind": "constraint",
    "when_it_will_matter": "when the user orders food or asks for a recipe",
    "named_things": ["peanuts"],
}


async def test_stdio_store_recall_and_errors(api_url, engine, make_api_key):
    key = await make_api_key("tenant-a")
    async with stdio_session(api_url, key) as session:
        tools = await session.list_tools()
        names = {t.name for t in tools.tools}
        assert names == EXPECTED_TOOLS
        for tool in tools.tools:
            assert tool.description and "Call this" in tool.description
            assert "Arguments: " in tool.description  # every argument named in the description
            for name in tool.input_schema["properties"]:
                assert name in tool.description.split("Arguments: ")[1], (tool.name, name)
            for name, prop in tool.input_schema["properties"].items():
                assert prop.get("description"), f"{tool.name}.{name} has no description"
        # A list of a closed vocabulary names its values as they are ("event", not "events").
        recall_tool = next(t for t in tools.tools if t.name == "memory_recall")
        kinds = recall_tool.input_schema["properties"]["only_kinds"]
        values = next(o for o in kinds.get("anyOf", [kinds]) if o.get("type") == "array")
        listed = "/".join(values["items"]["enum"])
        assert f"only_kinds (list of (one of {listed}))" in recall_tool.description

        stored = await session.call_tool("memory_store", STORE_ARGS)
        assert not stored.is_error, stored.content
        assert stored.structured_content["outcome"] == "created"
        memory_id = stored.structured_content["id"]
        assert await count_rows(engine) == 1

        recalled = await session.call_tool(
            "memory_recall",
            {"what_am_i_looking_for": "what can't the user eat?", "user_id": "u1"},
        )
        assert not recalled.is_error, recalled.content
        hits = recalled.structured_content["memories"]
        assert hits[0]["id"] == memory_id
        assert hits[0]["value"] == STORE_ARGS["what_to_remember"]
        # tester hbreak6 G34: the comparable 0..1 relevance is given, not only the score
        assert 0 < hits[0]["relevance"] <= 1
        assert recalled.structured_content["best_relevance"] == max(h["relevance"] for h in hits)

        # Consolidation says what it left for another call (K9: bounded work per call); a
        # constraint is never folded into a summary.
        summarized = await session.call_tool("memory_summarize", {"user_id": "u1"})
        assert not summarized.is_error, summarized.content
        assert summarized.structured_content == {"summaries": [], "archived": 0, "remaining": 0}

        # The entity graph: a question naming a known thing gets its profile; an unknown
        # name gets the names that are known.
        about = await session.call_tool(
            "memory_about",
            {"who_or_what": "What do we know about Peanuts?", "user_id": "u1"},
        )
        assert not about.is_error, about.content
        assert about.structured_content["entity"] == "peanuts"
        assert about.structured_content["memory_count"] == 1
        assert about.structured_content["memories"][0]["id"] == memory_id
        unknown_name = await session.call_tool(
            "memory_about", {"who_or_what": "Who is Zed?", "user_id": "u1"}
        )
        assert not unknown_name.is_error, unknown_name.content
        assert unknown_name.structured_content["entity"] is None
        assert unknown_name.structured_content["known_names"] == ["peanuts"]

        updated = await session.call_tool(
            "memory_update",
            {
                "memory_id": memory_id,
                "corrected_text": "The user is allergic to peanuts and cashews",
            },
        )
        assert not updated.is_error, updated.content
        assert updated.structured_content["value"].endswith("cashews")

        forgotten = await session.call_tool("memory_forget", {"memory_id": memory_id})
        assert not forgotten.is_error, forgotten.content
        assert forgotten.structured_content["removed"]["memory_units"] == 1
        assert forgotten.structured_content["still_in_conversation"] == []  # stored directly
        assert await count_rows(engine) == 0
        again = await session.call_tool(
            "memory_recall", {"what_am_i_looking_for": "allergies", "user_id": "u1"}
        )
        assert again.structured_content["memories"] == []

        # Error paths: the API's 404 and 422 come back as tool errors with the stable code.
        gone = await session.call_tool("memory_forget", {"memory_id": memory_id})
        assert gone.is_error
        assert gone.structured_content["error"]["code"] == "not_found"
        assert gone.structured_content["error"]["request_id"]
        bad = await session.call_tool("memory_recall", {"what_am_i_looking_for": "anything"})
        assert bad.is_error
        assert bad.structured_content["error"]["code"] == "invalid_request"
        assert bad.content[0].text.startswith("invalid_request:")
        # The rerank option reaches the API: this server has no LLM, so `llm` is its 422.
        no_llm = await session.call_tool(
            "memory_recall",
            {"what_am_i_looking_for": "allergies", "user_id": "u1", "rerank": "llm"},
        )
        assert no_llm.is_error
        assert no_llm.structured_content["error"]["code"] == "invalid_request"
        assert "LLM" in no_llm.content[0].text

        # Wrong, missing and unknown arguments: the documented code-prefixed tool error.
        rest_style = await session.call_tool(
            "memory_store", {"value": "The user likes tea", "user_id": "u1"}
        )
        assert rest_style.is_error
        text = rest_style.content[0].text
        assert text.startswith("invalid_arguments: memory_store:"), text
        assert "unknown argument 'value' (this tool calls it what_to_remember)" in text
        assert "Arguments: what_to_remember (string, required)" in text
        error = rest_style.structured_content["error"]
        assert (error["code"], error["status"]) == ("invalid_arguments", 422)
        missing = await session.call_tool("memory_store", {"user_id": "u1"})
        assert missing.content[0].text.startswith("invalid_arguments: memory_store:")
        assert "what_to_remember: required" in missing.content[0].text
        wrong = await session.call_tool(
            "memory_recall", {"what_am_i_looking_for": "tea", "how_many_results": "lots"}
        )
        assert wrong.content[0].text.startswith("invalid_arguments: memory_recall:")
        assert "how_many_results" in wrong.content[0].text
        # A refusal of the API (422) names the tool's arguments, not the REST fields (F19).
        no_offset = await session.call_tool(
            "memory_store",
            {"what_to_remember": "The user flew to Oslo", "user_id": "u1",
             "when_it_happened": "2026-03-14T09:00:00"},
        )  # fmt: skip
        assert no_offset.is_error
        text = no_offset.content[0].text
        assert text.startswith("invalid_request: when_it_happened: must give its UTC offset"), text
        assert "occurred_at" not in text and "memories" not in text, text
        assert no_offset.structured_content["error"]["detail"].startswith("when_it_happened: ")
        no_name = await session.call_tool(
            "memory_recall",
            {"what_am_i_looking_for": "tea", "user_id": "u1", "about_named_things": ["\u200e"]},
        )
        assert no_name.is_error
        assert no_name.content[0].text.startswith(
            "invalid_request: about_named_things[0]: has no visible text"
        ), no_name.content[0].text
        nothing = await session.call_tool("memory_remember", {})
        assert nothing.structured_content["error"]["code"] == "unknown_tool"
        assert await count_rows(engine) == 0

    # A wrong key is refused by the API, and the tool says so with the API's code.
    async with stdio_session(api_url, "hs_not-a-real-key") as session:
        refused = await session.call_tool("memory_store", STORE_ARGS)
        assert refused.is_error
        assert refused.structured_content["error"]["code"] == "invalid_api_key"
        assert refused.structured_content["error"]["status"] == 401
    assert await count_rows(engine) == 0


async def test_review_tools_list_and_decide_a_pair(api_url, make_api_key):
    key = await make_api_key("tenant-reviews")
    async with stdio_session(api_url, key) as session:
        for text_ in (
            "The user is bilingual in English and French",
            "The user speaks English and French fluently",
        ):
            args = {"what_to_remember": text_, "user_id": "u1"}
            assert not (await session.call_tool("memory_store", args)).is_error
        listed = await session.call_tool("memory_reviews", {"user_id": "u1"})
        assert not listed.is_error, listed.content
        [pair] = listed.structured_content["pairs"]
        assert pair["newer"] == "The user speaks English and French fluently"
        assert pair["existing"] == "The user is bilingual in English and French"
        assert pair["kind"] == "duplicate"
        # REST's word for the decision is a hint, not a silent failure.
        rest_style = {"review_id": pair["review_id"], "action": "merge"}
        wrong = await session.call_tool("memory_review_decide", rest_style)
        assert wrong.is_error
        assert "unknown argument 'action' (this tool calls it decision)" in wrong.content[0].text
        decide = {"review_id": pair["review_id"], "decision": "merge"}
        decided = await session.call_tool("memory_review_decide", decide)
        assert not decided.is_error, decided.content
        assert decided.structured_content == {
            "review_id": pair["review_id"],
            "decision": "merge",
            "changed": True,
        }
        again = await session.call_tool("memory_review_decide", decide)
        assert again.structured_content["changed"] is False
        other = {"review_id": pair["review_id"], "decision": "keep_both"}
        refused = await session.call_tool("memory_review_decide", other)
        assert refused.is_error and refused.structured_content["error"]["code"] == "conflict"
        assert (await session.call_tool("memory_reviews", {"user_id": "u1"})
                ).structured_content["pairs"] == []  # fmt: skip


async def test_extract_says_why_a_statement_was_dropped(api_url, make_api_key):
    """Tester hbreak5 F26: memory_extract left out the `reason` REST gives a dropped
    statement, so the model never learnt that a forget request asks it to act."""
    key = await make_api_key("tenant-forget")
    async with stdio_session(api_url, key) as session:
        said = "Forget what I said about my dentist appointment. Also I like jazz."
        args = {"user_id": "u1", "conversation": [{"role": "user", "content": said}],
                "wait_for_result": True}  # fmt: skip
        extracted = await session.call_tool("memory_extract", args)
        assert not extracted.is_error, extracted.content
        units = extracted.structured_content["memories"]
        [dropped] = [u for u in units if u["outcome"] == "dropped"]
        assert "DELETE /memories/{id}" in dropped["reason"] or "forget" in dropped["reason"]
        assert [u["reason"] for u in units if u["outcome"] == "created"] == [None]


async def test_streamable_http_passes_each_callers_key(mcp_http_url, engine, make_api_key):
    key_a = await make_api_key("tenant-a")
    key_b = await make_api_key("tenant-b")
    async with http_session(mcp_http_url, key_a) as session:
        names = {t.name for t in (await session.list_tools()).tools}
        assert names >= EXPECTED_TOOLS
        stored = await session.call_tool("memory_store", STORE_ARGS)
        assert not stored.is_error, stored.content
        recalled = await session.call_tool(
            "memory_recall",
            {"what_am_i_looking_for": "food allergies", "user_id": "u1", "how_many_results": 3},
        )
        assert [m["id"] for m in recalled.structured_content["memories"]] == [
            stored.structured_content["id"]
        ]
        extracted = await session.call_tool(
            "memory_extract",
            {
                "user_id": "u1",
                "conversation": [
                    {"role": "user", "content": "Please remember that I live in Lyon."},
                    {"role": "assistant", "content": "Noted: you live in Lyon."},
                ],
                "wait_for_result": True,
            },
        )
        assert not extracted.is_error, extracted.content
        job = extracted.structured_content
        assert job["status"] == "succeeded"
        polled = await session.call_tool("memory_extract", {"job_id": job["job_id"]})
        assert polled.structured_content["job_id"] == job["job_id"]
    # Another tenant's key, through the same MCP server, sees nothing of tenant-a.
    async with http_session(mcp_http_url, key_b) as session:
        recalled = await session.call_tool(
            "memory_recall", {"what_am_i_looking_for": "food allergies", "user_id": "u1"}
        )
        assert not recalled.is_error
        assert recalled.structured_content["memories"] == []
        foreign = await session.call_tool(
            "memory_forget", {"memory_id": stored.structured_content["id"]}
        )
        assert foreign.structured_content["error"]["code"] == "not_found"
        foreign_job = await session.call_tool("memory_extract", {"job_id": job["job_id"]})
        assert foreign_job.structured_content["error"]["code"] == "not_found"
    # No key at all: the API's 401 comes back as a tool error.
    async with http_session(mcp_http_url, None) as session:
        refused = await session.call_tool("memory_store", STORE_ARGS)
        assert refused.is_error
        assert refused.structured_content["error"]["code"] == "missing_api_key"
        assert "MCP__API_KEY" in refused.structured_content["error"]["detail"]  # T20 (b)
    async with engine.connect() as conn:
        namespaces = await conn.execute(text("SELECT DISTINCT namespace FROM memory_units"))
        assert list(namespaces.scalars()) == ["tenant-a"]


async def test_streamable_http_never_lends_its_own_key(api_url, engine, make_api_key):
    """Tester B28: with MCP__API_KEY set (one `.env` for stdio and HTTP), a caller sending no
    key gets the API's 401, not that key's namespace; a caller's own key still works."""
    key = await make_api_key("tenant-b28")
    async with stdio_session(api_url, key) as session:  # stdio keeps using MCP__API_KEY
        stored = await session.call_tool("memory_store", {**STORE_ARGS, "user_id": "bob-b28"})
        assert not stored.is_error, stored.content
    with mcp_http(api_url, key) as url:
        async with http_session(url, None) as session:
            for tool, args in (
                ("memory_recall", {"what_am_i_looking_for": "allergies", "user_id": "bob-b28"}),
                ("memory_forget", {"memory_id": stored.structured_content["id"]}),
            ):
                refused = await session.call_tool(tool, args)
                assert refused.is_error, tool
                assert refused.structured_content["error"]["code"] == "missing_api_key"
        async with http_session(url, key) as session:
            recalled = await session.call_tool(
                "memory_recall", {"what_am_i_looking_for": "allergies", "user_id": "bob-b28"}
            )
            assert [m["id"] for m in recalled.structured_content["memories"]] == [
                stored.structured_content["id"]
            ]
    async with engine.connect() as conn:
        left = await conn.execute(
            text("SELECT count(*) FROM memory_units WHERE namespace = 'tenant-b28'")
        )
        assert left.scalar_one() == 1


def test_mcp_process_loads_no_service_or_database_code():
    """The adapter's only door is HTTP: `hindsight mcp` imports no service, repository,
    model or database module."""
    code = (
        "import sys, app.cli.main, app.mcp.server, app.mcp.tools\n"
        "bad = [m for m in sys.modules if m.startswith(('app.services', 'app.repositories',"
        " 'app.models', 'app.core.db', 'app.api', 'sqlalchemy', 'asyncpg'))]\n"
        "print(','.join(sorted(bad)))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == ""


def test_every_tool_calls_an_existing_endpoint(settings):
    """The tool set matches the API: each tool's REST operation is in the OpenAPI document."""
    from app.mcp.tools import ENDPOINTS, TOOLS

    assert set(TOOLS) == set(ENDPOINTS) == EXPECTED_TOOLS
    paths = create_app(settings).openapi()["paths"]
    for tool, operations in ENDPOINTS.items():
        for method, path in operations:
            assert method in paths.get(path, {}), f"{tool}: {method.upper()} {path} is gone"


def test_readme_documents_every_tool_argument():
    from app.core.config import McpSettings
    from app.mcp.server import build_server

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    rows = {
        line.split("|")[1].strip().strip("`"): line.split("|")[2]
        for line in readme.splitlines()
        if line.startswith("| `memory_")
    }
    for tool in build_server(McpSettings())._tool_manager.list_tools():
        required = set(tool.parameters.get("required", ()))
        documented = [a.strip() for a in rows[tool.name].split(",")]
        expected = [f"**{n}**" if n in required else n for n in tool.parameters["properties"]]
        assert documented == expected, tool.name


@pytest.mark.parametrize(
    ("tool", "detail", "named"),
    [
        ("memory_store", "memories.0.occurred_at: must give its UTC offset", "when_it_happened: "),
        ("memory_store", "memories.0: 9000 tokens, at most 8192", "what_to_remember: 9000"),
        ("memory_recall", "top_k: at most 50", "how_many_results: at most"),
        ("memory_recall", "entities[1]: nothing but whitespace", "about_named_things[1]: "),
        ("memory_recall", "query: must not be blank", "what_am_i_looking_for: must"),
        ("memory_extract", "messages.2.content: 不能为空", "conversation[2].content: 不能为空"),
        ("memory_reviews", "query.limit: at most 200", "how_many: at most"),
        ("memory_review_decide", "action: one of merge/supersede/distinct", "decision: one of"),
        ("memory_recall", "body.user_id: required", "user_id: required"),
        # a whole-body problem (tester finding T20): no REST "body:" in a tool error
        (
            "memory_recall",
            "body: give at least one of user_id, agent_id, session_id",
            "give at least one of user_id, agent_id, session_id",
        ),
        # no field first: left as it is
        ("memory_update", "value is the same as the stored one", "value is the same"),
        ("memory_recall", "Field required", "Field required"),
    ],
)
def test_api_refusals_name_the_tool_arguments(tool, detail, named):
    assert renamed(tool, detail).startswith(named)
    refused = error_result(ApiError(422, "invalid_request", detail, "Invalid request", "r1"))
    shown = in_tool_terms(tool, refused)
    assert shown.content[0].text.startswith(f"invalid_request: {named}")
    assert shown.structured_content["error"]["detail"] == renamed(tool, detail)
    assert shown.structured_content["error"]["request_id"] == "r1"
    # other errors are left alone
    gone = error_result(ApiError(404, "not_found", detail))
    assert in_tool_terms(tool, gone) is gone


async def test_an_unreachable_api_is_a_titled_tool_error():
    """Tester finding T20 (d): `api_unreachable` had an empty title."""
    from app.mcp.client import ApiError, RestApi

    with pytest.raises(ApiError) as caught:
        await RestApi("http://127.0.0.1:9").call("GET", "/health")
    error = error_result(caught.value).structured_content["error"]
    assert (error["code"], error["status"], error["title"]) == (
        "api_unreachable",
        503,
        "API unreachable",
    )
