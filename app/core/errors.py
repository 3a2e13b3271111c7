"""The service's one error hierarchy. Each error carries its HTTP status and a stable ``code``.

    HindsightError                 500 internal_error
    ├── BadRequestError            422 invalid_request
    │   └── IdempotencyKeyReuseError  422 idempotency_key_reused
    ├── UnauthorizedError          401 unauthorized
    │   ├── MissingApiKeyError     401 missing_api_key
    │   └── InvalidApiKeyError     401 invalid_api_key
    ├── RateLimitedError           429 rate_limited
    ├── NotFoundError              404 not_found
    ├── ConflictError              409 conflict
    ├── DatastoreUnavailableError  503 datastore_unavailable
    ├── ProviderError              502 provider_error
    │   └── ProviderTimeoutError   504 provider_timeout
    └── ConfigurationError         500 configuration_error (raised at start-up)

``app/api/errors.py`` renders them as RFC 9457 problem+json.
"""

from __future__ import annotations

from typing import Any


class HindsightError(Exception):
    """Base of every error the service raises on purpose."""

    status: int = 500
    code: str = "internal_error"
    title: str = "Internal error"
    # Extra response headers (WWW-Authenticate on 401, Retry-After on 429).
    headers: dict[str, str] = {}  # read-only; subclasses replace it, never mutate it

    def __init__(self, detail: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra or {}


class BadRequestError(HindsightError):
    status, code, title = 422, "invalid_request", "Invalid request"


class IdempotencyKeyReuseError(BadRequestError):
    code, title = "idempotency_key_reused", "Idempotency key reused with another body"


class UnauthorizedError(HindsightError):
    """The caller could not be authenticated. ``headers`` go on the response."""

    status, code, title = 401, "unauthorized", "Unauthorized"
    headers = {"WWW-Authenticate": 'Bearer realm="hindsight"'}


class MissingApiKeyError(UnauthorizedError):
    code, title = "missing_api_key", "API key required"


class InvalidApiKeyError(UnauthorizedError):
    code, title = "invalid_api_key", "Invalid API key"


class RateLimitedError(HindsightError):
    status, code, title = 429, "rate_limited", "Too many requests"

    def __init__(self, detail: str, *, retry_after_s: int) -> None:
        super().__init__(detail, extra={"retry_after_s": retry_after_s})
        self.headers = {"Retry-After": str(retry_after_s)}


class NotFoundError(HindsightError):
    status, code, title = 404, "not_found", "Not found"


class ConflictError(HindsightError):
    status, code, title = 409, "conflict", "Conflict"


class DatastoreUnavailableError(HindsightError):
    """PostgreSQL or Redis does not answer; the request changed nothing it reports as
    done, and may be retried after ``Retry-After`` seconds."""

    status, code, title = 503, "datastore_unavailable", "Datastore unavailable"
    retry_after_s = 2
    headers = {"Retry-After": str(retry_after_s)}


class ProviderError(HindsightError):
    status, code, title = 502, "provider_error", "Upstream provider failed"


class ProviderTimeoutError(ProviderError):
    status, code, title = 504, "provider_timeout", "Upstream provider timed out"


class ConfigurationError(HindsightError):
    code, title = "configuration_error", "Configuration error"
