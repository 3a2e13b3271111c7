"""The OpenAPI document generated SDKs are built from: a stable ``operationId`` on every
operation, a description, and documented RFC 9457 error responses (``application/problem+json``
with the ``Problem`` schema), 422 included wherever a request can be invalid."""

from __future__ import annotations

import re
from typing import Any

import pytest

from app.main import create_app

PROBLEM_REF = "#/components/schemas/Problem"
METHODS = {"get", "post", "put", "patch", "delete"}


@pytest.fixture(scope="module")
def spec() -> dict[str, Any]:
    return create_app().openapi()


def operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (path, method, op)
        for path, ops in spec["paths"].items()
        for method, op in ops.items()
        if method in METHODS
    ]


def takes_input(op: dict[str, Any]) -> bool:
    return bool(op.get("parameters") or op.get("requestBody"))


def test_every_operation_has_a_unique_snake_case_operation_id(spec):
    ids = [op.get("operationId") for _p, _m, op in operations(spec)]
    assert all(ids), [(p, m) for p, m, op in operations(spec) if not op.get("operationId")]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert all(re.fullmatch(r"[a-z][a-z0-9_]*", i) for i in ids), ids


def test_core_operation_ids_are_stable(spec):
    by_route = {(p, m): op["operationId"] for p, m, op in operations(spec)}
    assert by_route[("/store", "post")] == "store_memories"
    assert by_route[("/recall", "post")] == "recall_memories"
    assert by_route[("/memories/{memory_id}", "get")] == "get_memory"
    assert by_route[("/health", "get")] == "health"
    assert by_route[("/ready", "get")] == "ready"


def test_every_operation_is_described(spec):
    missing = [(p, m) for p, m, op in operations(spec) if len(op.get("description", "")) < 20]
    assert missing == []


def test_operations_that_take_input_document_422_problems(spec):
    missing = []
    for path, method, op in operations(spec):
        if not takes_input(op):
            continue
        content = op["responses"].get("422", {}).get("content", {})
        if content.get("application/problem+json", {}).get("schema") != {"$ref": PROBLEM_REF}:
            missing.append(f"{method.upper()} {path}")
    assert missing == []


def test_documented_errors_are_problem_json_only(spec):
    wrong = []
    for path, method, op in operations(spec):
        for status, response in op["responses"].items():
            if status[0] not in "45":
                continue
            content = response.get("content") or {}
            # /ready answers 503 with its own check report, /health with its own state (the
            # embedded PostgreSQL down), not a problem.
            if path in ("/ready", "/health"):
                continue
            if set(content) != {"application/problem+json"} or content[
                "application/problem+json"
            ].get("schema") != {"$ref": PROBLEM_REF}:
                wrong.append(f"{method.upper()} {path} {status}: {sorted(content)}")
    assert wrong == []


def test_core_operations_document_their_errors(spec):
    store = spec["paths"]["/store"]["post"]["responses"]
    assert {"400", "413", "422", "500", "502", "503", "504"} <= set(store)
    recall = spec["paths"]["/recall"]["post"]["responses"]
    assert {"400", "413", "422", "500", "503"} <= set(recall)
    read = spec["paths"]["/memories/{memory_id}"]["get"]["responses"]
    assert {"404", "422"} <= set(read)
    assert "idempotency_key_reused" in spec["paths"]["/store"]["post"]["description"]


def test_the_problem_schema(spec):
    problem = spec["components"]["schemas"]["Problem"]
    assert {"title", "status", "detail", "code"} <= set(problem["required"])
    assert {"type", "instance", "errors"} <= set(problem["properties"])


def test_no_default_validation_error_schema_leaks(spec):
    # FastAPI's own HTTPValidationError would mean an operation documents a JSON shape the
    # service never sends.
    schemas = spec["components"]["schemas"]
    assert "HTTPValidationError" not in schemas
