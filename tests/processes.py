"""The ``hindsight`` command as real processes, for tests of signals, faults and scale-out:
start one with its own environment, wait until it answers, stop it and read its log."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from tests.live_api import free_port

ROOT = Path(__file__).resolve().parents[1]
# Readable logs; no worker metrics port unless a test asks for one (runs may overlap).
DEFAULTS = {"LOG_FORMAT": "text", "TOKENIZERS_PARALLELISM": "false", "WORKER__METRICS_PORT": "0"}


class Proc:
    """A running ``python -m app.cli …``; stderr goes to a file (``log()`` reads it)."""

    def __init__(self, args: list[str], env: dict[str, str], port: int | None = None) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}" if port else ""
        self._log = tempfile.NamedTemporaryFile(prefix="hindsight-proc-", suffix=".log")  # noqa: SIM115
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "app.cli", *args],
            cwd=ROOT,
            env={**os.environ, **DEFAULTS, **env},
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=self._log,
        )

    @property
    def pid(self) -> int:
        return self.popen.pid

    def log(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def wait_healthy(self, path: str = "/health", timeout_s: float = 90) -> None:
        """Until ``GET path`` answers 200 (raises with the log if the process died)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.popen.poll() is not None:
                code = self.popen.returncode
                raise AssertionError(f"process exited {code}:\n{self.log()[-3000:]}")
            try:
                if httpx.get(self.url + path, timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        tail = self.log()[-3000:]
        raise AssertionError(f"{self.url}{path} not healthy in {timeout_s} s:\n{tail}")

    def signal(self, sig: signal.Signals) -> None:
        self.popen.send_signal(sig)

    def wait(self, timeout_s: float) -> int:
        return self.popen.wait(timeout_s)

    def stop(self, timeout_s: float = 20) -> int | None:
        """SIGTERM, then SIGKILL if it does not exit in ``timeout_s``; returns the exit code."""
        terminate(self.popen, timeout_s)
        if self.popen.stdin:
            self.popen.stdin.close()
        return self.popen.returncode


def terminate(popen: subprocess.Popen[bytes], timeout_s: float = 15) -> None:
    """SIGTERM a process still running, then SIGKILL if it does not exit in ``timeout_s``."""
    if popen.poll() is None:
        popen.send_signal(signal.SIGTERM)
        try:
            popen.wait(timeout_s)
        except subprocess.TimeoutExpired:
            popen.kill()
            popen.wait(10)


def serve(env: dict[str, str], port: int | None = None) -> Proc:
    port = port or free_port()
    return Proc(["serve", "--port", str(port)], env, port)


def worker(env: dict[str, str]) -> Proc:
    return Proc(["worker"], env)


@contextmanager
def running(*procs: Proc) -> Iterator[tuple[Proc, ...]]:
    """Stop every process when the block ends, whatever happened."""
    try:
        yield procs
    finally:
        for proc in procs:
            proc.stop()


class RedisServer:
    """A private ``redis-server`` on a free loopback port (no persistence), which a test may
    kill and restart; never the shared one at 6379. ``data_dir``: a restart loads what an
    explicit ``SAVE`` wrote there (a Redis that comes back with its data)."""

    def __init__(self, data_dir: str | None = None) -> None:
        self.binary = shutil.which("redis-server")
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.data_dir = data_dir
        self.popen: subprocess.Popen[bytes] | None = None

    def start(self) -> RedisServer:
        assert self.binary, "redis-server is not installed"
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no", "--daemonize", "no"]
        if self.data_dir is not None:
            args += ["--dir", self.data_dir, "--dbfilename", "dump.rdb"]
        self.popen = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        import redis

        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if redis.Redis(port=self.port, socket_timeout=0.5).ping():
                    return self
            except redis.RedisError:
                time.sleep(0.05)
        raise AssertionError("private redis-server did not start")

    def kill(self) -> None:
        if self.popen is not None and self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait(10)
        self.popen = None
