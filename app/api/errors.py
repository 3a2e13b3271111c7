"""Every error as RFC 9457 problem+json (``application/problem+json``) with a stable ``code``."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from app.api.messages import friendly
from app.api.strict_body import NotUtf8Error, content_encoding
from app.core.errors import DatastoreUnavailableError, HindsightError
from app.core.outage import DATASTORE_ERRORS, outage_of
from app.schemas.common import MAX_JSON_DEPTH, Problem

log = logging.getLogger(__name__)
PROBLEM_JSON = "application/problem+json"
PROBLEM_REF = "#/components/schemas/Problem"

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
    request: Request,
    status: int,
    title: str,
    detail: str,
    code: str,
    headers: Mapping[str, str] | None = None,
    **extra: Any,
) -> JSONResponse:
    """A problem+json response (``extra`` become members of the problem object)."""
    body = Problem(
        title=title,
        status=status,
        detail=detail,
        code=code,
        instance=request.url.path,
        request_id=getattr(request.state, "request_id", None),  # set by observability
        **extra,
    )
    return JSONResponse(
        jsonable_encoder(body, exclude_none=True),
        status_code=status,
        media_type=PROBLEM_JSON,
        headers=headers or None,
    )


def _clean_errors(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Keep location, a message that says what to fix, and type; drop the echoed input (it
    # may be huge or binary). A list over its length (``too_long``: a /store batch, an
    # append) also says its ``limit``, so a client can split it (tester hbreak7 H13).
    out = []
    for e in errors:
        entry = {"loc": list(e.get("loc", ())), "msg": friendly(e), "type": e.get("type", "")}
        limit = (e.get("ctx") or {}).get("max_length")
        if entry["type"] == "too_long" and isinstance(limit, int):
            entry["limit"] = limit
        out.append(entry)
    return out


def _is_json(content_type: str) -> bool:
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or media.endswith("+json")


# The methods a 405's Allow may name (each asked of the router: RFC 9110 15.5.6).
_METHODS = ("DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT")


def _allowed_methods(request: Request) -> str:
    """The ``Allow`` value of a 405: every method some route of the request's path takes
    (Starlette's router names only the first such route's, e.g. ``GET`` alone for
    ``/memories/{id}``, which also takes PATCH and DELETE), sorted, comma-separated."""
    routes = request.app.router.routes
    return ", ".join(
        m
        for m in _METHODS
        if any(r.matches({**request.scope, "method": m})[0] is Match.FULL for r in routes)
    )


def _body_problem(exc: StarletteHTTPException) -> tuple[str, str] | None:
    """(title, detail) when FastAPI could not decode the body (its generic 400 "There was an
    error parsing the body" carries the reason as ``__cause__``)."""
    cause = exc.__cause__
    if isinstance(cause, UnicodeDecodeError):
        return (
            "Malformed JSON",
            f"body is not valid UTF-8 (byte 0x{cause.object[cause.start]:02x} at offset "
            f"{cause.start}): send JSON encoded as UTF-8",
        )
    if isinstance(cause, NotUtf8Error):
        return (
            "Malformed JSON",
            "body is not valid UTF-8 (it reads as JSON in UTF-16 or UTF-32): send JSON "
            "encoded as UTF-8",
        )
    if isinstance(cause, ValueError) and "integer string conversion" in str(cause):
        # Python reads at most 4,300 digits of an integer (tester hbreak8 H22: a valid JSON
        # number of 5,000 digits got the generic "error parsing the body")
        return (
            "Malformed JSON",
            "body holds an integer of more than 4,300 digits, which this service does not "
            "read; send it as a string or a shorter number",
        )
    if isinstance(cause, RecursionError):
        return (
            "Malformed JSON",
            "body nests arrays or objects too deeply to parse; request bodies nest a few "
            f"levels (metadata at most {MAX_JSON_DEPTH})",
        )
    return None


async def hindsight_problem(request: Request, exc: HindsightError) -> JSONResponse:
    """The problem+json of an error the service raised on purpose (its status and code)."""
    if exc.status >= 500:
        log.error("%s: %s", exc.code, exc.detail)
    headers = getattr(exc, "headers", None) or None
    return problem(
        request, exc.status, exc.title, exc.detail, exc.code, headers=headers, **exc.extra
    )


async def unexpected_problem(request: Request, exc: Exception) -> JSONResponse:
    """Any other exception: 503 ``datastore_unavailable`` when it says PostgreSQL or Redis is
    unreachable (:func:`app.core.outage.outage_of`; logged as a warning), else 500
    ``internal_error`` (logged with its traceback)."""
    store = outage_of(exc)
    if store is not None:  # PostgreSQL or Redis unreachable: 503, retry later
        log.warning("%s unavailable on %s: %s", store, request.url.path, exc)
        error = DatastoreUnavailableError(
            f"{store} is unavailable ({type(exc).__name__}); the request was not "
            f"completed, retry after {DatastoreUnavailableError.retry_after_s} s"
        )
        return await hindsight_problem(request, error)
    log.error("unhandled error on %s", request.url.path, exc_info=exc)
    return problem(
        request, 500, "Internal error", "An unexpected error occurred.", "internal_error"
    )


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into problem+json."""

    app.exception_handler(HindsightError)(hindsight_problem)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        raw = list(exc.errors())
        content_type = request.headers.get("content-type", "")
        # A body sent without a JSON Content-Type (none at all, or another one) reaches the
        # model as bytes: the same 415 either way. A missing body stays a 422 ("required").
        if not _is_json(content_type) and any(
            tuple(e.get("loc", ())) == ("body",) and e.get("type") != "missing" for e in raw
        ):
            got = f"got {content_type[:100]!r}" if content_type else "none was sent"
            return problem(
                request,
                415,
                "Unsupported media type",
                f"send Content-Type: application/json ({got})",
                "unsupported_media_type",
            )
        errors = _clean_errors(raw)
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
        encoding = content_encoding(request)
        if exc.status_code == 400 and encoding is not None:  # a compressed body (tester C6)
            detail = f"Content-Encoding {encoding!r} is not accepted: send the body uncompressed"
            return problem(request, 415, "Unsupported media type", detail, "unsupported_media_type")
        body = _body_problem(exc) if exc.status_code == 400 else None
        if body is not None:
            return problem(request, 400, *body, "malformed_json")
        code = _HTTP_CODES.get(exc.status_code, "http_error")
        title = code.replace("_", " ").capitalize()
        headers = exc.headers
        if exc.status_code == 405:
            headers = {**(headers or {}), "Allow": _allowed_methods(request)}
        return problem(request, exc.status_code, title, str(exc.detail), code, headers=headers)

    # Datastore client errors first (handled inside the app, so a 503 is not logged as a
    # crash), then everything else.
    for error_type in DATASTORE_ERRORS:
        app.add_exception_handler(error_type, unexpected_problem)
    app.add_exception_handler(Exception, unexpected_problem)

    _document_problem_media_type(app)


def _document_problem_media_type(app: FastAPI) -> None:
    """FastAPI documents an additional response's ``model`` under the route's media type
    (``application/json``); error bodies are ``application/problem+json``, so the generated
    OpenAPI moves every 4xx/5xx Problem schema there (generated SDKs then parse errors)."""
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        schema = generate()
        for operations in schema.get("paths", {}).values():
            for operation in operations.values():
                for status, response in operation.get("responses", {}).items():
                    content = response.get("content") or {}
                    plain = content.get("application/json", {}).get("schema")
                    if status[:1] in "45" and plain == {"$ref": PROBLEM_REF}:
                        del content["application/json"]
                        content[PROBLEM_JSON] = {"schema": plain}
        return schema

    # Replacing app.openapi is FastAPI's documented way to post-process the schema.
    app.openapi = openapi  # type: ignore[method-assign]


# Documented on every operation, so generated SDKs know the error shape (rendered under
# application/problem+json by _document_problem_media_type).
def _err(description: str) -> dict[str, Any]:
    return {"model": Problem, "description": description}


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: _err(
        "Malformed JSON, a body not in UTF-8 (UTF-16 and UTF-32 included) or too deep nesting "
        "(`malformed_json`)."
    ),
    401: _err("No API key (`missing_api_key`) or an unknown or revoked one (`invalid_api_key`)."),
    413: _err("Request body larger than MAX_BODY_BYTES (`payload_too_large`)."),
    415: _err(
        "A body sent without `Content-Type: application/json` (none, or another media type), "
        "or compressed (a `Content-Encoding`): `unsupported_media_type`."
    ),
    422: _err("Invalid request (`invalid_request`): `errors` lists each field's problem."),
    429: _err(
        "Per-key rate limit, or the caller's limits on embedding work (`LIMITS__EMBED_*`), "
        "exceeded (`rate_limited`); see `Retry-After`."
    ),
    500: _err("Internal error (`internal_error`)."),
    503: _err("PostgreSQL or Redis unavailable (`datastore_unavailable`); see `Retry-After`."),
}
NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: _err("No such unit in your namespace (`not_found`)."),
}
SESSION_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: _err(
        "The session is another user's than the request's `user_id` (`not_found`, the "
        "answer for another user's unit); nothing changed."
    ),
}
PROVIDER_ERRORS: dict[int | str, dict[str, Any]] = {
    502: _err("Embedding provider failed (`provider_error`)."),
    504: _err("Embedding provider timed out (`provider_timeout`)."),
}
