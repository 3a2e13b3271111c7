"""What both clients share: configuration, headers, the retrying transport, error mapping."""

from __future__ import annotations

import os
import uuid
from dataclasses import dataclass
from typing import Any

import httpx
from httpx_retries import Retry, RetryTransport

from hindsight_client import errors
from hindsight_client._operations import Call, T

DEFAULT_BASE_URL = "http://127.0.0.1:8000"
WRITES = frozenset({"POST", "PATCH", "DELETE"})


@dataclass(frozen=True)
class RetryPolicy:
    """When a request is sent again.

    Only answers that say nothing was done are retried: 429 ``rate_limited`` and 503
    ``datastore_unavailable`` (both carry ``Retry-After``, which is honoured, capped at
    ``max_wait_s``), and connection failures before the request reached the server. Other
    waits back off exponentially (``backoff_s`` · 2^attempt, with jitter). Writes are retried
    too: each write carries one ``Idempotency-Key`` for all its attempts (``POST /store``, a
    working-memory append and ``POST /extract`` replay their first answer for it)."""

    attempts: int = 3
    backoff_s: float = 0.5
    max_wait_s: float = 30.0
    statuses: tuple[int, ...] = (429, 503)

    def retry(self) -> Retry:
        return Retry(
            total=max(0, self.attempts - 1),
            allowed_methods=["GET", "HEAD", "OPTIONS", "POST", "PUT", "PATCH", "DELETE"],
            status_forcelist=list(self.statuses),
            # Not a read timeout: the server may have done the work.
            retry_on_exceptions=[httpx.ConnectError, httpx.ConnectTimeout],
            backoff_factor=self.backoff_s,
            respect_retry_after_header=True,
            max_backoff_wait=self.max_wait_s,
        )


NO_RETRIES = RetryPolicy(attempts=1)


class _Base:
    def __init__(
        self,
        base_url: str | None = None,
        api_key: str | None = None,
        *,
        timeout: float | httpx.Timeout = 30.0,
        retries: RetryPolicy | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.base_url = (base_url or os.environ.get("HINDSIGHT_URL") or DEFAULT_BASE_URL).rstrip(
            "/"
        )
        self.api_key = api_key if api_key is not None else os.environ.get("HINDSIGHT_API_KEY")
        self.timeout = timeout if isinstance(timeout, httpx.Timeout) else httpx.Timeout(timeout)
        self.retries = retries or RetryPolicy()
        self.headers = {"User-Agent": "hindsight-client-python", **(headers or {})}
        if self.api_key:
            self.headers["Authorization"] = f"Bearer {self.api_key}"

    def _transport(self, inner: Any) -> RetryTransport:
        return RetryTransport(transport=inner, retry=self.retries.retry())

    @staticmethod
    def _headers(call: Call[Any], idempotency_key: str | None) -> dict[str, str]:
        if call.method in WRITES:
            return {"Idempotency-Key": idempotency_key or uuid.uuid4().hex}
        return {}

    def _result(self, call: Call[T], response: httpx.Response) -> T:
        if response.status_code >= 400:
            raise errors.from_response(response)
        return call.parse(response)
