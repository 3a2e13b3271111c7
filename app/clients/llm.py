"""Chat completions from any OpenAI-compatible endpoint (``POST {base_url}/chat/completions``).

    LLMClient (Protocol)
    ├── OpenAIChatClient   httpx, timeouts, bounded retries with backoff
    └── InstrumentedLLM    wraps one, records ``hindsight_llm_duration_seconds``

Failures map to the service's errors at this boundary:

- a timeout on every try → :class:`ProviderTimeoutError` (``provider_timeout``);
- 5xx, 429 or a transport error on every try, or a 4xx, or an answer without
  ``choices[0].message.content`` → :class:`ProviderError` (``provider_error``).

The reply text is returned as is: callers treat it as untrusted input. :meth:`chat` also
returns the token usage the provider reported (``usage.prompt_tokens`` /
``usage.completion_tokens`` of the chat-completions answer), for callers that report cost.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal, Protocol

import httpx

from app.core.config import LLMSettings
from app.core.errors import ProviderError, ProviderTimeoutError
from app.core.metrics import LLM_SECONDS

ChatMessage = dict[str, str]  # {"role": "system" | "user" | "assistant", "content": str}


@dataclass(frozen=True)
class ChatReply:
    """The reply text and the tokens the provider counted (None when it sent no usage)."""

    content: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class LLMClient(Protocol):
    """What extraction and conflict judging need from a chat model."""

    model: str

    async def complete(
        self, messages: list[ChatMessage], *, model: str | None = None, json_mode: bool = True
    ) -> str:
        """The assistant's reply text for ``messages`` (``model`` overrides the default)."""
        ...

    async def chat(
        self,
        messages: list[ChatMessage],
        *,
        model: str | None = None,
        json_mode: bool = True,
        max_retries: int | None = None,
    ) -> ChatReply:
        """The reply with its token usage; ``max_retries`` overrides the setting."""
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
        """POST the chat and return ``choices[0].message.content`` (see :meth:`chat`)."""
        return (await self.chat(messages, model=model, json_mode=json_mode)).content

    async def chat(
        self,
        messages: list[ChatMessage],
        *,
        model: str | None = None,
        json_mode: bool = True,
        max_retries: int | None = None,
    ) -> ChatReply:
        """POST the chat and return its content and usage.

        Retries 5xx, 429, transport errors and timeouts ``max_retries`` (default: the
        setting) times with backoff (0.5 s, 1 s, 2 s … capped at 8 s). Raises
        ProviderTimeoutError / ProviderError.
        """
        body = self._body(messages, model or self.model, json_mode)
        retries = self._settings.max_retries if max_retries is None else max_retries
        last: ProviderError | None = None
        for attempt in range(retries + 1):
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
            return _reply(resp)
        assert last is not None
        raise last

    async def aclose(self) -> None:
        """Close the HTTP client."""
        await self._client.aclose()


def _reply(resp: httpx.Response) -> ChatReply:
    try:
        data = resp.json()
        content = data["choices"][0]["message"]["content"]
    except (ValueError, KeyError, IndexError, TypeError) as exc:
        raise ProviderError("LLM answer has no choices[0].message.content") from exc
    if content is None:
        content = ""
    if not isinstance(content, str):
        raise ProviderError("LLM answer content is not text")
    usage = data.get("usage") if isinstance(data, dict) else None
    usage = usage if isinstance(usage, dict) else {}
    prompt, completion = usage.get("prompt_tokens"), usage.get("completion_tokens")
    return ChatReply(content, _count(prompt), _count(completion))


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


LLMReach = Literal["reachable", "unauthorized", "unreachable"]


async def probe_llm(settings: LLMSettings, timeout_s: float = 3.0) -> LLMReach:
    """Whether the configured endpoint answers, by one ``GET {base_url}/models`` (no chat, no
    tokens spent): ``unauthorized`` for a 401/403 (the key is refused), ``unreachable`` for a
    transport error, a timeout (``timeout_s``) or a 500/502/503/504 (a gateway whose model
    server is down), else ``reachable`` — any other answer, a 404 or 501 of a server without
    that route included, comes from a server that is there."""
    headers = {}
    if settings.api_key.get_secret_value():
        headers["Authorization"] = f"Bearer {settings.api_key.get_secret_value()}"
    try:
        async with httpx.AsyncClient(timeout=timeout_s) as client:
            resp = await client.get(settings.base_url.rstrip("/") + "/models", headers=headers)
    except (httpx.HTTPError, httpx.InvalidURL):
        return "unreachable"
    if resp.status_code in (401, 403):
        return "unauthorized"
    if resp.status_code in (500, 502, 503, 504):
        return "unreachable"
    return "reachable"


def create_llm(settings: LLMSettings) -> LLMClient | None:
    """The configured chat client, or None when no LLM is configured (offline extraction)."""
    if not settings.configured:
        return None
    return InstrumentedLLM(OpenAIChatClient(settings))  # latency metric of every chat


class InstrumentedLLM:
    """Delegates to ``inner`` and times each chat (seconds, by model and outcome
    ok|error|cancelled; retries inside the client count in the one call)."""

    def __init__(self, inner: LLMClient) -> None:
        self.inner = inner
        self.model = inner.model

    @contextlib.contextmanager
    def _timed(self, model: str | None) -> Iterator[None]:
        start = time.perf_counter()
        outcome = "error"
        try:
            yield
            outcome = "ok"
        except asyncio.CancelledError:  # the caller's deadline (the recall budget) passed
            outcome = "cancelled"
            raise
        finally:
            LLM_SECONDS.labels(model or self.model, outcome).observe(time.perf_counter() - start)

    async def complete(
        self, messages: list[ChatMessage], *, model: str | None = None, json_mode: bool = True
    ) -> str:
        with self._timed(model):
            return await self.inner.complete(messages, model=model, json_mode=json_mode)

    async def chat(
        self,
        messages: list[ChatMessage],
        *,
        model: str | None = None,
        json_mode: bool = True,
        max_retries: int | None = None,
    ) -> ChatReply:
        with self._timed(model):
            return await self.inner.chat(
                messages, model=model, json_mode=json_mode, max_retries=max_retries
            )

    async def aclose(self) -> None:
        await self.inner.aclose()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)
