"""Errors: every problem+json answer of the API raises the class of its ``code``.

The API answers each error as RFC 9457 ``application/problem+json`` with a stable ``code``
(``not_found``, ``invalid_request``, …). :func:`from_response` maps it to one class per code,
all subclasses of :class:`HindsightError` (and of the family of its HTTP status: a
``MissingApiKeyError`` is an ``UnauthorizedError``), carrying ``status``, ``code``,
``title``, ``detail``, ``request_id``, ``errors`` (the per-field problems of a 422), the
whole ``problem`` body and, from a split store or append, ``written``: the joined answer of
the parts written before this one failed (None when none was). A code this client does not
know yet raises the class of its status family (``HindsightError`` at worst), never a bare
HTTP error. Network failures raise :class:`ConnectionFailedError` / :class:`TimeoutError_`
(both :class:`TransportError`).
"""

from __future__ import annotations

from typing import Any

import httpx


class HindsightError(Exception):
    """An error answer of the Hindsight API (or of the way to it)."""

    code = "internal_error"
    status = 500

    def __init__(
        self,
        detail: str,
        *,
        status: int | None = None,
        code: str | None = None,
        title: str = "",
        request_id: str | None = None,
        problem: dict[str, Any] | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(f"{code or self.code}: {detail}")
        self.detail = detail
        self.status = status if status is not None else type(self).status
        self.code = code or type(self).code
        self.title = title
        self.request_id = request_id
        self.problem = problem or {}
        self.errors: list[dict[str, Any]] = list(self.problem.get("errors") or [])
        self.retry_after_s = retry_after_s
        # A split store or append (``split=True``) is not atomic: when part k fails, the
        # joined answer of the parts before it, already written (a StoreResponse or an
        # AppendResponse with their seqs); None when nothing was written.
        self.written: Any = None


# --- one class per HTTP status family, then one per code (app/core/errors.py, app/api/errors.py)


class BadRequestError(HindsightError):
    status, code = 400, "bad_request"


class MalformedJsonError(BadRequestError):
    code = "malformed_json"


class UnauthorizedError(HindsightError):
    status, code = 401, "unauthorized"


class MissingApiKeyError(UnauthorizedError):
    code = "missing_api_key"


class InvalidApiKeyError(UnauthorizedError):
    code = "invalid_api_key"


class ForbiddenError(HindsightError):
    status, code = 403, "forbidden"


class NotFoundError(HindsightError):
    status, code = 404, "not_found"


class MethodNotAllowedError(HindsightError):
    status, code = 405, "method_not_allowed"


class ConflictError(HindsightError):
    status, code = 409, "conflict"


class JobNotRetryableError(ConflictError):
    code = "job_not_retryable"


class PayloadTooLargeError(HindsightError):
    status, code = 413, "payload_too_large"


class UnsupportedMediaTypeError(HindsightError):
    status, code = 415, "unsupported_media_type"


class InvalidRequestError(HindsightError):
    status, code = 422, "invalid_request"


class IdempotencyKeyReusedError(InvalidRequestError):
    code = "idempotency_key_reused"


class RateLimitedError(HindsightError):
    status, code = 429, "rate_limited"


class InternalError(HindsightError):
    status, code = 500, "internal_error"


class ConfigurationError(InternalError):
    code = "configuration_error"


class HttpError(HindsightError):
    """An HTTP error the API names only by status (``http_error``)."""

    code = "http_error"


class ProviderError(HindsightError):
    status, code = 502, "provider_error"


class ProviderBadReplyError(ProviderError):
    code = "provider_bad_reply"


class DatastoreUnavailableError(HindsightError):
    status, code = 503, "datastore_unavailable"


class ProviderTimeoutError(ProviderError):
    status, code = 504, "provider_timeout"


class TransportError(HindsightError):
    """The API could not be reached or did not answer (no HTTP answer at all)."""

    status, code = 503, "api_unreachable"


class ConnectionFailedError(TransportError):
    code = "api_unreachable"


class TimeoutError_(TransportError):  # noqa: N801 - TimeoutError is a builtin
    status, code = 504, "api_timeout"


ERRORS: dict[str, type[HindsightError]] = {
    cls.code: cls
    for cls in (
        BadRequestError, MalformedJsonError, UnauthorizedError, MissingApiKeyError,
        InvalidApiKeyError, ForbiddenError, NotFoundError, MethodNotAllowedError, ConflictError,
        JobNotRetryableError, ProviderBadReplyError,
        PayloadTooLargeError, UnsupportedMediaTypeError, InvalidRequestError,
        IdempotencyKeyReusedError, RateLimitedError, InternalError, ConfigurationError,
        HttpError, ProviderError, DatastoreUnavailableError, ProviderTimeoutError,
    )
}  # fmt: skip
BY_STATUS: dict[int, type[HindsightError]] = {
    400: BadRequestError, 401: UnauthorizedError, 403: ForbiddenError, 404: NotFoundError,
    405: MethodNotAllowedError, 409: ConflictError, 413: PayloadTooLargeError,
    415: UnsupportedMediaTypeError, 422: InvalidRequestError, 429: RateLimitedError,
    500: InternalError, 502: ProviderError, 503: DatastoreUnavailableError,
    504: ProviderTimeoutError,
}  # fmt: skip


def _retry_after(response: httpx.Response) -> float | None:
    value = response.headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:
        return None


def from_response(response: httpx.Response) -> HindsightError:
    """The exception for an error answer (status ≥ 400)."""
    try:
        body = response.json()
    except ValueError:
        body = None
    problem = body if isinstance(body, dict) else {}
    code = str(problem.get("code") or "")
    cls = ERRORS.get(code) or BY_STATUS.get(response.status_code) or HindsightError
    return cls(
        str(problem.get("detail") or response.text[:500] or response.reason_phrase),
        status=response.status_code,
        code=code or cls.code,
        title=str(problem.get("title") or response.reason_phrase),
        request_id=problem.get("request_id") or response.headers.get("x-request-id"),
        problem=problem,
        retry_after_s=_retry_after(response),
    )


def from_transport(exc: httpx.TransportError, base_url: str) -> TransportError:
    """The exception for a request that got no answer."""
    if isinstance(exc, httpx.TimeoutException):
        return TimeoutError_(f"the Hindsight API at {base_url} did not answer in time: {exc}")
    return ConnectionFailedError(f"cannot reach the Hindsight API at {base_url}: {exc}")
