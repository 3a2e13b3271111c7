"""Run the whole test suite: ``python3 scripts/test.py [pytest args]``.

Installs the project with its test extras into ``.venv`` on first use. Tests start their own
embedded PostgreSQL + pgvector and use the Redis at REDIS_URL (default redis://127.0.0.1:6379).
"""

from __future__ import annotations

import subprocess
import sys

from _bootstrap import ROOT, ensure

if __name__ == "__main__":
    python = ensure("test")
    code = subprocess.call([str(python), "-m", "pytest", *sys.argv[1:]], cwd=ROOT)
    sys.exit(code)
