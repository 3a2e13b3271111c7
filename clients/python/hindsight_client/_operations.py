"""Every operation of the API as a :class:`Call`: method, path, query, body and the model of
the answer. Both clients send these; ``OPERATIONS`` maps each ``operationId`` of the OpenAPI
document to the client method that calls it (a test fails when the two drift apart)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from hindsight_client import models as m

T = TypeVar("T")

# operationId → (HTTP method, path template, client method name)
OPERATIONS: dict[str, tuple[str, str, str]] = {
    "health": ("GET", "/health", "health"),
    "ready": ("GET", "/ready", "ready"),
    "metrics": ("GET", "/metrics", "metrics"),
    "store_memories": ("POST", "/store", "store"),
    "recall_memories": ("POST", "/recall", "recall"),
    "list_memories": ("GET", "/memories", "list_memories"),
    "forget_subject": ("DELETE", "/memories", "forget_subject"),
    "get_memory": ("GET", "/memories/{memory_id}", "get_memory"),
    "update_memory": ("PATCH", "/memories/{memory_id}", "update_memory"),
    "forget_memory": ("DELETE", "/memories/{memory_id}", "forget_memory"),
    "get_memory_history": ("GET", "/memories/{memory_id}/history", "memory_history"),
    "list_reviews": ("GET", "/reviews", "list_reviews"),
    "get_review": ("GET", "/reviews/{review_id}", "get_review"),
    "decide_review": ("POST", "/reviews/{review_id}", "decide_review"),
    "summarize_memories": ("POST", "/summarize", "summarize"),
    "list_subjects": ("GET", "/subjects", "list_subjects"),
    "get_stats": ("GET", "/stats", "stats"),
    "append_working_memory": ("POST", "/working_memory/{session_id}/messages", "append"),
    "get_working_memory": ("GET", "/working_memory/{session_id}", "window"),
    "clear_working_memory": ("DELETE", "/working_memory/{session_id}", "clear_window"),
    "close_session": ("POST", "/working_memory/{session_id}/close", "close_session"),
    "extract_memories": ("POST", "/extract", "extract"),
    "list_extraction_jobs": ("GET", "/extract", "list_extraction_jobs"),
    "get_extraction_job": ("GET", "/extract/{job_id}", "extraction_job"),
    "retry_extraction_job": ("POST", "/extract/{job_id}/retry", "retry_extraction_job"),
    "get_context": ("GET", "/context", "context"),
    "list_entities": ("GET", "/entities", "list_entities"),
    "get_entity": ("GET", "/entities/{name}", "entity"),
}


@dataclass
class Call(Generic[T]):
    """One request and how to read its answer (``model`` None: JSON as is; ``str``: text)."""

    method: str
    path: str
    model: Any = None
    params: dict[str, Any] = field(default_factory=dict)
    json: Any = None

    def parse(self, response: httpx.Response) -> T:
        # ``model`` decides the type of the answer; the operation that built the Call
        # declared it as T.
        if self.model is str:
            return cast(T, response.text)
        data: Any = response.json() if response.content else None
        if self.model is None:
            return cast(T, data)
        return cast(T, self.model.model_validate(data))


def _seg(value: str) -> str:
    return quote(str(value), safe="")


def _dump(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json", exclude_unset=True)
    if isinstance(value, list | tuple):
        return [_dump(v) for v in value]
    if isinstance(value, dict):
        return {k: _dump(v) for k, v in value.items()}
    return value


def drop_none(values: dict[str, Any]) -> dict[str, Any]:
    """The arguments that were given (None means: leave it to the server's default)."""
    return {k: _dump(v) for k, v in values.items() if v is not None}


def _query(values: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in drop_none(values).items():
        if isinstance(v, bool):
            out[k] = "true" if v else "false"
        elif hasattr(v, "isoformat"):
            out[k] = v.isoformat()
        else:
            out[k] = v
    return out


def health() -> Call[dict[str, str]]:
    return Call("GET", "/health")


def ready() -> Call[Any]:
    return Call("GET", "/ready")


def metrics() -> Call[str]:
    return Call("GET", "/metrics", str)


def store(memories: list[Any]) -> Call[m.StoreResponse]:
    return Call("POST", "/store", m.StoreResponse, json={"memories": _dump(list(memories))})


def _field(item: Any, name: str) -> Any:
    return item.get(name) if isinstance(item, dict) else getattr(item, name, None)


def token_parts(
    memories: list[Any], problem_errors: list[dict[str, Any]], text: str = "value"
) -> list[list[Any]] | None:
    """Where to cut a ``/store`` batch or a working-memory append that the service refused
    for its size in model tokens (a 422 whose ``errors[0]`` has ``type`` ``too_many_tokens``,
    the ``limit`` and each item's ``item_tokens`` in order): consecutive parts, each within
    the limit by those counts, counted as the service counts a request: each distinct text
    once. The service counts a text repeated in the request only at its first copy (its
    repeats show 0 more tokens); a part that does not hold that first copy pays it again,
    at its first repeat (``text``: the item's field holding its text, ``value`` for a unit,
    ``content`` for a message). None for any other 422, for a batch of one item, or when one
    item alone is over the limit (nothing to split: shorten it).

    A batch over the service's number of items (a 422 whose ``errors[0]`` has ``type``
    ``too_long`` and the ``limit``: more than 100 messages or units) is cut into consecutive
    parts of ``limit`` items."""
    first = problem_errors[0] if problem_errors else {}
    counts, limit = first.get("item_tokens"), first.get("limit")
    if first.get("type") == "too_long" and isinstance(limit, int) and 0 < limit < len(memories):
        return [memories[i : i + limit] for i in range(0, len(memories), limit)]
    if (
        first.get("type") != "too_many_tokens"
        or not isinstance(counts, list)
        or not isinstance(limit, int)
        or len(counts) != len(memories)
        or len(memories) < 2
        or any(not isinstance(n, int) or n > limit for n in counts)
    ):
        return None
    text_tokens: dict[Any, int] = {}  # a text's tokens, at its first copy in the request
    parts: list[list[Any]] = [[]]
    held: set[Any] = set()  # the texts of the part being filled
    used = 0
    for unit, n in zip(memories, counts, strict=True):
        key = _field(unit, text)
        key = key if isinstance(key, str) else None
        repeat = key is not None and key in text_tokens
        if key is not None and not repeat:
            text_tokens[key] = n
        # A repeat pays its text's tokens in a part that does not hold the text yet.
        extra = text_tokens[key] if repeat else 0
        cost = n if key in held else n + extra
        if parts[-1] and used + cost > limit:
            parts.append([])
            held = set()
            used, cost = 0, n + extra
        used += cost
        parts[-1].append(unit)
        if key is not None:
            held.add(key)
    return parts if len(parts) > 1 else None


def recall(query: str, fields: dict[str, Any]) -> Call[m.RecallResponse]:
    return Call("POST", "/recall", m.RecallResponse, json={"query": query, **drop_none(fields)})


def list_memories(filters: dict[str, Any]) -> Call[m.MemoryPage]:
    return Call("GET", "/memories", m.MemoryPage, params=_query(filters))


def forget_subject(user_id: str | None, agent_id: str | None) -> Call[m.ForgetReceipt]:
    params = _query({"user_id": user_id, "agent_id": agent_id})
    return Call("DELETE", "/memories", m.ForgetReceipt, params=params)


def get_memory(memory_id: str, user_id: str | None) -> Call[m.MemoryDetail]:
    params = _query({"user_id": user_id})
    return Call("GET", f"/memories/{_seg(memory_id)}", m.MemoryDetail, params=params)


def update_memory(
    memory_id: str, fields: dict[str, Any], user_id: str | None = None
) -> Call[m.UpdateResult]:
    # Every field given is sent, None too: ``expires_at=None`` pins the unit (never expires).
    body = {k: _dump(v) for k, v in fields.items()}
    path, params = f"/memories/{_seg(memory_id)}", _query({"user_id": user_id})
    return Call("PATCH", path, m.UpdateResult, params=params, json=body)


def forget_memory(
    memory_id: str, user_id: str | None = None, parts: str | None = None
) -> Call[m.ForgetReceipt]:
    params = _query({"user_id": user_id, "parts": parts})
    return Call("DELETE", f"/memories/{_seg(memory_id)}", m.ForgetReceipt, params=params)


def list_reviews(filters: dict[str, Any]) -> Call[m.ReviewPage]:
    return Call("GET", "/reviews", m.ReviewPage, params=_query(filters))


def get_review(review_id: str, user_id: str | None = None) -> Call[m.ReviewRead]:
    params = _query({"user_id": user_id})
    return Call("GET", f"/reviews/{_seg(review_id)}", m.ReviewRead, params=params)


def decide_review(review_id: str, action: str, user_id: str | None = None) -> Call[m.ReviewDecided]:
    path, params = f"/reviews/{_seg(review_id)}", _query({"user_id": user_id})
    return Call("POST", path, m.ReviewDecided, params=params, json={"action": action})


def memory_history(memory_id: str, user_id: str | None = None) -> Call[m.MemoryHistory]:
    params = _query({"user_id": user_id})
    return Call("GET", f"/memories/{_seg(memory_id)}/history", m.MemoryHistory, params=params)


def summarize(fields: dict[str, Any]) -> Call[m.SummarizeResponse]:
    return Call("POST", "/summarize", m.SummarizeResponse, json=drop_none(fields))


def list_subjects(params: dict[str, Any]) -> Call[m.SubjectPage]:
    return Call("GET", "/subjects", m.SubjectPage, params=_query(params))


def stats(user_id: str | None, agent_id: str | None) -> Call[m.StatsResponse]:
    params = _query({"user_id": user_id, "agent_id": agent_id})
    return Call("GET", "/stats", m.StatsResponse, params=params)


def append(
    session_id: str, messages: list[Any], user_id: str | None = None
) -> Call[m.AppendResponse]:
    path, params = f"/working_memory/{_seg(session_id)}/messages", _query({"user_id": user_id})
    body = {"messages": _dump(list(messages))}
    return Call("POST", path, m.AppendResponse, params=params, json=body)


def join_appends(answers: list[m.AppendResponse]) -> m.AppendResponse:
    """One answer for consecutive appends of one session (the parts of a split append): the
    seqs, tokens and ``embedded_first_window`` of each in order, the session's size after
    the last."""
    return answers[-1].model_copy(
        update={
            "seqs": [s for a in answers for s in a.seqs],
            "tokens": [t for a in answers for t in a.tokens],
            "embedded_first_window": [s for a in answers for s in a.embedded_first_window or []],
        }
    )


def join_stores(answers: list[m.StoreResponse]) -> m.StoreResponse:
    """One answer for the parts of a split store: their results in order."""
    return m.StoreResponse(results=[r for a in answers for r in a.results])


def partly_written(exc: Any, answers: list[Any], join: Any) -> None:
    """Part ``len(answers)`` of a split call failed with ``exc``: its ``written`` becomes the
    joined answer of the parts before it and of what the failing part itself wrote (its
    own ``written``, when it was split further); None when nothing was written."""
    done = [*answers, *([exc.written] if exc.written is not None else [])]
    exc.written = join(done) if done else None


def window(session_id: str, params: dict[str, Any]) -> Call[m.WindowResponse]:
    path = f"/working_memory/{_seg(session_id)}"
    return Call("GET", path, m.WindowResponse, params=_query(params))


def clear_window(
    session_id: str, purge: bool | None, user_id: str | None = None
) -> Call[m.ClearResponse]:
    path = f"/working_memory/{_seg(session_id)}"
    params = _query({"purge": purge, "user_id": user_id})
    return Call("DELETE", path, m.ClearResponse, params=params)


def close_session(session_id: str, fields: dict[str, Any]) -> Call[m.CloseResponse]:
    # ``user_id`` is the subject of the extraction (body) and the session's scope (query).
    path, params = (
        f"/working_memory/{_seg(session_id)}/close",
        _query({"user_id": fields.get("user_id")}),
    )
    return Call("POST", path, m.CloseResponse, params=params, json=drop_none(fields))


def extract(fields: dict[str, Any], wait: bool | None) -> Call[m.ExtractJobRead]:
    return Call(
        "POST", "/extract", m.ExtractJobRead, params=_query({"wait": wait}), json=drop_none(fields)
    )


def list_extraction_jobs(params: dict[str, Any]) -> Call[m.JobPage]:
    return Call("GET", "/extract", m.JobPage, params=_query(params))


def extraction_job(job_id: str, user_id: str | None = None) -> Call[m.ExtractJobRead]:
    params = _query({"user_id": user_id})
    return Call("GET", f"/extract/{_seg(job_id)}", m.ExtractJobRead, params=params)


def retry_extraction_job(job_id: str, user_id: str | None = None) -> Call[m.ExtractJobRead]:
    params = _query({"user_id": user_id})
    return Call("POST", f"/extract/{_seg(job_id)}/retry", m.ExtractJobRead, params=params)


def context(params: dict[str, Any]) -> Call[m.ContextResponse]:
    return Call("GET", "/context", m.ContextResponse, params=_query(params))


def list_entities(params: dict[str, Any]) -> Call[m.EntityPage]:
    return Call("GET", "/entities", m.EntityPage, params=_query(params))


def entity(name: str, params: dict[str, Any]) -> Call[m.EntityProfile]:
    return Call("GET", f"/entities/{_seg(name)}", m.EntityProfile, params=_query(params))
