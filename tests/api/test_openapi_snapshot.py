"""The served OpenAPI document equals the committed ``docs/openapi.json``: an API change is
always deliberate (``python3 scripts/openapi_snapshot.py --write`` rewrites the copy)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from openapi_snapshot import SNAPSHOT, live_document, render  # noqa: E402


def test_live_openapi_document_equals_the_committed_copy():
    committed = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    live = json.loads(render(live_document()))
    assert live == committed, (
        "the OpenAPI document changed; if on purpose, run "
        "`python3 scripts/openapi_snapshot.py --write` and commit docs/openapi.json"
    )
