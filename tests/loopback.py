"""An HTTP server on 127.0.0.1 for tests: the base of the scripted stand-ins of remote APIs
(tests/fake_llm.py, tests/fake_embeddings.py)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self


class JSONHandler(BaseHTTPRequestHandler):
    """A quiet request handler that reads JSON request bodies."""

    def log_message(self, *args: Any) -> None:  # quiet
        pass

    def read_json(self) -> Any:
        """The request's JSON body ({} when empty)."""
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}")


class LoopbackServer:
    """Runs a request handler on a free port of 127.0.0.1 in a daemon thread, between
    :meth:`start` and :meth:`stop`; ``base_url`` ends in ``/v1`` (the OpenAI API's prefix)."""

    def _serve(self, handler: type[BaseHTTPRequestHandler]) -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def start(self) -> Self:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
