"""Chat completions from any OpenAI-compatible endpoint (``POST {base_url}/chat/completions``).

    LLMClient (Protocol)
    ├── OpenAIChatClient   httpx, timeouts, bounded retries with backoff
    └── InstrumentedLLM    wraps one, records ``hindsight_llm_duration_seconds``

Failures map to the service's errors at this boundary:

- a timeout on every try → :class:`ProviderTimeoutError` (``provider_timeout``);
- 5xx, 429 or a transport error on every try, or a 4xx, or an answer without
  ``choices[0].message.content`` → :class:`ProviderError` (``provider_error``).

The reply text is returned as is: callers treat it as untrusted input.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Protocol

import httpx

from app.core.config import LLMSettings
from app.core.errors import ProviderError, ProviderTimeoutError
from app.core.metrics import LLM_SECONDS

ChatMessage = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": str}


class LLMClient(Protocol):
    """What extraction and conflict judging need from a chat model."""

    model: str

    async def complete(
        self, messages: list[ChatMessage], *, model: str | None = None, json_mode: bool = True
    ) -> str:
        """The assistant's reply text for ``messages`` (``model`` overrides the default)."""
        ...

    async def aclose(self) -> None:
        """Release the HTTP client."""
        ...


class OpenAIChatClient:
    """OpenAI-compatible chat completions over httpx."""

    def __init__(self, settings: LLMSettings, client: httpx.AsyncClient | None = None) -> None:
        self.model = settings.model
        self._settings = settings
        headers = {"Content-Type": "application/json"}
        if settings.api_key.get_secret_value():
            headers["Authorization"] = f"Bearer {settings.api_key.get_secret_value()}"
        self._client = client or httpx.AsyncClient(
            base_url=settings.base_url.rstrip("/"),
            headers=headers,
            timeout=httpx.Timeout(settings.timeout_s, connect=settings.connect_timeout_s),
        )

    def _body(self, messages: list[ChatMessage], model: str, json_mode: bool) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": model,
            "messages": messages,
            "temperature": self._settings.temperature,
            "max_tokens": self._settings.max_tokens,
        }
        if json_mode and self._settings.json_mode:
            body["response_format"] = {"type": "json_object"}
        return body

    async def complete(
        self, messages: list[ChatMessage], *, model: str | None = None, json_mode: bool = True
    ) -> str:
        """POST the chat and return ``choices[0].message.content``.

        Retries 5xx, 429, transport errors and timeouts ``max_retries`` times with backoff
        (0.5 s, 1 s, 2 s … capped at 8 s). Raises ProviderTimeoutError / ProviderError.
        """
        body = self._body(messages, model or self.model, json_mode)
        last: ProviderError | None = None
        for attempt in range(self._settings.max_retries + 1):
            if attempt:
                await asyncio.sleep(min(8.0, 0.5 * 2 ** (attempt - 1)))
            try:
                resp = await self._client.post("/chat/completions", json=body)
            except httpx.TimeoutException as exc:
                last = ProviderTimeoutError(f"LLM timed out after {self._settings.timeout_s} s")
                last.__cause__ = exc
                continue
            except httpx.TransportError as exc:
                last = ProviderError(f"LLM unreachable: {type(exc).__name__}: {exc}")
                continue
            if resp.status_code >= 500 or resp.status_code == 429:
                last = ProviderError(f"LLM answered HTTP {resp.status_code}")
                continue
            if resp.status_code >= 400:
                raise ProviderError(f"LLM rejected the request: HTTP {resp.status_code}")
            return _content(resp)
        assert last is not None
        raise last

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.aclose()


def _content(resp: httpx.Response) -> str:
    try:
        content = resp.json()["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ProviderError("LLM answer has no choices[0].message.content") from exc
    if content is None:
        return ""
    if not isinstance(content, str):
        raise ProviderError("LLM answer content is not text")
    return content


def create_llm(settings: LLMSettings) -> LLMClient | None:
    """The configured chat client, or None when no LLM is configured (offline extraction)."""
    if not settings.configured:
        return None
    return InstrumentedLLM(OpenAIChatClient(settings))  # latency metric of every chat


class InstrumentedLLM:
    """Delegates to ``inner`` and times each chat (seconds, by model and outcome ok|error;
    retries inside the client count in the one call)."""

    def __init__(self, inner: LLMClient) -> None:
        self.inner = inner
        self.model = inner.model

    async def complete(
        self, messages: list[ChatMessage], *, model: str | None = None, json_mode: bool = True
    ) -> str:
        start = time.perf_counter()
        outcome = "error"
        try:
            reply = await self.inner.complete(messages, model=model, json_mode=json_mode)
            outcome = "ok"
            return reply
        finally:
            LLM_SECONDS.labels(model or self.model, outcome).observe(time.perf_counter() - start)

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
