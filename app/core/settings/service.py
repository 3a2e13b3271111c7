"""Settings of the service around memory: API keys, MCP, the worker and request limits.

Each class is one ``PREFIX__`` group of :class:`app.core.config.Settings`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, SecretStr, field_validator, model_validator


class AuthSettings(BaseModel):
    """Who may call the API: API keys map callers to namespaces (docs/DEPLOY.md)."""

    # auto: keys are required when the API listens on a non-loopback address (LISTEN_HOST)
    # or once any active key exists; true: always; false: never (a key sent is still checked).
    required: Literal["auto", "true", "false"] = "auto"
    # Seconds a key lookup is cached per process (a key change clears every cache at once).
    cache_ttl_s: float = Field(default=10.0, ge=0, le=3600)
    # Per-key request rate limit in the `limits` library's notation ("100/minute",
    # "10/second;1000/hour"); empty means no limit. Counted in Redis when REDIS_URL is set
    # (shared by replicas), else in process memory.
    rate_limit: str = ""

    @field_validator("rate_limit")
    @classmethod
    def _parse_rate_limit(cls, value: str) -> str:
        if value.strip():
            from limits import parse_many

            parse_many(value)  # ValueError names what it could not read
        return value.strip()


class McpSettings(BaseModel):
    """The MCP server (`hindsight mcp`): a client of the REST API, nothing else."""

    api_base_url: str = "http://127.0.0.1:8000"
    # Sent as `Authorization: Bearer …` over stdio only; over streamable HTTP it is never
    # used (each caller's own Authorization or X-API-Key header passes through).
    api_key: SecretStr = SecretStr("")
    transport: Literal["stdio", "streamable-http"] = "stdio"
    # Over stdio only: every tool call acts for this user (no user_id in the tool schemas;
    # calls by id scoped with ?user_id=). Empty: the model names the user (any user of the
    # key's namespace). Over streamable HTTP each caller sends X-Hindsight-User-Id instead.
    user_id: str = Field(default="", max_length=256)
    # Address and port of the streamable HTTP transport (path /mcp).
    host: str = "127.0.0.1"
    port: int = Field(default=8001, ge=1, le=65535)
    # Seconds one REST call may take (extraction with an LLM can be slow).
    timeout_s: float = Field(default=60.0, gt=0)
    # Host headers the streamable HTTP transport accepts ("mcp:8001", "mcp.example.com:*");
    # empty: loopback only when host is a loopback address, anything otherwise.
    allowed_hosts: list[str] = Field(default_factory=list)


class WorkerSettings(BaseModel):
    """The job worker (`hindsight worker`, PostgreSQL queue via pgqueuer)."""

    # Run the worker inside `hindsight serve`. auto: exactly when DATABASE_URL is unset (the
    # embedded default); with a configured database run `hindsight worker` instead.
    in_process: bool | Literal["auto"] = "auto"
    # Attempts per job before it ends `failed` (retryable through POST /extract/{id}/retry).
    max_attempts: int = Field(default=3, ge=1, le=50)
    # Backoff between attempts: initial * 2^(attempt-1), capped (seconds).
    backoff_initial_s: float = Field(default=2.0, ge=0)
    backoff_max_s: float = Field(default=300.0, ge=0)
    # A running job whose runner stopped renewing its lease for this long is taken over
    # (also pgqueuer's heartbeat timeout for re-picking a crashed worker's job).
    lease_s: float = Field(default=30.0, ge=1)
    # Jobs one worker runs at once.
    concurrency: int = Field(default=2, ge=1, le=64)
    # Seconds between queue polls when no NOTIFY arrives.
    poll_interval_s: float = Field(default=5.0, gt=0)
    # `hindsight worker` serves Prometheus metrics on METRICS_HOST:METRICS_PORT (0: off).
    metrics_host: str = "127.0.0.1"
    metrics_port: int = Field(default=8002, ge=0, le=65535)


class LimitsSettings(BaseModel):
    """Request size limits: the app created with them validates requests and describes its
    OpenAPI document with them (``app/schemas/limits.py``)."""

    store_batch: int = Field(default=100, ge=1, le=10_000)
    value_chars: int = Field(default=2000, ge=1, le=100_000)
    recall_top_k: int = Field(default=100, ge=1, le=1000)
    message_batch: int = Field(default=100, ge=1, le=10_000)
    message_chars: int = Field(default=100_000, ge=1, le=10_000_000)
    extract_messages: int = Field(default=500, ge=1, le=100_000)
    # Characters of one /extract's messages together (as much as one message may hold): the
    # job embeds every unit it makes (offline, ~1 s of the bundled model per 2,500 characters
    # of prose on 2 idle cores), in the background where no 422 or 429 can stop it, so the
    # transcript itself is bounded; past it a 422 asks to split it (docs/RELIABILITY.md,
    # "Cost at the limits").
    extract_chars: int = Field(default=100_000, ge=1, le=100_000_000)
    list_page: int = Field(default=200, ge=1, le=10_000)
    # Bytes of one unit's `metadata` (/store), written as compact UTF-8 JSON: past it a 422
    # (tester H20: six units of 1 MB of metadata each made a 6 MB /recall answer).
    metadata_bytes: int = Field(default=16_384, ge=2, le=100_000_000)
    # ---- the embedder's cost, in its own tokens (app/services/embedding_budget.py) ----
    # Model tokens of one text a request has embedded in the foreground (a unit's value or
    # trigger scenario, a recall, window or /context query; prefix and special tokens
    # included): past it a 422 says the limit and the count. At most LIMITS__REQUEST_TOKENS.
    # (One window of multilingual-e5-small is 512: more would cost another pass per 510.)
    # Working-memory messages keep their whole text and have their first window of this many
    # tokens embedded.
    text_tokens: int = Field(default=384, ge=16, le=100_000)
    # Model tokens all texts of one request may have embedded, together (a text sent twice
    # counted once; an append: its messages' first windows; a window read: its query and the
    # messages it embeds itself, the others ranked without relevance): past it a 422 with each
    # item's count asks to split the batch. 384 tokens
    # are ~0.35 s of the bundled model on 2 idle cores, ~0.7 s on the 1-thread team it uses
    # when the cores are busy: a request at the limits stays within 1 s of embedder time
    # (docs/RELIABILITY.md "Cost at the limits"); ~15 one-sentence facts per /store. At
    # least LIMITS__TEXT_TOKENS. With a remote embedder (EMBEDDING__PROVIDER=openai) the local
    # CPU is not the cost: raise both.
    request_tokens: int = Field(default=384, ge=16, le=10_000_000)
    # Requests with embedding work one caller (an API key, or a client address when keys are
    # off: every local client is one caller then) may have in flight in one API process; one
    # more is a 429 with Retry-After. 0: off.
    embed_concurrency: int = Field(default=16, ge=0, le=10_000)
    # Model tokens one caller may have embedded, in the `limits` notation ("120000/minute",
    # "4000/second;120000/minute"), per API process; past it a 429 with Retry-After. Empty:
    # off. The default is about twice what the bundled model embeds in a minute on 2 idle
    # cores: it stops a runaway client, and the embedder's fair queuing shares the model.
    embed_token_rate: str = "120000/minute"

    @model_validator(mode="after")
    def _text_within_request(self) -> LimitsSettings:
        if self.text_tokens > self.request_tokens:
            raise ValueError(
                f"LIMITS__TEXT_TOKENS ({self.text_tokens}) must not exceed "
                f"LIMITS__REQUEST_TOKENS ({self.request_tokens}): a text at its limit could "
                "never be sent"
            )
        return self

    @field_validator("embed_token_rate")
    @classmethod
    def _parse_token_rate(cls, value: str) -> str:
        if value.strip():
            from limits import parse_many

            parse_many(value)  # ValueError names what it could not read
        return value.strip()
