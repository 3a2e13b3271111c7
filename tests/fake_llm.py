"""A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions API with scripted
replies, for tests and benchmarks. Each POST /v1/chat/completions takes the next scripted
:class:`Reply` (when the script is empty: ``responder(body)`` if set, else the default one)
and records the request body.

For the recall rerank stage, :func:`order_reply` answers with a chosen order and
:func:`reversed_order` builds a responder that lists the prompt's candidate labels in reverse,
both after a chosen delay."""

from __future__ import annotations

import json
import re
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tests.loopback import JSONHandler, LoopbackServer


@dataclass
class Reply:
    """One scripted answer: ``content`` as the assistant message, or an HTTP ``status``
    with a raw body; ``delay_s`` before answering (for timeouts); ``usage`` as the answer's
    token counts (``{"prompt_tokens": …, "completion_tokens": …}``), omitted when None;
    ``tool_calls`` (see :func:`tool_call`) makes the answer a call of those tools
    (``finish_reason: tool_calls``)."""

    content: str | None = None
    status: int = 200
    delay_s: float = 0.0
    raw: str | None = None
    usage: dict[str, int] | None = None
    tool_calls: list[dict[str, Any]] | None = None


class FakeLLM(LoopbackServer):
    """Start with :meth:`start`, stop with :meth:`stop`; ``base_url`` ends in ``/v1``."""

    def __init__(self) -> None:
        self.script: deque[Reply] = deque()
        self.default = Reply(content='{"memories": []}')
        self.responder: Callable[[dict[str, Any]], Reply] | None = None
        self.requests: list[dict[str, Any]] = []
        # GET /v1/models (the service's reachability probe): the answers' status, and the
        # paths asked.
        self.models_status = 200
        self.models_delay_s = 0.0
        self.gets: list[str] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(JSONHandler):
            def do_GET(self) -> None:  # noqa: N802 - http.server's naming
                with fake._lock:
                    fake.gets.append(self.path)
                if fake.models_delay_s:
                    time.sleep(fake.models_delay_s)
                if self.path.endswith("/models"):
                    self._send(fake.models_status, '{"object": "list", "data": []}')
                else:
                    self._send(404, '{"error": "not found"}')

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = self.read_json()
                with fake._lock:
                    fake.requests.append(body)
                    if fake.script:
                        reply = fake.script.popleft()
                    elif fake.responder is not None:
                        reply = fake.responder(body)
                    else:
                        reply = fake.default
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if not self.path.endswith("/chat/completions"):
                    self._send(404, '{"error": "not found"}')
                    return
                if reply.status != 200:
                    self._send(reply.status, reply.raw or '{"error": {"message": "boom"}}')
                    return
                message: dict[str, Any] = {"role": "assistant", "content": reply.content}
                if reply.tool_calls:
                    message["tool_calls"] = reply.tool_calls
                answer: dict[str, Any] = {
                    "id": "chatcmpl-test",
                    "object": "chat.completion",
                    "created": int(time.time()),
                    "model": body.get("model"),
                    "choices": [
                        {
                            "index": 0,
                            "message": message,
                            "finish_reason": "tool_calls" if reply.tool_calls else "stop",
                        }
                    ],
                }
                if reply.usage is not None:
                    answer["usage"] = reply.usage
                payload = reply.raw or json.dumps(answer)
                self._send(200, payload)

            def _send(self, status: int, text: str) -> None:
                data = text.encode()
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout tests)

        self._serve(Handler)

    def push(self, *replies: Reply) -> None:
        """Script the next answers, in order."""
        with self._lock:
            self.script.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self.script.clear()
            self.requests.clear()
            self.default = Reply(content='{"memories": []}')
            self.responder = None
            self.models_status = 200
            self.models_delay_s = 0.0
            self.gets.clear()


def tool_call(name: str, call_id: str = "call_1", **arguments: Any) -> dict[str, Any]:
    """One entry of :attr:`Reply.tool_calls`: the model calls ``name`` with ``arguments``."""
    return {
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
    }


def units_json(*units: dict[str, Any]) -> str:
    """An extraction reply carrying ``units``."""
    return json.dumps({"memories": list(units)}, ensure_ascii=False)


_LABEL_LINE = re.compile(r"^\[(\d+)\] ", re.MULTILINE)


def prompt_labels(body: dict[str, Any]) -> list[int]:
    """The candidate labels (``[n] …`` lines) of a rerank request's last message, in order."""
    return [int(n) for n in _LABEL_LINE.findall(body["messages"][-1]["content"])]


def order_reply(
    order: list[Any], delay_s: float = 0.0, usage: dict[str, int] | None = None
) -> Reply:
    """A rerank answer ``{"order": order}`` after ``delay_s``."""
    return Reply(content=json.dumps({"order": order}), delay_s=delay_s, usage=usage)


def reversed_order(delay_s: float = 0.0) -> Callable[[dict[str, Any]], Reply]:
    """A responder listing the prompt's labels last-first after ``delay_s``, with usage
    counted as characters / 4 (a stand-in for a tokenizer)."""

    def respond(body: dict[str, Any]) -> Reply:
        labels = prompt_labels(body)[::-1]
        prompt = sum(len(m["content"]) for m in body["messages"]) // 4
        usage = {"prompt_tokens": prompt, "completion_tokens": 3 + 2 * len(labels)}
        return order_reply(labels, delay_s, usage)

    return respond
