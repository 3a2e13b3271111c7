"""The OpenAI Agents SDK memory tools (`hindsight_client.integrations.openai_agents`,
openai-agents 0.24.0) against the real service over HTTP (keys required, ``keyed_api_url``):
each tool invoked as the SDK invokes it (``FunctionTool.on_invoke_tool`` with a
``ToolContext`` and the JSON arguments string), with its strict schema as the model sees it;
the subject bound or read from the run context; API errors reaching the model as text; and a
whole ``Runner.run`` of an ``Agent`` on the scripted OpenAI-compatible server
(tests/fake_llm.py), whose model calls ``store_memory`` and then ``recall_memory``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "python"))

import hindsight_client as hc  # noqa: E402
from agents import (  # noqa: E402
    Agent,
    FunctionTool,
    OpenAIChatCompletionsModel,
    RunConfig,
    Runner,
)
from agents.tool_context import ToolContext  # noqa: E402
from hindsight_client.integrations.openai_agents import MissingSubjectError, memory_tools  # noqa: E402
from openai import AsyncOpenAI  # noqa: E402

from tests.fake_llm import FakeLLM, Reply, tool_call  # noqa: E402


@pytest.fixture
async def api(keyed_api_url, make_api_key):
    key = await make_api_key("agents-sdk")
    async with hc.AsyncHindsight(keyed_api_url, key) as client:
        yield client


async def invoke(tools: list[FunctionTool], name: str, context: Any = None, **args: Any) -> str:
    """Call a tool the way the SDK's runner does: a ToolContext and a JSON string."""
    [tool] = [t for t in tools if t.name == name]
    arguments = json.dumps(args)
    ctx = ToolContext(context, tool_name=name, tool_call_id="call_test", tool_arguments=arguments)
    return str(await tool.on_invoke_tool(ctx, arguments))


async def test_the_tools_and_their_schemas(api):
    tools = memory_tools(api, user_id="alice", session_id="chat-1")
    assert [t.name for t in tools] == [
        "recall_memory", "store_memory", "extract_memories", "append_to_session"]  # fmt: skip
    assert [t.name for t in memory_tools(api, user_id="alice")] == [
        "recall_memory", "store_memory", "extract_memories"]  # fmt: skip
    schemas = {t.name: t.params_json_schema for t in tools}
    assert all(t.strict_json_schema for t in tools)
    assert schemas["recall_memory"]["properties"]["types"]["anyOf"][0]["items"]["enum"] == [
        "fact", "preference", "constraint", "action", "result", "event"]  # fmt: skip
    assert "user_id" not in json.dumps(schemas)  # the model never picks whose memory
    assert "situation" in schemas["store_memory"]["properties"]["when_relevant"]["description"]
    # Tester C21f: the description said "(1-20)" and the schema had no bounds, so a model's
    # 500 became 20 without a word; the bounds are in the schema, and a call outside them
    # tells the model to fix its arguments.
    top_k = schemas["recall_memory"]["properties"]["top_k"]
    assert (top_k["minimum"], top_k["maximum"], top_k["type"]) == (1, 20, "integer")
    for wrong in (0, 500):
        out = await invoke(tools, "recall_memory", query="x", top_k=wrong, types=None)
        assert out.startswith("Invalid JSON input for tool recall_memory. The arguments must")


async def test_store_recall_extract_and_append_as_the_sdk_calls_them(api):
    tools = memory_tools(api, user_id="alice", session_id="chat-1")
    out = await invoke(tools, "store_memory", value="Alice is allergic to peanuts",
                       type="constraint", when_relevant="when choosing food for Alice",
                       entities=["Alice", "peanuts"])  # fmt: skip
    assert out.startswith("Stored: Alice is allergic to peanuts (id ")
    unit = (await api.list_memories(user_id="alice")).memories[0]
    assert (unit.type, unit.query, unit.source) == (
        "constraint", "when choosing food for Alice", "agent")  # fmt: skip
    again = await invoke(tools, "store_memory", value="Alice is allergic to peanuts!",
                         type="constraint", when_relevant=None, entities=None)  # fmt: skip
    assert again.startswith("Already known; merged into: Alice is allergic to peanuts")

    await invoke(tools, "store_memory", value="Alice lives in Lyon", type="fact",
                 when_relevant=None, entities=None)  # fmt: skip
    recalled = await invoke(tools, "recall_memory", query="what can't Alice eat?", top_k=1,
                            types=None)  # fmt: skip
    assert recalled.startswith("1. [constraint] Alice is allergic to peanuts (relevance 0.")
    assert "Lyon" not in recalled
    only = await invoke(tools, "recall_memory", query="Alice", top_k=5, types=["fact"])
    assert only.splitlines() == ["1. [fact] Alice lives in Lyon" + only.split("Lyon")[1]]
    assert await invoke(memory_tools(api, user_id="nobody"), "recall_memory", query="x",
                        top_k=3, types=None) == "No memories found."  # fmt: skip

    extracted = await invoke(tools, "extract_memories", conversation=[
        {"role": "user", "content": "Please remember that I am vegetarian."},
        {"role": "assistant", "content": "Noted."}])  # fmt: skip
    assert extracted.startswith("- created: [") and "vegetarian" in extracted
    assert any("vegetarian" in u.value for u in (await api.list_memories(user_id="alice")).memories)

    # The session: append, then extract the session's own transcript.
    appended = await invoke(tools, "append_to_session", content="I never fly before 9 am.",
                            role="user")  # fmt: skip
    assert appended == "Added to the session (1 messages in it)."
    window = await api.window("chat-1")
    assert [m.content for m in window.messages] == ["I never fly before 9 am."]
    from_session = await invoke(tools, "extract_memories", conversation=None)
    assert "9 am" in from_session or "9:00" in from_session, from_session


async def test_a_type_the_model_leaves_out_is_read_by_the_service(api):
    """Issue 28: ``store_memory`` sent ``type: "fact"`` when the model gave none, so /store's
    type inference never ran for an agent ("is allergic to peanuts" a fact, never a standing
    constraint). A null type is left out of the request; a type given is kept."""
    tools = memory_tools(api, user_id="dora")
    schema = {t.name: t.params_json_schema for t in tools}["store_memory"]
    assert {"type": "null"} in schema["properties"]["type"]["anyOf"]  # the model may say null
    out = await invoke(tools, "store_memory", value="The user is allergic to peanuts",
                       type=None, when_relevant=None, entities=None)  # fmt: skip
    assert out.startswith("Stored: The user is allergic to peanuts"), out
    await invoke(tools, "store_memory", value="The user likes the sea", type="fact",
                 when_relevant=None, entities=None)  # fmt: skip
    units = {u.value: u for u in (await api.list_memories(user_id="dora")).memories}
    peanuts, sea = units["The user is allergic to peanuts"], units["The user likes the sea"]
    assert (peanuts.type, peanuts.metadata.get("inferred")) == ("constraint", ["type"])
    assert sea.type == "fact" and "type" not in sea.metadata.get("inferred", [])


async def test_the_subject_from_the_run_context_and_errors_as_text(api):
    tools = memory_tools(api)
    await invoke(tools, "store_memory", {"user_id": "bob"}, value="Bob drinks no coffee",
                 type="preference", when_relevant=None, entities=None)  # fmt: skip

    class Ctx:
        user_id = "bob"

    out = await invoke(tools, "recall_memory", Ctx(), query="what does Bob drink?", top_k=2,
                       types=None)  # fmt: skip
    assert "Bob drinks no coffee" in out
    assert [u.user_id for u in (await api.list_memories(user_id="bob")).memories] == ["bob"]

    # A value the API refuses: the model reads why. No subject anywhere: the application's
    # error, raised.
    too_long = await invoke(tools, "store_memory", {"user_id": "bob"}, value="x" * 2001,
                            type="fact", when_relevant=None, entities=None)  # fmt: skip
    assert "invalid_request" in too_long and "2,000" in too_long, too_long
    assert len((await api.list_memories(user_id="bob")).memories) == 1  # nothing stored
    with pytest.raises(MissingSubjectError):
        await invoke(tools, "recall_memory", None, query="x", top_k=1, types=None)


async def test_an_agent_run_calls_the_tools(api):
    llm = FakeLLM().start()
    llm.push(
        Reply(
            tool_calls=[
                tool_call(
                    "store_memory",
                    value="The user is allergic to sesame",
                    type="constraint",
                    when_relevant="when food comes up",
                    entities=["sesame"],
                )
            ]
        ),  # fmt: skip
        Reply(
            tool_calls=[
                tool_call(
                    "recall_memory",
                    call_id="call_2",
                    query="what can't the user eat?",
                    top_k=3,
                    types=None,
                )
            ]
        ),  # fmt: skip
        Reply(content="I will avoid sesame."),
    )
    try:
        model = OpenAIChatCompletionsModel(
            model="test-model", openai_client=AsyncOpenAI(base_url=llm.base_url, api_key="sk-t")
        )
        agent = Agent(name="assistant", instructions="Use your memory tools.", model=model,
                      tools=memory_tools(api))  # fmt: skip
        result = await Runner.run(
            agent, "I am allergic to sesame.", context={"user_id": "erin"},
            run_config=RunConfig(tracing_disabled=True),
        )  # fmt: skip
    finally:
        llm.stop()
    assert result.final_output == "I will avoid sesame."
    [unit] = (await api.list_memories(user_id="erin")).memories
    assert (unit.value, unit.type) == ("The user is allergic to sesame", "constraint")
    # The model was offered the tools and got each tool's output back.
    assert [t["function"]["name"] for t in llm.requests[0]["tools"]] == [
        "recall_memory", "store_memory", "extract_memories"]  # fmt: skip
    outputs = [m for m in llm.requests[2]["messages"] if m["role"] == "tool"]
    assert outputs[0]["content"].startswith("Stored: The user is allergic to sesame")
    assert outputs[1]["content"].startswith("1. [constraint] The user is allergic to sesame")


def test_without_the_extra_the_import_names_it():
    import subprocess

    code = (
        "import sys; sys.modules['agents'] = None\n"  # as if the SDK were not installed
        "import hindsight_client.integrations.openai_agents"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        env={"PYTHONPATH": str(ROOT / "clients" / "python"), "PATH": "/usr/bin:/bin"},
    )  # fmt: skip
    assert out.returncode == 1
    assert 'pip install "hindsight-client[openai-agents]"' in out.stderr, out.stderr
