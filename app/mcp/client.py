"""HTTP calls to the Hindsight REST API, for the MCP tools.

Every call carries an API key (``Authorization: Bearer``) when one is known. An error answer
(RFC 9457 problem+json) becomes :class:`ApiError` with the API's stable ``code``; a network
failure becomes ``api_unreachable`` (503) or ``api_timeout`` (504).
"""

from __future__ import annotations

from typing import Any

import httpx


class ApiError(Exception):
    """The REST API refused or failed a call. ``code`` is the API's stable error code."""

    def __init__(
        self,
        status: int,
        code: str,
        detail: str,
        title: str = "",
        request_id: str | None = None,
    ) -> None:
        super().__init__(f"{code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.title = title
        self.request_id = request_id

    def as_dict(self) -> dict[str, Any]:
        """The error as the tool returns it (``structuredContent.error``)."""
        return {
            "code": self.code,
            "status": self.status,
            "title": self.title,
            "detail": self.detail,
            "request_id": self.request_id,
        }


def _problem(response: httpx.Response) -> ApiError:
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        body = {}
    return ApiError(
        status=response.status_code,
        code=str(body.get("code") or f"http_{response.status_code}"),
        detail=str(body.get("detail") or response.text[:500] or response.reason_phrase),
        title=str(body.get("title") or response.reason_phrase),
        request_id=body.get("request_id") or response.headers.get("x-request-id"),
    )


class RestApi:
    """A client of one REST API base URL, with a default API key."""

    def __init__(
        self,
        base_url: str,
        api_key: str | None = None,
        timeout_s: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key or None
        self.timeout_s = timeout_s
        self._transport = transport

    async def call(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: dict[str, Any] | None = None,
        api_key: str | None = None,
    ) -> Any:
        """One request; returns the decoded JSON body (None for 204). ``api_key`` overrides
        the default key. Raises ApiError."""
        key = api_key or self.api_key
        headers = {"Authorization": f"Bearer {key}"} if key else {}
        # A client per call: tool calls are rare next to their own latency, and nothing
        # is left open between calls whatever the transport's event-loop life.
        async with httpx.AsyncClient(
            base_url=self.base_url, timeout=self.timeout_s, transport=self._transport
        ) as client:
            try:
                response = await client.request(
                    method, path, json=json, params=params, headers=headers
                )
            except httpx.TimeoutException as exc:
                raise ApiError(
                    504,
                    "api_timeout",
                    f"the Hindsight API did not answer in time: {exc}",
                    "API timeout",
                ) from exc
            except httpx.TransportError as exc:
                raise ApiError(
                    503,
                    "api_unreachable",
                    f"cannot reach the Hindsight API at {self.base_url}: {exc}",
                    "API unreachable",
                ) from exc
        if response.status_code >= 400:
            error = _problem(response)
            if error.code == "missing_api_key" and not key:
                # Tester finding T20: the REST wording alone does not say where an MCP user
                # puts the key.
                error.detail += (
                    " (an MCP client over stdio: set MCP__API_KEY in the environment of"
                    " `hindsight mcp`; over HTTP: send Authorization: Bearer <key> to /mcp,"
                    " the HTTP server never lends MCP__API_KEY)"
                )
            raise error
        if response.status_code == 204 or not response.content:
            return None
        return response.json()
