"""One ``hindsight serve`` per data directory while working memory is in-process.

Without ``REDIS_URL`` a server keeps the working-memory windows in its own process (fakeredis),
and without ``DATABASE_URL`` it joins the embedded PostgreSQL of ``HINDSIGHT_DATA_DIR``. A
second server on the same data directory would share the transcripts but not the windows:
messages appended through one would be missing from the other's ``GET /working_memory`` and
``/context`` (tester finding B23). So the first server holds an exclusive lock on
``<data_dir>/serve.lock`` (``flock``: the kernel releases it when the process ends, however it
ends) and a second one refuses to start, saying who holds it and what to do instead.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path
from typing import IO

LOCK_FILE = "serve.lock"


class DataDirInUse(Exception):
    """Another live process holds the data directory's serve lock; ``holder`` is its PID as
    it wrote it (empty if unreadable)."""

    def __init__(self, data_dir: Path, holder: str) -> None:
        self.data_dir = data_dir
        self.holder = holder
        who = f"process {holder}" if holder else "another process"
        super().__init__(
            f"{who} already serves {data_dir} with its working memory in-process (REDIS_URL "
            "unset); a second server there would share its database but not its "
            "working-memory windows. Use that server, set REDIS_URL so that both share "
            "working memory, or give this one another HINDSIGHT_DATA_DIR."
        )


def hold(data_dir: Path) -> IO[str]:
    """Take ``<data_dir>/serve.lock`` for this process and write its PID there. Keep the
    returned file open while serving (closing it, or the process ending, releases the lock).

    Raises :class:`DataDirInUse` if another live process holds it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    handle = (data_dir / LOCK_FILE).open("a+", encoding="utf-8")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        raise DataDirInUse(data_dir, holder) from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle
