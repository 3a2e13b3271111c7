"""Create ``.venv`` and install the project into it (once per change of pyproject.toml).

Used by scripts/serve.py and scripts/test.py so that a fresh machine needs only Python 3.11+.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")


def ensure(extras: str = "") -> Path:
    """Return the venv's python, after installing the project (with ``extras``) if needed."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this file runs under any python3
        sys.exit(f"Hindsight needs Python 3.11 or newer (this is {sys.version.split()[0]})")
    python = BIN / "python"
    if not python.exists():
        print(f"creating virtual environment in {VENV}", file=sys.stderr)
        venv.EnvBuilder(with_pip=True).create(VENV)
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes() + extras.encode()).hexdigest()
    stamp = VENV / f".installed-{extras or 'base'}"
    if not stamp.exists() or stamp.read_text() != digest:
        target = f"{ROOT}[{extras}]" if extras else str(ROOT)
        print(f"installing {target} into {VENV}", file=sys.stderr)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "--upgrade", "pip"], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", "-e", target], check=True)
        stamp.write_text(digest)
    return python
