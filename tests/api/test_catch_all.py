"""An exception no handler takes is answered as problem+json (500 ``internal_error``, or 503
``datastore_unavailable`` when it says a datastore is unreachable, also from inside an
exception group) *and the keep-alive connection stays usable*: Starlette's own catch-all
re-raised after answering and uvicorn then closed the connection, so the client's next
request on it got no answer at all (the PostgreSQL-restart test's "1 × 500, 1 × no answer")."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest

from app.main import create_app
from tests.live_api import serve


@pytest.fixture(scope="module")
def url(settings) -> Iterator[str]:  # type: ignore[no-untyped-def]
    app = create_app(settings)

    async def boom() -> None:
        raise RuntimeError("a bug")

    async def gone() -> None:
        raise ExceptionGroup("a task group", [ValueError("x"), ConnectionRefusedError(111, "no")])

    app.add_api_route("/test-boom", boom)
    app.add_api_route("/test-gone", gone)
    with serve(app) as base:
        yield base


def _exchange(sock: socket.socket, path: str) -> bytes:
    """One GET on an open keep-alive connection; the raw answer (b"" if the server closed)."""
    host = sock.getpeername()
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host[0]}:{host[1]}\r\n\r\n".encode())
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    while len(body) < length:
        chunk = sock.recv(65536)
        if not chunk:
            break
        body += chunk
    return head + b"\r\n\r\n" + body


@pytest.mark.parametrize(
    ("path", "status", "code"),
    [("/test-boom", 500, b"internal_error"), ("/test-gone", 503, b"datastore_unavailable")],
)
def test_an_unhandled_error_is_problem_json_on_a_connection_that_stays_open(
    url, path, status, code
):
    where = urlsplit(url)
    with socket.create_connection((where.hostname, where.port), timeout=10) as sock:
        first = _exchange(sock, path)
        assert first.startswith(f"HTTP/1.1 {status} ".encode()), first[:200]
        # the same connection answers the next request
        second = _exchange(sock, "/health")
        assert second.startswith(b"HTTP/1.1 200 "), second[:200]
    assert b"content-type: application/problem+json" in first.lower()
    assert b'"code":"' + code + b'"' in first
    assert b"x-request-id:" in first.lower()  # answered inside the request-id middleware
    if status == 503:
        assert b"retry-after:" in first.lower()
