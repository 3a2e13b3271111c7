"""``docs/API.md`` is the page ``scripts/api_reference.py`` renders from ``docs/openapi.json``
(itself pinned to the app by tests/test_openapi_snapshot.py): the reference never lags the
API."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

from api_reference import PAGE, SPEC, render  # noqa: E402


def test_api_reference_is_current():
    document = json.loads(SPEC.read_text(encoding="utf-8"))
    assert PAGE.read_text(encoding="utf-8") == render(document), (
        "docs/API.md is stale: run `python3 scripts/api_reference.py --write` and commit it"
    )


def test_api_reference_names_every_operation_and_schema():
    document = json.loads(SPEC.read_text(encoding="utf-8"))
    page = PAGE.read_text(encoding="utf-8")
    for path, ops in document["paths"].items():
        for method, op in ops.items():
            assert f"### `{method.upper()} {path}`" in page
            assert f"`{op['operationId']}`" in page
    for name in document["components"]["schemas"]:
        assert f"### {name}\n" in page
