"""Run the service: ``python3 scripts/serve.py [--host 127.0.0.1] [--port 8000]``.

Installs what it needs into ``.venv`` on first use. Without DATABASE_URL it starts an embedded
PostgreSQL + pgvector in HINDSIGHT_DATA_DIR; see README.md.
"""

from __future__ import annotations

import os
import sys

from _bootstrap import BIN, ensure

if __name__ == "__main__":
    ensure()
    exe = str(BIN / "hindsight")
    os.execv(exe, [exe, "serve", *sys.argv[1:]])
