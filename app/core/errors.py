"""The service's one error hierarchy. Each error carries its HTTP status and a stable ``code``.

    HindsightError                 500 internal_error
    ├── BadRequestError            422 invalid_request
    │   └── IdempotencyKeyReuseError  422 idempotency_key_reused
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

    def __init__(self, detail: str, *, extra: dict[str, Any] | None = None) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extra = extra or {}


class BadRequestError(HindsightError):
    status, code, title = 422, "invalid_request", "Invalid request"


class IdempotencyKeyReuseError(BadRequestError):
    code, title = "idempotency_key_reused", "Idempotency key reused with another body"


class NotFoundError(HindsightError):
    status, code, title = 404, "not_found", "Not found"


class ConflictError(HindsightError):
    status, code, title = 409, "conflict", "Conflict"


class DatastoreUnavailableError(HindsightError):
    status, code, title = 503, "datastore_unavailable", "Datastore unavailable"


class ProviderError(HindsightError):
    status, code, title = 502, "provider_error", "Upstream provider failed"


class ProviderTimeoutError(ProviderError):
    status, code, title = 504, "provider_timeout", "Upstream provider timed out"


class ConfigurationError(HindsightError):
    code, title = "configuration_error", "Configuration error"
