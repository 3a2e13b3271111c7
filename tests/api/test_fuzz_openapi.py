"""Property-based fuzzing of every operation in the OpenAPI document (schemathesis): valid
and invalid requests generated from docs/openapi.json (which tests/api/test_openapi_snapshot.py
keeps equal to the live document) against the service on a real port. Every answer must be
no server error, a documented status code with a documented media type, and a body (4xx:
problem+json) that matches its schema.

Bounded for CI: ``FUZZ_EXAMPLES`` examples per operation (default 8) and no deadline per
example; scripts/reliability.py runs it with 50 and writes the counts (``FUZZ_REPORT``).
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from app.core.config import Settings
from app.main import create_app
from tests.live_api import serve

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
schema = schemathesis.openapi.from_path(str(ROOT / "docs" / "openapi.json"))
COUNTS: Counter[str] = Counter()
OPERATIONS: set[str] = set()
STATUSES: Counter[int] = Counter()


@pytest.fixture(scope="module")
def live_url(database_url: str) -> Iterator[str]:
    app = create_app(Settings(database_url=database_url, redis_url=None))
    with serve(app) as url:
        yield url
    report = os.environ.get("FUZZ_REPORT")
    if report:
        Path(report).write_text(
            json.dumps(
                {
                    **COUNTS,
                    "operations": len(OPERATIONS),
                    "statuses": dict(sorted(STATUSES.items())),
                },
                indent=1,
            )
        )


@schema.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
def test_every_operation_answers_as_documented(case, live_url):
    COUNTS["cases"] += 1
    OPERATIONS.add(case.operation.label)
    if case.method.upper() != case.operation.method.upper():
        COUNTS["undocumented_method_probes"] += 1  # TRACE /recall and the like: 405
    try:
        response = case.call(base_url=live_url, timeout=60)
    except Exception:
        COUNTS["transport_errors"] += 1
        raise
    STATUSES[response.status_code] += 1
    if response.status_code >= 500:
        COUNTS["server_errors"] += 1
    if 400 <= response.status_code < 500:
        assert response.headers.get("content-type", [""])[0].startswith(
            "application/problem+json"
        ), response.text[:500]
    try:
        case.validate_response(response, checks=CHECKS)
    except Exception:
        COUNTS["non_conforming"] += 1
        raise
