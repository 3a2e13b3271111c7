"""Clean shutdown on SIGTERM, SIGINT and SIGHUP for the processes the ``hindsight`` command
runs (``serve``, ``worker``, ``mcp``).

SIGTERM is what ``docker stop``, systemd and Kubernetes send; SIGINT is Ctrl-C; SIGHUP comes
when the terminal goes away. Each one means "stop accepting work, let what is in flight finish
for at most ``SHUTDOWN_TIMEOUT_S`` seconds, release what you hold, exit 0". A second signal
while draining stops at once (what is still in flight is cancelled).

uvicorn's own ``Server`` re-raises a caught SIGTERM after its shutdown, so the process dies
by the signal before the caller's ``finally`` runs (which is where ``hindsight serve`` stops
its embedded PostgreSQL); :class:`GracefulServer` returns normally instead.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
from collections.abc import Callable, Generator
from types import FrameType

import uvicorn
from starlette.types import ASGIApp

log = logging.getLogger("hindsight")

STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


class GracefulServer(uvicorn.Server):
    """A uvicorn server that drains on any of :data:`STOP_SIGNALS` (new connections refused,
    in-flight requests get ``config.timeout_graceful_shutdown`` seconds, then the app's
    lifespan shutdown runs) and then returns from :meth:`run` instead of re-raising the
    signal. ``on_stop`` callbacks run (in the event loop's thread) when the first signal
    arrives, so other work (the in-process worker) drains at the same time as requests."""

    def __init__(self, config: uvicorn.Config, on_stop: list[Callable[[], None]] | None = None):
        super().__init__(config)
        self.on_stop = list(on_stop or [])
        self.received: signal.Signals | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        if threading.current_thread() is not threading.main_thread():
            yield  # signals reach the main thread only (tests run servers in threads)
            return
        original = {sig: signal.signal(sig, self.handle_exit) for sig in STOP_SIGNALS}
        try:
            yield
        finally:
            for sig, handler in original.items():
                signal.signal(sig, handler)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.should_exit:
            log.warning("second stop signal: cancelling what is still in flight")
            self.force_exit = True
            return
        self.received = signal.Signals(sig)
        log.warning(
            "received %s: draining (in-flight requests and jobs get at most %s s; closing the "
            "stores and the embedded database follows)",
            self.received.name,
            self.config.timeout_graceful_shutdown,
        )
        self.should_exit = True
        for callback in self.on_stop:
            try:
                callback()
            except Exception:  # noqa: BLE001 - one failing hook must not stop the drain
                log.exception("stop hook failed")


def serve(
    app: ASGIApp,
    host: str,
    port: int,
    timeout_s: float,
    on_stop: list[Callable[[], None]] | None = None,
) -> None:
    """Run ``app`` on ``host:port`` until a stop signal; returns once drained."""
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_config=None,  # our (JSON) logging, like everything else
        access_log=False,
        # uvicorn annotates int but uses it as an asyncio.timeout(), where seconds may be
        # fractional (SHUTDOWN_TIMEOUT_S is a float).
        timeout_graceful_shutdown=timeout_s,  # type: ignore[arg-type]
    )
    GracefulServer(config, on_stop).run()
