"""A real HTTP server on 127.0.0.1 speaking the OpenAI chat-completions API with scripted
replies, for tests. Each POST /v1/chat/completions takes the next scripted :class:`Reply`
(or the default one when the script is empty) and records the request body."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer: ``content`` as the assistant message, or an HTTP ``status``
    with a raw body; ``delay_s`` before answering (for timeouts)."""

    content: str | None = None
    status: int = 200
    delay_s: float = 0.0
    raw: str | None = None


class FakeLLM:
    """Start with :meth:`start`, stop with :meth:`stop`; ``base_url`` ends in ``/v1``."""

    def __init__(self) -> None:
        self.script: deque[Reply] = deque()
        self.default = Reply(content='{"memories": []}')
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake._lock:
                    fake.requests.append(body)
                    reply = fake.script.popleft() if fake.script else fake.default
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if not self.path.endswith("/chat/completions"):
                    self._send(404, '{"error": "not found"}')
                    return
                if reply.status != 200:
                    self._send(reply.status, reply.raw or '{"error": {"message": "boom"}}')
                    return
                payload = reply.raw or json.dumps(
                    {
                        "id": "chatcmpl-test",
                        "object": "chat.completion",
                        "model": body.get("model"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply.content},
                                "finish_reason": "stop",
                            }
                        ],
                    }
                )
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

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeLLM:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def push(self, *replies: Reply) -> None:
        """Script the next answers, in order."""
        with self._lock:
            self.script.extend(replies)

    def reset(self) -> None:
        with self._lock:
            self.script.clear()
            self.requests.clear()
            self.default = Reply(content='{"memories": []}')


def units_json(*units: dict[str, Any]) -> str:
    """An extraction reply carrying ``units``."""
    return json.dumps({"memories": list(units)}, ensure_ascii=False)
