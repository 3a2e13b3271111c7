"""The committed OpenAPI document, ``docs/openapi.json``, and its check.

    python3 scripts/openapi_snapshot.py           # exit 1 when the live document differs
    python3 scripts/openapi_snapshot.py --write   # rewrite docs/openapi.json from the app

The document is the one ``create_app()`` serves with default settings, written with sorted
keys so that a diff shows only what changed. ``tests/api/test_openapi_snapshot.py`` fails when the
two differ: a change of the API is then a deliberate one, made by running ``--write`` and
committing the new document with the code.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = ROOT / "docs" / "openapi.json"


def live_document() -> dict[str, Any]:
    """The OpenAPI document of ``create_app()`` (nothing is started or connected)."""
    from app.main import create_app

    return create_app().openapi()


def render(document: dict[str, Any]) -> str:
    """The canonical text of a document: sorted keys, two-space indent, final newline."""
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    live = render(live_document())
    if "--write" in argv:
        SNAPSHOT.write_text(live, encoding="utf-8")
        print(f"wrote {SNAPSHOT.relative_to(ROOT)}")
        return 0
    if SNAPSHOT.read_text(encoding="utf-8") == live:
        print(f"{SNAPSHOT.relative_to(ROOT)} is up to date")
        return 0
    print(f"{SNAPSHOT.relative_to(ROOT)} differs from the live document; run with --write")
    return 1


if __name__ == "__main__":
    if sys.prefix == sys.base_prefix:  # plain python3: re-run inside the project's venv
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from _bootstrap import ensure

        python = ensure()
        os.execv(str(python), [str(python), __file__, *sys.argv[1:]])
    sys.path.insert(0, str(ROOT))
    sys.exit(main(sys.argv[1:]))
