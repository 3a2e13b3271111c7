"""Memory tools for the OpenAI Agents SDK: ``memory_tools(AsyncHindsight(...))``.

Install with the extra: ``pip install "./clients/python[openai-agents]"`` (tested with
openai-agents 0.24.0)::

    from agents import Agent, Runner
    from hindsight_client import AsyncHindsight
    from hindsight_client.integrations.openai_agents import memory_tools

    api = AsyncHindsight("http://127.0.0.1:8000")
    agent = Agent(name="assistant", instructions="Use your memory tools.",
                  tools=memory_tools(api, user_id="alice"))
    await Runner.run(agent, "I am allergic to peanuts; remember that.")

The tools (``FunctionTool``s, strict JSON schemas, each call one request of the API):

- ``recall_memory(query, top_k, types)`` → ``POST /recall``: the best units as numbered
  lines with their type and relevance (0..1), or "No memories found."; ``top_k`` is 1..20
  (``minimum`` / ``maximum`` in its schema; a call outside them is refused, and the model
  reads that its arguments must fit the schema, instead of getting 20 without a word);
- ``store_memory(value, type, when_relevant, entities)`` → ``POST /store``: says whether the
  unit was created or merged into one already known (and superseded/conflict); a ``type``
  left null is left out of the request, so the service reads it from the value ("The user
  is allergic to peanuts": a constraint) as it reads the entities left out;
- ``extract_memories(conversation)`` → ``POST /extract?wait=true``: a conversation (or, when
  none is given and the tools are bound to a session, that session's transcript) turned into
  units, listed with what became of each;
- ``append_to_session(content, role)`` → ``POST /working_memory/{session_id}/messages``:
  only when the tools know a session.

Whose memory: ``user_id`` / ``agent_id`` / ``session_id`` given to :func:`memory_tools`, else
read from the run's context (``Runner.run(..., context=...)``: an object with those
attributes or a mapping with those keys), so one agent can serve many users; the model never
chooses the subject (none anywhere raises :class:`MissingSubjectError` out of the run).
An error answer of the API reaches the model as its text (``invalid_request: memories.0.value:
at most 2,000 characters…``) so that it can correct the call; any other failure gets the
SDK's own fixed message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

try:
    from agents import FunctionTool, RunContextWrapper, function_tool
    from agents.exceptions import ModelBehaviorError
    from agents.tool import default_tool_error_function
except ImportError as exc:  # pragma: no cover - the extra is missing
    raise ImportError(
        'memory_tools needs the OpenAI Agents SDK: pip install "hindsight-client[openai-agents]"'
    ) from exc
from pydantic import BaseModel, Field

from hindsight_client.client import AsyncHindsight
from hindsight_client.errors import HindsightError

UnitType = Literal["fact", "preference", "constraint", "action", "result", "event"]
SUBJECT_FIELDS = ("user_id", "agent_id", "session_id")


class MissingSubjectError(ValueError):
    """Neither :func:`memory_tools` nor the run context named a ``user_id``."""


def tool_error(ctx: RunContextWrapper[Any], error: Exception) -> str:
    """What the model reads when a tool fails: the API's ``code: detail``; arguments the
    tool's schema refuses (``top_k`` 500), the SDK's words and what to fix; a missing subject
    is the application's error and is raised; anything else, the SDK's fixed message."""
    if isinstance(error, HindsightError):
        return str(error)
    if isinstance(error, ModelBehaviorError):
        return (
            f"{error}. The arguments must fit the tool's JSON schema (types, enums, minimum "
            "and maximum): call it again with arguments that do."
        )
    if isinstance(error, MissingSubjectError):
        raise error
    return default_tool_error_function(ctx, error)


class Turn(BaseModel):
    """One message of a conversation to extract memories from."""

    role: Literal["user", "assistant"]
    content: str


def memory_tools(
    client: AsyncHindsight,
    *,
    user_id: str | None = None,
    agent_id: str | None = None,
    session_id: str | None = None,
    include_append: bool | None = None,
) -> list[FunctionTool]:
    """The memory tools over ``client`` for one subject (or the run context's).
    ``include_append``: add ``append_to_session`` (default: when ``session_id`` is given)."""
    bound = {"user_id": user_id, "agent_id": agent_id, "session_id": session_id}

    def subject(ctx: RunContextWrapper[Any]) -> dict[str, str]:
        fields = {k: v for k, v in bound.items() if v is not None}
        context = ctx.context
        for name in SUBJECT_FIELDS:
            if name in fields:
                continue
            value = (
                context.get(name) if isinstance(context, Mapping) else getattr(context, name, None)
            )
            if isinstance(value, str) and value:
                fields[name] = value
        if "user_id" not in fields:
            raise MissingSubjectError(
                "no user_id: give memory_tools(user_id=...) or a run context with one"
            )
        return fields

    @function_tool(failure_error_function=tool_error)
    async def recall_memory(
        ctx: RunContextWrapper[Any],
        query: str,
        top_k: Annotated[int, Field(ge=1, le=20)] = 5,
        types: list[UnitType] | None = None,
    ) -> str:
        """Look up what you remember about the user that bears on a question or situation.

        Args:
            query: What you are looking for, as a question or a situation.
            top_k: How many memories to return (1-20).
            types: Only these kinds of memory (constraint, preference, fact, event, ...).
        """
        s = subject(ctx)
        found = await client.recall(
            query, top_k=top_k, types=types,
            user_id=s["user_id"], agent_id=s.get("agent_id"),
        )  # fmt: skip
        if not found.memories:
            return "No memories found."
        return "\n".join(
            f"{n}. [{hit.type}] {hit.value} (relevance {hit.relevance:.2f})"
            for n, hit in enumerate(found.memories, 1)
        )

    @function_tool(failure_error_function=tool_error)
    async def store_memory(
        ctx: RunContextWrapper[Any],
        value: str,
        type: UnitType | None = None,
        when_relevant: str | None = None,
        entities: list[str] | None = None,
    ) -> str:
        """Remember one thing about the user for later conversations.

        Args:
            value: One self-contained sentence ("The user is allergic to peanuts").
            type: constraint, preference, fact, action, result or event; null to have it
                read from the value.
            when_relevant: The situation in which it should come to mind.
            entities: Named things it mentions (people, places, products, codes).
        """
        unit: dict[str, Any] = {**subject(ctx), "value": value, "source": "agent"}
        if type is not None:  # else /store reads it from the value (an allergy: constraint)
            unit["type"] = type
        if when_relevant:
            unit["query"] = when_relevant
        if entities:
            unit["entities"] = entities
        result = (await client.store([unit])).results[0]
        said = {
            "created": "Stored",
            "merged": "Already known; merged into",
            "superseded": "Stored; it replaces an older memory",
            "conflict": "Stored; it conflicts with an older memory",
        }[result.outcome]
        return f"{said}: {result.memory.value} (id {result.id})"

    @function_tool(failure_error_function=tool_error)
    async def extract_memories(
        ctx: RunContextWrapper[Any], conversation: list[Turn] | None = None
    ) -> str:
        """Turn a conversation into lasting memories (what is worth keeping is chosen for you).

        Args:
            conversation: The messages, oldest first; leave it out to use this session's.
        """
        s = subject(ctx)
        fields: dict[str, Any] = {"user_id": s["user_id"], "agent_id": s.get("agent_id")}
        if conversation:
            fields["messages"] = [t.model_dump() for t in conversation]
        elif "session_id" in s:
            fields["session_id"] = s["session_id"]
        else:
            return "invalid_arguments: give the conversation (no session is known)"
        job = await client.extract(wait=True, **{k: v for k, v in fields.items() if v})
        if job.status != "succeeded":
            return f"extraction {job.status}: {job.error or 'not finished yet'} (job {job.id})"
        if not job.units:
            return "Nothing worth remembering was found."
        return "\n".join(f"- {u.outcome}: [{u.type}] {u.value}" for u in job.units)

    @function_tool(failure_error_function=tool_error)
    async def append_to_session(
        ctx: RunContextWrapper[Any],
        content: str,
        role: Literal["user", "assistant"] = "assistant",
    ) -> str:
        """Add a note to this conversation's working memory (kept for this session).

        Args:
            content: The text to add.
            role: Who said it.
        """
        s = subject(ctx)
        if "session_id" not in s:
            return "invalid_arguments: no session is known"
        message: dict[str, Any] = {"role": role, "content": content}
        if role == "user":
            message["user_id"] = s["user_id"]
        appended = await client.append(s["session_id"], [message])
        return f"Added to the session ({appended.session.messages} messages in it)."

    tools = [recall_memory, store_memory, extract_memories]
    if include_append if include_append is not None else session_id is not None:
        tools.append(append_to_session)
    return tools
