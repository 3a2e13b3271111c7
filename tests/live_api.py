"""A real HTTP server on 127.0.0.1 for tests that need one (MCP, generated clients):
uvicorn in a background thread with its own event loop, stopped when the block ends."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(app: Any, startup_timeout_s: float = 60.0) -> Iterator[str]:
    """Serve ``app`` on a free loopback port; yields its base URL."""
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, name=f"uvicorn-{port}", daemon=True)
    thread.start()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + startup_timeout_s
    try:
        while True:
            if server.started:
                break
            if not thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"test API did not start on {url}")
            time.sleep(0.05)
        assert httpx.get(f"{url}/health", timeout=5).status_code == 200
        yield url
    finally:
        server.should_exit = True
        thread.join(timeout=30)
