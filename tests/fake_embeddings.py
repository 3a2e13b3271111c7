"""A real HTTP server on 127.0.0.1 speaking the OpenAI embeddings API (``POST
/v1/embeddings``) with deterministic vectors of any dimension: each lower-cased word adds 1 to
the component its CRC-32 picks, so texts that share words are close by cosine similarity."""

from __future__ import annotations

import json
import re
import zlib

from tests.loopback import JSONHandler, LoopbackServer

_WORD = re.compile(r"\w+")


def embed(text: str, dimension: int) -> list[float]:
    """The vector of ``text`` (not normalised; the client normalises)."""
    vector = [0.0] * dimension
    for word in _WORD.findall(text.lower()):
        vector[zlib.crc32(word.encode()) % dimension] += 1.0
    if not any(vector):
        vector[0] = 1.0
    return vector


class FakeEmbeddings(LoopbackServer):
    """``start()`` / ``stop()``; ``base_url`` ends in ``/v1``; ``calls`` counts requests."""

    def __init__(self, dimension: int) -> None:
        self.dimension = dimension
        self.calls = 0
        fake = self

        class Handler(JSONHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's naming
                body = self.read_json()
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

        self._serve(Handler)
