"""Every error as RFC 9457 problem+json (``application/problem+json``) with a stable ``code``."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.core.errors import HindsightError
from app.schemas.common import Problem

log = logging.getLogger(__name__)
PROBLEM_JSON = "application/problem+json"

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "payload_too_large",
    415: "unsupported_media_type",
}


def problem(
    request: Request, status: int, title: str, detail: str, code: str, **extra: Any
) -> JSONResponse:
    """A problem+json response."""
    body = Problem(
        title=title, status=status, detail=detail, code=code, instance=request.url.path, **extra
    )
    return JSONResponse(
        jsonable_encoder(body, exclude_none=True), status_code=status, media_type=PROBLEM_JSON
    )


def _clean_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Keep location, message and type; drop the echoed input (it may be huge or binary).
    return [
        {"loc": list(e.get("loc", ())), "msg": str(e.get("msg", "")), "type": e.get("type", "")}
        for e in errors
    ]


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into problem+json."""

    @app.exception_handler(HindsightError)
    async def _hindsight(request: Request, exc: HindsightError) -> JSONResponse:
        if exc.status >= 500:
            log.error("%s: %s", exc.code, exc.detail)
        return problem(request, exc.status, exc.title, exc.detail, exc.code, **exc.extra)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = _clean_errors(list(exc.errors()))
        if any(e["type"] == "json_invalid" for e in errors):
            return problem(
                request,
                400,
                "Malformed JSON",
                "The request body is not valid JSON.",
                "malformed_json",
                errors=errors,
            )
        first = errors[0] if errors else {"loc": [], "msg": "invalid"}
        where = ".".join(str(p) for p in first["loc"] if p != "body") or "body"
        return problem(
            request,
            422,
            "Invalid request",
            f"{where}: {first['msg']}",
            "invalid_request",
            errors=errors,
        )

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        return problem(
            request, exc.status_code, code.replace("_", " ").capitalize(), str(exc.detail), code
        )

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unhandled error on %s", request.url.path)
        return problem(
            request, 500, "Internal error", "An unexpected error occurred.", "internal_error"
        )


# Documented on every operation, so generated SDKs know the error shape.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": Problem, "description": "Malformed JSON.", "content": {PROBLEM_JSON: {}}},
    422: {"model": Problem, "description": "Invalid request.", "content": {PROBLEM_JSON: {}}},
    500: {"model": Problem, "description": "Internal error.", "content": {PROBLEM_JSON: {}}},
    503: {"model": Problem, "description": "Datastore unavailable.", "content": {PROBLEM_JSON: {}}},
}
NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {
        "model": Problem,
        "description": "No such unit in your namespace.",
        "content": {PROBLEM_JSON: {}},
    },
}
PROVIDER_ERRORS: dict[int | str, dict[str, Any]] = {
    502: {
        "model": Problem,
        "description": "Embedding provider failed.",
        "content": {PROBLEM_JSON: {}},
    },
    504: {
        "model": Problem,
        "description": "Embedding provider timed out.",
        "content": {PROBLEM_JSON: {}},
    },
}
