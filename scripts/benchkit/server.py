"""The service (``python -m app.cli serve``, what ``hindsight serve`` runs) in a subprocess,
for benchmarks that measure it over real HTTP.

:func:`service` starts it on the embedded default (no ``DATABASE_URL``, no ``REDIS_URL``: a
fresh embedded PostgreSQL + pgvector in ``HINDSIGHT_DATA_DIR``) or on a given database, waits
until it answers, yields its base URL and stops it (SIGINT, then SIGKILL after 20 s).
:func:`running_service` is the same for asyncio callers."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def port_in_use(port: int, host: str = "127.0.0.1") -> bool:
    """True when something accepts connections on ``host:port``."""
    with socket.socket() as s:
        s.settimeout(0.5)
        return s.connect_ex((host, port)) == 0


def spawn(
    port: int,
    workdir: Path,
    database_url: str | None = None,
    *,
    root: Path = ROOT,
    env: dict[str, str | None] | None = None,
) -> subprocess.Popen[bytes]:
    """Start the service of the checkout ``root`` on ``127.0.0.1:port`` with
    ``HINDSIGHT_DATA_DIR=workdir`` (its log in ``workdir/service-PORT.log``). Without
    ``database_url`` it runs on the embedded default: ``DATABASE_URL`` and ``REDIS_URL`` are
    removed from its environment, and it runs in ``workdir`` so no ``.env`` of the checkout
    changes that. With ``database_url`` it runs in ``root`` with the rest of the environment
    as it is. ``env`` adds variables last (a value of None removes one). ``root``'s ``app`` is
    first on the child's path, whatever the virtualenv installed."""
    if port_in_use(port):
        raise SystemExit(f"port {port} is busy: pick another with --port")
    child = dict(os.environ, HINDSIGHT_DATA_DIR=str(workdir), PYTHONPATH=str(root))
    if database_url:
        child["DATABASE_URL"] = database_url
    else:
        child.pop("DATABASE_URL", None)
        child.pop("REDIS_URL", None)
    for name, value in (env or {}).items():
        if value is None:
            child.pop(name, None)
        else:
            child[name] = value
    log = log_path(workdir, port).open("wb")
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "app.cli", "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=workdir if database_url is None else root,
            env=child,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    finally:
        log.close()  # the child holds its own descriptor


def log_path(workdir: Path, port: int) -> Path:
    """Where :func:`spawn` writes the log of the service on ``port``."""
    return workdir / f"service-{port}.log"


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGINT (the service drains and stops its embedded PostgreSQL), SIGKILL after 20 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(5)


def log_tail(path: Path, lines: int = 30) -> str:
    """The last lines of a service's log (for error messages)."""
    if not path.exists():
        return ""
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def wait_ready(
    proc: subprocess.Popen[bytes], base: str, log: Path, path: str, timeout_s: float
) -> None:
    """Poll ``base + path`` until it answers 200 (raises when the process exits first)."""
    deadline = time.monotonic() + timeout_s
    with httpx.Client(base_url=base, timeout=2.0) as client:
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                what = f"exited with {proc.returncode}"
                raise SystemExit(f"service {what}; last lines of {log}:\n{log_tail(log)}")
            with contextlib.suppress(httpx.TransportError):
                if client.get(path).status_code == 200:
                    return
            time.sleep(0.25)
    what = f"did not answer {path} within {timeout_s:.0f} s"
    raise SystemExit(f"service {what}; last lines of {log}:\n{log_tail(log)}")


@contextlib.contextmanager
def service(
    port: int | None = None,
    workdir: Path | None = None,
    database_url: str | None = None,
    ready_path: str = "/ready",
    timeout_s: float = 180.0,
    *,
    root: Path = ROOT,
    env: dict[str, str | None] | None = None,
) -> Iterator[str]:
    """The service (:func:`spawn`) on ``port`` (a free one when None), once ``ready_path``
    answers; yields ``http://127.0.0.1:port`` and stops it after the block. ``workdir`` None:
    a fresh temporary folder, deleted afterwards."""
    tmp = workdir or Path(tempfile.mkdtemp(prefix="hindsight-bench-"))
    os.chmod(tmp, 0o755)  # the embedded server runs as another user when we are root
    port = port or free_port()
    proc = spawn(port, tmp, database_url, root=root, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_ready(proc, base, log_path(tmp, port), ready_path, timeout_s)
        yield base
    finally:
        stop(proc)
        if workdir is None:
            shutil.rmtree(tmp, ignore_errors=True)


@contextlib.asynccontextmanager
async def running_service(
    database_url: str | None,
    workdir: Path,
    port: int | None = None,
    ready_path: str = "/health",
    timeout_s: float = 120.0,
    *,
    root: Path = ROOT,
    env: dict[str, str | None] | None = None,
) -> AsyncIterator[str]:
    """:func:`service` for asyncio code (``workdir`` is kept; None ``database_url``: the
    embedded default)."""
    port = port or free_port()
    proc = spawn(port, workdir, database_url, root=root, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        await asyncio.to_thread(
            wait_ready, proc, base, log_path(workdir, port), ready_path, timeout_s
        )
        yield base
    finally:
        await asyncio.to_thread(stop, proc)
