"""A real HTTP server on 127.0.0.1 speaking the OpenAI embeddings API (``POST
/v1/embeddings``) with deterministic vectors of any dimension: each lower-cased word adds 1 to
the component its CRC-32 picks, so texts that share words are close by cosine similarity."""

from __future__ import annotations

import json
import re
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_WORD = re.compile(r"\w+")


def embed(text: str, dimension: int) -> list[float]:
    """The vector of ``text`` (not normalised; the client normalises)."""
    vector = [0.0] * dimension
    for word in _WORD.findall(text.lower()):
        vector[zlib.crc32(word.encode()) % dimension] += 1.0
    if not any(vector):
        vector[0] = 1.0
    return vector


class FakeEmbeddings:
    """``start()`` / ``stop()``; ``base_url`` ends in ``/v1``; ``calls`` counts requests."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.calls = 0
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                fake.calls += 1
                texts = body.get("input") or []
                texts = [texts] if isinstance(texts, str) else texts
                data = [
                    {"object": "embedding", "index": i, "embedding": embed(t, fake.dimension)}
                    for i, t in enumerate(texts)
                ]
                payload = json.dumps({"object": "list", "data": data, "model": body.get("model")})
                raw = payload.encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def start(self) -> FakeEmbeddings:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
