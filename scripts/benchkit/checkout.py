"""A benchmark's child process with ``app`` imported from a given checkout, so that two
checkouts are measured the same way in one run (``--compare DIR`` of the bench scripts)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any


def run_child(checkout: Path, child: str, *args: object, quiet: bool = True) -> Any:
    """Run the Python source ``child`` with ``args`` (as strings) in ``checkout`` (its
    ``app`` first on the path; ``LOG_LEVEL=WARNING`` when ``quiet``) and return the JSON of
    the last line it prints. Raises CalledProcessError when the child fails."""
    env = dict(os.environ, PYTHONPATH=str(checkout))
    if quiet:
        env["LOG_LEVEL"] = "WARNING"
    out = subprocess.run(
        [sys.executable, "-c", child, *map(str, args)],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])
